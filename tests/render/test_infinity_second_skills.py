"""Infinity in the window: the second-skill prompt offers only the skills the rules let
follow the Order's first (FACTS "Skill combinations per Order: ... Short Movement + Short
Movement; or Short Movement + Short Skill": an attack and a dodge never share one), as
the engine rules them
(`InfinityEngine.second_refused`; tester12 item 5: it offered D after a BS Attack, then
refused it)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pygame

from game.render.app import App
from game.render.infinity_play import SECOND_SKILLS, InfinityRules
from game.render.session import Session
from game.scenario import load_scenario
from game.sequencer.infinity import Activate, SkillKind
from tests.render.driving import at, base, click, panel, press
from tests.render.test_app_play import GAME, answer_aros, awaiting

Write = Callable[..., Path]


def second_skill_after(write_scenario: Write, *first: int | tuple[float, float]) -> App:
    """B1's Order opened with the keys and clicks `first` (a point: a click there), every
    ARO answered Idle: its second skill due."""
    scenario = load_scenario(write_scenario(GAME, header=False))
    app = App(scenario, session=Session.start(scenario, seed=3))
    click(app, base(app, "b1"))
    for step in first:
        if isinstance(step, tuple):
            click(app, at(app, step))
        else:
            press(app, step)
    answer_aros(app)
    assert awaiting(app) == "second"
    return app


def refused(app: App) -> list[str]:
    """The second skills the engine refuses now, by key."""
    assert app.session is not None
    rules = app.session.rules
    assert isinstance(rules, InfinityRules)
    state = app.session.game.state
    return [key for key, kind in SECOND_SKILLS if rules.engine.second_refused(state, kind)]


def test_after_a_bs_attack_the_second_skill_prompt_offers_no_dodge_and_no_attack(
    write_scenario: Write,
) -> None:
    # S with b1 selected, a click on r1, Enter: the Order's first skill is a BS Attack
    app = second_skill_after(write_scenario, pygame.K_s, (4.0, 8.0), pygame.K_RETURN)
    assert app.session is not None
    game = app.session.game
    first = next(d for d in game.declarations if isinstance(d, Activate))
    assert first.skill.kind is SkillKind.ATTACK
    assert refused(app) == ["S shoot", "D dodge"]  # one Short Skill at most
    assert "B1: second skill: M move, I idle" in panel(app)
    assert "D dodge" not in panel(app) and "S shoot" not in panel(app)
    # D is still refused with the rules' reason, and nothing is declared
    made = len(game.declarations)
    press(app, pygame.K_d)
    assert app.state.message == (
        "attack and dodge cannot share one Order (one Short Skill at most)"
    )
    assert len(game.declarations) == made


def test_after_a_move_every_second_skill_is_offered(write_scenario: Write) -> None:
    app = second_skill_after(write_scenario, pygame.K_m, (4.0, 18.0), pygame.K_RETURN)
    assert refused(app) == []
    assert "B1: second skill: M move, S shoot, D dodge, I idle" in panel(app)
