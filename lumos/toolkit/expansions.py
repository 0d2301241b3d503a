"""A designer's expansion folder (a manifest + card files) -> the game it extends and its card files.

An expansion lives anywhere, outside the installed package:

    my-expansion/
        expansion.yaml      extends: <game id or game folder>
                            name: <a name>
                            cards: [home.yaml, away.yaml]     (default: every other *.yaml)
                            rules: [house_rules.lumos]        (optional: replace or add rules files)
        home.yaml           ordinary card files, checked against the base game's schema
        away.yaml

Its cards are compiled together with the base game (`check_game(..., extra_cards=...)`),
so `lumos check`, `lumos simulate GAME --with FOLDER` and `lumos play GAME --with FOLDER`
see them as if they were part of the game. Problems of the manifest itself are
diagnostics with the codes of card files (Y00x for YAML, S101 missing field, S102 unknown
field, S103 wrong type, S104 unknown game, E100 a listed file that cannot be read), at
the line and column of the offending value.

>>> MANIFEST_SCHEMA["required"]
['extends']
"""
from __future__ import annotations

import dataclasses
import glob
import json
from dataclasses import dataclass, field
from pathlib import Path

from lumos.compiler.named_files import RefusedFile, read_bytes, read_head, refusal
from lumos.diagnostics import Diagnostic, LumosError, Span, did_you_mean

MANIFEST = "expansion.yaml"
MAX_MANIFEST_BYTES = 200_000
FIELDS = {
    "extends": "the game the expansion adds to: a bundled game id, or the path of a game folder",
    "name": "the expansion's name, shown by `lumos check`",
    "description": "a sentence or two about the expansion (not used by the engine)",
    "version": "the expansion's version (not used by the engine)",
    "author": "who made it (not used by the engine)",
    "cards": "the card files of the expansion, relative to the manifest (patterns such as `*.yaml` allowed)",
    "rules": "rules files (.lumos) of the expansion, relative to the manifest: each replaces the game's rules "
             "file of the same name, or adds a new one",
}
TEXT_FIELDS = ("name", "description", "version", "author")

MANIFEST_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://lumos-games.example/schema/expansion.schema.json",
    "title": "Lumos expansion manifest",
    "description": "expansion.yaml: which game an expansion extends and which card files it adds.",
    "type": "object",
    "required": ["extends"],
    "additionalProperties": False,
    "properties": {
        "extends": {"title": "Base game", "description": FIELDS["extends"], "type": "string",
                    "minLength": 1, "examples": ["snitch-snatcher"]},
        "name": {"title": "Name", "description": FIELDS["name"], "type": "string", "minLength": 1,
                 "examples": ["My first expansion"]},
        "description": {"title": "Description", "description": FIELDS["description"], "type": "string",
                        "examples": ["Four new tricks for each team."]},
        "version": {"title": "Version", "description": FIELDS["version"], "type": ["string", "number"],
                    "examples": ["1.0"]},
        "author": {"title": "Author", "description": FIELDS["author"], "type": "string",
                   "examples": ["A. Designer"]},
        "cards": {"title": "Card files", "description": FIELDS["cards"], "type": "array",
                  "items": {"type": "string", "minLength": 1}, "examples": [["home.yaml", "away.yaml"]]},
        "rules": {"title": "Rules files", "description": FIELDS["rules"], "type": "array",
                  "items": {"type": "string", "pattern": "\\.lumos$"}, "examples": [["house_rules.lumos"]]},
    },
}


@dataclass
class Expansion:
    """A loaded manifest: the base game's sources and the expansion's card files."""

    manifest: Path
    name: str
    extends: str
    base: object            # GameSources of the base game
    card_files: list[Path] = field(default_factory=list)

    @property
    def root(self) -> Path:
        return self.manifest.parent


def with_rules(src, with_paths) -> object:
    """`src` (GameSources) with the rules files that the expansions among `with_paths` replace
    or add; ValueError when two expansions replace the same file."""
    overrides = list(src.overrides)
    for item in with_paths:
        manifest = manifest_path(Path(item))
        if manifest is None:
            continue
        exp, _problems, _texts = load_expansion(manifest)
        if exp is not None:
            overrides += [p for p in exp.base.overrides if p not in overrides]
    names = [p.name for p in overrides]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise ValueError(f"two expansions replace the same rules file: {', '.join(twice)}")
    return dataclasses.replace(src, overrides=tuple(overrides)) if overrides else src


def manifest_path(path: Path) -> Path | None:
    """The manifest of an expansion folder (or the manifest itself); None when `path` is not one."""
    path = Path(path)
    if path.is_dir():
        found = path / MANIFEST
        return found if found.is_file() else None
    if path.is_file() and path.name == MANIFEST:
        return path
    if path.is_file() and path.suffix in (".yaml", ".yml"):
        try:
            head = read_head(path, 4096).decode("utf-8", "replace")
        except OSError:
            return None
        if any(line.startswith("extends:") for line in head.splitlines()):
            return path
    return None


def _resolve_base(value: str, root: Path):
    """GameSources of a bundled game id or a game folder (relative to the manifest); None if neither."""
    from lumos.games import bundled_games, game_sources
    if value in bundled_games():
        return game_sources(value)
    folder = (root / value).resolve() if not Path(value).is_absolute() else Path(value)
    if folder.is_dir() and (folder / "game.lumos").is_file():
        return game_sources(folder)
    return None


def load_expansion(path: Path) -> tuple[Expansion | None, list[Diagnostic], dict[str, str]]:
    """Read and check a manifest; return the expansion (None when unusable), its problems and its text."""
    from lumos.games import bundled_games
    from lumos.compiler.yamlload import load_yaml

    manifest = Path(path)
    if manifest.is_dir():
        manifest = manifest / MANIFEST
    file = str(manifest)
    diags: list[Diagnostic] = []
    try:
        raw = read_bytes(manifest, MAX_MANIFEST_BYTES)
    except RefusedFile as exc:
        return None, [Diagnostic(exc.code, f"the expansion manifest {exc.message}", Span(file, 1, 1),
                                 f"an expansion folder holds a `{MANIFEST}` text file")], {file: ""}
    except OSError as exc:
        return None, [Diagnostic("E100", f"cannot read the expansion manifest: {exc.strerror or exc}",
                                 Span(file, 1, 1), f"an expansion folder holds a `{MANIFEST}`")], {}
    texts = {file: raw.decode("utf-8", "replace")}
    try:
        data = load_yaml(raw, file)
    except LumosError as exc:
        return None, list(exc.diagnostics), texts
    if not isinstance(data, dict):
        return None, [Diagnostic(
            "S106", "the expansion manifest must be a mapping of `key: value` fields",
            Span(file, *getattr(data, "start", (1, 1))),
            "start it with `extends: GAME` on the first line, then `name:` and `cards:`")], texts

    for key in data:
        if key not in FIELDS:
            diags.append(Diagnostic(
                "S102", f"the expansion manifest has an unknown field `{key}`", Span(file, *data.key_mark(key)),
                did_you_mean(str(key), FIELDS) or "fields allowed here: " + ", ".join(f"`{k}`" for k in FIELDS)))
    for key in TEXT_FIELDS:
        if key in data and not isinstance(data[key], str) and not (key == "version" and _is_number(data[key])):
            diags.append(_wrong_type(data, key, "text", file))
    name = data.get("name") if isinstance(data.get("name"), str) and data.get("name").strip() else manifest.parent.name

    base = None
    extends = data.get("extends")
    if "extends" not in data:
        diags.append(Diagnostic("S101", "the expansion manifest: field `extends` is missing",
                                Span(file, *data.start),
                                f"add the game it extends, e.g. `extends: {(bundled_games() or ['GAME'])[0]}`"))
    elif not isinstance(extends, str) or not extends.strip():
        diags.append(_wrong_type(data, "extends", "text", file))
    else:
        base = _resolve_base(extends, manifest.parent)
        if base is None:
            diags.append(Diagnostic(
                "S104", f"the expansion manifest: `extends` names no game: `{extends}`",
                Span(file, *data.mark("extends")),
                did_you_mean(extends, bundled_games())
                or f"write a bundled game ({', '.join(bundled_games())}) or the path of a folder holding game.lumos"))

    # a file the manifest names stays inside the expansion's folder (or the game it extends)
    roots = [manifest.parent] + ([base.rules_dir] + [d for d in (base.cards_dir,) if d] if base else [])
    cards = _card_files(data, manifest, diags, roots, texts)
    rules = _rules_files(data, manifest, diags, roots)
    if base is None:
        return None, diags, texts
    if rules:
        base = dataclasses.replace(base, overrides=tuple(rules))
    return Expansion(manifest, name, extends, base, cards), diags, texts


def _refused(path: Path, roots: list[Path], what: str, item: str, span: Span) -> Diagnostic | None:
    """The error for a named file that is missing, outside `roots` or not a regular file (None if fine)."""
    why = refusal(path, roots)
    if why is None or why[0] == "E100":
        return None
    shown = f"`{path.name}` (matched by `{item}`)" if glob.has_magic(item) else f"`{item}`"
    return Diagnostic(why[0], f"the {what} {shown} {why[1]}", span, why[2])


def _rules_files(data, manifest: Path, diags: list[Diagnostic], roots: list[Path]) -> list[Path]:
    """The manifest's `rules:` list: .lumos files next to it that replace or add rules files."""
    if "rules" not in data:
        return []
    file = str(manifest)
    items = data["rules"]
    if not isinstance(items, list):
        diags.append(_wrong_type(data, "rules", "a list of rules files", file))
        return []
    here = sorted(p.name for p in manifest.parent.glob("*.lumos"))
    out: list[Path] = []
    for i, item in enumerate(items):
        mark = items.mark(i)
        if not isinstance(item, str) or not item.endswith(".lumos"):
            diags.append(Diagnostic("S103", "the expansion manifest: each item of `rules` must be a `.lumos` file",
                                    Span(file, *mark), "write the rules file's path relative to the manifest, "
                                    "e.g. `- house_rules.lumos`"))
            continue
        path = Path(item) if Path(item).is_absolute() else manifest.parent / item
        bad = _refused(path, roots, "rules file", item, Span(file, *mark))
        if bad is not None:
            diags.append(bad)
            continue
        if not path.is_file():
            diags.append(Diagnostic("E100", f"the rules file `{item}` does not exist", Span(file, *mark),
                                    did_you_mean(Path(item).name, here) or
                                    f"rules files in {manifest.parent.name}: {', '.join(here) or 'none'}"))
            continue
        if path not in out:
            out.append(path)
    return out


def _is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _wrong_type(data, key: str, wanted: str, file: str) -> Diagnostic:
    value = data[key]
    shown = "a list" if isinstance(value, list) else "a mapping" if isinstance(value, dict) else \
        "empty" if value is None else f"`{value}`"
    example = MANIFEST_SCHEMA["properties"][key]["examples"][0]
    example = json.dumps(example) if isinstance(example, list) else example
    return Diagnostic("S103", f"the expansion manifest: field `{key}` must be {wanted}, not {shown}",
                      Span(file, *data.mark(key)), f"{FIELDS[key]}; e.g. `{key}: {example}`")


def _card_files(data, manifest: Path, diags: list[Diagnostic], roots: list[Path],
                texts: dict[str, str]) -> list[Path]:
    """The manifest's `cards:` list, patterns expanded; by default every other YAML file of the folder."""
    root = manifest.parent
    file = str(manifest)
    here = sorted(p for p in root.glob("*.y*ml") if p.name != manifest.name and p.suffix in (".yaml", ".yml"))
    if "cards" not in data:
        kept = []
        for p in here:   # a file of the folder that is a FIFO or a link out: an error at its name
            bad = _refused(p, roots, "card file", p.name, Span(str(p), 1, 1))
            if bad is None:
                kept.append(p)
            else:
                diags.append(bad)
                texts[str(p)] = ""   # never read, not even to show a line
        return kept
    items = data["cards"]
    if isinstance(items, str):
        items_list, marks = [items], [data.mark("cards")]
    elif isinstance(items, list):
        items_list, marks = list(items), [items.mark(i) for i in range(len(items))]
    else:
        diags.append(_wrong_type(data, "cards", "a list of card files", file))
        return []
    out: list[Path] = []
    for item, mark in zip(items_list, marks):
        if not isinstance(item, str) or not item.strip():
            diags.append(Diagnostic("S103", "the expansion manifest: each item of `cards` must be a file name",
                                    Span(file, *mark), "write the card file's path relative to the manifest, "
                                    "e.g. `- home.yaml`"))
            continue
        pattern = item if Path(item).is_absolute() else str(root / item)
        if glob.has_magic(item):
            found = []
            for p in sorted(Path(p) for p in glob.glob(pattern)):
                bad = _refused(p, roots, "card file", item, Span(file, *mark))
                if bad is not None:
                    diags.append(bad)
                elif p.is_file() and p.resolve() != manifest.resolve():
                    found.append(p)
            if not found and not any(d.span == Span(file, *mark) for d in diags):
                diags.append(Diagnostic("E100", f"no card file matches `{item}`", Span(file, *mark),
                                        f"files in {root.name}: {', '.join(p.name for p in here) or 'none'}"))
        else:
            path = Path(pattern)
            bad = _refused(path, roots, "card file", item, Span(file, *mark))
            if bad is not None:
                diags.append(bad)
                continue
            found = [path] if path.is_file() else []
            if not found:
                names = [p.name for p in here]
                diags.append(Diagnostic(
                    "E100", f"the card file `{item}` does not exist", Span(file, *mark),
                    did_you_mean(Path(item).name, names) or
                    f"card files in {root.name}: {', '.join(names) or 'none'}"))
        for p in found:
            if p not in out:
                out.append(p)
    return out
