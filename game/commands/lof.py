"""`skirmish lof SCENARIO --from ID --to ID [--json] [--out FILE.png] [--all]`.

Settles a line-of-fire dispute: yes or no, in arc or not, the witness line that proves
it, who blocks, how much of the target is seen, its cover as the scenario's rule system
reads it, and the edge-to-edge distance. `--all` rules on every ordered pair of enemy
models. `--out` draws the ruling beside the shooter's-eye view of the target (one PNG;
with `--all`, a folder of one PNG per pair). `LofProvider` gives the interactive table
the same rulings.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from game.commands._args import check_png, no_such_model, scenario_argument
from game.commands.render import chosen_scale, refuse_both, scale_option, size_option
from game.errors import InputError, Problem
from game.files import check_all_writable, check_writable

if TYPE_CHECKING:
    from game.scenario import Scenario


def _check_id(path: Path, scenario: Scenario, option: str, model_id: str | None) -> str:
    if model_id is None:
        raise InputError(Problem(str(path), option, "give a model id (or use --all)"))
    if all(m.id != model_id for m in scenario.models):
        ids = (m.id for m in scenario.models)
        raise InputError(Problem(str(path), option, no_such_model(model_id, ids)))
    return model_id


def lof(
    scenario: Annotated[Path, scenario_argument()],
    attacker: Annotated[
        str | None, typer.Option("--from", help="Id of the shooting model.")
    ] = None,
    target: Annotated[str | None, typer.Option("--to", help="Id of the target model.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON document.")] = False,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            "-o",
            help="Draw the ruling and the shooter's-eye view to this PNG "
            "(with --all: a folder, one PNG per pair).",
        ),
    ] = None,
    every: Annotated[
        bool, typer.Option("--all", help="Rule on every ordered pair of enemy models.")
    ] = False,
    scale: Annotated[float | None, scale_option()] = None,
    size: Annotated[str | None, size_option()] = None,
) -> None:
    """Rule on line of fire: yes/no with the witness line, blockers, visible share, cover."""
    if every and (attacker, target) != (None, None):
        option = "--from" if attacker is not None else "--to"
        problem = "--all rules on every pair of enemy models: give --from and --to, or --all"
        raise InputError(Problem("<command line>", option, problem))
    if out is not None and not every:
        check_png(out, "--out", "the picture must be a .png file")
    if out is not None and every and (out.suffix.lower() == ".png" or out.is_file()):
        problem = "with --all, --out names a folder for one picture per pair"
        raise InputError(Problem(str(out), "--out", problem))
    if out is None and (scale, size) != (None, None):
        option = "--scale" if scale is not None else "--size"
        raise InputError(Problem("<command line>", option, "goes with --out"))
    refuse_both(scale, size)
    if out is not None:
        check_writable(out, "--out", folder=every)
    from game.scenario import load_scenario
    from game.scenario.ruling import off_table, rule
    from game.scenario.tables import table_from_scenario

    loaded = load_scenario(scenario)
    table = table_from_scenario(loaded)
    at = 20.0
    if out is not None:  # a --size too small is refused before any ruling is printed
        from game.render.lof_picture import lof_picture_size, lof_scale_to_fit

        at = chosen_scale(loaded, scale, size, lof_scale_to_fit, lof_picture_size)
    # a model off the table (a fighter Out of Action, say) is in no pair of --all
    gone = [said for m in loaded.models if (said := off_table(loaded, m.id))]
    if every:
        there = [m for m in loaded.models if not off_table(loaded, m.id)]
        pairs = [(a.id, b.id) for a in there for b in there if a.side != b.side]
    else:
        a_id = _check_id(scenario, loaded, "--from", attacker)
        b_id = _check_id(scenario, loaded, "--to", target)
        if a_id == b_id:
            raise InputError(Problem(str(scenario), "--to", "a model cannot target itself"))
        pairs = [(a_id, b_id)]
    if out is not None and every:  # a folder where a picture must be: said before any ruling
        check_all_writable([_pair_picture(out, a, b) for a, b in pairs], "--out")
    rulings = [rule(loaded, table, a, b) for a, b in pairs]
    if not rulings and not as_json:
        typer.echo("no pairs of enemies on this table")
    if as_json:
        docs = [r.to_json(loaded) for r in rulings]
        doc: Any = docs if every else docs[0]
        typer.echo(json.dumps(doc, indent=2))
    else:
        from game.scenario.names import table_names
        from game.sequencer.sentences import named

        names = table_names(loaded)  # models and scenery by name, as the window calls them
        for n, r in enumerate(rulings):
            if n:
                typer.echo("")
            typer.echo("\n".join(named(line, names) for line in r.lines()))
        if every and gone:
            out_of_it = "; ".join(named(said, names) for said in gone)
            typer.echo(f"{'' if not rulings else chr(10)}left out: {out_of_it}")
    if out is not None and rulings:
        from game.render.lof_picture import save_lof_picture

        if every:
            for r in rulings:
                save_lof_picture(loaded, r, _pair_picture(out, r.attacker, r.target), at, table)
            if not as_json:
                typer.echo(f"pictures: {len(rulings)} in {out}")
        else:
            save_lof_picture(loaded, rulings[0], out, at, table)
            if not as_json:
                typer.echo(f"picture: {out}")


def _pair_picture(folder: Path, attacker: str, target: str) -> Path:
    """lof --all: the picture of one pair in the --out folder."""
    return folder / f"{attacker}-{target}.png"


def register(app: typer.Typer) -> None:
    app.command("lof")(lof)
