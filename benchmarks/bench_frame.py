"""Frame time of the interactive table at 1280x800 with the line-of-fire overlay.

Budget (DESIGN.md): under 16 ms median. The largest bundled demo table (by area) is
drawn with a model selected, its weapon's range rings, an enemy hovered (the ruling's
line and label) and the ruler out: the frame a player sees while asking "can I see him".

Four figures:
- overlay frame: the view is still, so the static layer (grid, scenery, bases) is cached
  and only overlays and the panel are drawn (the common case);
- panning frame: the view moves every frame, so the static layer is rebuilt each time;
- ruling: one call of the ruling provider (made once per hovered pair, not per frame);
- played frame: the Infinity demo with a game attached (the largest demo may be a rule
  system the table only views): the hover's MODs, SV and exact odds in the panel, a
  shot being aimed, a shot line animating, state markers; and the odds computation
  (once per hovered pair and weapon);
- necromunda frame: the Necromunda demo with a game attached, the grenadier's frag
  launcher drafted at a point with its blast preview (marker, scatter ring, who is
  under it), an enemy hovered with the target number, odds and stray-shot risk, a
  scatter animation playing; and the preview's computation (once per pointer move).

Run: SDL_VIDEODRIVER=dummy python benchmarks/bench_frame.py [SCENARIO]
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame

from game.paths import SCENARIOS_DIR
from game.render.app import App, Measure, PointAt, Select, StartShoot
from game.render.dice_log import Effect, Shot
from game.render.frame import draw_frame
from game.render.session import Session
from game.scenario import Scenario, load_scenario

SIZE = (1280, 800)
FRAMES = 300
BUDGET_MS = 16.0


def largest_demo() -> Path:
    def area(path: Path) -> float:
        width, depth = load_scenario(path).header.table
        return width * depth

    return max(sorted(SCENARIOS_DIR.glob("*-demo.toml")), key=area)


def staged_app(scenario: Scenario, session: Session | None = None) -> App:
    """An app with a model selected, an enemy hovered and the ruler out."""
    pygame.display.init()
    pygame.display.set_mode(SIZE)
    app = App.window(scenario, size=SIZE, session=session)
    shooter = scenario.models[0]
    enemies = [m for m in scenario.models if m.side != shooter.side]
    target = max(
        enemies, key=lambda m: (m.at[0] - shooter.at[0]) ** 2 + (m.at[1] - shooter.at[1]) ** 2
    )
    view = app.state.view
    app.perform(Select(shooter.id))
    app.perform(Measure(shooter.id, view.to_screen(*enemies[0].at)))
    app.perform(PointAt(view.to_screen(*target.at)))
    assert app.state.hover is not None, "the staged frame must show a ruling"
    return app


def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def main() -> None:
    path = Path(sys.argv[1]) if len(sys.argv) > 1 else largest_demo()
    scenario = load_scenario(path)
    app = staged_app(scenario)
    surface = app.surface
    provider = app.provider
    hover = app.state.hover
    assert hover is not None

    def frame() -> None:
        draw_frame(
            surface,
            scenario,
            app.state,
            app.cache,
            engine_loaded=provider.engine_loaded,
            provider_name=provider.name,
        )

    frame()  # warm: fonts, the cached layer
    overlay: list[float] = []
    for i in range(FRAMES):
        app.state = replace(app.state, message=f"frame {i % 2}")  # panel redrawn too
        t0 = time.perf_counter()
        frame()
        overlay.append(time.perf_counter() - t0)

    base_view = app.state.view
    panning: list[float] = []
    for i in range(FRAMES // 3):
        app.state = replace(app.state, view=base_view.panned(i % 7 + 1, 0))
        t0 = time.perf_counter()
        frame()
        panning.append(time.perf_counter() - t0)

    rulings: list[float] = []
    for _ in range(50):
        t0 = time.perf_counter()
        provider.rule(scenario, hover.shooter, hover.target)
        rulings.append(time.perf_counter() - t0)

    played, odds_ms = played_frames()

    width, depth = scenario.header.table
    print(f"table: {path.name} ({width:g}x{depth:g} in, {len(scenario.scenery)} pieces, "
          f"{len(scenario.models)} models) at {SIZE[0]}x{SIZE[1]}")  # fmt: skip
    print(f"provider: {provider.name} (engine loaded: {provider.engine_loaded})")
    ms = median_ms(overlay)
    verdict = "within" if ms < BUDGET_MS else "OVER"
    print(f"overlay frame: median {ms:.2f} ms over {FRAMES} frames "
          f"({verdict} the {BUDGET_MS:g} ms budget)")  # fmt: skip
    print(f"panning frame (static layer rebuilt): median {median_ms(panning):.2f} ms")
    print(f"ruling (once per hovered pair): median {median_ms(rulings):.3f} ms")
    print(f"static layer builds: {app.cache.table.builds}")
    ms = median_ms(played)
    verdict = "within" if ms < BUDGET_MS else "OVER"
    print(f"played frame (infinity demo, game, odds, aiming, shot line): median {ms:.2f} ms "
          f"({verdict} the {BUDGET_MS:g} ms budget)")  # fmt: skip
    print(f"hover odds (once per hovered pair and weapon): median {odds_ms:.2f} ms")
    necro, preview_ms = necromunda_frames()
    ms = median_ms(necro)
    verdict = "within" if ms < BUDGET_MS else "OVER"
    print(f"necromunda frame (blast preview, hover odds, scatter animation): median "
          f"{ms:.2f} ms ({verdict} the {BUDGET_MS:g} ms budget)")  # fmt: skip
    print(f"blast preview (once per pointer move): median {preview_ms:.2f} ms")


def necromunda_frames() -> tuple[list[float], float]:
    """Frame times of the Necromunda demo with a blast previewed, and the preview's time."""
    scenario = load_scenario(SCENARIOS_DIR / "necromunda-demo.toml")
    session = Session.start(scenario, seed=2)
    app = staged_app(scenario, session)
    grenadier = next(m for m in scenario.models if "Grenade launcher (frag)" in m.weapons)
    enemy = next(m for m in scenario.models if m.side != grenadier.side)
    view = app.state.view
    app.perform(Select(grenadier.id))
    app.perform(PointAt(view.to_screen(*enemy.at)))
    assert app.state.hover is not None and app.state.hover.odds
    app.perform(StartShoot())
    point = (enemy.at[0] + 1.0, enemy.at[1] + 1.0)
    app.perform(PointAt(view.to_screen(*point)))
    assert app.state.preview is not None, "the frame must show a blast preview"
    scatter = Effect("scatter", (point, (point[0] + 3, point[1] + 2)), 10**6, 2 * 10**6, 1.5)
    app.state = replace(app.state, effects=(scatter,))
    surface = app.surface
    times: list[float] = []
    for i in range(FRAMES):
        app.state = replace(app.state, message=f"frame {i % 2}")
        t0 = time.perf_counter()
        draw_frame(surface, app.scenario, app.state, app.cache,
                   engine_loaded=True, provider_name=app.provider.name)  # fmt: skip
        times.append(time.perf_counter() - t0)
    rules = session.rules
    previews: list[float] = []
    for k in range(20):
        t0 = time.perf_counter()
        rules.preview(session.game, grenadier.id, "Grenade launcher (frag)",
                      point=(point[0] + k * 0.05, point[1]))  # fmt: skip
        previews.append(time.perf_counter() - t0)
    return times, median_ms(previews)


def played_frames() -> tuple[list[float], float]:
    """Frame times of the Infinity demo being played, and the hover odds' time."""
    scenario = load_scenario(SCENARIOS_DIR / "infinity-demo.toml")
    session = Session.start(scenario, seed=1)
    app = staged_app(scenario, session)
    hover = app.state.hover
    assert hover is not None and hover.odds, "the played frame must show the odds"
    app.perform(StartShoot())
    shot = Shot(hover.shooter, hover.target, True, 10**6)
    app.state = replace(app.state, shots=(shot,))
    surface = app.surface
    times: list[float] = []
    for i in range(FRAMES):
        app.state = replace(app.state, message=f"frame {i % 2}")
        t0 = time.perf_counter()
        draw_frame(surface, app.scenario, app.state, app.cache,
                   engine_loaded=True, provider_name=app.provider.name)  # fmt: skip
        times.append(time.perf_counter() - t0)
    odds: list[float] = []
    for _ in range(20):
        t0 = time.perf_counter()
        session.rules.odds_lines(session.game, hover.shooter, hover.target, hover.weapon or "")
        odds.append(time.perf_counter() - t0)
    return times, median_ms(odds)


if __name__ == "__main__":
    main()
