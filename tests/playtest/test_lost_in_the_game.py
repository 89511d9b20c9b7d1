"""`playtest`'s count of models lost is of those lost in the game (tester16 finding 6:
with a fighter a side starting Out of Action, "models lost (mean)" said 1.80 for House
Escher where the sentences counted "8 models taken out in 10 games": the 10 who started
down were counted too). One count everywhere: the console's table, summary.json,
games.csv, the report's table and pictures; Necromunda's word, "fighters"; the table's
picture said to be the table as the games start (tester16, could be better 7)."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import pytest

from game.cli import main
from tests.conftest import REPO

TABLE = REPO / "tests" / "tables" / "necromunda-out-of-action.toml"


def test_playtest_counts_only_fighters_lost_in_the_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out, report = tmp_path / "out", tmp_path / "report.html"
    argv = ["playtest", str(TABLE), "--games", "4", "--out", str(out), "--report", str(report)]
    assert main(argv) == 0
    said = capsys.readouterr().out
    # the sentences' count of those taken out, side by side with the table's mean
    taken = {
        side: int(n)
        for side, n in re.findall(r"(House \w+) had (\d+) fighters? taken out in 4 games", said)
    }
    assert taken  # the sentences name at least one side's losses
    rows = list(csv.DictReader((out / "games.csv").open(encoding="utf-8")))
    assert len(rows) == 4
    lost = {"House Escher": "lost_escher", "House Orlock": "lost_orlock"}
    for side, column in lost.items():
        # one fighter a side starts Out of Action: never counted as lost in the game
        assert sum(int(r[column]) for r in rows) == taken.get(side, 0), side
        assert all(int(r[column]) <= 3 for r in rows)  # 4 fighters, one down at the start
    document = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    for side, row in document["sides"].items():
        assert row["mean_down"] == pytest.approx(taken.get(f"House {side.title()}", 0) / 4)
    assert "fighters lost (mean)" in said and "models lost" not in said
    page = report.read_text(encoding="utf-8")
    assert "fighters lost (mean)" in page and "models lost" not in page
    assert "<figcaption>The table as the games start</figcaption>" in page
    assert "Where fighters were taken out" in page
