"""One side, one Lieutenant (Infinity, FACTS 3.4) and one gang, one Leader (Necromunda:
the reading the README chooses; FACTS 2.8 leaves a gang's make-up open). tester13's
finding 9: `validate` said "ok" of two Lieutenants on one side, though the engine gives
a side one Lieutenant Order however many it has; finding 18: the editor placed a second
Necromunda Leader, which the engine lets lead a second group activation. `validate`
refuses a second one at its line (exit 2); a file written before is played as it was
(nothing accepted before is refused by a game), and the editor never makes one."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from game.cli import main
from game.scenario import load_scenario
from game.scenario.editing import Editing, EditRefused, add_model, duplicate_model, set_model
from tests.conftest import SCENARIOS, field_line

Write = Callable[..., Path]
TWO_LIEUTENANTS = """
[[model]]
id = "c"
side = "blue"
profile = "fusilier"
at = [10, 10]
lieutenant = true

[[model]]
id = "d"
side = "blue"
profile = "fusilier"
at = [12, 10]
lieutenant = true

[[model]]
id = "a"
side = "red"
profile = "zhanshi"
at = [20, 20]
lieutenant = true
"""


def test_validate_refuses_a_second_lieutenant_of_a_side(
    write_scenario: Write, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_scenario(TWO_LIEUTENANTS)
    assert main(["validate", str(path)]) == 2
    out, err = capsys.readouterr()
    header = path.read_text(encoding="utf-8").splitlines().index('id = "d"')  # 0-based
    line = field_line(path, header, "lieutenant")
    assert out == ""
    assert err.splitlines() == [
        f"skirmish: {path}:{line}: model 'd': lieutenant = true, but side 'blue' has its "
        "Lieutenant already (model 'c'): a side has one Lieutenant"
    ]
    # one a side is the rule: each side's own validates
    one_each = TWO_LIEUTENANTS.replace("at = [12, 10]\nlieutenant = true", "at = [12, 10]")
    path = write_scenario(one_each)
    assert main(["validate", str(path)]) == 0, capsys.readouterr().err


def test_a_file_with_two_lieutenants_is_played_as_before(write_scenario: Write) -> None:
    """A file that had two is still a game (the README never promised the refusal): the
    side gets one Lieutenant Order, either of them may spend it, as before."""
    import numpy as np

    from game.sequencer.events import TurnStarted
    from game.sequencer.infinity import InfinityEngine

    path = write_scenario(TWO_LIEUTENANTS)
    scenario = load_scenario(path)
    assert [m.id for m in scenario.models if m.lieutenant] == ["c", "d", "a"]
    _, events = InfinityEngine(scenario).start(rng=np.random.default_rng(0))
    # blue acts first: two troopers' Orders and one Lieutenant Order, not two
    assert events == [TurnStarted(1, "blue", 3)]
    editing = Editing.open(path)
    assert [p.place for p in editing.scenario.advice] == ["model 'd'"]


NECROMUNDA = (SCENARIOS / "necromunda-demo.toml").read_text(encoding="utf-8")


def _leaders(scenario_text: str) -> list[tuple[str, str]]:
    import tomllib

    data = tomllib.loads(scenario_text)
    return [(m["side"], m["id"]) for m in data["model"] if m["profile"] == "leader"]


def test_validate_refuses_a_second_leader_of_a_gang(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (side, chief), _ = _leaders(NECROMUNDA)
    second = f'\n[[model]]\nid = "second-leader"\nside = "{side}"\nprofile = "leader"\n'
    path = tmp_path / "two-leaders.toml"
    path.write_text(NECROMUNDA + second + "at = [12, 1]\n", encoding="utf-8")
    assert main(["validate", str(path)]) == 2
    _, err = capsys.readouterr()
    line = path.read_text(encoding="utf-8").splitlines().index('id = "second-leader"')
    assert err.splitlines() == [
        f"skirmish: {path}:{line}: model 'second-leader': a second Leader of side "
        f"'{side}' (its Leader: model '{chief}'): a gang has one Leader"
    ]
    assert len(load_scenario(path).models) == NECROMUNDA.count("[[model]]") + 1


def test_the_editor_never_makes_a_second_chief(tmp_path: Path) -> None:
    path = tmp_path / "necromunda.toml"
    path.write_text(NECROMUNDA, encoding="utf-8")
    editing = Editing.open(path)
    (side, chief), (_, other) = _leaders(NECROMUNDA)
    with pytest.raises(EditRefused, match="a gang has one Leader"):
        editing.apply(add_model("leader", (12.0, 1.0), side))
    with pytest.raises(EditRefused, match="a gang has one Leader"):
        editing.apply(set_model(other, side=side))  # a Leader changing gangs
    with pytest.raises(EditRefused, match="a gang has one Leader"):
        editing.apply(duplicate_model(chief, (1.5, 0.0)))
    assert editing.doc.models == Editing.open(path).doc.models
    # Infinity: Ctrl+D of the Lieutenant copies the trooper, not the Lieutenancy
    infinity = Editing.open(SCENARIOS / "infinity-demo.toml")
    lieutenant = next(m for m in infinity.doc.models if m.lieutenant)
    infinity.apply(duplicate_model(lieutenant.id, (0.0, 1.5)))
    copy = infinity.doc.models[-1]
    assert copy.profile == lieutenant.profile and not copy.lieutenant
    assert infinity.scenario.advice == ()
