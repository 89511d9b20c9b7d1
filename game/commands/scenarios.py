"""`skirmish scenarios [--json]`: the bundled tables, each usable by its name, and the
bundled example maps, which `skirmish import` takes by file name.

Every command that takes a scenario also takes the name of a bundled table
(`skirmish play NAME`); this lists them with their rule system, size and
models, read from the files' headers without checking them (`validate` checks).
"""

from __future__ import annotations

import json
import tomllib
from typing import Annotated, Any

import typer

from game.errors import InputError, Problem
from game.paths import bundled_maps, bundled_scenarios


def _entry(name: str, text: str, file: str) -> dict[str, Any]:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise InputError(Problem(file, "TOML syntax", str(err))) from None
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


def scenarios(
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON document.")] = False,
) -> None:
    """List the bundled tables; any command takes one by its name instead of a file."""
    from game.commands._args import local_override

    entries = [
        _entry(name, path.read_text(encoding="utf-8"), str(path))
        for name, path in bundled_scenarios().items()
    ]
    for e in entries:  # a NAME.toml here is what a command given NAME reads
        here = local_override(e["name"])
        e["read_instead"] = str(here) if here is not None else None
    maps = [{"name": name, "file": str(path)} for name, path in bundled_maps().items()]
    if as_json:
        typer.echo(json.dumps({"scenarios": entries, "maps": maps}, indent=2))
        return
    overridden = []
    width = max((len(e["name"]) for e in entries), default=0)
    rule_width = max((len(e["ruleset"]) for e in entries), default=0)
    for e in entries:
        size = "x".join(f"{v:g}" for v in e["table"]) + '"' if e["table"] else "?"
        typer.echo(
            f"{e['name']:<{width}}  {e['ruleset']:<{rule_width}}  {size:>7}  "
            f"{e['models']:>2} models  {e['title']}"
        )
        if e.get("read_instead"):
            overridden.append(e["name"])
    if entries:
        example = entries[0]["name"]
        typer.echo(f"any command takes a name in place of a file: skirmish play {example}")
    for name in overridden:
        typer.echo(
            f"{name}: {name}.toml in this folder is read in its place (rename the copy to "
            "use the bundled one)"
        )
    if maps:
        typer.echo(f"maps: {', '.join(m['name'] for m in maps)}")
        example = maps[0]["name"]
        typer.echo(f"  to import one: skirmish import {example} --ruleset NAME --out TABLE.toml")


def register(app: typer.Typer) -> None:
    app.command("scenarios")(scenarios)
