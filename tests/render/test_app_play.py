"""Playing a game on the table with mouse and keyboard (SDL dummy driver): Orders, AROs,
split Burst, illegal declarations explained, undo/redo, save/load, the automatic player,
and the hover's SV against `skirmish shoot --json`."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pygame
import pytest

from game.cli import main
from game.render import frame
from game.render.app import AI_FRAMES, App, Confirm
from game.render.declaring import PickRoutePoint, too_far
from game.render.dice_log import log_lines
from game.render.help import help_sections
from game.render.infinity_play import orders_left
from game.render.panel import OVER_HELP, foot_keys
from game.render.session import SAVE_NAME, Session
from game.scenario import load_scenario
from game.sequencer.declarations import decode
from game.sequencer.events import Rolled
from game.sequencer.infinity import Activate, Continue, EndTurn, React, SkillKind
from game.sequencer.sentences import names_of, who
from tests.render.driving import at, base, panel, press
from tests.render.driving import click as click_after_hover
from tests.sequencer.test_infinity_fidelity import IRREGULAR

Write = Callable[..., Path]
Point = tuple[float, float]

# Two humans, one turn each: the test plays both sides.
GAME = """
[scenario]
name = "Two a side"
ruleset = "infinity"
table = [24, 24]
turns = 1

[[side]]
id = "blue"
player = "human"

[[side]]
id = "red"
player = "human"

[[scenery]]
id = "crate"
kind = "obstacle"
height = 1.5
polygon = [[14, 12], [17, 12], [17, 14], [14, 14]]

[[model]]
id = "b1"
side = "blue"
profile = "fusilier"
at = [4, 20]
facing = -90

[[model]]
id = "b2"
side = "blue"
profile = "fusilier"
at = [10, 20]
facing = -90

[[model]]
id = "r1"
side = "red"
profile = "fusilier"
at = [4, 8]
facing = 90

[[model]]
id = "r2"
side = "red"
profile = "fusilier"
at = [10, 6]
facing = 90
"""


def awaiting(app: App) -> str:
    assert app.session is not None
    return app.session.game.awaiting().kind


def answer_aros(app: App, shooter: str | None = None, point: Point | None = None) -> None:
    """Red answers: `shooter` shoots (from the route point `point`), the rest stay idle."""
    while awaiting(app) == "aro":
        prompt = app.state.prompt
        assert prompt is not None and prompt.reacting
        assert "ARO to" in panel(app) and all(who(m) in panel(app) for m in prompt.models)
        reactor = app.state.selected
        assert reactor in prompt.models  # the first eligible trooper is picked for you
        if reactor == shooter:
            if point is not None:
                click(app, at(app, point))
                assert app.state.aro_at is not None
                assert math.dist(app.state.aro_at, point) < 0.1
            press(app, pygame.K_s, pygame.K_RETURN)
        else:
            press(app, pygame.K_i)
        assert app.state.message == ""


def b1_moved(write_scenario: Write, before: str = "", text: str = GAME) -> App:
    """Seed 3: Blue's first Order, b1 moves 2" up the table (M, a click, Enter); the
    panel said `before` first."""
    scenario = load_scenario(write_scenario(text, header=False))
    app = App(scenario, session=Session.start(scenario, seed=3))
    assert before in panel(app)
    click(app, base(app, "b1"))
    press(app, pygame.K_m)
    click(app, at(app, (4.0, 18.0)))
    press(app, pygame.K_RETURN)
    return app


def test_a_whole_game_by_mouse_and_keyboard(
    write_scenario: Write, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    path = write_scenario(GAME, header=False)
    scenario = load_scenario(path)
    session = Session.start(scenario, seed=3)
    app = App(scenario, session=session)
    assert "Blue: 2 Orders left" in panel(app)
    app.draw()

    # Blue's first Order: b1 moves 2" up the table (M, a click, Enter).
    click(app, base(app, "b1"))
    assert app.state.selected == "b1"
    press(app, pygame.K_m)
    click(app, at(app, (4.0, 13.0)))  # 7": more than MOV 4 allows
    assert "too far" in app.state.message and "too far" in panel(app)
    click(app, at(app, (4.0, 18.0)))
    draft = app.state.draft
    assert draft is not None and len(draft.points) == 1
    assert draft.left == pytest.approx(2.0, abs=0.1)
    assert '2.0" left' in panel(app)
    click(app, at(app, (5.0, 18.0)))
    press(app, pygame.K_BACKSPACE)  # that one was a slip
    assert len(app.state.draft.points) == 1  # type: ignore[union-attr]
    press(app, pygame.K_RETURN)
    assert awaiting(app) == "aro"

    # Red answers: r1 shoots b1 from the middle of its route, the others stay idle.
    answer_aros(app, shooter="r1", point=(4.0, 19.0))
    assert awaiting(app) == "second"
    assert app.state.selected == "b1"

    # b1's second skill: shoot, trying a friend first (refused, with the reason).
    press(app, pygame.K_s)
    click(app, base(app, "b2"))
    assert app.state.message == "B2 is an allied trooper (Blue), not an enemy"
    click(app, base(app, "r1"))
    assert app.state.draft is not None and app.state.draft.targets == (("r1", 3),)
    app.perform(Confirm())
    game = app.session.game  # type: ignore[union-attr]
    rolls = [e for e in game.events if isinstance(e, Rolled)]
    assert {r.model for r in rolls} >= {"b1", "r1"}
    # The dice log shows every roll as a sentence with its SV, dice and results (no
    # `=`: issue 15); shots are animated.
    shown = [line.text for line in app.state.log]
    for roll in rolls:
        [line] = log_lines(roll, app.scenario.ruleset, names_of(app.scenario))
        assert line.text in shown and f"SV {roll.target}; rolled" in line.text
        assert "=" not in line.text
    assert shown[-1] in panel(app)
    assert {(s.shooter, s.target) for s in app.state.shots} >= {("b1", "r1"), ("r1", "b1")}
    surface = app.draw()
    assert surface.get_size() == (1280, 800)
    assert app.scenario.model("b1").at == pytest.approx((4.0, 18.0), abs=0.02)

    # Blue's second Order: b2 splits its Burst over the red troopers still standing.
    alive = [m.id for m in game.state.models if m.side == "red" and m.status != "dead"]
    assert alive
    if game.awaiting().kind == "order" and "b2" in game.awaiting().models:
        click(app, base(app, "b2"))
        press(app, pygame.K_s)
        for target in alive:
            click(app, base(app, target))
        draft = app.state.draft
        assert draft is not None and sum(n for _, n in draft.targets) == 3
        if len(alive) == 2:
            assert draft.targets == ((alive[0], 2), (alive[1], 1))
            press(app, pygame.K_PLUS)  # the focused (last) target takes a die back
            assert app.state.draft.targets == ((alive[0], 1), (alive[1], 2))  # type: ignore[union-attr]
            press(app, pygame.K_MINUS)
        press(app, pygame.K_RETURN)
        answer_aros(app)
        assert awaiting(app) == "second"
        count = len(game.declarations) if game is app.session.game else 0  # type: ignore[union-attr]
        press(app, pygame.K_i)
        game = app.session.game  # type: ignore[union-attr]
        assert len(game.declarations) == count + 1

        # Undo takes the idle back (replayed from the list), redo puts it back.
        before = [e for e in game.events]
        press(app, pygame.K_z, mod=pygame.KMOD_CTRL)
        # what, as the log says, naming the trooper (review11: "undone: second skill,
        # stays idle" had no subject)
        assert app.state.message == "undone: second skill of B2, who stays idle"
        assert awaiting(app) == "second"
        assert len(app.session.game.declarations) == count  # type: ignore[union-attr]
        press(app, pygame.K_y, mod=pygame.KMOD_CTRL)
        assert app.state.message == "redone: second skill of B2, who stays idle"
        assert app.session.game.events == before  # type: ignore[union-attr]

    # End both turns: the game is over after one round.
    if awaiting(app) == "order":
        press(app, pygame.K_e)
    if awaiting(app) == "order":  # red's turn
        press(app, pygame.K_e)
    assert awaiting(app) == "over"
    assert "game over" in panel(app)
    # a key that would declare says once what is left to do, not "game over" again (fix11b:
    # each press repeated the panel's "game over: ..." as another line)
    lines = len(frame.panel_lines(app.scenario, app.state))
    for key in (pygame.K_m, pygame.K_s, pygame.K_e, pygame.K_RETURN, pygame.K_m):
        press(app, key)
        assert app.state.message == (
            "nothing more to declare: Ctrl+S saves the game, Ctrl+Z takes back your last "
            "declaration, Q quits; click a base or point at an enemy to look at the table"
        )
        assert panel(app).count("game over") == 1
        assert len(frame.panel_lines(app.scenario, app.state)) == lines + 1
    assert foot_keys(app.scenario, app.state) == OVER_HELP  # not M move, S shoot

    # Save: the sequencer's save file, written atomically in the current folder.
    final = app.session.game  # type: ignore[union-attr]
    press(app, pygame.K_s, mod=pygame.KMOD_CTRL)
    saved = tmp_path / SAVE_NAME
    assert app.state.message == f"saved {SAVE_NAME}"
    data = json.loads(saved.read_text())
    assert data["seed"] == 3 and data["scenario"] == str(path)
    assert [decode(d) for d in data["declarations"]] == final.declarations
    assert data["events"] == final.log()
    assert not list(tmp_path.glob(".*tmp"))
    kinds = [type(d) for d in final.declarations]
    assert kinds[0] is Activate and React in kinds and Continue in kinds and EndTurn in kinds
    first = final.declarations[0]
    assert isinstance(first, Activate) and first.skill.kind is SkillKind.MOVE
    reacted = [d for d in final.declarations if isinstance(d, React) and d.model == "r1"]
    assert reacted[0].skill.kind is SkillKind.ATTACK
    assert reacted[0].at is not None and reacted[0].at[1] == pytest.approx(19.0, abs=0.1)

    # Load: a fresh window takes the save and shows the same table.
    other = App(scenario, session=Session.start(scenario, seed=9))
    press(other, pygame.K_o, mod=pygame.KMOD_CTRL)
    assert other.state.message == f"loaded {SAVE_NAME}"
    loaded = other.session.game  # type: ignore[union-attr]
    assert loaded.seed == 3 and loaded.log() == final.log()
    assert loaded.state == final.state
    for model in final.state.models:
        assert other.scenario.model(model.id).at == pytest.approx(model.at)
    markers = dict(other.state.markers)
    assert {k: (m.status, m.wounds) for k, m in markers.items()} == {
        m.id: (m.status, m.wounds) for m in final.state.models
    }
    # And from the command line.
    assert main(["play", "--load", str(saved), "--frames", "2", "--screenshot", "x.png"]) == 0


def test_illegal_declarations_are_explained(write_scenario: Write) -> None:
    scenario = load_scenario(write_scenario(GAME, header=False))
    app = App(scenario, session=Session.start(scenario))
    press(app, pygame.K_m)
    assert app.state.message == "select a model first"
    click(app, base(app, "r1"))
    press(app, pygame.K_d)  # red is not the active side
    assert app.state.message == "R1 is not on the active side (Blue)"
    assert "R1 is not on the active side (Blue)" in panel(app)
    press(app, pygame.K_RETURN)
    assert app.state.message.startswith("nothing to confirm")
    press(app, pygame.K_z, mod=pygame.KMOD_CTRL)
    assert app.state.message == "nothing to undo"
    assert app.session is not None and app.session.game.declarations == []


def test_the_computer_plays_its_side_a_few_frames_apart(write_scenario: Write) -> None:
    text = GAME.replace('id = "red"\nplayer = "human"', 'id = "red"\nplayer = "ai"')
    scenario = load_scenario(write_scenario(text, header=False))
    app = App(scenario, session=Session.start(scenario, seed=5))
    assert app.session is not None
    press(app, pygame.K_e)  # blue gives up its turn: red (the computer) plays
    assert app.state.prompt is not None and app.state.prompt.side == "red"
    # what the computer is doing, without the keys a person would press
    assert not app.state.human and "the computer plays Red: 2 Orders left" in panel(app)
    assert "(computer)" not in panel(app) and "M/S/D/I" not in panel(app)
    click(app, base(app, "r1"))
    press(app, pygame.K_d)
    assert app.state.message == "the computer plays Red: wait for it"
    made = len(app.session.game.declarations)
    for _ in range(AI_FRAMES - app.ai_wait - 1):
        app.frame()
    assert len(app.session.game.declarations) == made  # not at once: a person can follow
    app.frame()
    assert len(app.session.game.declarations) == made + 1
    for _ in range(200):  # blue answers the computer's Orders with no ARO
        prompt = app.state.prompt
        assert prompt is not None
        if prompt.over:
            break
        if prompt.side == "blue":
            assert prompt.reacting and app.state.human
            press(app, pygame.K_i)
        else:
            app.run(frames=app.frames + AI_FRAMES)
    assert app.session.game.state.finished
    assert len(app.session.game.declarations) > made + 1
    # Undo takes back the person's last declaration and the computer's answers after it.
    whole = list(app.session.game.declarations)
    press(app, pygame.K_z, mod=pygame.KMOD_CTRL)
    left = app.session.game.declarations
    answers = len(whole) - len(left) - 1
    assert answers >= 1
    theirs = "declaration" if answers == 1 else f"{answers} declarations"
    assert app.state.message.startswith("undone: ")
    assert app.state.message.endswith(f", and the computer's {theirs} after it")
    assert left == whole[: len(left)]
    assert app.session.game.awaiting().side == "blue"  # the person's turn to choose again
    assert isinstance(whole[len(left)], React)  # blue's last ARO, and red's Orders after it


def test_hover_shows_the_sv_skirmish_shoot_gives(
    write_scenario: Write, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_scenario(GAME, header=False)
    assert main(["shoot", str(path), "--attacker", "b1", "--target", "r1", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    sv = next(r["success_value"] for r in report["rolls"] if r["model"] == "b1")
    scenario = load_scenario(path)
    app = App(scenario, session=Session.start(scenario))
    click(app, base(app, "b1"))
    pygame.event.post(
        pygame.event.Event(pygame.MOUSEMOTION, pos=base(app, "r1"), rel=(0, 0), buttons=(0, 0, 0))
    )
    app.frame()
    hover = app.state.hover
    assert hover is not None and hover.odds
    text = panel(app)
    assert f"-> SV {sv}, Burst 3" in text
    assert "MODs: range" in text
    assert "R1 idle: hit" in text and "R1 replies (Combi Rifle" in text
    # Another weapon, another roll: the Pistol's band at this range.
    press(app, pygame.K_2)
    assert app.state.hover is not None and app.state.hover.weapon == "Pistol"
    assert "Pistol at R1" in panel(app)


def test_no_odds_without_line_of_fire(write_scenario: Write) -> None:
    tower = """
[[scenery]]
id = "tower"
kind = "building"
polygon = [[8, 12], [12, 12], [12, 15], [8, 15]]
"""
    scenario = load_scenario(write_scenario(GAME + tower, header=False))
    app = App(scenario, session=Session.start(scenario))
    click(app, base(app, "b2"))
    pygame.event.post(
        pygame.event.Event(pygame.MOUSEMOTION, pos=base(app, "r2"), rel=(0, 0), buttons=(0, 0, 0))
    )
    app.frame()
    assert app.state.hover is not None and not app.state.hover.ruling.lof
    text = panel(app)
    assert "no BS Attack: no line of fire to R2" in text and "hit " not in text


def test_state_markers_are_drawn_on_the_bases(write_scenario: Write) -> None:
    text = GAME.replace(
        "at = [10, 6]\nfacing = 90", 'at = [10, 6]\nfacing = 90\nstate = "unconscious"'
    )
    scenario = load_scenario(write_scenario(text, header=False))
    app = App(scenario, session=Session.start(scenario))
    assert dict(app.state.markers)["r2"].status == "unconscious"
    surface = app.draw()
    assert surface.get_at(base(app, "r2"))[:3] == frame.DEAD  # greyed
    assert surface.get_at(base(app, "r1"))[:3] != frame.DEAD


def click(app: App, pos: tuple[int, int]) -> None:
    """These tests count frames (the computer acts some frames apart): no hover frame."""
    click_after_hover(app, pos, hover_first=False)


def test_the_window_plays_ai_sides_with_the_search_player_and_says_it_is_thinking(
    write_scenario: Write,
) -> None:
    """The window's computer is the search player; its budget is over 0.2 s, so before
    each choice the panel says the computer is thinking (drawn at once), and the line
    goes when the choice is made."""
    from game.ai.search import SearchPlayer
    from game.render.play_rules import THINKING_SHOWN

    text = GAME.replace('id = "red"\nplayer = "human"', 'id = "red"\nplayer = "ai"')
    scenario = load_scenario(write_scenario(text, header=False))
    app = App(scenario, session=Session.start(scenario, seed=5))
    session = app.session
    assert session is not None
    player = getattr(session.rules, "ai", None)
    assert isinstance(player, SearchPlayer) and player.expected_seconds > THINKING_SHOWN
    assert session.ai_slow()
    shown: list[str] = []
    draw = app.draw

    def spy() -> pygame.Surface:
        shown.append(app.state.message)
        return draw()

    app.draw = spy  # type: ignore[method-assign]
    press(app, pygame.K_e)  # blue gives up its turn: red (the computer) plays
    made = len(session.game.declarations)
    for _ in range(AI_FRAMES + 1):
        app.frame()
    assert len(session.game.declarations) == made + 1
    assert "the computer is thinking..." in shown
    assert app.state.message != "the computer is thinking..."


def test_one_order_left_is_singular(write_scenario: Write) -> None:
    app = b1_moved(write_scenario, before="Blue: 2 Orders left")
    answer_aros(app)
    assert awaiting(app) == "second"
    press(app, pygame.K_i)
    answer_aros(app)
    assert awaiting(app) == "order"
    assert "Blue: 1 Order left;" in panel(app)


def test_the_orders_line_says_the_lieutenant_order_apart(write_scenario: Write) -> None:
    """FACTS 3.4: the Lieutenant Special Order is the Lieutenant's alone; b1, the
    Lieutenant, spends it first (the line said "3 Orders left", then 2 with the
    Lieutenant Order among them)."""
    text = GAME.replace('id = "b1"\n', 'id = "b1"\nlieutenant = true\n', 1)
    app = b1_moved(write_scenario, "Blue: 2 Orders and the Lieutenant Order left;", text)
    answer_aros(app)
    press(app, pygame.K_i)
    answer_aros(app)
    assert awaiting(app) == "order"
    assert "Blue: 2 Orders left;" in panel(app)
    assert orders_left(0, (), True) == "the Lieutenant Order left"  # its Order alone


def test_the_window_says_who_the_lieutenant_is(write_scenario: Write) -> None:
    """FACTS 3.4: who the Lieutenant is, is open information: its label, the Selected
    panel and a trooper refused for want of an Order say it (tester13b finding 5: the
    window never did, yet offered "the Lieutenant Order")."""
    text = GAME.replace('id = "b1"\n', 'id = "b1"\nlieutenant = true\n', 1)
    app = b1_moved(write_scenario, "", text)
    answer_aros(app)
    press(app, pygame.K_i)  # b1's second skill: its Lieutenant Order is spent
    answer_aros(app)
    app.draw()
    labels = [label.text for label in app.cache.table.labels]
    assert "B1 (LT)" in labels and "B2" in labels
    click(app, base(app, "b1"))
    assert "B1, the Lieutenant  (Blue)" in panel(app)
    scenario = load_scenario(write_scenario(text, header=False))
    app = App(scenario, session=Session.start(scenario, seed=3))
    for _ in range(2):  # b2 spends both regular Orders
        click(app, base(app, "b2"))
        press(app, pygame.K_i)
        answer_aros(app)
        press(app, pygame.K_i)
        answer_aros(app)
    assert "Blue: the Lieutenant Order left;" in panel(app)
    click(app, base(app, "b2"))
    press(app, pygame.K_i)
    refusal = "only the Lieutenant Order is left: B1, the Lieutenant, may spend it"
    assert app.state.refusal == refusal and refusal in panel(app)


# the morat, irregular, alone (its models left out)
IRREGULAR_PROFILE = IRREGULAR.split("[[model]]")[0]


def test_the_orders_line_and_the_log_say_an_irregular_order_apart(write_scenario: Write) -> None:
    """FACTS 3.4: an Irregular Order is its trooper's alone, apart from the pool, as the
    Lieutenant Order is: the Orders line and the log's turn say the same three (tester13b
    findings 4 and 6: "2 Orders and the Lieutenant Order left" beside "3 Orders in the
    pool", where b2's own Order was no Order b1 could spend)."""
    text = GAME.replace('id = "b1"\n', 'id = "b1"\nlieutenant = true\n', 1)
    text = text.replace('profile = "fusilier"\nat = [10, 20]', 'profile = "morat"\nat = [10, 20]')
    scenario = load_scenario(write_scenario(text + IRREGULAR_PROFILE, header=False))
    app = App(scenario, session=Session.start(scenario, seed=3))
    said = "1 Order, B2's own Order and the Lieutenant Order"
    assert f"Blue: {said} left;" in panel(app)
    assert f"Turn 1: Blue's Active Turn, {said}" in panel(app)


def test_an_aro_s_takes_the_first_weapon_that_reaches_and_esc_keeps_the_trooper(
    write_scenario: Write,
) -> None:
    """FACTS 3.6: a Direct Template Weapon's teardrop must reach its target. r1's Light
    Flamethrower (its first weapon, 8") does not reach b1 10" away: S in its ARO takes
    the Combi Rifle, its second, saying why (tester13b finding 8: S tried the flamer, Enter
    refused it, nothing said 2 took the rifle). Esc takes back the last step only: the
    draft, then nothing more; the trooper asked to react stays selected (it was dropped)."""
    text = GAME.replace(
        'id = "r1"\nside = "red"\nprofile = "fusilier"',
        'id = "r1"\nside = "red"\nprofile = "fusilier-flamer"',
    )
    app = b1_moved(write_scenario, "", text)
    assert awaiting(app) == "aro" and app.state.selected == "r1"
    press(app, pygame.K_s)
    draft = app.state.draft
    assert draft is not None and draft.weapon == "Combi Rifle" and app.state.weapon == 1
    assert app.state.message == (
        "Light Flamethrower's template (8\") does not reach B1: S takes the Combi Rifle (2)"
    )
    for _ in range(2):
        press(app, pygame.K_ESCAPE)
        assert app.state.draft is None and app.state.selected == "r1"
    app.perform(PickRoutePoint((4.0, 19.0)))  # the ARO taken mid-move, then taken back
    press(app, pygame.K_ESCAPE)
    assert app.state.aro_at is None and app.state.selected == "r1"
    press(app, pygame.K_s, pygame.K_RETURN)
    assert app.state.refusal == "" and "R1 shoots the Combi Rifle at B1" in panel(app)


def test_the_aro_banner_says_a_guts_roll_is_failed_on_purpose_once_g_is_on(
    write_scenario: Write, monkeypatch: pytest.MonkeyPatch
) -> None:
    """FACTS 3.3, Guts Roll: "The player may choose to fail." Once G is on, the ARO
    banner (and F1's list) says so and how to cancel it, not "G first: ..."."""
    app = b1_moved(write_scenario)
    assert awaiting(app) == "aro"
    shown: list[tuple[str, ...]] = []
    banner = frame.draw_reaction_banner

    def spy(surface: pygame.Surface, prompt: Any, table: Any, *rest: Any) -> pygame.Rect:
        shown.append(prompt.choices)
        return banner(surface, prompt, table, *rest)

    monkeypatch.setattr(frame, "draw_reaction_banner", spy)
    app.draw()
    assert "G first: fail a Guts Roll on purpose" in shown[-1]
    press(app, pygame.K_g)
    app.draw()
    on = "Guts Roll: failing on purpose (G to cancel)"
    assert on in shown[-1] and not any(c.startswith("G first") for c in shown[-1])
    reacting = [keys for title, keys in help_sections(app.state) if title.startswith("Reacting")]
    assert on in reacting[0]
    press(app, pygame.K_g)  # off again
    app.draw()
    assert "G first: fail a Guts Roll on purpose" in shown[-1]


def test_a_key_refused_during_an_aro_names_the_aros_own_keys(write_scenario: Write) -> None:
    # M (and A) during an ARO was refused with "S shoot, D dodge, I idle" while its keys
    # say "I no ARO" (fix13a): one word for it in both
    app = b1_moved(write_scenario)
    assert awaiting(app) == "aro" and app.state.prompt is not None
    assert "I no ARO" in app.state.prompt.choices
    press(app, pygame.K_m)
    keys = "S shoot at B1, D dodge, I no ARO"
    assert app.state.message == f"an ARO cannot be a Move here: {keys}"
    assert awaiting(app) == "aro" and app.state.draft is None
    press(app, pygame.K_a)  # a key Infinity has no skill for: the ARO's keys again
    assert app.state.message == f"Infinity has no aim here: {keys}"
    assert awaiting(app) == "aro"


def test_guts_roll_failed_on_purpose_with_g(write_scenario: Write) -> None:
    # FACTS 3.3, Guts Roll: "The player may choose to fail." G, then the skill: the
    # declared skill says so (the sequencer then rolls no die for it); the option lasts
    # one declaration and is listed among the ARO banner's choices.
    app = b1_moved(write_scenario)
    assert app.session is not None
    assert awaiting(app) == "aro"
    prompt = app.state.prompt
    assert prompt is not None and any(
        c == "G first: fail a Guts Roll on purpose" for c in prompt.choices
    )
    reactor = app.state.selected
    press(app, pygame.K_g)
    said = "G (fail a Guts Roll on purpose this Order): on for the next declaration"
    assert app.state.message == said and said in panel(app)
    press(app, pygame.K_g, pygame.K_g)  # off, on again
    press(app, pygame.K_i)
    game = app.session.game
    [react] = [d for d in game.declarations if isinstance(d, React)]
    assert react.model == reactor and react.skill.kind is SkillKind.IDLE and react.skill.fail_guts
    assert app.state.toggled == frozenset()
    answer_aros(app)  # the others: no G, no choice
    assert all(
        not d.skill.fail_guts for d in game.declarations if isinstance(d, React) and d != react
    )
    assert not any(isinstance(d, Activate) and d.skill.fail_guts for d in game.declarations)


@pytest.mark.parametrize("name", ["necromunda-demo", "infinity-demo", "open-rebellion-demo"])
def test_the_windows_dice_log_reads_as_replay_does(name: str) -> None:
    """The window's log told each event on its own and missed what `skirmish replay`
    says from the events before (the game's `Teller`: a hit on a fighter already down,
    the Wounds lost in all, a unit's cover); it is told by the game's Teller too, and
    afresh after an undo."""
    from game.playtest.batch import automatic_player
    from game.render.following import LOG_LINES
    from game.scenario.names import told_names
    from game.sequencer.sentences import Teller
    from tests.conftest import SCENARIOS

    scenario = load_scenario(SCENARIOS / f"{name}.toml")
    session = Session.start(scenario, seed=4)
    app = App(scenario, session=session)
    player = automatic_player(session.game.engine, "simple")
    for _ in range(25):
        if session.game.state.finished:
            break
        app.declare(player.choose(session.game.state, session.game.awaiting()))
    teller = Teller(scenario.ruleset, told_names(scenario))
    told = [said for said in (teller.say(e) for e in session.game.events) if said]
    told = [*session.who_plays(), *told]  # the log says first who the computer plays
    assert [line.text for line in app.state.log] == told[-LOG_LINES:]
    press(app, pygame.K_z, mod=pygame.KMOD_CTRL)  # undo: told again from the start
    teller = Teller(scenario.ruleset, told_names(scenario))
    told = [said for said in (teller.say(e) for e in session.game.events) if said]
    told = [*session.who_plays(), *told]  # the log says first who the computer plays
    assert [line.text for line in app.state.log] == told[-LOG_LINES:]


def test_too_far_says_how_far_the_click_was_as_in_every_system(write_scenario: Write) -> None:
    # Infinity's move path refused past MOV said 'too far: 4.00" of movement left' and not
    # how far the click was, where Open Rebellion says 'too far: 10.0" away, 9" at most'
    # (tester12 item 7)
    scenario = load_scenario(write_scenario(GAME, header=False))
    app = App(scenario, session=Session.start(scenario, seed=3))
    app.draw()
    click(app, base(app, "b1"))
    press(app, pygame.K_m)
    click(app, at(app, (4.0, 13.0)))  # 7" from b1 at (4, 20): MOV 4 (the first 4 of 4-2)
    assert app.state.message == 'too far: 7.0" away, 4" of movement left'
    click(app, at(app, (4.0, 18.0)))
    click(app, at(app, (4.0, 13.0)))  # 5" on from the point at 2"
    assert app.state.message == 'too far: 5.0" from the last point, 2" of movement left'
    draft = app.state.draft
    assert draft is not None and len(draft.points) == 1  # the draft as it was
    # just past the limit it is said to the hundredth, never as the limit itself
    assert too_far(4.04, 4.0, "away", "of movement left") == (
        'too far: 4.04" away, 4" of movement left'
    )


def test_a_click_refused_just_past_the_limit_never_reads_as_the_limit() -> None:
    # past the limit by less than a hundredth: just over it (review12: it read 'too far:
    # 4.00" away, 4"', the refused distance as the limit; game.words.over's rule)
    assert too_far(4.004, 4.0, "away", "at most") == 'too far: just over 4" away, 4" at most'
    assert too_far(2.3749, 2.3712, "from the last point", "of movement left") == (
        'too far: just over 2.37" from the last point, 2.37" of movement left'
    )
    assert too_far(2.3849, 2.3712, "from the last point", "of movement left") == (
        'too far: 2.38" from the last point, 2.37" of movement left'
    )


@pytest.mark.parametrize(
    ("key", "said"),
    [(pygame.K_k, "coup de grace"), (pygame.K_c, "take cover"), (pygame.K_u, "stand up")],
)
def test_a_key_infinity_has_no_skill_for_is_named_in_words(key: int, said: str) -> None:
    """review14: K (Necromunda's Coup de Grace, c1dbb79), C and U pressed in Infinity were
    refused naming the key's id: "Infinity has no coup-de-grace here"."""
    from tests.conftest import SCENARIOS

    scenario = load_scenario(SCENARIOS / "infinity-demo.toml")
    app = App(scenario, session=Session.start(scenario, seed=1))
    assert app.session is not None
    game = app.session.game
    click_after_hover(app, base(app, game.awaiting().models[0]))
    press(app, key)
    keys = "M move, S shoot, D dodge, I idle"
    assert app.state.message == f"Infinity has no {said} here: {keys}"
    assert game.declarations == []
