"""Help on the table: the F1 / `?` overlay listing every key for what the window is doing
now (the rule system's declarations, a move or shot being laid out, a reaction, a
replay), the hint the window opens with, and the banner that asks for a reaction
(an ARO) in letters no one misses, with the choices as keys.
"""

from __future__ import annotations

from collections.abc import Sequence

import pygame

from game.render import style
from game.render.play_rules import MOVE_KEYS, AimKind, Prompt
from game.render.state import AppState, Draft, Size, ui_scale
from game.render.table import font, wrap

Section = tuple[str, tuple[str, ...]]

HINT = "New here? F1 or ? shows every key (this goes away with the first key or click)"
HELP_BG = (16, 18, 22, 245)
HELP_TITLE: style.Colour = (255, 210, 60)
ARO_BG: style.Colour = (120, 20, 20)
ARO_TEXT: style.Colour = (255, 240, 200)

TABLE_KEYS = (
    "click a base: select it · drag from a base: the ruler",
    "point at an enemy: line of fire, cover and the odds",
    "wheel: zoom · right- or middle-drag: pan · Home: the whole table",
    "Tab / Shift+Tab or 1-9: the weapon · F12: a screenshot · Q: quit",
    "F2: edit the table · F2 again: back (a changed table: a new game)",
)
UNDO_KEYS = "Ctrl+Z / Ctrl+Y: undo / redo your last declaration made here"
GAME_KEYS = (
    "Ctrl+S: save the game · Ctrl+O: open the save to step through it",
    "wheel over the panel or PgUp / PgDn: scroll the dice log",
)


def replay_keys(turn_word: str) -> tuple[str, ...]:
    """The replay's keys, a turn in the system's own word ("the next round")."""
    return (
        "Right / Left: the next / previous declaration, with its dice",
        f"Up / Down: the next {turn_word} / back to the start of this {turn_word}",
        "Home / End: the first / last declaration",
        "T: take over here and play on (a new game; the save stays as it was); where "
        "the computer played every side, you play the active one, or the side of a model "
        "you click first",
    )


WATCH_KEYS = (
    "T: take over the active side from here, or the side of a model you click first; "
    "the computer plays on the others",
)


def hand_back_keys(state: AppState) -> tuple[str, ...]:
    """T again, on a side a person took over from the computer."""
    return (
        f"T: hand {state.taken_here} back to the computer, which plays it on from here "
        "(undo still takes back only what you declared, and gives you the side again)",
    )


def shoot_keys(draft: Draft, prompt: Prompt | None) -> tuple[str, ...]:
    """The keys of a shot being laid out, as this shot takes them: its targets (a reaction
    shoots at the model it answers; a unit fires at a unit), its dice, a blast's point
    or a template's heading."""
    aim: tuple[str, ...]
    if draft.aim == AimKind.TEMPLATE:
        aim = ("point the template and click to lay it",)
    elif draft.aim == AimKind.BLAST:
        aim = ("click an enemy or a point of the table for the blast marker",)
    elif prompt is not None and prompt.reacting:
        aim = ("the target: the model the reaction answers",)
    elif draft.unit is not None:
        aim = ("click a model of an enemy unit: the whole unit is fired at",)
    elif draft.burst > 1:
        aim = (
            "click an enemy: a target (each click adds one and shares the dice)",
            "+ / -: a die more or less for the last target clicked",
        )
    else:
        aim = ("click an enemy: the target",)
    return (*aim, "Enter: declare · Esc: cancel")


def help_sections(state: AppState, turn_word: str = "turn") -> list[Section]:
    """What the keys do now, most pressing first (`turn_word`: what the rule system
    calls a turn)."""
    out: list[Section] = []
    if state.replay:
        out.append(("Stepping through a saved game", replay_keys(turn_word)))
    prompt = state.prompt
    if prompt is not None and prompt.choices and state.human:
        choices = prompt.choices_with(state.toggled)
        route = ROUTE_HELP if prompt.route else ()  # a route to react along (an ARO's)
        said = prompt.said(state.selected)
        out.append((f"Reacting: {said}", (*choices, *route, *prompt.shown)))
    draft = state.draft
    if draft is not None:
        if draft.kind == "move":
            keys = draft.keys or (prompt.move_keys if prompt else MOVE_KEYS)
            out.append((f"Laying out a {draft.noun}", keys))
        else:
            out.append(("Aiming a shot", shoot_keys(draft, prompt)))
    if state.keys_help:
        out.append(("Declaring (this rule system)", state.declaring))
    if state.watching:
        out.append(("Watching the computer play every side", WATCH_KEYS))
    if state.taken_here:
        out.append((f"Playing {state.taken_here}, taken over here", hand_back_keys(state)))
    out.append(("The table", TABLE_KEYS))
    if state.prompt is not None:
        # undo where a person declares, or has something to take back or declare again
        undo = (UNDO_KEYS,) if state.keys_help or state.undoable or state.redoable else ()
        out.append(("The game", (*undo, *GAME_KEYS)))
    out.append(("This help", ("F1 or ?: open and close · Esc: close",)))
    return out


ROUTE_HELP = ("click the dashed route: react at that point (default: its end)",)


def draw_help(surface: pygame.Surface, sections: list[Section], area: pygame.Rect) -> None:
    """The overlay: a dark card over `area` with each section's keys, wrapped to fit. The
    whole of `area` is shaded, its edge round the card too, so nothing drawn on the table
    there (a range ring's label at the margin) shows bright beside the card."""
    ui = ui_scale(surface.get_size())
    pad = round(18 * ui)
    card = area.inflate(-2 * pad, -2 * pad)
    shade = pygame.Surface(area.size, pygame.SRCALPHA)
    shade.fill(HELP_BG)
    surface.blit(shade, area.topleft)
    pygame.draw.rect(surface, HELP_TITLE, card, 2)
    room = card.width - 2 * pad
    y = card.top + pad
    head, body = round(22 * ui), round(18 * ui)
    for title, lines in sections:
        for text in wrap(title, head, room):
            if y + font(head).get_linesize() > card.bottom - pad:
                return
            surface.blit(font(head).render(text, True, HELP_TITLE), (card.left + pad, y))
            y += font(head).get_linesize()
        for line in lines:
            for text in wrap(line, body, room - pad):
                if y + font(body).get_linesize() > card.bottom - pad:
                    return
                image = font(body).render(text, True, style.TEXT)
                surface.blit(image, (card.left + 2 * pad, y))
                y += font(body).get_linesize()
        y += round(8 * ui)


def draw_hint(surface: pygame.Surface, table: Size, top: int = 3) -> pygame.Rect:
    """The opening hint in the strip above the table (from `top`): how to get help."""
    ui = ui_scale(surface.get_size())
    size = round(18 * ui)
    text = wrap(HINT, size, table[0] - 20)[0]
    image = font(size).render(text, True, (20, 20, 24))
    box = image.get_rect(midtop=(table[0] // 2, top)).inflate(12, 4)
    pygame.draw.rect(surface, HELP_TITLE, box)
    surface.blit(image, image.get_rect(center=box.center))
    return box


def reaction_banner(
    surface_size: Size,
    prompt: Prompt,
    table: Size,
    avoid: Sequence[tuple[pygame.Rect, int]] = (),
) -> tuple[pygame.Rect, list[tuple[str, int]]]:
    """Where the reaction banner goes on a surface of `surface_size`, and its lines
    (text, pixels): across the top of the table, or across the bottom when it would
    cover less there of what `avoid` lists (rectangles with a weight: the labels and
    bases of the models asked weigh most), or, when both edges are crowded, across the
    band of the table between them that covers least (nearest an edge of those)."""
    ui = ui_scale(surface_size)
    room = table[0] - round(40 * ui)
    head, body = round(24 * ui), round(19 * ui)
    lines = [(t, head) for t in wrap(prompt.text, head, room)]
    lines += [(t, body) for t in wrap("   ".join(prompt.choices), body, room)]
    height = sum(font(px).get_linesize() for _, px in lines) + round(12 * ui)
    box = pygame.Rect(round(10 * ui), round(6 * ui), table[0] - round(20 * ui), height)
    low = box.move(0, table[1] - height - 2 * round(6 * ui))

    def covered(banner: pygame.Rect) -> int:
        return sum(weight for rect, weight in avoid if banner.colliderect(rect))

    high = box
    if low.top > box.bottom and covered(low) < covered(box):
        box = low
    if covered(box) and low.top > high.top:
        # both edges crowded: every band between them, a quarter of the banner apart
        step = max(1, height // 4)
        bands = [high.move(0, dy) for dy in range(step, low.top - high.top, step)]
        best = min(bands, key=lambda b: (covered(b), min(b.top, table[1] - b.bottom)),
                   default=box)  # fmt: skip
        if covered(best) < covered(box):
            box = best
    return box, lines


def draw_reaction_banner(
    surface: pygame.Surface,
    prompt: Prompt,
    table: Size,
    avoid: Sequence[tuple[pygame.Rect, int]] = (),
) -> pygame.Rect:
    """A reaction is awaited from a person: a red banner across the table (the top, or
    the bottom when it covers less there: `reaction_banner`) with what is asked and
    each choice's key."""
    ui = ui_scale(surface.get_size())
    box, lines = reaction_banner(surface.get_size(), prompt, table, avoid)
    pygame.draw.rect(surface, ARO_BG, box)
    pygame.draw.rect(surface, HELP_TITLE, box, 3)
    y = box.top + round(6 * ui)
    head = lines[0][1] if lines else 0
    for text, px in lines:
        image = font(px).render(text, True, ARO_TEXT if px == head else HELP_TITLE)
        surface.blit(image, image.get_rect(midtop=(box.centerx, y)))
        y += font(px).get_linesize()
    return box
