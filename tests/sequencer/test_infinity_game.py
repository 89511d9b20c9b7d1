"""Whole Infinity games between automatic players: they end, and they replay exactly."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from game.ai.infinity import SimpleInfinityPlayer
from game.playtest.batch import play_out
from game.scenario import load_scenario
from game.sequencer.events import GameEnded, _plain
from game.sequencer.game import Game, decode_declarations
from game.sequencer.infinity_orders import Skill, SkillKind, _skill_dict
from game.sequencer.state import GameState
from tests.conftest import SCENARIOS

DEMO = SCENARIOS / "infinity-demo.toml"


def play(seed: int, limit: int = 2000, scenario: Path = DEMO) -> Game:
    game = Game(load_scenario(scenario), seed=seed)
    return play_out(game, SimpleInfinityPlayer(game.engine), limit)  # type: ignore[arg-type]


def no_model_in_two_places(state: GameState) -> bool:
    spots = [m.at for m in state.models if m.status != "dead"]
    return len(spots) == len(set(spots))


def test_demo_plays_to_a_victory_and_the_same_seed_gives_the_same_log() -> None:
    first = play(seed=2024)
    assert first.state.finished
    [ended] = [e for e in first.events if isinstance(e, GameEnded)]
    assert first.events[-1] == ended
    assert ended.winner == first.state.winner
    assert set(ended.scores) == {"blue", "red"}
    assert no_model_in_two_places(first.state)
    again = play(seed=2024)
    assert again.log() == first.log()
    other = play(seed=2025)
    assert other.log() != first.log()


def test_a_saved_game_replays_to_the_identical_log(tmp_path: Path) -> None:
    game = play(seed=77)
    path = tmp_path / "game.json"
    game.save(path)
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]  # no temporary left
    saved = json.loads(path.read_text())
    assert saved["seed"] == 77 and saved["ruleset"] == "infinity"
    declarations = decode_declarations(saved["declarations"])
    assert declarations == game.declarations
    replayed = Game.replay(load_scenario(saved["scenario"]), saved["seed"], declarations)
    assert replayed.log() == saved["events"]


def test_wounds_only_grow_and_the_dead_stay_dead() -> None:
    game = Game(load_scenario(DEMO), seed=5)
    player = SimpleInfinityPlayer(game.engine)  # type: ignore[arg-type]
    seen: dict[str, tuple[int, str]] = {}
    while not game.state.finished:
        game.declare(player.choose(game.state, game.awaiting()))
        for m in game.state.models:
            wounds, status = seen.get(m.id, (0, "normal"))
            assert m.wounds >= wounds
            if status == "dead":
                assert m.status == "dead"
            seen[m.id] = (m.wounds, m.status)


@pytest.mark.parametrize(
    "scenario", sorted(SCENARIOS.glob("infinity-*.toml")), ids=lambda p: p.stem
)
def test_every_infinity_table_plays_to_its_end(scenario: Path) -> None:
    game = play(seed=31, scenario=scenario)
    assert game.state.finished
    assert isinstance(game.events[-1], GameEnded)
    assert any(e.name == "Rolled" for e in game.events)  # somebody got to shoot
    assert no_model_in_two_places(game.state)


def test_a_declared_skill_reads_as_its_json_form_without_empty_fields() -> None:
    # the Declared event's skill: what events._plain makes of it, empty fields left out
    # (worked out field by field for speed; the same dict, keys in the same order)
    skills = [
        Skill.move((1.0, 2.5), (3, 4.1234567891), facing=-0.0),
        Skill.move((1, 2)),
        Skill.attack("hmg", ("a", 3), ("b", 1), origin=(2.0, 3.0)),
        Skill.speculative_attack("gl", "t", (1.5, 2)),
        Skill.dodge(),
        Skill.idle().failing_guts(),
        Skill.attack("x", ("a", 1)).failing_guts(False),
        Skill(SkillKind.ATTACK, weapon="", allies_hit=("q", "r"), facing=0.0),
    ]
    for skill in skills:
        body = _plain(skill)
        expected = {k: v for k, v in body.items() if v not in ((), None, [])}
        assert repr(_skill_dict(skill)) == repr(expected)
