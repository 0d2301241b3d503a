"""`lumos schema` (one self-contained JSON Schema for editors and generic validators) and
`lumos new card` (a commented skeleton that, filled in, passes `lumos check`)."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml
from jsonschema import Draft202012Validator

from lumos.cli import main
from lumos.toolkit.expansions import MANIFEST_SCHEMA

ROOT = Path(__file__).resolve().parents[1]
GAME = "snitch-snatcher"
EXAMPLES = ROOT / "examples"


@pytest.fixture(scope="module")
def bundled(tmp_path_factory) -> dict:
    import io
    from contextlib import redirect_stdout
    buf = io.StringIO()
    with redirect_stdout(buf):
        assert main(["schema", GAME]) == 0
    return json.loads(buf.getvalue())


def refs(node):
    if isinstance(node, dict):
        for k, v in node.items():
            if k == "$ref":
                yield v
            else:
                yield from refs(v)
    elif isinstance(node, list):
        for v in node:
            yield from refs(v)


def test_schema_is_self_contained_draft_2020_12(bundled):
    Draft202012Validator.check_schema(bundled)
    assert bundled["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert all(r.startswith("#/$defs/") for r in refs(bundled)), list(refs(bundled))
    # every local reference resolves
    for r in refs(bundled):
        assert r.split("/")[-1] in bundled["$defs"]


def test_generic_validator_accepts_the_bundled_cards(bundled):
    v = Draft202012Validator(bundled)   # no registry, no files: only the one schema
    for path in sorted((ROOT / "cards" / GAME).glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        assert not list(v.iter_errors(data)), path
    for path in sorted((EXAMPLES / "snitch-snatcher-expansion").glob("*.yaml")):
        if path.name != "expansion.yaml":
            assert not list(v.iter_errors(yaml.safe_load(path.read_text(encoding="utf-8")))), path


@pytest.mark.parametrize("card, wrong", [
    ({"name": "A", "type": "action", "colour": "ofense", "threshold": 1, "text": "t", "effect": "pass"}, "colour"),
    ({"name": "A", "type": "action", "colour": "offense", "text": "t", "effect": "pass"}, "threshold"),
    ({"name": "A", "type": "action", "colour": "offense", "threshold": 9, "text": "t", "effect": "pass"},
     "threshold"),
    ({"name": "A", "type": "action", "colour": "offense", "threshold": 1, "text": "t", "effect": "pass",
      "interrupt": True}, "window"),
    ({"name": "A", "type": "skill", "colour": "offense", "threshold": 1}, "threshold"),
    ({"name": "A", "type": "spell"}, "type"),
    ({"name": "A", "type": "spot", "end": "east"}, "end"),
    ({"name": "", "type": "skill", "colour": "offense"}, "name"),
    ({"name": "A", "type": "skill", "colour": "offense", "copies": 0}, "copies"),
])
def test_generic_validator_rejects_broken_cards(bundled, card, wrong):
    errors = list(Draft202012Validator(bundled).iter_errors({"deck": "home", "cards": [card]}))
    assert errors
    assert any(wrong in json.dumps(list(e.absolute_path) + [e.message]) for e in errors), \
        [e.message for e in errors]


def test_schema_output_folder(tmp_path, capsys):
    assert main(["schema", GAME, "-o", str(tmp_path / "schema")]) == 0
    names = sorted(p.name for p in (tmp_path / "schema").iterdir())
    assert names == ["expansion.schema.json", f"{GAME}.schema.json"]
    manifest = json.loads((tmp_path / "schema" / "expansion.schema.json").read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(manifest)
    example = yaml.safe_load((EXAMPLES / "snitch-snatcher-expansion" / "expansion.yaml").read_text(encoding="utf-8"))
    assert not list(Draft202012Validator(manifest).iter_errors(example))
    assert list(Draft202012Validator(manifest).iter_errors({"extend": GAME}))


def test_shipped_example_schemas_are_up_to_date(tmp_path):
    """examples/schema/ is what `lumos schema snitch-snatcher -o examples/schema` writes (the modelines use it)."""
    assert main(["schema", GAME, "-o", str(tmp_path)]) == 0
    for p in tmp_path.iterdir():
        assert (EXAMPLES / "schema" / p.name).read_text(encoding="utf-8") == p.read_text(encoding="utf-8"), \
            f"run: lumos schema {GAME} -o examples/schema"


def test_every_field_has_title_and_description():
    for prop in MANIFEST_SCHEMA["properties"].values():
        assert prop["title"] and prop["description"] and prop["examples"]


def test_schema_usage_errors(capsys):
    assert main(["schema", "no-such-game"]) == 2


# ---------------------------------------------------------------- lumos new card
def skeleton(card_type: str, capsys) -> str:
    assert main(["new", "card", GAME, "--type", card_type]) == 0
    return capsys.readouterr().out


def fill(text: str) -> str:
    """Uncomment every optional field (and the lines of its `|` block) of a skeleton."""
    out = []
    for line in text.splitlines():
        m = re.match(r"^(    )# (\w+: .*|  .*)$", line)
        if m and not re.match(r"^    # [A-Z]", line):
            out.append(m.group(1) + m.group(2))
        else:
            out.append(line)
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("card_type", ["action", "skill", "spot"])
def test_new_card_skeleton_checks_clean_as_is_and_filled(card_type, tmp_path, capsys):
    text = skeleton(card_type, capsys)
    assert text.startswith("# yaml-language-server: $schema=")
    data = yaml.safe_load(text)
    assert data["cards"][0]["type"] == card_type
    assert "(required)" in text
    as_is = tmp_path / "as_is.yaml"
    as_is.write_text(text, encoding="utf-8")
    filled = tmp_path / "filled.yaml"
    filled.write_text(fill(text), encoding="utf-8")
    assert yaml.safe_load(filled.read_text(encoding="utf-8"))["cards"][0].keys() > data["cards"][0].keys() \
        or card_type == "skill"
    assert main(["check", "--game", GAME, str(as_is), str(filled), "--strict", "--format", "json"]) == \
        (1 if card_type == "spot" else 0)
    diags = json.loads(capsys.readouterr().out)
    if card_type == "spot":
        # The schema lets a Spot card carry an effect (an expansion's rules could play it),
        # but the bundled rules never play Spot cards, so the lint says the effect never runs.
        assert [(d["code"], Path(d["path"]).name) for d in diags] == [("W311", "filled.yaml")]
    else:
        assert diags == []


def test_new_action_card_lists_choices_and_windows(capsys):
    raw = skeleton("action", capsys)
    text = " ".join(line.strip().lstrip("#").strip() for line in raw.splitlines())
    assert "One of: offense, defense, wizardry." in text
    assert "A whole number from 1 to 4." in text
    assert "Windows the rules declare: goal_attempt, pass_play, knock_off." in text
    assert "Required when: an interrupt card" in text
    filled = yaml.safe_load(fill(raw))["cards"][0]
    assert filled["interrupt"] is True and filled["window"] == "goal_attempt"


def test_new_card_errors(tmp_path, capsys):
    assert main(["new", "card", GAME, "--type", "actoin"]) == 2
    assert "did you mean `action`" in capsys.readouterr().err
    assert main(["new", "card", GAME]) == 2
    out = tmp_path / "card.yaml"
    assert main(["new", "card", GAME, "--type", "spot", "-o", str(out)]) == 0
    assert main(["new", "card", GAME, "--type", "spot", "-o", str(out)]) == 2
    assert main(["new", "card", GAME, "--type", "spot", "-o", str(out), "--force"]) == 0
