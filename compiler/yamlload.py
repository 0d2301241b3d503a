"""YAML text -> plain Python data that remembers where every key and value came from.

Why not plain `yaml.safe_load`: designers need errors at the line of the bad value,
YAML 1.1 silently turns `name: No` into `False`, and duplicate keys silently keep
the last one. This loader keeps safe-load semantics (no tags, no objects), records
positions, rejects duplicate keys and the yes/no/on/off booleans, and caps alias
expansion so a "billion laughs" file cannot hang the checker.

>>> data = load_yaml("a: 1\\nb: [x, y]\\n", "f.yaml")
>>> data["b"], data.mark("b"), data["b"].mark(1)
(['x', 'y'], (2, 4), (2, 8))
"""
from __future__ import annotations

import yaml

from lumos.compiler import yamldata
from lumos.compiler.yamldata import MarkedDict, MarkedList, MarkedStr  # noqa: F401 - the loader's values
from lumos.diagnostics import Diagnostic, LumosSyntaxError, Span

try:  # the C parser is several times faster; semantics are identical
    _BaseLoader = yaml.CSafeLoader  # type: ignore[attr-defined]
except AttributeError:  # pragma: no cover - pure-Python fallback
    _BaseLoader = yaml.SafeLoader

MAX_NODES = 200_000
MAX_BYTES = 2_000_000  # a card file of 2 MB is a mistake; composing it would take seconds
_YAML11_BOOLS = {"yes", "no", "on", "off", "y", "n"}
MAX_DIGITS = 20   # every 64-bit whole number (a position's generator state); Python refuses 4300+ digits


def _pos(mark) -> tuple[int, int]:
    return (mark.line + 1, mark.column + 1)


class _Loader(_BaseLoader):
    def __init__(self, stream, path: str):
        super().__init__(stream)
        self.path = path
        self.nodes = 0

    def _count(self, node) -> None:
        self.nodes += 1
        if self.nodes > MAX_NODES:
            line, col = _pos(node.start_mark)
            raise LumosSyntaxError(Diagnostic(
                "Y003", f"the file expands to more than {MAX_NODES} values",
                Span(self.path, line, col), "is it a chain of aliases (&a / *a)?"))

    def construct_mapping(self, node, deep=False):
        self._count(node)
        result = MarkedDict()
        result.start = _pos(node.start_mark)
        result.key_marks, result.value_marks = {}, {}
        for key_node, value_node in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                raise LumosSyntaxError(Diagnostic(
                    "Y004", "merge keys (`<<`) are not supported",
                    Span(self.path, *_pos(key_node.start_mark)), "write the fields out in full"))
            key = self.construct_object(key_node, deep=True)
            try:
                hash(key)
            except TypeError:
                raise LumosSyntaxError(Diagnostic(
                    "Y005", "a mapping key must be a plain value",
                    Span(self.path, *_pos(key_node.start_mark)), "")) from None
            if key in result:
                first = result.key_marks[key]
                raise LumosSyntaxError(Diagnostic(
                    "Y002", f"duplicate key `{key}`",
                    Span(self.path, *_pos(key_node.start_mark)),
                    f"`{key}` is already set on line {first[0]}; keep only one"))
            result[key] = self.construct_object(value_node, deep=True)
            result.key_marks[key] = _pos(key_node.start_mark)
            result.value_marks[key] = _pos(value_node.start_mark)
        return result

    def construct_sequence(self, node, deep=False):
        self._count(node)
        result = MarkedList(self.construct_object(child, deep=True) for child in node.value)
        result.start = _pos(node.start_mark)
        result.marks = [_pos(child.start_mark) for child in node.value]
        return result

    def construct_yaml_bool(self, node):
        self._count(node)
        text = node.value
        if text.lower() in _YAML11_BOOLS:
            raise LumosSyntaxError(Diagnostic(
                "Y006", f"`{text}` is ambiguous: YAML 1.1 reads it as a boolean",
                Span(self.path, *_pos(node.start_mark)),
                f'write true/false for a yes/no value, or quote it ("{text}") for text'))
        return super().construct_yaml_bool(node)

    def construct_yaml_int(self, node):
        self._count(node)
        digits = sum(ch.isalnum() for ch in node.value)   # 0x.., 0b.., 1_000 and 1:30 count too
        if digits > MAX_DIGITS:
            raise LumosSyntaxError(Diagnostic(
                "Y009", f"this number is too large: {digits} digits, more than {MAX_DIGITS}",
                Span(self.path, *_pos(node.start_mark)),
                "card numbers are small whole numbers (a cost, a count, a threshold), and the largest number "
                "of a position is a 64-bit generator state; quote it (\"...\") if it is a text"))
        return super().construct_yaml_int(node)

    def construct_yaml_str(self, node):
        self._count(node)
        value = MarkedStr(super().construct_scalar(node))
        value.start = _pos(node.start_mark)
        value.style = node.style
        return value

    def construct_undefined(self, node):
        raise LumosSyntaxError(Diagnostic(
            "Y007", f"YAML tag `{node.tag.replace('tag:yaml.org,2002:', '!!')}` is not allowed in card data",
            Span(self.path, *_pos(node.start_mark)), "remove the `!tag`; plain values only"))


_Loader.add_constructor("tag:yaml.org,2002:bool", _Loader.construct_yaml_bool)
_Loader.add_constructor("tag:yaml.org,2002:str", _Loader.construct_yaml_str)
_Loader.add_constructor("tag:yaml.org,2002:int", _Loader.construct_yaml_int)
_Loader.add_constructor("tag:yaml.org,2002:map", _Loader.construct_mapping)
_Loader.add_constructor("tag:yaml.org,2002:seq", _Loader.construct_sequence)
_Loader.add_constructor(None, _Loader.construct_undefined)
# YAML 1.1 resolves yes/no/on/off to bool; we keep that resolution so we can reject them.


def _check_expansion(root, path: str) -> None:
    """Refuse a document whose aliases expand it past MAX_NODES values (a "billion laughs").

    Constructed objects are shared between an anchor and its aliases, so counting
    while constructing sees each node once; the schema check and the compiler then
    walk the expanded tree. Sizes are counted on the node graph, each node once."""
    size: dict[int, int] = {}
    stack = [(root, False)]
    open_ = set()
    while stack:
        node, done = stack.pop()
        key = id(node)
        if done:
            open_.discard(key)
            children = _children(node)
            size[key] = 1 + sum(size[id(c)] for c in children)
            if size[key] > MAX_NODES:
                line, col = _pos(node.start_mark)
                aliased = len(size) <= MAX_NODES  # fewer distinct values than the expansion
                raise LumosSyntaxError(Diagnostic(
                    "Y003", f"the file expands to more than {MAX_NODES} values",
                    Span(path, line, col), "is it a chain of aliases (&a / *a)? write the values out"
                    if aliased else "split the cards into several files"))
            continue
        if key in size:
            continue
        if key in open_:
            line, col = _pos(node.start_mark)
            raise LumosSyntaxError(Diagnostic(
                "Y003", "an alias refers to the value that contains it",
                Span(path, line, col), "a value cannot contain itself; write it out"))
        open_.add(key)
        stack.append((node, True))
        stack.extend((c, False) for c in _children(node) if id(c) not in size)


def _children(node) -> list:
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    if isinstance(node, yaml.MappingNode):
        return [n for pair in node.value for n in pair]
    return []


def _node_count(root) -> int:
    """How many nodes a document without aliases has (each node is in it once)."""
    count, stack = 0, [root]
    while stack:
        node = stack.pop()
        count += 1
        if node.id == "mapping":
            for pair in node.value:
                stack.extend(pair)
        elif node.id == "sequence":
            stack.extend(node.value)
    return count


def load_yaml(text: str | bytes, path: str):
    """Parse one YAML document; raise LumosSyntaxError with a position on any problem."""
    if len(text) > MAX_BYTES:
        raise LumosSyntaxError(Diagnostic(
            "Y003", f"the file is too big: more than {MAX_BYTES} characters",
            Span(path, 1, 1), "split the cards into several files"))
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise LumosSyntaxError(Diagnostic(
                "Y008", "the file is not UTF-8 text", Span(path, 1, 1),
                f"byte {exc.start} cannot be decoded; save the file as UTF-8")) from None
    if "\x00" in text:
        line = text.count("\n", 0, text.index("\x00")) + 1
        raise LumosSyntaxError(Diagnostic("Y008", "the file contains a NUL byte",
                                          Span(path, line, 1), "is it a binary file?"))
    name = yamldata.cache_name(text)
    found = yamldata.saved(name) if name else None
    if found is not None:      # this text loaded cleanly before: its data, positions included
        return found
    loaded = _load(text, path)
    if name:
        yamldata.save(name, loaded)
    return loaded


def _load(text: str, path: str):
    loader = _Loader(text, path)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        aliased = "&" in text and "*" in text    # an alias `*a` needs an anchor `&a` (else YAML refused it)
        if aliased or (2 * len(text) + 2 >= MAX_NODES and _node_count(node) > MAX_NODES):
            # Without an alias every value is written out once: a text this short holds fewer
            # than MAX_NODES of them, and a longer one is counted first (a tenth of the time
            # of the whole walk, which then says where the values are too many).
            _check_expansion(node, path)
        return loader.construct_document(node)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = _pos(mark) if mark else (1, 1)
        problem = (exc.problem or exc.context or "invalid YAML").strip()
        if "nesting depth" in problem:
            # libyaml's own depth limit; the pure-Python loader hits RecursionError instead.
            # Both are the same mistake and must give the same code on every machine.
            raise LumosSyntaxError(Diagnostic("Y003", "the YAML is nested too deeply",
                                              Span(path, line, col), "flatten the structure")) from None
        hint = "check the indentation and that every `key:` has a space after the colon"
        if "tab" in problem:
            hint = "YAML does not allow tabs for indentation; use spaces"
        elif "expected a single document" in problem or "another document" in problem:
            hint = "a card file holds one document; remove the extra `---`"
        opener = {"flow sequence": "[", "flow mapping": "{", "quoted scalar": '"'}
        what = next((k for k in opener if k in (exc.context or "")), None)
        if what and exc.context_mark is not None and exc.problem_mark is not None \
                and exc.problem_mark.line > exc.context_mark.line:
            # the real mistake is where the bracket or quote was opened, lines above
            line, col = _pos(exc.context_mark)
            closer = {"[": "]", "{": "}", '"': '"'}[opener[what]]
            problem = f"this `{opener[what]}` is never closed"
            hint = f"add the missing `{closer}` where the list, mapping or text ends"
        raise LumosSyntaxError(Diagnostic("Y001", f"YAML syntax error: {problem}",
                                          Span(path, line, col), hint)) from None
    except yaml.YAMLError as exc:
        raise LumosSyntaxError(Diagnostic("Y001", f"YAML syntax error: {exc}",
                                          Span(path, 1, 1), "")) from None
    except RecursionError:
        raise LumosSyntaxError(Diagnostic("Y003", "the YAML is nested too deeply",
                                          Span(path, 1, 1), "flatten the structure")) from None
    finally:
        loader.dispose()
