"""A game folder (rules/<id>/game.lumos + board) and its card folder -> CompiledGame, or diagnostics.

`check_game` returns every diagnostic of the rules, the board and the cards;
`compile_game` raises a LumosCheckError with all of them when any is an error.
"""
from __future__ import annotations

import dataclasses
import gc
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from lumos.compiler import nodes as N
from lumos.diagnostics import Diagnostic, DiagnosticSink, LumosCheckError, LumosError, Span, did_you_mean

MAX_RULES_BYTES = 500_000  # parsing takes about 5 s per MB; real rules files are ~20 KB
_JSON_TYPES = {"integer": "number", "number": "number", "boolean": "flag", "string": "text"}


@dataclass(frozen=True)
class GameSources:
    """Where one game's files are."""
    id: str
    rules_dir: Path
    cards_dir: Path | None
    schema_dir: Path | None
    # rules files of an expansion: each replaces the game's file of the same name, or is
    # read as one more rules file of the game
    overrides: tuple[Path, ...] = ()

    @property
    def game_file(self) -> Path:
        return next((p for p in self.overrides if p.name == "game.lumos"), self.rules_dir / "game.lumos")

    def rules_files(self) -> list[Path]:
        """game.lumos first, then the other rules files in name order (an override in the place
        of the game's file of its name)."""
        mine = {p.name: p for p in self.rules_dir.glob("*.lumos")}
        mine.update({p.name: p for p in self.overrides})
        return [self.game_file] + [mine[n] for n in sorted(mine) if n != "game.lumos"]

    def card_files(self) -> list[Path]:
        if self.cards_dir is None or not self.cards_dir.is_dir():
            return []
        return sorted(p for p in self.cards_dir.glob("*.yaml"))

    def all_files(self) -> list[Path]:
        files = self.rules_files() + sorted(self.rules_dir.glob("*.yaml")) + self.card_files()
        if self.schema_dir is not None and self.schema_dir.is_dir():
            files += sorted(self.schema_dir.glob("*.json"))
        return [f for f in files if f.is_file()]

    def content_hash(self) -> str:
        h = hashlib.sha256()
        for f in self.all_files():
            h.update(str(f.name).encode())
            h.update(f.read_bytes())
        return h.hexdigest()[:16]


def schema_field_types(schema_path: Path) -> tuple[dict[str, str], dict[str, dict]]:
    """Field name -> language type, and per card type the schema defaults, from a card schema."""
    types: dict[str, str] = {}
    defaults: dict[str, dict] = {}
    try:
        schemas = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(schema_path.parent.glob("*.json"))]
    except (OSError, ValueError, RecursionError):
        return types, defaults

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


def _read(path: Path, sink: DiagnosticSink) -> str | None:
    try:
        data = path.read_bytes()
    except OSError as exc:
        sink.add("E100", f"cannot read the file: {exc.strerror}", Span(str(path), 1, 1), "")
        return None
    if len(data) > MAX_RULES_BYTES:
        sink.add("E100", f"the file is too big to be a rules file: more than {MAX_RULES_BYTES} bytes",
                 Span(str(path), 1, 1), "split the rules into several .lumos files")
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        sink.add("E101", "the file is not UTF-8 text", Span(str(path), line, 1),
                 f"byte {exc.start} cannot be decoded; save the file as UTF-8")
        return None
    return text[1:] if text.startswith("\ufeff") else text  # an editor's byte-order mark


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
    from lumos.compiler.build_ast import Origin, build
    from lumos.compiler.lower import Lowerer
    from lumos.compiler.parse import parse

    sink = DiagnosticSink()
    files: dict[str, str] = {}
    path = str(src.game_file)
    decls = []
    for rules_file in src.rules_files():
        text = _read(rules_file, sink)
        if text is None:
            continue
        files[str(rules_file)] = text
        try:
            decls.extend(build(parse(text, str(rules_file)), Origin(str(rules_file))).decls)
        except LumosError as exc:
            sink.extend(exc.diagnostics)
    if sink.errors:
        return None, sink.items, files
    tree = N.GameFile(Span(path, 1, 1), tuple(decls))
    meta = {d.key: (d.value, d.span) for d in tree.decls if isinstance(d, N.Meta)}
    board = None
    if "board" in meta:
        from lumos.compiler import cache
        board_path = src.rules_dir / meta["board"][0]
        try:
            raw = board_path.read_bytes()
            board_key = cache.key("board", str(board_path.name).encode() + b"\0" + raw)
            board = cache.get(board_key)
            if board is None:
                from lumos.compiler.boards import load_board
                board = load_board(board_path)
                cache.put(board_key, board)
            files[str(board_path)] = board_path.read_text(encoding="utf-8")
        except LumosError as exc:
            sink.extend(exc.diagnostics)
            for d in exc.diagnostics:
                try:
                    files.setdefault(d.span.file, Path(d.span.file).read_text(encoding="utf-8"))
                except (OSError, UnicodeDecodeError):
                    pass
        except OSError:
            sink.add("E100", f"cannot read the board file `{meta['board'][0]}`", meta["board"][1], "")
    else:
        sink.add("E211", "the game names no board", Span(path, 1, 1), 'add `board "board.yaml"`')
    if sink.errors:
        return None, sink.items, files
    low = Lowerer(tree, board, sink, path)
    schema_path = None
    if "schema" in meta and src.schema_dir is not None:
        schema_path = src.schema_dir / meta["schema"][0]
        if not schema_path.is_file():
            sink.add("E100", f"no card schema `{meta['schema'][0]}` in {src.schema_dir}", meta["schema"][1], "")
            schema_path = None
    defaults: dict[str, dict] = {}
    if schema_path is not None:
        low.card_field_types, defaults = schema_field_types(schema_path)
    low.declare_all()
    cards, card_defs = [], []
    card_paths = src.card_files() + list(extra_cards or [])
    if schema_path is not None and card_paths:
        _lower_cards(low, card_paths, schema_path, defaults, cards, card_defs, files)
    setup = flow = -1
    for d in tree.decls:
        if isinstance(d, N.Setup):
            setup, _ = low.new_proc("setup", "setup", (), d.body, d.span, d.sources)
        elif isinstance(d, N.Flow):
            flow, _ = low.new_proc("flow", "flow", (), d.body, d.span, d.sources)
    triggers = low.lower_triggers()
    team = low.lower_team()
    if flow < 0:
        sink.add("E211", "the game has no `flow`", Span(path, 1, 1),
                 "add `flow:` with the loop of turns the game repeats")
    _check_unused(low)
    from lumos.interpreter.program import CompiledGame
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
        options=dict(low.options), option_slots=dict(low.option_slots), dice=dict(low.dice),
        procs=tuple(low.procs), actions=tuple(low.actions), setup=setup, flow=flow,
        rules=tuple(low.rules), current_slot=low.current_slot, source_hash=src.content_hash(), files=files,
        triggers=triggers, team=team)
    return cg, sink.items, files


EFFECT_SUFFIX = "_effect"  # a card field named `..._effect` holds statements, like `effect`


def _lower_cards(low, card_paths, schema_path, defaults, cards, card_defs, files):
    from lumos.compiler.build_ast import Origin
    from lumos.compiler.cards import load_card_files
    from lumos.interpreter.program import CardDef, CardInfo
    for schema_file in sorted(schema_path.parent.glob("*.json")):
        try:
            files[str(schema_file)] = schema_file.read_text(encoding="utf-8")
            if not isinstance(json.loads(files[str(schema_file)]), dict):
                raise ValueError("a schema must be a JSON object `{...}`")
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
    for p in card_paths:
        try:
            files[str(p)] = p.read_text(encoding="utf-8")
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
    from lumos.compiler.build_ast import build
    from lumos.compiler.parse import parse
    return build(parse(text, origin.file, start, origin), origin)


def _check_unused(low) -> None:
    """Check what the game never reaches, and warn about it."""
    for name, sym in list(low.symbols.items()):
        if sym.what == "procedure" and not any(k[0] == "proc" and k[1] == name for k in low.instances):
            low.procedure_instance(sym.value, tuple("any" for _ in sym.value.params))
            low.sink.add("W301", f"procedure `{name}` is never used", sym.span,
                         "call it from the flow, the setup, an action or a card, or remove it", severity="warning")
        elif sym.what == "function" and name not in low.functions_used and \
                not any(k[0] == "func" and k[1] == name for k in low.instances):
            low.function_instance(sym.value, tuple("any" for _ in sym.value.params))
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
