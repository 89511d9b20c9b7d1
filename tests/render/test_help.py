"""Help on the table (issue 15): F1 or ? opens an overlay with every key for what the
window is doing, the window opens with a hint saying so, and a reaction (an ARO) is
asked for in a banner with its choices as keys, the reacting troopers ringed and the
route's points shown."""

from __future__ import annotations

import dataclasses
import math

import pygame
import pytest

from game.render import help as table_help
from game.render.app import App, Select
from game.render.session import Session
from game.render.style import TARGET
from game.scenario import Scenario, load_scenario
from game.sequencer.infinity_orders import Activate, Continue, React, Skill
from tests.conftest import SCENARIOS
from tests.render.driving import base, panel, press


def _both_human(name: str) -> Scenario:
    scenario = load_scenario(SCENARIOS / f"{name}.toml")
    sides = tuple(s.model_copy(update={"player": "human"}) for s in scenario.sides)
    return dataclasses.replace(scenario, sides=sides)


def _fusilier_moves(app: App) -> None:
    """Infinity's demo: Fusilier 1 moves 3.5" up the table, and the other side is asked
    for its AROs."""
    m = app.scenario.model("fusilier-1")
    app.declare(Activate("fusilier-1", Skill.move((m.at[0] + 0.5, m.at[1] - 3.5))))


def _text_on(surface: pygame.Surface, rect: pygame.Rect, colour: tuple[int, int, int]) -> int:
    return sum(
        1
        for x in range(rect.left, rect.right, 2)
        for y in range(rect.top, rect.bottom, 2)
        if surface.get_at((x, y))[:3] == colour
    )


def test_the_hint_says_how_to_get_help_until_a_key() -> None:
    scenario = load_scenario(SCENARIOS / "necromunda-demo.toml")
    app = App(scenario, session=Session.start(scenario))
    assert app.state.hint
    surface = app.draw()
    strip = pygame.Rect(0, 0, app.state.table_size[0], 24)
    assert _text_on(surface, strip, table_help.HELP_TITLE) > 50  # the yellow hint box
    press(app, pygame.K_TAB)
    assert not app.state.hint
    assert _text_on(app.draw(), strip, table_help.HELP_TITLE) == 0


def test_f1_and_question_mark_open_every_key_for_now() -> None:
    scenario = _both_human("necromunda-demo")
    app = App(scenario, session=Session.start(scenario))
    press(app, pygame.K_F1)
    assert app.state.help
    titles = [title for title, _ in table_help.help_sections(app.state)]
    keys = [line for _, lines in table_help.help_sections(app.state) for line in lines]
    assert "Declaring (this rule system)" in titles
    assert set(app.session.rules.keys_help) <= set(keys)  # type: ignore[union-attr]
    assert any("Ctrl+Z" in k for k in keys) and any("PgUp" in k for k in keys)
    surface = app.draw()
    table = pygame.Rect(0, 0, *app.state.table_size)
    assert _text_on(surface, table, table_help.HELP_TITLE) > 200  # titles and the frame
    press(app, pygame.K_ESCAPE)
    assert not app.state.help
    event = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SLASH, mod=pygame.KMOD_SHIFT,
                               unicode="?", scancode=0)  # fmt: skip
    pygame.event.post(event)
    app.frame()
    assert app.state.help
    # A move being laid out: its keys come first.
    press(app, pygame.K_F1)
    assert app.state.prompt is not None
    app.perform(Select(app.state.prompt.models[0]))
    press(app, pygame.K_m)
    assert app.state.draft is not None, app.state.message
    assert table_help.help_sections(app.state)[0] == (
        "Laying out a move",
        app.state.prompt.move_keys,
    )


def test_an_aro_is_asked_for_in_a_banner_with_its_keys() -> None:
    scenario = _both_human("infinity-demo")
    app = App(scenario, session=Session.start(scenario, seed=4))
    _fusilier_moves(app)
    prompt = app.state.prompt
    assert prompt is not None and prompt.kind == "aro" and app.state.human
    assert prompt.choices == (
        "S shoot at Fusilier 1",
        "D dodge",
        "I no ARO",
        "G first: fail a Guts Roll on purpose",
    )
    press(app, pygame.K_F1)  # also clears the hint
    sections = table_help.help_sections(app.state)
    assert sections[0][0].startswith("Reacting")
    press(app, pygame.K_F1)
    surface = app.draw()
    banner = pygame.Rect(20, 10, app.state.table_size[0] - 40, 30)
    assert _text_on(surface, banner, table_help.ARO_BG) > 100
    for reactor in prompt.models:
        x, y = base(app, reactor)
        r = app.scenario.model(reactor).radius * app.state.view.scale
        ring = [surface.get_at((round(x + r + k), y))[:3] for k in range(3, 11)]
        assert TARGET in ring, reactor
    # A point of the route every inch: the dots the reaction may be taken at.
    (ax, ay), (bx, by) = prompt.route[0], prompt.route[-1]
    dot = app.state.view.to_screen(ax + (bx - ax) / abs(by - ay), ay + (by - ay) / abs(by - ay))
    assert surface.get_at((round(dot[0]), round(dot[1])))[:3] == (240, 240, 255)


@pytest.mark.parametrize("size", [(1280, 800), (800, 600)])
def test_the_opening_hint_never_covers_the_aro_banner(size: tuple[int, int]) -> None:
    """A reaction asked for before the first key (the hint still up): the banner is
    drawn whole and the hint below it."""
    scenario = _both_human("infinity-demo")
    app = App(scenario, session=Session.start(scenario, seed=4), size=size)
    _fusilier_moves(app)
    assert app.state.hint and app.state.prompt is not None and app.state.prompt.choices
    with_hint = app.draw().copy()
    scratch = pygame.Surface(app.state.table_size)
    banner = table_help.draw_reaction_banner(scratch, app.state.prompt, app.state.table_size)
    app.state = dataclasses.replace(app.state, hint=False)
    without = app.draw().copy()
    differ = [
        (x, y)
        for x in range(banner.left, banner.right, 2)
        for y in range(banner.top, banner.bottom, 2)
        if with_hint.get_at((x, y)) != without.get_at((x, y))
    ]
    assert not differ, differ[:5]
    hint = table_help.draw_hint(scratch, app.state.table_size, banner.bottom + 3)
    assert hint.top > banner.bottom
    assert with_hint.get_at(hint.center) != without.get_at(hint.center)  # drawn there


def test_replay_keys_in_the_help_while_stepping(tmp_path: object) -> None:
    from pathlib import Path

    from game.render.game_actions import LoadGame
    from tests.render.test_app_load import played_save

    save = Path(str(tmp_path)) / "save.json"
    played_save("open-rebellion", save)
    scenario = load_scenario(SCENARIOS / "open-rebellion-demo.toml")
    app = App(scenario)
    app.perform(LoadGame(save, first=True))
    sections = table_help.help_sections(app.state, scenario.ruleset.turn_word)
    assert sections[0] == ("Stepping through a saved game", table_help.replay_keys("turn"))


def test_a_replay_of_necromunda_steps_by_rounds(tmp_path: object) -> None:
    """Necromunda plays rounds (FACTS: a game of rounds): the replay's line, its keys
    in the panel and in F1 say "round", as the panel's "Round 1 of 4" above them does."""
    from pathlib import Path

    from game.render.game_actions import LoadGame
    from game.render.panel import panel_lines
    from tests.render.test_app_load import played_save

    save = Path(str(tmp_path)) / "save.json"
    played_save("necromunda", save)
    scenario = load_scenario(SCENARIOS / "necromunda-demo.toml")
    app = App(scenario)
    app.perform(LoadGame(save, first=True))
    assert app.state.replay.endswith(", round 1")
    said = " | ".join(line.text for line in panel_lines(app.scenario, app.state, ""))
    assert "Up/Down a round" in said and "turn" not in said.lower(), said
    keys = table_help.help_sections(app.state, app.scenario.ruleset.turn_word)[0][1]
    assert "Up / Down: the next round / back to the start of this round" in keys


def test_f2_the_edit_mode_is_in_the_help_overlay_and_in_play_help(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from game.cli import main

    scenario = load_scenario(SCENARIOS / "infinity-demo.toml")
    app = App(scenario, session=Session.start(scenario))
    press(app, pygame.K_F1)
    keys = [line for _, lines in table_help.help_sections(app.state) for line in lines]
    assert any(k.startswith("F2: edit the table") for k in keys)
    assert main(["play", "--help"]) == 0
    said = " ".join(capsys.readouterr()[0].replace("│", " ").split())
    assert "F2 edits the table" in said


def _aro_from_the_top(at_top: float, size: tuple[int, int]) -> App:
    """The Infinity demo, both sides played by people, the Zhanshi HMG moved to 20"
    across and `at_top` inches from the top edge, asked for an ARO as Fusilier 1 moves."""
    scenario = _both_human("infinity-demo")
    hmg = scenario.model("zhanshi-hmg")
    models = tuple(
        dataclasses.replace(m, at=(20.0, at_top)) if m.id == hmg.id else m for m in scenario.models
    )
    scenario = dataclasses.replace(scenario, models=models)
    app = App(scenario, session=Session.start(scenario, seed=4), size=size)
    _fusilier_moves(app)
    app.state = dataclasses.replace(app.state, hint=False)
    assert app.state.prompt is not None and "zhanshi-hmg" in app.state.prompt.models
    return app


@pytest.mark.parametrize("size", [(1280, 800), (960, 640)])
def test_the_aro_banner_leaves_the_models_asked_in_sight(
    size: tuple[int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The banner goes across the top of the table, unless it would cover a model asked
    to react (or its label) there and less at the bottom: then across the bottom; and
    when both edges hide a model, across the band between them that hides none."""
    from game.render import frame

    drawn: list[pygame.Rect] = []
    banner = frame.draw_reaction_banner

    def spy(*args: object, **kwargs: object) -> pygame.Rect:
        box = banner(*args, **kwargs)  # type: ignore[arg-type]
        drawn.append(box)
        return box

    monkeypatch.setattr(frame, "draw_reaction_banner", spy)
    for at_top, low in ((4.0, False), (0.8, True)):
        app = _aro_from_the_top(at_top, size)
        app.draw()
        box = drawn[-1]
        if low:
            assert box.top > app.state.table_size[1] // 2, (at_top, box)
        view = app.state.view
        assert not any(box.colliderect(frame._base_rect(m, view)) for m in app.scenario.models)
        x, y = app.state.view.to_screen(*app.scenario.model("zhanshi-hmg").at)
        assert not box.collidepoint(round(x), round(y))
        labels = [p.box for p in app.cache.table.labels if p.want.key == "zhanshi-hmg"]
        assert labels and not any(box.colliderect(pygame.Rect(*map(round, b))) for b in labels)


def test_a_range_rings_label_is_never_under_the_banner() -> None:
    """The band labels of the selected model's rings sit where nothing covers them: on
    the table, off the banner and off the other labels, trying the ring's spots in turn."""
    from game.render.overlays import RING_LABEL_ANGLES, ring_label_at

    surface = pygame.Surface((800, 600))
    free = ring_label_at(surface, '-3 to 8"', 16, (400, 150), 120, [])
    first = RING_LABEL_ANGLES[0]
    assert free == pytest.approx((400 + 120 * math.cos(math.radians(first)),
                                  150 + 120 * math.sin(math.radians(first))))  # fmt: skip
    banner = pygame.Rect(10, 6, 780, 90)  # the ring's top half is under it
    at = ring_label_at(surface, '-3 to 8"', 16, (400, 150), 120, [banner])
    box = pygame.Rect(0, 0, 60, 20)
    box.center = (round(at[0]), round(at[1]))
    assert not box.colliderect(banner) and surface.get_rect().contains(box)
    # labels everywhere: a spot on a label rather than one under the banner
    crowded = [surface.get_rect()]
    at = ring_label_at(surface, '-3 to 8"', 16, (400, 150), 120, crowded, [banner])
    box.center = (round(at[0]), round(at[1]))
    assert not box.colliderect(banner) and surface.get_rect().contains(box)


def _keys(app: App, title: str) -> tuple[str, ...]:
    return next(keys for t, keys in table_help.help_sections(app.state) if t == title)


def test_enter_and_the_draft_keys_say_what_each_step_takes() -> None:
    """review11: Enter with nothing laid out at Open Rebellion's initiative said "M move
    or S shoot first", which that step does not take; an ARO takes no move; an Open
    Rebellion move is one vector for the whole unit, C its tac-move, and it fires unit
    at unit, with no dice to split."""
    scenario = _both_human("open-rebellion-demo")
    app = App(scenario, session=Session.start(scenario, seed=1))
    press(app, pygame.K_RETURN)
    said = "nothing to confirm: select a unit and press E to roll for initiative"
    assert app.state.message == said
    app.perform(Select("reb-a1"))  # M and S lay out nothing the step takes (review12:
    for key in (pygame.K_m, pygame.K_s):  # a move drawn as a path, Enter then refused)
        press(app, key)
        assert app.state.draft is None
        assert app.state.message == "select a unit and press E to roll for initiative"
    for model in ("reb-a1", "gov-a1"):
        app.perform(Select(model))
        press(app, pygame.K_e)
    press(app, pygame.K_RETURN)
    assert app.state.message == "nothing to confirm: M move or S fire first"
    app.perform(Select("reb-a1"))
    press(app, pygame.K_m)
    assert _keys(app, "Laying out a move") == (
        "click: where the selected model goes (a new click moves it); its whole unit moves by "
        "the same vector",
        "Enter: standard move · C: tac-move · Esc: cancel",
    )
    # the panel's line of the move, in short (it said "click points, Backspace undoes one")
    assert (
        'Reb a1 moves 0.0" of 5" (5.0" left): click where it goes, Enter moves the unit, C '
        "tac-moves it" in panel(app)
    )
    press(app, pygame.K_ESCAPE)
    app.perform(Select("reb-a1"))
    press(app, pygame.K_s)
    assert _keys(app, "Aiming a shot") == (
        "click a model of an enemy unit: the whole unit is fired at",
        "Enter: declare · Esc: cancel",
    )
    press(app, pygame.K_RETURN)  # in the words of fire unit at unit (it said "shoot at")
    assert app.state.message == "click a model of an enemy unit to fire at first"

    scenario = _both_human("infinity-demo")
    app = App(scenario, session=Session.start(scenario, seed=4))
    _fusilier_moves(app)
    assert app.state.prompt is not None and app.state.prompt.kind == "aro"
    press(app, pygame.K_RETURN)
    said = "nothing to confirm: S shoot at Fusilier 1 first, or D dodge, I no ARO"
    assert app.state.message == said
    app.perform(Select(app.state.prompt.models[0]))
    press(app, pygame.K_s)
    assert _keys(app, "Aiming a shot") == (
        "the target: the model the reaction answers",
        "Enter: declare · Esc: cancel",
    )


def test_f1_declaring_lists_only_what_a_step_inside_an_order_takes() -> None:
    # FACTS 3.4: "Only ARO-usable skills are allowed" (here a Dodge, a BS Attack or
    # nothing), and the turn ends only between Orders. F1 during an ARO listed "M move ·
    # S shoot · D dodge · I idle · E end turn" under "Declaring", though M and E are
    # refused then (review12); the second skill of an Order takes no E either.
    scenario = _both_human("infinity-demo")
    app = App(scenario, session=Session.start(scenario, seed=4))
    _fusilier_moves(app)
    prompt = app.state.prompt
    assert prompt is not None and prompt.kind == "aro"
    guts = "G with the next skill: fail a Guts Roll on purpose this Order"
    confirm = "Enter confirm · Esc cancel · Ctrl+Z/Y undo/redo"
    declaring = "Declaring (this rule system)"
    assert _keys(app, declaring) == ("S shoot at Fusilier 1 · D dodge · I no ARO", guts, confirm)
    assert app.state.keys_help == _keys(app, declaring)  # the panel's help lines too
    for reactor in prompt.models:
        app.declare(React(reactor, Skill.idle()))
    assert app.state.prompt is not None and app.state.prompt.kind == "second"
    assert _keys(app, declaring) == ("M move · S shoot · D dodge · I idle", guts, confirm)
    app.declare(Continue(Skill.idle()))
    assert app.state.prompt is not None and app.state.prompt.kind == "order"
    assert _keys(app, declaring)[0] == "M move · S shoot · D dodge · I idle · E end turn"


def test_play_help_says_the_keys_are_the_rule_systems(capsys: pytest.CaptureFixture[str]) -> None:
    """tester14 finding 14: `play --help` listed one rule system's keys (D dodge, I idle,
    E end the turn) as every table's; now the keys common to all, and where each
    system's are."""
    from game.cli import main

    assert main(["play", "--help"]) == 0
    said = " ".join(capsys.readouterr()[0].replace("│", " ").split())
    assert "D dodge" not in said and "I idle" not in said, said
    assert "keys of the table's rule system (M moves and S shoots in each" in said, said
    assert "F1 in the window lists them" in said and "README's Playing part" in said, said


@pytest.mark.parametrize("size", [(1280, 800), (800, 600)])
def test_the_help_shades_the_whole_table_rings_and_their_labels_too(
    size: tuple[int, int],
) -> None:
    """The range rings and their labels at the table's margin showed bright round the F1
    card ("long to 24\\"" at the top and right, tester15 finding 9): the overlay shades the
    whole table, so nothing beside the card is brighter than the shade over the cloth."""
    scenario = _both_human("necromunda-demo")
    app = App(scenario, size=size, session=Session.start(scenario, seed=2))
    app.perform(Select("orlock-ganger-1"))
    shown = app.draw()
    tw, th = app.state.table_size
    margin = [(x, y) for x in range(0, tw, 3) for y in (2, th - 3)]
    margin += [(x, y) for y in range(0, th, 3) for x in (2, tw - 3)]
    assert any(max(shown.get_at(p)[:3]) > 120 for p in margin)  # the rings reach it here
    press(app, pygame.K_F1)
    shaded = app.draw()
    assert max(max(shaded.get_at(p)[:3]) for p in margin) < 60
