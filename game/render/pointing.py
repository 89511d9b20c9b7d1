"""What lies under the window's pointer: the base, the mover's route, and the ruling,
odds, stray-shot risk and blast preview for the shot it points at.

`Pointing` is the bottom of the window's class stack (`Following` adds the game it
plays, `App` the pygame window and its loop); actions and input handlers talk to it.

No pygame here.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import replace

from game.errors import IllegalDeclaration
from game.render.link import TableGame
from game.render.play_rules import AimKind, Laid, PlayRules, Rings, ShotPlace
from game.render.ruling import Ruling, RulingProvider
from game.render.session import Session
from game.render.state import AppState, Hover, Point, shot_table
from game.scenario import PlacedModel, Scenario
from game.scenario.names import told_names
from game.scenario.ruling import LofRuling
from game.sequencer.sentences import names_of, speaking, told, who

ROUTE_PICK_PIXELS = 8  # a click this close to the mover's route picks a point on it


class Impossible(Exception):
    """An action that cannot be done now; the message is shown in the panel, the ids
    the rules wrote in it named (`Following.perform`)."""


class Said(Impossible):
    """An action that cannot be done now, its message named already: shown as it is."""


class Pointing:
    """The window's state with the scenario it shows and the questions asked about the
    pointer. `session` is a game the table plays; `_game` a bare game it follows."""

    scenario: Scenario
    base_scenario: Scenario
    state: AppState
    provider: RulingProvider
    session: Session | None
    _game: TableGame | None
    _preview_key: tuple[object, ...] | None

    @property
    def game(self) -> TableGame | None:
        return self.session.game if self.session is not None else self._game

    @property
    def rules(self) -> PlayRules | None:
        return self.session.rules if self.session is not None else None

    def route_point(self, pos: Point) -> Point | None:
        """The point of the mover's route nearest `pos`, when a reaction may pick one
        and `pos` is within a few pixels of the route."""
        prompt = self.state.prompt
        if prompt is None or not prompt.reacting or len(prompt.route) < 2:
            return None
        view = self.state.view
        best: tuple[float, Point] | None = None
        px, py = view.to_table(*pos)
        for (ax, ay), (bx, by) in itertools.pairwise(prompt.route):
            dx, dy = bx - ax, by - ay
            length2 = dx * dx + dy * dy
            t = (
                0.0
                if length2 == 0
                else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / length2))
            )
            point = (ax + t * dx, ay + t * dy)
            d = math.dist(point, (px, py)) * view.scale
            if best is None or d < best[0]:
                best = (d, point)
        if best is None or best[0] > ROUTE_PICK_PIXELS:
            return None
        return best[1]

    # -- queries the handlers use

    def in_table(self, pos: Point) -> bool:
        tw, th = self.state.table_size
        return 0 <= pos[0] < tw and 0 <= pos[1] < th

    def model_at(self, pos: Point) -> PlacedModel | None:
        """The base under screen point `pos` (the nearest, if bases touch)."""
        if not self.in_table(pos):
            return None
        view = self.state.view
        x, y = view.to_table(*pos)
        best: tuple[float, PlacedModel] | None = None
        for model in self.scenario.models:
            d = math.dist((x, y), model.at)
            if d <= max(model.radius, 3.0 / view.scale) and (best is None or d < best[0]):
                best = (d, model)
        return best[1] if best else None

    def selected_weapons(self) -> tuple[str, ...]:
        if self.state.selected is None:
            raise Impossible("select a model first")
        weapons = self.scenario.model(self.state.selected).weapons
        if not weapons:
            raise Impossible(f"{who(self.state.selected)} has no weapons")
        return weapons

    def shot_place(self) -> ShotPlace | None:
        """Where the rules have the model that is moving when a shot is taken now (at
        the reaction's point picked on its route, else the end of its route)."""
        rules = self.rules
        if rules is None:
            return None
        try:
            return rules.shot_place(self.game, self.state.aro_at)
        except (IllegalDeclaration, KeyError, ValueError):
            return None

    def refresh_hover(self) -> None:
        """Ask the provider about the enemy under the pointer, once per pair and place:
        ruled, and its odds worked out, with the models where the rules take the shot."""
        place = self.shot_place()
        if place != self.state.place:
            self.state = replace(self.state, place=place)
        state = self.state
        target = self.model_at(state.pointer) if state.pointer is not None else None
        if state.selected is None or target is None:
            if state.hover is not None:
                self.state = replace(state, hover=None)
            return
        shooter = self.scenario.model(state.selected)
        if target.side == shooter.side:
            if state.hover is not None:
                self.state = replace(state, hover=None)
            return
        weapon = shooter.weapons[state.weapon % len(shooter.weapons)] if shooter.weapons else None
        if place is not None and place.model not in (shooter.id, target.id):
            place = None  # neither is the one moving: both where they stand
        blind = self._blind()
        if state.hover is not None and (
            state.hover.shooter,
            state.hover.target,
            state.hover.place,
        ) == (shooter.id, target.id, place):
            if (state.hover.weapon, state.hover.blind) == (weapon, blind):
                return
            # another weapon: ruled afresh where one of the two is laid (a template)
            if self._laid(shooter.id, target.id, weapon, blind) is None and not state.hover.laid:
                hover = replace(
                    state.hover,
                    weapon=weapon,
                    odds=self._odds(shooter.id, target.id, weapon, blind),
                    risk=self._risk(shooter.id, target.id, weapon, blind),
                    blind=blind,
                )
                self.state = replace(state, hover=hover)
                return
        table = shot_table(self.scenario, place)
        laid = self._laid(shooter.id, target.id, weapon, blind)
        try:
            ruling = self.provider.rule(table, shooter.id, target.id)
            ruling = self._turned_ruling(table, ruling, shooter.id, target.id, blind)
            if laid is not None and isinstance(ruling, LofRuling) and ruling.refused:
                # a weapon laid, not aimed: the refusal of an aimed shot (hidden) is not
                # its; what it does is said in the refusal's place
                ruling = replace(ruling, refused=None)
            lines = tuple(self.provider.describe(table, ruling))
            if laid is not None:
                lines = (laid.said, *lines)
        except (ValueError, KeyError) as err:
            said = f"no ruling: {err}"
            self.state = replace(state, hover=None, message=said, refusal=said)
            return
        odds = self._odds(shooter.id, target.id, weapon, blind)
        risk = self._risk(shooter.id, target.id, weapon, blind)
        rings = self._rings(shooter.id, target.id)
        hover = Hover(shooter.id, target.id, ruling, lines, odds, weapon, risk, place,
                      None if place is None else table, rings, blind, laid)  # fmt: skip
        self.state = replace(state, hover=hover)

    def _turned_ruling(
        self, table: Scenario, ruling: Ruling, shooter: str, target: str, blind: bool
    ) -> Ruling:
        """A target outside the shooter's arc that the rules turn it to face as it shoots
        (`PlayRules.turns_to`): the line of fire ruled with the shooter turned, saying so,
        as the odds have it; else `ruling` as it is."""
        rules = self.rules
        if rules is None or not isinstance(ruling, LofRuling) or ruling.in_arc or ruling.no_shot:
            return ruling
        try:
            facing = rules.turns_to(self.game, shooter, target, blind=blind)
        except (IllegalDeclaration, KeyError, ValueError):
            return ruling
        if facing is None:
            return ruling
        at = table.model(shooter).at
        faced = shot_table(table, ShotPlace(shooter, at, facing, "turned"))
        turned = self.provider.rule(faced, shooter, target)
        return replace(turned, turns=True) if isinstance(turned, LofRuling) else ruling

    def _laid(self, shooter: str, target: str, weapon: str | None, blind: bool) -> Laid | None:
        """What `weapon` laid toward `target` does, where the rules lay it rather than aim
        it (a template): `PlayRules.laid` (None without a game or a weapon)."""
        rules = self.rules
        if rules is None or weapon is None:
            return None
        try:
            return rules.laid(self.game, shooter, weapon, target, blind=blind)
        except (IllegalDeclaration, KeyError, ValueError):
            return None

    def _rings(self, shooter: str, target: str) -> Rings | None:
        """The range rings of the shot at `target`, where the rules count them otherwise
        than `AppState.rings_from` (by the models that see it), their models named."""
        rules = self.rules
        if rules is None:
            return None
        try:
            with speaking(names_of(self.scenario)):
                return rules.rings_at(self.game, shooter, target)
        except (IllegalDeclaration, KeyError, ValueError):
            return None

    def _blind(self) -> bool:
        """Whether the shot laid out now is fired blind (B): its odds are ruled so."""
        draft = self.state.draft
        return draft is not None and draft.kind == "shoot" and draft.blind

    def _risk(
        self, shooter: str, target: str, weapon: str | None, blind: bool = False
    ) -> tuple[str, ...]:
        """Who a miss with `weapon` may hit instead (stray shots, where the rules have
        them), nearest first: none for a shot that makes no stray (out of range, say)."""
        rules = self.rules
        if rules is None:
            return ()
        try:
            if blind:  # only a shot fired blind says so: an adapter without B leaves it out
                return tuple(rules.at_risk(self.game, shooter, target, weapon, blind=True))
            return tuple(rules.at_risk(self.game, shooter, target, weapon))
        except (IllegalDeclaration, KeyError, ValueError):
            return ()

    def refresh_preview(self) -> None:
        """Where the drafted blast or template would land: a blast at its target, its
        point, or the pointer until one is chosen; a template toward the pointer until
        it is laid. Asked of the rules only when what it depends on changes."""
        state = self.state
        draft = state.draft
        rules = self.rules
        if (
            draft is None or draft.kind != "shoot" or draft.aim == AimKind.DIRECT
            or rules is None or draft.weapon is None
        ):  # fmt: skip
            if state.preview is not None:
                self.state = replace(state, preview=None)
            self._preview_key = None
            return
        pointer = None
        if state.pointer is not None and self.in_table(state.pointer):
            pointer = state.view.to_table(*state.pointer)
        target: str | None = None
        point: Point | None = None
        direction: float | None = None
        if draft.aim == AimKind.TEMPLATE:
            direction = draft.direction
            start = self.scenario.model(draft.model).at
            if direction is None and pointer is not None and math.dist(pointer, start) > 1e-6:
                direction = math.degrees(math.atan2(pointer[1] - start[1], pointer[0] - start[0]))
        elif draft.targets:
            target = draft.targets[0][0]
        elif draft.point is not None:
            point = draft.point
        elif pointer is not None:
            under = self.model_at(state.pointer) if state.pointer is not None else None
            if under is not None and under.side != self.scenario.model(draft.model).side:
                target = under.id
            else:
                point = pointer
        key = (id(self.game), draft.model, draft.weapon, draft.blind, target, point, direction)
        if key == self._preview_key:
            return
        self._preview_key = key
        try:
            preview = rules.preview(
                self.game, draft.model, draft.weapon, target=target, point=point,
                direction=direction, blind=draft.blind,
            )  # fmt: skip
        except (IllegalDeclaration, KeyError, ValueError) as why:
            said = told(f"no preview: {why}", told_names(self.scenario))
            self.state = replace(self.state, preview=None, message=said, refusal=said)
            return
        if preview is not None and preview.refused:
            preview = replace(preview, refused=told(preview.refused, told_names(self.scenario)))
        self.state = replace(self.state, preview=preview)

    def _odds(
        self, shooter: str, target: str, weapon: str | None, blind: bool = False
    ) -> tuple[str, ...]:
        """The rules' MODs, SV and exact odds for the hovered shot, fired blind or not
        (none without a game)."""
        rules = self.rules
        if rules is None or weapon is None:
            return ()
        # named where the panel shows them: a name holding an id ("the water still",
        # the piece `still`) named twice would read "the water the water still"
        try:
            # only a shot fired blind says so: an adapter without B may leave `blind` out
            if blind:
                at = self.state.aro_at if self.state.place is not None else None
                return tuple(rules.odds_lines(self.game, shooter, target, weapon, at, blind=True))
            if self.state.place is None:  # an adapter with no shot_place needs no point
                return tuple(rules.odds_lines(self.game, shooter, target, weapon))
            at = self.state.aro_at
            return tuple(rules.odds_lines(self.game, shooter, target, weapon, at))
        except (IllegalDeclaration, KeyError, ValueError) as why:
            return (f"no odds: {why}",)
