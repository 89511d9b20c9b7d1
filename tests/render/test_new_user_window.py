"""What a new user found in the window: the ARO banner on a table crowded at both edges
covered labels and bases; a short panel squeezed the shooter's-eye silhouette to
nothing. Screenshots looked at: 800x600, 1024x700, 1280x800, 1920x1200."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from game.render import frame
from game.render.app import App
from game.render.eye import draw_eye, eye_view
from game.render.help import reaction_banner
from game.render.play_rules import Prompt
from game.render.session import Session
from game.scenario import load_scenario
from game.scenario.ruling import rule
from game.scenario.tables import table_from_scenario
from tests.conftest import SCENARIOS
from tests.render.driving import at, base, click, press


def both_sides_played_by_people(tmp_path: Path, table: str) -> Path:
    text = (SCENARIOS / f"{table}.toml").read_text()
    path = tmp_path / f"{table}.toml"
    path.write_text(text.replace('player = "ai"', 'player = "human"'))
    return path


def test_the_aro_banner_on_crowded_edges_covers_no_label_or_base(tmp_path: Path) -> None:
    """Cargo hold at 1024x700: the Remote moves and three Yu Jing troopers may answer.
    Models and labels crowd the top edge and the bottom edge: the banner goes where it
    covers no base and no label (it covered the wall's height at the top, or Fusilier 2's
    base at the bottom). Since the height of a wall running down the table sits beside
    it (tester's finding 9), the top is free: the banner takes it, as it does first
    (the band between two crowded edges: the test below)."""
    scenario = load_scenario(both_sides_played_by_people(tmp_path, "infinity-corridor"))
    app = App(scenario, size=(1024, 700), session=Session.start(scenario, seed=3))
    click(app, base(app, "remote"))
    press(app, pygame.K_m)
    click(app, at(app, (8.0, 12.0)))
    press(app, pygame.K_RETURN)
    assert app.session is not None and app.session.game.awaiting().kind == "aro"
    app.draw()
    prompt = app.state.prompt
    assert prompt is not None
    avoid = frame.banner_avoids(scenario, prompt, app.cache.table.labels, app.state.view)
    box, _ = reaction_banner(app.state.size, prompt, app.state.table_size, avoid)
    labels = [pygame.Rect(*map(round, p.box)) for p in app.cache.table.labels]
    bases = [pygame.Rect(*map(round, frame._base_rect(m, app.state.view))) for m in scenario.models]
    assert not any(box.colliderect(r) for r in labels + bases)
    assert box.top <= 6  # across the top


def test_the_banner_takes_the_free_band_between_two_crowded_edges() -> None:
    prompt = Prompt("red", "aro", ("r1",), "Red: ARO to b1 from r1", choices=("S shoot",))
    table = (800, 600)
    crowded = [(pygame.Rect(0, 0, 800, 120), 1), (pygame.Rect(0, 480, 800, 120), 1)]
    box, _ = reaction_banner(table, prompt, table, crowded)
    assert not any(box.colliderect(r) for r, _ in crowded)
    alone = [(pygame.Rect(0, 480, 800, 120), 1)]  # the top free: the top, as before
    box, _ = reaction_banner(table, prompt, table, alone)
    assert box.top < 20


@pytest.mark.parametrize("height", [140, 150, 180])
def test_a_short_panel_keeps_the_silhouette(height: int) -> None:
    """Four hiders in a room as short as the window's panel leaves at 1280x800: the
    legend lists them only while the silhouette keeps half its least size; then they
    are named on the picture alone (the silhouette was squeezed to a pixel)."""
    scenario = load_scenario(SCENARIOS / "necromunda-alley.toml")
    table = table_from_scenario(scenario)
    ruling = rule(scenario, table, "goliath-leader", "cawdor-leader")
    view = eye_view(scenario, table, ruling)
    assert len(view.hiders) == 4
    surface = pygame.Surface((320, height))
    sil = draw_eye(surface, surface.get_rect(), scenario, ruling, view)
    assert sil.height >= 24 and sil.bottom < height


def test_names_off_the_picture_mark_the_run_they_name(monkeypatch: pytest.MonkeyPatch) -> None:
    """lof --out, Goliath leader at Cawdor leader in the alley: four fighters hide narrow
    runs at the two sides of the silhouette. A name sits on the silhouette only inside
    its own run; one placed off it has a bar in its colour under the very strips it
    names (two names under one band could not be told apart)."""
    import game.render.eye as eye

    scenario = load_scenario(SCENARIOS / "necromunda-alley.toml")
    table = table_from_scenario(scenario)
    ruling = rule(scenario, table, "goliath-leader", "cawdor-leader")
    view = eye_view(scenario, table, ruling)
    placed: list[list[eye.PlacedName]] = []
    real = eye.place_names

    def recording(*args: object, **kwargs: object) -> list[eye.PlacedName]:
        out = real(*args, **kwargs)  # type: ignore[arg-type]
        placed.append(out)
        return out

    monkeypatch.setattr(eye, "place_names", recording)
    surface = pygame.Surface((440, 420))
    sil = draw_eye(surface, surface.get_rect(), scenario, ruling, view)
    (names,) = placed
    assert sorted(p.want.key for p in names) == sorted(view.hiders)
    colours = {h: eye.HIDERS[k % len(eye.HIDERS)] for k, h in enumerate(view.hiders)}
    strip = sil.width / len(view.strips.low)
    for name in names:
        box = pygame.Rect(*map(round, name.box))
        if name.inside:
            continue
        assert not box.colliderect(sil.inflate(-2, -2)), name.text  # off the picture
        first, end = view.widest_run(name.want.key)
        x = round(sil.left + (first + end) / 2 * strip)
        assert surface.get_at((x, sil.bottom + 3))[:3] == colours[name.want.key], name.text


@pytest.mark.parametrize("size", [(960, 640), (1280, 800)])
def test_the_ruling_and_stray_shot_labels_keep_off_names_and_bases(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    """The crowded alley, Goliath heavy pointing at Cawdor champion: the ruling's label
    off the names, and off the bases where there is room (at 1280x800 it sat on Cawdor
    ganger 2's base); the stray-shot numbers off the names and the ruling's label (they
    sat on 'Goliath ganger 1' and 'Cawdor ganger 1')."""
    from game.render.labels import hits_circle, overlaps
    from game.render.overlays import draw_risk
    from game.render.table import base_circles
    from tests.render.driving import point_at

    scenario = load_scenario(both_sides_played_by_people(tmp_path, "necromunda-alley"))
    app = App(scenario, size=size, session=Session.start(scenario, seed=3))
    click(app, base(app, "goliath-heavy"))
    point_at(app, base(app, "cawdor-champion"))
    app.draw()
    hover = app.state.hover
    said = app.cache.ruling_label
    assert hover is not None and hover.risk and said is not None
    view = app.state.view
    circles = base_circles(scenario, view)
    ruling_box = (float(said.x), float(said.y), float(said.w), float(said.h))
    names = [p.box for p in app.cache.table.labels]
    assert not any(overlaps(ruling_box, other) for other in names)
    if size == (1280, 800):  # room enough there to keep off the bases as well
        assert not any(hits_circle(ruling_box, c) for c in circles)
    scratch = pygame.Surface(app.state.table_size)
    tags = draw_risk(scratch, scenario, hover.risk, view, [*names, ruling_box])
    assert len(tags) == len(hover.risk)
    for tag in tags:
        box = (float(tag.x), float(tag.y), float(tag.w), float(tag.h))
        assert not any(overlaps(box, other) for other in [*names, ruling_box])
        assert not any(hits_circle(box, c) for c in circles)
