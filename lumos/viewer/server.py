"""The viewer's page and its data -> HTTP on 127.0.0.1 (the standard library's http.server).

Routes: `/` the page, `/viewer.js` and `/viewer.css` its script and style (package data,
nothing from the network), `/board.svg` the board, `/board/SIDE/K.svg` the board with its
pieces at decision K as SIDE sees it, `/data/SIDE.json` one side's data
(steps.py), `POST /choose` a person's choice and `POST /answer` their typed answer to a
question in a live game, and `/reference/...` the
files of a built rules reference when one is given. The server listens on the loopback
address only. A side the game does not let this page see (the agents' sides in a live
game) is refused with 403, so the rival's hand never leaves the process.
"""
from __future__ import annotations

import json
import mimetypes
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from pathlib import Path
from urllib.parse import unquote, urlparse

from lumos.viewer.board import board_svg
from lumos.viewer.steps import side_data

HOST = "127.0.0.1"
STATIC = {"/": ("viewer.html", "text/html; charset=utf-8"),
          "/viewer.js": ("viewer.js", "text/javascript; charset=utf-8"),
          "/viewer.css": ("viewer.css", "text/css; charset=utf-8")}
MAX_BODY = 4096


def static_text(name: str) -> str:
    return resources.files("lumos.viewer").joinpath("static", name).read_text(encoding="utf-8")


class LogGame:
    """A finished (logged) game: every side may be viewed, one at a time."""

    live = False

    def __init__(self, cg, states, choices):
        self.cg, self.states, self.choices = cg, states, choices
        self.sides = list(range(cg.nsides))
        self.lock = threading.Lock()
        self._cache: dict[int, bytes] = {}
        self._positions: dict[int, list] = {}

    def data(self, side: int) -> bytes:
        with self.lock:
            if side not in self._cache:
                self._cache[side] = json.dumps(side_data(self.cg, self.states, self.choices, side,
                                                         live=self.live)).encode("utf-8")
            return self._cache[side]

    def board(self, side: int, k: int) -> bytes | None:
        """The board at decision `k` as `side` sees it (None: no such decision)."""
        with self.lock:
            if not 0 <= k < len(self.states):
                return None
            positions = self._positions.setdefault(side, [None] * len(self.states))
            if positions[k] is None:
                positions[k] = self.states[k].position(for_side=side)
            return board_svg(self.cg, positions[k]).encode("utf-8")

    def choose(self, index: int, at: int) -> str | None:
        return "this game is a log: it cannot be played on"

    def answer(self, text: str, at: int) -> str | None:
        return "this game is a log: it cannot be played on"


class LiveGame(LogGame):
    """A game a person plays in the page against agents: only the person's side is served."""

    live = True

    def __init__(self, cg, state, side: int, agents: dict):
        super().__init__(cg, [state.clone()], [])
        self.state, self.side, self.agents = state, side, agents
        self.sides = [side]
        self._advance()

    def _asked(self) -> bool:
        """Is the game waiting for the person's answer to a question read aloud?"""
        q = self.state.question()
        return q is not None and q["side"] == self.cg.sides[self.side]

    def _advance(self) -> None:
        """Let chance and the agents move until the person decides (or answers) or the game ends."""
        st = self.state
        while not st.is_terminal() and st.current_player() != self.side and not self._asked():
            k = st.sample_chance() if st.is_chance_node() else self.agents[st.current_player()].choose(st)
            self._apply(k)

    def _apply(self, k: int) -> None:
        self.choices.append(k)
        self.state.apply_action(k)
        self.states.append(self.state.clone())
        self._cache.clear()
        self._positions.clear()

    def choose(self, index: int, at: int) -> str | None:
        with self.lock:
            st = self.state
            if st.is_terminal():
                return "the game is over"
            if at != len(self.states) - 1:
                return "the game has moved on: reload the page"
            if self._asked():
                return "a question is waiting for its answer"
            if not 0 <= index < len(st.legal_actions()):
                return f"no option {index} here"
            self._apply(index)
            self._advance()
            return None

    def answer(self, text: str, at: int) -> str | None:
        """The person's typed answer to the question read aloud: it decides right or wrong."""
        with self.lock:
            if at != len(self.states) - 1:
                return "the game has moved on: reload the page"
            if not self._asked():
                return "no question is waiting for an answer"
            self._apply(self.state.typed_answer(text))
            self._advance()
            return None


class Handler(BaseHTTPRequestHandler):
    server_version = "lumos-view"
    game: LogGame
    reference: Path | None = None

    def log_message(self, format, *args):   # noqa: A002 - the base class's name
        pass   # a quiet server: the command prints its address, requests are not news

    def _send(self, status: int, body: bytes, kind: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def _text(self, status: int, text: str) -> None:
        self._send(status, text.encode("utf-8"), "text/plain; charset=utf-8")

    def do_GET(self):  # noqa: N802 - http.server's naming
        path = unquote(urlparse(self.path).path)
        cg = self.game.cg
        if path in STATIC:
            name, kind = STATIC[path]
            return self._send(HTTPStatus.OK, static_text(name).encode("utf-8"), kind)
        if path == "/board.svg":
            return self._send(HTTPStatus.OK, board_svg(cg).encode("utf-8"), "image/svg+xml")
        if path.startswith("/board/") and path.endswith(".svg"):
            return self._board(path[len("/board/"):-len(".svg")])
        if path == "/sides.json":
            body = {"sides": [cg.sides[s] for s in self.game.sides], "title": cg.title, "live": self.game.live}
            return self._send(HTTPStatus.OK, json.dumps(body).encode("utf-8"), "application/json")
        if path.startswith("/data/") and path.endswith(".json"):
            name = path[len("/data/"):-len(".json")]
            if name not in cg.sides:
                return self._text(HTTPStatus.NOT_FOUND, f"no side `{name}`")
            side = cg.sides.index(name)
            if side not in self.game.sides:
                return self._text(HTTPStatus.FORBIDDEN, f"{name} is played by an agent: its view is not shown")
            return self._send(HTTPStatus.OK, self.game.data(side), "application/json")
        if path.startswith("/reference/"):
            return self._reference(path[len("/reference/"):])
        return self._text(HTTPStatus.NOT_FOUND, "not found")

    def _board(self, rest: str) -> None:
        """`/board/SIDE/K.svg`: the board at decision K as SIDE sees it."""
        cg = self.game.cg
        name, _, k = rest.rpartition("/")
        if name not in cg.sides or not k.isdigit():
            return self._text(HTTPStatus.NOT_FOUND, "not found")
        side = cg.sides.index(name)
        if side not in self.game.sides:
            return self._text(HTTPStatus.FORBIDDEN, f"{name} is played by an agent: its view is not shown")
        body = self.game.board(side, int(k))
        if body is None:
            return self._text(HTTPStatus.NOT_FOUND, f"no decision {k}")
        return self._send(HTTPStatus.OK, body, "image/svg+xml")

    def _reference(self, rel: str) -> None:
        if self.reference is None:
            return self._text(HTTPStatus.NOT_FOUND, "no rules reference is served: build one with "
                              "`lumos docs -o DIR` and give `lumos view --reference DIR`")
        root = self.reference.resolve()
        target = (root / (rel or "index.html")).resolve()
        if root not in target.parents and target != root or not target.is_file():
            return self._text(HTTPStatus.NOT_FOUND, "not found")
        kind = mimetypes.guess_type(target.name)[0] or "application/octet-stream"
        return self._send(HTTPStatus.OK, target.read_bytes(), kind)

    def do_POST(self):  # noqa: N802
        path = urlparse(self.path).path
        if path not in ("/choose", "/answer"):
            return self._text(HTTPStatus.NOT_FOUND, "not found")
        try:
            size = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            size = MAX_BODY + 1
        if not 0 <= size <= MAX_BODY:
            return self._text(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, "too large")
        try:
            body = json.loads(self.rfile.read(size) or b"{}")
            at = int(body["at"])
            if path == "/choose":
                problem = self.game.choose(int(body["index"]), at)
            else:
                problem = self.game.answer(str(body["text"])[:500], at)
        except (ValueError, KeyError, TypeError):
            return self._text(HTTPStatus.BAD_REQUEST, 'send {"index": N, "at": STEP} or {"text": T, "at": STEP}')
        if problem:
            return self._text(HTTPStatus.CONFLICT, problem)
        return self._send(HTTPStatus.OK, b'{"ok": true}', "application/json")


def make_server(game: LogGame, port: int = 0, reference: str | Path | None = None) -> ThreadingHTTPServer:
    """A server for `game` on 127.0.0.1 (port 0: any free port; `server.server_port` says which)."""
    handler = type("ViewerHandler", (Handler,), {"game": game,
                                                 "reference": Path(reference) if reference else None})
    server = ThreadingHTTPServer((HOST, port), handler)
    server.daemon_threads = True
    return server


def serve(server: ThreadingHTTPServer) -> None:
    """Serve until interrupted."""
    try:
        server.serve_forever()
    finally:
        server.server_close()
