"""Source text -> Lark parse tree, or a positioned LumosSyntaxError in the designer's words.

The only module (with build_ast) that touches Lark. One parser per start rule is
built once and reused; the grammar file ships as package data.
"""
from __future__ import annotations

import re

import functools
from importlib import resources

from lark import Lark, Token, Tree
from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken
from lark.indenter import DedentError, Indenter

from lumos.diagnostics import Diagnostic, LumosSyntaxError, Span

START_RULES = ("game", "effect", "condition", "template_expr")


class _Indenter(Indenter):
    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR", "LSQB"]
    CLOSE_PAREN_types = ["RPAR", "RSQB"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 8

    def handle_NL(self, token):
        try:
            yield from super().handle_NL(token)
        except DedentError as exc:  # Lark's carries no position: the bad line is the one the newline starts
            exc.line, exc.column = token.end_line, token.end_column
            raise


def grammar_text() -> str:
    return resources.files("lumos.grammar").joinpath("lumos.lark").read_text(encoding="utf-8")


_LARK_OPTIONS = dict(parser="lalr", lexer="contextual", start=list(START_RULES), propagate_positions=True,
                     maybe_placeholders=False, strict=True)  # strict: no LALR conflict, no terminal collision


@functools.lru_cache(maxsize=1)
def _lark() -> Lark:
    """The parser. Analysing the grammar takes about 0.6 s; its tables are kept as JSON (Lark's
    own cache is a pickle, which could run code, so it is never used): in the compiler's cache,
    and shipped with the package for the grammar and the Lark version they were made with
    (`SHIPPED_TABLES`), so that the first check on a new machine does not analyse it either."""
    from lumos.compiler import cache
    name = cache.key("grammar", tables_key().encode())
    for saved in (cache.get(name, object_hook=_untag), shipped_tables()):
        if saved is not None:
            try:
                return Lark._load_from_dict(saved["data"], saved["memo"], postlex=_Indenter(),
                                            propagate_positions=True)
            except Exception:  # noqa: BLE001 - a stale or damaged entry: analyse the grammar again
                pass
    built = _analysed()
    if cache.folder() is not None:
        try:
            cache.put(name, _tables(built))
        except (TypeError, ValueError, AttributeError, ImportError):  # a Lark whose tables are not plain data
            pass
    return built


def _analysed() -> Lark:
    """The parser built from the grammar itself (its analysis: the slow part)."""
    return Lark(grammar_text(), postlex=_Indenter(), **_LARK_OPTIONS)


SHIPPED_TABLES = "lumos.tables.json.gz"   # in lumos.grammar, beside lumos.lark
REMAKE_TABLES = 'python -c "from lumos.compiler.parse import write_shipped_tables; write_shipped_tables()"'


def grammar_key() -> str:
    """What the analysed tables depend on besides Lark's version: the parser's options, the grammar."""
    import hashlib
    return hashlib.sha256((repr(sorted(_LARK_OPTIONS.items())) + "\0" + grammar_text()).encode()).hexdigest()


def tables_key() -> str:
    """What the analysed tables depend on: Lark's version, the parser's options, the grammar."""
    import lark as lark_module
    return lark_module.__version__ + "\0" + grammar_key()


def shipped_tables() -> dict | None:
    """The tables shipped with the package, when they were made from this grammar with this
    Lark (else None: the grammar is analysed). Read as JSON only, from the installed package."""
    import gzip
    import json
    try:
        raw = resources.files("lumos.grammar").joinpath(SHIPPED_TABLES).read_bytes()
        entry = json.loads(gzip.decompress(raw), object_hook=_untag)
    except (OSError, ValueError, EOFError, RecursionError):
        return None
    if not isinstance(entry, dict) or entry.get("key") != tables_key():
        return None
    data = entry.get("tables")
    return data if isinstance(data, dict) and "data" in data and "memo" in data else None


def write_shipped_tables(folder=None) -> str:
    """Analyse the grammar and write its tables beside it (run after editing grammar/lumos.lark
    or changing Lark's version; tests/test_grammar_tables.py says when). Returns the path."""
    import gzip
    import json
    from pathlib import Path

    import lark as lark_module
    entry = {"key": tables_key(), "grammar": grammar_key(), "lark": lark_module.__version__,
             "tables": _tables(_analysed())}
    path = Path(folder or Path(__file__).resolve().parents[1] / "grammar") / SHIPPED_TABLES
    path.write_bytes(gzip.compress(json.dumps(entry, sort_keys=True, separators=(",", ":")).encode(), mtime=0))
    return str(path)


def _tables(built: Lark) -> dict:
    """The parser's analysed grammar as JSON-able data (what Lark's own cache would pickle)."""
    from lark.grammar import Rule
    from lark.lark import _LOAD_ALLOWED_OPTIONS
    from lark.lexer import TerminalDef
    data, memo = built.memo_serialize([TerminalDef, Rule])
    data["options"] = {k: v for k, v in data["options"].items() if k not in _LOAD_ALLOWED_OPTIONS}
    return {"data": _tag(data), "memo": _tag(memo)}


def _tag(x):
    """Lark's serialised tables -> JSON: tuples and dicts with number keys are tagged so they come back."""
    if isinstance(x, tuple):
        return {"T": [_tag(v) for v in x]}
    if isinstance(x, list):
        return [_tag(v) for v in x]
    if isinstance(x, dict):
        if all(isinstance(k, str) for k in x) and not (len(x) == 1 and next(iter(x)) in ("T", "D")):
            return {k: _tag(v) for k, v in x.items()}
        return {"D": [[_tag(k), _tag(v)] for k, v in x.items()]}
    if x is None or isinstance(x, (str, int, float, bool)):
        return x
    raise TypeError(f"cannot store a {type(x).__name__} in the cache")


def _untag(obj: dict):
    """json.loads's object hook that undoes `_tag`: tagged objects come back as tuples and dicts."""
    if len(obj) == 1:
        if "T" in obj:
            return tuple(obj["T"])
        if "D" in obj:
            return {(tuple(k) if isinstance(k, list) else k): v for k, v in obj["D"]}
    return obj


class _StartParser:
    """One shared LALR analysis; each start rule is an entry point into it."""

    def __init__(self, start: str):
        self.start = start

    def parse(self, text: str):
        return _lark().parse(text, start=self.start)


@functools.lru_cache(maxsize=None)
def parser(start: str) -> _StartParser:
    return _StartParser(start)


# Token names -> words a designer understands.
_TOKEN_WORDS = {
    "NAME": "a name", "NUMBER": "a number", "STRING": "a quoted text", "_NL": "the end of the line",
    "_INDENT": "an indented block", "_DEDENT": "the end of the block", "COLON": "`:`",
    "LPAR": "`(`", "RPAR": "`)`", "LSQB": "`[`", "RSQB": "`]`", "COMMA": "`,`", "DOT": "`.`",
    "EQUAL": "`=`", "COMPARE": "a comparison", "ADD_OP": "`+` or `-`", "MUL_OP": "`*`, `/` or `%`",
    "MAY": "`may`", "$END": "the end of the text", "META_KEY": "a header (`game`, `board`, ...)",
    "TYPE_NAME": "a type (number, flag, text, side, piece, space, card, zone)",
    "SCOPE": "`side`, `piece`, `space` or `card`", "VISIBILITY": "`hidden`, `owner` or `public`",
    "MINUS": "`-`",
}


def _word(term: str) -> str:
    if term in _TOKEN_WORDS:
        return _TOKEN_WORDS[term]
    if term.startswith("__ANON") or term.isupper():
        name = term.lower()
        return f"`{name}`"
    return term


_QUANTIFIER_WORDS = {"ANY", "ALL", "COUNT"}


def _expected_words(expected) -> str:
    # `any`, `all`, `count` (quantifiers) are expected only where a name is: "a name" says it
    words = sorted({_word(t) for t in expected if not t.startswith("__") and t not in _QUANTIFIER_WORDS})
    if len(words) > 8:
        words = words[:8] + ["..."]
    return ", ".join(words)


# A catalogue of typical mistakes (Lark's match_examples): label -> (message, hint, examples).
MISTAKES = {
    "missing-colon": ("a block must start with `:` at the end of the line",
                      "add `:` at the end of the line, then indent the block below it",
                      ["if x is none\n  pass\n", "if x\n  pass\n", "if f(x)\n  pass\n", "loop\n  stop\n",
                       "for each p in pieces\n  pass\n", "while x < 1\n  pass\n", "repeat 2 times\n  pass\n",
                       "if x:\n  pass\nelse\n  pass\n", "if x:\n  pass\nelif y\n  pass\n"]),
    "eq-in-condition": ("`=` sets a value; to compare, write `==` or `is`",
                        "write `x is y` or `x == y` in a condition",
                        ["if x = 1:\n  pass\n", "while x = 1:\n  pass\n", "if x.y = 1:\n  pass\n",
                         "if f(x) = 1:\n  pass\n", "if x:\n  pass\nelif x = 1:\n  pass\n"]),
    "missing-indent": ("the block after `:` must be indented",
                       "indent the lines of the block more than the line ending in `:`",
                       ["if x:\npass\n", "loop:\nstop\n", "for each p in pieces:\npass\n", "while x:\npass\n",
                        "if x:\n  pass\nelse:\npass\n", "choose by x:\noption \"a\":\n  pass\n"]),
    "walk-up-to": ("`without backtracking` goes with `exactly N`: a walk has an exact length",
                   "write `reach from ... exactly N without backtracking`, or `up to N` without it",
                   ["let x = reach from a by b up to 3 without backtracking\n",
                    "let x = reach from a by b up to n without backtracking\n",
                    "let x = reach from a by b up to a.b without backtracking\n",
                    "let x = reach from a by b up to (n) without backtracking\n"]),
    "unclosed-paren": ("a `(` or `[` is never closed", "add the missing `)` or `]`",
                       ["let x = count(y\n", "let x = [1, 2\n"]),
    "timed-words": ("an effect that lasts or waits is written `until the end of this PHASE:`",
                    "also `at the end of this PHASE:`, `at the start of the next PHASE:`, `at the start of each "
                    "PHASE:`, `once per PHASE:`; a PHASE is declared with `phase NAME` (docs: Effects that last "
                    "or repeat)",
                    ["until end of turn:\n  pass\n", "until the end of turn:\n  pass\n",
                     "until the end of the turn:\n  pass\n", "at end of turn:\n  pass\n",
                     "at the end of turn:\n  pass\n", "at the start of turn:\n  pass\n",
                     "at the start of next turn:\n  pass\n", "once per the turn:\n  pass\n",
                     "once a turn:\n  pass\n", "once each turn:\n  pass\n"]),
    "remove-from-play": ("a side is removed with `remove SIDE from play`",
                         "write `remove s from play` (the side takes no further part in the game)",
                         ["remove x from the game\n", "remove x from game\n", "remove x\n"]),
}


# Mistakes recognised by the parser state alone: whatever token comes next is wrong.
_ANY_TOKEN = {"missing-indent"}


@functools.lru_cache(maxsize=None)
def _catalogue(start: str) -> tuple[tuple[str, object, str], ...]:
    """(label, parser state, token type) of each example's error, for one start rule.

    The examples are statements; for a rules file they are wrapped in a procedure.
    Errors are matched by LALR state and offending token type only: Lark's own
    match_examples also compares the stack depth, so it missed any mistake that is
    not in the first statement."""
    found = []
    for label, (_m, _h, examples) in MISTAKES.items():
        for example in examples:
            if start == "game":
                example = "procedure p():\n" + "".join("    " + ln + "\n" for ln in example.splitlines())
            try:
                parser(start).parse(example)
            except UnexpectedInput as ut:
                token = getattr(ut, "token", None)
                if getattr(ut, "state", None) is not None and token is not None:
                    found.append((label, ut.state.position, token.type))
            except LarkError:
                pass
    return tuple(found)


def _classify(exc: UnexpectedInput, text: str, start: str) -> str | None:
    if start not in ("game", "effect"):
        return None
    state, token = getattr(exc, "state", None), getattr(exc, "token", None)
    if state is None or token is None:
        return None
    try:
        for label, position, token_type in _catalogue(start):
            if position == state.position and (token_type == token.type or label in _ANY_TOKEN):
                return label
    except Exception:  # the catalogue is advisory; never let it hide the real error
        return None
    return None


_TREES: dict[tuple[str, str], Tree] = {}  # parse trees never change: the AST builder makes new nodes
MAX_SAVED_TREES = 4096
DISK_MIN_CHARS = 2000   # rules files: one cache entry each (short texts: lumos.compiler.astdata.text_bundle)


@functools.lru_cache(maxsize=1)
def _stamp() -> str:
    """What a saved parse tree depends on besides its text: Lark's version and the grammar."""
    import lark
    return lark.__version__ + "\0" + grammar_text() + "\0"


def _disk_key(text: str) -> str:
    from lumos.compiler import cache
    return cache.key("tree", (_stamp() + text).encode())


_META = ("line", "column", "start_pos", "end_line", "end_column", "end_pos")
_CONTAINER = tuple("container_" + f for f in _META)


def tree_to_data(tree: Tree) -> list:
    """A parse tree as nested lists (JSON-able): [1, rule, is-a-rule-token, positions, children];
    a token is [0, type, text, start_pos, line, column, end_line, end_column, end_pos]."""
    meta = tree.meta
    where: list | int = 0
    if not meta.empty:
        where = [getattr(meta, f) for f in _META]
        container = [getattr(meta, f, None) for f in _CONTAINER]
        if container != where:
            where += container
    return [1, str(tree.data), isinstance(tree.data, Token), where,
            [tree_to_data(c) if isinstance(c, Tree) else
             [0, c.type, str(c), c.start_pos, c.line, c.column, c.end_line, c.end_column, c.end_pos]
             for c in tree.children]]


def tree_from_data(data: list, depth: int = 1) -> Tree:
    """The tree `tree_to_data` wrote; anything malformed raises (ValueError, TypeError, IndexError)."""
    tag, rule, is_token, where, kids = data
    if tag != 1 or not isinstance(rule, str) or not isinstance(kids, list) or depth > MAX_DEPTH:
        raise ValueError("not a saved parse tree")
    children = [tree_from_data(c, depth + 1) if c[0] == 1 else _token(c) for c in kids]
    tree = Tree(Token("RULE", rule) if is_token else rule, children)
    if where:
        if len(where) not in (6, 12) or not all(isinstance(v, int) for v in where):
            raise ValueError("bad positions in a saved parse tree")
        meta = tree.meta
        meta.empty = False
        meta.__dict__.update(zip(_META + _CONTAINER, where if len(where) == 12 else where + where))
    return tree


def _token(data: list) -> Token:
    tag, kind, text, *where = data
    if tag != 0 or not isinstance(kind, str) or not isinstance(text, str) or len(where) != 6:
        raise ValueError("not a saved token")
    return Token(kind, text, *where)


def _saved_tree(text: str) -> Tree | None:
    from lumos.compiler import cache
    data = cache.get(_disk_key(text))
    if data is None:
        return None
    try:
        return tree_from_data(data)
    except (ValueError, TypeError, IndexError, KeyError, RecursionError):
        return None   # a damaged entry: parse again (and overwrite it)


def parse(text: str, path: str, start: str = "game", origin=None) -> Tree:
    """Parse `text` from the start rule; raise LumosSyntaxError with position and hint.

    `origin` (a build_ast.Origin) places positions of embedded text in its host file."""
    if not text.endswith("\n"):
        text += "\n"
    key = (text, start)
    on_disk = start == "game" and len(text) >= DISK_MIN_CHARS
    cached = _TREES.get(key)
    if cached is not None:  # the same effect text on several cards is parsed once
        return cached
    if on_disk:   # a rules file parsed by an earlier run (`lumos check` again on unchanged rules)
        tree = _saved_tree(text)
        if tree is not None:
            _TREES[key] = tree
            return tree
    try:
        tree = parser(start).parse(text)
        deep = _too_deep(tree)
        if deep is None:
            if len(_TREES) < MAX_SAVED_TREES:
                _TREES[key] = tree
            if on_disk:
                from lumos.compiler import cache
                cache.put(_disk_key(text), tree_to_data(tree))
            return tree
        diag = Diagnostic("L100", "this is nested too deeply", Span(path, *deep),
                          "split the expression with `let` or a function")
    except UnexpectedInput as exc:
        diag = _diagnose(exc, text, path, start)
    except LarkError as exc:  # e.g. a dedent that matches no open block
        line = getattr(exc, "line", None) or text.count("\n", 0, getattr(exc, "pos", 0) or 0) + 1
        col = getattr(exc, "column", None) or 1
        diag = Diagnostic("L105", "the indentation does not match any open block", Span(path, line, col),
                          "indent this line exactly like the block it belongs to")
    if origin is not None:
        s = diag.span
        diag = Diagnostic(diag.code, diag.message, origin.span(s.line, s.col, s.end_line or s.line,
                                                              s.end_col or s.col), diag.hint)
    raise LumosSyntaxError(diag)


MAX_DEPTH = 200  # parse-tree levels; the bundled rules need 30, and later passes recurse per level


def _too_deep(tree: Tree) -> tuple[int, int] | None:
    """(line, col) of a node deeper than MAX_DEPTH (the AST builder, the checker and the
    interpreter recurse over the tree, so a pathological nesting must stop here), or None."""
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            meta = getattr(node, "meta", None)
            line = getattr(node, "line", None) or getattr(meta, "line", None) or 1
            col = getattr(node, "column", None) or getattr(meta, "column", None) or 1
            return line, col
        if isinstance(node, Tree):
            stack.extend((c, depth + 1) for c in node.children)
    return None


def _unclosed_bracket(text: str, upto: int) -> tuple[int, int, str] | None:
    """(line, col, bracket) of the innermost `(` or `[` still open at offset `upto`."""
    stack: list[tuple[int, int, str]] = []
    line, line_start, i = 1, 0, 0
    while i < min(upto, len(text)):
        ch = text[i]
        if ch == "\n":
            line, line_start = line + 1, i + 1
        elif ch == "#":
            j = text.find("\n", i)
            i = (len(text) if j < 0 else j)
            continue
        elif ch == '"':
            j = i + 1
            while j < len(text) and text[j] not in '"\n':
                j += 2 if text[j] == "\\" else 1
            i = j + 1 if j < len(text) and text[j] == '"' else j
            continue
        elif ch in "([":
            stack.append((line, i - line_start + 1, ch))
        elif ch in ")]" and stack:
            stack.pop()
        i += 1
    return stack[-1] if stack else None


_QUANTIFIER_BEFORE = re.compile(r"(?<![\w.])(any|all|count)\s*$")


def _known_mistake(text: str, tok) -> tuple[str, str] | None:
    """(message, hint) for a mistake read off the text around the unexpected token: a quantifier
    not in brackets inside an expression (`a and any d in ...`: `any` was read as a name), a list
    indexed (`d[0]`), a range (`[1..7]`)."""
    at = getattr(tok, "start_pos", None)
    if at is None:
        return None
    before, after = text[:at], text[at:]
    if tok.type == "NAME" and _QUANTIFIER_BEFORE.search(before):
        word = _QUANTIFIER_BEFORE.search(before).group(1)
        return (f"`{word} NAME in LIST where ...` inside `and`, `or`, `not` or a comparison goes in brackets",
                f"write `... and ({word} {tok.value} in ...)`; the quantifier's condition runs to the end "
                f"of its brackets")
    if after.startswith("[") and before.rstrip()[-1:] in (")", "]") or (
            after.startswith("[") and before[-1:].isalnum()):
        return ("a list has no indexing",
                "name an item with `first(LIST)`, `last(LIST)`, a filter (`LIST where ...`) or `for each`")
    if after.startswith("..") or (after.startswith(".") and before.endswith(".")):   # `1.` may be read as a number
        return ("there is no range of numbers",
                "write the numbers out as a list: `[1, 2, 3, 4, 5, 6, 7]` (filter it with `where it <= n`)")
    return None


def _diagnose(exc: UnexpectedInput, text: str, path: str, start: str) -> Diagnostic:
    line, col = getattr(exc, "line", 1) or 1, getattr(exc, "column", 1) or 1
    tok = getattr(exc, "token", None)
    if isinstance(exc, (UnexpectedToken, UnexpectedEOF)) and tok is not None:
        at_end = tok.type == "$END" or isinstance(exc, UnexpectedEOF)
        opened = _unclosed_bracket(text, len(text) if at_end else (getattr(tok, "start_pos", None) or 0))
        if opened is not None and (at_end or opened[0] < line):
            closer = ")" if opened[2] == "(" else "]"
            return Diagnostic("L101", f"this `{opened[2]}` is never closed",
                              Span(path, opened[0], opened[1], opened[0], opened[1] + 1),
                              f"add the missing `{closer}`; until it is closed, the lines below are read "
                              f"as part of it")
    label = _classify(exc, text, start)
    if label:
        message, hint, _ = MISTAKES[label]
        return Diagnostic("L101", message, Span(path, line, col, line, col + 1), hint)
    if isinstance(exc, UnexpectedCharacters):
        ch = text[exc.pos_in_stream] if exc.pos_in_stream < len(text) else "?"
        hint = "names are lower case letters, digits and `_`" if ch.isalpha() else \
            "remove the character or put the text in double quotes"
        if ch == "\t":
            hint = "indent with spaces"
        if ch == "'":
            hint = 'texts use double quotes: "like this"'
        return Diagnostic("L102", f"unexpected character `{ch}`", Span(path, line, col, line, col + 1), hint)
    if isinstance(exc, UnexpectedToken):
        tok: Token = exc.token
        if tok.type == "$END" or isinstance(exc, UnexpectedEOF):
            return Diagnostic("L103", "the text ends too early", Span(path, line, col),
                              f"expected {_expected_words(exc.expected)}")
        shown = {"_NL": "end of the line", "_INDENT": "indented block",
                 "_DEDENT": "end of the block"}.get(tok.type, f"`{tok.value}`")
        if tok.type == "_INDENT":
            return Diagnostic("L104", "unexpected indentation", Span(path, line, col),
                              "only lines after a line ending in `:` are indented")
        end = col + max(1, len(str(tok.value))) if tok.type not in ("_NL", "_DEDENT") else col + 1
        known = _known_mistake(text, tok)
        if known is not None:
            return Diagnostic("L101", known[0], Span(path, line, col, line, end), known[1])
        return Diagnostic("L100", f"unexpected {shown}", Span(path, line, col, line, end),
                          f"expected {_expected_words(exc.expected)}")
    if isinstance(exc, UnexpectedEOF):
        return Diagnostic("L103", "the text ends too early", Span(path, line, col),
                          f"expected {_expected_words(exc.expected)}")
    return Diagnostic("L100", str(exc).splitlines()[0], Span(path, line, col), "")
