"""A JSON Schema (with every `$ref` already inlined) -> a plain Python yes/no check.

Why: checking a valid card file with jsonschema walks its generic machinery for every
value; most card files are valid, and only the yes/no matters for them (a file that
fails gets the detailed, positioned report from jsonschema itself). This module turns
the schema into nested closures once. It covers the keywords card schemas use; for a
schema with any other keyword `compile_schema` returns None and jsonschema does the work.
Semantics follow JSON Schema 2020-12 (a test holds the verdicts equal to jsonschema's).
"""
from __future__ import annotations

import re

# Keywords that never change a verdict.
ANNOTATIONS = {"title", "description", "examples", "default", "$comment", "deprecated", "readOnly",
               "writeOnly", "format", "$schema", "$id", "$defs", "definitions"}


class Unsupported(Exception):
    pass


def _is_number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


# As jsonschema's type checker decides them (a YAML string is a str subclass carrying its position).
_TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
    "number": _is_number,
    "integer": lambda v: (isinstance(v, int) and not isinstance(v, bool)) or (isinstance(v, float) and v.is_integer()),
}


def _equal(a, b) -> bool:
    """JSON equality: true is not 1, 1 is 1.0, containers compared item by item."""
    if type(a) is bool or type(b) is bool:
        return type(a) is type(b) and a == b
    if isinstance(a, str) or isinstance(b, str):
        return isinstance(a, str) and isinstance(b, str) and a == b
    if isinstance(a, dict) or isinstance(b, dict):
        return isinstance(a, dict) and isinstance(b, dict) and a.keys() == b.keys() and \
            all(_equal(a[k], b[k]) for k in a)
    if isinstance(a, list) or isinstance(b, list):
        return isinstance(a, list) and isinstance(b, list) and len(a) == len(b) and \
            all(_equal(x, y) for x, y in zip(a, b))
    if a is None or b is None:
        return a is None and b is None
    return a == b


def compile_schema(schema):
    """fn(value) -> bool for `schema`, or None when it uses a keyword this module does not know."""
    try:
        return _compile(schema, 0)
    except (Unsupported, RecursionError, TypeError, ValueError, KeyError, AttributeError, re.error):
        return None


def _compile(schema, depth):
    if depth > 64:
        raise Unsupported
    if schema is True:
        return lambda v: True
    if schema is False:
        return lambda v: False
    if not isinstance(schema, dict):
        raise Unsupported
    checks = []
    for key, arg in schema.items():
        if key in ANNOTATIONS:
            continue
        make = _KEYWORDS.get(key)
        if make is None:
            if key in ("then", "else") and "if" in schema:
                continue   # compiled with `if`
            raise Unsupported(key)
        checks.append(make(arg, schema, depth + 1))
    if not checks:
        return lambda v: True
    if len(checks) == 1:
        return checks[0]
    return _every(tuple(checks))


def _every(checks):
    def every(v):
        for c in checks:
            if not c(v):
                return False
        return True
    return every


def _type(arg, schema, depth):
    names = [arg] if isinstance(arg, str) else list(arg)
    tests = tuple(_TYPES[n] for n in names)
    if len(tests) == 1:
        return tests[0]
    return lambda v: any(t(v) for t in tests)


def _enum(arg, schema, depth):
    values = list(arg)
    if all(type(x) is str for x in values):   # texts: JSON equality is Python's
        texts = frozenset(values)
        return lambda v: isinstance(v, str) and v in texts
    return lambda v: any(_equal(v, x) for x in values)


def _const(arg, schema, depth):
    if type(arg) is str:
        return lambda v: isinstance(v, str) and v == arg
    return lambda v: _equal(v, arg)


def _required(arg, schema, depth):
    keys = tuple(arg)
    return lambda v: not isinstance(v, dict) or all(k in v for k in keys)


def _properties(arg, schema, depth):
    props = tuple((k, _compile(s, depth)) for k, s in arg.items())

    def properties(v):
        if not isinstance(v, dict):
            return True
        for k, check in props:
            if k in v and not check(v[k]):
                return False
        return True
    return properties


def _additional(arg, schema, depth):
    if "patternProperties" in schema:
        raise Unsupported("patternProperties")
    known = frozenset(schema.get("properties", {}))
    if arg is False:
        return lambda v: not isinstance(v, dict) or all(k in known for k in v)
    check = _compile(arg, depth)
    return lambda v: not isinstance(v, dict) or all(k in known or check(x) for k, x in v.items())


def _items(arg, schema, depth):
    if "prefixItems" in schema or not isinstance(arg, (dict, bool)):
        raise Unsupported("items")
    check = _compile(arg, depth)
    def items(v):
        if isinstance(v, list):
            for x in v:
                if not check(x):
                    return False
        return True
    return items


def _all_of(arg, schema, depth):
    return _every(tuple(_compile(s, depth) for s in arg))


def _any_of(arg, schema, depth):
    checks = tuple(_compile(s, depth) for s in arg)
    return lambda v: any(c(v) for c in checks)


def _one_of(arg, schema, depth):
    checks = tuple(_compile(s, depth) for s in arg)
    return lambda v: sum(1 for c in checks if c(v)) == 1


def _not(arg, schema, depth):
    check = _compile(arg, depth)
    return lambda v: not check(v)


def _if(arg, schema, depth):
    test = _compile(arg, depth)
    then = _compile(schema["then"], depth) if "then" in schema else None
    other = _compile(schema["else"], depth) if "else" in schema else None

    def if_(v):
        if test(v):
            return then is None or then(v)
        return other is None or other(v)
    return if_


def _bound(compare):
    def make(arg, schema, depth):
        if not _is_number(arg):
            raise Unsupported
        return lambda v: not _is_number(v) or compare(v, arg)
    return make


def _length(compare):
    def make(arg, schema, depth):
        return lambda v: not isinstance(v, str) or compare(len(v), arg)
    return make


def _count(compare):
    def make(arg, schema, depth):
        return lambda v: not isinstance(v, list) or compare(len(v), arg)
    return make


def _pattern(arg, schema, depth):
    rx = re.compile(arg)
    return lambda v: not isinstance(v, str) or rx.search(v) is not None


def _unique(arg, schema, depth):
    if not arg:
        return lambda v: True

    def unique(v):
        if not isinstance(v, list):
            return True
        return all(not _equal(v[i], v[j]) for i in range(len(v)) for j in range(i + 1, len(v)))
    return unique


def _count_props(compare):
    def make(arg, schema, depth):
        return lambda v: not isinstance(v, dict) or compare(len(v), arg)
    return make


_KEYWORDS = {
    "type": _type, "enum": _enum, "const": _const, "required": _required, "properties": _properties,
    "additionalProperties": _additional, "items": _items, "allOf": _all_of, "anyOf": _any_of,
    "oneOf": _one_of, "not": _not, "if": _if, "pattern": _pattern, "uniqueItems": _unique,
    "minimum": _bound(lambda v, a: v >= a), "maximum": _bound(lambda v, a: v <= a),
    "exclusiveMinimum": _bound(lambda v, a: v > a), "exclusiveMaximum": _bound(lambda v, a: v < a),
    "minLength": _length(lambda n, a: n >= a), "maxLength": _length(lambda n, a: n <= a),
    "minItems": _count(lambda n, a: n >= a), "maxItems": _count(lambda n, a: n <= a),
    "minProperties": _count_props(lambda n, a: n >= a), "maxProperties": _count_props(lambda n, a: n <= a),
}
