"""lumos.compiler.records makes the AST's classes as `@dataclass(frozen=True)` would: the same
fields, `__init__` signature, equality, hash, repr and refusal to change, class by class.

The reference is nodes.py itself with each `@record` read as `@dataclass(frozen=True)`.
"""
import dataclasses
import inspect
import sys
import types
from pathlib import Path

import pytest

import lumos.compiler.nodes as N
from lumos.compiler.records import record
from lumos.diagnostics import Span

NODES_FILE = Path(N.__file__)


def _reference_module():
    text = NODES_FILE.read_text(encoding="utf-8")
    assert text.count("@record\n") > 80
    text = text.replace("@record\n", "@dataclass(frozen=True)\n").replace(
        "from dataclasses import field\n", "from dataclasses import dataclass, field\n")
    module = types.ModuleType("reference_nodes")
    sys.modules[module.__name__] = module      # dataclasses looks its module up while it works
    try:
        exec(compile(text, "reference_nodes.py", "exec"), module.__dict__)
    finally:
        del sys.modules[module.__name__]
    return module


REF = _reference_module()
CLASSES = sorted(name for name, c in vars(N).items()
                 if isinstance(c, type) and issubclass(c, N.Node) and c.__module__ == N.__name__)


def _sample(cls, depth=0):
    """An instance of `cls` with a distinct value per field (nested records one level deep)."""
    args = {}
    for i, f in enumerate(dataclasses.fields(cls)):
        args[f.name] = Span("f", i + 1, 1) if f.name == "span" else (f"v{i}" if depth else (f.name, i))
    return cls(**args)


def test_every_node_class_is_a_record_of_the_nodes_module():
    assert len(CLASSES) > 80
    assert all(dataclasses.is_dataclass(getattr(N, name)) for name in CLASSES)


@pytest.mark.parametrize("name", CLASSES)
def test_a_node_class_has_the_fields_and_signature_of_its_dataclass(name):
    mine, ref = getattr(N, name), getattr(REF, name)
    shape = [(f.name, f.type, f.default, f.compare, f.repr, f.kw_only, f.init, f.hash)
             for f in dataclasses.fields(mine)]
    assert shape == [(f.name, f.type, f.default, f.compare, f.repr, f.kw_only, f.init, f.hash)
                     for f in dataclasses.fields(ref)]
    assert str(inspect.signature(mine)) == str(inspect.signature(ref))
    assert mine.__match_args__ == ref.__match_args__
    for f in dataclasses.fields(ref):    # class attributes: the defaults, as dataclasses leaves them
        assert getattr(mine, f.name, "absent") == getattr(ref, f.name, "absent")


@pytest.mark.parametrize("name", CLASSES)
def test_a_node_compares_hashes_and_shows_as_its_dataclass(name):
    mine, ref = getattr(N, name), getattr(REF, name)
    a, b = _sample(mine), _sample(ref)
    assert repr(a) == repr(b)
    assert hash(a) == hash(b)
    assert a == _sample(mine) and a != b    # another class: never equal
    assert vars(a) == vars(b)
    moved = dataclasses.replace(a, span=Span("g", 9, 9))
    assert moved == a and moved.span != a.span   # spans are not compared
    other = {f.name for f in dataclasses.fields(mine) if f.compare}
    if other:
        changed = dataclasses.replace(a, **{sorted(other)[0]: "changed"})
        assert changed != a
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.span = None
    with pytest.raises(dataclasses.FrozenInstanceError):
        del a.span


def test_arguments_are_checked_as_by_dataclasses():
    with pytest.raises(TypeError):
        N.Num(Span("f", 1, 1))                         # a field missing
    with pytest.raises(TypeError):
        N.Num(Span("f", 1, 1), 1, 2)                   # one too many
    with pytest.raises(TypeError):
        N.Meta(Span("f", 1, 1), "game", "x", (), None)  # keyword-only fields given by position
    m = N.Meta(Span("f", 1, 1), "game", "x", sources=("a",), value_span=Span("f", 1, 7))
    assert m.sources == ("a",) and m.phrase is None and m.value_span == Span("f", 1, 7)


def test_a_subclass_without_the_decorator_keeps_its_base_fields():
    class Mystery(N.Stmt):
        pass
    assert Mystery(None) == Mystery(Span("f", 1, 1)) and repr(Mystery(None)).endswith("Mystery()")


def test_what_records_do_not_do_is_refused():
    with pytest.raises(TypeError):
        @record
        class Bad:
            items: list = dataclasses.field(default_factory=list)
    with pytest.raises(ValueError):
        @record
        class Mutable:
            items: list = []
    with pytest.raises(TypeError):
        @record
        class Order:
            a: int = 1
            b: int


def test_only_identifiers_become_fields_of_the_generated_init():
    """`record` writes `__init__` from the field names (as dataclasses does): a name that is
    not a plain identifier, or one the generated code uses itself, is refused, so no other
    text can reach the code it compiles."""
    import pytest

    from lumos.compiler.records import record
    for bad in ("_d", "self", "lambda"):
        cls = type("Bad", (), {"__annotations__": {bad: "int"}})
        with pytest.raises(TypeError, match="cannot be a record field"):
            record(cls)
