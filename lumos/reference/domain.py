"""Sphinx pages -> the rules reference in them: the `lumos` Sphinx domain, its directives and roles.

The game is read by lumos.reference.model (GameDoc) and written as reStructuredText by
lumos.reference.writer; this module is the Sphinx side (directives, roles, domain);
lumos.reference.build is the `lumos docs` builder.

The reference is generated from the files the interpreter runs, so it cannot drift
from the game. In a Sphinx project, add ``"lumos.reference"`` to ``extensions``; then

    .. lumos:game:: GAME                 the whole reference of a game (a bundled id or a
       :with: path/to/expansion          game folder), optionally with extra cards
    .. lumos:coverage:: GAME             each rulebook section with the rules citing it
    .. lumos:board:: GAME                the board, drawn from the compiled board and its layout

(GAME and the `:with:` paths are relative to the page's folder) and the roles
``:lumos:card:``, ``:lumos:rule:``, ``:lumos:action:`` (checked: an unknown
target is a warning, so ``sphinx-build -W`` fails on it), ``:lumos:game:``,
``:lumos:coverage:`` and ``:lumos:section:``. The extension also registers the ``lumos``
Pygments lexer.

Everything here is generic: a game's words come from its files only.
"""
from __future__ import annotations

import posixpath
import re
from html import escape
from pathlib import Path

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.addnodes import desc_annotation, desc_name, desc_parameter, desc_parameterlist, desc_signature
from sphinx.directives import ObjectDescription
from sphinx.domains import Domain, ObjType
from sphinx.roles import XRefRole
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import make_refnode

from lumos.editor.lexer import LumosLexer
from lumos.reference.model import GameDoc, ReferenceError, game_doc
from lumos.reference.writer import coverage_rst, game_rst

# ================================================================== Sphinx: nodes, directives, roles, domain
class lumos_board(nodes.General, nodes.Element):
    """The board picture: an SVG file written into the build's images, shown as an image."""


def _visit_board_html(self, node: lumos_board) -> None:
    out = Path(self.builder.outdir) / self.builder.imagedir
    out.mkdir(parents=True, exist_ok=True)
    (out / node["filename"]).write_text(node["svg"], encoding="utf-8")
    src = posixpath.join(self.builder.imgpath, node["filename"])
    self.body.append(f'<figure class="lumos-board"><a href="{escape(src)}"><img src="{escape(src)}" '
                     f'alt="{escape(node["alt"])}" style="max-width:100%"/></a>'
                     f'<figcaption>{escape(node["alt"])}</figcaption></figure>\n')
    raise nodes.SkipNode


def _skip(self, node) -> None:
    raise nodes.SkipNode


class _GameDirective(SphinxDirective):
    """Base: loads the game named by the argument, noting its files as dependencies."""
    required_arguments = 1
    final_argument_whitespace = True
    option_spec = {"with": directives.unchanged}

    def with_paths(self) -> list[str]:
        raw = self.options.get("with") or ""
        return [p.strip() for p in re.split(r"[\n,]", raw) if p.strip()]

    def load(self) -> GameDoc:
        base = Path(self.env.srcdir) / Path(self.env.docname).parent
        try:
            doc = game_doc(self.arguments[0], base, self.with_paths())
        except ReferenceError as exc:
            raise self.error(f"lumos: cannot document `{self.arguments[0]}`:\n{exc}") from None
        for f in doc.src.all_files() + doc.extra_cards + [doc.src.rules_dir / "sections.yaml"]:
            if f.is_file():
                self.env.note_dependency(str(f))
        return doc

    def parse(self, lines: list[str]) -> list[nodes.Node]:
        return self.parse_text_to_nodes("\n".join(lines), allow_section_headings=True)


class GameReference(_GameDirective):
    """``.. lumos:game:: GAME`` — the whole reference of a game."""

    def run(self) -> list[nodes.Node]:
        doc = self.load()
        self.env.ref_context["lumos:game"] = doc.id
        domain: LumosDomain = self.env.get_domain("lumos")
        domain.note_object(doc.id, "game", doc.id, self.env.docname, "")
        return self.parse(game_rst(doc, self.arguments[0], self.with_paths()))


class CoverageDirective(_GameDirective):
    """``.. lumos:coverage:: GAME`` — each rulebook section and the rules citing it."""

    def run(self) -> list[nodes.Node]:
        doc = self.load()
        self.env.ref_context["lumos:game"] = doc.id
        self.env.get_domain("lumos").note_object(doc.id, "coverage", doc.id, self.env.docname, "")
        return self.parse(coverage_rst(doc))


class BoardDirective(_GameDirective):
    """``.. lumos:board:: GAME`` — the board as lumos.reference.boards draws it (its layout)."""

    def run(self) -> list[nodes.Node]:
        from lumos.reference.boards import render_svg
        doc = self.load()
        board = doc.cg.board
        node = lumos_board()
        node["svg"] = render_svg(doc.cg)
        node["filename"] = f"lumos-board-{nodes.make_id(doc.id)}.svg"
        node["alt"] = f"{board.name} ({len(board.spaces)} spaces), the board of {doc.cg.title}"
        return [node]


class LumosObject(ObjectDescription[str]):
    """A described object of a game (a rule, an action, a card, a rulebook section)."""
    option_spec = dict(ObjectDescription.option_spec)
    option_spec.update({"kind": directives.unchanged, "display": directives.unchanged,
                        "params": directives.unchanged})

    def handle_signature(self, sig: str, signode: desc_signature) -> str:
        kind = self.options.get("kind")
        shown = self.options.get("display", sig)
        if self.objtype == "section" and " > " in sig:
            parent, _, shown = sig.rpartition(" > ")
            signode += desc_annotation(parent.replace(" > ", " › ") + " › ", parent + " › ")
        if kind:
            signode += desc_annotation(kind + " ", kind + " ")
        signode += desc_name(shown, shown)
        if "params" in self.options:
            plist = desc_parameterlist()
            for p in filter(None, (x.strip() for x in self.options["params"].split(","))):
                plist += desc_parameter(p, p)
            signode += plist
        signode["lumos:toc"] = shown
        return sig

    def add_target_and_index(self, name: str, sig: str, signode: desc_signature) -> None:
        game = self.env.ref_context.get("lumos:game", "")
        node_id = base = nodes.make_id(f"lumos-{game}-{self.objtype}-{name}")
        n = 1
        while node_id in self.state.document.ids:   # two names that make the same id
            n += 1
            node_id = f"{base}-{n}"
        signode["ids"].append(node_id)
        self.state.document.note_explicit_target(signode)
        domain: LumosDomain = self.env.get_domain("lumos")
        domain.note_object(game, self.objtype, name, self.env.docname, node_id)
        if self.objtype == "action":
            domain.note_object(game, "rule", name, self.env.docname, node_id)
        if self.objtype != "section":
            kind = self.options.get("kind", self.objtype)
            self.indexnode["entries"].append(("single", f"{name} ({kind}, {game})", node_id, "", None))

    def _object_hierarchy_parts(self, sig_node: desc_signature) -> tuple[str, ...]:
        return (sig_node.get("lumos:toc", ""),)

    def _toc_entry_name(self, sig_node: desc_signature) -> str:
        return sig_node.get("lumos:toc", "")


class LumosXRefRole(XRefRole):
    """A cross-reference; remembers the game of the page it is written in."""

    def process_link(self, env, refnode, has_explicit_title, title, target):
        refnode["lumos:game"] = env.ref_context.get("lumos:game")
        return title, target


class LumosDomain(Domain):
    """The `lumos` domain: games, their rules, actions, cards and rulebook sections."""

    name = "lumos"
    label = "Lumos"
    object_types = {
        "game": ObjType("game", "game"), "coverage": ObjType("coverage", "coverage"),
        "rule": ObjType("rule", "rule"), "action": ObjType("action", "action", "rule"),
        "card": ObjType("card", "card"), "section": ObjType("section", "section"),
    }
    directives = {"game": GameReference, "coverage": CoverageDirective, "board": BoardDirective,
                  "rule": LumosObject, "action": LumosObject, "card": LumosObject, "section": LumosObject}
    roles = {
        "card": LumosXRefRole(warn_dangling=True),
        "rule": LumosXRefRole(warn_dangling=True, innernodeclass=nodes.literal),
        "action": LumosXRefRole(warn_dangling=True, innernodeclass=nodes.literal),
        "game": LumosXRefRole(warn_dangling=True),
        "coverage": LumosXRefRole(),   # the game page links it; a project may have no coverage page
        "section": LumosXRefRole(),
    }
    dangling_warnings = {
        "card": "unknown Lumos card: %(target)s", "rule": "unknown Lumos rule: %(target)s",
        "action": "unknown Lumos action: %(target)s", "game": "unknown Lumos game: %(target)s",
        "coverage": "no coverage page for the Lumos game %(target)s",
    }
    initial_data: dict = {"objects": {}}   # (game, type, name) -> (docname, node id)
    data_version = 1

    @property
    def objects(self) -> dict[tuple[str, str, str], tuple[str, str]]:
        return self.data.setdefault("objects", {})

    def note_object(self, game: str, objtype: str, name: str, docname: str, node_id: str) -> None:
        self.objects[(game, objtype, name)] = (docname, node_id)

    def clear_doc(self, docname: str) -> None:
        for key, (doc, _id) in list(self.objects.items()):
            if doc == docname:
                del self.objects[key]

    def merge_domaindata(self, docnames, otherdata: dict) -> None:
        for key, (doc, node_id) in otherdata["objects"].items():
            if doc in docnames:
                self.objects[key] = (doc, node_id)

    def find(self, game: str | None, types: tuple[str, ...], target: str):
        """(game, type, name) -> (docname, id) for a target written `name` or `game:name`."""
        games = {g for g, _t, _n in self.objects}
        prefix, sep, rest = target.partition(":")
        if sep and prefix in games:
            game, target = prefix, rest.strip()
        for t in types:
            if game and (game, t, target) in self.objects:
                return (game, t, target), self.objects[(game, t, target)]
        if game and game in games and types != ("game",) and types != ("coverage",):
            return None
        for (g, t, n), where in sorted(self.objects.items()):
            if t in types and n == target:
                return (g, t, n), where
        return None

    def resolve_xref(self, env, fromdocname, builder, typ, target, node, contnode):
        found = self.find(node.get("lumos:game"), (typ,), target)
        if found is None:
            return None
        (_g, _t, name), (docname, node_id) = found
        return make_refnode(builder, fromdocname, docname, node_id, contnode, name)

    def resolve_any_xref(self, env, fromdocname, builder, target, node, contnode):
        results = []
        for typ in ("card", "action", "rule", "game"):
            found = self.find(node.get("lumos:game"), (typ,), target)
            if found is not None:
                (_g, _t, name), (docname, node_id) = found
                role = "lumos:action" if typ == "action" else f"lumos:{typ}"
                results.append((role, make_refnode(builder, fromdocname, docname, node_id, contnode, name)))
        return results

    def get_objects(self):
        for (game, typ, name), (docname, node_id) in self.objects.items():
            if typ in ("rule", "card", "action", "section"):
                yield f"{game}:{name}", name, typ, docname, node_id, 1


_CSS = """
.lumos-card-text { font-style: italic; border-left: 3px solid #c9b458; padding-left: .8em; }
.lumos-uncited { background: #fdecea; border-left: 3px solid #c62828; padding: .2em .8em; }
figure.lumos-board img { border: 1px solid #ccc; max-width: 100%; height: auto; }
/* Source blocks: long lines wrap inside their box (a `[source: ...]` citation stays readable
   at a 1280 px window); a line that cannot wrap scrolls inside the box, never past it. */
div.highlight pre, div.highlight-lumos pre { white-space: pre-wrap; overflow-wrap: anywhere; overflow-x: auto;
  max-width: 100%; box-sizing: border-box; }
div.highlight, div.highlight-lumos { max-width: 100%; overflow-x: auto; }
/* Field lists (Rulebook:, Defined in:, card fields): labels in words, wrapped between words only. */
dl.field-list > dt { word-break: normal; overflow-wrap: normal; hyphens: none; white-space: nowrap; }
dl.field-list > dd { overflow-wrap: anywhere; }
.lumos-summary { font-size: 1.05em; }
"""


def _write_css(app, exc) -> None:
    if exc is None and app.builder.format == "html":
        static = Path(app.outdir) / "_static"
        static.mkdir(parents=True, exist_ok=True)
        (static / "lumos-reference.css").write_text(_CSS, encoding="utf-8")


def setup(app) -> dict:
    """The Sphinx extension: the `lumos` domain, the board node and the `lumos` lexer."""
    app.add_domain(LumosDomain)
    app.add_node(lumos_board, html=(_visit_board_html, None), latex=(_skip, None), text=(_skip, None),
                 man=(_skip, None), texinfo=(_skip, None))
    app.add_lexer("lumos", LumosLexer)
    app.add_css_file("lumos-reference.css")
    app.connect("build-finished", _write_css)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True,
            "env_version": LumosDomain.data_version}
