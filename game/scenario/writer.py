"""Writing a scenario file: a `Document` (the file's tables as validated entries) to
TOML through tomli-w, atomically, so that reading it back gives the same table exactly.

The editor and the map importers build a `Document`; `read_document` reads one from a
scenario file (its [[profile]] and [[weapon]] tables are kept as they were); the
editor's save changes the file only where the table changed (`kept_form`), else writes
it anew with its comments carried over (`carry_comments`)."""

from __future__ import annotations

import contextlib
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import tomli_w
from pydantic import BaseModel

from game.errors import InputError, Problem
from game.files import write_text_atomic
from game.scenario.load import check_data, check_scenario, read_toml
from game.scenario.model import Header, ModelEntry, ObjectiveEntry, SceneryEntry, SideEntry
from game.scenario.scenario import Scenario

# rule data a scenario may carry for itself, kept as read: [[profile]], [[weapon]]
RULE_TABLES = ("profile", "weapon")


@dataclass(frozen=True, slots=True)
class Document:
    """A scenario as its file holds it: each table as a validated entry, in file order."""

    header: Header
    scenery: tuple[SceneryEntry, ...] = ()
    sides: tuple[SideEntry, ...] = ()
    models: tuple[ModelEntry, ...] = ()
    objectives: tuple[ObjectiveEntry, ...] = ()
    rule_tables: tuple[tuple[str, tuple[dict[str, Any], ...]], ...] = field(default=())

    def ids(self) -> set[str]:
        """Every id the file uses (sides, scenery, models and objectives share one space)."""
        groups: tuple[tuple[Any, ...], ...] = (
            self.sides,
            self.scenery,
            self.models,
            self.objectives,
        )
        return {e.id for group in groups for e in group}


Entry = SideEntry | SceneryEntry | ModelEntry | ObjectiveEntry


def _entry(entry: BaseModel) -> dict[str, Any]:
    # defaults and absent options are left out, as a person writes the file
    data = entry.model_dump(mode="json", exclude_none=True, exclude_defaults=True)
    return {key: _as_written(value) for key, value in data.items()}


def _entry_data(entry: BaseModel) -> dict[str, Any]:
    """An entry's keys as written; the header's table always (never a default)."""
    data = _entry(entry)
    if isinstance(entry, Header):
        data["table"] = _as_written(list(entry.table))
    return data


def _as_written(value: Any) -> Any:
    """Whole numbers as people write them ([36, 30], not [36.0, 30.0]: tester7's finding
    16); they read back as the same numbers."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return int(value)
    if isinstance(value, list | tuple):
        return [_as_written(v) for v in value]
    if isinstance(value, dict):
        return {k: _as_written(v) for k, v in value.items()}
    return value


def document_data(doc: Document) -> dict[str, Any]:
    """The document as the TOML tables it is written as."""
    data: dict[str, Any] = {"scenario": _entry_data(doc.header)}
    for key, entries in (
        ("side", doc.sides),
        ("scenery", doc.scenery),
        ("model", doc.models),
        ("objective", doc.objectives),
    ):
        if entries:
            data[key] = [_entry(e) for e in entries]
    for key, tables in doc.rule_tables:
        if tables:
            data[key] = [dict(t) for t in tables]
    return data


def _literal(value: Any) -> str:
    # tomli-w spells each scalar (string escapes, floats that read back exactly);
    # arrays and tables stay on one line, as people write points and pairs
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_literal(v) for v in value) + "]"
    if isinstance(value, dict):
        inner = ", ".join(f"{_key(k)} = {_literal(v)}" for k, v in value.items())
        return "{ " + inner + " }" if inner else "{}"
    return tomli_w.dumps({"v": value})[len("v = ") : -1]


def _key(key: str) -> str:
    return tomli_w.dumps({key: 0})[: -len(" = 0\n")]


def scenario_toml(doc: Document) -> str:
    """The scenario file's text: [scenario], then [[side]], [[scenery]], [[model]],
    [[objective]] and any [[profile]] / [[weapon]], one entry a table."""
    chunks = [f"# {doc.header.name}: written by skirmish\n"]
    for key, value in document_data(doc).items():
        entries = value if isinstance(value, list) else [value]
        header = f"[[{key}]]" if isinstance(value, list) else f"[{key}]"
        for entry in entries:
            lines = [header] + [f"{_key(k)} = {_literal(v)}" for k, v in entry.items()]
            chunks.append("\n".join(lines) + "\n")
    return "\n".join(chunks)


def check_document(
    doc: Document, name: str = "scenario.toml"
) -> tuple[Scenario | None, list[Problem]]:
    """The scenario the document makes and every problem with it, found by the checks a
    file read from disk goes through (`check_data`) on the tables it would write (the
    written text reads back as these same tables: tests/scenario/test_writer.py)."""
    return check_data(document_data(doc), Path(name))


def write_scenario(doc: Document, path: Path, comments_from: Path | None = None) -> Scenario:
    """Check the document and write it to `path` atomically; returns the scenario it
    makes. A document with problems raises InputError and writes nothing.
    `comments_from`: the file the document was read from, changed only where the table
    is (`kept_form`), else written anew with its comments carried over to the tables
    and keys they stood by (`carry_comments`)."""
    scenario, problems = check_document(doc, path.name)
    if problems or scenario is None:
        raise InputError([Problem(str(path), p.place, p.problem) for p in problems])
    text = scenario_toml(doc)
    # the file it came from gone or unreadable: written without its comments
    with contextlib.suppress(OSError, UnicodeDecodeError):
        if comments_from is not None:
            old = comments_from.read_text(encoding="utf-8-sig")
            text = kept_form(old, doc) or carry_comments(old, text)
    write_text_atomic(path, text)
    return scenario


_HEADER = re.compile(r"^\s*(\[\[?)\s*([A-Za-z0-9_-]+)\s*\]\]?\s*(#.*)?$")
_KEY = re.compile(r"^\s*([A-Za-z0-9_-]+)\s*=")
_OURS = re.compile(r"^# .*: written by skirmish$")  # the writer's own first line

Place = tuple[str, str, str]  # (table, its entry's id or number, key or "" for its header)


def _places(text: str) -> list[tuple[str, Place | None]]:
    """Each line of a scenario file with the place it stands in: the table header or
    key it belongs to (None: a comment line or a blank one). An entry of an array of
    tables is known by its `id` (else `name`, else its number)."""
    out: list[tuple[str, Place | None]] = []
    lines = text.splitlines()
    table, entry, counts = "", "", dict[str, int]()
    for index, line in enumerate(lines):
        header = _HEADER.match(line)
        key = _KEY.match(line)
        if header:
            table = header.group(2)
            counts[table] = counts.get(table, 0) + 1
            entry = str(counts[table]) if header.group(1) == "[[" else ""
            if header.group(1) == "[[":  # known by its id, found on the lines after it
                for later in lines[index + 1 :]:
                    if _HEADER.match(later):
                        break
                    found = re.match(r'^\s*(?:id|name)\s*=\s*"([^"]*)"', later)
                    if found:
                        entry = found.group(1)
                        break
            out.append((line, (table, entry, "")))
        elif key:
            out.append((line, (table, entry, key.group(1))))
        else:
            out.append((line, None))
    return out


def _inline(line: str) -> str:
    """A key line's trailing comment ("  # inches"), or "" (a "#" inside a string is
    not one: the part before it must read as TOML)."""
    for at in [m.start() for m in re.finditer("#", line)]:
        before = line[:at]
        try:
            tomllib.loads(before)
        except tomllib.TOMLDecodeError:
            continue
        return line[at:].strip()
    return ""


def carry_comments(old: str, new: str) -> str:
    """`new` (the writer's text) with the comments of `old` (the file it replaces)
    put back by the tables and keys they stood by: a comment block before a table or a
    key goes before it again, a comment after a value stays after it, those at the top
    stay at the top (tester7's finding 16). Comments by what is gone are dropped."""
    before: dict[Place, list[str]] = {}
    after: dict[Place, str] = {}
    top: list[str] = []
    pending: list[str] = []
    seen_table = False
    for line, place in _places(old):
        if place is None:
            if line.strip().startswith("#") and not _OURS.match(line.strip()):
                pending.append(line.rstrip())
            elif not line.strip() and pending and not seen_table:
                top.extend([*pending, ""])  # a block at the top, apart from the first table
                pending = []
            continue
        seen_table = seen_table or place[2] == ""
        if pending:
            before.setdefault(place, []).extend(pending)
            pending = []
        if place[2]:
            comment = _inline(line)
            if comment:
                after[place] = comment
    out: list[str] = []
    lines = _places(new)
    for index, (line, place) in enumerate(lines):
        if place is not None:
            out.extend(before.get(place, ()))
            if place in after:
                line = f"{line}  {after[place]}"
        out.append(line)
        if index == 0 and top:  # the writer's own first line, then the file's top block
            out.extend(["", *top[:-1]])
    out.extend(pending)
    return "\n".join(out) + "\n"


def read_document(path: Path) -> Document:
    """The document of a valid scenario file (InputError listing its problems if not)."""
    _, problems = check_scenario(path)
    if problems:
        raise InputError(problems)
    data, _ = read_toml(path)
    return document_of(data)


def document_of(data: dict[str, Any]) -> Document:
    """The document of a scenario file's tables (raises ValueError where one is not an
    entry: `read_document` checks the file first)."""
    return Document(
        header=Header.model_validate(data["scenario"]),
        scenery=tuple(SceneryEntry.model_validate(e) for e in data.get("scenery", [])),
        sides=tuple(SideEntry.model_validate(e) for e in data.get("side", [])),
        models=tuple(ModelEntry.model_validate(e) for e in data.get("model", [])),
        objectives=tuple(ObjectiveEntry.model_validate(e) for e in data.get("objective", [])),
        rule_tables=tuple(
            (key, tuple(dict(t) for t in data[key])) for key in RULE_TABLES if data.get(key)
        ),
    )


# -- a saved file as it was, changed only where the table was (tester7b's F)

Block = tuple[str, list[str], list[str]]  # (table, the lines before it, its own lines)


def _blocks(text: str) -> tuple[list[str], list[Block]] | None:
    """The file's lines before its first table, then each table with the comment and
    blank lines just before it (its lead) and its own lines; None for a file laid out
    otherwise (a key before any table)."""
    lines = text.splitlines()
    blocks: list[Block] = []
    pending: list[str] = []
    for line in lines:
        header = _HEADER.match(line)
        loose = not line.strip() or line.strip().startswith("#")
        if header:
            lead, pending = pending, []
            blocks.append((header.group(2), lead, [line]))
        elif loose:
            pending.append(line)
        elif not blocks:
            return None
        else:
            blocks[-1][2].extend([*pending, line])
            pending = []
    if not blocks:
        return None
    top = blocks[0][1]
    blocks[0] = (blocks[0][0], [], blocks[0][2])
    if pending:  # comments at the end of the file stay at its end
        blocks.append(("", pending, []))
    return top, blocks


def _keys(body: list[str]) -> list[tuple[str | None, list[str]]]:
    """A table's lines after its header as keys with their lines (a value may run on over
    several lines), and the comment or blank lines between them (key None)."""
    out: list[tuple[str | None, list[str]]] = []
    for line in body[1:]:
        key = _KEY.match(line)
        if key:
            out.append((key.group(1), [line]))
        elif line.strip() and not line.strip().startswith("#") and out and out[-1][0]:
            out[-1][1].append(line)  # the value goes on
        else:
            out.append((None, [line]))
    return out


def _rewritten(body: list[str], old: BaseModel, new: BaseModel) -> list[str]:
    """A table's lines with the keys whose value changed written anew (their trailing
    comment kept), those now at their default left out, and new ones added after the
    last key; the rest as they were."""
    was, now = old.model_dump(mode="json"), new.model_dump(mode="json")
    written = _entry_data(new)
    out, seen, last = [body[0]], set[str](), 0
    for key, lines in _keys(body):
        if key is None:
            out.extend(lines)
            continue
        seen.add(key)
        if was.get(key) == now.get(key):
            out.extend(lines)
        elif key in written:
            comment = _inline(lines[-1])
            line = f"{_key(key)} = {_literal(written[key])}"
            out.append(f"{line}  {comment}" if comment else line)
        else:
            continue
        last = len(out)
    added = [f"{_key(k)} = {_literal(v)}" for k, v in written.items() if k not in seen]
    return out[:last] + added + out[last:]


def _entries(doc: Document) -> dict[str, list[Entry]]:
    return {"side": list(doc.sides), "scenery": list(doc.scenery), "model": list(doc.models),
            "objective": list(doc.objectives)}  # fmt: skip


def _new_block(table: str, entry: Entry) -> list[str]:
    data = _entry_data(entry)
    return ["", f"[[{table}]]", *(f"{_key(k)} = {_literal(v)}" for k, v in data.items())]


def kept_form(old: str, doc: Document) -> str | None:
    """The file `old` (a valid scenario file) made to hold `doc`, changed only where the
    table changed: each table or key whose value is the same keeps its lines as written
    (its order, '3.0', a default spelled out, its comments), a changed value is written
    anew, a deleted entry goes with the comments before it, a new one follows the last
    of its kind. None where the file is laid out otherwise than the writer can follow
    (the caller writes it anew, `carry_comments`); the text is read back before it is
    given, so it holds exactly `doc`."""
    try:
        was = document_of(tomllib.loads(old))
    except (tomllib.TOMLDecodeError, ValueError, KeyError, TypeError):
        return None
    laid = _blocks(old)
    if laid is None or was.rule_tables != doc.rule_tables:
        return None
    top, blocks = laid
    before, after = _entries(was), _entries(doc)
    out: list[str] = list(top)
    counts: dict[str, int] = {}
    for table, lead, body in blocks:
        index = counts.get(table, 0)
        counts[table] = index + 1
        if table == "scenario":
            out += lead + _rewritten(body, was.header, doc.header)
            continue
        if table not in before:  # rule tables, as they were; the file's closing comments
            out += lead + body
            continue
        if index >= len(before[table]):
            return None
        entry = before[table][index]
        now = {e.id: e for e in after[table]}
        if entry.id in now:
            new = now[entry.id]
            out += lead + (body if new == entry else _rewritten(body, entry, new))
        if index == len(before[table]) - 1:  # the last of its kind: the new ones after it
            old_ids = {e.id for e in before[table]}
            for added in after[table]:
                if added.id not in old_ids:
                    out += _new_block(table, added)
    for table, entries in _entries(doc).items():
        if not before[table]:
            for added in entries:
                out += _new_block(table, added)
    text = "\n".join(out) + "\n"
    try:
        if document_of(tomllib.loads(text)) != doc:
            return None
    except (tomllib.TOMLDecodeError, ValueError, KeyError, TypeError):
        return None
    return text
