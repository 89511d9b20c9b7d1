"""Open Rebellion on the interactive table: a click on any model selects its unit (squad);
intents become the unit's declarations; the hover shows both dice pools and the exact
odds of wound and pin markers (game.rules.open_rebellion.odds.small_arms_fire); wound
and pin markers are the unit's, said once beside it.

The window's keys (game.render.app binds them; this adapter reads them as Open
Rebellion's actions):

- M, a click, Enter: Standard Move, the whole unit by the vector from the selected
  model to the point;
- M, a click, then C: Tactical Move along that vector (a skill test sets how far);
- S, a click on an enemy model, Enter: Small Arms Fire at its unit;
- I: Initiative Action (sheds pin markers); A: Take Position (support weapons);
- E: end the activation, or pass with the selected unit; at the start of a turn E with
  a unit selected names it for the initiative roll;
- when the computer's fire damages your unit: in the open D fails the morale check on
  purpose (and falls back), I takes it; in light cover D falls back toward hard cover, I
  stays; nothing else answers it (E is refused with those two keys). Where
  each model would end by each length the fall back may have is shown first (`ahead`).

No pygame here.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from game.errors import IllegalDeclaration
from game.render.play_rules import (
    Ahead,
    Intent,
    IntentKind,
    Marker,
    PlayRules,
    Prompt,
    Rings,
    activating_now,
    game_over,
    window_player,
)
from game.rules.open_rebellion.cover import cover_said
from game.rules.open_rebellion.odds import small_arms_fire
from game.sequencer.declarations import Declaration
from game.sequencer.game import Game
from game.sequencer.open_rebellion import OpenRebellionEngine, tier_label
from game.sequencer.open_rebellion_fire import FALL_BACK_SPREAD
from game.sequencer.open_rebellion_sentences import converts, markers
from game.sequencer.open_rebellion_types import (
    ACTIVATED,
    DEAD,
    IN_POSITION,
    TABLE_EDGE,
    Action,
    ActivateUnit,
    EndUnit,
    FallBackChoice,
    OpenRebellionState,
    PickInitiative,
    UnitAct,
)
from game.sequencer.sentences import joined, listed, plural, who, who_or_piece
from game.sequencer.state import ModelState

Point = tuple[float, float]
SHOWN = 4  # marker counts listed in the odds lines before "or more"


def _pct(p: float) -> str:
    if 0 < p < 0.005:
        return "<1%"
    return f"{p:.0%}"


# Open Rebellion moves a unit by one vector (the selected model to the point clicked), as
# a standard move or a tac-move, and fires with S.
UNIT_MOVE_KEYS = (
    "click: where the selected model goes (a new click moves it); its whole unit moves by "
    "the same vector",
    "Enter: standard move · C: tac-move · Esc: cancel",
)
UNIT_MOVE_HINT = "click where it goes, Enter moves the unit, C tac-moves it"
MOVE_OR_FIRE = "M move or S fire first"


class OpenRebellionRules(PlayRules):
    """The `PlayRules` adapter of Open Rebellion (game.sequencer.open_rebellion)."""

    name = "open-rebellion"
    keys_help = (
        "M move · M, click, C tac-move · S fire",
        "I initiative action · A take position",
        "E end, pass, name for initiative",
        "hit in the open: D fails the morale check on purpose · I takes it",
        "hit in light cover: D falls back toward hard cover · I stays",
    )
    hover_hint = "point at an enemy for both dice pools and the odds"
    one_vector = True

    def __init__(self, engine: OpenRebellionEngine) -> None:
        # Solo play: the computer looks ahead (the search player; see play_rules).
        self.engine = engine
        self.ai = window_player(engine)
        # the fall back's ends for the state they were found for (`_fall_back_ends`)
        self._ends: tuple[OpenRebellionState, list[_End]] | None = None
        # a move laid out past the standard move: only the tac-move takes it (FACTS 1.3)
        standard, base, none = (engine.value(k) for k in (
            "standard_move", "tactical_move_base", "tactical_move_no_bangs"))  # fmt: skip
        self.past_standard = (
            f'too far for a standard move ({standard:g}"); C tac-moves the unit, '
            f'{base:g}" + its bangs ({none:g}" with none)'
        )

    @staticmethod
    def _state(game: Game) -> OpenRebellionState:
        state = game.state
        assert isinstance(state, OpenRebellionState)
        return state

    def unit(self, model: str) -> str:
        try:
            return self.engine.unit_of[model]
        except KeyError:
            raise IllegalDeclaration(f"there is no model {model!r}") from None

    # -- the PlayRules interface -------------------------------------------------------

    def prompt(self, game: Game) -> Prompt:
        awaiting = game.awaiting()
        state = self._state(game)
        side = awaiting.side
        if awaiting.kind == "over" or state.finished:
            return game_over(state.winner)
        if awaiting.kind == "initiative":
            text = (
                f"turn {state.turn}, {who(side)}: select a unit and press E to roll for initiative"
            )
            status = f"turn {state.turn}, rolling for initiative"
            enter = "select a unit and press E to roll for initiative"
            return Prompt(side, "initiative", awaiting.models, text, status=status, enter=enter,
                          lays_out=False)  # fmt: skip
        if awaiting.kind == "fall-back":
            assert state.pending is not None
            p = state.pending
            where = "in the open" if p.tier == 0 else "in light cover"
            go, hold = _answers(p.tier)
            status = f"{who(p.target)} takes {p.damage} damage {where}"
            span, why = _reach(self._fall_back_ends(state))
            # FACTS 1.4: in the open the fall back is a morale check failed on purpose
            if span:
                then = " and falls back" if p.tier == 0 else ","
                text = f"{status}: {go}{then} {span} (shown{'; ' if why else ''}{why}); {hold}"
            else:  # the engine would not move it (the log: "cannot move from where it stands")
                text = f"{status}: {go} but cannot move{f' ({why})' if why else ''}; {hold}"
            unselected = text.replace(f"{status}: ", f"{status}: select it, ", 1)
            return Prompt(side, "fall-back", awaiting.models, text, choices=(go, hold),
                          status=status, enter=f"{go}, {hold}", lays_out=False,
                          unselected=unselected, shown=FALL_BACK_SHOWN)  # fmt: skip
        if awaiting.kind == "activate":
            units = sorted({self.unit(m) for m in awaiting.models})
            text = (
                f"{who(side)}: activate a unit ({listed(units)}): M move, S fire, "
                "I initiative action, A take position, E pass"
            )
            return Prompt(side, "activate", awaiting.models, text, status="activating a unit",
                          enter=MOVE_OR_FIRE, move_keys=UNIT_MOVE_KEYS,
                          move_hint=UNIT_MOVE_HINT, reach_hint=self.past_standard)  # fmt: skip
        unit = state.activating
        assert unit is not None
        left = state.actions_left
        wounds, pins = self.engine.markers(state, unit)
        doing = f"{who(unit)}, {markers(wounds, pins)}: {plural(left, 'action')} left"
        text = f"{doing}; E ends the activation"
        return Prompt(side, "action", awaiting.models, text, status=doing, enter=MOVE_OR_FIRE,
                      move_keys=UNIT_MOVE_KEYS, move_hint=UNIT_MOVE_HINT,
                      reach_hint=self.past_standard)  # fmt: skip

    def ahead(self, game: Game) -> tuple[Ahead, ...]:
        """A fall back awaited (FACTS 1.4: a tac-move away from the fire, D or a morale
        check failed): where each model of the unit would end by each length its skill
        test may give it (FACTS 1.3), as the engine places it (`fall_back_plan`: the
        heading that reaches cover, cut short by what stops it); said on its middle
        model, or, where it cannot move at all, only why, where it stands."""
        state = self._state(game)
        p = state.pending
        if game.awaiting().kind != "fall-back" or p is None:
            return ()
        ends = self._fall_back_ends(state)
        alive = self.engine.alive(state, p.target)
        middle = _middle(alive)
        span, why = _reach(ends)
        if not span:  # it cannot move: said where it stands
            said = f"D falls back: cannot move{', ' if why else ''}{why}"
            return (Ahead(middle.id, middle.at, (), said),)
        moved = [end.moved for end in ends]
        said = f"D falls back {span}, by its bangs" + (f" ({why})" if why else "")
        return tuple(
            Ahead(m.id, m.at, tuple((m.at[0] + dx, m.at[1] + dy) for dx, dy in moved),
                  *((said, _ends_said(ends)) if m.id == middle.id else ()))
            for m in alive
        )  # fmt: skip

    def _fall_back_ends(self, state: OpenRebellionState) -> list[_End]:
        """Where the pending fire's target would fall back by each length its skill test
        may give it (FACTS 1.3), as the engine places it, and what cuts each short. Kept
        for the state asked last: the prompt is asked each frame (about 9 ms for a squad
        of 4 with 5 lengths)."""
        if self._ends is not None and self._ends[0] is state:
            return self._ends[1]
        p = state.pending
        assert p is not None
        engine = self.engine
        ends = []
        for n in engine.tac_lengths(state, p.target):
            plan = engine.fall_back_plan(state, p.target, p.attacker, n)
            ends.append(_End(n, plan.moved, engine.stopped_by(state, p.target, plan.vector,
                                                              plan.share)))  # fmt: skip
        self._ends = (state, ends)
        return ends

    def declaration(self, game: Game, intent: Intent) -> Declaration:
        awaiting = game.awaiting()
        state = self._state(game)
        kind = intent.kind
        if awaiting.kind == "over":
            raise IllegalDeclaration("the game is over")
        if awaiting.kind == "initiative":
            if intent.model is None or kind not in (IntentKind.END, IntentKind.IDLE):
                raise IllegalDeclaration("select one of your units and press E for initiative")
            return PickInitiative(self.unit(intent.model))
        if awaiting.kind == "fall-back":
            assert state.pending is not None
            if kind is IntentKind.DODGE:
                return FallBackChoice(state.pending.target, True)
            if kind is IntentKind.IDLE:
                return FallBackChoice(state.pending.target, False)
            # E too held before (tester14: pressed to pass, it took the morale check unasked)
            go, hold = _answers(state.pending.tier)
            raise IllegalDeclaration(
                f"{who(state.pending.target)} must answer the fire first: {go}, {hold}"
            )
        if kind is IntentKind.END:
            if awaiting.kind == "action":
                return EndUnit()
            if intent.model is None:
                raise IllegalDeclaration("select a unit to pass with")
            return EndUnit(self._ready_unit(game, intent.model))
        if intent.model is None:
            raise IllegalDeclaration("select a unit first")
        unit = self._acting(game, intent.model)
        if awaiting.kind == "activate" and self.engine.markers(state, unit)[0]:
            # wound markers are rolled as the unit activates: that is its own step
            return ActivateUnit(unit)
        return UnitAct(unit, self._action(game, intent))

    def _acting(self, game: Game, model: str) -> str:
        """The unit an action of `model` is for now: a Ready unit of the active side, or
        the one activating (IllegalDeclaration: the reason it may not act)."""
        state = self._state(game)
        if game.awaiting().kind == "activate":
            return self._ready_unit(game, model)
        unit = self.unit(model)
        if unit != state.activating:
            raise IllegalDeclaration(activating_now(state.activating))
        return unit

    def why_not_start(self, game: Game, model: str) -> str:
        """A model whose unit may not act now (another side's, done, or not the one
        activating), said before a move or a shot is laid out."""
        if game.awaiting().kind not in ("activate", "action"):
            return ""
        try:
            self._acting(game, model)
        except IllegalDeclaration as why:
            return str(why)
        return ""

    def first_step(self, game: Game, declaration: Declaration) -> str:
        """FACTS "wound markers ... are converted to kills (or not)" as the unit next
        activates: a unit with wound markers activates on its own, before its action."""
        if isinstance(declaration, ActivateUnit):
            return f"{who(declaration.unit)} activated first, its wound markers rolled"
        return ""

    def _ready_unit(self, game: Game, model: str) -> str:
        unit = self.unit(model)
        state = self._state(game)
        if unit not in self.engine.ready_units(state, state.active):
            names = listed(self.engine.ready_units(state, state.active), "none")
            raise IllegalDeclaration(
                f"{who(unit)} is not a unit of {who(state.active)} to activate ({names})"
            )
        return unit

    def _action(self, game: Game, intent: Intent) -> Action:
        kind = intent.kind
        if kind in (IntentKind.MOVE, IntentKind.TAKE_COVER):
            if not intent.path:
                raise IllegalDeclaration("M, then click where the selected model goes")
            assert intent.model is not None
            start = game.state.model(intent.model).at
            end = intent.path[-1]
            vector = (round(end[0] - start[0], 6), round(end[1] - start[1], 6))
            if kind is IntentKind.TAKE_COVER:
                return Action.tac_move(*vector)
            return Action.move(*vector)
        if kind is IntentKind.SHOOT:
            if not intent.targets:
                raise IllegalDeclaration("click a model of the enemy unit to fire at")
            return Action.fire(self.unit(intent.targets[0][0]))
        if kind is IntentKind.IDLE:
            return Action.initiative()
        if kind is IntentKind.AIM:
            return Action.take_position()
        raise IllegalDeclaration(f"Open Rebellion has no {kind.said}: {self.keys_help[0]}")

    def allowance(self, game: Game, model: str) -> float | None:
        """The standard move's inches, Enter's (FACTS 1.3: 5" an action)."""
        if game.state.model(model).status == DEAD:
            return None
        return self.engine.value("standard_move")

    def reach(self, game: Game, model: str) -> float | None:
        """The longest a tac-move (C) may be: 5" and every skill die a bang (FACTS 1.3);
        the engine checks the vector against it and cuts it short to the bangs rolled."""
        unit = self.unit(model)
        return self.engine.value("tactical_move_base") + self.engine.skill_dice(
            self._state(game), unit
        )

    def firing_unit(self, game: Game, model: str) -> str | None:
        """Open Rebellion fires unit at unit: every model of it with a line of fire."""
        return self.unit(model)

    def rings_from(self, game: Game) -> dict[str, Rings]:
        """Open Rebellion counts a volley's range bands in the longest band among the
        firing models' weapons, from the nearest of them (the engine's reading): a living
        model's rings are its unit's, around every living model of it that has a weapon
        (the weapon the rules fire, whichever one is chosen). Where some of them carry a
        shorter band, the label says the band holds only while a model with the longest
        sees the target ("SAW band, while Reb a3 sees the target")."""
        engine = self.engine
        state = self._state(game)
        rings: dict[str, Rings] = {}
        for unit in engine.units:
            armed = tuple(m.id for m in engine.alive(state, unit) if engine.weapon[m.id])
            if armed:
                band = engine.band_weapon(armed)
                said = f"{band.name} band"
                longest = self._longest(armed)
                if len(longest) < len(armed):
                    whom = listed(longest) if len(longest) == 1 else f"one of {listed(longest)}"
                    said += f", while {whom} sees the target"
                rings.update((m, Rings(band.name, armed, said)) for m in armed)
        return rings

    def rings_at(self, game: Game, shooter: str, target: str) -> Rings | None:
        """The rings of the volley at `target`'s unit: the band of the models that see
        it, around them (the fire's and the odds' figures): "Rifle band at Gov squad b:
        Reb a3 with the SAW sees none of it" where the longest band's models do not."""
        engine = self.engine
        state = self._state(game)
        unit, enemy = self.unit(shooter), self.unit(target)
        if engine.why_not_fire_at(unit, enemy):
            return None
        try:
            firing = tuple(engine.pools(state, unit, enemy).firing)
        except IllegalDeclaration:
            return None
        band = engine.band_weapon(firing)
        said = f"{band.name} band at {who(enemy)}"
        armed = tuple(m.id for m in engine.alive(state, unit) if engine.weapon[m.id])
        blind = [m for m in self._longest(armed) if m not in firing]
        if band.band < engine.band_weapon(armed).band:
            carried = engine.band_weapon(blind).name
            said += f": {listed(blind)} with the {carried} "
            said += f"{'sees' if len(blind) == 1 else 'see'} none of it"
        elif len(firing) < len(armed):
            said += f", from the {len(firing)} that see it"
        return Rings(band.name, firing, said)

    def _longest(self, armed: Sequence[str]) -> list[str]:
        """The models of `armed` whose weapon has the longest band among them."""
        band = self.engine.band_weapon(armed).band
        return [m for m in armed if (w := self.engine.weapon[m]) is not None and w.band == band]

    def path_start(self, game: Game, model: str) -> Point:
        return game.state.model(model).at

    def burst(self, game: Game, model: str, weapon: str) -> int:
        return 1

    def odds_lines(
        self, game: Game, shooter: str, target: str, weapon: str, at: Point | None = None,
        *, blind: bool = False,
    ) -> list[str]:  # fmt: skip
        """Both pools and the exact odds of the markers small arms fire would place."""
        engine = self.engine
        state = self._state(game)
        unit, enemy = self.unit(shooter), self.unit(target)
        lines = [f"{unit} fires at {enemy}"]
        why = engine.why_not_fire_at(unit, enemy)
        if why:
            return [*lines, f"no shot: {why}"]
        try:
            plan = engine.pools(state, unit, enemy)
        except IllegalDeclaration as why:
            return [*lines, f"no shot: {why}"]
        rof = sum(w.rof for w in (engine.weapon[f] for f in plan.firing) if w is not None)
        skill = engine.skill_dice(state, unit)
        support = plan.attack - rof - skill
        # the ROF is that of the models that see the target only (tester14: "ROF 3 (2 with
        # LOS)" read as if the ROF of all were counted)
        seeing = len(plan.firing)
        those = "the one model" if seeing == 1 else f"the {seeing} models"
        lines.append(
            f"attacker {plan.attack} dice: ROF {rof} from {those} in line of sight + "
            f"skill {skill}" + (f" + support {support}" if support else "")
        )
        cover_dice = plan.defence - plan.bands - engine.skill_dice(state, enemy)
        band = engine.band_weapon(plan.firing)  # the unit's longest: the rings show it
        lines.append(
            f'defender {plan.defence} dice: range {plan.bands} ({band.name} band {band.band:g}") '
            f"+ skill "
            f"{engine.skill_dice(state, enemy)}" + (f" + cover {cover_dice}" if cover_dice else "")
        )
        # the unit's reading, from every model of it that fires (the line of fire's is
        # the one model's own view of the unit)
        whose = f"under Line of fire: {shooter}'s view alone"
        lines.append(f"cover from all of {unit}: {cover_said(plan.cover.reason)} ({whose})")
        lines.append(converts(tier_label(plan.tier)))
        exact = small_arms_fire(plan.attack, plan.defence, plan.tier)
        wounds: dict[int, float] = {}
        pins: dict[int, float] = {}
        for placed, ways in exact.counts.items():
            p = ways / exact.total
            w = min(placed.wounds, SHOWN)
            n = min(placed.pinned, SHOWN)
            wounds[w] = wounds.get(w, 0.0) + p
            pins[n] = pins.get(n, 0.0) + p
        lines.append("wound markers: " + _spread(wounds))
        lines.append("pinned markers: " + _spread(pins))
        expected = sum(m.wounds * ways for m, ways in exact.counts.items()) / exact.total
        lines.append(f"expected wound markers {expected:.2f}")
        return lines

    def markers(self, game: Game) -> dict[str, Marker]:
        """The dead marked on their bases; a unit's markers and flags are the unit's, so
        they are said once, in words, in one label beside the living model nearest its
        middle ("East squad: 2 wound markers, in position, done"), not on each of its
        models (in labels of their own, "done" was placed apart from its unit's name)."""
        state = self._state(game)
        out = {m.id: Marker("dead") if m.status == DEAD else Marker("normal")
               for m in state.models}  # fmt: skip
        for unit in self.engine.units:
            alive = self.engine.alive(state, unit)
            if not alive:
                continue
            first = alive[0]  # the markers and flags are the same on every model
            wounds, pins = first.marker("wound"), first.marker("pin")
            facts = [markers(wounds, pins)] if wounds or pins else []
            facts += _flags_said(first, state.finished)
            if not facts:
                continue
            said = f"{who(unit)}: {', '.join(facts)}"
            out[_middle(alive).id] = Marker("normal", 0, 0, (said,))
        return out

    def states(self, game: Game) -> dict[str, str]:
        """A living model's state is its unit's, as its label says it ("in position",
        "done"; "ready" while the unit is still to activate this turn): its status,
        "ready", only says it is on the table."""
        state = self._state(game)
        out: dict[str, str] = {}
        for unit in self.engine.units:
            alive = self.engine.alive(state, unit)
            if alive:
                said = ", ".join(_flags_said(alive[0], state.finished)) or "ready"
                out.update((m.id, said) for m in alive)
        return out

    def choose(self, game: Game) -> Any:
        return self.ai.choose(game.state, game.awaiting())


def _answers(tier: int) -> tuple[str, str]:
    """The keys answering damage, in the log's words (FACTS 1.4: in the open, a morale
    check, or one failed on purpose, which falls back; from light cover the fall back is
    optional, toward hard cover)."""
    if tier == 0:
        return "D fails the morale check on purpose", "I takes the morale check"
    return "D falls back toward hard cover", "I stays in its light cover"


# F1 while a fall back is awaited: what the table shows (`ahead`, draw_ahead)
FALL_BACK_SHOWN = (
    "the table: where each model would end by each length the fall back's skill test may "
    'give (3" with no bangs, 5" and one a bang), as the engine places it',
    "a solid path from each base to its farthest end, a dot at each nearer end, each end "
    "with its model's number (Reb b2's: 2); a dashed line from one model to its ends off "
    "that path (the others' turn alike); on one model the lengths, and how far an end cut "
    'short by the table\'s edge or a piece really goes ("7" and 9": 5.8"")',
    "each length takes the heading nearest straight away from the fire (up to "
    f"{FALL_BACK_SPREAD:g} degrees off) that ends the squad in cover (from light cover: "
    "hard cover); where none does, it goes straight away, so one length may turn toward "
    "cover and a longer one not",
)

MOVED = 0.05  # inches: a fall back shorter than this does not move the unit (as the log says)


@dataclass(frozen=True, slots=True)
class _End:
    """A fall back of `length` inches (its skill test's bangs): the unit moved by `moved`,
    cut short by `stopped` (a piece's or model's id, TABLE_EDGE; "" for the whole)."""

    length: float
    moved: Point
    stopped: str


def _inches(value: float) -> str:
    return f'{round(value, 1):g}"'


def _stoppers(ends: Sequence[_End]) -> str:
    """What cuts the `ends` short, in the log's words ("the table's edge")."""
    said = []
    for end in ends:
        by = "the table's edge" if end.stopped == TABLE_EDGE else who_or_piece(end.stopped)
        if by not in said:
            said.append(by)
    return joined(said, "")


def _reach(ends: Sequence[_End]) -> tuple[str, str]:
    """How far a fall back goes by its skill test's bangs, as the engine would place it,
    and what cuts it short: ('3" to 9"', ''), ('3" to 8"', '7" and 9" cut short by the
    table's edge'), or, where it cannot move at all, ('', "blocked by the table's edge")."""
    far = [math.hypot(*end.moved) for end in ends]
    cut = [end for end in ends if end.stopped]
    if max(far) < MOVED:
        return "", f"blocked by {_stoppers(cut)}" if cut else ""
    lo, hi = min(far), max(far)
    span = _inches(lo) if hi - lo < MOVED else f"{_inches(lo)} to {_inches(hi)}"
    if not cut:
        return span, ""
    which = "" if len(cut) == len(ends) else joined([_inches(e.length) for e in cut], "") + " "
    return span, f"{which}cut short by {_stoppers(cut)}"


def _ends_said(ends: Sequence[_End]) -> tuple[str, ...]:
    """Each end's words, the tac-move's lengths that end there ('6" to 9"' where what
    stops it stops the longer ones at the same spot; '7" and 9": 5.8"' where it stops them
    short of their length), said once: "" for the rest."""
    said = [""] * len(ends)
    done: set[int] = set()
    for k, end in enumerate(ends):
        if k in done:
            continue
        same = [j for j in range(k, len(ends)) if math.dist(ends[j].moved, end.moved) < 0.01]
        done.update(same)
        far = math.hypot(*end.moved)
        lengths = [ends[j].length for j in same]
        if len(same) > 2 and same == list(range(same[0], same[-1] + 1)):
            words = f"{_inches(lengths[0])} to {_inches(lengths[-1])}"
        else:
            words = joined([_inches(n) for n in lengths], "")
        short = any(ends[j].stopped for j in same) and abs(far - lengths[0]) >= MOVED
        said[k] = f"{words}: {_inches(far)}" if short else words
    return tuple(said)


def _flags_said(model: ModelState, finished: bool) -> list[str]:
    """The flags of `model`'s unit (the same on each of its models) in words."""
    said = ["in position"] if IN_POSITION in model.flags else []
    if ACTIVATED in model.flags and not finished:
        said.append("done")  # at the game's end every unit is: said of none
    return said


def _middle(models: Sequence[ModelState]) -> ModelState:
    """The model nearest the middle of `models` (the first of the nearest)."""
    x = sum(m.at[0] for m in models) / len(models)
    y = sum(m.at[1] for m in models) / len(models)
    return min(models, key=lambda m: (m.at[0] - x) ** 2 + (m.at[1] - y) ** 2)


def _spread(odds: dict[int, float]) -> str:
    parts = []
    for n in sorted(odds):
        label = f"{n}+" if n == SHOWN else str(n)
        parts.append(f"{label}: {_pct(odds[n])}")
    return " · ".join(parts)
