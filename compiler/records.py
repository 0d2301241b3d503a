"""A class body of annotated fields -> a frozen record class, as `@dataclass(frozen=True)` makes
it, in a tenth of the time.

Why: `dataclasses` compiles six functions from generated source for every class and computes
a signature for its docstring; for the AST's ninety classes (lumos.compiler.nodes) that was
about 85 ms at every start of `lumos`, a third of the bare import of the libraries a check
needs. `record` compiles one small `__init__` per class and shares the other methods:

- fields in order, the bases' first; defaults and `dataclasses.field(default=..., compare=False,
  repr=False, kw_only=True)`; keyword-only fields after the others in `__init__`;
- `==` and `hash()` over the compared fields (the same tuples `dataclasses` compares and
  hashes), `repr()` over the shown ones, assignment refused (`FrozenInstanceError`);
- `__dataclass_fields__` and `__match_args__`, so `dataclasses.fields`, `replace`,
  `is_dataclass` and `match` treat a record as the dataclass it stands for.

What `dataclasses` offers beyond that (`default_factory`, `ClassVar`, `InitVar`, ordering,
`__post_init__`) is refused with a TypeError rather than done differently.

>>> @record
... class Point:
...     x: int
...     y: int = 0
>>> Point(1), Point(1) == Point(1, 0), hash(Point(1)) == hash((1, 0))
(Point(x=1, y=0), True, True)
"""
from __future__ import annotations

import dataclasses
import keyword
from operator import attrgetter

__all__ = ["record"]


@dataclasses.dataclass(frozen=True)
class _Probe:      # one real dataclass: where the markers `dataclasses` itself reads come from
    x: int = 0


_PARAMS = _Probe.__dataclass_params__
_FIELD_KIND = _Probe.__dataclass_fields__["x"]._field_type
_MISSING = dataclasses.MISSING
_REFUSED_TYPES = ("ClassVar", "InitVar", "typing.ClassVar", "dataclasses.InitVar")


def record(cls: type) -> type:
    """Make `cls` a frozen record of its annotated fields (and those of its record bases)."""
    fields: dict[str, dataclasses.Field] = {}
    for base in reversed(cls.__mro__[1:]):
        fields.update(base.__dict__.get("__dataclass_fields__", {}))
    for name, kind in cls.__dict__.get("__annotations__", {}).items():
        fields[name] = _own_field(cls, name, kind)
    if "__post_init__" in cls.__dict__:
        raise TypeError(f"{cls.__name__}: a record has no __post_init__")
    cls.__dataclass_fields__ = fields
    cls.__dataclass_params__ = _PARAMS
    cls.__init__ = _make_init(cls, list(fields.values()))
    cls.__match_args__ = tuple(f.name for f in fields.values() if not f.kw_only)
    compared = [f.name for f in fields.values() if f.compare]
    cls._record_key = staticmethod(_key(compared))
    cls._record_shown = tuple(f.name for f in fields.values() if f.repr)
    cls.__eq__, cls.__hash__, cls.__repr__ = _eq, _hash, _repr
    cls.__setattr__, cls.__delattr__ = _setattr, _delattr
    return cls


def _own_field(cls: type, name: str, kind) -> dataclasses.Field:
    if isinstance(kind, str) and kind.startswith(_REFUSED_TYPES):
        raise TypeError(f"{cls.__name__}.{name}: a record has no {kind.split('[')[0]} fields")
    default = cls.__dict__.get(name, _MISSING)
    f = default if isinstance(default, dataclasses.Field) else dataclasses.field(default=default)
    if f.default_factory is not _MISSING:
        raise TypeError(f"{cls.__name__}.{name}: a record has no default_factory")
    if isinstance(f.default, (list, dict, set)):
        raise ValueError(f"{cls.__name__}.{name}: mutable default {type(f.default).__name__} is not allowed")
    f.name, f.type, f._field_type = name, kind, _FIELD_KIND
    if f.kw_only is _MISSING:
        f.kw_only = False
    if isinstance(default, dataclasses.Field):   # as dataclasses: the class attribute is the default
        if f.default is _MISSING:
            delattr(cls, name)
        else:
            setattr(cls, name, f.default)
    return f


def _make_init(cls: type, fields: list[dataclasses.Field]):
    """`__init__(self, a, b=<default>, *, c=<default>)` storing each argument, compiled once."""
    names = {}
    params, kw_params = [], []
    seen_default = None
    for f in fields:
        if f.default is _MISSING:
            text = f.name
            if not f.kw_only and seen_default is not None:
                raise TypeError(f"{cls.__name__}: non-default argument {f.name!r} follows default "
                                f"argument {seen_default!r}")
        else:
            names[f"_default_{f.name}"] = f.default
            text = f"{f.name}=_default_{f.name}"
            if not f.kw_only:
                seen_default = f.name
        (kw_params if f.kw_only else params).append(text)
    for f in fields:   # only identifiers of our own class bodies ever reach exec, checked
        if not f.name.isidentifier() or keyword.iskeyword(f.name) or f.name in ("self", "_d"):
            raise TypeError(f"{cls.__name__}: {f.name!r} cannot be a record field")
    signature = ", ".join(["self", *params] + (["*", *kw_params] if kw_params else []))
    body = "".join(f"\n    _d[{f.name!r}] = {f.name}" for f in fields) or "\n    pass"
    source = f"def __init__({signature}):\n    _d = self.__dict__{body}\n"
    exec(source, names)   # noqa: S102 - identifiers checked above; defaults passed as objects, not text
    init = names["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    init.__annotations__ = {**{f.name: f.type for f in fields}, "return": None}
    return init


def _key(names: list[str]):
    """obj -> the tuple of its compared fields (what dataclasses compares and hashes)."""
    if len(names) >= 2:
        return attrgetter(*names)
    if names:
        get = attrgetter(names[0])
        return lambda obj: (get(obj),)
    return lambda obj: ()


def _eq(self, other):
    if other.__class__ is self.__class__:
        key = self._record_key
        return key(self) == key(other)
    return NotImplemented


def _hash(self):
    return hash(self._record_key(self))


def _repr(self):
    shown = ", ".join(f"{n}={getattr(self, n)!r}" for n in self._record_shown)
    return f"{self.__class__.__qualname__}({shown})"


def _setattr(self, name, value):
    raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")


def _delattr(self, name):
    raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")
