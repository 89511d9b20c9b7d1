"""Reading and writing the files people hand us and the files we write for them.

Reading: a size limit (a path naming /dev/zero or a huge file is refused, not read until
memory runs out), and every failure is one `Problem` line. Writing: atomically, through
a temporary file created safely (O_EXCL, a random name: a planted symbolic link cannot
redirect it) beside the target and renamed over it, so a file is either the old one or
the new one, never half written; stale temporary files of our own pattern left by a
killed writer are removed when the next one writes beside them.

A plain module: every layer may use it."""

from __future__ import annotations

import json
import os
import re
import tempfile
import time
import tomllib
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from game.errors import InputError, Problem

MEGABYTE = 1024 * 1024
# The longest a computer player may be given to think about one declaration, in seconds
# (`--think`, a save's players): a minute a declaration already makes a game last hours.
MAX_THINK = 60.0
# The window's computer player thinks this long a declaration unless told otherwise
# (`skirmish play --think`, a scenario's or save's player); playtest and balance give the
# search player its weights' budget instead (120 steps, 0.11-0.2 s by rule system).
WINDOW_THINK = 0.5
# Longest file name we try to open (longer ones are bad input, not an OS error).
MAX_PATH_CHARS = 4096
# A temporary file whose writer cannot be asked (no process id in its name, or not
# this machine's kind of process ids) is stale once it is this old, in seconds.
STALE_AFTER = 15 * 60


def _shown(path: Path | str) -> str:
    text = str(path)
    return text if len(text) <= 200 else text[:200] + "..."


def read_text(path: Path, limit: int, what: str = "file") -> str:
    """The UTF-8 text of `path`, at most `limit` bytes, without a byte-order mark at its
    start; InputError naming the problem."""
    name = _shown(path)
    if len(str(path)) > MAX_PATH_CHARS:
        raise InputError(Problem(name, "", f"the file name is over {MAX_PATH_CHARS} characters"))
    try:
        with path.open("rb") as handle:
            raw = handle.read(limit + 1)
    except FileNotFoundError:
        raise InputError(Problem(name, "", "no such file")) from None
    except IsADirectoryError:
        raise InputError(Problem(name, "", f"is a folder, not a {what}")) from None
    except OSError as err:
        raise InputError(Problem(name, "", f"cannot read: {err.strerror or err}")) from None
    if len(raw) > limit:
        size = f"{limit // MEGABYTE} MB" if limit >= MEGABYTE else f"{limit} bytes"
        raise InputError(Problem(name, "", f"larger than {size}: not a {what}"))
    try:
        # a byte-order mark first (Windows Notepad saves one) is not part of the text
        return raw.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as err:
        line = raw[: err.start].count(b"\n") + 1
        problem = f"not UTF-8 text (byte {err.start + 1}): not a {what}"
        raise InputError(Problem(name, "", problem, line)) from None


_SYNTAX_LINE = re.compile(r"\(at line (\d+), column (\d+)\)")
_AT_END = " (at end of document)"
# tomllib's words for the commonest mistakes, and ours.
_TOML_WORDS = {
    "Illegal character '\\n'": 'text in quotes runs to the end of the line: its closing " '
    "is missing",
    "Unterminated string": 'text in quotes is never closed: its closing " is missing',
    "Invalid value": 'not a value: write text in quotes ("abc"), a number, true or false, '
    "[a list] or {a table}",
    "Cannot overwrite a value": "a key given a second time, or a table named twice",
    "Unclosed array": "a list's [ is never closed by a ]",
    "Unclosed inline table": "a table's { is never closed by a }",
    "Invalid statement": "expected key = value or a [table] header",
    "Expected '=' after a key in a key/value pair": "expected = after the key",
    "Expected ']' at the end of a table declaration": "a [table] header's closing ] is missing",
    "Expected ']]' at the end of an array declaration": "a [[table]] header's closing ]] is "
    "missing",
    "Expected newline or end of document after a statement": "more after a value on its "
    "line: one key = value a line",
}


def parse_toml(text: str, file: str) -> dict[str, Any]:
    """`text` parsed as TOML; InputError with the line of a syntax error."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        message = str(err)
        m = _SYNTAX_LINE.search(message)
        line = int(m[1]) if m else None
        if message.endswith(_AT_END):
            message, line = message.removesuffix(_AT_END), max(1, len(text.splitlines()))
        message = _SYNTAX_LINE.sub("", message).strip()
        message = _TOML_WORDS.get(message, message)
        raise InputError(Problem(file, "TOML syntax", message, line)) from None
    except RecursionError:
        raise InputError(Problem(file, "TOML syntax", "values nested too deeply")) from None


def _temporary_prefix(target: Path) -> str:
    return f".{target.name}."


def _writer_gone(tmp: Path, prefix: str, now: float) -> bool:
    """True when the temporary file `tmp` (ours, by its name) has no live writer: its
    name carries the writer's process id, and that process has ended; or it is old."""
    try:
        age = now - tmp.stat().st_mtime
    except OSError:
        return False
    if age >= STALE_AFTER:
        return True
    pid_text, dash, _ = tmp.name[len(prefix) :].partition("-")
    if os.name != "posix" or not dash or not pid_text.isdigit():
        return False
    if int(pid_text) == os.getpid():
        return False
    try:
        os.kill(int(pid_text), 0)  # signal 0 only asks whether the process exists
    except ProcessLookupError:
        return True
    except OSError:
        return False
    return False


def clean_stale(target: Path) -> list[Path]:
    """Remove temporary files of our own pattern (`.NAME.*.tmp`) beside `target` whose
    writer is gone (its process has ended, or they are old); returns what was removed."""
    prefix = _temporary_prefix(target)
    removed: list[Path] = []
    now = time.time()
    try:
        candidates = list(target.parent.glob(f"{glob_escape(prefix)}*.tmp"))
    except OSError:
        return removed
    for tmp in candidates:
        if tmp.is_symlink() or not tmp.is_file():
            continue
        if _writer_gone(tmp, prefix, now):
            try:
                tmp.unlink()
                removed.append(tmp)
            except OSError:
                pass
    return removed


def glob_escape(text: str) -> str:
    """`text` with glob's special characters taken literally."""
    return "".join(f"[{c}]" if c in "*?[" else c for c in text)


class WriteError(InputError, OSError):
    """A file we were asked to write could not be: one line naming it for the command
    line, and still an OSError for callers that catch those (the window's saves)."""


def _cannot_write(target: Path, err: OSError) -> WriteError:
    return WriteError(Problem(_shown(target), "", f"cannot write: {err.strerror or err}"))


def not_writable(path: Path, folder: bool = False) -> str | None:
    """Why `path` cannot be written as a file (or made as a folder), said as a sentence,
    or None: a folder given for a file, a file for a folder, or a file where a folder on
    the way must be. A folder on the way that is missing is no problem: every command
    that writes makes the folders its file goes in (README, "Files written")."""
    if folder and path.exists() and not path.is_dir():
        return "is already a file, not a folder"
    if not folder and path.is_dir():
        return "is a folder, not a file"
    for above in path.parents:
        if above.exists():
            return None if above.is_dir() else f"{_shown(above)} is a file, not a folder"
    return None


def check_writable(path: Path, option: str, folder: bool = False) -> None:
    """Refuse, before any work is done, an output `path` that cannot be written
    (`not_writable`, `cannot_make_in`), naming the option that gave it."""
    check_all_writable([path], option, folder)


def check_all_writable(paths: Iterable[Path], option: str, folder: bool = False) -> None:
    """`check_writable` for each of `paths` (the files a command will write in its
    folder), each folder they would be made in tried once."""
    tried: set[Path] = set()
    for path in paths:
        problem = not_writable(path, folder)
        where = _made_in(path, folder)
        if problem is None and where is not None and where not in tried:
            tried.add(where)
            problem = cannot_make_in(where)
        if problem is not None:
            raise InputError(Problem(_shown(path), option, problem))


def _made_in(path: Path, folder: bool) -> Path | None:
    """The folder where writing `path` first makes something: the folder itself (for a
    folder that is there), else the nearest folder above it that is there."""
    if folder and path.is_dir():
        return path
    return next((above for above in path.parents if above.exists()), None)


def cannot_make_in(where: Path) -> str | None:
    """Why nothing can be made in the folder `where` (a read-only disk, no permission,
    /proc), found by making a temporary file there and removing it at once; or None."""
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".probe.{os.getpid()}-", suffix=".tmp", dir=where)
    except OSError as err:
        return f"cannot be written: nothing can be made in {_shown(where)} ({err.strerror or err})"
    os.close(fd)
    Path(tmp).unlink(missing_ok=True)
    return None


@contextmanager
def atomic_output(target: Path, binary: bool = True) -> Iterator[IO[Any]]:
    """A file object to write `target`'s new contents to; on success it replaces
    `target` in one rename, on any error `target` is left as it was. A folder that
    cannot be made or a rename refused (the target is a folder) is a `WriteError`."""
    problem = not_writable(target)
    if problem is not None:  # said as a sentence, not as "File exists" or "Not a directory"
        raise WriteError(Problem(_shown(target), "", problem))
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        clean_stale(target)
        fd, tmp = tempfile.mkstemp(
            prefix=f"{_temporary_prefix(target)}{os.getpid()}-", suffix=".tmp", dir=target.parent
        )
    except OSError as err:
        raise _cannot_write(target, err) from None
    try:
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(fd, 0o666 & ~umask)  # an ordinary file's permissions, not mkstemp's 0600
        handle = os.fdopen(fd, "wb") if binary else os.fdopen(fd, "w", encoding="utf-8")
        with handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        try:
            os.replace(tmp, target)
        except OSError as err:
            raise _cannot_write(target, err) from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_text_atomic(target: Path, text: str) -> None:
    """Write `text` (UTF-8) to `target` atomically."""
    with atomic_output(target, binary=False) as handle:
        handle.write(text)


def write_bytes_atomic(target: Path, data: bytes) -> None:
    """Write `data` to `target` atomically."""
    with atomic_output(target) as handle:
        handle.write(data)


def write_json_atomic(target: Path, data: Any) -> None:
    """Write `data` as JSON to `target` atomically."""
    with atomic_output(target, binary=False) as handle:
        json.dump(data, handle, indent=1)
        handle.write("\n")


def write_with(target: Path, write: Callable[[IO[bytes]], None]) -> None:
    """Let `write` fill a binary file object, then put it at `target` atomically."""
    with atomic_output(target) as handle:
        write(handle)
