"""A game folder (rules/<id>/game.lumos + board) and its card folder -> CompiledGame, or diagnostics.

`check_game` returns every diagnostic of the rules, the board and the cards;
`compile_game` raises a LumosCheckError with all of them when any is an error.
"""
from __future__ import annotations

import dataclasses
import gc
import json
import re
from pathlib import Path

from lumos.compiler import nodes as N
from lumos.compiler.named_files import RefusedFile, read_bytes, read_head, refusal
from lumos.compiler.sources import GameSources  # noqa: F401 - imported from here too
from lumos.diagnostics import Diagnostic, DiagnosticSink, LumosCheckError, LumosError, Span, did_you_mean

MAX_RULES_BYTES = 500_000  # parsing takes about 5 s per MB; real rules files are ~20 KB
MAX_BOARD_BYTES = 2_000_000   # as boards.MAX_BOARD_BYTES (not imported here: boards loads networkx)
SHOWN_BYTES = 2_000_000   # of a card file, kept to show the lines diagnostics point at
_JSON_TYPES = {"integer": "number", "number": "number", "boolean": "flag", "string": "text"}


def schema_field_types(schema_path: Path) -> tuple[dict[str, str], dict[str, dict]]:
    """Field name -> language type, and per card type the schema defaults, from a card schema."""
    types: dict[str, str] = {}
    defaults: dict[str, dict] = {}
    try:
        from lumos.compiler.cards import read_schema
        schemas = [read_schema(p) for p in sorted(schema_path.parent.glob("*.json"))]
    except (OSError, ValueError, RecursionError):   # reported when the cards are checked
        return types, defaults

    # `$defs` of every schema file by name: a field that is a `$ref` to an array of texts is a list
    shared_defs = {k: v for sch in schemas if isinstance(sch, dict) and isinstance(sch.get("$defs"), dict)
                   for k, v in sch["$defs"].items() if isinstance(v, dict)}

    def referred(sub: dict):
        ref = sub.get("$ref")
        target = shared_defs.get(ref.rsplit("/", 1)[-1]) if isinstance(ref, str) and "#/$defs/" in ref else None
        if target is not None and target.get("type") == "array" and isinstance(target.get("items"), dict):
            it = target["items"].get("type")
            return "list:" + _JSON_TYPES[it] if isinstance(it, str) and it in _JSON_TYPES else "list:text"
        return None

    def walk(node):
        if isinstance(node, dict):
            props = node.get("properties")
            if isinstance(props, dict):
                for name, sub in props.items():
                    if isinstance(sub, dict):
                        t = sub.get("type")
                        if _is_question(sub):
                            types.setdefault(name, "question")
                        elif isinstance(t, str) and t in _JSON_TYPES and name not in ("effect", "condition"):
                            types.setdefault(name, _JSON_TYPES[t])
                        elif t == "array" and isinstance(sub.get("items"), dict):
                            # a list of numbers or texts reads as a list value (`"x" in card.tags`)
                            items = sub["items"]
                            it = items.get("type")
                            if isinstance(it, str) and it in _JSON_TYPES:
                                types.setdefault(name, "list:" + _JSON_TYPES[it])
                            elif "enum" in items or "$ref" in items or "const" in items:
                                types.setdefault(name, "list:text")
                        elif referred(sub) is not None:
                            types.setdefault(name, referred(sub))
                        elif "enum" in sub or "$ref" in sub or "const" in sub:
                            types.setdefault(name, "text")
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)
    for s in schemas:
        if not isinstance(s, dict):  # `true` is a JSON Schema too; a broken one is reported by the card check
            continue
        try:
            walk(s)
        except RecursionError:
            continue
        defs = s.get("$defs")
        for name, sub in (defs.items() if isinstance(defs, dict) else ()):
            if isinstance(sub, dict) and isinstance(sub.get("properties"), dict):
                d = {k: v["default"] for k, v in sub["properties"].items()
                     if isinstance(v, dict) and "default" in v}
                defaults[name] = d
    return types, defaults


QUESTION_REF = "#/$defs/question"   # card.schema.json's question: a field that refers to it holds one


def _is_question(sub: dict) -> bool:
    """Does this property's schema refer to the common question (itself or in an `allOf`)?"""
    refs = [sub.get("$ref")] + [a.get("$ref") for a in sub.get("allOf", ()) if isinstance(a, dict)] \
        if isinstance(sub.get("allOf", ()), list) else [sub.get("$ref")]
    return any(isinstance(r, str) and r.endswith(QUESTION_REF) for r in refs)


def _read(path: Path, sink: DiagnosticSink, roots: list[Path]) -> str | None:
    """A rules file's text; a file that is not a plain file inside the game's folders, is too
    big or cannot be read is a diagnostic at its first line, before any byte is read."""
    try:
        data = read_bytes(path, MAX_RULES_BYTES, roots)
    except RefusedFile as exc:
        if exc.message.startswith("is too big"):
            sink.add("E100", f"the file is too big to be a rules file: more than {MAX_RULES_BYTES} bytes",
                     Span(str(path), 1, 1), "split the rules into several .lumos files")
        else:
            sink.add(exc.code, f"the rules file `{path.name}` {exc.message}", Span(str(path), 1, 1), exc.hint)
        return None
    except OSError as exc:
        sink.add("E100", f"cannot read the file: {exc.strerror}", Span(str(path), 1, 1), "")
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        sink.add("E101", "the file is not UTF-8 text", Span(str(path), line, 1),
                 f"byte {exc.start} cannot be decoded; save the file as UTF-8")
        return None
    return text[1:] if text.startswith("\ufeff") else text  # an editor's byte-order mark


def _board(src: GameSources, named: tuple[str, Span], sink: DiagnosticSink, files: dict[str, str]):
    """The board the `board` header names: from the cache when its bytes are unchanged, else
    compiled (and cached as JSON). The path must be a plain file inside the game's folder."""
    from lumos.compiler import cache
    from lumos.interpreter.board import Board
    value, span = named
    board_path = src.rules_dir / value
    try:
        raw = read_bytes(board_path, MAX_BOARD_BYTES, [src.rules_dir])
    except RefusedFile as exc:
        sink.add(exc.code, f"the board file `{value}` {exc.message}", span,
                 f"{exc.hint}, e.g. `board \"board.yaml\"`" if "is outside" in exc.message else exc.hint)
        return None
    except OSError:
        sink.add("E100", f"cannot read the board file `{value}`", span, "")
        return None
    try:
        files[str(board_path)] = raw.decode("utf-8")
    except UnicodeDecodeError:
        files[str(board_path)] = ""
    board_key = cache.key("board", str(board_path.name).encode() + b"\0" + raw)
    saved = cache.get(board_key)
    if saved is not None:
        try:
            return Board.from_data(saved)
        except (KeyError, TypeError, ValueError, AttributeError, RecursionError):
            pass   # a damaged entry: compile the board again (and overwrite it)
    from lumos.compiler.boards import parse_board
    try:
        board = parse_board(raw, str(board_path))
    except LumosError as exc:
        sink.extend(exc.diagnostics)
        return None
    data = board.as_data()
    if Board.from_data(json.loads(json.dumps(data))) == board:  # only what comes back the same is kept
        cache.put(board_key, data)
    return board


_REMOVE = re.compile(r"\bremove\b[^\n]*\bfrom\s+play\b")


def _removes_sides(tree, card_paths) -> bool:
    """Can a side leave play in this game (`remove SIDE from play` in the rules or a card's text)?
    Until one does, `other(s)` depends on `s` alone (compiler/purity.py): what is remembered of
    it stays true. Read off the syntax, before anything is lowered; a card file is read as text
    (one that cannot be read: assumed to)."""
    from lumos.compiler.analysis import walk
    if any(isinstance(node, N.RemoveSide) for node in walk(tree)):
        return True
    for path in card_paths:
        try:
            if _REMOVE.search(Path(path).read_text(encoding="utf-8")):
                return True
        except (OSError, UnicodeDecodeError):
            return True
    return False


def _plain(paths: list[Path], roots: list[Path] | None, sink: DiagnosticSink, files: dict) -> list[Path]:
    """The card files that are plain files (inside `roots`); each other one is an error at its
    first line, and nothing of it is read (not even to show the line)."""
    kept = []
    for p in paths:
        why = refusal(p, roots)
        if why is None or why[0] == "E100":   # a missing file is the card loader's S106
            kept.append(p)
            continue
        files[str(p)] = ""
        sink.add(why[0], f"the card file `{p.name}` {why[1]}", Span(str(p), 1, 1), why[2])
    return kept


def check_game(src: GameSources, extra_cards: list[Path] | None = None):
    """Compile a game; return (CompiledGame or None, diagnostics, file texts)."""
    # Compiling builds many objects that live as long as the game; Python's cycle collector
    # would walk them again and again while they are made. It is paused meanwhile (and
    # resumed as it was), which makes compiling about a tenth faster.
    paused = gc.isenabled()
    gc.disable()
    try:
        return _check_game(src, extra_cards)
    finally:
        if paused:
            gc.enable()


def _check_game(src: GameSources, extra_cards: list[Path] | None):
    from lumos.compiler.astdata import rules_ast
    from lumos.compiler.lower import Lowerer

    sink = DiagnosticSink()
    files: dict[str, str] = {}
    path = str(src.game_file)
    decls = []
    for rules_file in src.rules_files():
        text = _read(rules_file, sink, src.roots())
        if text is None:
            files[str(rules_file)] = ""   # nothing of it is shown, nor read to be shown
            continue
        files[str(rules_file)] = text
        try:
            decls.extend(rules_ast(text, str(rules_file)).decls)
        except LumosError as exc:
            sink.extend(exc.diagnostics)
    if sink.errors:
        return None, sink.items, files
    tree = N.GameFile(Span(path, 1, 1), tuple(decls))
    meta = {d.key: (d.value, d.value_span or d.span) for d in tree.decls if isinstance(d, N.Meta)}
    board = None
    if "board" in meta:
        board = _board(src, meta["board"], sink, files)
    else:
        sink.add("E211", "the game names no board", Span(path, 1, 1), 'add `board "board.yaml"`')
    if sink.errors:
        return None, sink.items, files
    low = Lowerer(tree, board, sink, path)
    schema_path = None
    if "schema" in meta and src.schema_dir is not None:
        schema_path = src.schema_dir / meta["schema"][0]
        why = refusal(schema_path, [src.schema_dir])
        if why is not None and why[0] == "E100":
            sink.add("E100", f"no card schema `{meta['schema'][0]}` in {src.schema_dir}", meta["schema"][1], "")
            schema_path = None
        elif why is not None:
            sink.add(why[0], f"the card schema `{meta['schema'][0]}` {why[1]}", meta["schema"][1], why[2])
            schema_path = None
    defaults: dict[str, dict] = {}
    if schema_path is not None:
        low.card_field_types, defaults = schema_field_types(schema_path)
    low.declare_all()
    cards, card_defs = [], []
    own_paths = _plain(src.card_files(), [src.cards_dir] if src.cards_dir else None, sink, files)
    card_paths = own_paths + _plain(list(extra_cards or []), None, sink, files)
    low.removes_sides = _removes_sides(tree, card_paths)
    if schema_path is not None and card_paths:
        _lower_cards(low, card_paths, schema_path, defaults, cards, card_defs, files, len(own_paths), src.id)
    setup = flow = -1
    for d in tree.decls:
        if isinstance(d, N.Setup):
            setup, _ = low.new_proc("setup", "setup", (), d.body, d.span, d.sources)
        elif isinstance(d, N.Flow):
            flow, _ = low.new_proc("flow", "flow", (), d.body, d.span, d.sources)
    triggers = low.lower_triggers()
    anytime = low.lower_anytime()
    team = low.lower_team()
    score = low.lower_score()
    from lumos.compiler.statistics import lower_statistics
    statistics = lower_statistics(low, tree.decls)
    from lumos.compiler.default_agents import lower_default_agents
    default_agents = lower_default_agents(tree.decls, tuple(low.sides), sink)
    if flow < 0:
        sink.add("E211", "the game has no `flow`", Span(path, 1, 1),
                 "add `flow:` with the loop of turns the game repeats")
    _check_unused(low)
    from lumos.compiler.fused import backend
    from lumos.compiler.lower_stmt import name_sites
    from lumos.interpreter.program import CompiledGame
    name_sites(low.procs)
    if backend() == "specialised":
        import dataclasses

        from lumos.compiler.blocks import blocks
        low.procs = [dataclasses.replace(p, run=blocks(p.code)) for p in low.procs]
    if sink.errors:
        return None, sink.items, files
    cg = CompiledGame(
        id=src.id, title=meta.get("game", (src.id, None))[0], rulebook=meta.get("rulebook", ("", None))[0],
        sides=low.sides, kinds=tuple(low.kinds), pieces=tuple(low.pieces), board=board,
        zones=tuple(low.zones), shared_zones=frozenset(low.shared_zones),
        cards=tuple(cards), card_defs=tuple(card_defs),
        globals_init=tuple(v for _, v in low.globals), global_names=tuple(n for n, _ in low.globals),
        side_vars_init=tuple(v for _, v in low.side_vars), side_var_names=tuple(n for n, _ in low.side_vars),
        piece_vars_init=tuple(v for _, v in low.piece_vars), piece_var_names=tuple(n for n, _ in low.piece_vars),
        space_vars_init=tuple(v for _, v in low.space_vars), space_var_names=tuple(n for n, _ in low.space_vars),
        card_state_init=tuple(v for _, v in low.card_state), card_state_names=tuple(n for n, _ in low.card_state),
        options=dict(low.options), option_slots=dict(low.option_slots), dice=dict(low.dice),
        procs=tuple(low.procs), actions=tuple(low.actions), setup=setup, flow=flow,
        rules=tuple(low.rules), current_slot=low.current_slot, source_hash=src.content_hash(), files=files,
        triggers=triggers, team=team, card_vars=tuple(low.card_vars), var_types=dict(low.var_types),
        vocabulary=_vocabulary(tree, card_defs, low),
        anytime=anytime, anytime_procs=frozenset(a.proc for a in anytime), score=score,
        statistics=statistics, default_agents=default_agents, backend=backend())
    return cg, sink.items, files


def _vocabulary(tree, card_defs, low) -> tuple:
    """Every number and short text the rules, the cards, the dice and the options write: the
    values a choice of a number or a text can take in the action space (sorted, numbers first)."""
    from lumos.compiler.analysis import walk
    found: set = set()
    for n in walk(tree):
        if isinstance(n, (N.Num, N.Str)) and not isinstance(n.value, bool) and "{" not in str(n.value):
            found.add(n.value)
    for d in card_defs:
        for field in d.fields.values():
            for v in field if isinstance(field, (list, tuple)) else (field,):   # `stands: [a, b]` too
                if isinstance(v, (int, float, str)) and not isinstance(v, bool) and "\n" not in str(v):
                    found.add(v)
    for faces in low.dice.values():
        found.update(faces)
    for _default, choices in low.options.values():
        found.update(c for c in choices if not isinstance(c, bool))
    numbers = sorted(v for v in found if isinstance(v, (int, float)))
    top = int(max([0] + [v for v in numbers if isinstance(v, int) and v <= 1000]))
    numbers = sorted(set(numbers) | set(range(0, top + 1)))
    return tuple(numbers) + tuple(sorted(v for v in found if isinstance(v, str) and len(v) <= 80))


EFFECT_SUFFIX = "_effect"  # a card field named `..._effect` holds statements, like `effect`


def _clashing_names(low, sources, extra_files: set, game: str) -> None:
    """W321: a card of an expansion (`--with`) named like a card of the game it extends, but not the
    same card, is a second card of that name, silently: the decks hold both and `lumos explain`
    shows the game's. (The game's own card written again is more copies of it.)"""
    own: dict[str, object] = {}
    for cs in sources:
        if cs.span.file not in extra_files:
            own.setdefault(" ".join(cs.name.split()).casefold(), cs)
    for cs in sources:
        if cs.span.file not in extra_files:
            continue
        first = own.get(" ".join(cs.name.split()).casefold())
        if first is None or _same_card(first, cs):
            continue   # the game's own card again: more copies of it, not a second card of that name
        theirs = first.field_spans.get("name", first.span)
        low.sink.add("W321", f"card `{cs.name}` of {_shown_file(cs.span.file)} is already a card of {game}, "
                     f"in {_shown_file(theirs.file)} (line {theirs.line})", cs.field_spans.get("name", cs.span),
                     "the game then has two different cards of that name, and `lumos explain` shows the game's: "
                     "give the new card a name of its own (or leave it out to use the game's)", severity="warning")


def _same_card(a, b) -> bool:
    drop = ("copies",)
    return {k: v for k, v in a.fields.items() if k not in drop} == {k: v for k, v in b.fields.items() if k not in drop}


def _shown_file(path: str) -> str:
    p = Path(path)
    return f"{p.parent.name}/{p.name}" if p.parent.name else p.name


def _lower_cards(low, card_paths, schema_path, defaults, cards, card_defs, files, n_own=None, game=""):
    from lumos.compiler.origin import Origin
    from lumos.compiler.cards import load_card_files
    from lumos.interpreter.program import CardDef, CardInfo
    from lumos.compiler.cards import MAX_SCHEMA_BYTES
    for schema_file in sorted(schema_path.parent.glob("*.json")):
        try:
            files[str(schema_file)] = ""
            files[str(schema_file)] = read_bytes(schema_file, MAX_SCHEMA_BYTES, [schema_path.parent]).decode("utf-8")
            if not isinstance(json.loads(files[str(schema_file)]), dict):
                raise ValueError("a schema must be a JSON object `{...}`")
        except RefusedFile as exc:
            low.sink.add(exc.code, f"the card schema `{schema_file.name}` {exc.message}", Span(str(schema_file), 1, 1),
                         exc.hint)
            return
        except (OSError, UnicodeDecodeError, ValueError, RecursionError) as exc:
            where = Span(str(schema_file), getattr(exc, "lineno", 1), getattr(exc, "colno", 1))
            low.sink.add("E100", f"the card schema cannot be read: {str(exc).splitlines()[0]}", where,
                         "a schema is a JSON file; check it with a JSON editor")
            return
    try:
        rejected: list = []
        sources, diags = load_card_files(card_paths, schema_path, rejected)
    except Exception as exc:  # noqa: BLE001 - a schema that JSON Schema itself rejects, or a bad $ref
        low.sink.add("E100", f"the card schema cannot be used: {str(exc).splitlines()[0]}",
                     Span(str(schema_path), 1, 1),
                     "check the schema's `$id`s and `$ref`s, and that it follows JSON Schema 2020-12")
        return
    low.sink.extend(diags)
    if n_own is not None and n_own < len(card_paths):
        _clashing_names(low, sources, {str(p) for p in card_paths[n_own:]}, game)
    for p in card_paths:   # the texts to show under diagnostics: a file too big shows its start
        try:
            files[str(p)] = read_head(p, SHOWN_BYTES).decode("utf-8", "ignore" if
                                                                p.stat().st_size > SHOWN_BYTES else "strict")
        except (OSError, UnicodeDecodeError):
            pass
    sides = low.sides
    windows = [name for name, sym in low.symbols.items() if sym.what == "window"]
    # A card text met again (the same card in two decks) reuses the first one's lowering
    # when that gave no diagnostic; only the rule lines of its instructions are its own.
    shared: dict = {}

    def lower_effect(text, origin, name, span):
        hit = shared.get(("effect", text))
        if hit is not None:
            first_origin, first = hit
            spans = _respan(low.procs[first].spans, first_origin, origin)
            if spans is not None:
                low.procs.append(dataclasses.replace(low.procs[first], name=name, spans=spans, span=span))
                return len(low.procs) - 1
        stmts = _parse_at(text, "effect", origin)
        pushed = low.sink.pushed
        index, _ = low.new_proc(name, "effect", (("me", "side"), ("card", "card")), stmts, span, ())
        if low.sink.pushed == pushed:
            shared["effect", text] = (origin, index)
        return index

    lines_of: dict = {}   # file -> its lines, split once
    prepared = []
    for cs in sources:   # every card's fields first, so that card texts read them from tables
        fields = dict(defaults.get(cs.type, {}))
        fields.update(cs.fields)
        named = [k for k in fields if k.endswith(EFFECT_SUFFIX) and isinstance(fields[k], str)]
        folded = [key for key in ("effect", "condition", *named)
                  if isinstance(fields.get(key), str) and _folded(cs, key, files, lines_of)]
        for key in folded:
            fields[key] = None
        prepared.append((cs, fields, named, folded))
    low.card_columns([fields for cs, fields, _n, _f in prepared for _ in range(cs.copies)])
    for cs, fields, named, folded in prepared:
        if isinstance(cs.fields.get("window"), str) and windows and cs.fields["window"] not in windows:
            # docs/language.md: a window's name is compared with a card's `window` field
            low.sink.add("E201", f"card `{cs.name}`: unknown window `{cs.fields['window']}`",
                         cs.field_spans.get("window", cs.span),
                         did_you_mean(cs.fields["window"], windows) or f"windows: {', '.join(windows)}")
        for key in folded:
            low.sink.add("S100", f"card `{cs.name}`: write the `{key}` as a `|` block",
                         cs.field_spans.get(key, cs.span),
                         f"YAML joins the lines of a `>` or unmarked text into one line; write `{key}: |` "
                         "and the statements on the indented lines below")
        deck = sides.index(cs.deck) if cs.deck in sides else -1
        effect = -1
        condition, cslots = None, 0
        if isinstance(fields.get("effect"), str):
            line, col, block = cs.text_origins.get("effect", (cs.span.line, cs.span.col, False))
            try:
                effect = lower_effect(fields["effect"], Origin(cs.span.file, line, col, block), f"card {cs.name}",
                                      cs.span)
            except LumosError as exc:
                low.sink.extend(exc.diagnostics)
        effects = {}
        for key in named:   # `fast_effect: |` — more effects of one card, run by `play card.fast_effect by s`
            if not isinstance(fields.get(key), str):
                continue
            line, col, block = cs.text_origins.get(key, (cs.span.line, cs.span.col, False))
            try:
                effects[key] = lower_effect(fields[key], Origin(cs.span.file, line, col, block),
                                            f"card {cs.name} {key}", cs.span)
            except LumosError as exc:
                low.sink.extend(exc.diagnostics)
        if isinstance(fields.get("condition"), str):
            line, col, block = cs.text_origins.get("condition", (cs.span.line, cs.span.col, False))
            try:
                text = fields["condition"]
                if ("condition", text) in shared:
                    condition, cslots = shared["condition", text]
                else:
                    node = _parse_at(text, "condition", Origin(cs.span.file, line, col, block))
                    pushed = low.sink.pushed
                    saved = low.enter((("me", "side"), ("card", "card")))
                    low.scratch = True   # on locals made per test (`playable`)
                    try:
                        condition, _ = low.expect(node, "flag", "a card's condition")
                        cslots = len(low.local.slot_names)
                    finally:
                        low.leave(saved)
                    if low.sink.pushed == pushed:
                        shared["condition", text] = (condition, cslots)
            except LumosError as exc:
                low.sink.extend(exc.diagnostics)
        index = len(card_defs)
        card_defs.append(CardDef(cs.name, cs.type, fields, effect, condition, cslots, cs.span, cs.copies, deck,
                                 effects))
        for _ in range(cs.copies):
            cards.append(CardInfo(cs.name, cs.type, deck, fields, index, cs.span))
    # A card the schema refused is not in the game, but its effects are still checked, so
    # one run reports the mistakes in its fields and in its effects together.
    for cs in rejected:
        for key, text in cs.fields.items():
            if not (isinstance(text, str) and (key in ("effect", "condition") or key.endswith(EFFECT_SUFFIX))):
                continue
            if _folded(cs, key, files, lines_of):
                continue
            line, col, block = cs.text_origins.get(key, (cs.span.line, cs.span.col, False))
            origin = Origin(cs.span.file, line, col, block)
            try:
                if key == "condition":
                    node = _parse_at(text, "condition", origin)
                    saved = low.enter((("me", "side"), ("card", "card")))
                    try:
                        low.expect(node, "flag", "a card's condition")
                    finally:
                        low.leave(saved)
                else:
                    low.new_proc(f"card {cs.name} {key}", "effect", (("me", "side"), ("card", "card")),
                                 _parse_at(text, "effect", origin), cs.span, ())
            except LumosError as exc:
                low.sink.extend(exc.diagnostics)


def _respan(spans, first, origin):
    """Spans inside a text placed at Origin `first` -> the same places in a copy of the text at
    `origin`; None when a span lies outside the text."""
    def rel(line, col):
        ln = line - first.line + 1
        if ln < 1:
            raise ValueError
        return ln, (col - first.col + 1 if ln == 1 or first.block else col)
    out = []
    try:
        for s in spans:
            if s.file != first.file or not s.end_line:
                return None
            (l1, c1), (l2, c2) = rel(s.line, s.col), rel(s.end_line, s.end_col)
            if c1 < 1 or c2 < 1:
                return None
            out.append(origin.span(l1, c1, l2, c2))
    except ValueError:
        return None
    return tuple(out)


def _folded(cs, key: str, files: dict, lines_of: dict | None = None) -> bool:
    """Did YAML fold this text's lines into one (a `>` block, or a plain text over several lines)?"""
    span = cs.field_spans.get(key)
    lines = []
    if span:
        lines = (lines_of or {}).get(span.file)
        if lines is None:
            lines = files.get(span.file, "").splitlines()
            if lines_of is not None:
                lines_of[span.file] = lines
    if not span or not 1 <= span.line <= len(lines):
        return False
    source = lines[span.line - 1][span.col - 1:]
    if source.startswith(">"):
        return True
    if source.startswith(("|", '"', "'")):
        return False
    first = str(cs.fields[key]).split("\n", 1)[0].rstrip()
    return not source.rstrip().startswith(first)


def _parse_at(text, start, origin):
    from lumos.compiler.astdata import text_ast
    return text_ast(text, start, origin)


def _declared_kinds(decl) -> tuple[str, ...]:
    """The kinds a never-called procedure or function is checked for: as declared, else any."""
    return tuple(k or "any" for k in decl.kinds or (None,) * len(decl.params))


def _check_unused(low) -> None:
    """Check what the game never reaches, and warn about it."""
    for name, sym in list(low.symbols.items()):
        if sym.what == "procedure" and not any(k[0] == "proc" and k[1] == name for k in low.instances):
            low.procedure_instance(sym.value, _declared_kinds(sym.value))
            if sym.value.for_cards:
                continue   # card vocabulary: a word the shipped cards do not use yet is not dead
            low.sink.add("W301", f"procedure `{name}` is never used", sym.span,
                         "call it from the flow, the setup, an action or a card, or remove it", severity="warning")
        elif sym.what == "function" and name not in low.functions_used and \
                not any(k[0] == "func" and k[1] == name for k in low.instances):
            low.function_instance(sym.value, _declared_kinds(sym.value))
            if sym.value.for_cards:
                continue
            low.sink.add("W301", f"function `{name}` is never used", sym.span, "remove it, or use it",
                         severity="warning")
        elif sym.what == "action" and name not in low.action_ids:
            low.action_index(sym)
            low.sink.add("W301", f"action `{name}` can never be taken", sym.span,
                         f"offer it with `do one of {name}, ...`", severity="warning")


def compile_game(src: GameSources, extra_cards: list[Path] | None = None):
    cg, diags, _files = check_game(src, extra_cards)
    if cg is None or any(d.is_error for d in diags):
        raise LumosCheckError([d for d in diags] or [Diagnostic("E000", "compilation failed")])
    return cg
