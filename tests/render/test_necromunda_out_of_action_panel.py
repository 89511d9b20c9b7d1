"""The panel's line-of-fire section at a fighter Out of Action says there is no shot and
why, as the hover odds do (session 14's leftover: it said "line of fire: yes", the share
seen, the cover and the distance, and the shooter's-eye view showed the fighter all seen).
FACTS 2.4: a fighter Out of Action is out of the fight, off the table."""

from __future__ import annotations

import pytest

from game.render.app import App
from game.render.eye_panel import eye_room
from game.render.panel import EYE_ELSEWHERE
from game.render.session import Session
from game.scenario import load_scenario
from tests.render.driving import base, click, panel, point_at
from tests.render.test_necromunda_out_of_action_sight import TABLE


@pytest.mark.parametrize("size", [(800, 600), (1280, 1000)])
def test_the_line_of_fire_at_a_fighter_out_of_action_says_no_shot(
    size: tuple[int, int],
) -> None:
    scenario = load_scenario(TABLE)
    app = App(scenario, session=Session.start(scenario, seed=1), size=size)
    click(app, base(app, "escher-leader"))
    point_at(app, base(app, "orlock-leader"))
    hover = app.state.hover
    assert hover is not None and hover.target == "orlock-leader"
    text = panel(app)
    section = text[text.index("Line of fire") : text.index("Odds")]
    assert section == (
        "Line of fire Escher leader -> Orlock leader no shot: Orlock leader is out of action "
    )
    assert "no shot: Orlock leader is out of action" in text[text.index("Odds") :]
    assert EYE_ELSEWHERE not in text and eye_room(hover, size[1]) == 0  # no eye view
    app.draw()  # the label at the target says it too (looked at: 800x600, 1280x1000)
    # an enemy in the fight: its ruling, as before
    point_at(app, base(app, "orlock-ganger"))
    assert "line of fire: yes" in panel(app) or "visible:" in panel(app)
    hover = app.state.hover
    assert hover is not None and (size[1] < 700 or eye_room(hover, size[1]) > 0)
