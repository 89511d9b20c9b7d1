"""Where a model was taken out and where the shot came from, read from the event log."""

from __future__ import annotations

import csv
import json
from dataclasses import dataclass
from pathlib import Path

import pytest

from game.cli import main
from game.paths import scenario_path
from game.playtest.record import Casualty, casualties
from game.scenario import load_scenario
from game.sequencer.events import Hit, Missed, Moved, StateChanged, TurnStarted
from game.sequencer.game import Game
from tests.playtest.conftest import Write


@dataclass(frozen=True, slots=True)
class VolleyAt:  # a unit-on-unit shot, as a rule system that fires by unit writes it
    attacker: str
    target: str
    damage: int

    name = "VolleyAt"


def test_a_shot_after_a_move_comes_from_where_the_shooter_stood(small: Path) -> None:
    setup = load_scenario(small)
    start = Game(setup, 1).state
    events = [
        TurnStarted(1, "blue"),
        Moved("b1", ((3.0, 14.0), (5.0, 11.0)), 3.6),
        Missed("r1", "b1", "Combi Rifle", "failed"),  # a miss is no shooter
        Hit("b1", "r1", "Combi Rifle"),
        StateChanged("r1", "normal", "unconscious"),
        TurnStarted(2, "red"),
        StateChanged("r1", "unconscious", "dead"),  # already out: not counted again
        StateChanged("b2", "normal", "dead"),  # nothing hit it: no shooter
    ]
    found = casualties(setup, start, events)  # type: ignore[arg-type]
    assert found == [
        Casualty("r1", "red", 1, (4.0, 2.0), "b1", (5.0, 11.0)),
        Casualty("b2", "blue", 2, (12.0, 14.0), None, None),
    ]


def test_a_unit_volley_comes_from_the_centre_of_the_units_standing_models(
    write_scenario: Write, small: Path
) -> None:
    text = small.read_text(encoding="utf-8")
    for model in ("b1", "b2"):
        text = text.replace(f'id = "{model}"\n', f'id = "{model}"\nunit = "team-b"\n')
    text = text.replace('id = "r1"\n', 'id = "r1"\nunit = "team-r"\n')
    setup = load_scenario(write_scenario(text, name="units.toml", header=False))
    start = Game(setup, 1).state
    events = [
        VolleyAt("team-b", "team-r", 0),  # no damage: not the shot
        StateChanged("b2", "normal", "dead"),
        VolleyAt("team-b", "team-r", 2),  # b2 is down: from b1 alone
        StateChanged("r1", "normal", "dead"),
    ]
    found = casualties(setup, start, events)  # type: ignore[arg-type]
    assert found[1] == Casualty("r1", "red", 1, (4.0, 2.0), "team-b", (3.0, 14.0))


def test_a_fighter_that_recovers_is_not_taken_out_and_a_second_fall_counts(
    small: Path,
) -> None:
    """tester7's finding 10: casualties kept a fighter that fell and recovered (the heat
    map and casualties.csv counted 143 where games.csv lost 133) and, never clearing it,
    missed its second fall. A casualty is a model still out at the end, where and when
    it fell last, by the last shot before that fall."""
    setup = load_scenario(small)
    start = Game(setup, 1).state
    events = [
        TurnStarted(1, "blue"),
        Hit("b1", "r1", "Combi Rifle"),
        StateChanged("r1", "normal", "unconscious"),
        Hit("r1", "b2", "Combi Rifle"),
        StateChanged("b2", "normal", "unconscious"),
        TurnStarted(2, "red"),
        StateChanged("b2", "unconscious", "normal"),  # back in the fight: not a casualty
        StateChanged("r1", "unconscious", "normal"),
        Moved("r1", ((4.0, 2.0), (6.0, 3.0)), 2.2),
        Hit("b2", "r1", "Combi Rifle"),
        StateChanged("r1", "normal", "dead"),  # its second fall, the one that counts
    ]
    found = casualties(setup, start, events)  # type: ignore[arg-type]
    assert found == [Casualty("r1", "red", 2, (6.0, 3.0), "b2", (12.0, 14.0))]


def test_open_rebellion_objectives_are_held_by_nobody_as_they_decide_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """tester13: games.csv said `objectives_partisans = crossroads` and summary.json
    `objectives_held: 3` while validate and the window say Open Rebellion's objectives
    decide nothing. Where the rules score none, none is held (the columns are kept)."""
    table = tmp_path / "or-objective.toml"
    text = scenario_path("open-rebellion-demo").read_text(encoding="utf-8")
    # under the rebels' officer, wide enough to hold whatever the game does
    objective = '\n[[objective]]\nid = "well-head"\nat = [12, 21]\nradius = 12\n'
    table.write_text(text + objective, encoding="utf-8")
    out = tmp_path / "out"
    assert main(["playtest", str(table), "--games", "2", "--json", "--out", str(out)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert [s["objectives_held"] for s in report["sides"].values()] == [0, 0]
    with (out / "games.csv").open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert rows and all(r["objectives_rebels"] == r["objectives_government"] == "" for r in rows)
