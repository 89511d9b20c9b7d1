"""`skirmish render` marks each base's state as the window and `lof --out` mark it
(fix15g): it drew a fighter Out of Action, or a trooper dead, as an ordinary base in its
side's colour. FACTS 2.4: a fighter Out of Action is out of the fight, off the table;
the window greys and crosses it (game.render.frame.draw_marker). `playtest --out` (its
table.png, the picture --report shows) the same (fix16a)."""

from __future__ import annotations

from pathlib import Path

import pygame

from game.cli import main
from game.render.style import DEAD
from game.render.table import picture_view
from game.scenario import load_scenario
from tests.conftest import REPO

TABLE = REPO / "tests" / "tables" / "necromunda-out-of-action.toml"


def _greyed_as_the_window(out: Path) -> None:
    """The picture at `out` greys each fighter Out of Action, a fighter in the fight not."""
    picture = pygame.image.load(str(out))
    scenario = load_scenario(TABLE)
    view = picture_view(scenario, 20.0)

    def middle(model: str) -> tuple[int, ...]:  # beside the cross, inside the base
        x, y = view.to_screen(*scenario.model(model).at)
        return tuple(picture.get_at((round(x), round(y + 4))))[:3]

    assert middle("orlock-leader") == DEAD and middle("escher-ganger") == DEAD
    assert middle("orlock-ganger") != DEAD  # a fighter in the fight: its side's colour


def test_render_greys_a_fighter_out_of_action_as_the_window(tmp_path: Path) -> None:
    out = tmp_path / "table.png"
    assert main(["render", str(TABLE), "--out", str(out), "--scale", "20"]) == 0
    _greyed_as_the_window(out)


def test_playtest_out_table_greys_a_fighter_out_of_action_as_the_window(tmp_path: Path) -> None:
    # fix16a item 2: playtest --out's table.png (and --report's) drew the bases plain
    out = tmp_path / "out"
    assert main(["playtest", str(TABLE), "--games", "1", "--out", str(out)]) == 0
    _greyed_as_the_window(out / "table.png")
