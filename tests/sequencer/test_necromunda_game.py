"""Whole Necromunda games between automatic players: they end, and they replay exactly."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from game.ai.necromunda import SimpleNecromundaPlayer
from game.playtest.batch import play_out
from game.scenario import load_scenario
from game.sequencer.events import GameEnded
from game.sequencer.game import Game, decode_declarations
from game.sequencer.state import GameState
from tests.conftest import SCENARIOS

DEMO = SCENARIOS / "necromunda-demo.toml"


def play(seed: int, scenario: Path = DEMO, limit: int = 3000) -> Game:
    game = Game(load_scenario(scenario), seed=seed)
    return play_out(game, SimpleNecromundaPlayer(game.engine), limit)  # type: ignore[arg-type]


def no_fighter_in_two_places(state: GameState) -> bool:
    spots = [m.at for m in state.models if m.status != "out-of-action"]
    return len(spots) == len(set(spots))


def test_the_demo_plays_to_its_end_and_the_same_seed_gives_the_same_log() -> None:
    first = play(seed=2024)
    assert first.state.finished
    [ended] = [e for e in first.events if isinstance(e, GameEnded)]
    assert first.events[-1] == ended
    assert ended.winner == first.state.winner
    assert set(ended.scores) == {"orlock", "escher"}
    assert no_fighter_in_two_places(first.state)
    again = play(seed=2024)
    assert again.log() == first.log()
    assert play(seed=2025).log() != first.log()


def test_a_saved_game_replays_to_the_identical_log(tmp_path: Path) -> None:
    game = play(seed=77)
    path = tmp_path / "game.json"
    game.save(path)
    saved = json.loads(path.read_text())
    assert saved["ruleset"] == "necromunda"
    declarations = decode_declarations(saved["declarations"])
    assert declarations == game.declarations
    replayed = Game.replay(load_scenario(saved["scenario"]), saved["seed"], declarations)
    assert replayed.log() == saved["events"]


@pytest.mark.parametrize(
    "scenario", sorted(SCENARIOS.glob("necromunda-*.toml")), ids=lambda p: p.stem
)
def test_every_necromunda_table_plays_to_its_end(scenario: Path) -> None:
    game = play(seed=31, scenario=scenario)
    assert game.state.finished
    assert isinstance(game.events[-1], GameEnded)
    assert any(e.name == "Hit" for e in game.events)
    assert no_fighter_in_two_places(game.state)


def test_the_alley_has_stray_shots_and_the_bombardment_has_blasts() -> None:
    names: dict[str, set[str]] = {}
    for stem in ("alley", "bombardment"):
        seen: set[str] = set()
        for seed in range(8):  # a blast scatters on the bombardment in seed 6
            seen |= {e.name for e in play(seed, SCENARIOS / f"necromunda-{stem}.toml").events}
        names[stem] = seen
    assert "StrayChecked" in names["alley"]
    assert {"BlastPlaced", "Scattered"} <= names["bombardment"]


def test_statuses_only_move_the_right_way() -> None:
    """Out of action is for good; wounds lost only grow."""
    game = play(seed=5)
    seen: dict[str, tuple[int, str]] = {}
    replay = Game(load_scenario(DEMO), seed=5)
    for d in game.declarations:
        replay.declare(d)
        for m in replay.state.models:
            wounds, status = seen.get(m.id, (0, "standing"))
            assert m.wounds >= wounds
            if status == "out-of-action":
                assert m.status == "out-of-action"
            seen[m.id] = (m.wounds, m.status)


def test_games_sharing_a_tables_answers_play_as_each_would_alone() -> None:
    """The games of a playtest share one sight of the table: the third game's log is the
    one it gives alone (every shared answer is keyed by what it depends on)."""
    from game.sequencer.table_sight import forget_shared

    forget_shared()
    alone = play(3)
    forget_shared()
    first = play(1)
    play(2)
    third = play(3)
    forget_shared()
    assert third.engine.sight is first.engine.sight  # type: ignore[attr-defined]
    assert third.log() == alone.log()


def test_an_acts_dict_is_the_declarations_own_to_the_last_key() -> None:
    """`Act.to_dict` (made field by field, for speed) writes what the generic
    `Declaration.to_dict` writes, keys in the same order: for every declaration of a
    seeded game and for actions with every field set."""
    from game.sequencer.declarations import Declaration
    from game.sequencer.necromunda_types import Act, Action

    made = [d for d in play(seed=7).declarations if isinstance(d, Act)]
    made += [
        Act("a", Action.shoot("gun", "b", twin="pistol", extra=("c", "d")), turn_to=12.5),
        Act("a", Action.shoot("launcher", at=(3.0, 4), extra_at=((1.5, 2.0), (2, 3)))),
        Act("a", Action.flame("flamer", 90.0, ("b", "c"), blind=True)),
        Act("a", Action.move((1.0, 2.0), (3.5, 4.25), facing=-45.0)),
    ]
    kinds = set()
    for act in made:
        assert json.dumps(act.to_dict()) == json.dumps(Declaration.to_dict(act))
        kinds.add(act.action.kind)
    assert len(kinds) >= 5
