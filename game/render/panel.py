"""The window's side panel: its text (`panel_lines`: the scenario, the turn, what the
game awaits, the selection, the ruling and odds, the ruler, the dice log) and its
drawing (`draw_panel`, rendered again only when its text changes).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pygame

from game.render import style
from game.render.play_rules import AimKind
from game.render.ranges import profile_summary, weapon_summary
from game.render.state import AppState, Draft, panel_width
from game.render.style import (
    BLAST,
    DIM,
    DRAFT,
    PANEL_BG,
    PANEL_RULE,
    RISK,
    RULER,
    TARGET,
    WARN,
    Colour,
)
from game.render.table import font, side_colours
from game.scenario import Scenario

LOG_SHOWN = 30  # log entries considered for the panel (the oldest drop first)


@dataclass(frozen=True, slots=True)
class PanelLine:
    text: str
    colour: Colour = style.TEXT
    size: int = 20
    gap: int = 0  # pixels of space above the line
    log: bool = False  # a dice log line: the oldest are left out when the panel is full


@dataclass(slots=True)
class PanelCache:
    lines: tuple[PanelLine, ...] | None = None
    height: int = 0
    surface: pygame.Surface | None = None
    kept: pygame.Rect = field(default_factory=lambda: pygame.Rect(0, 0, 0, 0))


LOG_COLOURS: dict[str, Colour] = {
    "roll": (200, 210, 255),
    "hit": (255, 120, 100),
    "save": (200, 200, 200),
    "wound": (255, 90, 80),
    "state": (255, 200, 90),
    "turn": (150, 230, 150),
    "info": DIM,
}


def panel_lines(
    scenario: Scenario, state: AppState, provider_name: str = ""
) -> tuple[PanelLine, ...]:
    """The panel's text, top to bottom: scenario, turn, what the game awaits, the
    message, the draft, the selection, the ruling and odds, the ruler, the dice log."""
    out: list[PanelLine] = [
        PanelLine(scenario.header.name, size=26),
        PanelLine(scenario.ruleset.title, DIM, 18),
    ]
    active = state.active_side
    colours = side_colours(scenario)
    if active:
        side = scenario.side(active)
        who = f"{side.name} ({side.id})" if side.name else side.id
        out.append(PanelLine(f"Turn {state.turn} of {scenario.header.turns}", gap=6))
        out.append(PanelLine(f"Active: {who}", colours.get(active, style.TEXT)))
    prompt = state.prompt
    if prompt is not None:
        text = prompt.text if state.human or prompt.over else f"{prompt.text} (computer)"
        colour = colours.get(prompt.side or "", TARGET) if state.human else DIM
        out.extend(PanelLine(t, colour, 16) for t in _wrap(text, 44))
    if state.message:
        out.extend(PanelLine(t, WARN, 18) for t in _wrap(state.message, 40))
    preview = state.preview
    if preview is not None:
        under = ", ".join(preview.under) or "nobody"
        out.extend(PanelLine(t, BLAST, 16) for t in _wrap(f"under it: {under}", 44))
    draft = state.draft
    if draft is not None:
        out.extend(PanelLine(t, DRAFT, 16, gap=4) for t in _wrap(draft_text(draft), 44))
    out.append(PanelLine("Selected", DIM, 18, gap=8))
    if state.selected is None:
        out.append(PanelLine("none: click a base", DIM, 18))
    else:
        model = scenario.model(state.selected)
        extra = f"  {model.state}" if model.state else ""
        out.append(
            PanelLine(f"{model.id}  ({model.side}){extra}", colours.get(model.side, style.TEXT))
        )
        out.append(PanelLine(model.profile, size=18))
        profile = scenario.profiles.get(model.profile)
        brief = state.hover is not None  # room for the ruling and the odds
        if profile is not None and not brief:
            out.extend(PanelLine(t, DIM, 16) for t in _wrap(profile_summary(profile), 44))
        for index, name in enumerate(model.weapons):
            chosen = index == state.weapon
            mark = ">" if chosen else " "
            out.append(PanelLine(f"{mark}{index + 1} {name}", TARGET if chosen else style.TEXT))
            weapon = scenario.weapons.get(name)
            if weapon is not None and chosen and not brief:
                out.extend(PanelLine(t, DIM, 16) for t in _wrap(weapon_summary(weapon), 44))
    named = provider_name and provider_name != "line of fire"
    title = "Line of fire" + (f"  [{provider_name}]" if named else "")
    out.append(PanelLine(title, DIM, 18, gap=8))
    if state.hover is not None:
        out.append(PanelLine(f"{state.hover.shooter} -> {state.hover.target}", TARGET))
        out.extend(PanelLine(t, size=18) for line in state.hover.lines for t in _wrap(line, 40))
    else:
        out.append(PanelLine("point at an enemy with a model selected", DIM, 16))
    out.append(PanelLine("Odds", DIM, 18, gap=8))
    if state.hover is not None and state.hover.odds:
        out.extend(PanelLine(t, size=16) for line in state.hover.odds for t in _wrap(line, 46))
        if state.hover.risk:
            risk = "at risk of a stray shot: " + ", ".join(state.hover.risk)
            out.extend(PanelLine(t, RISK, 16) for t in _wrap(risk, 46))
    elif state.prompt is None:
        out.append(PanelLine("no game attached: a table viewer", DIM, 16))
    else:
        out.append(PanelLine("point at an enemy for MODs, SV and odds", DIM, 16))
    if state.ruler is not None:
        r = state.ruler
        to = f" to {r.target}" if r.target else ""
        out.append(PanelLine("Ruler", DIM, 18, gap=8))
        out.append(PanelLine(f'{r.distance:.2f}" edge to edge from {r.origin}{to}', RULER))
    out.append(PanelLine("Dice log", DIM, 18, gap=8))
    for entry in state.log[-LOG_SHOWN:]:
        colour = LOG_COLOURS.get(entry.kind, style.TEXT)
        out.extend(PanelLine(t, colour, 16, log=True) for t in _wrap(entry.text, 46))
    if not state.log:
        out.append(PanelLine("no rolls yet", DIM, 16))
    return tuple(out)


def draft_text(draft: Draft) -> str:
    if draft.kind == "move":
        moved = f'{draft.length:.1f}"'
        if draft.allowance is not None:
            moved += f' of {draft.allowance:g}" ({draft.left or 0:.1f}" left)'
        return f"{draft.model} moves {moved}: click points, Backspace undoes one, Enter"
    blind = " blind" if draft.blind else ""
    if draft.aim == AimKind.TEMPLATE:
        laid = "laid: Enter" if draft.direction is not None else "point it and click to lay it"
        return f"{draft.model} fires{blind} {draft.weapon} (template): {laid}"
    if draft.aim == AimKind.BLAST:
        if draft.targets:
            aimed = f"at {draft.targets[0][0]}: Enter"
        elif draft.point is not None:
            aimed = f"at ({draft.point[0]:.1f}, {draft.point[1]:.1f}): Enter"
        else:
            aimed = "click an enemy or a point"
        return f"{draft.model} fires{blind} {draft.weapon} (blast) {aimed}"
    dice = ", ".join(f"{t} x{n}" for t, n in draft.targets) or "click an enemy"
    if draft.burst <= 1:
        return f"{draft.model} shoots{blind} {draft.weapon}: {dice}; Enter"
    return f"{draft.model} shoots {draft.weapon} (Burst {draft.burst}): {dice}; +/- dice, Enter"


HELP = (
    "M move · S shoot · D dodge · I idle · E end turn",
    "Enter confirm · Esc cancel · Ctrl+Z/Y undo/redo",
    "Ctrl+S/O save/load · drag base: ruler · wheel zoom",
    "right-drag pan · Tab/1-9 weapon · F12 shot · Q quit",
)


def _wrap(text: str, width: int) -> list[str]:
    words = text.split(" ")
    lines: list[str] = []
    line = ""
    for word in words:
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    if line:
        lines.append(line)
    return lines


COMMON_HELP = (
    "Ctrl+S/O save/load · drag base: ruler · wheel zoom",
    "right-drag pan · Tab/1-9 weapon · F12 shot · Q quit",
)


def draw_panel(surface: pygame.Surface, lines: tuple[PanelLine, ...], cache: PanelCache,
               keys_help: tuple[str, ...] = (), reserve: int = 0) -> pygame.Rect:  # fmt: skip
    """The side panel at the right edge of `surface` (rendered again only when it changes).
    `keys_help`: the rule system's declaration keys (default: `HELP`). `reserve`: pixels
    kept free above the keys (returned as a rectangle of `surface`)."""
    width = panel_width(surface.get_size())
    height = surface.get_height()
    helps = (*keys_help, *COMMON_HELP) if keys_help else HELP
    # the help and the room kept are part of the key
    lines = (*lines, PanelLine("\x00".join(helps), size=0), PanelLine(str(reserve), size=0))
    if cache.surface is None or cache.lines != lines or cache.height != height:
        panel = pygame.Surface((width, height))
        panel.fill(PANEL_BG)
        pygame.draw.line(panel, PANEL_RULE, (0, 0), (0, height))
        bottom = height - 8
        for text in reversed(helps):
            image = font(16).render(text, True, DIM)
            bottom -= image.get_height() + 2
            panel.blit(image, (14, bottom))
        bottom -= reserve
        cache.kept = pygame.Rect(1, bottom, width - 1, reserve)
        images = [
            (line, font(line.size).render(line.text, True, line.colour))
            for line in lines
            if line.size
        ]
        # Too tall: the oldest dice log lines give way first.
        total = 12 + sum(line.gap + image.get_height() + 2 for line, image in images)
        while total > bottom - 4 and any(line.log for line, _ in images):
            index = next(i for i, (line, _) in enumerate(images) if line.log)
            line, image = images.pop(index)
            total -= line.gap + image.get_height() + 2
        y = 12
        for line, image in images:
            y += line.gap
            if y + image.get_height() > bottom - 4:
                break
            panel.blit(image, (14, y))
            y += image.get_height() + 2
        cache.surface, cache.lines, cache.height = panel, lines, height
    surface.blit(cache.surface, (surface.get_width() - width, 0))
    return cache.kept.move(surface.get_width() - width, 0)
