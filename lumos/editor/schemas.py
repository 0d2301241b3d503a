"""A game's card schema -> one self-contained JSON Schema file for editors (`lumos schema GAME`).

Why bundle: a game schema refers to the common card fields of `card.schema.json` by URI
(`"$ref": "card.schema.json#/$defs/name"`), resolved against its `$id`. Editors (VS Code's
YAML extension through the `# yaml-language-server: $schema=` modeline) and generic
validators do not all resolve such references to a file next to it. `bundle_schema`
copies every referenced definition into the game schema's own `$defs` and rewrites the
references to local `#/$defs/...` ones, so the one file is all an editor needs.

Nothing here knows a game: card types are found as the schema branches whose `type`
property is a `const`.

>>> s = bundle_schema(schema_file("snitch-snatcher"))
>>> sorted(card_types(s))
['action', 'skill', 'spot']
"""
from __future__ import annotations

import copy
import json
from pathlib import Path
from urllib.parse import urljoin


# ---------------------------------------------------------------- finding a game's schema
def schema_file(game) -> Path:
    """The card schema file a game names in its `schema "..."` header (game id, folder or GameSources)."""
    from lumos.compiler.game import GameSources
    src = game if isinstance(game, GameSources) else _sources(game)
    name = _meta(src).get("schema")
    if not name or src.schema_dir is None:
        raise LookupError(f"the game `{src.id}` names no card schema (`schema \"...\"` in game.lumos)")
    path = Path(src.schema_dir) / name
    if not path.is_file():
        raise LookupError(f"the game `{src.id}` names the card schema `{name}`, which is not in {src.schema_dir}")
    return path


def _sources(game):
    from lumos.api import game_sources
    return game_sources(game)


def _meta(src) -> dict[str, str]:
    """The header lines (`game`, `board`, `schema` ...) of a game's rules files, without compiling."""
    from lumos.compiler import nodes as N
    from lumos.compiler.build_ast import Origin, build
    from lumos.compiler.parse import parse
    text = Path(src.game_file).read_text(encoding="utf-8-sig")
    decls = build(parse(text, str(src.game_file)), Origin(str(src.game_file))).decls
    return {d.key: d.value for d in decls if isinstance(d, N.Meta)}


# ---------------------------------------------------------------- bundling
def bundle_schema(path: Path) -> dict:
    """The schema at `path` with every definition it references from other files copied in."""
    from lumos.compiler.cards import load_schema_registry
    path = Path(path).resolve()
    registry = load_schema_registry(path.parent)
    root = json.loads(path.read_text(encoding="utf-8"))
    root_id = root.get("$id", "")
    out = copy.deepcopy(root)
    defs = out.setdefault("$defs", {})
    imported: dict[tuple[str, str], str] = {}

    def local(ref: str, base: str) -> str:
        full = urljoin(base, ref)
        uri, _, fragment = full.partition("#")
        if uri in ("", root_id):
            return "#" + fragment
        key = (uri, fragment)
        if key not in imported:
            stem = uri.rstrip("/").rsplit("/", 1)[-1].split(".")[0]
            leaf = fragment.rstrip("/").rsplit("/", 1)[-1] or "root"
            name = f"{stem}.{leaf}"
            while name in defs:
                name += "_"
            imported[key] = name
            defs[name] = {}
            target = registry.contents(uri)
            for step in [s for s in fragment.split("/") if s]:
                target = target[step.replace("~1", "/").replace("~0", "~")]
            copied = rewrite(target, uri)
            if isinstance(copied, dict):
                for k in ("$id", "$schema"):
                    copied.pop(k, None)
            defs[name] = copied
        return "#/$defs/" + imported[key]

    def rewrite(node, base: str):
        if isinstance(node, dict):
            return {k: (local(v, base) if k == "$ref" and isinstance(v, str) else rewrite(v, base))
                    for k, v in node.items()}
        if isinstance(node, list):
            return [rewrite(v, base) for v in node]
        return node

    for key in list(out):
        if key != "$defs":
            out[key] = rewrite(out[key], root_id)
    for name in list(defs):
        if name not in imported.values():
            defs[name] = rewrite(defs[name], root_id)
    return out


def write_schemas(game, folder: Path) -> list[Path]:
    """The game's bundled card schema and the expansion manifest schema, written into `folder`."""
    from lumos.toolkit.expansions import MANIFEST_SCHEMA
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    path = schema_file(game)
    written = []
    for name, schema in ((path.name, bundle_schema(path)), ("expansion.schema.json", MANIFEST_SCHEMA)):
        target = folder / name
        target.write_text(json.dumps(schema, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        written.append(target)
    return written


# ---------------------------------------------------------------- card types
def resolve_ref(schema: dict, node):
    """Follow local `$ref`s of a bundled schema (merging the referring node's own keys)."""
    for _ in range(16):
        if not isinstance(node, dict) or "$ref" not in node or not node["$ref"].startswith("#/"):
            return node
        target = schema
        for step in node["$ref"][2:].split("/"):
            target = target[step]
        node = {**target, **{k: v for k, v in node.items() if k != "$ref"}}
    return node


def card_types(schema: dict) -> dict[str, dict]:
    """Card type -> the schema of that type's cards: the branches whose `type` property is a const."""
    found: dict[str, dict] = {}

    def walk(node):
        if isinstance(node, dict):
            props = node.get("properties")
            if isinstance(props, dict) and isinstance(props.get("type"), dict):
                t = resolve_ref(schema, props["type"])
                if isinstance(t, dict) and isinstance(t.get("const"), str) and len(props) > 1:
                    found.setdefault(t["const"], node)
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)
    walk(schema)
    return found


def card_items(schema: dict) -> dict:
    cards = resolve_ref(schema, schema.get("properties", {}).get("cards", {}))
    return resolve_ref(schema, cards.get("items", {})) if isinstance(cards, dict) else {}


# ---------------------------------------------------------------- the skeleton
