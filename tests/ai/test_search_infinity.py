"""The Infinity search player's own judgement: the exchange of fire to come."""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path

import numpy as np

from game.ai.infinity_search import STILL, SearchInfinityPlayer
from game.scenario.saves import read_save
from game.sequencer.game import Game
from game.sequencer.infinity import (
    Activate,
    Continue,
    EndTurn,
    InfinityState,
    React,
    Skill,
    SkillKind,
)
from game.sequencer.state import renew
from tests.ai.test_search import _setup

MODELS = """
[[model]]
id = "fusilier"
side = "blue"
profile = "fusilier"
at = [12, 8]
facing = 0

[[model]]
id = "hmg"
side = "red"
profile = "zhanshi-hmg"
at = [28, 8]
facing = 180
"""


def test_the_exchange_of_fire_counts_the_enemy_turn_to_come_and_none_after_the_last(
    write_scenario: Callable[..., Path],
) -> None:
    """A fusilier and an HMG face each other across open ground, one game round. With
    blue's Orders spent, only red's turn is to come: the HMG's shots count against blue
    (exact odds, the fusilier's ARO in reply); nothing once the fusilier stands behind
    the block, and less than in sight where a move of the HMG's would show it. Red's
    Orders in the last turn count for red; with none left, nothing comes after the
    game's last turn."""
    game = _setup(write_scenario, MODELS, turns=1)  # open ground with a block
    player = SearchInfinityPlayer(game.engine, seed=1, budget=40)
    start = game.state
    assert isinstance(start, InfinityState) and start.active == "blue"
    spent = renew(start, orders=0, lieutenant_order=False)
    exposed = player._exchange(spent, "blue")
    assert exposed < 0
    assert player._exchange(spent, "red") == -exposed
    hidden = spent.with_model(spent.model("fusilier").replace(at=(3.0, 16.0)))
    assert player._exchange(hidden, "blue") == 0
    # out of sight, but a move of the HMG's (45 degrees off) would show it: some risk
    reachable = spent.with_model(spent.model("fusilier").replace(at=(2.5, 20.5)))
    assert not game.engine.sighting(reachable, "hmg", "fusilier").lof
    in_sight = spent.with_model(spent.model("fusilier").replace(at=(10.0, 19.0)))
    assert player._exchange(in_sight, "blue") < player._exchange(reachable, "blue") < 0
    # blue's Order first: its shot is worth something, so the exchange is better for it
    assert player._exchange(start, "blue") > exposed
    last = renew(start, active="red", orders=1)
    assert player._exchange(last, "red") > 0
    assert player._exchange(renew(last, orders=0), "red") == 0


# a fusilier, an Unconscious Zhanshi and a standing one
THREE = """
[[model]]
id = "fusilier"
side = "blue"
profile = "fusilier"
at = [{fusilier}]
facing = 0

[[model]]
id = "down"
side = "red"
profile = "zhanshi"
at = [{down}]
facing = 180
state = "unconscious"

[[model]]
id = "zhanshi"
side = "red"
profile = "zhanshi"
at = [{zhanshi}]
facing = {facing}
"""


def test_the_judged_choice_spends_no_order_on_a_trooper_already_unconscious(
    write_scenario: Callable[..., Path],
) -> None:
    """A fusilier sees an Unconscious Zhanshi 4" away and a standing one 10" away that
    faces the other way. An Unconscious trooper no longer counts for its side at the
    turn limit (points of troopers still able to act), so finishing it gains nothing:
    the shot at the Unconscious one is worth no more than ending the turn, the shot at
    the standing one more, and the judged Order is not spent on the Unconscious one."""
    game = _setup(
        write_scenario,
        THREE.format(fusilier="12, 8", down="16, 8", zhanshi="22, 12", facing=0),
        turns=2,
    )
    state = game.state
    assert isinstance(state, InfinityState)
    engine = game.engine
    assert engine.sighting(state, "fusilier", "zhanshi").lof
    assert not engine.in_arc(state, "zhanshi", "fusilier")  # no ARO: it looks away
    player = SearchInfinityPlayer(engine, seed=1, think=0.5)
    choice = player.choose(state, engine.awaiting(state))
    assert isinstance(choice, Activate)
    assert "down" not in [t for t, _ in choice.skill.targets]
    finish = Activate("fusilier", Skill.attack("Combi Rifle", ("down", 3)))
    shoot = Activate("fusilier", Skill.attack("Combi Rifle", ("zhanshi", 3)))
    player.steps = 0  # a new decision's budget
    finished = player._after(state, finish, "blue")
    shot = player._after(state, shoot, "blue")
    ended = player._after(state, EndTurn(), "blue")
    assert finished is not None and shot is not None and ended is not None
    assert finished <= ended < shot


def test_the_judged_second_skill_dodges_the_aro_it_walked_into(
    write_scenario: Callable[..., Path],
) -> None:
    """A fusilier with no gun has moved into the open and the HMG facing it has declared
    its ARO: with nothing to shoot back with and no cover within its second move, the
    judged second skill is a Dodge (Face-to-Face against the ARO, exact odds), not Idle
    (a Normal roll for the HMG)."""
    game = _setup(
        write_scenario,
        """
[[model]]
id = "fusilier"
side = "blue"
profile = "fusilier"
at = [20, 4]
facing = 90
weapons = []

[[model]]
id = "hmg"
side = "red"
profile = "zhanshi-hmg"
at = [26, 20]
facing = -90
""",
        turns=2,
    )
    state = game.state
    assert isinstance(state, InfinityState)
    engine = game.engine
    player = SearchInfinityPlayer(engine, seed=1, think=0.5)
    careful = player.careful
    rng = np.random.default_rng(1)
    state, _ = engine.apply(state, Activate("fusilier", Skill.move((20.0, 8.0))), rng=rng)
    awaiting = engine.awaiting(state)
    assert awaiting.kind == "aro" and awaiting.models == ("hmg",)
    aro = careful.choose(state, awaiting)
    assert isinstance(aro, React) and aro.skill.kind is SkillKind.ATTACK
    state, _ = engine.apply(state, aro, rng=rng)
    awaiting = engine.awaiting(state)
    assert awaiting.kind == "second"
    assert isinstance(state, InfinityState)
    idle = player._after(state, Continue(Skill.idle()), "blue")
    dodge = player._after(state, Continue(Skill.dodge()), "blue")
    assert idle is not None and dodge is not None and dodge > idle
    choice = player.choose(state, awaiting)
    assert isinstance(choice, Continue) and choice.skill.kind is SkillKind.DODGE


def test_an_order_that_changes_nothing_never_beats_ending_the_turn(
    write_scenario: Callable[..., Path],
) -> None:
    """A fusilier stands behind the block, out of the Zhanshi's sight, in the game's last
    round: a Move to where it already stands, then a Dodge with no attack to dodge, is
    worth exactly what ending the turn is (nothing on the table changes), so the judged
    choice takes ending the turn or an Order that does something, never the Move in
    place; no move into cover is offered to the spot it stands on; and after a real
    move that drew no ARO, its second skill is Idle, not a Dodge of nothing (issue 17:
    'Fusilier 2 moves, but stays where it stands' three times, each with 'Dodge: no
    attack to dodge')."""
    game = _setup(
        write_scenario,
        THREE.format(fusilier="2, 16", down="4, 22", zhanshi="30, 16", facing=180),
        turns=1,
    )
    state = game.state
    assert isinstance(state, InfinityState)
    engine = game.engine
    assert not engine.sighting(state, "zhanshi", "fusilier").lof
    player = SearchInfinityPlayer(engine, seed=1, think=0.5)
    here = state.model("fusilier").at
    stay = Activate("fusilier", Skill.move(here, facing=0.0))
    player.root = (state.turn, state.active)
    player.steps = 0
    stayed = player._after(state, stay, "blue")
    ended = player._after(state, EndTurn(), "blue")
    assert stayed is not None and stayed == ended
    assert player._wasted(state, stay) and not player._wasted(state, EndTurn())
    # the Move in place offered beside ending the turn (the careful choice, weighed
    # first): equal worth, ending the turn wins
    player.candidates = lambda s, a: [(stay, 1.0)]  # type: ignore[method-assign]
    player.careful.choose = lambda s, a: EndTurn()  # type: ignore[method-assign]
    choice = player.choose(state, engine.awaiting(state))
    assert isinstance(choice, EndTurn)
    # no move into cover to the spot it stands on
    player = SearchInfinityPlayer(engine, seed=1, think=0.5)
    for skill, _ in player._cover_skills(state, state.model("fusilier"), 4.0):
        assert skill.path[-1] != here
    rng = np.random.default_rng(1)
    moved, _ = engine.apply(state, Activate("fusilier", Skill.move((2.0, 14.0))), rng=rng)
    awaiting = engine.awaiting(moved)
    assert awaiting.kind == "second"
    assert isinstance(moved, InfinityState)
    dodge = Continue(Skill.dodge())
    assert player._wasted(moved, dodge) and not player._wasted(moved, Continue(Skill.idle()))
    choice = player.choose(moved, awaiting)
    assert isinstance(choice, Continue) and choice.skill.kind is not SkillKind.DODGE
    # the Dodge offered beside Idle alone (the careful choice): Idle
    player.candidates = lambda s, a: [(dodge, 1.0)]  # type: ignore[method-assign]
    player.careful.choose = lambda s, a: Continue(Skill.idle())  # type: ignore[method-assign]
    choice = player.choose(moved, awaiting)
    assert isinstance(choice, Continue) and choice.skill.kind is SkillKind.IDLE


def test_a_second_skill_is_not_spent_on_an_unconscious_trooper(
    write_scenario: Callable[..., Path],
) -> None:
    """A fusilier has moved and sees only an Unconscious Zhanshi (the standing one is
    behind the block). No doctor here raises it and only troopers able to act count at
    the turn limit, so finishing it is worth nothing: the second skill's candidates
    hold no shot at it and the judged second skill is not one (issue 17: 'Guilang 1
    shoots the unconscious Orc 1')."""
    game = _setup(
        write_scenario,
        THREE.format(fusilier="2, 16", down="4, 22", zhanshi="12, 15", facing=180),
        turns=2,
    )
    state = game.state
    assert isinstance(state, InfinityState)
    engine = game.engine
    player = SearchInfinityPlayer(engine, seed=1, think=0.5)
    rng = np.random.default_rng(1)
    to = (2.0, 19.5)
    moved, _ = engine.apply(state, Activate("fusilier", Skill.move(to, facing=90.0)), rng=rng)
    awaiting = engine.awaiting(moved)
    assert awaiting.kind == "second" and isinstance(moved, InfinityState)
    there = moved.with_model(moved.model("fusilier").replace(at=to, facing=90.0))
    assert engine.sighting(there, "fusilier", "down").lof
    assert not engine.sighting(there, "fusilier", "zhanshi").lof
    finish = Continue(Skill.attack("Combi Rifle", ("down", 3)))
    assert player._wasted(moved, finish)
    shots = [d for d, _ in player._seconds(moved) if d.skill.kind is SkillKind.ATTACK]
    assert all("down" not in [t for t, _ in d.skill.targets] for d in shots)
    choice = player.choose(moved, awaiting)
    assert isinstance(choice, Continue) and choice.skill.kind is not SkillKind.ATTACK


def test_an_order_worth_no_more_than_ending_the_turn_is_not_spent_moving_out_and_back() -> None:
    """A watched demo game (a new user's save, session 10: the bundled demo, Yu Jing the
    computer's, seed 1), Yu Jing's turn 1 after losing three of five troopers: Zhanshi 1
    stands in cover with one Order left and nothing in reach. A Move out to (7.279,
    6.458) with its second skill back into the same cover is worth exactly what ending
    the turn is, and was declared ("Zhanshi 1 moves 3.1"" and ends where it started):
    an Order worth no more than ending the turn is wasted, and the turn ends."""
    saved = read_save(Path(__file__).parent / "saves" / "infinity-out-and-back.json")
    game = Game(saved.scenario, saved.seed)
    for declaration in saved.declarations:
        game.declare(declaration)
    state = game.state
    assert isinstance(state, InfinityState) and state.active == "red"
    player = SearchInfinityPlayer(game.engine, seed=saved.seed, think=0.5)
    awaiting = game.engine.awaiting(state)
    out = Activate("zhanshi-1", Skill.move((7.279, 6.458)))
    player.root = (state.turn, state.active)
    player.steps = 0
    moved = player._after(state, out, "red")
    ended = player._after(state, EndTurn(), "red")
    assert moved is not None and ended is not None and round(moved, 9) == round(ended, 9)
    choice = player.choose(state, awaiting)
    assert isinstance(choice, EndTurn)


# red's Zhanshi west of the open ground's block, an objective east of it; blue's Knight far
# off, facing away
BEHIND_THE_BLOCK = """
[[objective]]
id = "beacon"
at = [10.5, 16]
radius = 1.5
points = 1

[[model]]
id = "knight"
side = "blue"
profile = "knight-of-justice"
at = [26, 4]
facing = 0

[[model]]
id = "zhanshi"
side = "red"
profile = "zhanshi"
at = [5, 16]
facing = 0
"""


def test_takes_an_objective_behind_a_building_in_the_last_turn(
    write_scenario: Callable[..., Path],
) -> None:
    """The game's last Active Turn is red's, with one Order: its Zhanshi (10 points)
    against blue's Knight (40) loses on points, unless it ends the turn on the
    objective, which decides first ("Scenario objectives decide; the points of troopers
    left break a tie"). The objective is behind the block, out of a straight line's
    reach: Move and Move round its corners (the Detours' route) take the Zhanshi onto
    it, out of the Knight's sight (it faces away), and red wins."""
    game = _setup(write_scenario, BEHIND_THE_BLOCK, turns=1)
    engine = game.engine
    game.declare(EndTurn())  # blue's turn: nothing
    state = game.state
    assert isinstance(state, InfinityState) and state.active == "red" and state.orders == 1
    assert engine.path_blocked(state, "zhanshi", ((5.0, 16.0), (10.5, 16.0))) is not None
    player = SearchInfinityPlayer(engine, seed=1, think=0.5)
    while not game.state.finished:
        game.declare(player.choose(game.state, engine.awaiting(game.state)))
    assert game.state.winner == "red", [d.to_dict() for d in game.declarations]
    on_it = engine.objectives_held(game.state)
    assert on_it == [("red", "beacon", 1)]


def test_a_route_round_the_scenery_is_the_shortest_and_clear() -> None:
    """Detours: a straight line where it is clear; round a building's corners where it
    is not, every leg clear of the piece by the base's radius, and no longer than the
    way round the other side."""
    import shapely

    from game.ai.search import Detours, along
    from game.scenario import load_scenario
    from tests.conftest import SCENARIOS

    setup = load_scenario(SCENARIOS / "infinity-checkpoint.toml")
    detours = Detours(setup)
    radius = 0.49
    assert detours.route((2.0, 14.0), (10.0, 14.0), radius) == [(10.0, 14.0)]
    # from behind the guard post (13-19 x 6-9) to the console below it
    start, goal = (16.0, 4.0), (16.0, 10.0)
    route = detours.route(start, goal, radius)
    assert route is not None and route[-1] == goal and len(route) >= 3
    post = shapely.Polygon([(13, 6), (19, 6), (19, 9), (13, 9)])
    legs = list(zip([start, *route], route, strict=False))
    for a, b in legs:
        assert shapely.LineString([a, b]).distance(post) >= radius - 0.011
    length = sum(math.dist(a, b) for a, b in legs)
    # round the post by its two nearer corners, a radius and a GAP out (either side: the
    # table is the same both ways), not farther round
    d = radius + Detours.GAP
    left = [(13 - d, 6 - d), (13 - d, 9 + d)]
    way = sum(math.dist(a, b) for a, b in zip([start, *left], [*left, goal], strict=True))
    assert abs(length - way) < 0.01
    cut = along(start, route, 4.0)
    assert abs(sum(math.dist(a, b) for a, b in zip([start, *cut], cut, strict=False)) - 4.0) < 1e-9


def test_before_the_last_round_no_long_way_round_to_an_objective(
    write_scenario: Callable[..., Path],
) -> None:
    """Objectives score only at the turn limit: before the last round the search player
    offers a move toward one only where the straight line is clear (a long way round
    the scenery early walks into the enemy's turns to come; measured on
    infinity-checkpoint, the route everywhere won 129 of 200, the last round alone 142);
    in the last round, the way round."""
    for turns, offered in ((2, False), (1, True)):
        game = _setup(write_scenario, BEHIND_THE_BLOCK, turns=turns)
        game.declare(EndTurn())
        state = game.state
        assert isinstance(state, InfinityState)
        player = SearchInfinityPlayer(game.engine, seed=1, think=0.5)
        moves = player._objective_moves(state, state.model("zhanshi"))
        assert bool(moves) is offered, (turns, moves)


def _crate_game(declared: int) -> tuple[Game, SearchInfinityPlayer]:
    """The demo on seed 3 (a tester's save, session 12, Yu Jing the computer's search
    player) after its first `declared` declarations, and the search player it had."""
    saved = read_save(Path(__file__).parent / "saves" / "infinity-lieutenant-crate.json")
    game = Game(saved.scenario, saved.seed)
    for declaration in saved.declarations[:declared]:
        game.declare(declaration)
    return game, SearchInfinityPlayer(game.engine, seed=saved.seed, think=0.5)


def test_no_order_opens_with_a_move_that_changes_nothing() -> None:
    """Yu Jing's turn 1, third Order (the tester's save): the Lieutenant stands against
    the crates, in partial cover from the Orc. A move to a cover spot 0.08" away changes
    nothing on the table; it was offered as a move into cover and declared ("Zhanshi LT
    moves 0.1"", then shoots), worth more only because the careful Orc declares its ARO
    before the second skill (FACTS 3.4, the Order Expenditure Sequence) and shoots at a
    Move where it dodges a shot. No cover spot nearer than `STILL` is offered, such a
    Move is wasted at equal worth, and the Order opens with no Move shorter."""
    game, player = _crate_game(11)
    state = game.state
    assert isinstance(state, InfinityState) and state.active == "red"
    lieutenant = state.model("zhanshi-lt")
    for skill, _ in player._cover_skills(state, lieutenant, 4.0):
        assert math.dist(skill.path[-1], lieutenant.at) >= STILL
    nudge = Activate("zhanshi-lt", Skill.move((19.787, 5.458)))
    assert player._wasted(state, nudge)
    choice = player.choose(state, game.awaiting())
    assert isinstance(choice, Activate)
    if choice.skill.kind is SkillKind.MOVE:
        mover = state.model(choice.model)
        assert math.dist(choice.skill.path[-1], mover.at) >= STILL


def test_the_lieutenant_is_not_traded_where_the_hmg_shot_is_as_good() -> None:
    """Yu Jing's turn 1, first Order (the tester's save, issue 17: "the HMG goes unused
    while the Lieutenant spends 4 of 6 Orders on poor shots"). Where the HMG stands, both
    Fusiliers have a line to it as well as the Orc: its shot draws their AROs (a Normal
    roll each, about half the time the HMG goes down), and the Lieutenant's move to the
    crates, seen by the Orc alone through partial cover, is the better Order by the exact
    odds. With the Fusiliers out of the fight the two Orders are close, and losing the
    Lieutenant loses its side the Lieutenant's Order in each turn to come (FACTS 3.4:
    the Lieutenant Special Order is the Lieutenant's alone): the HMG shoots. Before, the
    Lieutenant was worth its points alone, and went."""
    game, player = _crate_game(5)
    state = game.state
    assert isinstance(state, InfinityState) and state.active == "red"
    shot = Activate("zhanshi-hmg", Skill.attack("HMG", ("orc-1", 4)))
    awaiting = game.awaiting()
    offered = [d for d, _ in player.candidates(state, awaiting)]
    assert shot in offered
    drawn, _ = game.engine.apply(state, shot, rng=np.random.default_rng(1))
    eligible = dict(drawn.order.eligible) if isinstance(drawn, InfinityState) else {}
    assert {"fusilier-1", "fusilier-2", "orc-1"} <= set(eligible)
    # the Fusiliers out of the fight: only the Orc sees the HMG
    for fusilier in ("fusilier-1", "fusilier-2"):
        state = state.with_model(state.model(fusilier).replace(status="dead"))
    choice = player.choose(state, game.engine.awaiting(state))
    assert choice == shot
    # the Lieutenant out of the fight: its Order goes with it, in the exchange and after
    down = state.with_model(state.model("zhanshi-lt").replace(status="dead", wounds=2))
    assert player._orders_usable(down) == player._orders_usable(state) - 1
    assert player._lieutenants(down, "red") < 0 < player._lieutenants(down, "blue")
