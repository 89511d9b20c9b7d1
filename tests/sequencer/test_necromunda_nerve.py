"""Necromunda Nerve tests, Broken, Running for Cover and Rally (FACTS 2.4, 2.8) with
scripted dice. Dice after the shot: each Nerve test is 2D6, in the order the fighters
stand in the scenario; Running for Cover rolls 2D6 for its distance."""

from __future__ import annotations

from typing import Any

import pytest

from game.errors import IllegalDeclaration
from game.scenario import load_scenario
from game.sequencer.events import Event, Modifier, Moved, Rolled
from game.sequencer.game import Game
from game.sequencer.necromunda import Act, Action, NecromundaEngine
from game.sequencer.necromunda_types import (
    BROKEN,
    BrokenChanged,
    EndActivation,
    NecromundaState,
    RanForCover,
)
from tests.sequencer.necromunda_tables import (
    ScriptedNecromunda,
    Write,
    necromunda_table,
    shooting_game,
    wall,
)

FIGHTERS = [
    ("shooter", "goliath", "ganger", (4.0, 12.0), 0.0),
    ("target", "escher", "ganger", (16.0, 12.0), 180.0),
    ("buddy", "escher", "ganger", (16.0, 14.5), 180.0),  # 1.5" from the target
    ("steady", "escher", "ganger", (19.0, 16.0), 180.0),  # 2.4" from buddy, 4" from target
]
WALL = wall("wall", 12.0, 16.0, 12.5, 22.0)
# the shot: hit roll 6, Firepower 2 (one hole), wound 6, save 1, Injury 6 (Out of Action)
SHOT = (6, 2, 6, 1, 6)


def of(events: list[Event], kind: type[Any]) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


def broken_buddy(write_scenario: Write) -> tuple[Game, list[Event]]:
    path = necromunda_table(write_scenario, FIGHTERS, scenery=WALL)
    game, _ = shooting_game(path, "shooter")
    # buddy's Nerve test: 2 + 3 = 5, under Cl 7 - 1 (steady within 3") = 6: Broken
    game.rng = ScriptedNecromunda(*SHOT, 2, 3)  # type: ignore[assignment]
    events = game.declare(Act("shooter", Action.shoot("Lasgun", "target")))
    return game, events


def test_nerve_test_friends_within_3_inches_of_a_fighter_taken_down(write_scenario: Write) -> None:
    """FACTS 2.4: "when a friendly fighter goes SI or OOA, each friendly fighter within
    3" takes a Cool test, +1 for each other friendly fighter within 3" that is not
    Broken or SI. Failure -> Broken." The target goes Out of Action: buddy (1.5" away)
    tests with +1 for steady; steady (4" from the target) does not test."""
    game, events = broken_buddy(write_scenario)
    assert game.state.model("target").status == "out-of-action"
    [nerve] = [r for r in of(events, Rolled) if r.purpose.startswith("Nerve")]
    assert (nerve.model, nerve.purpose, nerve.attribute, nerve.base, nerve.target) == (
        "buddy", "Nerve test (target went down)", "Cl", 7, 6,
    )  # fmt: skip
    assert nerve.modifiers == (Modifier('friends within 3"', 1),)
    assert nerve.faces == (2, 3) and nerve.results == ("fail", "fail")
    assert of(events, BrokenChanged) == [
        BrokenChanged("buddy", True, "failed a Nerve test (target)")
    ]
    assert BROKEN in game.state.model("buddy").flags
    assert BROKEN not in game.state.model("steady").flags
    assert game.rng.left() == []  # type: ignore[attr-defined]


def test_nerve_test_passed_on_the_number_less_the_friends(write_scenario: Write) -> None:
    """FACTS 2.1/2.4: a Cool test is 2D6 >= Cl; each +1 lowers the number by one: 6 will
    do for buddy with steady near."""
    path = necromunda_table(write_scenario, FIGHTERS, scenery=WALL)
    game, _ = shooting_game(path, "shooter")
    game.rng = ScriptedNecromunda(*SHOT, 1, 5)  # type: ignore[assignment]
    events = game.declare(Act("shooter", Action.shoot("Lasgun", "target")))
    [nerve] = [r for r in of(events, Rolled) if r.purpose.startswith("Nerve")]
    assert nerve.results == ("success", "success")
    assert of(events, BrokenChanged) == []


def test_nerve_test_reads_as_the_total_of_two_dice(write_scenario: Write) -> None:
    """FACTS 2.1: Cl is "2D6 >= value"; a 2 always fails a 2D6 test. The sentence
    gives the total against the number needed and whether the test passed, not a
    "success" or "fail" beside each die."""
    from game.rules.registry import RULESETS
    from game.sequencer.sentences import describe, names_of

    _, events = broken_buddy(write_scenario)
    [nerve] = [r for r in of(events, Rolled) if r.purpose.startswith("Nerve")]
    names = names_of(load_scenario(necromunda_table(write_scenario, FIGHTERS)))
    text = describe(nerve, RULESETS["necromunda"], names)
    assert text == (
        'Buddy, Nerve test (Target went down): Cl 7+, friends within 3" +1; '
        "rolled 2 + 3, a total of 5 against 6+: failed"
    )
    passed = Rolled("buddy", "Rally", "Cl", 7, (), 7, (5, 2), ("success", "success"))
    assert describe(passed, RULESETS["necromunda"], names) == (
        "Buddy, Rally: Cl 7+; rolled 5 + 2, a total of 7 against 7+: passed"
    )
    snake_eyes = Rolled("buddy", "Rally", "Cl", 3, (Modifier('friends within 3"', 2),), 1,
                        (1, 1), ("fail", "fail"))  # fmt: skip
    text = describe(snake_eyes, RULESETS["necromunda"], names)
    assert text is not None and text.endswith(
        "1 + 1, a total of 2 against 1+: failed (a 2 always fails)"
    )


def test_running_for_cover_a_broken_fighters_only_action(write_scenario: Write) -> None:
    """FACTS 2.4: "A Broken fighter must take Running for Cover (Double): 2D6", trying
    in order to end (a) more than 3" from enemies, (b) out of LoS, (c) in cover, (d) as
    far from enemies as possible." Buddy rolls 3 + 4 = 7" and ends behind the wall,
    out of the shooter's sight."""
    game, _ = broken_buddy(write_scenario)
    game.declare(EndActivation())
    assert game.state.active == "escher"
    with pytest.raises(IllegalDeclaration, match="buddy is Broken: it may only Run for Cover"):
        game.declare(Act("buddy", Action.shoot("Lasgun", "shooter")))
    with pytest.raises(IllegalDeclaration, match="only a Broken fighter Runs for Cover"):
        game.declare(Act("steady", Action.run_for_cover()))
    game.rng = ScriptedNecromunda(3, 4)  # type: ignore[assignment]
    events = game.declare(Act("buddy", Action.run_for_cover()))
    [ran] = of(events, RanForCover)
    assert (ran.faces, ran.allowance) == ((3, 4), 7.0)
    assert ran.meets == ('more than 3" from every enemy', "out of sight of every enemy")
    [moved] = of(events, Moved)
    assert moved.distance <= 7.0 + 1e-9 and moved.path[-1] == ran.end
    engine = game.engine
    assert isinstance(engine, NecromundaEngine) and isinstance(game.state, NecromundaState)
    placements = engine.placements(game.state)
    assert engine.sight.clear_to(placements, [("shooter", "buddy", ran.end)]) == [False]
    assert game.state.activating is None  # a Double action ends the activation


def test_rally_a_broken_fighter_tests_cool_in_the_end_phase(write_scenario: Write) -> None:
    """FACTS 2.8: "Rally in End phase = Cool test with +1 per friendly within 3" (not
    Broken/SI)": 4 + 3 = 7 against 6 rallies buddy."""
    game, _ = broken_buddy(write_scenario)
    engine, state = game.engine, game.state
    assert isinstance(engine, NecromundaEngine) and isinstance(state, NecromundaState)
    events: list[Event] = []
    after = engine.rally(state, events, ScriptedNecromunda(4, 3))  # type: ignore[arg-type]
    [roll] = of(events, Rolled)
    assert (roll.model, roll.purpose, roll.target, roll.results) == (
        "buddy", "Rally", 6, ("success", "success"),
    )  # fmt: skip
    assert of(events, BrokenChanged) == [BrokenChanged("buddy", False, "rallied")]
    assert BROKEN not in after.model("buddy").flags
    # a failed Rally leaves it Broken
    events = []
    after = engine.rally(state, events, ScriptedNecromunda(1, 2))  # type: ignore[arg-type]
    assert of(events, BrokenChanged) == [] and BROKEN in after.model("buddy").flags


def test_running_for_cover_when_prone_moves_half_its_move(write_scenario: Write) -> None:
    """FACTS 2.4: Running for Cover is "2D6" (half M if Prone)": no dice, 2.5"."""
    game, _ = broken_buddy(write_scenario)
    engine, state = game.engine, game.state
    assert isinstance(engine, NecromundaEngine) and isinstance(state, NecromundaState)
    buddy = state.model("buddy").replace(status="pinned")
    events: list[Event] = []
    after = engine.run_for_cover(
        state.with_model(buddy),
        buddy,
        events,
        ScriptedNecromunda(),  # type: ignore[arg-type]
    )
    [ran] = of(events, RanForCover)
    assert (ran.faces, ran.allowance) == ((), 2.5)
    assert after.model("buddy").status == "pinned"
    assert after.model("buddy").at == ran.end


# -- Rapid Fire extra hits (FACTS 2.6) -------------------------------------------------

RAPID = [
    ("shooter", "goliath", "ganger-autogun", (4.0, 12.0), 0.0),
    ("target", "escher", "ganger", (10.0, 12.0), 180.0),
    ("pal", "escher", "ganger", (10.0, 14.5), 180.0),  # 1.5" from the target
    ("far", "escher", "ganger", (10.0, 17.0), 180.0),  # 4" from the target
]


def test_rapid_fire_extra_hits_go_to_other_targets_within_3_inches(write_scenario: Write) -> None:
    """FACTS 2.6: "The first hit must go to the original target. Extra hits may go to
    other targets within range, in LoS, within 3" of the original, and no harder to
    hit. Allocate all hits before rolling to wound." Firepower 5 is three holes: two on
    the target, one on pal; each hit Pins."""
    from game.sequencer.events import Hit, StateChanged

    path = necromunda_table(write_scenario, RAPID)
    game, _ = shooting_game(path, "shooter")
    # hit roll 6, Firepower 5 (3 holes), then three wound rolls of 1 (no wound)
    game.rng = ScriptedNecromunda(6, 5, 1, 1, 1)  # type: ignore[assignment]
    events = game.declare(Act("shooter", Action.shoot("Autogun", "target", extra=("pal",))))
    assert [h.target for h in of(events, Hit)] == ["target", "target", "pal"]
    pinned = [e.model for e in of(events, StateChanged) if e.after == "pinned"]
    assert pinned == ["target", "pal"]
    assert game.rng.left() == []  # type: ignore[attr-defined]


def test_rapid_fire_extra_hits_refused_beyond_3_inches(write_scenario: Write) -> None:
    """FACTS 2.6: extra hits only "within 3" of the original"; not the target itself, not
    with a gun that is not Rapid Fire."""
    path = necromunda_table(write_scenario, RAPID)
    game, _ = shooting_game(path, "shooter")
    cases = [
        (Action.shoot("Autogun", "target", extra=("far",)), 'far: 4.02" from target'),
        (Action.shoot("Autogun", "target", extra=("target",)), "the target itself"),
    ]
    for action, reason in cases:
        with pytest.raises(IllegalDeclaration, match=reason):
            game.declare(Act("shooter", action))
    assert game.declarations == []


# -- Rapid Fire with a Blast (FACTS 2.7) -----------------------------------------------

STORM = """
[[weapon]]
name = "Storm launcher"
short = 12
long = 24
strength = 3
damage = 1
traits = ["Blast (3)", "Rapid Fire (1)"]
"""
STORM_FIGHTERS = [
    ("shooter", "goliath", "ganger", (4.0, 12.0), 0.0),
    ("target", "escher", "ganger", (12.0, 12.0), 180.0),
    ("pal", "escher", "ganger", (14.5, 12.0), 180.0),
]


def storm_game(write_scenario: Write) -> Game:
    path = necromunda_table(
        write_scenario, STORM_FIGHTERS, scenery=STORM, weapons={"shooter": ["Storm launcher"]}
    )
    game, _ = shooting_game(path, "shooter")
    return game


def test_rapid_fire_blast_places_an_extra_blast_per_hole_on_a_hit(write_scenario: Write) -> None:
    """FACTS 2.7: "Rapid Fire + Blast: on a hit, place extra blasts within 3"."
    Firepower 5 is three holes: the first blast on the target, the second where the
    firer put it (on pal, 2.5" away), the third, not placed, on the first."""
    from game.sequencer.events import Hit
    from game.sequencer.necromunda_types import BlastPlaced

    game = storm_game(write_scenario)
    game.rng = ScriptedNecromunda(6, 5, 1, 1, 1)  # type: ignore[assignment]
    action = Action.shoot("Storm launcher", "target", extra_at=((14.5, 12.0),))
    events = game.declare(Act("shooter", action))
    placed = [(b.centre, b.reason) for b in of(events, BlastPlaced)]
    assert placed == [
        ((12.0, 12.0), ""),
        ((14.5, 12.0), "extra Rapid Fire blast"),
        ((12.0, 12.0), "extra Rapid Fire blast"),
    ]
    assert [h.target for h in of(events, Hit)] == ["target", "pal", "target"]
    assert game.rng.left() == []  # type: ignore[attr-defined]


def test_rapid_fire_blast_every_blast_scatters_separately_on_a_miss(write_scenario: Write) -> None:
    """FACTS 2.7: "On a miss, every blast scatters separately": two holes, two blasts,
    each its own scatter die, D6 and direction (2" east from the target, 2" west from
    the extra blast's point)."""
    from game.sequencer.events import Hit
    from game.sequencer.necromunda_types import Scattered

    game = storm_game(write_scenario)
    game.rng = ScriptedNecromunda(1, 3, 3, 2, 3, 2, 1, 1, angles=(0.0, 180.0))  # type: ignore[assignment]
    action = Action.shoot("Storm launcher", "target", extra_at=((14.5, 12.0),))
    events = game.declare(Act("shooter", action))
    moves = [(s.start, s.end) for s in of(events, Scattered)]
    assert moves == [((12.0, 12.0), (14.0, 12.0)), ((14.5, 12.0), (12.5, 12.0))]
    assert [h.target for h in of(events, Hit)] == ["pal", "target"]


def test_rapid_fire_blast_extra_beyond_3_inches_is_refused(write_scenario: Write) -> None:
    """FACTS 2.7: extra blasts go "within 3"" of the first."""
    game = storm_game(write_scenario)
    with pytest.raises(IllegalDeclaration, match=r'4\.00" from the aimed point, not within 3"'):
        game.declare(
            Act("shooter", Action.shoot("Storm launcher", "target", extra_at=((16.0, 12.0),)))
        )


def test_running_for_cover_picks_by_the_wishes_in_order_all_over_the_alley() -> None:
    """Running for Cover asks its points farthest first and stops when the answer is
    known: the point is the one the wishes pick from every point at once (reachable;
    more than 3" from every enemy if any; out of every enemy's sight if any, else in
    cover from every enemy that sees it if any; farthest, ties the first found)."""
    import math

    import numpy as np

    from game.scenario import load_scenario
    from game.sequencer.necromunda_nerve import RUN_HEADINGS, RUN_SHARES, SAFE_DISTANCE
    from game.sequencer.table_sight import TableSight
    from tests.conftest import SCENARIOS

    setup = load_scenario(SCENARIOS / "necromunda-alley.toml")
    engine = NecromundaEngine(setup, TableSight(setup))
    state, _ = engine.start(rng=np.random.default_rng(2))
    assert isinstance(state, NecromundaState)
    rng = np.random.default_rng(5)
    width, depth = setup.header.table
    met = set()
    checked: list[object] = []
    for _ in range(300):
        if len(checked) >= 10:
            break
        m = state.models[int(rng.integers(len(state.models)))]
        at = (float(rng.uniform(1, width - 1)), float(rng.uniform(1, depth - 1)))
        if engine.path_blocked(state, m.id, (at,)) is not None:
            continue
        here = state.with_model(m.replace(at=at))
        me = here.model(m.id)
        allowance = float(rng.integers(2, 13))
        enemies = [e for e in here.models if e.side != me.side]
        r = engine.radius[me.id]
        ends = [me.at]
        for k in range(RUN_HEADINGS):
            angle = 2 * math.pi * k / RUN_HEADINGS
            for share in RUN_SHARES:
                d = allowance * share
                end = (me.at[0] + math.cos(angle) * d, me.at[1] + math.sin(angle) * d)
                on_table = r <= end[0] <= width - r and r <= end[1] <= depth - r
                if on_table and engine.path_blocked(here, me.id, (me.at, end)) is None:
                    ends.append(end)
        gaps = {p: min(math.dist(p, e.at) - r - engine.radius[e.id] for e in enemies) for p in ends}
        gap = gaps.__getitem__

        pool = [p for p in ends if gap(p) > SAFE_DISTANCE + 1e-9] or ends
        placed = engine.placements(here)
        asks = {p: [(e.id, me.id, p) for e in enemies] for p in pool}
        clear = {p: engine.sight.clear_to(placed, ask) for p, ask in asks.items()}
        seen = {p: [w for (w, _, _), ok in zip(asks[p], clear[p], strict=True) if ok] for p in pool}
        hidden = [p for p in pool if not seen[p]]
        covered = [p for p in pool if engine._in_cover(here, me, p, seen[p])]
        expected = max(hidden or covered or pool, key=gap)
        found, meets = engine._refuge(here, me, allowance)
        assert found == expected
        checked.append(meets)
        met.update(meets)
    assert len(checked) >= 10
    assert len(met) >= 2  # the wishes were met in more than one way


def test_a_straight_run_is_blocked_whenever_a_shorter_one_on_its_heading_is() -> None:
    """Running for Cover infers a run's path from a shorter one on the same heading (a
    blocked shorter run blocks it) and from a longer one (a free longer run frees it):
    the table's own path check agrees, all over the alley, both ways and often."""
    import math

    import numpy as np

    from game.scenario import load_scenario
    from game.sequencer.table_sight import TableSight
    from tests.conftest import SCENARIOS

    setup = load_scenario(SCENARIOS / "necromunda-alley.toml")
    sight = TableSight(setup)
    engine = NecromundaEngine(setup, sight)
    state, _ = engine.start(rng=np.random.default_rng(2))
    placements = engine.placements(state)
    rng = np.random.default_rng(9)
    width, depth = setup.header.table
    counts = {"both free": 0, "both blocked": 0, "only the longer blocked": 0}
    for _ in range(2500):
        m = state.models[int(rng.integers(len(state.models)))]
        start = (float(rng.uniform(1, width - 1)), float(rng.uniform(1, depth - 1)))
        if sight.path_blocked(placements, m.id, (start,)) is not None:
            continue
        angle, run = float(rng.uniform(0, 2 * math.pi)), float(rng.uniform(1, 8))
        ends = [(start[0] + math.cos(angle) * d, start[1] + math.sin(angle) * d)
                for d in (run / 2, run)]  # fmt: skip
        short, long = (sight.path_blocked(placements, m.id, (start, e)) is None for e in ends)
        assert short or not long  # the shorter blocked: the longer too
        key = "both free" if long else "both blocked" if not short else "only the longer blocked"
        counts[key] += 1
    assert min(counts.values()) >= 20


# -- End phase (FACTS 2.8) ---------------------------------------------------------------

END = [
    ("shooter", "goliath", "ganger", (4.0, 12.0), 0.0),
    ("down", "escher", "ganger", (16.0, 12.0), 180.0),
    ("up", "escher", "ganger", (20.0, 20.0), 180.0),  # no help for down's Recovery
]


@pytest.mark.parametrize("flees", [False, True])
def test_end_phase_bottle_test_then_fleeing_then_recovery_then_rally(
    write_scenario: Write, flees: bool
) -> None:
    """FACTS 2.8: "End phase (Bottle test: D6 + number of SI/OOA > starting crew ->
    bottled; fleeing = Cool test per fighter; Recovery: each SI fighter rolls an Injury
    die ...; then Rally tests)": the bottled Escher test to flee before Recovery, the
    Seriously Injured fighter too; one that flees rolls no Recovery."""
    from game.rules.registry import RULESETS
    from game.sequencer.events import StateChanged, TurnEnded
    from game.sequencer.necromunda_types import FLED, BottleTested, InjuryRolled
    from game.sequencer.sentences import Teller, describe

    game, _ = shooting_game(necromunda_table(write_scenario, END), "shooter")
    engine = game.engine
    assert isinstance(engine, NecromundaEngine) and isinstance(game.state, NecromundaState)
    state = game.state.with_model(game.state.model("down").replace(status="seriously-injured"))
    # Bottle 6 (+1 down > crew 2); down's Cool test 1 + 1 (flees) or 6 + 6; up's 6 + 5;
    # down's Recovery die 3 (still Seriously Injured); next round's priority 6, 1
    flee = (1, 1) if flees else (6, 6)
    dice = ScriptedNecromunda(6, *flee, 6, 5, *(() if flees else (3,)), 6, 1)
    events: list[Event] = []
    after = engine._end_phase(state, events, dice)  # type: ignore[arg-type]
    assert dice.left() == []
    told = [
        (type(e).__name__, getattr(e, "model", getattr(e, "side", None)))
        for e in events[: events.index(next(e for e in events if isinstance(e, TurnEnded)))]
    ]
    assert told == [
        ("BottleTested", "escher"),
        ("Rolled", "down"),
        *([("StateChanged", "down")] if flees else []),
        ("Rolled", "up"),
        *([] if flees else [("InjuryRolled", "down")]),
    ]
    [bottle] = of(events, BottleTested)
    assert bottle.bottled
    if flees:
        assert of(events, StateChanged)[0] == StateChanged(
            "down", "seriously-injured", "out-of-action"
        )
        assert FLED in after.model("down").flags and not of(events, InjuryRolled)
    said = describe(of(events, Rolled)[0], RULESETS["necromunda"], {"down": "Escher ganger 1"})
    assert said is not None
    assert said.endswith(": flees the battle" if flees else ": stays in the fight")
    if flees:  # told in order, the change of state says why
        teller = Teller(RULESETS["necromunda"], {"down": "Escher ganger 1"})
        told = [teller.say(e) for e in events]
        assert told[told.index(said) + 1] == (
            "Escher ganger 1 is out of action: fled the battle (was seriously injured)"
        )


@pytest.mark.parametrize(
    ("flesh", "kept", "after"), [(0, 0, "pinned"), (2, 1, "seriously-injured")]
)
def test_recovery_with_a_friend_near_keeps_the_die_the_player_would_pick(
    write_scenario: Write, flesh: int, kept: int, after: str
) -> None:
    """FACTS 2.8: Recovery: "FW = flesh wound + Pinned, SI = no change, OOA = removed; one
    Active friend within 1" adds an extra die and the player picks one". Dice 2 (a Flesh
    Wound) and 4 (Seriously Injured): a T3 ganger with no Flesh Wounds keeps the Flesh
    Wound and is Pinned; with two already, a third would take Toughness to 0 (Out of
    Action), so it keeps Seriously Injured (the engine kept the Flesh Wound)."""
    from game.sequencer.necromunda_types import FLESH_WOUNDS, InjuryRolled

    friend = ("pal", "escher", "ganger", (16.0, 12.0 + 2 * 0.4921 + 0.5), 180.0)
    game, _ = shooting_game(necromunda_table(write_scenario, [*END, friend]), "shooter")
    engine = game.engine
    assert isinstance(engine, NecromundaEngine) and isinstance(game.state, NecromundaState)
    down = game.state.model("down").with_marker(FLESH_WOUNDS, flesh)
    state = game.state.with_model(down.replace(status="seriously-injured"))
    events: list[Event] = []
    done = engine._recovery(state, events, ScriptedNecromunda(2, 4))  # type: ignore[arg-type]
    [roll] = of(events, InjuryRolled)
    assert (roll.faces, roll.kept) == ((2, 4), kept)
    assert done.model("down").status == after
    from game.rules.registry import RULESETS
    from game.sequencer.sentences import describe

    said = describe(roll, RULESETS["necromunda"], {"down": "Escher ganger 1"})
    assert said is not None
    assert said.endswith(
        "keeps the 2 (flesh wound)" if kept == 0 else "keeps the 4 (seriously injured)"
    )
