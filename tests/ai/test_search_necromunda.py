"""The Necromunda search player's evaluation and its control variate: what a gang can
expect to keep in the fight to the end (bottle tests, Cool tests, recovery), and a
shot's sampled result taken off against its exact odds."""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from game.ai.necromunda import CarefulNecromundaPlayer, attack_outcome
from game.ai.necromunda_search import SearchNecromundaPlayer
from game.playtest.batch import BySide, play_out, seeds_for
from game.rules.necromunda.odds import hit_chance
from game.scenario import load_scenario
from game.sequencer.game import Game
from game.sequencer.necromunda import NecromundaEngine
from game.sequencer.necromunda_fire import heading
from game.sequencer.necromunda_types import (
    OUT_OF_ACTION,
    PINNED,
    READY,
    SERIOUSLY_INJURED,
    STANDING,
    Act,
    Action,
    ActionKind,
    NecromundaState,
    out_of_ammo_flag,
)
from game.sequencer.sight import Cover
from tests.conftest import SCENARIOS

DEMO = SCENARIOS / "necromunda-demo.toml"


def demo(seed: int = 7) -> tuple[Game, NecromundaEngine, SearchNecromundaPlayer]:
    game = Game(load_scenario(DEMO), seed)
    engine = game.engine
    assert isinstance(engine, NecromundaEngine)
    player = SearchNecromundaPlayer(engine, budget=60, seed=1)
    return game, engine, player


def cool(cl: int) -> float:
    """Necromunda: a Cool test passes on 2D6 >= Cl (a 2 always fails)."""
    return sum(1 for a in range(1, 7) for b in range(1, 7) if a + b >= cl and a + b > 2) / 36


def stays(bottle: float, passes: float, left: int, bottled: bool) -> float:
    """A fighter's odds of not fleeing over `left` End phases, phase by phase."""
    if left == 0:
        return 1.0
    if bottled:
        return passes * stays(bottle, passes, left - 1, True)
    return bottle * passes * stays(bottle, passes, left - 1, True) + (1 - bottle) * stays(
        bottle, passes, left - 1, False
    )


@pytest.mark.parametrize("down", [0, 1, 2, 3])
@pytest.mark.parametrize("left", [1, 2, 4])
def test_bottle_test_odds_of_a_fighter_staying_to_the_end(down: int, left: int) -> None:
    # FACTS 2.8: "Bottle test: D6 + fighters Seriously Injured or Out of Action >
    # starting crew; a bottled gang's fighters each take a Cool test or flee."
    game, engine, player = demo()
    state = game.state
    assert isinstance(state, NecromundaState)
    fallen = [m for m in state.side_models("orlock")][:down]
    for m in fallen:
        state = state.with_model(m.replace(status=OUT_OF_ACTION))
    crew = engine.crew["orlock"]
    bottle = 0.0 if not down else sum(1 for face in range(1, 7) if face + down > crew) / 6
    keep = player._staying(state, "orlock", left)
    for m in state.side_models("orlock")[down:]:
        passes = cool(engine.profiles[m.id].cl)
        assert keep(m) == pytest.approx(stays(bottle, passes, left, False), abs=1e-12)
    bottled = state.replace(bottled=frozenset({"orlock"}))
    for m in bottled.side_models("orlock")[down:]:
        passes = cool(engine.profiles[m.id].cl)
        assert player._staying(bottled, "orlock", left)(m) == pytest.approx(passes**left)


def test_bottle_odds_agree_with_the_engines_end_phase() -> None:
    """One End phase of the engine's own bottle test, many times: the share of games in
    which a fighter is still in the fight is the evaluation's, within 4 standard errors."""
    game, engine, player = demo()
    state = game.state
    assert isinstance(state, NecromundaState)
    first = state.side_models("orlock")[0]
    state = state.with_model(first.replace(status=SERIOUSLY_INJURED))
    rng = np.random.default_rng(20)
    n = 3000
    watched = state.side_models("orlock")[1:]
    kept = dict.fromkeys((m.id for m in watched), 0)
    for _ in range(n):
        after = engine._bottle(state, [], rng)
        for m in watched:
            kept[m.id] += after.model(m.id).status != OUT_OF_ACTION
    keep = player._staying(state, "orlock", 1)
    for m in watched:
        p = keep(m)
        se = math.sqrt(p * (1 - p) / n)
        assert abs(kept[m.id] / n - p) < 4 * se, (m.id, kept[m.id] / n, p)


def test_recovery_odds_of_a_seriously_injured_fighter() -> None:
    # FACTS 2.8 Recovery: an Injury die each End phase; a Flesh Wound puts the fighter
    # back (Pinned), Seriously Injured leaves it down, Out of Action removes it.
    _, engine, player = demo()
    faces = [f.value for f in engine.dice.injury]
    back, stay = faces.count("flesh wound") / 6, faces.count("seriously injured") / 6
    assert player._recovering(0) == 0.0
    assert player._recovering(1) == pytest.approx(back)
    assert player._recovering(3) == pytest.approx(back + stay * back + stay * stay * back)


@pytest.mark.parametrize(
    ("shooter", "weapon", "target"),
    [
        ("orlock-heavy", "Heavy stubber", "escher-ganger-2"),
        ("orlock-grenadier", "Grenade launcher (krak)", "escher-ganger-1"),
        # past a closer enemy (a Cool test, FACTS 2.3) that is also at risk of a stray
        # shot on a miss (seed 004): both are in the expectation
        ("orlock-grenadier", "Grenade launcher (krak)", "escher-leader"),
    ],
)
def test_a_shots_luck_averages_to_nothing(shooter: str, weapon: str, target: str) -> None:
    """The control variate: a shot's worth after sampled dice less its exact expectation
    (attack_outcome) averages to zero over many dice, within 4 standard errors; and it
    is what makes the shot's samples differ (the luck taken off, little is left)."""
    game, engine, player = demo()
    state = game.state
    m, t = state.model(shooter), state.model(target)
    shot = Act(shooter, Action.shoot(weapon, target), turn_to=round(heading(m.at, t.at), 6))
    if target == "escher-leader":
        turned = state.with_model(m.replace(facing=shot.turn_to))
        assert isinstance(turned, NecromundaState)
        closer = player._closer(turned, shooter, engine.weapon(shooter, weapon), target)
        assert closer == "escher-ganger-1" and closer in engine.at_risk(turned, shooter, target)
    lucks, worths = [], []
    for k in range(300):
        after, _ = engine.apply(state, shot, rng=np.random.default_rng(k))
        assert isinstance(after, NecromundaState)
        lucks.append(player.luck(state, shot, after, "orlock"))
        worths.append(player._material(after, "orlock"))
    luck, worth = np.array(lucks), np.array(worths)
    assert luck.std() > 10  # the dice do matter to this shot
    assert abs(luck.mean()) < 4 * luck.std() / math.sqrt(len(luck))
    assert (worth - luck).std() < 0.2 * worth.std()


# -- hand-made positions -------------------------------------------------------------

STREET = """
[scenario]
name = "Open street"
ruleset = "necromunda"
table = [24, 32]
turns = 4

[[side]]
id = "blue"
player = "ai"

[[side]]
id = "red"
player = "ai"

[[scenery]]
id = "block"
kind = "building"
polygon = [[3, 6], [6, 6], [6, 9], [3, 9]]

[[model]]
id = "leader"
side = "blue"
profile = "leader"
at = [9, 4.5]
facing = 90

[[model]]
id = "ganger"
side = "blue"
profile = "ganger"
at = [1, 23]
facing = 0

[[model]]
id = "heavy"
side = "red"
profile = "heavy"
at = [10, 30]
facing = -90
"""


def _street(
    write_scenario: Callable[..., Path], at: tuple[float, float], wounds: int
) -> tuple[Game, NecromundaEngine, NecromundaState]:
    """Blue's leader (pistol and grenades, out of reach of everything) starts its
    activation at `at`; red's heavy stubber watches the street from 25" away; a second
    blue ganger far off keeps the round going after red's reply."""
    game = Game(load_scenario(write_scenario(STREET, header=False)), 1)
    engine = game.engine
    assert isinstance(engine, NecromundaEngine)
    state = game.state
    assert isinstance(state, NecromundaState)
    leader = state.model("leader").replace(at=at, wounds=wounds)
    state = state.with_model(leader).replace(
        active="blue", activating="leader", actions_left=2, used=()
    )
    return game, engine, state


def _cover_after(engine: NecromundaEngine, state: NecromundaState, choice: object) -> Cover:
    """The cover the leader has from the heavy after `choice` (TOTAL: out of sight)."""
    after, _ = engine.apply(state, choice, rng=np.random.default_rng(0))  # type: ignore[arg-type]
    s = engine.sighting(after, "heavy", "leader")
    return s.cover if s.lof else Cover.TOTAL


def test_a_wounded_fighter_moves_into_cover_rather_than_along_the_line_of_fire(
    write_scenario: Callable[..., Path],
) -> None:
    """The leader, one of its two Wounds gone, stands in the open in the heavy
    stubber's line of fire, nothing in its own reach: the careful player's advance
    keeps it in the open; the search player moves it behind the block."""
    _, engine, state = _street(write_scenario, (9, 4.5), 1)
    assert engine.sighting(state, "heavy", "leader").cover is Cover.NONE
    awaiting = engine.awaiting(state)
    careful = CarefulNecromundaPlayer(engine).choose(state, awaiting)
    assert _cover_after(engine, state, careful) is Cover.NONE, "no longer tempts careful"
    choice = SearchNecromundaPlayer(engine, budget=150, seed=1).choose(state, awaiting)
    assert isinstance(choice, Act) and choice.action.kind is ActionKind.MOVE
    assert _cover_after(engine, state, choice) is not Cover.NONE, f"search chose {choice}"


def test_does_not_walk_into_fire_it_can_avoid(write_scenario: Callable[..., Path]) -> None:
    """The leader starts hidden behind the block: the careful player's advance takes it
    out into the heavy stubber's line of fire; the search player's action does not."""
    _, engine, state = _street(write_scenario, (4.5, 5.4), 0)
    assert not engine.sighting(state, "heavy", "leader").lof
    awaiting = engine.awaiting(state)
    careful = CarefulNecromundaPlayer(engine).choose(state, awaiting)
    assert _cover_after(engine, state, careful) is Cover.NONE, "no longer tempts careful"
    choice = SearchNecromundaPlayer(engine, budget=150, seed=1).choose(state, awaiting)
    assert _cover_after(engine, state, choice) is Cover.TOTAL, f"search chose {choice}"


# -- the judgement: the exchange of fire ------------------------------------------------

# the street's table, sides and block, with two fighters of its own
LAST_ROUND = (
    STREET[: STREET.index("[[model]]")]
    + """[[model]]
id = "ganger"
side = "blue"
profile = "ganger"
at = [6.8, 5.0]
facing = 90

[[model]]
id = "heavy"
side = "red"
profile = "heavy"
at = [10, 26]
facing = -90
"""
)


def _last_round(
    write_scenario: Callable[..., Path], **change: object
) -> tuple[NecromundaEngine, NecromundaState, SearchNecromundaPlayer]:
    """Round 4 of 4, blue's ganger activating beside the block; red's heavy stubber,
    still to activate, 20" off up the street in the open."""
    game = Game(load_scenario(write_scenario(LAST_ROUND, header=False)), 1)
    engine = game.engine
    assert isinstance(engine, NecromundaEngine)
    state = game.state
    assert isinstance(state, NecromundaState)
    state = state.replace(turn=4, active="blue", activating="ganger", actions_left=2, used=())
    state = state.replace(**change)
    player = SearchNecromundaPlayer(engine, think=0.5, seed=1)
    return engine, state, player


def test_the_last_round_a_fighter_shoots_then_gets_out_of_the_heavy_stubbers_fire(
    write_scenario: Callable[..., Path],
) -> None:
    """FACTS 2.8: the game ends at the turn limit on the points of fighters Standing or
    Pinned, and 2.3: a Prone fighter in cover cannot be targeted. The ganger's lasgun
    may pin the heavy (it could not then fire its Unwieldy stubber: Stand Up takes an
    action), but cannot take it out; the heavy has not activated. The careful player
    aims, shoots and stays in the stubber's line; the judged plan shoots unaimed and
    spends the second action getting out of its fire."""
    engine, state, player = _last_round(write_scenario)
    assert engine.sighting(state, "heavy", "ganger").lof
    awaiting = engine.awaiting(state)
    careful = CarefulNecromundaPlayer(engine).choose(state, awaiting)
    assert isinstance(careful, Act) and careful.action.kind is ActionKind.AIM
    first = player.choose(state, awaiting)
    assert isinstance(first, Act) and first.action.kind is ActionKind.SHOOT, first
    # the second action with the heavy unharmed (as after a miss)
    shot = state.replace(actions_left=1, used=(ActionKind.SHOOT.value,))
    second = player.choose(shot, engine.awaiting(shot))
    assert isinstance(second, Act), second
    after, _ = engine.apply(shot, second, rng=np.random.default_rng(0))
    assert isinstance(after, NecromundaState)
    s = engine.sighting(after, "heavy", "ganger")
    ganger = after.model("ganger")
    assert not s.lof or engine.hidden(after, ganger, s), f"search chose {second}"


def test_an_unwieldy_weapon_is_fired_not_aimed(write_scenario: Callable[..., Path]) -> None:
    """FACTS 2.9: Unwieldy makes Shoot a Double action, so an Aim first would leave the
    heavy stubber no action to fire with: the judged plan is the Shoot itself."""
    engine, state, player = _last_round(write_scenario, turn=1)
    heavy = state.model("heavy")
    state = state.replace(active="red", activating=None, actions_left=0)
    awaiting = engine.awaiting(state)
    assert awaiting.models == ("heavy",)
    choice = player.choose(state, awaiting)
    assert isinstance(choice, Act) and choice.model == heavy.id, choice
    assert choice.action.kind is ActionKind.SHOOT and choice.action.weapon == "Heavy stubber"


def test_judged_choices_are_legal_through_whole_games() -> None:
    """Four demo games, the judged search player on each side in turn against the
    careful player: every game ends and the engine takes every judged choice as it is
    (none falls back to the simple player's); the first seed played again gives the
    same game."""
    setup = load_scenario(DEMO)
    sides = [s.id for s in setup.sides]
    logs = []
    for index, seed in [*seeds_for(23, 4), seeds_for(23, 1)[0]]:
        game = Game(setup, seed)
        engine = game.engine
        assert isinstance(engine, NecromundaEngine)
        me = sides[index % 2]
        search = SearchNecromundaPlayer(engine, think=0.5, seed=index)
        players = {me: search, sides[1 - index % 2]: CarefulNecromundaPlayer(engine)}
        play_out(game, BySide(players), limit=2000)
        assert game.state.finished, f"game {index} did not end"
        assert search.refused == 0, f"game {index}: {search.refused} judged choices refused"
        logs.append(game.log())
    assert logs[-1] == logs[0]


def mirror_game() -> tuple[Game, NecromundaEngine, SearchNecromundaPlayer, CarefulNecromundaPlayer]:
    """A necromunda-mirror game (the fifth of seeds_for(101, 5)), the search player
    (seed 101) and the careful one for it."""
    game = Game(load_scenario(SCENARIOS / "necromunda-mirror.toml"), seeds_for(101, 5)[4][1])
    engine = game.engine
    assert isinstance(engine, NecromundaEngine)
    return (
        game,
        engine,
        SearchNecromundaPlayer(engine, think=0.5, seed=101),
        (CarefulNecromundaPlayer(engine)),
    )


def test_the_judges_sightings_stay_out_of_the_games_state() -> None:
    """The judge keeps its sightings by the two fighters' places only, so one worked out
    where a third fighter stood elsewhere must not become the game's own: the engine
    would resolve the real shot with that line and cover, and the save would not replay.
    Every sighting the game's state holds after a search decision is the one the rules
    give that state; and the game replays from its declarations (this mirror game,
    search against careful, did not: the judge's sighting was put in the state's)."""
    game, engine, search, careful = mirror_game()
    while not game.state.finished:
        state, awaiting = game.state, game.awaiting()
        player = search if awaiting.side == "orlock" else careful
        choice = player.choose(state, awaiting)
        if player is search:
            assert isinstance(state, NecromundaState)
            fresh = state.replace()  # the same position with nothing asked of it yet
            for (shooter, target), kept in state.asked().sightings.items():
                assert kept == engine.sighting(fresh, shooter, target), (shooter, target)
        game.declare(choice)
    again = Game.replay(game.setup, game.seed, game.declarations)
    assert again.log() == game.log()


CORNER = LAST_ROUND.replace("at = [6.8, 5.0]", "at = [4.5, 4.0]").replace(
    'id = "heavy"\nside = "red"\nprofile = "heavy"\nat = [10, 26]',
    'id = "shooter"\nside = "red"\nprofile = "ganger"\nat = [4.5, 14]',
)


@pytest.mark.parametrize("mobile", [0.0, 1.0])
def test_an_enemy_a_move_from_a_line_of_fire_threatens_with_the_shot_after_it(
    write_scenario: Callable[..., Path], mobile: float
) -> None:
    """Red's ganger has no line to blue's behind the block, but a Move of 5" (45 degrees
    off the way to it, FACTS 2.8: Move is a Simple action, then Shoot) opens one: its
    threat in the exchange is the exact worth of that unaimed shot (wound, save and
    injury odds, Seriously Injured by its odds of not recovering), or nothing when the
    weights leave moves out (`mobile` 0)."""
    game = Game(load_scenario(write_scenario(CORNER, header=False)), 1)
    engine = game.engine
    assert isinstance(engine, NecromundaEngine)
    state = game.state
    assert isinstance(state, NecromundaState)
    assert not engine.sighting(state, "shooter", "ganger").lof
    player = SearchNecromundaPlayer(engine, think=0.5, seed=1)
    player.weights.values["mobile"] = mobile
    player.weights.values["exchange_bottle"] = 0.0  # the gang's flight: the shot at hand only
    player.default_choice(state, engine.awaiting(state))
    red, blue = state.model("shooter"), state.model("ganger")
    expected = 0.0
    if mobile:
        recover = player._recovering(engine.turns - state.turn + 1)
        bs = engine.profiles[red.id].bs
        for p in player._advances(state, red):
            moved = state.with_model(red.replace(at=p))
            if not engine.sighting(moved, red.id, blue.id).lof:
                continue
            for weapon in engine.weapons_of(red.id):
                plan = engine.hit_plan(moved, red.id, weapon, target=blue.id)
                if plan.out_of_range or weapon.is_template:
                    continue
                chance = float(hit_chance(bs, bs - plan.need))
                _, si, ooa = attack_outcome(engine, weapon, blue, chance)
                worth = engine.points[blue.id] * (ooa + si * (1 - recover))
                expected = max(expected, worth)
        assert expected > 0, "no move opens a line: the position tests nothing"
    assert player._best(state, red) == pytest.approx(expected)


def test_a_fighter_out_of_ammo_reloads_then_shoots(write_scenario: Callable[..., Path]) -> None:
    """FACTS 2.6: Reload (Simple) is a new Ammo test, and a Plentiful weapon passes it.
    The last round: blue's ganger, its lasgun out of ammo, sees a red ganger in the open
    20" off (its stub gun is out of reach); the red ganger has activated, so it
    threatens nothing more. The judged plan reloads the lasgun and shoots it (the plans
    had no Reload: it walked off with no shot)."""
    scenario = LAST_ROUND.replace('id = "heavy"\nside = "red"\nprofile = "heavy"',
                                  'id = "heavy"\nside = "red"\nprofile = "ganger"')  # fmt: skip
    game = Game(load_scenario(write_scenario(scenario, header=False)), 1)
    engine = game.engine
    assert isinstance(engine, NecromundaEngine) and isinstance(game.state, NecromundaState)
    state = game.state.replace(turn=4, active="blue", activating="ganger", actions_left=2)
    ganger, red = state.model("ganger"), state.model("heavy")
    assert engine.weapons[red.id][0] == "Lasgun"
    state = state.with_model(ganger.replace(flags=ganger.flags | {out_of_ammo_flag("Lasgun")}))
    state = state.with_model(red.replace(flags=red.flags - {READY}))
    player = SearchNecromundaPlayer(engine, think=0.5, seed=1)
    first = player.choose(state, engine.awaiting(state))
    assert isinstance(first, Act) and first.action.kind is ActionKind.RELOAD, first
    assert first.action.weapon == "Lasgun"
    after, _ = engine.apply(state, first, rng=np.random.default_rng(0))
    assert isinstance(after, NecromundaState)
    assert out_of_ammo_flag("Lasgun") not in after.model("ganger").flags
    second = player.choose(after, engine.awaiting(after))
    assert isinstance(second, Act) and second.action.kind is ActionKind.SHOOT, second
    assert (second.action.weapon, second.action.target) == ("Lasgun", "heavy")


def test_a_shot_past_a_friend_counts_the_stray_it_may_take(
    write_scenario: Callable[..., Path],
) -> None:
    """Seed 004: a miss may hit a fighter within 1" of the firing line instead, on a D6
    of 1-3. Blue's ganger shoots its lasgun at the heavy 20" off, past a blue juve
    standing in the line: the shot's worth loses the juve's expected loss on a stray
    (miss, then 1-3), exact; with the juve stepped off the line, nothing."""
    scenario = LAST_ROUND + '\n[[model]]\nid = "juve"\nside = "blue"\nprofile = "juve"\n'
    scenario += "at = [8.4, 15.5]\nfacing = 90\n"
    game = Game(load_scenario(write_scenario(scenario, header=False)), 1)
    engine = game.engine
    assert isinstance(engine, NecromundaEngine) and isinstance(game.state, NecromundaState)
    state = game.state
    player = SearchNecromundaPlayer(engine, think=0.5, seed=1)
    ganger, heavy, juve = (state.model(f) for f in ("ganger", "heavy", "juve"))
    lasgun = engine.weapon("ganger", "Lasgun")
    assert engine.at_risk(state, "ganger", "heavy") == ["juve"]
    hit, _, _ = player._outcome(state, ganger, lasgun, heavy, False)
    assert 0 < hit < 1
    _, si, ooa = attack_outcome(engine, lasgun, juve, 1.0)
    stray = (1 - hit) * 0.5
    expected = -stray * player._loss(state, juve, si, ooa)
    assert expected < 0
    assert player._bystanders(state, ganger, lasgun, heavy, hit) == pytest.approx(expected)
    aside = state.with_model(juve.replace(at=(14.0, 15.5)))
    assert engine.at_risk(aside, "ganger", "heavy") == []
    fresh = SearchNecromundaPlayer(engine, think=0.5, seed=1)  # answers kept per decision
    assert fresh._bystanders(aside, ganger, lasgun, heavy, hit) == 0.0


def test_an_enemy_out_of_ammo_threatens_by_the_odds_of_reloading(
    write_scenario: Callable[..., Path],
) -> None:
    """FACTS 2.6: a weapon out of ammo fires again after a Reload that passes its Ammo
    test (the heavy stubber's 4+: one in two). Red's heavy, its stubber out of ammo,
    counts in the exchange of fire by those odds: halfway between the heavy unloaded
    and the heavy loaded (the careful player reloads; the judgement took it as unarmed)."""
    engine, state, _ = _last_round(write_scenario, turn=1)
    heavy = state.model("heavy")
    empty = state.with_model(heavy.replace(flags=heavy.flags | {out_of_ammo_flag("Heavy stubber")}))

    def exchange(at: NecromundaState, reload: float) -> float:
        player = SearchNecromundaPlayer(engine, think=0.5, seed=1)
        player.weights.values["exchange_reload"] = reload
        player.weights.values["exchange_deny"] = 0.0  # the shots the ganger may stop: apart
        return player._exchange(at, "blue")

    unloaded, loaded = exchange(empty, 0.0), exchange(state, 0.0)
    assert loaded < unloaded, "the loaded heavy threatens the ganger"
    assert exchange(empty, 1.0) == pytest.approx(unloaded + 0.5 * (loaded - unloaded))


def test_a_heavy_pinned_after_its_activation_has_no_stubber_shot_next_round(
    write_scenario: Callable[..., Path],
) -> None:
    """FACTS 2.8: a Pinned fighter spends an action to Stand Up, and 2.9: Unwieldy makes
    Shoot a Double action. Red's heavy, Pinned after it has activated, stands up at its
    next activation and has one action left: its heavy stubber cannot fire then, so its
    next round's threat in the exchange is its one unaimed shot of another weapon, no
    longer its stubber's (`pinned_later`)."""
    engine, state, _ = _last_round(write_scenario, turn=1)
    heavy = state.model("heavy")
    down = state.with_model(heavy.replace(status=PINNED, flags=heavy.flags - {READY}))

    def player(pinned_later: float) -> SearchNecromundaPlayer:
        p = SearchNecromundaPlayer(engine, think=0.5, seed=1)
        p.weights.values["pinned_later"] = pinned_later
        return p

    stood = down.with_model(heavy.replace(status=STANDING, flags=heavy.flags - {READY}))
    full = player(0)._best(stood, stood.model("heavy"))
    one = player(0)._shot_from(stood, stood.model("heavy"), False, one=True)
    assert full > one, "the stubber is the heavy's threat"
    risk = player(0).weights["exchange_risk"] * player(0).weights["exchange"]
    assert player(1)._exchange(down, "blue") == pytest.approx(
        player(0)._exchange(down, "blue") + risk * (full - one)
    )


PRIORITY = (
    STREET[: STREET.index("[[scenery]]")]
    + """[[scenery]]
id = "crates"
kind = "obstacle"
height = 0.6
polygon = [[10, 10.6], [14, 10.6], [14, 11.1], [10, 11.1]]

[[model]]
id = "ganger"
side = "blue"
profile = "ganger"
at = [12, 4]
facing = 90

[[model]]
id = "near"
side = "red"
profile = "ganger"
at = [12, 11.8]
facing = -90

[[model]]
id = "far"
side = "red"
profile = "ganger"
at = [17, 14]
facing = -90
"""
)


def test_target_priority_skips_a_closer_enemy_harder_to_hit(
    write_scenario: Callable[..., Path],
) -> None:
    """FACTS 2.3: the target must be the closest eligible enemy, but the shooter may
    skip a closer one that is harder to hit; otherwise a Cool test. Red's near ganger
    stands behind crates (partial cover), the far one in the open: the lasgun's shot at
    the far one needs no test and is worth its own odds; with the near one stepped out
    into the open it needs the test, and a failure sends the shot to the near one."""
    game = Game(load_scenario(write_scenario(PRIORITY, header=False)), 1)
    engine = game.engine
    assert isinstance(engine, NecromundaEngine) and isinstance(game.state, NecromundaState)
    state = game.state.replace(active="blue", activating="ganger", actions_left=2, used=())
    lasgun = engine.weapon("ganger", "Lasgun")

    def far_shot(at: NecromundaState) -> tuple[float, SearchNecromundaPlayer]:
        player = SearchNecromundaPlayer(engine, think=0.5, seed=1)
        shots = player._shots(at, at.model("ganger"), 2, aimed=False, turn=True)
        return next(v for a, _, v in shots if (a.weapon, a.target) == ("Lasgun", "far")), player

    assert engine.sighting(state, "ganger", "near").cover is Cover.PARTIAL
    assert engine.sighting(state, "ganger", "far").cover is Cover.NONE
    value, player = far_shot(state)
    assert value == pytest.approx(
        player._shot_worth(state, state.model("ganger"), lasgun, "far", False)
    )
    out = state.with_model(state.model("near").replace(at=(12.0, 9.0)))
    assert engine.sighting(out, "ganger", "near").cover is Cover.NONE
    value, player = far_shot(out)
    ganger, cool = out.model("ganger"), player._cool(out.model("ganger"))
    assert 0 < cool < 1
    expected = cool * player._shot_worth(out, ganger, lasgun, "far", False)
    expected += (1 - cool) * player._shot_worth(out, ganger, lasgun, "near", False)
    assert value == pytest.approx(expected)


def test_not_ahead_in_the_last_round_a_fighter_comes_out_to_shoot(
    write_scenario: Callable[..., Path],
) -> None:
    """FACTS 2.8: at the turn limit the gang with more points of fighters in the fight
    wins. Round 4 of 4: blue's ganger (50 points) hides behind the block from red's
    heavy (150), which has not activated. Hidden, blue loses for certain; without
    `press` the judged plan ends the activation out of sight. With it (the weights as
    they are) the ganger moves out into the heavy's line and then shoots it: its only
    way to change the result is worth the stubber's reply. Ahead on points, or before
    the last rounds, the enemy's side counts in full."""
    engine, state, player = _last_round(write_scenario)
    state = state.with_model(state.model("ganger").replace(at=(4.5, 5.4)))
    assert not engine.sighting(state, "heavy", "ganger").lof
    awaiting = engine.awaiting(state)
    assert player.weights["press"] > 0
    assert player._pressing(state, "blue") == pytest.approx(1 - player.weights["press"])
    move = player.choose(state, awaiting)
    assert isinstance(move, Act) and move.action.kind is ActionKind.MOVE, move
    after, _ = engine.apply(state, move, rng=np.random.default_rng(0))
    assert isinstance(after, NecromundaState)
    assert engine.sighting(after, "heavy", "ganger").lof
    shot = player.choose(after, engine.awaiting(after))
    assert isinstance(shot, Act) and shot.action.kind is ActionKind.SHOOT, shot
    assert shot.action.target == "heavy"

    player.weights.values["press"] = 0.0
    stay = player.choose(state, awaiting)
    assert not isinstance(stay, Act) or stay.action.kind is not ActionKind.MOVE, stay
    player.weights.values["press"] = 0.7
    ahead = state.with_model(state.model("heavy").replace(status=SERIOUSLY_INJURED))
    assert player._pressing(ahead, "blue") == 1.0
    player.weights.values["press_rounds"] = 1  # the last round only
    assert player._pressing(state, "blue") == pytest.approx(0.3)
    assert player._pressing(state.replace(turn=3), "blue") == 1.0
