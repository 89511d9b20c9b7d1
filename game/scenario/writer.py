"""Writing a scenario file: a `Document` (the file's tables as validated entries) to
TOML through tomli-w, atomically, so that reading it back gives the same table exactly.

The editor and the map importers build a `Document`; `read_document` reads one from a
scenario file (its [[profile]] and [[weapon]] tables are kept as they were; comments
are not kept)."""

from __future__ import annotations

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


def _entry(entry: BaseModel) -> dict[str, Any]:
    # defaults and absent options are left out, as a person writes the file
    return entry.model_dump(mode="json", exclude_none=True, exclude_defaults=True)


def document_data(doc: Document) -> dict[str, Any]:
    """The document as the TOML tables it is written as."""
    data: dict[str, Any] = {"scenario": _entry(doc.header)}
    data["scenario"]["table"] = list(doc.header.table)  # never a default, always written
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


def write_scenario(doc: Document, path: Path) -> Scenario:
    """Check the document and write it to `path` atomically; returns the scenario it
    makes. A document with problems raises InputError and writes nothing."""
    scenario, problems = check_document(doc, path.name)
    if problems or scenario is None:
        raise InputError([Problem(str(path), p.place, p.problem) for p in problems])
    write_text_atomic(path, scenario_toml(doc))
    return scenario


def read_document(path: Path) -> Document:
    """The document of a valid scenario file (InputError listing its problems if not)."""
    _, problems = check_scenario(path)
    if problems:
        raise InputError(problems)
    data, _ = read_toml(path)
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
