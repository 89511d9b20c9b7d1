"""Open Rebellion cover tiers from the geometry's answers (FACTS 1.4).

A unit counts as in a cover category when more than half its models are in it. Area
terrain is light cover. A wall (substantial linear terrain) is hard cover, but only for a
model touching it. If the shooter can see more than half the unit's models unobstructed by
walls (a flank), hard cover drops to light.

Reading (seed 001 places cover where the unit is, "in" it): a piece that hides part of a
model gives it light cover only when the model stands within the cover reach of it
(assets/open-rebellion/rules.toml `cover_reach`, 2"): a wall beside the shooter, or
anything else far from the model, hides part of it but puts it in no cover; likewise the
flank test counts only the walls within that reach of the model.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Sequence
from dataclasses import dataclass

from game.geometry.lof import Sight
from game.geometry.measures import pieces_near
from game.geometry.table import Body, PieceKind, Table
from game.rules.cover import Cover, CoverRuling, SightOf
from game.words import joined

BASE_CONTACT = 0.05  # inches: a base this close to a wall touches it
SEEN_ALL = 0.995
REACH_KEY = "cover_reach"  # the rule value's name in assets/open-rebellion/rules.toml
REACH = 2.0  # inches: its value there, for a scenario that carries no rule values


def cover_reach(rule_values: dict[str, float]) -> float:
    """How near a piece a model must stand for the piece to give it cover by hiding part
    of it (the rule value, or its value in the rules file when a scenario has none)."""
    return float(rule_values.get(REACH_KEY, REACH))


class OpenRebellionCover(enum.IntEnum):
    OPEN = 0
    LIGHT = 1
    HARD = 2

    @property
    def label(self) -> str:
        return self.name.lower()


@dataclass(frozen=True, slots=True)
class ModelCover:
    model: str
    level: OpenRebellionCover
    at_wall: bool  # touching a wall
    seen_past_walls: bool  # a clear line of fire that no wall hides any of
    reason: str
    seen: bool = True  # the shooter sees it at all (a model it cannot see has no say)
    walls: tuple[str, ...] = ()  # the walls it touches
    pieces: tuple[str, ...] = ()  # what gives its tier: walls touched, area, what hides it


@dataclass(frozen=True, slots=True)
class SquadCover:
    level: OpenRebellionCover
    reason: str
    models: tuple[ModelCover, ...]
    pieces: tuple[str, ...] = ()  # what gives the unit its tier (none in the open)


def standing_in(table: Table, target: Body) -> tuple[set[str], list[str]]:
    """The walls the model touches and the area terrain it stands in: what puts it in
    cover from any shooter that sees it (hard and light), before any sight line."""
    near = [table.piece(p) for p in pieces_near(table, target, BASE_CONTACT)]
    walls = {str(p.id) for p in near if p.kind is PieceKind.WALL}
    inside_area = [
        str(p) for p in pieces_near(table, target, 0.0) if table.piece(p).kind is PieceKind.AREA
    ]
    return walls, inside_area


def model_cover(table: Table, sight: Sight, reach: float = REACH) -> ModelCover:
    """One model's own tier as seen by the shooter of `sight`; `reach`: `cover_reach`."""
    return _model_cover(
        table, sight.target, sight.clear, sight.blockers, sight.hidden_by,
        sight.visible_fraction, reach,
    )  # fmt: skip


def seen_whole_cover(table: Table, target: str) -> ModelCover:
    """`model_cover` for a model the shooter sees all of (a clear sight with a visible
    fraction of 1, nothing hiding any of it), read without the sight."""
    return _model_cover(table, target, True, (), (), 1.0, REACH)


def near_pieces(table: Table, target: Body, reach: float) -> set[str]:
    """The pieces within `reach` of the model's base: the only ones that give it cover by
    hiding part of it (`cover_reach`)."""
    return {str(p) for p in pieces_near(table, target, reach)}


def _model_cover(
    table: Table,
    target_id: str,
    clear: bool,
    blockers: Sequence[str],
    hidden_by: Sequence[str],
    visible_fraction: float,
    reach: float,
) -> ModelCover:
    target = table.body(target_id)
    walls, inside_area = standing_in(table, target)
    hidden_by_wall = [p for p in hidden_by if p in walls]
    # Open Rebellion (a reading, `cover_reach`): only what the model stands near covers it
    near = near_pieces(table, target, reach) if hidden_by else set()
    hidden_near = [p for p in hidden_by if p in near]
    any_wall_hides = any(table.piece(p).kind is PieceKind.WALL for p in hidden_near)
    seen_past = clear and not any_wall_hides
    if not clear:
        # not a tier: a model the shooter cannot see is left out of the unit's reading
        by = ", ".join(blockers) or "scenery"
        return ModelCover(str(target.id), OpenRebellionCover.OPEN, bool(walls), False,
                          f"out of sight, {by} in the way", seen=False)  # fmt: skip
    pieces: tuple[str, ...] = ()
    if walls:
        # Open Rebellion: hard cover needs the model touching the wall; whether the shooter
        # sees past it is the squad's flank test
        level, reason = OpenRebellionCover.HARD, f"touching {', '.join(sorted(walls))}"
        pieces = tuple(sorted(walls))
        if not hidden_by_wall:
            reason += ", which hides none of it from here"
    elif inside_area:
        level, reason = OpenRebellionCover.LIGHT, f"in area terrain {', '.join(inside_area)}"
        pieces = tuple(inside_area)
    elif visible_fraction < SEEN_ALL and hidden_near:
        hidden = f"{1 - visible_fraction:.0%} hidden by {', '.join(hidden_by)}"
        if len(hidden_near) < len(hidden_by):
            hidden += f'; within {reach:g}" of {", ".join(hidden_near)}'
        level, reason = OpenRebellionCover.LIGHT, hidden
        pieces = tuple(hidden_near)
    elif visible_fraction < SEEN_ALL:
        level = OpenRebellionCover.OPEN
        reason = (
            f"in the open: {1 - visible_fraction:.0%} hidden by {', '.join(hidden_by)}, "
            f'farther than {reach:g}" from it'
        )
    else:
        level, reason = OpenRebellionCover.OPEN, "in the open"
    return ModelCover(str(target.id), level, bool(walls), seen_past, reason,
                      walls=tuple(sorted(walls)), pieces=pieces)  # fmt: skip


def squad_cover(
    table: Table, sights: Sequence[Sight], say_from: bool = False, reach: float = REACH
) -> SquadCover:
    """The unit's tier: the sights from one shooter to each model of the unit.

    Reading (the seed is silent on models the shooter cannot see at all): the tier is
    judged on the models the shooter sees; the damage still falls on the whole unit.
    "More than half" is of those seen, and hard cover needs a wall each touches (seed
    001: "a model should be in base contact with a wall"), never a building that hides
    it."""
    return unit_cover(tuple(model_cover(table, s, reach) for s in sights), say_from)


def unit_cover(models: tuple[ModelCover, ...], say_from: bool = False) -> SquadCover:
    """`squad_cover` from each model's own reading; `say_from`: light cover's reason names
    what gives it, by ids ("light: 2 of the 3 in sight in cover from haystacks"), as the
    rulings people read say it (the engine's events keep the reason they always had)."""
    visible = [m for m in models if m.seen]
    n = len(visible)
    if n == 0:
        return SquadCover(OpenRebellionCover.OPEN, "no model of the unit is in sight", models)
    hard = sum(1 for m in visible if m.level is OpenRebellionCover.HARD)
    light_up = sum(1 for m in visible if m.level >= OpenRebellionCover.LIGHT)
    seen = sum(1 for m in visible if m.seen_past_walls)
    # Open Rebellion: a category counts when more than half the unit's models are in it
    giving = _giving(visible)
    said_from = f" from {joined(giving)}" if say_from and giving else ""
    if 2 * hard > n:
        if 2 * seen > n:
            # a flank: the shooter sees more than half the unit past the wall
            return SquadCover(
                OpenRebellionCover.LIGHT,
                f"light: hard cover flanked, {seen} of {n} seen past the wall"
                + (f"; in cover{said_from}" if said_from else ""),
                models,
                giving,
            )
        walls = sorted({w for m in visible if m.level is OpenRebellionCover.HARD for w in m.walls})
        return SquadCover(
            OpenRebellionCover.HARD,
            f"hard: {hard} {_of(n, len(models))} touching {', '.join(walls)}"
            f"{_unseen(n, len(models))}",
            models,
            tuple(walls),
        )
    if 2 * light_up > n:
        return SquadCover(
            OpenRebellionCover.LIGHT,
            f"light: {light_up} {_of(n, len(models))} in cover{said_from}{_unseen(n, len(models))}",
            models,
            giving,
        )
    return SquadCover(
        OpenRebellionCover.OPEN,
        f"open: only {light_up} {_of(n, len(models))} in cover{_unseen(n, len(models))}",
        models,
    )


def _giving(visible: Sequence[ModelCover]) -> tuple[str, ...]:
    """What gives a unit light cover: what gives each model seen in cover its own."""
    return tuple(dict.fromkeys(p for m in visible if m.level >= OpenRebellionCover.LIGHT
                               for p in m.pieces))  # fmt: skip


def _of(seen: int, total: int) -> str:
    """ "of 4", or of the models in sight when the shooter sees only some, and how many
    it does not see: "of the 3 in sight", "; 1 of 4 out of sight" (no brackets)."""
    return f"of {total}" if seen == total else f"of the {seen} in sight"


def _unseen(seen: int, total: int) -> str:
    return "" if seen == total else f"; {total - seen} of {total} out of sight"


# A unit's count as `unit_cover` writes it into its reason (and so into the events saves
# keep, which stay as they were): "open: only 0 of the 1 in sight in cover; 3 of 4 out of
# sight", light cover's with what gives it where a ruling says it ("in cover from hedge").
_COUNTED = re.compile(
    r"(?P<tier>open|light|hard): (?:only )?(?P<k>\d+) of (?:the (?P<seen>\d+) in sight|"
    r"(?P<n>\d+)) (?P<what>in cover(?: from [^;]+)?|touching [^;]+)"
    r"(?:; (?P<unseen>\d+) of \d+ out of sight)?"
)


# A flank as `unit_cover` writes it into its reason (events keep it so): "light: hard
# cover flanked, 2 of 3 seen past the wall", "; in cover from haystacks" after it where a
# ruling names what gives the cover. Its count is of the models in sight.
_FLANKED = re.compile(
    r"light: hard cover flanked, (?P<k>\d+) of (?P<seen>\d+) seen past the wall"
    r"(?:; (?P<what>in cover from .+))?"
)


def counted_said(reason: str) -> str | None:
    """A unit's cover count (`unit_cover`'s reason, tier first) as a player says it, for
    every count, without the tier (None: not a count): "open: only 0 of the 1 in sight in
    cover; 3 of 4 out of sight" reads "the one model in sight is not in cover; the other 3
    are out of sight", "light: 4 of 4 in cover" "all 4 of its models are in cover", a
    flank's "light: hard cover flanked, 2 of 3 seen past the wall" "hard cover flanked: 2
    of the 3 in sight are seen past the wall"."""
    flanked = _FLANKED.fullmatch(reason)
    if flanked is not None:
        seen_past = _count(int(flanked["k"]), int(flanked["seen"]), "seen past the wall", True)
        what = f"; the unit is {flanked['what']}" if flanked["what"] else ""
        return f"hard cover flanked: {seen_past}{what}"
    found = _COUNTED.fullmatch(reason)
    if found is None:
        return None
    seen = int(found["seen"] or found["n"])
    only = "only " if found["tier"] == "open" else ""
    said = _count(int(found["k"]), seen, found["what"], found["seen"] is not None, only)
    unseen = int(found["unseen"] or 0)
    if unseen == 1:
        said += "; the other one is out of sight"
    elif unseen:
        said += f"; the other {unseen} are out of sight"
    return said


def _count(k: int, seen: int, what: str, in_sight: bool, only: str = "") -> str:
    """`k` of the `seen` models the shooter sees are `what`, as a player says it: of the
    unit's models, or (`in_sight`) of those in sight when it may not see them all."""
    if in_sight:
        one, of, both = "the one model in sight", f"of the {seen} in sight", "both models in sight"
        every = f"all {seen} in sight"
    else:  # the shooter sees every model of the unit
        one, of, both = "its one model", f"of its {seen} models", "both its models"
        every = f"all {seen} of its models"
    if seen == 1:
        return f"{one} is {'' if k else 'not '}{what}"
    if k == 0:
        return f"{'neither' if seen == 2 else 'none'} {of} is {what}"
    if k == seen:
        return f"{both if seen == 2 else every} are {what}"
    return f"{only}{k} {of} {'is' if k == 1 else 'are'} {what}"


def cover_said(reason: str) -> str:
    """`unit_cover`'s reason with its count as a player says it (`counted_said`), the tier
    kept before it: "hard: 3 of the 3 in sight touching wall; 1 of 4 out of sight" reads
    "hard: all 3 in sight are touching wall; the other one is out of sight"; a reason that
    is no count (none in sight) as it is. What lof, the window's hover and shoot
    print; the events keep the reason as the rules wrote it."""
    said = counted_said(reason)
    return reason if said is None else f"{reason.split(':', 1)[0]}: {said}"


def sequencer_cover(table: Table, sight: Sight, rule_values: dict[str, float]) -> tuple[Cover, str]:
    """The registry's "cover" part for one model (the engine reads the unit's tier
    itself with `squad_cover`): out of sight is the top level, any tier is partial."""
    if not sight.clear:
        by = ", ".join(sight.blockers) or "scenery"
        return Cover.TOTAL, f"not in line of fire, {by} in the way"
    mine = model_cover(table, sight, cover_reach(rule_values))
    level = Cover.NONE if mine.level is OpenRebellionCover.OPEN else Cover.PARTIAL
    return level, mine.reason


def scenario_ruling(
    table: Table, sight: Sight, rule_values: dict[str, float], sight_of: SightOf
) -> CoverRuling:
    """The registry's "ruling" part: cover belongs to the unit, by the majority of its
    models, each seen from the same shooter."""
    unit = table.body(sight.target).unit
    mates = [b.id for b in table.bodies if unit is not None and b.unit == unit] or [sight.target]
    sights = [sight if m == sight.target else sight_of(m) for m in mates]
    models = tuple(model_cover(table, s, cover_reach(rule_values)) for s in sights)
    squad = unit_cover(models, say_from=True)
    unseen = not any(m.seen for m in squad.models)
    # a unit the shooter sees none of has no tier to give (its level stays "open", as
    # the engine reads it): said out of sight (session 10's new user: "in the open")
    said = "out of sight: none of its models is in sight" if unseen else cover_said(squad.reason)
    whole = "" if unit is None else f"; judged for the whole of {unit}"
    # lof --json's `reason` keeps the words it had (review10: a contract)
    plain = unit_cover(models).reason + whole
    return CoverRuling(squad.level.label, said + whole, unit=unit, unit_word="squad",
                       pieces=squad.pieces, unit_unseen=unseen and unit is not None,
                       rules_reason=plain)  # fmt: skip
