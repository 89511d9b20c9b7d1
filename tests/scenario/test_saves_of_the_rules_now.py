"""A save of each rule system's rules as they are replays exactly: `replay --check`
passes it. A change that makes the same seed and declarations give other events without
raising the system's `rules_version` fails here (README, "Test": what to do then).

Each fixture, `saves/SYSTEM-rules-N.json` (N the system's rules_version when it was
made), is a whole game of the system's bundled demo between the careful players, made
by `skirmish playtest SYSTEM-rules-N.toml --games 1 --workers 1 --ai careful --seed 9
--out DIR --save-games 1` from a copy of `scenarios/SYSTEM-demo.toml` of that name, its
`scenario` then set to the file's name alone and `scenario_relative` taken out: the
check reads the copy of the table the save carries, so an edit of the demo's table does
not fail it (session 9: none existed, only saves from before saves recorded a version)."""

from __future__ import annotations

import json

import pytest

from game.rules.registry import RULESETS
from game.scenario.saves import read_save
from tests.scenario.test_saves import FIXTURES, run

SYSTEMS = [name for name, rules in RULESETS.items() if rules.plays]


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_save_of_the_rules_as_they_are_replays_exactly(
    system: str, capsys: pytest.CaptureFixture[str]
) -> None:
    rules = RULESETS[system]
    save = FIXTURES / f"{system}-rules-{rules.rules_version}.json"
    assert save.is_file(), f"no save of {rules.title}'s rules version {rules.rules_version}"
    saved = read_save(save)
    assert saved.rules_version == rules.rules_version and not saved.on_disk
    assert json.loads(save.read_text())["events"][-1]["event"] == "GameEnded"  # a whole game
    code, out, err = run(capsys, "replay", str(save), "--check")
    assert code == 0, err
    assert out.endswith(
        "check: the event log matches (the scenario file is not here: the save's copy)\n"
    )
    # a save of an earlier version, kept when the version was raised, still opens
    for older in sorted(FIXTURES.glob(f"{system}-rules-*.json")):
        if older != save:
            assert read_save(older).rules_version < rules.rules_version, older
            assert run(capsys, "replay", str(older))[0] == 0, older
