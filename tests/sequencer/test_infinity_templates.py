"""Infinity Direct Template Weapons: no attack roll, everyone under the teardrop is hit
unless a wall stands between, a Dodge is a Normal PH roll, friends may not be covered."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from game.errors import IllegalDeclaration
from game.scenario import load_scenario
from game.sequencer.events import Hit, Rolled, SaveRolled, TemplatePlaced
from game.sequencer.game import Game
from game.sequencer.infinity import Activate, Continue, EndTurn, React, Skill
from game.sequencer.sentences import names_of, told
from tests.sequencer.scripted import ScriptedDice

Write = Callable[..., Path]

TABLE = """
[scenario]
name = "Flamer"
ruleset = "infinity"
table = [24, 24]

[[side]]
id = "blue"

[[side]]
id = "red"

[[scenery]]
id = "wall"
kind = "wall"
height = 2.0
line = [[9, 15], [11.4, 15]]
thickness = 0.2

[[model]]
id = "flamer"
side = "blue"
profile = "fusilier-flamer"
at = [12, 20]
facing = -90

[[model]]
id = "z1"
side = "red"
profile = "zhanshi"
at = [12, 15]
facing = 90

[[model]]
id = "z2"
side = "red"
profile = "zhanshi"
at = [13.2, 13]
facing = 90

[[model]]
id = "z3"
side = "red"
profile = "zhanshi"
at = [10.5, 14]
facing = 90
"""


def answer_aros(game: Game, **choices: Skill) -> None:
    while game.awaiting().kind == "aro":
        reactor = game.awaiting().models[0]
        game.declare(React(reactor, choices.get(reactor.replace("-", "_"), Skill.idle())))


def flame(target: str = "z1") -> Activate:
    return Activate("flamer", Skill.attack("Light Flamethrower", (target, 1)))


def of(kind: type, events: list[Any]) -> list[Any]:
    """The events of one kind; Guts Rolls, the Order's conclusion (N5), are left out of
    the rolls here (tests/sequencer/test_infinity_guts.py checks them)."""
    return [e for e in events if isinstance(e, kind) and getattr(e, "purpose", "") != "Guts Roll"]


def test_everyone_under_the_template_is_hit_but_not_behind_a_wall(write_scenario: Write) -> None:
    game = Game(load_scenario(write_scenario(TABLE, header=False)), seed=1)
    game.rng = ScriptedDice(9, 3, 1)  # z1 and z2 save; z2 passes its Guts Roll (1)  # type: ignore[assignment]
    game.declare(flame())
    answer_aros(game)
    events = game.declare(Continue(Skill.idle()))
    [placed] = of(TemplatePlaced, events)
    assert placed.affected == ("z1", "z2")  # z3 is under it too, but behind the wall
    assert placed.origin == pytest.approx((12, 20 - 25 / 25.4 / 2))  # the edge of the base
    assert not [r for r in of(Rolled, events) if r.model == "flamer"]  # no attack roll
    assert [(h.target, h.critical) for h in of(Hit, events)] == [("z1", False), ("z2", False)]
    # N5: PS 7 (DAM 13) + ARM 1 = 8; a template gets no Partial Cover bonus (rule data).
    assert [(s.model, s.target, s.wounds) for s in of(SaveRolled, events)] == [
        ("z1", 8, 1),
        ("z2", 8, 0),
    ]
    assert game.state.model("z1").status == "unconscious"


def test_a_dodge_is_a_normal_ph_roll_out_of_the_template(write_scenario: Write) -> None:
    game = Game(load_scenario(write_scenario(TABLE, header=False)), seed=1)
    game.rng = ScriptedDice(5, 2, 1)  # z1's PH 10 Dodge: 5 succeeds; z2 saves on a 2 (Guts 1)
    game.declare(flame())
    answer_aros(game, z1=Skill.dodge())
    events = game.declare(Continue(Skill.idle()))
    [dodge] = of(Rolled, events)
    assert (dodge.model, dodge.attribute, dodge.target, dodge.results) == (
        "z1",
        "PH",
        10,
        ("success",),
    )
    assert [h.target for h in of(Hit, events)] == ["z2"]


def test_a_friend_under_the_template_or_a_target_out_of_reach_is_refused(
    write_scenario: Write,
) -> None:
    text = TABLE + '\n[[model]]\nid = "pal"\nside = "blue"\nprofile = "fusilier"\nat = [12.9, 17]\n'
    scenario = load_scenario(write_scenario(text, header=False))
    game = Game(scenario, seed=1)
    with pytest.raises(IllegalDeclaration) as refused:
        game.declare(flame())
    # FACTS (Direct Template Weapons): friendly troopers may not be covered; said as the
    # engines say a friend is no target (it read "..., on flamer's side")
    said = told(str(refused.value), names_of(scenario))
    assert said == "Light Flamethrower's template would cover Pal, an allied trooper (Blue)"
    far = TABLE.replace("at = [13.2, 13]", "at = [13.2, 9]")
    game = Game(load_scenario(write_scenario(far, "far.toml", header=False)), seed=1)
    with pytest.raises(IllegalDeclaration, match="does not reach z2"):
        game.declare(flame("z2"))


def test_a_template_aro_makes_no_face_to_face(write_scenario: Write) -> None:
    """z1 shoots the flamer, who answers with its template: z1's roll is a Normal roll
    and the template hits z1 and z2 whatever z1 rolls."""
    game = Game(load_scenario(write_scenario(TABLE, header=False)), seed=1)
    game.declare(EndTurn())  # red's turn
    game.rng = ScriptedDice(20, 20, 20, 15, 1, 1)  # type: ignore[assignment]
    game.declare(Activate("z1", Skill.attack("Combi Rifle", ("flamer", 3))))
    game.declare(React("flamer", Skill.attack("Light Flamethrower", ("z1", 1))))
    events = game.declare(Continue(Skill.idle()))
    [placed] = of(TemplatePlaced, events)
    assert placed.model == "flamer" and placed.affected == ("z1", "z2")
    [roll] = of(Rolled, events)
    assert roll.model == "z1" and all(r == "fail" for r in roll.results)  # not "beaten"
    assert [(s.model, s.wounds) for s in of(SaveRolled, events)] == [("z1", 1), ("z2", 0)]


@pytest.mark.slow
def test_shoot_trials_with_a_template_agree_with_exact_odds(
    write_scenario: Write, capsys: pytest.CaptureFixture[str]
) -> None:
    import json
    import math

    from game.cli import main

    path = write_scenario(TABLE, header=False)
    n = 6000
    args = ["shoot", str(path), "--attacker", "flamer", "--target", "z1", "--reply"]
    assert main([*args, "--trials", str(n), "--seed", "8", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["exact"]["z1"]["hit"] == 1.0  # a template cannot miss what it touches
    assert 0 < report["exact"]["flamer"]["hit"] < 1  # the reply is a roll
    for model in ("flamer", "z1"):
        for key in ("hit", "wounded", "unconscious", "dead"):
            p = report["exact"][model][key]
            se = math.sqrt(max(p * (1 - p), 1e-12) / n)
            assert abs(report["models"][model][key] - p) <= 4 * se + 1e-9, (model, key)
