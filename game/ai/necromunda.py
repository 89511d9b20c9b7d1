"""A simple automatic Necromunda player: activate a fighter that can shoot, turn it to
the nearest enemy, Aim and Shoot at the closest eligible target (so no Cool test is
needed), flame the nearest enemy when no friend is under the template, otherwise
advance; stand up when Pinned, reload when out of ammo.

Good enough to play a scenario to its end for tests and playtests."""

from __future__ import annotations

import math

from game.errors import IllegalDeclaration
from game.geometry import BodyId
from game.geometry.measures import template_hits
from game.rules.necromunda.data import NecromundaWeapon
from game.sequencer.declarations import Declaration
from game.sequencer.game import Awaiting
from game.sequencer.necromunda import NecromundaEngine
from game.sequencer.necromunda_fire import ARC, heading
from game.sequencer.necromunda_types import (
    OUT_OF_ACTION,
    PINNED,
    SERIOUSLY_INJURED,
    UPRIGHT,
    Act,
    Action,
    ActionKind,
    EndActivation,
    NecromundaState,
    jammed_flag,
    out_of_ammo_flag,
)
from game.sequencer.state import GameState, ModelState

Point = tuple[float, float]
ANGLES = (0, 30, -30, 60, -60, 90, -90)
KEEP_AWAY = 1.5  # inches short of the enemy: this player does not fight in melee


class SimpleNecromundaPlayer:
    """Chooses declarations for whichever side the game awaits."""

    def __init__(self, engine: NecromundaEngine) -> None:
        self.engine = engine

    def choose(self, state: GameState, awaiting: Awaiting) -> Declaration:
        assert isinstance(state, NecromundaState)
        if awaiting.kind == "activate":
            return self._activate(state, awaiting.models)
        if awaiting.kind == "action":
            m = state.model(awaiting.models[0])
            action = self._action(state, m)
            return Act(m.id, action) if action is not None else EndActivation()
        raise ValueError(f"nothing to choose when awaiting {awaiting.kind}")

    # -- which fighter ------------------------------------------------------------

    def _activate(self, state: NecromundaState, ready: tuple[str, ...]) -> Declaration:
        fighters = [state.model(f) for f in ready]
        # Fighters that can shoot go first, then the rest.
        for m in fighters:
            if m.status not in UPRIGHT:
                continue
            facing = self._face_enemy(state, m)
            turned = state.with_model(m.replace(facing=facing))
            shot = self._shot(turned, turned.model(m.id), actions_left=2)
            if shot is not None:
                first = Action.aim() if self._worth_aiming(turned, m.id, shot) else shot
                return Act(m.id, first, turn_to=facing if facing != m.facing else None)
        for m in fighters:
            started = state.replace(activating=m.id, actions_left=2, used=())
            action = self._action(started, m)
            if action is not None:
                return Act(m.id, action)
        return EndActivation(fighters[0].id)

    def _face_enemy(self, state: GameState, m: ModelState) -> float:
        enemy = self._nearest_enemy(state, m)
        return m.facing if enemy is None else round(heading(m.at, enemy.at), 6)

    def _worth_aiming(self, state: NecromundaState, model_id: str, shot: Action) -> bool:
        if shot.weapon is None or shot.direction is not None:
            return False
        weapon = self.engine.weapon(model_id, shot.weapon)
        return weapon.trait("Unwieldy") is None

    # -- which action -------------------------------------------------------------

    def _action(self, state: NecromundaState, m: ModelState) -> Action | None:
        left = state.actions_left
        used = set(state.used)
        if m.status == SERIOUSLY_INJURED or m.status == OUT_OF_ACTION:
            return None
        if m.status == PINNED:
            if ActionKind.STAND_UP.value in used:
                return None
            return Action.stand_up(facing=self._face_enemy(state, m))
        if ActionKind.SHOOT.value not in used:
            shot = self._shot(state, m, left)
            if shot is not None:
                aim_ok = ActionKind.AIM.value not in used and left >= 2
                if aim_ok and self._worth_aiming(state, m.id, shot):
                    return Action.aim()
                return shot
        for name in self.engine.weapons[m.id]:
            if out_of_ammo_flag(name) in m.flags and jammed_flag(name) not in m.flags:
                weapon = self.engine.weapon(m.id, name)
                if weapon.trait("Scarce") is None and weapon.trait("Grenade") is None:
                    return Action.reload(name)
        if ActionKind.AIM.value in used:
            return None  # aimed but the target is gone: keep still
        return self._advance(state, m)

    def _usable(self, m: ModelState, left: int) -> list[NecromundaWeapon]:
        out = []
        for weapon in self.engine.weapons_of(m.id):
            if out_of_ammo_flag(weapon.name) in m.flags or jammed_flag(weapon.name) in m.flags:
                continue
            if weapon.trait("Unwieldy") is not None and left < 2:
                continue
            out.append(weapon)
        return out

    def _shot(self, state: NecromundaState, m: ModelState, actions_left: int) -> Action | None:
        """The best shot from where the fighter stands, or None."""
        eligible = self.engine.eligible(state, m.id, ARC)
        targets = [t for t, _ in eligible if state.model(t).status != SERIOUSLY_INJURED]
        best: tuple[tuple[int, int], Action] | None = None
        for weapon in self._usable(m, actions_left):
            if weapon.is_template:
                action = self._flame(state, m, weapon)
                if action is not None:
                    key = (0, weapon.strength + 2)  # auto-hits: worth more than a shot
                    if best is None or key > best[0]:
                        best = (key, action)
                continue
            if not targets:
                continue
            target = targets[0]  # the closest: target priority needs no Cool test
            plan = self.engine.hit_plan(state, m.id, weapon, target=target)
            if plan.out_of_range or plan.need > 6:
                continue
            key = (-plan.need, weapon.strength)
            if best is None or key > best[0]:
                best = (key, Action.shoot(weapon.name, target))
        return best[1] if best is not None else None

    def _flame(
        self, state: NecromundaState, m: ModelState, weapon: NecromundaWeapon
    ) -> Action | None:
        enemy = self._nearest_enemy(state, m)
        if enemy is None:
            return None
        size = self.engine.flame
        reach = size.length + self.engine.profiles[m.id].radius
        if math.dist(m.at, enemy.at) > reach:
            return None
        direction = round(heading(m.at, enemy.at), 6)
        try:
            origin = self.engine.template_origin(m, weapon, direction, ARC)
        except IllegalDeclaration:
            return None
        table = self.engine.table_at(state)
        under = template_hits(
            table, origin, direction, size.length, size.width, exclude=(BodyId(m.id),)
        )
        sides = {state.model(str(b)).side for b in under}
        if enemy.id not in {str(b) for b in under} or m.side in sides:
            return None
        return Action.flame(weapon.name, direction)

    def _nearest_enemy(self, state: GameState, m: ModelState) -> ModelState | None:
        enemies = [t for t in state.models if t.side != m.side and t.status != OUT_OF_ACTION]
        return min(enemies, key=lambda t: (math.dist(t.at, m.at), t.id), default=None)

    def _advance(self, state: NecromundaState, m: ModelState) -> Action | None:
        enemy = self._nearest_enemy(state, m)
        if enemy is None:
            return None
        toward = heading(m.at, enemy.at)
        allowance = self.engine.profiles[m.id].m
        room = math.dist(m.at, enemy.at) - KEEP_AWAY - 2 * self.engine.profiles[m.id].radius
        for length in (allowance, allowance / 2):
            step = min(length, room)
            if step < 0.25:
                return None
            for turn in ANGLES:
                angle = math.radians(toward + turn)
                end = (
                    round(m.at[0] + math.cos(angle) * step, 6),
                    round(m.at[1] + math.sin(angle) * step, 6),
                )
                if self.engine.path_blocked(state, m.id, (m.at, end)) is None:
                    return Action.move(end, facing=round(heading(end, enemy.at), 6))
        return None
