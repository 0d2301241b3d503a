"""Card files (YAML) + a game's JSON Schema -> CardSource records and Diagnostics.

Why a JSON Schema first: the schema is the designer-facing contract of a card type
(editors complete and check it through the `# yaml-language-server: $schema=...`
line), and checking it before anything else means the compiler only ever parses
`effect`/`condition` strings of cards whose shape is right. This module knows no
game: field names, types and allowed values all come from the schema files in
`cards/schema/`. What it adds is the designer's view of each jsonschema error: a
stable code, the card and field named, the position of the offending value, and a
hint. Effect strings are kept as text with `text_origins`, so the compiler can
report a rules-language error at its line and column in the YAML file.

Codes: S100 other schema rule, S101 missing field, S102 unknown field, S103 wrong
type, S104 value not allowed, S105 out of range, S106 not a card file, S110 two
cards with the same name in one file, S111 a question whose answer is not one of its
choices. YAML errors keep their Y00x codes.

>>> from pathlib import Path
>>> import lumos.cards
>>> schema = Path(lumos.cards.__file__).parent / "schema" / "card.schema.json"
>>> card_validator(schema).is_valid({"cards": [{"name": "A", "type": "x", "copies": 0}]})
False
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Iterable, Iterator, Mapping

import referencing
import referencing.exceptions
from referencing.jsonschema import DRAFT202012

from lumos.compiler.named_files import RefusedFile, read_bytes
from lumos.compiler.yamlload import MAX_BYTES, MarkedStr, load_yaml
from lumos.diagnostics import Diagnostic, LumosSyntaxError, Span, did_you_mean

CARDS_KEY = "cards"  # the generic card-file shape: {deck?, cards: [...]}
DECK_KEY = "deck"
DEFAULT_COPIES = 1  # the `default` of `copies` in card.schema.json (a test keeps them equal)


@dataclass(frozen=True)
class CardSource:
    """One card as written, checked against its schema; effect text not yet parsed."""

    name: str
    type: str
    copies: int
    deck: str | None
    fields: Mapping[str, object]  # every field as plain Python, name and type included
    span: Span  # the card's mapping (its first key, after the `- `)
    field_spans: Mapping[str, Span]  # where each field's value starts
    text_origins: Mapping[str, tuple[int, int, bool]]  # (line, col, is `|` block) of string content


# -- schemas ------------------------------------------------------------------------

MAX_SCHEMA_BYTES = 2_000_000


def read_schema(path: Path):
    """A schema file's JSON: a plain file of its own folder, size checked before it is read."""
    path = Path(path)
    return json.loads(read_bytes(path, MAX_SCHEMA_BYTES, [path.parent]).decode("utf-8"))


@lru_cache(maxsize=None)
def load_schema_registry(schema_dir: Path) -> referencing.Registry:
    """Every `*.json` of a schema folder in one registry, keyed by `$id`.

    One registry lets a game schema `$ref` the common card fields by URI without any
    network or file lookups while validating."""
    resources = []
    for path in sorted(Path(schema_dir).glob("*.json")):
        contents = read_schema(path)
        if "$id" not in contents:
            raise ValueError(f"{path}: a card schema needs an `$id` to be referenced")
        resources.append((contents["$id"], DRAFT202012.create_resource(contents)))
    return referencing.Registry().with_resources(resources).crawl()


# jsonschema itself is imported only where it is needed: for a schema not known to be good,
# and for a card file the quick validator refuses (a warm `lumos check` of valid cards never
# imports it, a sixth of the bare import of the libraries).


@lru_cache(maxsize=None)
def card_validator(schema_path: Path) -> Draft202012Validator:
    """The one validator of a schema file, built (and the schema checked) once."""
    from jsonschema import Draft202012Validator
    path = Path(schema_path).resolve()
    registry = load_schema_registry(path.parent)
    schema = registry.contents(read_schema(path)["$id"])
    verdict = _verdict_key(path)
    if verdict is None or _cache().get(verdict) is not True:
        Draft202012Validator.check_schema(schema)   # raises on a schema JSON Schema itself refuses
        if verdict is not None:
            _cache().put(verdict, True)
    return Draft202012Validator(schema, registry=registry)


def _cache():
    from lumos.compiler import cache
    return cache


_SPECS = "jsonschema_specifications"
_VERDICT_CODE = (("jsonschema", "validators.py"), ("jsonschema", "_keywords.py"),
                 ("jsonschema", "_legacy_keywords.py"), ("jsonschema", "_format.py"), (_SPECS, "_core.py"),
                 (_SPECS, "schemas/draft202012/metaschema.json"),
                 (_SPECS, "schemas/draft202012/vocabularies"))   # (package, file): what checks a schema


def _verdict_key(path: Path) -> str | None:
    """The cache key of "this schema file follows JSON Schema": checking a schema against the
    meta-schema is a fifth of a check's time, and its verdict depends only on the bytes of the
    schema folder's files and on jsonschema's code (its modules' sizes and times, as Python's
    bytecode cache does). None when a file cannot be read (the check then says why)."""
    import hashlib
    import os

    from importlib.util import find_spec
    h = hashlib.sha256(f"{path.name}\0".encode())
    try:
        for package, module in _VERDICT_CODE:
            spec = find_spec(package)      # where it is, without importing it
            if spec is None or not spec.submodule_search_locations:
                return None
            file = os.path.join(spec.submodule_search_locations[0], module)
            st = os.stat(file)
            h.update(f"{file}:{st.st_size}:{st.st_mtime_ns}\0".encode())
        for p in sorted(path.parent.glob("*.json")):
            h.update(f"{p.name}\0".encode() + read_bytes(p, MAX_SCHEMA_BYTES, [path.parent]) + b"\0")
    except OSError:
        return None
    return _cache().key("schema-ok", h.digest())


@lru_cache(maxsize=None)
def quick_validator(schema_path: Path):
    """A validator of the same schema with every `$ref` replaced by what it points at, so
    that validating a valid file does no reference lookups. None if the schema refers to
    itself (it cannot be inlined); then the full validator does all the work."""
    path = Path(schema_path).resolve()
    verdict = _verdict_key(path)
    if verdict is None or _cache().get(verdict) is not True:
        card_validator(schema_path)   # the schema is checked (and a broken one reported) there first
    registry = load_schema_registry(path.parent)
    root_id = read_schema(path)["$id"]

    def inline(node, resolver, depth):
        if depth > 32:
            raise RecursionError
        if isinstance(node, list):
            return [inline(v, resolver, depth + 1) for v in node]
        if not isinstance(node, dict):
            return node
        if "$ref" in node:
            resolved = resolver.lookup(node["$ref"])
            target = inline(resolved.contents, resolved.resolver, depth + 1)
            rest = {k: inline(v, resolver, depth + 1) for k, v in node.items() if k != "$ref"}
            return {"allOf": [target, rest]} if rest else target
        return {k: (v if k in ("const", "enum", "examples", "default") else inline(v, resolver, depth + 1))
                for k, v in node.items() if k not in ("$id", "$schema", "$defs")}
    try:
        root = registry.contents(root_id)
        flat = inline(root, registry.resolver(base_uri=root_id), 0)
    except (RecursionError, referencing.exceptions.Unresolvable, TypeError, ValueError, KeyError):
        return None
    from lumos.compiler.schemacheck import compile_schema
    check = compile_schema(flat)   # plain Python closures, when the schema's keywords allow it
    if check is not None:
        return _CompiledCheck(check, flat)
    from jsonschema import Draft202012Validator
    return Draft202012Validator(flat)


class _CompiledCheck:
    """The quick validator's face (`is_valid`) over a schema compiled by compiler/schemacheck.py."""

    def __init__(self, check, schema):
        self.check, self.schema = check, schema

    def is_valid(self, data) -> bool:
        try:
            return bool(self.check(data))
        except RecursionError:
            return False    # too deep to say yes quickly: the full validator reports it


@lru_cache(maxsize=None)
def _schema_bases(schema_dir: Path) -> dict[int, str]:
    """id() of every subschema -> the `$id` of its file, to resolve `$ref`s found in errors."""
    bases: dict[int, str] = {}

    def walk(node: object, uri: str) -> None:
        if isinstance(node, dict):
            bases.setdefault(id(node), uri)
            for value in node.values():
                walk(value, uri)
        elif isinstance(node, list):
            for value in node:
                walk(value, uri)

    registry = load_schema_registry(schema_dir)
    for uri in registry:
        walk(registry.contents(uri), uri)
    return bases


def _property_schema(owner: dict, key: str, schema_dir: Path) -> dict:
    """The schema of `owner`'s property `key`, with `$ref`s followed (titles, examples)."""
    sub = owner.get("properties", {}).get(key)
    resolver = load_schema_registry(schema_dir).resolver(
        base_uri=_schema_bases(schema_dir).get(id(owner), ""))
    for _ in range(8):  # refs to refs are rare; never loop forever
        if not isinstance(sub, dict) or "$ref" not in sub:
            break
        try:
            resolved = resolver.lookup(sub["$ref"])
        except referencing.exceptions.Unresolvable:
            break
        extra = {k: v for k, v in sub.items() if k != "$ref"}
        sub, resolver = {**resolved.contents, **extra}, resolved.resolver
    return sub if isinstance(sub, dict) else {}


# -- words for values and types --------------------------------------------------------

_TYPE_WORDS = {
    "string": "text", "integer": "a whole number", "number": "a number",
    "boolean": "true or false", "array": "a list", "null": "empty",
    "object": "a mapping of `key: value` fields",
}


def _show(value: object) -> str:
    """A value as a designer wrote it, short."""
    if value is None:
        return "empty"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, str):
        text = value if len(value) <= 40 else value[:37] + "..."
        return f"`{text}`" if "\n" not in text else "a multi-line text"
    return "a list" if isinstance(value, list) else "a mapping"


def _yaml_value(value: object) -> str:
    """A scalar as it could be typed after `key: ` (quoted only when YAML needs it)."""
    if isinstance(value, str):
        return value if re.fullmatch(r"[\w][\w .,!'()-]*", value) else json.dumps(value)
    return _show(value)


# -- jsonschema errors -> diagnostics -----------------------------------------------------

@dataclass
class ErrorReport:
    """Turns the jsonschema errors of one file into diagnostics, one method per keyword.

    Each method yields (place, diagnostic); `place` is the data path plus the field
    concerned, and only the first diagnostic per place is kept, so a field that
    breaks two rules (or two branches) is reported once."""

    data: dict
    file: str
    schema_dir: Path

    def __post_init__(self) -> None:
        self.suggested: set[tuple] = set()  # places of fields an unknown key may be

    def node(self, path: Iterable) -> object:
        node: object = self.data
        for step in path:
            node = node[step]  # type: ignore[index]
        return node

    def span(self, path: tuple, key: object = None) -> Span:
        """The value at `path`; with `key`, that key itself inside the mapping at `path`."""
        if key is not None:
            line, col = self.node(path).key_mark(key)  # type: ignore[attr-defined]
            return Span(self.file, line, col, line, col + len(str(key)))
        if not path:
            return Span(self.file, *getattr(self.data, "start", (1, 1)))
        parent = self.node(path[:-1])
        return Span(self.file, *parent.mark(path[-1]))  # type: ignore[attr-defined]

    def subject(self, path: tuple) -> tuple[str, str]:
        """("card `Name`", "field `copies`") for a path into the file."""
        rest = path
        who = "the file"
        if len(path) >= 2 and path[0] == CARDS_KEY and isinstance(path[1], int):
            who, rest = _card_label(self.node(path[:2]), path[1]), path[2:]
        what = ""
        if rest:
            what = f"field `{rest[0]}`" + "".join(
                f" item {p + 1}" if isinstance(p, int) else f" `{p}`" for p in rest[1:])
        return who, what

    def say(self, path: tuple, predicate: str) -> str:
        who, what = self.subject(path)
        return f"{who}: {what} {predicate}" if what else f"{who} {predicate}"

    def report(self, errors: Iterable[ValidationError]) -> list[tuple[tuple, Diagnostic]]:
        found: dict[tuple, Diagnostic] = {}
        for error in errors:
            for place, diag in self.translate(_innermost(error)):
                found.setdefault(place, diag)
        return [(p, d) for p, d in found.items()
                if not (d.code == "S101" and p in self.suggested)]

    def translate(self, error: ValidationError) -> Iterator[tuple[tuple, Diagnostic]]:
        method = getattr(self, f"on_{error.validator}", self.on_other)
        yield from method(error, tuple(error.absolute_path))

    def on_required(self, error, path):
        instance = error.instance
        for key in error.validator_value:
            if key in instance:
                continue
            hint = self.missing_hint(error.schema, key)
            yield path + (key,), Diagnostic(
                "S101", self.say(path + (key,), "is missing"), self.span(path), hint)

    def missing_hint(self, owner: dict, key: str) -> str:
        if key not in owner.get("properties", {}) and "properties" not in owner:
            if owner.get("description"):  # a conditional requirement explains itself
                return owner["description"]
        field = _property_schema(owner, key, self.schema_dir)
        examples = field.get("examples") or []
        title = field.get("title", key)
        if examples and isinstance(examples[0], str) and "\n" in examples[0]:
            return f"add the {title} field: `{key}: |`, then the text on indented lines below"
        if examples and not isinstance(examples[0], (list, dict)):
            return f"add the {title} field, e.g. `{key}: {_yaml_value(examples[0])}`"
        return f"add a `{key}:` field"

    def on_additionalProperties(self, error, path):
        known = list(error.schema.get("properties", {}))
        patterns = list(error.schema.get("patternProperties", {}))
        for key in error.instance:
            if key in known or any(re.search(p, str(key)) for p in patterns):
                continue
            close = did_you_mean(str(key), known)
            if close:
                self.suggested.add(path + (close.split("`")[1],))
            hint = close or "fields allowed here: " + ", ".join(f"`{k}`" for k in known)
            yield path + (key,), Diagnostic(
                "S102", self.say(path, f"has an unknown field `{key}`"),
                self.span(path, key), hint)

    def on_type(self, error, path):
        wanted = error.validator_value
        wanted = [wanted] if isinstance(wanted, str) else list(wanted)
        words = " or ".join(_TYPE_WORDS.get(w, w) for w in wanted)
        value = error.instance
        shown = f"the text {_show(value)}" if isinstance(value, str) else _show(value)
        yield path, Diagnostic("S103", self.say(path, f"must be {words}, not {shown}"),
                               self.span(path), _type_hint(path, wanted, value, error.schema))

    def on_enum(self, error, path):
        allowed = [str(v) for v in error.validator_value]
        choices = ", ".join(f"`{v}`" for v in allowed)
        hint = (did_you_mean(str(error.instance), allowed)
                or error.schema.get("description") or f"write one of {choices}")
        yield path, Diagnostic(
            "S104", self.say(path, f"must be one of {choices}, not {_show(error.instance)}"),
            self.span(path), hint)

    def on_const(self, error, path):
        want = _show(error.validator_value)
        predicate = f"must be {want}, not {_show(error.instance)}"
        yield path, Diagnostic("S104", self.say(path, predicate), self.span(path), f"write {want}")

    def on_minimum(self, error, path):
        yield self.out_of_range(error, path, "at least")

    def on_maximum(self, error, path):
        yield self.out_of_range(error, path, "at most")

    def on_exclusiveMinimum(self, error, path):
        yield self.out_of_range(error, path, "more than")

    def on_exclusiveMaximum(self, error, path):
        yield self.out_of_range(error, path, "less than")

    def out_of_range(self, error, path, bound: str) -> tuple[tuple, Diagnostic]:
        schema = error.schema
        predicate = f"must be {bound} {error.validator_value}, not {_show(error.instance)}"
        hint = schema.get("description", "")
        if "minimum" in schema and "maximum" in schema:
            hint = f"use a number from {schema['minimum']} to {schema['maximum']}" + (
                f"; {hint[0].lower()}{hint[1:]}" if hint else "")
        return path, Diagnostic("S105", self.say(path, predicate), self.span(path), hint)

    def on_minLength(self, error, path):
        hint = error.schema.get("description", "") or "write a value or remove the field"
        yield path, Diagnostic("S100", self.say(path, "must not be empty"), self.span(path), hint)

    def on_minItems(self, error, path):
        yield self.list_length(error, path, "at least")

    def on_maxItems(self, error, path):
        yield self.list_length(error, path, "at most")

    def list_length(self, error, path, bound: str) -> tuple[tuple, Diagnostic]:
        n, want = len(error.instance), error.validator_value
        items = "item" if want == 1 else "items"
        hint = error.schema.get("description", "") or f"give {bound} {want} {items}"
        return path, Diagnostic("S105", self.say(path, f"must hold {bound} {want} {items}, not {n}"),
                                self.span(path), hint)

    def on_uniqueItems(self, error, path):
        yield path, Diagnostic("S100", self.say(path, "lists the same value twice"),
                               self.span(path), "keep each value once")

    def on_other(self, error, path):
        hint = error.schema.get("description", "") if isinstance(error.schema, dict) else ""
        yield path + (error.validator,), Diagnostic(
            "S100", self.say(path, f"breaks the rule `{error.validator}`: {error.message}"),
            self.span(path), hint)


def _innermost(error: ValidationError) -> ValidationError:
    """For anyOf/oneOf, the most relevant branch error instead of a vague summary.

    Our schemas use if/then, whose errors jsonschema already yields unwrapped."""
    from jsonschema.exceptions import best_match
    while error.context:
        error = best_match(error.context)
    return error


def _card_label(card: object, index: int) -> str:
    name = card.get("name") if isinstance(card, dict) else None
    if isinstance(name, str) and name.strip():
        return f"card `{name}`"
    return f"card #{index + 1}"


def _type_hint(path: tuple, wanted: list, value: object, schema: dict) -> str:
    field = path[-1] if path else ""
    if set(wanted) & {"integer", "number"} and isinstance(value, str) \
            and re.fullmatch(r"\s*-?\d+(\.\d+)?\s*", value):
        return f"remove the quotes: `{field}: {value.strip()}`"
    if "string" in wanted and value is None:
        return "write the value after the colon, or remove the field"
    if "string" in wanted and not isinstance(value, (list, dict)):
        return f'put the value in quotes: `{field}: "{_show(value)}"`'
    if "object" in wanted and isinstance(field, int):
        return "write each card as `- name: ...` followed by its other `key: value` lines"
    if "array" in wanted and not isinstance(value, (list, dict)):
        return f"write a list, e.g. `{field}: [{_show(value).strip('`')}]`"
    return schema.get("description", "") if isinstance(schema, dict) else ""


# -- positions of text ---------------------------------------------------------------

def _text_origin(value: MarkedStr, lines: list[str], key_col: int) -> tuple[int, int, bool]:
    """(line, col, block) of the first character of a string's content.

    Quoted strings start one past the quote. Block scalars (`|`, `>`) start on the line
    after the indicator, at the content indentation: an explicit indentation digit
    counts from the mapping's indentation (the key's column), otherwise the first
    non-blank line sets it, as YAML does."""
    line, col = value.start
    style = value.style or None
    if style in ('"', "'"):
        return (line, col + 1, False)
    if style not in ("|", ">"):
        return (line, col, False)
    header = lines[line - 1][col - 1:] if line <= len(lines) else style
    digit = re.match(r"[|>][+-]?([1-9])?", header)
    if digit and digit.group(1):
        indent = key_col - 1 + int(digit.group(1))
    else:
        body = (text for text in lines[line:] if text.strip())
        first = next(body, " " * key_col)
        indent = len(first) - len(first.lstrip(" "))
    return (line + 1, indent + 1, style == "|")


def _plain(value: object) -> object:
    """Marked YAML data -> plain str/int/bool/list/dict (picklable, no positions)."""
    if isinstance(value, dict):
        return {_plain(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return str(value) if isinstance(value, str) else value


def card_source(card: dict, deck: str | None, file: str, lines: list[str]) -> CardSource:
    """One card of loaded YAML data (`load_yaml`) as written, not checked against a schema:
    for tools that read cards while they are typed (the language server's index)."""
    return _card_source(card, deck, file, lines)


def _card_source(card: dict, deck: str | None, file: str, lines: list[str]) -> CardSource:
    return CardSource(
        name=str(card["name"]), type=str(card["type"]),
        copies=int(card.get("copies", DEFAULT_COPIES)), deck=deck,
        fields={str(k): _plain(v) for k, v in card.items()},
        span=Span(file, *card.start),
        field_spans={str(k): Span(file, *card.mark(k)) for k in card},
        text_origins={str(k): _text_origin(v, lines, card.key_mark(k)[1])
                      for k, v in card.items() if isinstance(v, MarkedStr)},
    )


# -- the loader ----------------------------------------------------------------------

def _duplicates(cards: list, file: str) -> Iterator[tuple[int, Diagnostic]]:
    """S110: two cards of one file with the same name (ignoring case and spacing)."""
    first: dict[str, tuple[str, int]] = {}
    for i, card in enumerate(cards):
        name = card.get("name") if isinstance(card, dict) else None
        if not isinstance(name, str) or not name.strip():
            continue
        key = " ".join(name.split()).casefold()
        if key not in first:
            first[key] = (name, card.mark("name")[0])
            continue
        other, line = first[key]
        yield i, Diagnostic(
            "S110", f"card `{name}` is defined twice in this file",
            Span(file, *card.mark("name")),
            f"`{other}` is already on line {line}; "
            "rename one, or use `copies:` for identical cards")


def _questions(cards: list, file: str) -> Iterator[tuple[tuple, Diagnostic]]:
    """S111: a question (a field holding `ask`, `answer` and `choices`, card.schema.json's
    question) whose answer is not one of its choices: no choice would be right."""
    for i, card in enumerate(cards):
        if not isinstance(card, dict):
            continue
        for key, q in card.items():
            if not (isinstance(q, dict) and "ask" in q and "answer" in q and isinstance(q.get("choices"), list)):
                continue
            choices = [str(c) for c in q["choices"]]
            if str(q["answer"]) in choices:
                continue
            close = [c for c in choices if " ".join(c.split()).casefold() == " ".join(str(q["answer"]).split()).casefold()]
            hint = (f"write it exactly as the choice: {_show(close[0])}" if close else
                    f"the answer must be one of the choices: {', '.join(_show(c) for c in choices)}")
            yield (CARDS_KEY, i, str(key), "S111"), Diagnostic(
                "S111", f"the answer {_show(q['answer'])} of `{key}` is not one of its choices",
                Span(file, *(q.mark("answer") if hasattr(q, "mark") else card.mark(key))), hint)


def _not_a_card_file(data: object, file: str) -> Diagnostic:
    if data is None:
        return Diagnostic("S106", "the card file is empty", Span(file, 1, 1),
                          f"start it with `{CARDS_KEY}:` and list the cards below it")
    start = getattr(data, "start", (1, 1))
    kind = "a list" if isinstance(data, list) else f"the value {_show(data)}"
    return Diagnostic("S106",
                      f"the card file must be a mapping with a `{CARDS_KEY}:` list, not {kind}",
                      Span(file, *start),
                      f"put `{CARDS_KEY}:` on the first line and indent the cards under it")


def load_card_file(path: Path, schema_path: Path, rejected: list | None = None
                   ) -> tuple[list[CardSource], list[Diagnostic]]:
    """Load and check one card file; return its good cards and ALL its problems.

    Cards with a problem of their own are left out of the list, so later stages
    never see a half-valid card; the diagnostics say why.
    """
    file = str(path)
    try:
        raw = read_bytes(Path(path), MAX_BYTES)
    except RefusedFile as exc:   # refused before any byte is read
        if exc.message.startswith("is too big"):
            return [], [Diagnostic("Y003", f"the file is too big: more than {MAX_BYTES} characters",
                                   Span(file, 1, 1), "split the cards into several files")]
        if exc.code == "E100":   # missing or unreadable: as any file that cannot be opened
            why = "No such file or directory" if exc.message == "does not exist" else exc.message
            return [], [Diagnostic("S106", f"cannot read the card file: {why}", Span(file, 1, 1),
                                   "check the path and the file's permissions")]
        return [], [Diagnostic(exc.code, f"the card file `{Path(path).name}` {exc.message}", Span(file, 1, 1),
                               exc.hint)]
    except OSError as exc:
        return [], [Diagnostic("S106", f"cannot read the card file: {exc.strerror or exc}",
                               Span(file, 1, 1), "check the path and the file's permissions")]
    try:
        data = load_yaml(raw, file)
    except LumosSyntaxError as exc:
        return [], list(exc.diagnostics)
    if not isinstance(data, dict):
        return [], [_not_a_card_file(data, file)]
    schema_path = Path(schema_path).resolve()
    report = ErrorReport(data, file, schema_path.parent)
    # Most card files are valid: a quick yes/no with every `$ref` already followed comes
    # first; only a file that fails it pays for the detailed, positioned report.
    quick = quick_validator(schema_path)
    if quick is not None and quick.is_valid(data):
        found = []
    else:
        found = report.report(card_validator(schema_path).iter_errors(data))
    cards = data.get(CARDS_KEY)
    cards = cards if isinstance(cards, list) else []
    found += [((CARDS_KEY, i, "name", "S110"), d) for i, d in _duplicates(cards, file)]
    found += list(_questions(cards, file))
    bad = {place[1] for place, _ in found if len(place) > 1 and place[0] == CARDS_KEY}
    deck = data.get(DECK_KEY)
    deck = str(deck) if isinstance(deck, str) else None
    lines = raw.decode("utf-8").splitlines()
    good = [_card_source(c, deck, file, lines) for i, c in enumerate(cards) if i not in bad]
    if rejected is not None:
        # cards the schema refused: kept apart so their effects can still be checked
        # (one run reports the field and the effect mistakes of a card together)
        for i in sorted(bad):
            c = cards[i] if i < len(cards) else None
            if isinstance(c, dict) and isinstance(c.get("name"), str) and isinstance(c.get("type"), str):
                try:
                    rejected.append(_card_source(c, deck, file, lines))
                except (TypeError, ValueError, KeyError, AttributeError):
                    continue
    return good, sorted((d for _, d in found), key=Diagnostic.sort_key)


def load_card_files(paths: Iterable[Path], schema_path: Path, rejected: list | None = None
                    ) -> tuple[list[CardSource], list[Diagnostic]]:
    """Load several card files against one schema; all cards, all problems, in file order.
    Cards the schema refused are left out, or appended to `rejected` when it is given."""
    cards: list[CardSource] = []
    diagnostics: list[Diagnostic] = []
    for path in paths:
        more, problems = load_card_file(path, schema_path, rejected)
        cards += more
        diagnostics += problems
    return cards, diagnostics
