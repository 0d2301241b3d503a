"""The smallest LSP client for tests: Content-Length framed JSON-RPC over the pipes of a
`python -m lumos lsp` subprocess, as an editor speaks it (tests/test_lsp.py, test_lsp_features.py)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path


class Client:
    """Sends notifications and requests; waits for the messages the server sends back."""

    def __init__(self, cwd: Path):
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        self.proc = subprocess.Popen([sys.executable, "-m", "lumos", "lsp"], cwd=cwd, env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.messages: list[dict] = []
        self.cond = threading.Condition()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        self.next_id = 0

    def _read(self) -> None:
        out = self.proc.stdout
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    return
                line = line.strip()
                if not line:
                    break
                name, _, value = line.decode().partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            body = json.loads(out.read(length))
            with self.cond:
                self.messages.append(body)
                self.cond.notify_all()

    def send(self, method: str, params: dict, request: bool = False) -> int | None:
        msg = {"jsonrpc": "2.0", "method": method, "params": params}
        ident = None
        if request:
            self.next_id += 1
            ident = msg["id"] = self.next_id
        data = json.dumps(msg).encode()
        self.proc.stdin.write(f"Content-Length: {len(data)}\r\n\r\n".encode() + data)
        self.proc.stdin.flush()
        return ident

    def wait(self, match, timeout: float = 60) -> dict:
        with self.cond:
            ok = self.cond.wait_for(lambda: any(match(m) for m in self.messages), timeout)
            assert ok, f"no such message; got {[m.get('method', m.get('id')) for m in self.messages]}"
            found = next(m for m in self.messages if match(m))
            self.messages.remove(found)
            return found

    def request(self, method: str, params: dict, timeout: float = 60):
        """Send a request and return its result (an error fails the test)."""
        ident = self.send(method, params, request=True)
        reply = self.wait(lambda m: m.get("id") == ident and "method" not in m, timeout)
        assert "error" not in reply, reply["error"]
        return reply["result"]

    def initialize(self, root: Path, capabilities: dict | None = None, options: dict | None = None) -> dict:
        result = self.request("initialize", {"processId": None, "rootUri": root.resolve().as_uri(),
                                             "capabilities": capabilities or {},
                                             "initializationOptions": options})
        self.send("initialized", {})
        return result

    def open(self, path: Path, text: str | None = None, language: str = "lumos") -> str:
        uri = path.resolve().as_uri()
        text = path.read_text(encoding="utf-8") if text is None else text
        self.send("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": language, "version": 1,
                                                            "text": text}})
        return uri

    def diagnostics(self, uri: str, version: int | None = None) -> list[dict]:
        """The next problems published for a document (for its text `version`, when given)."""
        msg = self.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                        and m["params"]["uri"] == uri
                        and (version is None or m["params"].get("version") == version))
        return msg["params"]["diagnostics"]

    def change(self, uri: str, text: str, version: int) -> list[dict]:
        """Replace a document's text (unsaved); the problems the server publishes for it."""
        self.send("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                             "contentChanges": [{"text": text}]})
        return self.diagnostics(uri, version)

    def at(self, method: str, uri: str, line: int, character: int, **more):
        return self.request(method, {"textDocument": {"uri": uri},
                                     "position": {"line": line, "character": character}, **more})

    def close(self) -> None:
        try:
            ident = self.send("shutdown", {}, request=True)
            self.wait(lambda m: m.get("id") == ident, timeout=20)
            self.send("exit", {})
            self.proc.wait(timeout=20)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()
            self.proc.stdin.close()
            self.reader.join(timeout=20)
            self.proc.stdout.close()
