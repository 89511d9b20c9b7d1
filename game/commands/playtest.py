"""`skirmish playtest SCENARIO --games N`: batch games between automatic players, with
per-game data, saves, plots and a report on request."""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from game.commands._args import (
    MAX_GAMES,
    TEMPERAMENT_CHOICES,
    connect_timeout_option,
    scenario_argument,
    scheduler_wait,
    seed_option,
    think_option,
)
from game.errors import InputError, Problem
from game.paths import as_typed

if TYPE_CHECKING:
    from game.playtest.record import GameRecord
    from game.scenario import Scenario

AI_HELP = (
    "The automatic player for both sides (simple: fast; careful: weighs expected damage "
    "against risk with the exact odds; search: looks ahead), or one per side by the "
    "sides' ids: blue=search,red=careful. Default: the player each [[side]] names, else "
    "simple."
)
SWAP_HELP = (
    "Play every seed twice, the second time with the sides' players exchanged, so the "
    "table's edge and the players' skill can be told apart (default: on when the sides' "
    "players differ)."
)


def playtest(
    scenario: Annotated[Path, scenario_argument()],
    games: Annotated[
        int, typer.Option("--games", min=1, max=MAX_GAMES, help="How many games.")
    ] = 100,
    seed: Annotated[int, seed_option("Seed of the whole batch.")] = 1,
    workers: Annotated[
        int, typer.Option("--workers", min=1, help="Processes on this machine.")
    ] = 1,
    scheduler: Annotated[
        str | None,
        typer.Option("--scheduler", help="Address of a Dask scheduler (tcp://HOST:PORT)."),
    ] = None,
    connect_timeout: Annotated[float | None, connect_timeout_option()] = None,
    detail: Annotated[
        bool, typer.Option("--detail", help="With --json: every game's seed and result.")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON document.")] = False,
    ai: Annotated[str | None, typer.Option("--ai", help=AI_HELP)] = None,
    temperament: Annotated[
        str | None,
        typer.Option(
            "--temperament",
            help=f"The players' weight set, if they take one: {TEMPERAMENT_CHOICES}.",
        ),
    ] = None,
    think: Annotated[
        float | None,
        think_option(),
    ] = None,
    swap: Annotated[bool | None, typer.Option("--swap/--no-swap", help=SWAP_HELP)] = None,
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Folder for games.csv, casualties.csv, summary.json, plots."),
    ] = None,
    save_games: Annotated[
        int,
        typer.Option("--save-games", min=0, help="Keep the saves of the first N games (--out)."),
    ] = 0,
    report: Annotated[
        Path | None,
        typer.Option("--report", help="One self-contained HTML page: table, figures, plots."),
    ] = None,
) -> None:
    """Play many games between the automatic players; print win rates with 95% intervals.

    Game i plays with its own seed, child i of --seed (with --swap, seed i plays games
    2i and 2i+1), so the figures do not depend on --workers or the cluster, and any game
    can be replayed alone."""
    from game.files import check_all_writable, check_writable
    from game.playtest.plan import Where, choose_players, play_batches, playable, swap_default
    from game.playtest.runner import Batch, Source, jobs_for, rounded_up
    from game.playtest.summary import summary_document

    wait = scheduler_wait(scheduler, connect_timeout)
    if detail and not as_json:
        problem = "goes with --json: the games' seeds and results are listed in its document"
        raise InputError(Problem("<command line>", "--detail", problem))
    if save_games and out is None:
        raise InputError(Problem("<command line>", "--save-games", "needs --out DIR for the saves"))
    if report is not None and report.suffix.lower() not in (".html", ".htm"):
        raise InputError(Problem(str(report), "--report", "the report must be an .html file"))
    if out is not None:
        check_writable(out, "--out", folder=True)
    if report is not None:
        check_writable(report, "--report", folder=False)
    loaded = playable(scenario, workers)
    choice = choose_players(loaded, ai, {"temperament": temperament, "think": think})
    swapping = swap_default(choice, swap)
    sides = [s.id for s in loaded.sides]
    jobs = jobs_for(seed, games, swapping)
    if rounded_up(games, swapping):  # before any game: the count differs from --games
        typer.echo(rounded_up(games, swapping), err=True)
    if out is not None:  # a folder where one of its files must be: said before any game
        from game.playtest.output import out_files

        check_all_writable(out_files(out, len(jobs), save_games), "--out")
    batch = Batch(choice, tuple(sides), keep_saves=save_games)
    where = Where(workers, scheduler, wait)
    _ready(loaded, quiet=as_json)
    start = time.perf_counter()
    source = Source.of(scenario)
    quiet = False if as_json else None
    [records] = play_batches([source], jobs, batch, where, quiet, setups={source: loaded})
    seconds = time.perf_counter() - start
    from game.playtest.players import describe
    from game.scenario.names import reason_names

    document = summary_document(
        records,
        sides,
        swapping,
        reason_names(loaded),
        scenario=as_typed(scenario),
        ruleset=loaded.ruleset.name,
        seed=seed,
        workers=workers if scheduler is None else None,
        scheduler=scheduler,
        ai=describe(choice),
        seconds=round(seconds, 3),
        timed="wall clock, from the first game to the last",
        games_per_second=round(len(records) / seconds, 2) if seconds else None,
    )
    document["why"] = _why(records, sides, loaded)
    if detail:
        document["results"] = [_detail(r, reason_names(loaded)) for r in records]
    written: list[Path] = []
    if out is not None or report is not None:
        images = _plots(records, sides, loaded)
        if out is not None:
            written = _write_out(out, records, sides, document, loaded, scenario, images)
        if report is not None:
            _write_report(report, document, loaded, images)
            written.append(report)
    if as_json:
        typer.echo(json.dumps(document, indent=1))
        return
    _print(document, loaded, records, written)


def _why(records: list[GameRecord], sides: list[str], loaded: Scenario) -> list[str]:
    """How each side won and when and where each lost its models (`summary.why`), the
    scenery called as the table's labels call it. The end reasons name only models,
    units and sides, and the objectives they say held (`reason_names`, as summary.json's
    `reasons` and games.csv do): with the scenery's names too, a piece whose id is a word
    ("still", the water still) was named inside the game's sentence ("points of fighters
    the water still in the fight")."""
    from game.playtest.summary import why
    from game.scenario.names import reason_names, scenery_names

    called = scenery_names(loaded.scenery)
    places = [(called.get(p.id, p.id), p.footprint) for p in loaded.scenery]
    rules = loaded.ruleset
    return why(records, sides, reason_names(loaded), places, rules.turn_word, rules.model_word)


def _ready(loaded: Scenario, quiet: bool) -> None:
    """One throwaway game of simple players before the clock starts: the first run after
    an install compiles the sight-line loops here (a few seconds, once; later runs load
    them from numba's cache), and says so, so the speed said after is the games' own and a
    new user knows why the first run waited."""
    from game.geometry.compiled import compiled_afresh, compiled_note
    from game.playtest.batch import play_one

    before, start = compiled_afresh(), time.perf_counter()
    play_one(loaded, 0, 0)
    if compiled_afresh() > before and not quiet:
        not_counted = "before the first game and not counted in the speed below"
        typer.echo(compiled_note(time.perf_counter() - start, not_counted), err=True)


def _detail(r: GameRecord, names: Mapping[str, str]) -> dict[str, Any]:
    """One game for --detail: the ids in the fields, the names in the sentence."""
    from game.sequencer.sentences import named

    return {
        "game": r.index, "seed": r.seed, "swapped": r.swapped, "players": r.players,
        "winner": r.winner, "reason": named(r.reason, names), "turn": r.turn,
        "declarations": r.declarations, "down": r.down, "points": r.points,
        "objectives": {s: list(ids) for s, ids in r.objectives.items()},
    }  # fmt: skip


def table_images(loaded: Scenario, scale: float = 20.0) -> tuple[bytes, Any]:
    """The table's picture as PNG bytes, each base's state marked as the window and
    `skirmish render` mark it (a position's fighter Out of Action greyed and crossed), and
    its table area as an RGB array (rows from the table's top edge) for drawing over."""
    import io

    import pygame

    from game.render.frame import marked_table_picture
    from game.render.table import picture_view

    picture = marked_table_picture(loaded, scale)
    buffer = io.BytesIO()
    pygame.image.save(picture, buffer, "png")
    view = picture_view(loaded, scale)
    width, depth = loaded.header.table
    x0, y0 = (round(v) for v in view.to_screen(0, 0))
    x1, y1 = (round(v) for v in view.to_screen(width, depth))
    area = pygame.surfarray.array3d(picture)[x0:x1, y0:y1].transpose(1, 0, 2)
    return buffer.getvalue(), area


def _colours(loaded: Scenario) -> dict[str, str]:
    from game.render.table import side_colours

    return {s: "#{:02x}{:02x}{:02x}".format(*c[:3]) for s, c in side_colours(loaded).items()}


def _plots(records: list[GameRecord], sides: list[str], loaded: Scenario) -> dict[str, bytes]:
    from game.playtest import plots

    picture, area = table_images(loaded)
    from game.sequencer.sentences import names_of

    names = names_of(loaded)
    table = loaded.header.table
    colours = _colours(loaded)
    rules = loaded.ruleset
    return plots.all_plots(
        records, sides, table, area, colours, names, rules.turn_word, rules.model_word
    ) | {"table": picture}


def _write_out(
    out: Path,
    records: list[GameRecord],
    sides: list[str],
    document: dict[str, Any],
    loaded: Scenario,
    scenario: Path,
    images: dict[str, bytes],
) -> list[Path]:
    from game.files import write_bytes_atomic
    from game.playtest.output import write_folder
    from game.scenario.names import reason_names

    written = write_folder(out, records, sides, document, scenario, reason_names(loaded))
    for name, png in images.items():
        path = out / f"{name}.png"
        write_bytes_atomic(path, png)
        written.append(path)
    return written


def _write_report(
    report: Path, document: dict[str, Any], loaded: Scenario, images: dict[str, bytes]
) -> None:
    from game.files import write_text_atomic
    from game.playtest.html import report_page

    rules = loaded.ruleset
    page = report_page(
        loaded.header.name, rules.title, document, images, rules.turn_word, rules.model_word
    )
    write_text_atomic(report, page)


def _print(
    document: dict[str, Any], loaded: Scenario, records: list[GameRecord], written: list[Path]
) -> None:
    from rich.table import Table

    from game.commands._console import for_people
    from game.playtest.summary import how_games_ended, side_called, speed_sentence
    from game.sequencer.sentences import names_of, plural

    names = names_of(loaded)
    players = document["ai"]
    swap = " (sides swapped per seed)" if document["swap"] else ""
    table = Table(
        title=f"{loaded.header.name}: {plural(document['games'], 'game')}, "
        f"seed {document['seed']}{swap}"
    )
    table.add_column("side")
    table.add_column("player")
    table.add_column("wins", justify="right")
    table.add_column("win rate [95% interval]", justify="right")
    table.add_column(f"{loaded.ruleset.model_word}s lost (mean)", justify="right")
    for s, row in document["sides"].items():
        low, high = row["interval95"]
        player = players[s] if not document["swap"] else " / ".join(sorted(set(players.values())))
        rate = f"{row['win_rate']:.1%} [{low:.1%}, {high:.1%}]"
        table.add_row(side_called(s, names), player, str(row["wins"]), rate,
                      f"{row['mean_down']:.2f}")  # fmt: skip
    draws = document["draws"]
    table.add_row("draw", "", str(draws["count"]), f"{draws['rate']:.1%}", "")
    console = for_people()
    console.print(table)
    turn = loaded.ruleset.turn_word
    ended = how_games_ended(document["reasons"], turn)
    console.print(f"mean last {turn} {document['mean_turn']:.2f}; how games ended: {ended}")
    for sentence in [*document["verdict"], *document.get("why", ())]:
        console.print(sentence)
    console.print(speed_sentence(document))
    for path in written:
        console.print(f"wrote {path}")


def register(app: typer.Typer) -> None:
    app.command("playtest")(playtest)
