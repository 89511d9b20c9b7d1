"""The window's side panel: its text (`panel_lines`: the scenario, the turn, what the
game awaits, the selection, the ruling and odds, the ruler, the dice log) and its
drawing (`draw_panel`, rendered again only when its text changes).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import pygame

from game.render import style
from game.render.play_rules import MOVE_HINT, AimKind, Prompt
from game.render.ranges import profile_summary, weapon_summary
from game.render.state import AppState, Draft, panel_width, side_to_take, ui_scale
from game.render.style import (
    BLAST,
    DIM,
    DRAFT,
    NEUTRAL,
    PANEL_BG,
    PANEL_RULE,
    RISK,
    RULER,
    TARGET,
    WARN,
    Colour,
)
from game.render.table import font, objective_texts, side_colours, wrap
from game.render.unsaved import unsaved_warned
from game.scenario import Scenario
from game.scenario.names import table_names, told_names
from game.scenario.ruling import LofRuling
from game.sequencer.sentences import listed, profile_called, speaking, told, who

REPLAY: Colour = (150, 220, 255)


def replay_keys(turn_word: str) -> str:
    """The replay's keys, a turn in the system's own word ("Up/Down a round")."""
    return f"Left/Right a declaration · Up/Down a {turn_word} · Home/End · T take over here"


PAD = 14  # pixels between the panel's edges and its text (at ui scale 1)

# The ruling's lines that say what the table and the shooter's-eye view show already,
# the first given up to the view: the witness line is drawn on the table, the view's
# legend gives the share seen and what hides the rest, the label at the target the
# share, cover and distance (as the odds the range), the view and the label the
# verdict. The cover's reason, and any line not named here, go last.
SHOWN_ELSEWHERE = ("witness:", "visible:", "in arc:", "distance:", "line of fire:")
# Said in the eye view's place where the panel has no room for it.
EYE_ELSEWHERE = "shooter's-eye view: in a taller window"


def gives_way(line: str) -> int:
    """How early a ruling's `line` gives way (PanelLine.spare): those saying what the
    table and the eye view show first, in SHOWN_ELSEWHERE's order, the rest last."""
    for rank, start in enumerate(SHOWN_ELSEWHERE):
        if line.startswith(start):
            return len(SHOWN_ELSEWHERE) + 1 - rank
    return 1


# Pixels the eye view needs to show the silhouette at all (its heading, a row of names
# under the ground, the share seen and the size): a panel with less keeps its words.
EYE_LEAST = 140


@dataclass(frozen=True, slots=True)
class PanelLine:
    text: str
    colour: Colour = style.TEXT
    size: int = 20
    gap: int = 0  # pixels of space above the line
    log: bool = False  # a dice log line: the oldest are left out when the panel is full
    # A detail left out when the panel is full or the eye view wants its room: the
    # highest first (the tallest of equals first); 0: never left out.
    spare: int = 0
    # Said only where the eye view is not drawn (where to see it instead).
    no_eye: bool = False


@dataclass(slots=True)
class PanelCache:
    """The panel as last rendered: what it was drawn from, and where each line went
    (`drawn`: its text and pixel box, in panel coordinates)."""

    key: tuple[object, ...] | None = None
    surface: pygame.Surface | None = None
    drawn: list[tuple[str, pygame.Rect]] = field(default_factory=list)
    max_scroll: int = 0  # dice log lines hidden above the oldest shown
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
    message, the draft, the selection, the ruling and odds, the ruler, the dice log.
    Models are called by their names ("Cawdor ganger 2"); the Selected heading gives
    the id beside the name (the one typed into --attacker and --target)."""
    ids = table_names(scenario)
    rules_ids = told_names(scenario)  # the rules' readings, written with ids, as the log names them
    out: list[PanelLine] = [
        PanelLine(scenario.header.name, size=26),
        PanelLine(scenario.ruleset.title, DIM, 18),
    ]
    active = state.active_side
    colours = side_colours(scenario)
    if active:
        # the system's own word for a turn ("Round 2 of 4" where it plays rounds), as its log says
        turn = scenario.ruleset.turn_word.capitalize()
        out.append(PanelLine(f"{turn} {state.turn} of {scenario.header.turns}", gap=6))
        # the side once, as the rule system calls it ("House Orlock"), not its file id
        out.append(PanelLine(f"Active: {ids.get(active, active)}", colours.get(active, style.TEXT)))
    out.extend(holding_lines(scenario, state, ids, colours))
    if state.replay:
        out.append(PanelLine(state.replay, REPLAY, 18, gap=6))
        out.append(PanelLine(replay_keys(scenario.ruleset.turn_word), REPLAY, 16))
    prompt = state.prompt
    if prompt is not None:
        if state.replay and not prompt.over:  # a replay declares nothing: no keys to press
            text = declares_next(prompt, ids)
        else:
            asked = prompt.said(state.selected)
            text = asked if state.human or prompt.over else computer_plays(prompt, ids)
        colour = colours.get(prompt.side or "", TARGET) if state.human else DIM
        out.append(PanelLine(text, colour, 16))
    if state.watching:
        out.append(PanelLine(state.watching, DIM, 16))
    if state.message:
        # a refusal and the "changes not saved" warning in the warning colour (as the
        # editor's); what was done, asked or noticed in plain white
        warned = state.message == state.refusal or unsaved_warned(state.message)
        colour = WARN if warned else NEUTRAL
        out.append(PanelLine(state.message, colour, 18))
    preview = state.preview
    if preview is not None and not preview.refused:  # refused: the refusal says why
        with speaking(ids):
            under = listed(preview.under)
        out.append(PanelLine(f"under it: {under}", BLAST, 16))
    draft = state.draft
    if draft is not None:
        with speaking(ids):
            units = {m.id: m.unit for m in scenario.models if m.unit}
            hint, further = (prompt.move_hint, prompt.reach_hint) if prompt else (MOVE_HINT, "")
            out.append(PanelLine(draft_text(draft, units, hint, further), DRAFT, 16, gap=4))
    out.append(PanelLine("Selected", DIM, 18, gap=8))
    if state.selected is None:
        out.append(PanelLine("none: click a base", DIM, 18))
    else:
        model = scenario.model(state.selected)
        said = dict(state.states).get(model.id, model.state)
        extra = f"  {said}" if said else ""
        # the model, its side and its profile by name: the file's ids are the editor's
        name = ids.get(model.id, model.id)
        if model.lieutenant:  # who the Lieutenant is: open information (FACTS 3.4)
            name += ", the Lieutenant"
        heading = f"{name}  ({ids.get(model.side, model.side)})"
        out.append(PanelLine(heading + extra, colours.get(model.side, style.TEXT)))
        out.append(PanelLine(profile_called(model.profile, scenario.profiles), size=18))
        profile = scenario.profiles.get(model.profile)
        # room for the ruling and the odds, or the odds of a blast or template laid
        brief = state.hover is not None or bool(state.preview and state.preview.odds)
        if profile is not None and not brief:
            out.append(PanelLine(profile_summary(profile), DIM, 16))
        for index, name in enumerate(model.weapons):
            chosen = index == state.weapon
            mark = ">" if chosen else " "
            out.append(PanelLine(f"{mark}{index + 1} {name}", TARGET if chosen else style.TEXT))
            weapon = scenario.weapons.get(name)
            if weapon is not None and chosen and not brief:
                out.append(PanelLine(weapon_summary(weapon), DIM, 16))
    own_provider = provider_name and provider_name != "line of fire"
    title = "Line of fire" + (f"  [{provider_name}]" if own_provider else "")
    out.append(PanelLine(title, DIM, 18, gap=8))
    if state.hover is not None:
        hover = state.hover
        pair = f"{ids.get(hover.shooter, hover.shooter)} -> {ids.get(hover.target, hover.target)}"
        if hover.place is not None:  # ruled where the rules take the shot, said so
            with speaking(ids):
                pair += f", {hover.place.told(hover.shooter, hover.target)}"
        out.append(PanelLine(pair, TARGET))
        if isinstance(hover.ruling, LofRuling) and not hover.ruling.no_shot:
            out.append(PanelLine(EYE_ELSEWHERE, DIM, 16, no_eye=True))
        out.extend(
            PanelLine(told(line, rules_ids), size=18, spare=gives_way(line)) for line in hover.lines
        )
    elif state.preview is None or not state.preview.odds:  # else room for the odds
        out.append(PanelLine("point at an enemy with a model selected", DIM, 16))
    out.append(PanelLine("Odds", DIM, 18, gap=8))
    if state.hover is not None and state.hover.odds:
        out.extend(PanelLine(told(line, rules_ids), size=16) for line in state.hover.odds)
        if state.hover.risk:
            with speaking(ids):
                risk = "at risk of a stray shot: " + listed(state.hover.risk)
            out.append(PanelLine(risk, RISK, 16))
    elif state.preview is not None and state.preview.odds:  # a blast or a template laid
        out.extend(PanelLine(told(line, rules_ids), size=16) for line in state.preview.odds)
    elif state.prompt is None:
        out.append(PanelLine("no game attached: a table viewer", DIM, 16))
    else:
        out.append(PanelLine(state.hover_hint, DIM, 16))
    if state.ruler is not None:
        r = state.ruler
        to = f" to {ids.get(r.target, r.target)}" if r.target else ""
        out.append(PanelLine("Ruler", DIM, 18, gap=8))
        said = f'{r.distance:.2f}" edge to edge from {ids.get(r.origin, r.origin)}{to}'
        out.append(PanelLine(said, RULER))
    out.append(PanelLine("Dice log", DIM, 18, gap=8))
    for entry in state.log:
        colour = LOG_COLOURS.get(entry.kind, style.TEXT)
        out.append(PanelLine(entry.text, colour, 16, log=True))
    if not state.log:
        out.append(PanelLine("no rolls yet", DIM, 16))
    return tuple(out)


def holding_lines(
    scenario: Scenario,
    state: AppState,
    ids: Mapping[str, str],
    colours: Mapping[str, style.Colour],
) -> list[PanelLine]:
    """Who holds each objective now, where the rules score them and a game is attached
    ("Guard console, 1 point: held by PanOceania"); `ids` and `colours` are the table's
    names and the sides' colours, found once a frame by `panel_lines`."""
    if state.prompt is None:
        return []
    unscored = scenario.ruleset.unscored(len(scenario.objectives))
    if unscored:  # drawn on the table: said once that they decide nothing
        return [PanelLine(unscored, DIM, 16)]
    if not scenario.ruleset.scores_objectives:
        return []
    held = dict(state.holding)
    texts = objective_texts(scenario)
    out = []
    for o in scenario.objectives:
        side = held.get(o.id)
        held_by = f"held by {ids.get(side, side)}" if side else "held by no side"
        colour = colours.get(side, DIM) if side else DIM
        out.append(PanelLine(f"{texts[o.id]}: {held_by}", colour, 16))
    return out


def computer_plays(prompt: Prompt, names: Mapping[str, str]) -> str:
    """What a side the computer plays is doing, without the keys a person would press:
    "the computer plays PanOceania: 1 Order left"."""
    side = prompt.side or ""
    plays = f"the computer plays {names.get(side, side)}"
    return f"{plays}: {prompt.status}" if prompt.status else plays


def declares_next(prompt: Prompt, names: Mapping[str, str]) -> str:
    """Whose declaration a replay comes to next, without the keys a player would press:
    "PanOceania to declare next: 10 Orders left" (no verb to agree with a side's name:
    the sentences make some plural, "Rebels end the squad's activation")."""
    side = prompt.side or ""
    who = f"{names.get(side, side)} to declare next"
    return f"{who}: {prompt.status}" if prompt.status else who


def draft_text(
    draft: Draft, units: Mapping[str, str], move_hint: str = MOVE_HINT, reach_hint: str = ""
) -> str:
    """The draft in a sentence, its models named (`who`: the panel says it `speaking`); a
    unit's fire (`draft.unit`) unit at unit, as the rules fire it ("Rebel squad a fires at
    Gov squad a: Enter"), the enemy unit by the model clicked (`units`: model -> unit); a
    move with `move_hint`, its keys as the step takes them (`Prompt.move_hint`), against
    the inches of the move Enter declares, or past them (`Draft.reach`) the further
    move's, with `reach_hint` (`Prompt.reach_hint`); a move the rules say otherwise with
    its own verb and keys (`Draft.verb`, `Draft.hint`: "crawls")."""
    model = who(draft.model)
    if draft.kind == "move":
        moved = f'{draft.length:.1f}"'
        limit = draft.limit
        if limit is not None:
            moved += f' of {limit:g}" ({draft.left or 0:.1f}" left)'
        if limit != draft.allowance and reach_hint:  # only the key that goes further
            move_hint = reach_hint
        return f"{model} {draft.verb} {moved}: {draft.hint or move_hint}"
    blind = " blind" if draft.blind else ""
    if draft.aim == AimKind.TEMPLATE:
        laid = "laid: Enter" if draft.direction is not None else "point it and click to lay it"
        return f"{model} fires{blind} {draft.weapon} (template): {laid}"
    if draft.aim == AimKind.BLAST:
        if draft.targets:
            aimed = f"at {who(draft.targets[0][0])}: Enter"
        elif draft.point is not None:
            aimed = f"at ({draft.point[0]:.1f}, {draft.point[1]:.1f}): Enter"
        else:
            aimed = "click an enemy or a point"
        return f"{model} fires{blind} {draft.weapon} (blast) {aimed}"
    if draft.unit is not None:
        if not draft.targets:
            return f"{who(draft.unit)} fires: click a model of the enemy unit"
        enemy = units.get(draft.targets[0][0], draft.targets[0][0])
        return f"{who(draft.unit)} fires at {who(enemy)}: Enter"
    dice = ", ".join(f"{who(t)} x{n}" for t, n in draft.targets) or "click an enemy"
    if draft.burst <= 1:
        extra = f"; extra hits on {listed(draft.extras)}" if draft.extras else ""
        return f"{model} shoots{blind} {draft.weapon}: {dice}{extra}; Enter"
    return f"{model} shoots {draft.weapon} (Burst {draft.burst}): {dice}; +/- dice, Enter"


# The keys at the foot of the panel: the rule system's declaration keys, then these
# (F1 lists every key).
HELP = ("F1 or ? every key · drag a base: ruler · wheel: zoom · Q quit",)
COMMON_HELP = ("F1 or ? every key · Ctrl+S save · Ctrl+O open a save · Q quit",)
# While the computer plays every side: nothing a person declares with; the same once the
# game is over with nothing a person declared here to undo.
WATCH_HELP = ("drag a base: ruler · wheel: zoom", *COMMON_HELP)
# Once the game is over: what is left to do (undo takes back the end).
OVER_HELP = ("Ctrl+Z undo · drag a base: ruler · wheel: zoom", *COMMON_HELP)


def foot_keys(scenario: Scenario, state: AppState) -> tuple[str, ...]:
    """The keys at the panel's foot: the rule system's declaration keys and the common
    ones while a person may declare (and T, when the side was taken over here, to hand it
    back); once the game is over, what is left to do (Ctrl+Z where a person's declaration
    made here is there to take back); while the computer plays every
    side, none to declare with but T, naming the side it takes now; a viewer's otherwise
    (a replay before its last step: its keys are above)."""
    if state.keys_help:
        back = (f"T hand {state.taken_here} back to the computer",) if state.taken_here else ()
        return (*state.declaring, *back, *COMMON_HELP)
    if state.prompt is not None and state.prompt.over and not state.replay:
        return OVER_HELP if state.undoable else WATCH_HELP
    if not state.watching:
        return HELP
    side = side_to_take(scenario, state)
    name = table_names(scenario).get(side, side)
    return (f"T play {name} from here (click a model first for its side)", *WATCH_HELP)


def draw_panel(surface: pygame.Surface, lines: tuple[PanelLine, ...], cache: PanelCache,
               helps: tuple[str, ...] = HELP, scroll: int = 0,
               reserve: int = 0, least: int = EYE_LEAST) -> pygame.Rect:  # fmt: skip
    """The side panel at the right edge of `surface`, rendered again only when its text,
    size or scroll changes. Every line is wrapped to the panel's width in pixels; the
    keys sit at the bottom, the dice log fills what is left above them, newest last,
    `scroll` lines back from the newest (the wheel over the panel, PgUp/PgDn).
    `helps`: the keys at the foot (`foot_keys`). `reserve`: pixels
    kept free above the keys (returned as a rectangle of `surface`), none when fewer
    than `least` are left by the words (what the eye view needs to be read)."""
    size = surface.get_size()
    width = panel_width(size)
    height = size[1]
    key = (lines, helps, width, height, scroll, reserve, least)
    if cache.surface is None or cache.key != key:
        cache.surface = pygame.Surface((width, height))
        cache.key = key
        _render_panel(cache, lines, helps, ui_scale(size), scroll, reserve, least)
    surface.blit(cache.surface, (size[0] - width, 0))
    return cache.kept.move(size[0] - width, 0)


def _render_panel(cache: PanelCache, lines: tuple[PanelLine, ...], helps: tuple[str, ...],
                  ui: float, scroll: int, reserve: int, least: int) -> None:  # fmt: skip
    panel = cache.surface
    assert panel is not None
    width, height = panel.get_size()
    panel.fill(PANEL_BG)
    pygame.draw.line(panel, PANEL_RULE, (0, 0), (0, height))
    pad = round(PAD * ui)
    room = width - 2 * pad
    cache.drawn = []

    def rows(line: PanelLine) -> list[tuple[str, int, Colour]]:
        px = max(12, round(line.size * ui))
        return [(text, px, line.colour) for text in wrap(line.text, px, room)]

    def blit(text: str, px: int, colour: Colour, y: float) -> None:
        box = panel.blit(font(px).render(text, True, colour), (pad, round(y)))
        cache.drawn.append((text, box))

    # The keys, at the bottom.
    bottom = height - round(8 * ui)
    for text, px, colour in reversed([r for h in helps for r in rows(PanelLine(h, DIM, 16))]):
        bottom -= font(px).get_linesize()
        blit(text, px, colour, bottom)
    bottom -= round(6 * ui)
    # Everything but the log, from the top; the log's heading (the line just above its
    # first entry) is drawn with the log, so it shows however full the body is.
    first = next((n for n, line in enumerate(lines) if line.log), len(lines))
    heading = lines[first - 1] if 0 < first < len(lines) else None
    body = [line for line in lines if not line.log and line is not heading]
    # The log's rows, each with the entry it belongs to (a sentence may wrap).
    log = [(*r, n) for n, line in enumerate(lines) if line.log for r in rows(line)]
    # room for the newest entry whole under the "more above" row (3 rows at least, 6 at
    # most): the eye view gives way to it (tester11 read a sentence's tail in 2 rows)
    newest = sum(1 for r in log if r[3] == log[-1][3]) if log else 0
    rows_px = min(max(3, newest + 1), 6) * font(max(12, round(16 * ui))).get_linesize()
    min_log = rows_px + 4 if log else 0  # the 4: the log's margin above the keys
    head = [] if heading is None else rows(heading)
    head_h: float = sum(font(px).get_linesize() for _, px, _ in head)
    head_h += heading.gap * ui if heading is not None else 0

    # The words come first: the kept room (the eye view) shrinks to leave them space,
    # and goes when too little of it would be left to show anything.
    def tall(line: PanelLine) -> float:
        return line.gap * ui + sum(font(px).get_linesize() for _, px, _ in rows(line))

    words = bottom - 12 - head_h - min_log
    body, free = fitted(body, tall, words, max(least, EYE_LEAST) if reserve > 0 else 0)
    reserve = 0 if free is None else min(reserve, int(free))
    bottom -= reserve
    cache.kept = pygame.Rect(1, bottom, width - 1, reserve)
    pygame.draw.line(panel, PANEL_RULE, (pad, bottom), (width - pad, bottom))
    y = 12.0
    for line in body:
        gap = line.gap * ui
        wrapped = rows(line)
        if y + tall(line) > bottom - min_log - head_h:
            break  # a line is drawn whole or not at all, and none after it
        y += gap
        for text, px, colour in wrapped:
            blit(text, px, colour, y)
            y += font(px).get_linesize()
    if heading is not None:
        y += heading.gap * ui
        for text, px, colour in head:
            blit(text, px, colour, y)
            y += font(px).get_linesize()
    # The dice log below it, newest last, scrolled back `scroll` lines.
    if log:
        step = font(log[0][1]).get_linesize()
        fits = max(1, int((bottom - 4 - y) // step))
        cache.max_scroll = max(0, len(log) - fits)
        scroll = min(scroll, cache.max_scroll)
        end = len(log) - scroll
        start = max(0, end - fits)
        if start > 0:
            whole = _whole(log, start + 1, end)  # a row for the line saying there is more
            if whole < end:
                blit(f"more above: wheel or PgUp ({whole})", log[0][1], DIM, y)
                y += step
                start = whole
            elif _whole(log, start, end) < end:
                start = _whole(log, start, end)  # no room for both: the entry wins
            else:  # inside one entry longer than the room: its beginning, not its tail
                while start > 0 and log[start - 1][3] == log[start][3]:
                    start -= 1
                end = start + fits
        for text, px, colour, _ in log[start:end]:
            blit(text, px, colour, y)
            y += step
    else:
        cache.max_scroll = 0


def fitted(lines: Sequence[PanelLine], tall: Callable[[PanelLine], float], room: float,
           least: int) -> tuple[list[PanelLine], float | None]:  # fmt: skip
    """The `lines` a panel keeps in `room` pixels (`tall`: a line's pixels) and the pixels
    left below them for the shooter's-eye view, None where it is not drawn (`least` 0:
    none wanted). The spare details give way to the view while that leaves it `least`
    (else it goes, its note stays, and they give way only to the words): those that fit
    stay, the last to give way first (`PanelLine.spare`)."""
    fixed = sum(tall(line) for line in lines if not line.spare)
    notes = sum(tall(line) for line in lines if line.no_eye)
    eye = least > 0 and room - fixed + notes >= least
    left = room - fixed + notes - least if eye else room - fixed
    kept: set[int] = set()

    def order(line: PanelLine) -> tuple[int, float]:
        return line.spare, tall(line)

    for line in sorted((line for line in lines if line.spare), key=order):
        if tall(line) <= left:
            kept.add(id(line))
            left -= tall(line)
    body = [line for line in lines if (line.spare == 0 or id(line) in kept)]
    if not eye:
        return body, None
    body = [line for line in body if not line.no_eye]
    return body, room - sum(tall(line) for line in body)


def _whole(log: list[tuple[str, int, Colour, int]], start: int, end: int) -> int:
    """The first row from `start` that begins an entry (no entry is shown from halfway
    through its sentence); `end` when none does."""
    while start < end and log[start][3] == log[start - 1][3]:
        start += 1
    return start
