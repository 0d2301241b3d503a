"""The TextMate grammars that colour `.lumos` files and card effects in editors (issue 13, part 3:
"Ship a TextMate grammar ... so `.lumos` files are coloured in editors"): the shipped files are
current, every pattern compiles, and a small scanner that applies the grammar the way an
editor does colours every bundled rules line without leaving a character unmatched."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from lumos.editor import textmate

ROOT = Path(__file__).resolve().parents[1]
RULES = sorted((ROOT / "rules").glob("*/*.lumos"))


def test_the_shipped_grammars_are_the_generated_ones():
    for name in textmate.FILES:
        shipped = (textmate.HERE / name).read_text(encoding="utf-8")
        assert shipped == textmate.shipped(name), f"run: python -c 'from lumos.editor.textmate import " \
                                                  f"write_grammars; write_grammars()' ({name} is stale)"


def _regexes(node):
    if isinstance(node, dict):
        for key in ("match", "begin", "end"):
            if isinstance(node.get(key), str):
                yield node[key]
        for value in node.values():
            yield from _regexes(value)
    elif isinstance(node, list):
        for value in node:
            yield from _regexes(value)


def test_every_pattern_compiles():
    for build in (textmate.grammar, textmate.yaml_injection):
        for rx in _regexes(build()):
            re.compile(rx.replace(r"\1", r"\s*"))   # `\1` in an `end`: the `begin`'s indentation


# ---------------------------------------------------------------- a scanner, as an editor applies it
def _rules(patterns, repo):
    for p in patterns:
        inc = p.get("include")
        if inc and inc.startswith("#"):
            target = repo[inc[1:]]
            yield from (_rules(target["patterns"], repo) if "patterns" in target and
                        "begin" not in target and "match" not in target else [target])
        else:
            yield p


def scan(line: str, grammar: dict) -> list[tuple[str, str]]:
    """(text, scope) tokens of one line; a character no rule matches outside a region fails."""
    repo, out, pos = grammar["repository"], [], 0
    stack = [(list(_rules(grammar["patterns"], repo)), None, "source.lumos")]
    while pos < len(line):
        rules, end, scope = stack[-1]
        if end is not None and (m := re.compile(end).match(line, pos)) and (m.end() > pos or not rules):
            out.append((m.group(0), scope))
            stack.pop()
            pos = max(m.end(), pos + (m.end() == pos and len(stack) == 1))
            continue
        for r in rules:
            m = re.compile(r.get("match") or r["begin"]).match(line, pos)
            if m and m.end() > pos:
                if "begin" in r:
                    stack.append((list(_rules(r.get("patterns", []), repo)), r["end"], r.get("name", scope)))
                    first = r.get("beginCaptures", {}).get("0", {}).get("name")
                    out.append((m.group(0), first or r.get("name", scope)))
                else:
                    caps = r.get("captures", {})
                    named = [(m.group(int(k)), v["name"]) for k, v in sorted(caps.items()) if m.group(int(k))]
                    out += named or [(m.group(0), r.get("name", scope))]
                pos = m.end()
                break
        else:
            assert end is not None or line[pos].isspace(), f"nothing colours {line[pos]!r} in {line!r}"
            pos += 1
    return out


@pytest.mark.parametrize("path", RULES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_bundled_rules_line_is_coloured(path):
    grammar = textmate.grammar()
    for line in path.read_text(encoding="utf-8").splitlines():
        scan(line, grammar)


def test_a_function_reads_as_declaration_name_keywords_and_attributes():
    got = dict(scan("function chasers(s) = squad(s) where it.kind is chaser  # a comment", textmate.grammar()))
    assert got["function"] == "storage.type.lumos" and got["chasers"] == "entity.name.function.lumos"
    assert got["squad"] == "entity.name.function.call.lumos" and got["where"] == "keyword.control.lumos"
    assert got["it"] == "variable.language.lumos" and got["kind"] == "variable.other.property.lumos"
    assert got["is"] == "keyword.operator.word.lumos" and got["# a comment"] == "comment.line.number-sign.lumos"
    got = dict(scan('log "{me} glimpses {count(my hand)} cards"  [source: "Cards"]', textmate.grammar()))
    assert got["count"] == "support.function.builtin.lumos" and got["{"].startswith("punctuation.section")
    assert got['"Cards"'] == "string.quoted.double.citation.lumos"


def test_the_yaml_injection_covers_card_texts():
    inj = textmate.yaml_injection()
    block, line = inj["patterns"]
    assert re.match(block["begin"], "    effect: |") and re.match(block["begin"], "    fast_effect: |-")
    assert re.match(line["begin"], "    condition: carrier(me) is not none")
    assert not re.match(block["begin"], "    text: |") and not re.match(line["begin"], '    condition: "x"')


def test_lumos_lsp_writes_a_vscode_extension(tmp_path, capsys):
    from lumos.cli import main
    assert main(["lsp", "--vscode", str(tmp_path / "ext")]) == 0
    manifest = json.loads((tmp_path / "ext" / "package.json").read_text(encoding="utf-8"))
    (language,) = manifest["contributes"]["languages"]
    assert language["extensions"] == [".lumos"]
    for g in manifest["contributes"]["grammars"]:
        assert (tmp_path / "ext" / g["path"]).is_file()
    config = json.loads((tmp_path / "ext" / "language-configuration.json").read_text(encoding="utf-8"))
    assert config["comments"]["lineComment"] == "#"
