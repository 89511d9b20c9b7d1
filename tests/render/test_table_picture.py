"""The rendered table: its size follows the table and scale, and scenery shows."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pygame
import pytest

from game.render import style
from game.render.table import default_view, picture_size, save_png, table_picture
from game.scenario import load_scenario
from tests.conftest import SCENARIOS

Write = Callable[..., Path]


def test_size_follows_table_and_scale(write_scenario: Write) -> None:
    path = write_scenario(
        '[[model]]\nid = "f1"\nside = "blue"\nprofile = "fusilier"\nat = [3, 3]\n'
    )
    scenario = load_scenario(path)
    for scale in (10.0, 20.0, 33.0):
        picture = table_picture(scenario, scale)
        expected = (
            round(24 * scale) + 2 * style.MARGIN,
            round(24 * scale) + style.MARGIN + style.TITLE,
        )
        assert picture.get_size() == expected == picture_size(scenario, scale)


def test_scenery_pixels_differ_from_open_table(write_scenario: Write) -> None:
    path = write_scenario(
        """
        [[scenery]]
        id = "hab"
        kind = "building"
        height = 3
        polygon = [[2, 2], [8, 2], [8, 8], [2, 8]]

        [[scenery]]
        id = "woods"
        kind = "area"
        polygon = [[14, 14], [20, 14], [20, 20], [14, 20]]

        [[model]]
        id = "f1"
        side = "blue"
        profile = "fusilier"
        at = [12, 4]
        """
    )
    scenario = load_scenario(path)
    picture = table_picture(scenario, 20.0)
    view = default_view(20.0)

    def pixel(x: float, y: float) -> tuple[int, int, int]:
        px, py = view.to_screen(x, y)
        r, g, b, _ = picture.get_at((round(px), round(py)))
        return (r, g, b)

    open_table = pixel(11.5, 17.5)  # away from grid lines, scenery and models
    assert open_table == style.TABLE
    assert pixel(3.5, 3.5) == style.SCENERY[scenario.piece("hab").kind]
    woods = pixel(15.5, 15.5)
    assert woods != open_table and woods[1] > woods[0]  # green over the table colour
    base = pixel(12.0, 4.3)  # inside the base, beside the facing wedge (facing +x)
    assert base == style.SIDE_COLOURS[0]


@pytest.mark.parametrize("path", sorted(SCENARIOS.glob("*-demo.toml")), ids=lambda p: p.name)
def test_demo_renders_to_png(path: Path, tmp_path: Path) -> None:
    scenario = load_scenario(path)
    out = tmp_path / "table.png"
    save_png(table_picture(scenario, 12.0), out)
    image = pygame.image.load(str(out))
    assert image.get_size() == picture_size(scenario, 12.0)
    assert not list(tmp_path.glob(".*tmp*"))  # written atomically: no temporary left


@pytest.mark.parametrize("table", ["necromunda-alley", "infinity-demo"])
def test_the_playtest_crop_is_where_the_picture_put_the_table(table: str) -> None:
    """Second tester's finding 5: the heat maps draw over `table_images`' crop of the
    table's picture; the alley's legend takes a second header line, and a crop below
    the one-line title took in the legend and put every base 1" low. Each model's base
    (its side's colour) is found where it stands in the crop."""
    from game.commands.playtest import table_images
    from game.render.table import side_colours

    scenario = load_scenario(SCENARIOS / f"{table}.toml")
    scale = 20.0
    _, area = table_images(scenario, scale)
    width, depth = scenario.header.table
    assert area.shape[:2] == (round(depth * scale), round(width * scale))
    colours = side_colours(scenario)
    for model in scenario.models:
        x, y = (round(v * scale) for v in model.at)
        k = round(model.radius * scale * 0.7)
        near = area[max(0, y - k) : y + k + 1, max(0, x - k) : x + k + 1].reshape(-1, 3)
        colour = tuple(colours[model.side][:3])
        assert any(tuple(int(c) for c in p) == colour for p in near), model.id


def test_a_side_called_by_a_colour_is_drawn_in_it_wherever_it_is_listed(
    write_scenario: Callable[..., Path],
) -> None:
    """tester13: an imported map wrote side `red` first, so `red` was drawn blue and
    `blue` red. A side without its own colour whose id or name is a colour word takes
    that colour; the others the palette's colours left, in the file's order; with no
    side so named, the palette in the file's order as before."""
    from game.render.table import side_colours

    def colours(sides: str) -> dict[str, style.Colour]:
        text = '[scenario]\nname = "t"\nruleset = "infinity"\ntable = [24, 24]\n' + sides
        return side_colours(load_scenario(write_scenario(text, header=False)))

    blue, red, yellow = style.SIDE_COLOURS[:3]
    assert colours('[[side]]\nid = "red"\n[[side]]\nid = "blue"\n') == {"red": red, "blue": blue}
    named = '[[side]]\nid = "raiders"\nname = "Red"\n[[side]]\nid = "guards"\n'
    assert colours(named) == {"raiders": red, "guards": blue}
    given = (
        '[[side]]\nid = "red"\ncolour = [1, 2, 3]\n[[side]]\nid = "pan"\n[[side]]\nid = "blue"\n'
    )
    assert colours(given) == {"red": (1, 2, 3), "pan": red, "blue": blue}
    plain = '[[side]]\nid = "pano"\n[[side]]\nid = "yu"\n[[side]]\nid = "ariadna"\n'
    assert colours(plain) == {"pano": blue, "yu": red, "ariadna": yellow}
