"""A game's card schema -> one self-contained JSON Schema file for editors, and commented YAML
skeletons of new cards (`lumos schema GAME`, `lumos new card GAME --type TYPE`).

Why bundle: a game schema refers to the common card fields of `card.schema.json` by URI
(`"$ref": "card.schema.json#/$defs/name"`), resolved against its `$id`. Editors (VS Code's
YAML extension through the `# yaml-language-server: $schema=` modeline) and generic
validators do not all resolve such references to a file next to it. `bundle_schema`
copies every referenced definition into the game schema's own `$defs` and rewrites the
references to local `#/$defs/...` ones, so the one file is all an editor needs.

Nothing here knows a game: card types are found as the schema branches whose `type`
property is a `const`; `effect` and `condition` are the generic fields the compiler parses
as rules-language text.

>>> s = bundle_schema(schema_file("snitch-snatcher"))
>>> sorted(card_types(s))
['action', 'skill', 'spot']
"""
from __future__ import annotations

import copy
import json
import textwrap
from pathlib import Path
from urllib.parse import urljoin

LANGUAGE_FIELDS = ("effect", "condition")   # rules-language text the compiler parses
PLACEHOLDER_EFFECT = 'log "{me} plays {card}"'
WIDTH = 92


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
    from lumos.expansions import MANIFEST_SCHEMA
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
def _resolve(schema: dict, node):
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
                t = _resolve(schema, props["type"])
                if isinstance(t, dict) and isinstance(t.get("const"), str) and len(props) > 1:
                    found.setdefault(t["const"], node)
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)
    walk(schema)
    return found


def _card_items(schema: dict) -> dict:
    cards = _resolve(schema, schema.get("properties", {}).get("cards", {}))
    return _resolve(schema, cards.get("items", {})) if isinstance(cards, dict) else {}


# ---------------------------------------------------------------- the skeleton
def _scalar(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, list):
        return "[" + ", ".join(_scalar(v) for v in value) + "]"
    text = str(value)
    plain = text and text.strip() == text and not any(c in text for c in ":#{}[],&*!|>'\"%@`") \
        and text.lower() not in ("yes", "no", "on", "off", "y", "n", "true", "false", "null", "~") \
        and not text[0].isdigit() and not text.startswith("-")
    return text if plain else json.dumps(text, ensure_ascii=False)


def _comment(text: str, indent: str) -> list[str]:
    return [indent + "# " + line for line in textwrap.wrap(" ".join(text.split()), WIDTH - len(indent) - 2)]


def _describe(field: dict, required: bool, extra: str = "") -> str:
    title = field.get("title", "")
    parts = [f"{title} ({'required' if required else 'optional'})" if title else
             ("required" if required else "optional")]
    text = field.get("description", "")
    if text:
        parts.append(text.rstrip(".") + ".")
    if "enum" in field:
        parts.append("One of: " + ", ".join(_scalar(v) for v in field["enum"]) + ".")
    kind = field.get("type")
    if kind == "integer" and "minimum" in field and "maximum" in field:
        parts.append(f"A whole number from {field['minimum']} to {field['maximum']}.")
    elif kind == "integer" and "minimum" in field:
        parts.append(f"A whole number, at least {field['minimum']}.")
    if "default" in field:
        parts.append(f"Default: {_scalar(field['default'])}.")
    if extra:
        parts.append(extra)
    return parts[0] + (": " + " ".join(parts[1:]) if len(parts) > 1 else "")


def _value(key: str, field: dict, card_type: str, title: str, required: bool = True):
    """A placeholder that passes the schema: const, first choice, default, example, or the lower bound.

    Optional fields (written commented out) show an example before the default: the
    default is what leaving the field out already gives."""
    if key == "name":
        return f"New {title}"
    if "const" in field:
        return field["const"]
    if "enum" in field:
        return field["enum"][0]
    if not required and field.get("examples"):
        return field["examples"][0]
    if "default" in field:
        return field["default"]
    if key == "text":
        return f"What the {title} does, as printed on the card."
    examples = field.get("examples") or []
    if examples:
        return examples[0]
    kind = field.get("type")
    if kind == "integer" or kind == "number":
        return field.get("minimum", 1)
    if kind == "boolean":
        return False
    if kind == "array":
        return []
    return "TODO"


def card_skeleton(game, card_type: str, windows: list[str] | None = None,
                  schema_ref: str | None = None, label: str | None = None) -> str:
    """A commented YAML card file with one card of `card_type`, ready to fill in.

    Required fields carry a placeholder that passes the schema; optional ones are
    commented out. `windows`: the windows the game's rules declare (listed at `window`)."""
    from lumos.diagnostics import did_you_mean
    path = schema_file(game)
    schema = bundle_schema(path)
    types = card_types(schema)
    if card_type not in types:
        known = sorted(types)
        hint = did_you_mean(card_type, known)
        raise KeyError(f"no card type `{card_type}`" + (f" ({hint})" if hint else "") +
                       f"; card types: {', '.join(known) or 'none'}")
    branch = types[card_type]
    items = _card_items(schema)
    title = branch.get("title") or f"{card_type} card"
    required = set(branch.get("required", [])) | set(items.get("required", []))
    props = {k: _resolve(schema, v) for k, v in branch.get("properties", {}).items()}
    conditional = _conditional_requirements(branch)
    game_id = label or (game if isinstance(game, str) else getattr(game, "id", str(game)))

    out = [f"# yaml-language-server: $schema={schema_ref or 'schema/' + path.name}",
           "#", f"# A new {title} (`lumos new card {game_id} --type {card_type}`)."]
    if branch.get("description"):
        out += _comment(branch["description"], "")
    out += ["#",
            "# Replace the placeholder values; uncomment the optional fields you want. The schema line",
            f"# above gives completion and checks in editors (write the schema with `lumos schema {game_id}",
            "# -o schema`). Then check the file:",
            f"#   lumos check --game {game_id} THIS_FILE.yaml"]
    root_props = schema.get("properties", {})
    deck = _resolve(schema, root_props.get("deck")) if "deck" in root_props else None
    if isinstance(deck, dict):
        out.append("")
        out += _comment(_describe(deck, False), "")
        out.append(f"deck: {_scalar(_value('deck', deck, card_type, title))}")
    out.append("cards:")
    first = True
    order = ["name", "type"] + [k for k in props if k not in ("name", "type")]
    for key in order:
        field = props.get(key, {"title": key})
        req = key in required
        extra = ""
        if key in conditional:
            extra = conditional[key]
        if key == "window" and windows:
            extra = (extra + " " if extra else "") + "Windows the rules declare: " + ", ".join(windows) + "."
        if key == "effect":
            extra = "`me` is the side playing it, `card` the card; `lumos explain CARD` shows how the " \
                    "game's cards do it."
        if key == "condition":
            extra = "`me` and `card` are known in it."
        indent = "    "
        out += _comment(_describe(field, req, extra), "  " if first else indent)
        lead = "  - " if first else indent
        first = False
        if key in LANGUAGE_FIELDS:
            sample = PLACEHOLDER_EFFECT if key == "effect" else "true"
            if req:
                out += [f"{lead}{key}: |", f"{indent}  {sample}"]
            else:
                out += [f"{indent}# {key}: |", f"{indent}#   {sample}"]
            continue
        value = _value(key, field, card_type, title, req)
        if req or key in ("name", "type"):
            out.append(f"{lead}{key}: {_scalar(value)}")
        else:
            out.append(f"{indent}# {key}: {_scalar(value)}")
    return "\n".join(out) + "\n"


def _conditional_requirements(branch: dict) -> dict[str, str]:
    """Field -> the explanation of an if/then rule that requires it (e.g. a window for interrupts)."""
    out: dict[str, str] = {}
    rules = [branch] + [b for b in branch.get("allOf", []) if isinstance(b, dict)]
    for rule in rules:
        then = rule.get("then")
        if isinstance(then, dict):
            for key in then.get("required", []):
                out[key] = "Required when: " + then.get("description", "a rule of the schema asks for it") + "."
    return out
