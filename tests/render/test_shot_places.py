"""Shot lines start where the shot was fired and end where the target stood then, not
where either stands once it has moved on (tester9 finding 3: in `skirmish play
necromunda-demo --temperament aggressive --think 0.3 --seed 3` the computer's Escher
ganger 2 shoots and then moves 5", and the red and white lines were drawn from its new
place, in `replay SAVE --window` too)."""

from __future__ import annotations

import pytest

from game.render import dice_log, frame
from game.render.app import App
from game.render.game_actions import StepAI
from game.render.infinity_play import InfinityRules
from game.render.session import Session
from game.scenario import load_scenario
from game.sequencer.events import Declared, Hit, Moved, Rolled
from game.sequencer.game import Game
from game.sequencer.infinity_orders import Activate, Continue, React, Skill
from game.sequencer.necromunda_types import Act, Action, ActionKind
from tests.conftest import SCENARIOS

Point = tuple[float, float]


def _roll(model: str, target: str) -> Rolled:
    return Rolled(model, f"BS Attack (Autogun) at {target}", "BS", 4, (), 4, (5,), ("miss",))


def test_a_shot_then_a_move_leaves_the_line_where_it_was_fired() -> None:
    where = {"a": (1.0, 1.0), "b": (9.0, 1.0)}
    events = [_roll("a", "b"), Hit("a", "b", "Autogun"), Moved("a", ((1.0, 1.0), (1.0, 6.0)), 5.0)]
    [shot] = dice_log.shots(events, where, 10)
    assert (shot.start, shot.end, shot.hit) == ((1.0, 1.0), (9.0, 1.0), True)
    # a move before the shot: fired from where the move ended; the target moved too
    moved_first = [
        Moved("a", ((1.0, 1.0), (1.0, 6.0)), 5.0),
        Moved("b", ((9.0, 1.0), (9.0, 3.0)), 2.0),
        _roll("a", "b"),
    ]
    [shot] = dice_log.shots(moved_first, where, 10)
    assert (shot.start, shot.end, shot.hit) == ((1.0, 6.0), (9.0, 3.0), False)


# The tester's game's first three declarations (necromunda-demo, seed 3), as the simple
# player (Orlock) and the search player (Escher, aggressive, think 0.3) made them in
# session 9, written out: the test does not depend on what either player chooses now.
TESTERS_DECLARATIONS = (
    Act("orlock-heavy", Action(ActionKind.SHOOT, weapon="Heavy stubber",
                               target="escher-ganger-2"), turn_to=-83.088773),
    Act("escher-ganger-2", Action(ActionKind.SHOOT, weapon="Autogun", target="orlock-leader"),
        turn_to=110.556045),
    Act("escher-ganger-2", Action(ActionKind.MOVE, path=((11.957, 9.601),), facing=131.734156)),
)  # fmt: skip


def test_the_testers_necromunda_game_draws_the_shot_from_where_the_ganger_fired(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    scenario = load_scenario(SCENARIOS / "necromunda-demo.toml")
    session = Session.start(scenario, 3)
    app = App(scenario, session=session)
    fired: dict[str, tuple[float, float]] = {}
    for declaration in TESTERS_DECLARATIONS:
        # the computer's (Escher's) through the window's computer path, as in the game
        if session.is_ai(session.game.awaiting().side):
            app.perform(StepAI(declaration, chosen=True))
        else:
            app.declare(declaration)
        for shot in app.state.shots:
            fired.setdefault(shot.shooter, shot.start)
    assert {"orlock-heavy", "escher-ganger-2"} <= fired.keys()  # both shots were fired
    ganger = app.scenario.model("escher-ganger-2").at
    assert fired["escher-ganger-2"] == (10.0, 5.0)  # where it stood to shoot
    assert ganger == pytest.approx((11.957, 9.601))  # it moved on after
    lines = [s for s in app.state.shots if s.shooter == "escher-ganger-2"]
    assert lines and all(s.start == (10.0, 5.0) for s in lines)
    on_it = [s for s in app.state.shots if s.target == "escher-ganger-2"]
    assert on_it and all(s.end == (10.0, 5.0) for s in on_it)  # shot at where it stood
    drawn: list[tuple[Point, Point]] = []

    def draw_shot(surface: object, start: Point, end: Point, *args: object) -> None:
        drawn.append((start, end))

    monkeypatch.setattr(frame, "draw_shot", draw_shot)
    assert app.draw().get_size() == (1280, 800)
    assert ((10.0, 5.0), app.scenario.model("orlock-leader").at) in drawn  # as it is drawn
    assert all(ganger not in line for line in drawn)


# The first 22 declarations of the careful player's game of infinity-demo, seed 3, as it
# made them in session 11, written out: the test does not depend on what it chooses now.
# Orc 1 shoots five times at the Zhanshi Lieutenant, who dodges; then three AROs are
# taken at a point of the mover's route short of its end (17, 20 and 21).
_ORC_SHOOTS = (
    Activate("orc-1", Skill.attack("MULTI Rifle", ("zhanshi-lt", 3))),
    React("zhanshi-lt", Skill.dodge()),
    Continue(Skill.idle()),
)
CAREFUL_DECLARATIONS = (
    *_ORC_SHOOTS * 5,
    Activate("fusilier-lt", Skill.move((17.973920286105184, 29.04397636061088),
                                       facing=-60.066511451585875)),
    React("zhanshi-lt", Skill.attack("Combi Rifle", ("fusilier-lt", 1)),
          at=(17.399563814296613, 29.10988611967088)),
    Continue(Skill.attack("Combi Rifle", ("zhanshi-lt", 3))),
    Activate("zhanshi-hmg", Skill.move((16.577227572286915, 7.958131924253126),
                                       facing=81.70285503016314)),
    React("fusilier-1", Skill.attack("Combi Rifle", ("zhanshi-hmg", 1)),
          at=(16.288613786143458, 5.979065962126564)),
    React("fusilier-2", Skill.attack("Combi Rifle", ("zhanshi-hmg", 1)),
          at=(16.276561547378417, 5.896422039166282)),
    Continue(Skill.attack("HMG", ("fusilier-1", 4))),
)  # fmt: skip


def test_an_infinity_aro_line_ends_where_the_mover_was_on_its_route() -> None:
    # Infinity: an ARO is taken at a point of the active trooper's route (the React's
    # `at`); the Order resolves after the whole move (its Moved event first)
    game = Game.replay(load_scenario(SCENARIOS / "infinity-demo.toml"), 3, CAREFUL_DECLARATIONS)
    rules = InfinityRules(game.engine)  # type: ignore[arg-type]
    events = game.events
    found = 0
    for i, e in enumerate(events):
        d = e.declaration if isinstance(e, Declared) else {}
        if d.get("declare") != "React" or d.get("at") is None or d["skill"]["kind"] != "attack":
            continue
        end = next(j for j in range(i, len(events)) if isinstance(events[j], Rolled))
        end = next(
            (j for j in range(end, len(events)) if isinstance(events[j], Declared)), len(events)
        )
        history = events[:end]
        begun = max(j for j in range(i) if isinstance(events[j], Declared)
                    and events[j].declaration.get("declare") == "Activate")  # fmt: skip
        active = events[begun].declaration["model"]
        route = next(e.path for e in events[begun:end] if isinstance(e, Moved))
        aimed = rules.aimed(history)
        assert aimed[(d["model"], active)] == (None, tuple(d["at"]))
        where = {m: (0.0, 0.0) for m in (d["model"], active)}
        where[active] = route[0]
        batch = events[begun:end]
        shots = {(s.shooter, s.target): s for s in dice_log.shots(batch, where, 10, aimed)}
        assert shots[(d["model"], active)].end == pytest.approx(tuple(d["at"]))
        assert route[-1] != pytest.approx(tuple(d["at"]))  # not the end of the move
        found += 1
    assert found == 3  # 17, 20 and 21


def test_an_infinity_attack_declared_before_the_move_is_fired_from_the_start() -> None:
    # Infinity: the first skill an attack, the second a move: fired from the route's
    # start; the second an attack: from its end; an attack naming its point: from there
    start, end = (2.0, 2.0), (6.0, 2.0)
    attack = {"kind": "attack", "weapon": "Combi Rifle", "targets": [["r1", 3]]}
    move = {"kind": "move", "path": [list(end)]}

    def order(first: dict[str, object], second: dict[str, object]) -> list[object]:
        return [
            Declared("blue", {"declare": "Activate", "model": "b1", "skill": first}),
            Declared("blue", {"declare": "Continue", "skill": second}),
            Moved("b1", (start, end), 4.0),
        ]

    rules = InfinityRules.__new__(InfinityRules)
    assert rules.aimed(order(attack, move)) == {("b1", "r1"): (start, None)}
    assert rules.aimed(order(move, attack)) == {("b1", "r1"): (end, None)}
    named = attack | {"origin": [4.0, 2.0]}
    assert rules.aimed(order(move, named)) == {("b1", "r1"): ((4.0, 2.0), None)}
