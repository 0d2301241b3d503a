"""A path that a game or an expansion names -> a regular file inside its folder, read with a size cap.

Why: a rules file, a board header or a manifest is text anyone can hand to `lumos check`.
`board "/dev/zero"` would read until memory runs out, a FIFO would block for ever, and
`../../etc/passwd` (or a symlink out of the folder) would have the diagnostics print another
file's lines. So every named path is resolved and checked *before* any byte is read: it must
stay inside its folder once links are followed, and `stat` must say it is a regular file no
larger than the cap. The read itself opens the resolved path without following links and
without blocking, and checks again on the open file, so a file swapped in between is refused
too.

>>> import tempfile, pathlib
>>> root = pathlib.Path(tempfile.mkdtemp())
>>> _ = (root / "board.yaml").write_text("name: strip\\n")
>>> refusal(root / "board.yaml", [root]) is None, refusal(root / ".." / "x", [root])[0]
(True, 'E102')
"""
from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Iterable

_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)


class RefusedFile(OSError):
    """A named file that must not be read: `code`, `message` (the path is the caller's) and a `hint`."""

    def __init__(self, code: str, message: str, hint: str):
        super().__init__(message)
        self.code, self.message, self.hint = code, message, hint


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _inside(path: str, roots: Iterable[Path]) -> bool:
    for root in roots:
        base = os.path.realpath(root)
        if path == base or path.startswith(base.rstrip(os.sep) + os.sep):
            return True
    return False


def refusal(path: Path, roots: Iterable[Path] | None, limit: int | None = None) -> tuple[str, str, str] | None:
    """(code, message, hint) saying why `path` must not be read, or None when it may.

    `roots`: the folders the path must stay inside once links are followed (None: anywhere).
    Nothing is opened: only the path is resolved and `stat`ed."""
    roots = list(roots) if roots is not None else None
    real = os.path.realpath(path)
    if roots is not None and not _inside(real, roots):
        where = Path(os.path.abspath(roots[0])).name or str(roots[0])   # its own folder; the rest are the base game's
        if _inside(os.path.abspath(path), roots):
            return ("E102", f"is a link to a file outside the folder `{where}`",
                    "copy the file into the folder instead of linking to it")
        return ("E102", f"is outside the folder `{where}`",
                "name a file inside the folder, by a path relative to it (no `..`, no absolute path)")
    try:
        st = os.stat(real)
    except FileNotFoundError:
        return ("E100", "does not exist", "check the file name")
    except OSError as exc:
        return ("E100", f"cannot be read: {exc.strerror or exc}", "check the file's permissions")
    if not stat.S_ISREG(st.st_mode):
        return ("E103", f"is {_kind(st.st_mode)}, not a regular file", "name an ordinary text file")
    if limit is not None and st.st_size > limit:
        return ("E100", f"is too big: more than {limit} bytes", "split it into several files")
    return None


def read_bytes(path: Path, limit: int, roots: Iterable[Path] | None = None) -> bytes:
    """The bytes of a regular file of at most `limit` bytes; RefusedFile (an OSError) otherwise.

    The check and the read are one step, so no caller reads a file it has not checked."""
    why = refusal(path, roots, limit)
    if why is not None:
        raise RefusedFile(*why)
    fd = os.open(os.path.realpath(path), _FLAGS)
    with os.fdopen(fd, "rb") as f:
        st = os.fstat(f.fileno())
        if not stat.S_ISREG(st.st_mode):  # swapped for something else since the check
            raise RefusedFile("E103", f"is {_kind(st.st_mode)}, not a regular file", "name an ordinary text file")
        data = f.read(limit + 1)
    if len(data) > limit:
        raise RefusedFile("E100", f"is too big: more than {limit} bytes", "split it into several files")
    return data


def read_head(path: Path, size: int, roots: Iterable[Path] | None = None) -> bytes:
    """At most the first `size` bytes of a regular file (to show the lines of a file too big to
    read whole); RefusedFile when it is not a plain file."""
    why = refusal(path, roots)
    if why is not None:
        raise RefusedFile(*why)
    fd = os.open(os.path.realpath(path), _FLAGS)
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
            raise RefusedFile("E103", "is not a regular file", "name an ordinary text file")
        return f.read(size)


def shown_text(path: Path, size: int = 4_000_000) -> str:
    """The start of a file, to show the lines its diagnostics point at; "" when it is not a
    regular file (a FIFO is never opened) or cannot be read."""
    try:
        return read_head(Path(path), size).decode("utf-8", "replace")
    except OSError:
        return ""


def is_plain_file(path: Path, roots: Iterable[Path] | None = None) -> bool:
    """Whether `path` is a regular file (inside `roots`), found without opening it."""
    return refusal(path, roots) is None
