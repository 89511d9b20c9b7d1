"""The Necromunda players' yardstick (`attack_outcome`, also the window's hover) agrees
with the engine: every die of one attack is enumerated through the engine's own
resolution, and the chances of Seriously Injured and Out of Action it gives are the
ones the players weigh, on small hand-made positions."""

from __future__ import annotations

from typing import Any

import pytest

from game.ai.necromunda import attack_outcome, template_outcome
from game.rules.necromunda.odds import hit_chance
from game.sequencer.necromunda import Act, Action, NecromundaEngine, NecromundaState
from game.sequencer.necromunda_types import OUT_OF_ACTION, SERIOUSLY_INJURED
from tests.sequencer.necromunda_tables import (
    ScriptedNecromunda,
    Write,
    necromunda_table,
    shooting_game,
    wall,
)

FIGHTERS = [
    ("burner", "goliath", "champion-flamer", (4.0, 12.0), 0.0),
    ("gunner", "goliath", "ganger", (4.0, 16.0), 0.0),
    ("foe", "escher", "ganger", (8.0, 12.0), 180.0),
]
# a wall hiding the upper half of the foe: partial cover from the burner, and the
# template still reaches the foe past its end
HALF_WALL = wall("half", 7.0, 12.0, 7.2, 14.0, height=1.0)


class _NoMoreDice(Exception):
    pass


class _Prefix(ScriptedNecromunda):
    """The scripted dice, then a signal that the engine asked for one more."""

    def integers(self, low: int, high: int, size: Any = None) -> Any:
        if self.position >= len(self.faces):
            raise _NoMoreDice
        return super().integers(low, high, size)


def engine_odds(
    engine: NecromundaEngine, state: NecromundaState, act: Act, victim: str
) -> tuple[float, float]:
    """(P Seriously Injured, P Out of Action) of `victim` after `act`, from every
    sequence of D6s the engine asks for, each weighted (1/6)^n."""
    si = ooa = 0.0
    todo: list[tuple[int, ...]] = [()]
    while todo:
        faces = todo.pop()
        try:
            after, _ = engine.apply(state, act, rng=_Prefix(*faces))  # type: ignore[arg-type]
        except _NoMoreDice:
            todo += [(*faces, f) for f in range(1, 7)]
            continue
        status = after.model(victim).status
        si += 6.0 ** -len(faces) * (status == SERIOUSLY_INJURED)
        ooa += 6.0 ** -len(faces) * (status == OUT_OF_ACTION)
    return si, ooa


@pytest.fixture
def write(write_scenario: Write) -> Write:
    return write_scenario


def _game(
    write: Write, shooter: str, scenery: str = ""
) -> tuple[NecromundaEngine, NecromundaState]:
    game, state = shooting_game(necromunda_table(write, FIGHTERS, scenery=scenery), shooter)
    assert isinstance(game.engine, NecromundaEngine)
    return game.engine, state


@pytest.mark.parametrize("scenery", ["", HALF_WALL], ids=["open", "partial-cover"])
def test_template_odds_use_flak_5_against_templates_and_cover_from_the_firer(
    write: Write, scenery: str
) -> None:
    # FACTS 2.5 [S]: "Flak | 6+ | 5+ against Blast/Flame template"; cover bonus to saves
    # (Blast/Template only) "judged from ... the attacker (templates)". A Flamer (S4 AP-1)
    # on a Flak ganger: 6+ would be no save; 5+ AP-1 is 6+ (5+ with partial cover)
    engine, state = _game(write, "burner", scenery)
    flamer = engine.weapon("burner", "Flamer")
    foe = state.model("foe")
    si, ooa = engine_odds(engine, state, Act("burner", Action.flame("Flamer", 0.0)), "foe")
    assert engine.sighting(state, "burner", "foe").cover.value == ("partial" if scenery else "none")
    hit, ai_si, ai_ooa = template_outcome(engine, state, "burner", flamer, foe)
    assert hit == 1.0
    assert (ai_si, ai_ooa) == pytest.approx((si, ooa), abs=1e-12)
    # the bare yardstick (no cover bonus) already takes Flak's 5+ in the open
    if not scenery:
        assert attack_outcome(engine, flamer, foe, 1.0)[1:] == pytest.approx((si, ooa))


def test_direct_shot_odds_keep_flak_6_and_agree_with_the_engine(write: Write) -> None:
    # FACTS 2.5: Flak's 5+ is only against blasts and templates; a Lasgun meets 6+
    engine, state = _game(write, "gunner")
    lasgun = engine.weapon("gunner", "Lasgun")
    plan = engine.hit_plan(state, "gunner", lasgun, target="foe")
    bs = engine.profiles["gunner"].bs
    chance = float(hit_chance(bs, bs - plan.need))
    act = Act("gunner", Action.shoot("Lasgun", "foe"))
    si, ooa = engine_odds(engine, state, act, "foe")
    _, ai_si, ai_ooa = attack_outcome(engine, lasgun, state.model("foe"), chance)
    assert (ai_si, ai_ooa) == pytest.approx((si, ooa), abs=1e-12)


def test_shoot_gives_a_templates_exact_odds_and_the_trials_agree(
    write: Write, capsys: pytest.CaptureFixture[str]
) -> None:
    """skirmish shoot said a template's odds were not exact (Flak 5+ and the cover from
    the firer were not in them): now each fighter under it has `template_outcome`'s, and
    4,000 trials agree within 4 standard errors."""
    import json
    import math

    from game.cli import main

    path = necromunda_table(write, FIGHTERS, scenery=HALF_WALL)
    argv = ["shoot", str(path), "--attacker", "burner", "--target", "foe", "--weapon", "Flamer"]
    assert main([*argv, "--trials", "4000", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    engine, state = _game(write, "burner", HALF_WALL)
    flamer = engine.weapon("burner", "Flamer")
    burner = state.model("burner")
    turned = state.with_model(burner.replace(facing=0.0))
    want = template_outcome(engine, turned, "burner", flamer, turned.model("foe"))
    exact = report["exact"]["foe"]
    assert [exact[k] for k in ("hit", "seriously_injured", "out_of_action")] == pytest.approx(want)
    for key, p in exact.items():
        seen = report["models"]["foe"][key]
        assert abs(seen - p) <= 4 * math.sqrt(p * (1 - p) / 4000) + 1e-12, (key, seen, p)
