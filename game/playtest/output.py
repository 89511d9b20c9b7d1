"""A batch written to a folder: `games.csv` (one row per game), `casualties.csv` (one
row per model taken out), `summary.json`, and the saves kept (`saves/game-0001.json`,
which `skirmish replay` opens). Every file is written whole or not at all (game.files)."""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from game.files import write_bytes_atomic, write_json_atomic
from game.playtest.record import GameRecord
from game.sequencer.game import scenario_fields
from game.sequencer.sentences import named


def _csv(header: list[str], rows: list[list[Any]]) -> bytes:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return buffer.getvalue().encode("utf-8")


def games_csv(
    records: Sequence[GameRecord], sides: Sequence[str], names: Mapping[str, str] | None = None
) -> bytes:
    """One row per game: seed, sides swapped, each side's player, winner, last turn, how
    it ended (a sentence calling sides and models by `names`, as the console does; the
    winner and the column names keep the ids), declarations, then models lost, points and
    objectives held per side, and last the seed again in hexadecimal (`0x...`). Seeds run
    to 39 digits and a spreadsheet reads the `seed` column as a number, keeping 15 of
    them; `seed_hex` is text to it, so the seed survives a round trip (`int(text, 16)`),
    and the columns before it stay put."""
    header = ["game", "seed", "swapped", *(f"player_{s}" for s in sides)]
    header += ["winner", "winner_player", "turns", "ended", "declarations"]
    for s in sides:
        header += [f"lost_{s}", f"points_{s}", f"objectives_{s}"]
    header.append("seed_hex")
    rows = []
    for r in records:
        row: list[Any] = [r.index, r.seed, int(r.swapped), *(r.players[s] for s in sides)]
        ended = named(r.reason, names) if names else r.reason
        row += [r.winner or "draw", r.winner_player or "", r.turn, ended, r.declarations]
        for s in sides:
            row += [r.down.get(s, 0), r.points.get(s, 0), " ".join(r.objectives.get(s, ()))]
        rows.append([*row, hex(r.seed)])
    return _csv(header, rows)


def casualties_csv(records: Sequence[GameRecord]) -> bytes:
    """One row per model taken out: game, turn, model, side, where it stood, who shot it
    and from where (empty when the log names no shooter)."""
    header = ["game", "turn", "model", "side", "x", "y", "by", "from_x", "from_y"]
    rows = []
    for r in records:
        for c in r.casualties:
            origin = ["", ""] if c.origin is None else [round(v, 3) for v in c.origin]
            x, y = (round(v, 3) for v in c.at)
            rows.append([r.index, c.turn, c.model, c.side, x, y, c.by or "", *origin])
    return _csv(header, rows)


# The files `--out` holds besides the saves: the tables, and the pictures (the charts of
# game.playtest.plots and the table itself).
TABLES = ("games.csv", "casualties.csv", "summary.json")
PICTURES = ("win-rate", "game-length", "models-lost", "heat-map", "table")


def out_files(folder: Path, games: int, saves: int) -> list[Path]:
    """Every file `--out` will write for a batch of `games` keeping `saves` saves, so
    that one a folder stands in the way of is refused before any game is played."""
    kept = [save_name(folder, i) for i in range(min(games, saves))]
    return [folder / t for t in TABLES] + [folder / f"{p}.png" for p in PICTURES] + kept


def save_name(folder: Path, index: int) -> Path:
    return folder / "saves" / f"game-{index:04d}.json"


def save_files(
    records: Sequence[GameRecord], folder: Path, scenario: Path
) -> list[tuple[Path, dict[str, Any]]]:
    """(file, save) for each game that kept its save; the save names the scenario as
    every save does (`scenario_fields`: its absolute path, the bundled table's name, the
    path from the saves' folder) so `skirmish replay` finds it from anywhere."""
    out = []
    for r in records:
        if r.save is None:
            continue
        save = dict(r.save)
        save.update(scenario_fields(scenario.resolve(), folder / "saves"))
        out.append((save_name(folder, r.index), save))
    return out


def write_folder(
    folder: Path,
    records: Sequence[GameRecord],
    sides: Sequence[str],
    summary: dict[str, Any],
    scenario: Path,
    names: Mapping[str, str] | None = None,
) -> list[Path]:
    """Write the batch's files into `folder` (`names`: what games.csv's sentences call
    the sides and models); returns what was written."""
    written = [folder / name for name in TABLES]
    write_bytes_atomic(written[0], games_csv(records, sides, names))
    write_bytes_atomic(written[1], casualties_csv(records))
    write_json_atomic(written[2], summary)
    for path, save in save_files(records, folder, scenario):
        write_json_atomic(path, save)
        written.append(path)
    return written
