"""A game's card schema and a card type -> a commented YAML skeleton of a new card
(`lumos new card GAME --type TYPE`).

Every field of the type is written with its description from the schema; required fields
carry a placeholder value, optional ones are commented out. Nothing here knows a game:
the schema (bundled by lumos.editor.schemas) says which types and fields there are;
`effect` and `condition` are the generic fields the compiler parses as rules-language text.

>>> "type: spot" in card_skeleton("snitch-snatcher", "spot")
True
"""
from __future__ import annotations

import json
import textwrap

from lumos.editor.schemas import bundle_schema, card_items, card_types, resolve_ref, schema_file

LANGUAGE_FIELDS = ("effect", "condition")   # rules-language text the compiler parses
PLACEHOLDER_EFFECT = 'log "{me} plays {card}"'
WIDTH = 92


def _scalar(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, list):
        return "[" + ", ".join(_scalar(v) for v in value) + "]"
    if isinstance(value, dict):   # a mapping field (a question): one flow mapping on its line
        return "{" + ", ".join(f"{_scalar(str(k))}: {_scalar(v)}" for k, v in value.items()) + "}"
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
    items = card_items(schema)
    title = branch.get("title") or f"{card_type} card"
    required = set(branch.get("required", [])) | set(items.get("required", []))
    props = {k: resolve_ref(schema, v) for k, v in branch.get("properties", {}).items()}
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
    deck = resolve_ref(schema, root_props.get("deck")) if "deck" in root_props else None
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
        if key == "window" and windows is not None:
            extra = (extra + " " if extra else "") + ("Windows the rules declare: " + ", ".join(windows) + "."
                                                      if windows else "The game's rules declare no window.")
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
        if key == "window" and windows is not None and value not in windows:
            # the sample a schema gives may name a window of another game: offer one of this game's
            value = windows[0] if windows else ""
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
