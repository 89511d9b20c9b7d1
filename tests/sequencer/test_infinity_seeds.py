"""The worked examples of seed 003 replayed on the sequencer with scripted dice.

The table puts a Fusilier (BS 12) and Zhanshi (BS 11) 15" apart edge to edge, each
in contact with a low wall that hides part of it: +3 range, -3 partial cover, so
SV 12 against SV 11, as in the seed. Zhanshi B stands 9" away, also behind a low wall.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from game.errors import IllegalDeclaration
from game.scenario import load_scenario
from game.sequencer.events import Hit, Rolled, SaveRolled, StateChanged, TurnStarted, Wounded
from game.sequencer.game import Game
from game.sequencer.infinity import Activate, Continue, EndTurn, React, Skill
from tests.conftest import field_line
from tests.sequencer.scripted import ScriptedDice

Write = Callable[..., Path]
R = 25 / 25.4 / 2  # a 25 mm base's radius in inches

FUSILIER = (16.0, 28.0)
ZHANSHI_A = (16.0, 28.0 - 15.0 - 2 * R)  # 15" edge to edge, straight ahead
_B_CENTRES = 9.0 + 2 * R
ZHANSHI_B = (10.0, 28.0 - math.sqrt(_B_CENTRES**2 - 36.0))  # 9" edge to edge


def _low_wall_before(at: tuple[float, float], towards: tuple[float, float], name: str) -> str:
    """A 0.5" high wall, 2" wide, 0.05" in front of the base at `at`, facing `towards`."""
    dx, dy = towards[0] - at[0], towards[1] - at[1]
    d = math.hypot(dx, dy)
    ux, uy = dx / d, dy / d
    px, py = -uy, ux
    near, far = R + 0.05, R + 0.2
    corners = [
        (at[0] + ux * near + px, at[1] + uy * near + py),
        (at[0] + ux * far + px, at[1] + uy * far + py),
        (at[0] + ux * far - px, at[1] + uy * far - py),
        (at[0] + ux * near - px, at[1] + uy * near - py),
    ]
    pts = ", ".join(f"[{x:.4f}, {y:.4f}]" for x, y in corners)
    return f'[[scenery]]\nid = "{name}"\nkind = "wall"\nheight = 0.5\npolygon = [{pts}]\n\n'


def table(write: Write, with_b: bool = False) -> Path:
    text = """
[scenario]
name = "Seed 003"
ruleset = "infinity"
table = [32, 32]
turns = 1

[[side]]
id = "pano"

[[side]]
id = "yj"

"""
    text += _low_wall_before(FUSILIER, ZHANSHI_A, "wall-fusilier")
    text += _low_wall_before(ZHANSHI_A, FUSILIER, "wall-a")
    models = [
        ("fusilier", "pano", "fusilier", FUSILIER, -90),
        ("zhanshi-a", "yj", "zhanshi", ZHANSHI_A, 90),
    ]
    if with_b:
        text += _low_wall_before(ZHANSHI_B, FUSILIER, "wall-b")
        facing_b = math.degrees(math.atan2(FUSILIER[1] - ZHANSHI_B[1], FUSILIER[0] - ZHANSHI_B[0]))
        models.append(("zhanshi-b", "yj", "zhanshi", ZHANSHI_B, facing_b))
    for mid, side, profile, (x, y), facing in models:
        text += (
            f'[[model]]\nid = "{mid}"\nside = "{side}"\nprofile = "{profile}"\n'
            f"at = [{x}, {y}]\nfacing = {facing}\n\n"
        )
    return write(text, header=False)


def rolls(events: list[Any]) -> dict[str, Rolled]:
    return {e.model + ":" + e.purpose.split(" at ")[-1]: e for e in events if isinstance(e, Rolled)}


def test_face_to_face_one_against_one(write_scenario: Write) -> None:
    """Seed 003: SV 12 against SV 11; all succeed, the Zhanshi's 7 cancels the Fusilier's
    lower successes and wins; the Fusilier is hit and makes a Saving Roll."""
    game = Game(load_scenario(table(write_scenario)), seed=1)
    game.rng = ScriptedDice(2, 4, 6, 7, 15)  # type: ignore[assignment]
    game.declare(Activate("fusilier", Skill.attack("Combi Rifle", ("zhanshi-a", 3))))
    assert game.awaiting().kind == "aro" and game.awaiting().models == ("zhanshi-a",)
    game.declare(React("zhanshi-a", Skill.attack("Combi Rifle", ("fusilier", 1))))
    events = game.declare(Continue(Skill.idle()))
    r = rolls(events)
    fus, zha = (
        r["fusilier:zhanshi-a"],
        r["zhanshi-a:fusilier"],
    )
    assert (fus.target, zha.target) == (12, 11)
    assert [(m.source.split(" ")[0], m.value) for m in fus.modifiers] == [
        ("range", 3),
        ("partial", -3),
    ]
    assert fus.results == ("cancelled", "cancelled", "cancelled")
    assert zha.results == ("success",)
    hits = [e for e in events if isinstance(e, Hit)]
    assert [(h.attacker, h.target, h.critical) for h in hits] == [("zhanshi-a", "fusilier", False)]
    # N5: saved on PS 7 + ARM 1 + 3 partial cover = 11 or less; a 15 wounds.
    [save] = [e for e in events if isinstance(e, SaveRolled)]
    assert (save.model, save.faces, save.target, save.wounds) == ("fusilier", (15,), 11, 1)
    assert any(isinstance(e, Wounded) and e.model == "fusilier" for e in events)
    assert StateChanged("fusilier", "normal", "unconscious") in events
    assert game.state.model("fusilier").status == "unconscious"
    assert game.rng.left() == []  # type: ignore[attr-defined]


def test_double_critical_tie_and_normal_roll_of_second_reactor(write_scenario: Write) -> None:
    """Seed 003: the Fusilier's full Burst at Zhanshi A, who answers; both roll a Critical
    and cancel. Zhanshi B (9" away) shoots too: a Normal roll, his 14 misses SV 11."""
    game = Game(load_scenario(table(write_scenario, with_b=True)), seed=1)
    game.rng = ScriptedDice(3, 12, 8, 11, 14)  # type: ignore[assignment]
    game.declare(Activate("fusilier", Skill.attack("Combi Rifle", ("zhanshi-a", 3))))
    assert set(game.awaiting().models) == {"zhanshi-a", "zhanshi-b"}
    game.declare(React("zhanshi-a", Skill.attack("Combi Rifle", ("fusilier", 1))))
    game.declare(React("zhanshi-b", Skill.attack("Combi Rifle", ("fusilier", 1))))
    events = game.declare(Continue(Skill.idle()))
    rolled = [e for e in events if isinstance(e, Rolled)]
    assert [(e.model, e.target, e.faces) for e in rolled] == [
        ("fusilier", 12, (3, 12, 8)),
        ("zhanshi-a", 11, (11,)),
        ("zhanshi-b", 11, (14,)),
    ]
    assert rolled[0].results == ("cancelled", "cancelled", "cancelled")
    assert rolled[1].results == ("cancelled",)
    assert rolled[2].results == ("fail",)
    assert not [e for e in events if isinstance(e, Hit | SaveRolled)]


def test_split_burst_two_face_to_face_rolls(write_scenario: Write) -> None:
    """Seed 003: Burst 3 split 2 at Zhanshi A and 1 at Zhanshi B. Against A, A's 5 cancels
    the 4 and the Fusilier's 9 wins: A is hit. Against B both roll 11, a Critical for B
    (SV 11): the Fusilier takes a critical hit, two Saving Rolls."""
    game = Game(load_scenario(table(write_scenario, with_b=True)), seed=1)
    game.rng = ScriptedDice(4, 9, 5, 11, 11, 3, 1, 2, 1, 1)  # then two Guts Rolls  # type: ignore[assignment]
    game.declare(
        Activate("fusilier", Skill.attack("Combi Rifle", ("zhanshi-a", 2), ("zhanshi-b", 1)))
    )
    game.declare(React("zhanshi-a", Skill.attack("Combi Rifle", ("fusilier", 1))))
    game.declare(React("zhanshi-b", Skill.attack("Combi Rifle", ("fusilier", 1))))
    events = game.declare(Continue(Skill.idle()))
    hits = [(h.attacker, h.target, h.critical) for h in events if isinstance(h, Hit)]
    assert hits == [("fusilier", "zhanshi-a", False), ("zhanshi-b", "fusilier", True)]
    saves = [(s.model, len(s.faces)) for s in events if isinstance(s, SaveRolled)]
    assert saves == [("zhanshi-a", 1), ("fusilier", 2)]  # a critical forces an extra save
    assert game.state.model("fusilier").status == "normal"  # 1 and 2 are saved (<= 11)


def test_illegal_declarations_leave_everything_unchanged(write_scenario: Write) -> None:
    game = Game(load_scenario(table(write_scenario, with_b=True)), seed=7)
    before = (game.state, list(game.events), game.rng.bit_generator.state)
    cases = [
        (Activate("zhanshi-a", Skill.idle()), "not on the active side"),
        (Activate("fusilier", Skill.attack("Combi Rifle", ("zhanshi-a", 2))), "Burst 3"),
        (Activate("fusilier", Skill.attack("HMG", ("zhanshi-a", 3))), "has no HMG"),
        (Activate("fusilier", Skill.move((16, 20))), 'can move 4"'),
        (Activate("fusilier", Skill.move((16, 26.5))), "cannot move there"),
        (React("zhanshi-a", Skill.idle()), "no ARO can be declared now"),
        (Continue(Skill.idle()), "no second skill"),
    ]
    for declaration, reason in cases:
        with pytest.raises(IllegalDeclaration, match=reason):
            game.declare(declaration)
        assert (game.state, game.events, game.rng.bit_generator.state) == before
    assert game.declarations == []


def test_target_behind_the_arc_is_refused(write_scenario: Write) -> None:
    path = table(write_scenario)
    text = path.read_text().replace("facing = -90", "facing = 90")  # the Fusilier turns away
    path.write_text(text)
    game = Game(load_scenario(path), seed=3)
    with pytest.raises(IllegalDeclaration, match="outside fusilier's 180 degree arc"):
        game.declare(Activate("fusilier", Skill.attack("Combi Rifle", ("zhanshi-a", 3))))


def test_end_turn_passes_to_the_other_side(write_scenario: Write) -> None:
    game = Game(load_scenario(table(write_scenario)), seed=3)
    assert game.state.active == "pano"
    game.declare(EndTurn())
    assert game.state.active == "yj"
    assert game.awaiting().kind == "order"


def test_shooting_into_close_combat_hits_the_engaged_ally(write_scenario: Write) -> None:
    """Seed 000: -6 for each allied trooper engaged with the target; every failed die
    hits that ally instead, who makes a Saving Roll."""
    path = write_scenario(
        """
[scenario]
name = "Melee"
ruleset = "infinity"
table = [32, 32]

[[side]]
id = "pano"

[[side]]
id = "yj"

[[model]]
id = "shooter"
side = "pano"
profile = "fusilier"
at = [16, 28]
facing = -90

[[model]]
id = "brawler"
side = "pano"
profile = "fusilier"
at = [16, 19.0157]

[[model]]
id = "zhanshi"
side = "yj"
profile = "zhanshi"
at = [16, 20]
facing = 90
""",
        header=False,
    )
    game = Game(load_scenario(path), seed=1)
    # Shooter SV 12 + 3 (range 7") - 6 (one ally engaged) = 9: a 3 hits, 15 and 18 fail.
    game.rng = ScriptedDice(3, 15, 18, 1, 2, 3)  # type: ignore[assignment]
    game.declare(Activate("shooter", Skill.attack("Combi Rifle", ("zhanshi", 3))))
    game.declare(React("zhanshi", Skill.idle()))
    events = game.declare(Continue(Skill.idle()))
    [roll] = [e for e in events if isinstance(e, Rolled)]
    assert roll.target == 9
    assert ("close", -6) in [(m.source.split(" ")[0], m.value) for m in roll.modifiers]
    hits = [(h.attacker, h.target) for h in events if isinstance(h, Hit)]
    assert hits == [("shooter", "zhanshi"), ("shooter", "brawler"), ("shooter", "brawler")]
    assert [s.model for s in events if isinstance(s, SaveRolled)] == [
        "zhanshi",
        "brawler",
        "brawler",
    ]


def test_objectives_decide_the_game_at_the_turn_limit(write_scenario: Write) -> None:
    """Scenario objectives: the side with more troopers able to act within the radius
    holds an objective; objective points decide, troopers' points break ties."""
    path = write_scenario(
        """
[scenario]
name = "Objectives"
ruleset = "infinity"
table = [32, 32]
turns = 1

[[side]]
id = "pano"

[[side]]
id = "yj"

[[objective]]
id = "antenna"
at = [4, 4]
radius = 1.0
points = 3

[[objective]]
id = "console"
at = [28, 28]
radius = 1.0

[[model]]
id = "fusilier"
side = "pano"
profile = "fusilier"
at = [28, 29]

[[model]]
id = "zhanshi"
side = "yj"
profile = "zhanshi"
at = [4, 5.2]

[[model]]
id = "hac-tao"
side = "yj"
profile = "hac-tao"
at = [20, 4]
""",
        header=False,
    )
    game = Game(load_scenario(path), seed=1)
    game.declare(EndTurn())
    events = game.declare(EndTurn())
    [ended] = [e for e in events if e.name == "GameEnded"]
    # yj holds the antenna (3), pano the console (1): yj wins though pano scores fewer troops.
    assert ended.scores == {"pano": 1, "yj": 3}  # type: ignore[attr-defined]
    assert game.state.winner == "yj"
    assert "antenna to yj" in ended.reason and "console to pano" in ended.reason  # type: ignore[attr-defined]


def test_objective_off_the_table_is_bad_input(write_scenario: Write) -> None:
    from game.scenario import check_scenario

    path = write_scenario('[[objective]]\nid = "x"\nat = [40, 4]\n')
    _, problems = check_scenario(path)
    line = field_line(path, 14, "at")  # the `at` line, not the [[objective]] header's
    assert [str(p) for p in problems] == [f"{path}:{line}: objective 'x': (40, 4) is off the table"]


def test_no_order_left_and_a_model_that_cannot_act(write_scenario: Write) -> None:
    """Two troopers and a Lieutenant give 2 regular Orders and the Lieutenant's own; an
    unconscious trooper gives none and cannot act."""
    path = write_scenario(
        """
        [[model]]
        id = "lt"
        side = "blue"
        profile = "fusilier"
        at = [2, 22]
        lieutenant = true

        [[model]]
        id = "f2"
        side = "blue"
        profile = "fusilier"
        at = [6, 22]

        [[model]]
        id = "down"
        side = "blue"
        profile = "fusilier"
        at = [10, 22]
        state = "unconscious"

        [[model]]
        id = "z1"
        side = "red"
        profile = "zhanshi"
        at = [22, 2]
        facing = -45
        """
    )
    game = Game(load_scenario(path), seed=4)
    assert game.events[0] == TurnStarted(1, "blue", 3)
    with pytest.raises(IllegalDeclaration, match="down is unconscious and cannot act"):
        game.declare(Activate("down", Skill.idle()))
    for _ in range(2):
        game.declare(Activate("f2", Skill.idle()))
        game.declare(Continue(Skill.idle()))
    assert game.awaiting().models == ("lt",)  # only the Lieutenant's Order is left
    with pytest.raises(IllegalDeclaration, match=r"^only the Lieutenant Order is left: lt, the"):
        game.declare(Activate("f2", Skill.idle()))
    game.declare(Activate("lt", Skill.idle()))
    game.declare(Continue(Skill.idle()))
    assert game.state.active == "red"  # no Orders left: the turn passes
