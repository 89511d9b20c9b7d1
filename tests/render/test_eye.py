"""The shooter's-eye view: drawn from the ruling's own strips, so its visible share is
the ruling's visible fraction, and `skirmish lof --out` puts it beside the table."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pygame
import pytest

from game.cli import main
from game.geometry import silhouette_strips
from game.render.eye import HIDERS, SEEN, draw_eye, eye_view
from game.render.lof_picture import HEADER, _header, lof_picture
from game.scenario import Scenario, load_scenario
from game.scenario.ruling import rule
from game.scenario.tables import table_from_scenario

from ..conftest import SCENARIOS

BUNDLED = sorted(SCENARIOS.glob("*.toml"))


def _enemy_pairs(scenario: Scenario) -> list[tuple[str, str]]:
    return [(a.id, b.id) for a in scenario.models for b in scenario.models if a.side != b.side]


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.stem)
def test_eye_view_share_is_the_rulings_visible_fraction(path: Path) -> None:
    scenario = load_scenario(path)
    table = table_from_scenario(scenario)
    for a, b in _enemy_pairs(scenario):
        ruling = rule(scenario, table, a, b)
        view = eye_view(scenario, table, ruling)
        assert view.visible_fraction == pytest.approx(ruling.visible_fraction, abs=1e-12)
        # the pieces named in the picture are the ruling's, with or without a clear line
        # (the check on blockers was once `<= view | blockers`, true whatever was drawn)
        assert set(view.hiders) == set(ruling.sight.hidden_by), (a, b)
        if ruling.sight.clear:
            assert view.strips.patch == pytest.approx(ruling.sight.visible_patch, abs=1e-12)
        else:
            assert view.visible_fraction == 0.0


def _green_share(surface: pygame.Surface, box: pygame.Rect) -> float:
    inner = box.inflate(-4, -4)
    green = sum(
        1
        for x in range(inner.left, inner.right)
        for y in range(inner.top, inner.bottom)
        if tuple(surface.get_at((x, y)))[:3] == SEEN
    )
    return green / (inner.width * inner.height)


@pytest.mark.parametrize(
    ("name", "attacker", "target"),
    [
        ("infinity-demo", "zhanshi-hmg", "fusilier-2"),  # the bottom hidden by rubble
        ("infinity-demo", "zhanshi-hmg", "fusilier-1"),  # two pieces hide it
        ("infinity-checkpoint", "orc-1", "zhanshi-2"),  # a sliver only: nothing shaded
        ("open-rebellion-demo", "gov-b1", "reb-b4"),
    ],
)
def test_shaded_part_of_the_picture_is_the_visible_share(
    name: str, attacker: str, target: str
) -> None:
    scenario = load_scenario(SCENARIOS / f"{name}.toml")
    table = table_from_scenario(scenario)
    ruling = rule(scenario, table, attacker, target)
    view = eye_view(scenario, table, ruling)
    surface = pygame.Surface((480, 520))
    box = draw_eye(surface, surface.get_rect(), scenario, ruling, view)
    # within the pixels lost to the outline, the minimum patch square and rounding
    assert _green_share(surface, box) == pytest.approx(ruling.visible_fraction, abs=0.04)


def test_strips_behind_a_low_wall_are_seen_above_the_line_over_it(
    write_scenario: Callable[..., Path],
) -> None:
    # a 0.8" wall 1" in front of a 1.6" target, the shooter 18" away and as tall: the
    # lowest clear line from the near edge of the shooter's top (x = 2.5, z = 1.6) over
    # the wall's top (x = 19) meets the target's centre plane (x = 20) at 0.8 - 0.8/16.5
    path = write_scenario(
        """
        [[scenery]]
        id = "wall"
        kind = "wall"
        height = 0.8
        line = [[19, 5], [19, 15]]
        thickness = 0.01

        [[model]]
        id = "blue-1"
        side = "blue"
        profile = "fusilier"
        at = [2, 10]
        base = 25.4
        height = 1.6

        [[model]]
        id = "red-1"
        side = "red"
        profile = "fusilier"
        at = [20, 10]
        facing = 180
        base = 25.4
        height = 1.6
        """
    )
    scenario = load_scenario(path)
    table = table_from_scenario(scenario)
    sil = silhouette_strips(table, "blue-1", "red-1")
    middle = len(sil.low) // 2
    assert sil.low[middle] == pytest.approx(0.8 - 0.8 / 16.5, abs=0.005)
    assert sil.hidden_by[middle] == ("wall",)
    assert sil.width == pytest.approx(1.0) and sil.height == 1.6


def test_lof_out_is_two_panels_under_a_header_that_does_not_overprint(
    write_scenario: Callable[..., Path],
) -> None:
    long = "a-very-long-model-identifier-that-would-run-off-the-picture"
    path = write_scenario(
        f"""
        [[model]]
        id = "{long}-blue"
        side = "blue"
        profile = "fusilier"
        at = [2, 10]

        [[model]]
        id = "{long}-red"
        side = "red"
        profile = "fusilier"
        at = [20, 10]
        """
    )
    scenario = load_scenario(path)
    ruling = rule(scenario, table_from_scenario(scenario), f"{long}-blue", f"{long}-red")
    picture = lof_picture(scenario, ruling)
    table_w = round(24 * 20.0) + 2 * 28
    assert picture.get_width() > table_w + 400  # the eye view beside the table
    title, said = _header(picture, scenario, ruling)
    assert not title.colliderect(said)
    assert said.right <= picture.get_width() and said.bottom <= HEADER


def test_lof_all_out_writes_one_picture_per_pair(
    write_scenario: Callable[..., Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    demo = write_scenario(
        """
        [[model]]
        id = "b1"
        side = "blue"
        profile = "fusilier"
        at = [2, 10]

        [[model]]
        id = "b2"
        side = "blue"
        profile = "fusilier"
        at = [2, 14]

        [[model]]
        id = "r1"
        side = "red"
        profile = "zhanshi"
        at = [20, 10]
        """
    )
    folder = tmp_path / "rulings"
    assert main(["lof", str(demo), "--all", "--out", str(folder)]) == 0
    out, _ = capsys.readouterr()
    pairs = _enemy_pairs(load_scenario(demo))
    assert f"pictures: {len(pairs)} in {folder}" in out
    assert sorted(p.name for p in folder.iterdir()) == sorted(f"{a}-{b}.png" for a, b in pairs)
    assert main(["lof", str(demo), "--all", "--out", str(tmp_path / "one.png")]) == 2
    _, err = capsys.readouterr()
    assert "names a folder" in err and err.count("\n") == 1


def _record_placements(monkeypatch: pytest.MonkeyPatch) -> list[list[object]]:
    """The eye view's label placements, one list a drawing, as they are made."""
    import game.render.eye as eye

    placed: list[list[object]] = []
    real_place = eye.place_names

    def recording(*args: object, **kwargs: object) -> object:
        out = real_place(*args, **kwargs)  # type: ignore[arg-type]
        placed.append(out)
        return out

    monkeypatch.setattr(eye, "place_names", recording)
    return placed


@pytest.mark.parametrize(
    ("name", "attacker", "target", "size"),
    [
        ("necromunda-alley", "goliath-leader", "cawdor-champion", (640, 420)),
        ("necromunda-alley", "goliath-leader", "cawdor-champion", (420, 300)),
        ("infinity-demo", "fusilier-1", "zhanshi-2", (640, 420)),
    ],
)
def test_the_hiders_names_are_each_placed_and_never_overprint(
    name: str, attacker: str, target: str, size: tuple[int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    from game.render.labels import overlaps

    scenario = load_scenario(SCENARIOS / f"{name}.toml")
    table = table_from_scenario(scenario)
    ruling = rule(scenario, table, attacker, target)
    view = eye_view(scenario, table, ruling)
    assert len(view.hiders) >= 2  # several hide the target: their names could collide
    placed = _record_placements(monkeypatch)
    surface = pygame.Surface(size)
    draw_eye(surface, surface.get_rect(), scenario, ruling, view)
    (labels,) = placed
    # every hider drawn is named on the picture; one drawn nowhere (behind nearer ones)
    # is named in the legend alone
    drawn = sorted(set(view.hiders) - dict(view.behind).keys())
    assert sorted(p.want.key for p in labels) == drawn  # type: ignore[attr-defined]
    boxes = [p.box for p in labels]  # type: ignore[attr-defined]
    for i, a in enumerate(boxes):
        assert surface.get_rect().contains(pygame.Rect(a))
        assert not any(overlaps(a, b) for b in boxes[i + 1 :])


def test_the_header_never_says_0_percent_beside_a_line_of_fire() -> None:
    from game.render.lof_picture import verdict

    scenario = load_scenario(SCENARIOS / "necromunda-alley.toml")
    ruling = rule(scenario, table_from_scenario(scenario), "goliath-leader", "cawdor-champion")
    assert ruling.lof and ruling.visible_fraction < 0.005  # a sliver seen
    assert ": line of fire, under 1% visible, " in verdict(ruling)


def test_the_picture_calls_models_and_scenery_by_name(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The lof picture's header and the eye view's strip labels name models as the
    window's panel and legend do ("Cawdor ganger 2"), and scenery too (left from
    session 6: "hab-1"): by its label, with its id only where two pieces read alike."""
    from game.render.lof_picture import verdict
    from game.sequencer.sentences import names_of

    placed = _record_placements(monkeypatch)
    alley = load_scenario(SCENARIOS / "necromunda-alley.toml")
    ruling = rule(alley, table_from_scenario(alley), "goliath-juve", "cawdor-champion")
    assert verdict(ruling, names_of(alley)).startswith("Goliath juve -> Cawdor champion: ")
    assert verdict(ruling).startswith("goliath-juve -> cawdor-champion: ")  # no names: ids
    lof_picture(alley, ruling)
    demo = load_scenario(SCENARIOS / "infinity-demo.toml")
    blocked = rule(demo, table_from_scenario(demo), "fusilier-1", "zhanshi-2")
    lof_picture(demo, blocked)
    alley_labels, demo_labels = placed
    assert [p.text for p in alley_labels] == ["Cawdor ganger 2"]  # type: ignore[attr-defined]
    texts = sorted(p.text for p in demo_labels)  # type: ignore[attr-defined]
    assert texts == ["container 1"]  # the habitation block stands behind it (legend only)


@pytest.mark.parametrize("height", [200, 250, 420])
def test_the_legend_keeps_clear_of_the_ground_and_the_names_under_it(
    height: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The legend starts a gap below the ground line and the row of names under it,
    however short the room (the window keeps 250 pixels at most for the picture at
    1280x800): with four hiders in a short room they share rows, two to a row, so the
    silhouette keeps its size; every name placed on the picture is above the legend."""
    import game.render.eye as eye

    scenario = load_scenario(SCENARIOS / "necromunda-alley.toml")
    table = table_from_scenario(scenario)
    ruling = rule(scenario, table, "goliath-leader", "cawdor-leader")
    view = eye_view(scenario, table, ruling)
    assert len(view.hiders) == 4 and view.min_patch_mm == 0
    placed = _record_placements(monkeypatch)
    surface = pygame.Surface((320, height))
    sil = draw_eye(surface, surface.get_rect(), scenario, ruling, view)
    ground = sil.bottom
    x0 = 14 + 6  # the legend's swatches
    swatch = next(y for y in range(ground, height) if surface.get_at((x0, y))[:3] == SEEN)
    legend_top = swatch - 4
    assert legend_top - ground >= eye.LABEL_ROW + eye.LEGEND_GAP
    two = eye.legend_rows(view, True) * eye.LEGEND_ROW
    shared = height - 6 - two == legend_top  # the hiders two to a row
    assert shared == (height < 420)
    assert sil.height >= eye.MIN_PICTURE or shared  # shared rows: all the room it can have
    (labels,) = placed
    # names with no room are left out (the legend names every hider): none at 250 px
    assert len(labels) == 4 or height < 250
    assert all(p.box[1] + p.box[3] <= legend_top for p in labels)  # type: ignore[attr-defined]


def test_a_legend_without_a_minimum_patch_has_no_empty_row() -> None:
    from game.render.eye import legend_rows

    scenario = load_scenario(SCENARIOS / "necromunda-alley.toml")
    table = table_from_scenario(scenario)
    view = eye_view(scenario, table, rule(scenario, table, "goliath-leader", "cawdor-leader"))
    assert legend_rows(view, False) == 2 + 4 and legend_rows(view, True) == 2 + 2
    infinity = load_scenario(SCENARIOS / "infinity-demo.toml")
    table = table_from_scenario(infinity)
    view = eye_view(infinity, table, rule(infinity, table, "zhanshi-2", "orc-1"))
    assert view.min_patch_mm > 0 and len(view.hiders) == 3
    assert legend_rows(view, False) == 3 + 3  # the patch's row, only where there is one


def test_a_large_lof_pictures_eye_view_words_grow_with_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """tester7's finding 20: `lof --out --size 1920x1080` drew the eye view's legend and
    ruler at the sizes of a small picture. Its words grow with the picture as the
    window's panel does (1 up to 1280x800); at the default scale they are as before."""
    import game.render.eye as eye
    from game.render.lof_picture import lof_scale_to_fit

    sizes: list[tuple[str, int]] = []
    real_text = eye._text

    def recording(surface: pygame.Surface, text: str, size: int, *args: object,
                  **kwargs: object) -> pygame.Rect:  # fmt: skip
        sizes.append((text, size))
        return real_text(surface, text, size, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(eye, "_text", recording)
    demo = load_scenario(SCENARIOS / "infinity-demo.toml")
    ruling = rule(demo, table_from_scenario(demo), "fusilier-1", "zhanshi-hmg")
    found = {}
    for label, scale in (("default", 20.0), ("large", lof_scale_to_fit(demo, (1920, 1080)))):
        sizes.clear()
        lof_picture(demo, ruling, scale)
        found[label] = {
            "legend": next(s for t, s in sizes if t.startswith("seen:")),
            "ruler": next(s for t, s in sizes if t == '1"'),
        }
    assert found["default"] == {"legend": 17, "ruler": 15}
    assert found["large"]["legend"] >= 22 and found["large"]["ruler"] >= 19


@pytest.mark.parametrize(
    ("table", "pair", "said"),
    [
        # tester9: "no line of fire, 0% visible, cover light" was Gov squad b's cover (the
        # Hill farm's squads were in light cover there from pieces 6" and more from them
        # until Open Rebellion's rules version 2: the village's are in it by the rules now)
        ("open-rebellion-village", ("reb-b1", "gov-a1"),
         "Reb b1 -> Gov a1: no line of fire, 0% visible, its squad (West squad) in light cover"
         " from the rubble"),
        # session 10's new user: the text named no piece of a squad's light cover
        ("open-rebellion-village", ("reb-a1", "gov-hmg"),
         "Reb a1 -> Gov HMG: line of fire, 100% visible, its squad (East squad) in light cover"
         " from the hedge"),
        # session 10's new user: a squad none of whose models is seen was "in the open"
        ("open-rebellion-demo", ("reb-a1", "gov-a1"),
         "Reb a1 -> Gov a1: no line of fire, 0% visible, its squad (Gov squad a) out of sight"),
        # a model's own cover (Infinity): its level, no unit
        ("infinity-demo", ("fusilier-1", "zhanshi-hmg"),
         "Fusilier 1 -> Zhanshi HMG: line of fire, 75% visible, no cover"),
    ],
)  # fmt: skip
def test_the_pictures_title_says_whose_cover_it_is(
    table: str, pair: tuple[str, str], said: str
) -> None:
    from game.render.lof_picture import verdict
    from game.render.overlays import ruling_cover
    from game.scenario.names import table_names

    scenario = load_scenario(SCENARIOS / f"{table}.toml")
    ruling = rule(scenario, table_from_scenario(scenario), *pair)
    assert verdict(ruling, table_names(scenario), giving=True) == said
    # the table's tag says it short: "squad in light cover", "no cover"
    assert ruling_cover(ruling).removeprefix("squad ") in said


# tester13's table (/tmp/t13/edit/myinf.toml): its pieces, the shooter and the target
WALL_BEFORE_BUILDING = """
[[scenery]]
id = "building-1"
kind = "building"
height = 3.5
polygon = [[8, 8], [14, 8], [14, 12], [8, 12]]

[[scenery]]
id = "wall-1"
kind = "wall"
height = 1.5
line = [[2, 16], [9, 16]]

[[model]]
id = "fusilier-2"
side = "blue"
profile = "fusilier"
at = [6, 17]
facing = -45

[[model]]
id = "zhanshi-2"
side = "red"
profile = "zhanshi"
at = [18, 4]
facing = 131
"""


def _record_texts(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The eye view's lines of text (heading, ruler, legend), as they are drawn."""
    import game.render.eye as eye

    said: list[str] = []
    real_text = eye._text

    def recording(surface: pygame.Surface, text: str, *args: object, **kwargs: object) -> object:
        said.append(text)
        return real_text(surface, text, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(eye, "_text", recording)
    return said


def test_a_near_piece_hiding_all_is_drawn_hiding_all_and_the_one_behind_is_said(
    write_scenario: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """tester13 (/tmp/t13/edit/myinf.toml): a 1.5" wall 0.6" in front of a 1" fusilier
    and a 3.5" building beyond it each hide all of the Zhanshi; the picture painted the
    lower half "building" and the upper half "wall", the wall's name on the building's
    colour. Now each hider is drawn as far up as it alone hides, the nearer in front:
    the wall covers the whole silhouette in its own colour, named on it, and the legend
    says the building would hide it too, behind the wall."""
    scenario = load_scenario(write_scenario(WALL_BEFORE_BUILDING))
    table = table_from_scenario(scenario)
    ruling = rule(scenario, table, "fusilier-2", "zhanshi-2")
    view = eye_view(scenario, table, ruling)
    assert sorted(view.hiders) == ["building-1", "wall-1"]
    height = view.strips.height
    assert all(view.drawn(j) == (("wall-1", 0.0, height),) for j in range(len(view.strips.low)))
    assert view.behind == (("building-1", ("wall-1",)),)
    placed = _record_placements(monkeypatch)
    texts = _record_texts(monkeypatch)
    surface = pygame.Surface((640, 420))
    silhouette = draw_eye(surface, surface.get_rect(), scenario, ruling, view)
    colours = {h: HIDERS[i] for i, h in enumerate(view.hiders)}
    inside = silhouette.inflate(-6, -6)
    (labels,) = placed
    [wall] = labels
    assert wall.want.key == "wall-1" and wall.inside  # type: ignore[attr-defined]
    name_box = pygame.Rect(wall.box).inflate(4, 4)  # type: ignore[attr-defined]
    found = {
        tuple(surface.get_at((x, y)))[:3]
        for x in range(inside.left, inside.right, 3)
        for y in range(inside.top, inside.bottom, 3)
        if not name_box.collidepoint(x, y) and not (x < inside.left + 40 and y < inside.top + 40)
    }
    assert found == {colours["wall-1"]}  # the building's colour nowhere on the silhouette
    assert any(
        t.startswith('hidden by the 3.5" building') and t.endswith('too, behind the 1.5" wall')
        for t in texts
    ), texts


def test_no_column_of_the_silhouette_is_left_unpainted() -> None:
    """tester13: at `--size 746x490` a background line crossed the eye view, a pixel
    column between two strips each rounded on its own. Every column between the
    silhouette's edges is painted, at every width tried."""
    scenario = load_scenario(SCENARIOS / "infinity-demo.toml")
    table = table_from_scenario(scenario)
    ruling = rule(scenario, table, "zhanshi-hmg", "fusilier-1")
    view = eye_view(scenario, table, ruling)
    gaps = []
    for width in range(300, 460, 3):
        surface = pygame.Surface((width, 420))
        box = draw_eye(surface, surface.get_rect(), scenario, ruling, view)
        y = box.bottom - 4  # under the names written on the silhouette
        background = surface.get_at((2, 2))
        gaps += [
            (width, x)
            for x in range(box.left + 3, box.right - 3)
            if surface.get_at((x, y)) == background
        ]
    assert gaps == []


def test_the_rulings_label_stays_on_the_table(monkeypatch: pytest.MonkeyPatch) -> None:
    """tester13 (lofall/g4-p2.png): 'no line of fire, 18.38"' was pushed off the table
    over the y axis; on Hill farm the labels of targets by the top edge sat in the
    margin above it. The ruling's label is placed on the table itself."""
    import game.render.lof_picture as picture

    outside = []
    real = picture.draw_ruling_top

    def recording(
        surface: pygame.Surface, scenario: Scenario, ruling: object, view: object, *rest: object
    ) -> object:
        box = real(surface, scenario, ruling, view, *rest)  # type: ignore[arg-type]
        (x0, y0), (x1, y1) = view.to_screen(0, 0), view.to_screen(*scenario.header.table)  # type: ignore[attr-defined]
        table = pygame.Rect(round(x0), round(y0), round(x1 - x0), round(y1 - y0)).inflate(2, 2)
        if box is None or not table.contains(box):
            outside.append(str(ruling.target))  # type: ignore[attr-defined]
        return box

    monkeypatch.setattr(picture, "draw_ruling_top", recording)
    scenario = load_scenario(SCENARIOS / "open-rebellion-demo.toml")
    table = table_from_scenario(scenario)
    enemies = [m.id for m in scenario.models if m.side != scenario.model("reb-a1").side]
    for target in enemies:
        for scale in (20.0, 12.0):
            lof_picture(scenario, rule(scenario, table, "reb-a1", target), scale, table)
    assert outside == []


def test_the_stripes_have_a_legend_row_only_where_they_are_drawn(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """fix13e: the eye view stripes a height hidden only by several hiders together
    (fix13d), and no legend row said what the stripes were. One does, the last row, only
    where the picture has stripes: the rows above it stay where they were, a row apart
    from the legend's top, and a picture without stripes has no such row."""
    import game.render.eye as eye

    scenario = load_scenario(SCENARIOS / "necromunda-alley.toml")
    table = table_from_scenario(scenario)
    said: list[tuple[str, int]] = []
    real_text = eye._text

    def recording(surface: pygame.Surface, text: str, size: int, colour: object,
                  at: tuple[int, int], *args: object, **kwargs: object) -> object:  # fmt: skip
        said.append((text, at[1]))
        return real_text(surface, text, size, colour, at, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(eye, "_text", recording)
    striped = "striped: hidden only by several together, by none of them alone"
    for shooter, target, stripes in (
        ("cawdor-leader", "goliath-leader", True),
        ("goliath-leader", "cawdor-leader", False),
    ):
        ruling = rule(scenario, table, shooter, target)
        view = eye_view(scenario, table, ruling)
        assert bool(view.together) == stripes
        for size, two in (((640, 600), False), ((320, 240), True)):  # two: hiders to a row
            said.clear()
            surface = pygame.Surface(size)
            draw_eye(surface, surface.get_rect(), scenario, ruling, view)
            rows = [(t, y) for t, y in said if t.startswith(("seen:", "silhouette "))]
            top = rows[0][1]
            assert [y - top for _, y in rows] == [0, eye.LEGEND_ROW]
            rows_of = eye.legend_rows(view, two)
            assert top == size[1] - 6 - rows_of * eye.LEGEND_ROW
            lines = [t for t, _ in said]
            assert (striped in lines) == stripes
            if stripes:
                y = dict(said)[striped]
                assert y == top + (rows_of - 1) * eye.LEGEND_ROW  # the last row
                colours = {tuple(surface.get_at((20 + dx, y + 6))[:3]) for dx in range(12)}
                assert {HIDERS[view.hiders.index(h)] for h in view.together} <= colours
