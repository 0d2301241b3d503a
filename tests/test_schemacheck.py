"""The compiled yes/no schema check (compiler/schemacheck.py) gives jsonschema's verdicts.

Card files found valid by it skip jsonschema's detailed report, so a wrong "yes" would
hide a designer's mistake. Each schema below is tried on values at the edges of JSON
Schema's rules (true is not 1, 1.0 is an integer, a missing field is not checked, ...).
"""
import pytest
from jsonschema import Draft202012Validator

from lumos.compiler.schemacheck import compile_schema

VALUES = [None, True, False, 0, 1, 2, 1.0, 1.5, -3, "", "a", "abc", "skill", [], [1], [1, 1], [1, True],
          [[1], [1.0]], [{"a": 1}, {"a": True}], {}, {"a": 1}, {"a": "x", "b": 2}, {"type": "skill"},
          {"type": "action", "colour": "red"}, {"name": "A", "type": "skill", "copies": 0}]

SCHEMAS = [
    {"type": "integer"}, {"type": "number"}, {"type": "boolean"}, {"type": ["string", "null"]},
    {"type": "object"}, {"type": "array"}, {"enum": [1, "a", None]}, {"enum": [True]}, {"enum": ["a", "skill"]}, {"const": "a"}, {"const": 1},
    {"const": [1]}, {"const": {"a": 1}}, {"required": ["a"]}, {"minLength": 2}, {"maxLength": 1},
    {"minimum": 1}, {"maximum": 1}, {"exclusiveMinimum": 0}, {"exclusiveMaximum": 1},
    {"uniqueItems": True}, {"minItems": 1}, {"maxItems": 1}, {"pattern": "^s"},
    {"properties": {"a": {"type": "integer"}}, "additionalProperties": False},
    {"properties": {"a": {"type": "integer"}}, "additionalProperties": {"type": "integer"}},
    {"items": {"type": "integer"}}, {"allOf": [{"minimum": 0}, {"maximum": 1}]},
    {"anyOf": [{"type": "string"}, {"minimum": 2}]}, {"oneOf": [{"type": "integer"}, {"minimum": 1}]},
    {"not": {"type": "string"}},
    {"if": {"properties": {"type": {"const": "skill"}}, "required": ["type"]},
     "then": {"required": ["colour"]}, "else": {"required": ["name"]}},
    {"type": "object", "properties": {"copies": {"type": "integer", "minimum": 1}}, "title": "t",
     "description": "d", "examples": [{}], "default": {}},
    True, False,
]


@pytest.mark.parametrize("schema", SCHEMAS, ids=[str(i) for i in range(len(SCHEMAS))])
def test_compiled_check_agrees_with_jsonschema(schema):
    check = compile_schema(schema)
    assert check is not None
    full = Draft202012Validator(schema)
    for value in VALUES:
        assert check(value) == full.is_valid(value), (schema, value)


@pytest.mark.parametrize("schema", [{"$ref": "#/x"}, {"patternProperties": {"a": {}}, "additionalProperties": False},
                                    {"dependentRequired": {"a": ["b"]}}, {"then": {}}])
def test_unknown_keywords_leave_the_work_to_jsonschema(schema):
    assert compile_schema(schema) is None
