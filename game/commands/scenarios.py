"""`skirmish scenarios [--json]`: the bundled tables, each usable by its name, the
scenarios in this folder (which commands take by name too, a NAME.toml here before the
bundled NAME), and the bundled example maps, which `skirmish import` takes by file name.

Every command that takes a scenario also takes the name of a bundled table
(`skirmish play NAME`); this lists them with their rule system, size and
models, read from the files' headers without checking the bundled ones; a table in
this folder is checked, and one that does not validate, or does not read, is said so
with its (first) problem.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Annotated, Any

import typer

from game.errors import InputError, Problem
from game.paths import SUFFIX, bundled_maps, bundled_scenarios

# How many TOML files of this folder are looked into for scenarios (each no larger than
# a scenario file may be, MAX_FILE_BYTES).
MOST_HERE = 100


def _parsed(text: str, file: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise InputError(Problem(file, "TOML syntax", str(err))) from None


def _entry(name: str, data: dict[str, Any], file: str) -> dict[str, Any]:
    header = data.get("scenario", {})
    models = data.get("model", [])
    sides = {m.get("side") for m in models if isinstance(m, dict)}
    return {
        "name": name,
        "title": header.get("name", name),
        "ruleset": header.get("ruleset", "?"),
        "table": header.get("table"),
        "sides": len(sides),
        "models": len(models),
        "description": header.get("description", ""),
        "file": file,
    }


def _here(bundled: set[str]) -> list[dict[str, Any]]:
    """The scenario files in this folder (TOML with a [scenario] table; pyproject.toml
    and the like are not), each checked: `valid` says whether it validates. A file
    named as a bundled table is one whatever it holds (a command given the name reads
    it), and does not validate when it is no scenario. A file that does not read as
    TOML (its syntax, not text, too large, empty) is listed with why (`problem`): it
    may be a scenario gone wrong, and a command given its name would read it."""
    from game.files import parse_toml, read_text
    from game.scenario.load import MAX_FILE_BYTES, check_to_play

    found = []
    for path in sorted(Path(".").glob(f"*{SUFFIX}"))[:MOST_HERE]:
        if not path.is_file():
            continue
        unread = {**_entry(path.stem, {}, str(path)), "reads": False, "valid": False}
        try:
            text = read_text(path, MAX_FILE_BYTES, "TOML file")
            data = parse_toml(text, str(path))
        except InputError as err:
            found.append({**unread, "problem": _said(err.problems[0])})
            continue
        if not text.strip():
            found.append({**unread, "problem": "empty: no [scenario] table"})
            continue
        if not isinstance(data.get("scenario"), dict):
            if path.stem in bundled:
                problem = "no [scenario] table"
                found.append({**_entry(path.stem, {}, str(path)), "reads": True, "valid": False,
                              "problem": problem})  # fmt: skip
            continue
        entry = _entry(path.stem, data, str(path))
        _, problems = check_to_play(path)  # a table that cannot be played does not validate
        first = _said(problems[0]) if problems else None  # `validate` says every one
        entry.update(reads=True, valid=not problems, problem=first)
        found.append(entry)
    return found


def _said(problem: Problem) -> str:
    """A file's problem without its name: "line 3: TOML syntax: ..."."""
    where = [f"line {problem.line}"] if problem.line is not None else []
    return ": ".join([*where, *filter(None, [problem.place]), problem.problem])


def _row(e: dict[str, Any], width: int, rule_width: int) -> str:
    table = e["table"]
    sized = isinstance(table, list) and all(isinstance(v, int | float) for v in table)
    size = "x".join(f"{v:g}" for v in table) + '"' if sized else "?"
    title = str(e["title"])
    if e.get("reads") is False:
        return f"{e['name']:<{width}}  does not read: {e['problem']}"
    if e.get("valid") is False:
        title += f" (does not validate: {e['problem']}; skirmish validate {e['file']})"
    return (
        f"{e['name']:<{width}}  {e['ruleset']!s:<{rule_width}}  {size:>7}  "
        f"{e['models']:>2} models  {title}"
    )


def scenarios(
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON document.")] = False,
) -> None:
    """List the bundled tables; any command takes one by its name instead of a file."""
    from game.commands._args import local_override

    entries = [
        _entry(name, _parsed(path.read_text(encoding="utf-8"), str(path)), str(path))
        for name, path in bundled_scenarios().items()
    ]
    for e in entries:  # a NAME.toml here is what a command given NAME reads
        here = local_override(e["name"])
        e["read_instead"] = str(here) if here is not None else None
    local = _here({e["name"] for e in entries})
    maps = [{"name": name, "file": str(path)} for name, path in bundled_maps().items()]
    if as_json:
        typer.echo(json.dumps({"scenarios": entries, "here": local, "maps": maps}, indent=2))
        return
    overridden = []
    read = {e["name"]: e for e in local}
    width = max((len(e["name"]) for e in [*entries, *local]), default=0)
    rule_width = max((len(str(e["ruleset"])) for e in [*entries, *local]), default=0)
    for e in entries:
        # the row says what a command given the name reads: a copy here, if there is one
        shown = read.get(e["name"], e) if e.get("read_instead") else e
        typer.echo(_row(shown, width, rule_width))
        if e.get("read_instead"):
            overridden.append(e["name"])
    others = [e for e in local if not any(b["read_instead"] == e["file"] for b in entries)]
    if others:
        typer.echo("in this folder, taken by name too:")
        for e in others:
            typer.echo(_row(e, width, rule_width))
    if entries:
        example = entries[0]["name"]
        typer.echo(f"any command takes a name in place of a file: skirmish play {example}")
    for name in overridden:
        typer.echo(
            f"{name}: {name}.toml in this folder is read in its place, as its row shows "
            "(rename the copy to use the bundled one)"
        )
    if maps:
        typer.echo(f"maps: {', '.join(m['name'] for m in maps)}")
        example = maps[0]["name"]
        typer.echo(f"  to import one: skirmish import {example} --ruleset NAME --out TABLE.toml")


def register(app: typer.Typer) -> None:
    app.command("scenarios")(scenarios)
