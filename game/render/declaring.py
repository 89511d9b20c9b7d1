"""Declaring at the table: the actions that draft what a model does (a move path, a
shot with its dice split between targets, a blast aimed at a point, a template laid
in a direction, a reaction at a point of the mover's route) and hand it to the game.

What the player means is an `Intent`; the rule system's adapter (`PlayRules`) names
it as the declaration the game awaits now, or refuses it with the reason.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from game.errors import IllegalDeclaration
from game.render.actions import Action, after_the_leader, spread
from game.render.following import Following
from game.render.play_rules import AimKind, Intent, IntentKind, Prompt
from game.render.pointing import Impossible, Said
from game.render.state import AppState, Draft, Point
from game.scenario.names import told_names
from game.sequencer.sentences import listed, told, who
from game.words import over


@dataclass(frozen=True, slots=True)
class Declare(Action):
    """Hand a declaration to the game (the sequencer's Game). An illegal one is explained
    with the rules' reason; without a game attached the table says so."""

    declaration: object

    def perform(self, app: Following) -> None:
        app.declare(self.declaration)


@dataclass(frozen=True, slots=True)
class Propose(Action):
    """What the player means (`Intent`), named by the rule system's adapter as the
    declaration the game awaits now, then declared."""

    intent: Intent

    def perform(self, app: Following) -> None:
        state = app.state
        group = _nominated(state, self.intent.model)
        declaration = _declaration(app, self.intent, group)
        first = app.require_turn().first_step(app.game, declaration)
        app.declare(declaration)  # refused: the options and the group stay as they were
        if first:
            _then(app, self.intent, state.draft, first)
            return
        let_go = state.group if state.group and not group else ()
        app.state = replace(app.state, toggled=frozenset(), group=(), group_of=None)
        if let_go and state.group_of is not None and self.intent.model is not None:
            said = (
                f"{who(state.group_of)}'s group activation with {listed(let_go)} is let go: "
                f"{who(self.intent.model)} went first"
            )
            message = app.state.message
            app.state = replace(app.state, message=f"{message}; {said}" if message else said)


def _then(app: Following, intent: Intent, draft: Draft | None, first: str) -> None:
    """After a step the rules take first (`PlayRules.first_step`, said by `first`): what
    `intent` asked for, declared if the game takes it now; if not, the draft is kept
    and the panel says why, in one line."""
    try:
        then = _declaration(app, intent, ())
        refused = app.game.refusal(then) if app.game is not None else ""
    except Impossible as why:
        if app.state.prompt is None or not app.state.human or app.state.prompt.over:
            return  # the activation ended the turn or the game: the log says how
        refused = str(why)
    if not refused:
        app.declare(then, with_last=True)  # one key: Ctrl+Z takes back both
        return
    if draft is not None and app.out_of_fight(draft.model):
        draft = None
    # the refusal named as the dice log names them (as `Following.perform` names one raised)
    said = f"{first}: {told(refused, told_names(app.scenario))}"
    app.state = replace(app.state, draft=draft, message=said, refusal=said)
    app.refresh_preview()


def _nominated(state: AppState, model: str | None) -> tuple[str, ...]:
    """The group nominated (G) to activate with `model`: none unless it leads it."""
    return state.group if state.group_of == model else ()


def _declaration(app: Following, intent: Intent, group: tuple[str, ...]) -> object:
    """The declaration `intent` means now, with the options switched on and `group`, the
    group nominated with it (`_nominated`) (Impossible: the rules' refusal)."""
    rules = app.require_turn()
    state = app.state
    offered = {key for key, _ in rules.toggles(app.game)}
    try:
        return rules.declaration(
            app.game, replace(intent, toggled=state.toggled & offered, group=group)
        )
    except IllegalDeclaration as why:
        raise Impossible(str(why)) from None


def _shot_refused(app: Following, draft: Draft) -> str:
    """Why the game would refuse the shot `draft` lays out, were Enter pressed now ("": it
    would take it): a target out of sight is refused as it is clicked, not at Enter."""
    intent = Intent(IntentKind.SHOOT, draft.model, weapon=draft.weapon, targets=draft.targets,
                    at=app.state.aro_at, blind=draft.blind)  # fmt: skip
    return _refused(app, intent)


def _move_refused(app: Following, draft: Draft) -> str:
    """Why the game would refuse the move `draft` lays out with the key that would take it
    (Enter; past the allowance, the rules' further move, `PlayRules.reach`) ("": it would
    take it): a path through a wall is said as its point is placed, not at Enter."""
    further = draft.reach is not None and draft.allowance is not None
    past = further and draft.length > (draft.allowance or 0.0) + 1e-6
    kind = IntentKind.TAKE_COVER if past else IntentKind.MOVE
    return _refused(app, Intent(kind, draft.model, path=draft.points))


def _refused(app: Following, intent: Intent) -> str:
    """Why the game would refuse what `intent` means now ("": it would take it)."""
    try:
        declaration = _declaration(app, intent, _nominated(app.state, intent.model))
    except Impossible as why:
        return str(why)
    return app.game.refusal(declaration) if app.game is not None else ""


@dataclass(frozen=True, slots=True)
class NominateGroup(Action):
    """The rules' group key (`PlayRules.group_key`): the selected leader takes the model it may
    nominate nearest the pointer into its group activation, or lets it go when it is in
    already; the group goes with the leader's first declaration."""

    def perform(self, app: Following) -> None:
        rules = app.require_turn()
        leader = app.state.selected
        if leader is None:
            raise Impossible("select a Leader or Champion about to activate first")
        try:
            candidates, most = rules.group_candidates(app.game, leader)
        except IllegalDeclaration as why:
            raise Impossible(str(why)) from None
        group = app.state.group if app.state.group_of == leader else ()
        group = tuple(g for g in group if g in candidates)
        if not candidates:
            raise Impossible(f"no Ready friend of {who(leader)} is near enough to join it")
        pointer = app.state.pointer
        if pointer is not None and app.in_table(pointer):
            under = app.model_at(pointer)
            if under is not None and under.id != leader and under.id not in candidates:
                refused = rules.why_not_join(app.game, leader, under.id)
                raise Impossible(refused or f"{who(under.id)} may not join {who(leader)}")
            at = app.state.view.to_table(*pointer)
            pick = min(candidates, key=lambda c: math.dist(app.scenario.model(c).at, at))
        else:  # the nearest not in the group yet
            pick = next((c for c in candidates if c not in group), candidates[0])
        if pick in group:
            group = tuple(g for g in group if g != pick)
            said = f"{who(pick)} leaves {who(leader)}'s group activation"
        elif len(group) >= most:
            fighters = "fighter" if most == 1 else "fighters"
            raise Impossible(
                f"{who(leader)} takes {most} {fighters} in a group activation: G by one of "
                f"{listed(group)} lets it go"
            )
        else:
            group = (*group, pick)
            said = f"{who(pick)} joins {who(leader)}'s group activation ({len(group)} of {most})"
        said += f": {after_the_leader(group)}" if group else ": no group"
        app.state = replace(app.state, group=group, group_of=leader, message=said)


@dataclass(frozen=True, slots=True)
class ToggleOption(Action):
    """A rule system's option key: switch it on (or off) for the next declaration."""

    key: str

    def perform(self, app: Following) -> None:
        rules = app.require_turn()
        offered = dict(rules.toggles(app.game))
        if self.key not in offered:
            raise Impossible(f"{self.key.upper()} does nothing now")
        toggled = app.state.toggled ^ {self.key}
        state = "on" if self.key in toggled else "off"
        app.state = replace(
            app.state, toggled=toggled,
            message=f"{self.key.upper()} ({offered[self.key]}): {state} for the next declaration",
        )  # fmt: skip


def _actor(app: Following, prompt: Prompt) -> str:
    """The model a declaration is for: the Order's trooper for its second skill,
    otherwise the selected one (Impossible: one the rules let declare nothing now)."""
    if prompt.kind == "second" and prompt.mover is not None:
        return prompt.mover
    if app.state.selected is None:
        if prompt.reacting:
            raise Impossible(f"pick a trooper to react: {listed(prompt.models)}")
        raise Impossible("select a model first")
    if prompt.reacting and app.state.selected not in prompt.models:
        raise Impossible(f"pick a trooper to react: {listed(prompt.models)}")
    refused = app.require_turn().why_not_start(app.game, app.state.selected)
    if refused:
        raise Impossible(refused)
    return app.state.selected


@dataclass(frozen=True, slots=True)
class Quick(Action):
    """A declaration with nothing to lay out: dodge, idle, end the turn."""

    kind: IntentKind

    def perform(self, app: Following) -> None:
        rules = app.require_turn()
        prompt = rules.prompt(app.game)
        end = self.kind is IntentKind.END
        model = app.state.selected if end else _actor(app, prompt)
        at = app.state.aro_at if prompt.reacting else None
        weapon = None
        if model is not None and self.kind is IntentKind.RELOAD:
            weapons = app.scenario.model(model).weapons
            weapon = weapons[app.state.weapon % len(weapons)] if weapons else None
        draft = app.state.draft
        path: tuple[Point, ...] = ()
        if self.kind is IntentKind.TAKE_COVER and draft is not None and draft.kind == "move":
            path = draft.points  # Take Cover along the path laid out (half the Move)
        targets: tuple[tuple[str, int], ...] = ()
        point: Point | None = None
        pointer = app.state.pointer
        if self.kind is IntentKind.COUP_DE_GRACE and pointer is not None and app.in_table(pointer):
            # the model pointed at, or the one the rules take nearest the pointer
            under = app.model_at(pointer)
            targets = ((under.id, 1),) if under is not None and under.id != model else ()
            point = app.state.view.to_table(*pointer)
        intent = Intent(self.kind, model, path=path, weapon=weapon, at=at, targets=targets,
                        point=point)  # fmt: skip
        Propose(intent).perform(app)


@dataclass(frozen=True, slots=True)
class StartMove(Action):
    """M: lay out a move path with clicks, against the movement the model has."""

    def perform(self, app: Following) -> None:
        rules = app.require_turn()
        prompt = rules.prompt(app.game)
        if not prompt.lays_out:  # a step that takes no move: what it takes
            raise Impossible(prompt.enter)
        if prompt.reacting:
            # the reaction's keys as its banner words them
            raise Impossible(f"an ARO cannot be a Move here: {', '.join(prompt.answers)}")
        model = _actor(app, prompt)
        refused = rules.why_not_move(app.game, model)
        if refused:
            raise Impossible(refused)
        allowance = rules.allowance(app.game, model)
        reach = rules.reach(app.game, model) if allowance is not None else None
        start = rules.path_start(app.game, model)
        verb, hint = rules.move_words(app.game, model)
        keys = rules.move_keys(app.game, model)
        draft = Draft("move", model, start, allowance=allowance, reach=reach,
                      one_point=rules.one_vector, verb=verb, hint=hint, keys=keys)  # fmt: skip
        app.state = replace(app.state, draft=draft, selected=model, message="")


@dataclass(frozen=True, slots=True)
class StartShoot(Action):
    """S: shoot with the chosen weapon; click targets (an ARO's target is the mover), a
    point for a blast, or lay a template with the pointer and a click. B (`blind`):
    the same, fired blind."""

    blind: bool = False

    def perform(self, app: Following) -> None:
        rules = app.require_turn()
        prompt = rules.prompt(app.game)
        if not prompt.lays_out:  # a step that takes no shot: what it takes
            raise Impossible(prompt.enter)
        model = _actor(app, prompt)
        weapons = app.scenario.model(model).weapons
        if not weapons:
            raise Impossible(f"{who(model)} has no weapons")
        chosen = app.state.weapon % len(weapons)
        mover = prompt.mover if prompt.reacting else None
        refused = rules.why_not_shoot(app.game, model, weapons[chosen], blind=self.blind)
        if refused and mover is None:  # an ARO's S finds a weapon that may (`_reaching`)
            raise Impossible(refused)
        drafts = [self._draft(app, model, weapon, mover) for weapon in weapons]
        chosen, said = _reaching(app, drafts, chosen) if mover is not None else (chosen, "")
        app.state = replace(app.state, draft=drafts[chosen], selected=model, weapon=chosen,
                            message=said, preview=None)  # fmt: skip
        app.refresh_preview()

    def _draft(self, app: Following, model: str, weapon: str, mover: str | None) -> Draft:
        """The shot `model` lays out with `weapon` (an ARO's at the mover)."""
        rules = app.require_turn()
        burst = rules.burst(app.game, model, weapon)
        targets = ((mover, burst),) if mover is not None else ()
        aim = rules.aim_kind(app.game, model, weapon).value
        return Draft("shoot", model, app.scenario.model(model).at, weapon=weapon,
                     burst=burst, targets=targets, aim=aim, blind=self.blind,
                     unit=rules.firing_unit(app.game, model))  # fmt: skip


def _reaching(app: Following, drafts: Sequence[Draft], chosen: int) -> tuple[int, str]:
    """An ARO's shot at the mover: the chosen weapon's, or, where the game would refuse
    it (a template that does not reach, a target out of range) and another weapon's it
    would take, the first such, said with the reason and its number key ("Light
    Flamethrower's template (8\") does not reach Zhanshi 1: S takes the Combi Rifle (2)";
    tester13b finding 8: S tried the Flamethrower with no hint that 2 took the rifle)."""
    refused = _shot_refused(app, drafts[chosen])
    if not refused:
        return chosen, ""
    for index, draft in enumerate(drafts):
        if index != chosen and not _shot_refused(app, draft):
            why = told(refused, told_names(app.scenario))
            return index, f"{why}: S takes the {draft.weapon} ({index + 1})"
    return chosen, ""


@dataclass(frozen=True, slots=True)
class AddWaypoint(Action):
    pos: Point

    def perform(self, app: Following) -> None:
        draft = app.state.draft
        if draft is None or draft.kind != "move":
            return
        point = app.state.view.to_table(*self.pos)
        if draft.one_point:  # the move's one end point, moved
            longer = replace(draft, points=(point,))
        else:
            longer = replace(draft, points=(*draft.points, point))
        most = draft.most
        if most is not None and longer.length > most + 1e-6:
            if draft.one_point:  # counted straight from the model
                raise Impossible(too_far(longer.length, most, "away", "at most"))
            away = math.dist((draft.start, *draft.points)[-1], point)
            start = "from the last point" if draft.points else "away"
            raise Impossible(too_far(away, most - draft.length, start, "of movement left"))
        app.state = replace(app.state, draft=longer, message="")
        refused = _move_refused(app, longer)
        if refused:  # the point stays, said at once: Enter would say the same
            raise Impossible(refused)


def too_far(away: float, limit: float, start: str, limit_words: str) -> str:
    """A move's point refused, said alike in every system: how far the click was and how
    far the move may go: 'too far: 11.6" away, 9" at most', 'too far: 3.0" from the last
    point, 2.4" of movement left' (to the hundredth where a tenth would read as the limit
    itself: 'too far: 4.04" away, 4" of movement left', and past the limit by less than
    a hundredth 'too far: just over 4" away, ...': `over`)."""
    if round(away, 1) > round(limit, 1):
        said = f"{limit:g}" if limit == round(limit) else f"{limit:.1f}"
        return f'too far: {away:.1f}" {start}, {said}" {limit_words}'
    said = f"{limit:g}" if limit == round(limit) else f"{limit:.2f}"
    return f'too far: {over(away, float(said))} {start}, {said}" {limit_words}'


@dataclass(frozen=True, slots=True)
class DropWaypoint(Action):
    def perform(self, app: Following) -> None:
        draft = app.state.draft
        if draft is None or draft.kind != "move" or not draft.points:
            return
        app.state = replace(app.state, draft=replace(draft, points=draft.points[:-1]))


@dataclass(frozen=True, slots=True)
class AddTarget(Action):
    """Aim at another enemy: it gets a die from the target with the most."""

    model_id: str

    def perform(self, app: Following) -> None:
        draft = app.state.draft
        if draft is None or draft.kind != "shoot":
            return
        target = app.scenario.model(self.model_id)
        if target.side == app.scenario.model(draft.model).side:
            # the shooter, or a friend: the rules' refusal of a shot at it alone
            alone = replace(draft, targets=((target.id, max(1, draft.burst)),), extras=())
            refused = _shot_refused(app, alone)
            if refused:
                raise Impossible(refused)
        names = [t for t, _ in draft.targets]
        if target.id in names:
            app.state = replace(app.state, draft=replace(draft, focus=names.index(target.id)))
            return
        if app.state.prompt is not None and app.state.prompt.reacting:
            raise Impossible(f"an ARO shoots at {who(app.state.prompt.mover)}")
        if _extra_hit(app, draft, target.id):
            return
        targets: tuple[tuple[str, int], ...]
        if not draft.targets or draft.burst <= 1:
            targets = ((target.id, max(1, draft.burst)),)
        else:
            richest = max(range(len(draft.targets)), key=lambda i: draft.targets[i][1])
            dice = draft.targets[richest][1]
            if dice < 2:
                raise Impossible(f"all {draft.burst} dice are assigned: - frees one")
            fewer = ((t, n - 1 if i == richest else n) for i, (t, n) in enumerate(draft.targets))
            targets = (*fewer, (target.id, 1))
        new = replace(draft, targets=targets, focus=len(targets) - 1, point=None, extras=())
        refused = _shot_refused(app, new)
        if refused:  # the draft as it was
            raise Impossible(refused)
        app.state = replace(app.state, draft=new, message="")
        app.refresh_preview()
        if draft.weapon is not None and len(targets) == 1:
            rules = app.require_turn()
            count, fit = rules.extra_hits(app.game, draft.model, draft.weapon, target.id,
                                          blind=draft.blind)  # fmt: skip
            if count:
                app.state = replace(app.state, message=rules.extra_prompt(count, target.id, fit))


def _extra_hit(app: Following, draft: Draft, model: str) -> bool:
    """A click on another enemy once a shot that places extra hits (Rapid Fire) has its
    target: the model takes (or, clicked again, gives back) a hit after the first, or the
    click is refused with the reason. False when the shot places no extra hits."""
    if draft.weapon is None or len(draft.targets) != 1:
        return False
    rules = app.require_turn()
    target = draft.targets[0][0]
    count, fit = rules.extra_hits(app.game, draft.model, draft.weapon, target, blind=draft.blind)
    if not count:
        return False
    if model in draft.extras:
        extras = tuple(m for m in draft.extras if m != model)
    else:
        why = rules.why_not_extra(app.game, draft.model, draft.weapon, target, model,
                                  blind=draft.blind)  # fmt: skip
        if why:
            raise Impossible(why)
        if len(draft.extras) >= count:
            raise Impossible(f"all {count} extra hits are placed: click one again to free it")
        extras = (*draft.extras, model)
    app.state = replace(app.state, draft=replace(draft, extras=extras))
    placed = f"extra hits on {listed(extras)}" if extras else "no extra hits placed"
    app.state = replace(app.state, message=f"{placed}; " + rules.extra_prompt(count, target, fit))
    return True


def _aim(app: Following, draft: Draft, *, undo: Draft) -> None:
    """Aim the drafted blast or template; if the rules refuse where it lands, put the
    draft back as `undo` and say why."""
    app.state = replace(app.state, draft=draft)
    app.refresh_preview()
    preview = app.state.preview
    if preview is not None and preview.refused:
        app.state = replace(app.state, draft=undo)
        raise Said(preview.refused)
    app.state = replace(app.state, message="")


@dataclass(frozen=True, slots=True)
class AimPoint(Action):
    """A click on the table with a blast drafted: aim the marker at that point."""

    pos: Point

    def perform(self, app: Following) -> None:
        draft = app.state.draft
        if draft is None or draft.kind != "shoot" or draft.aim != AimKind.BLAST:
            return
        point = app.state.view.to_table(*self.pos)
        _aim(app, replace(draft, point=point, targets=()), undo=draft)


@dataclass(frozen=True, slots=True)
class LayTemplate(Action):
    """A click with a template drafted: lay it toward the pointer, or say why not."""

    pos: Point

    def perform(self, app: Following) -> None:
        draft = app.state.draft
        if draft is None or draft.kind != "shoot" or draft.aim != AimKind.TEMPLATE:
            return
        point = app.state.view.to_table(*self.pos)
        start = app.scenario.model(draft.model).at
        if math.dist(point, start) < 1e-6:
            raise Impossible("point the template away from the base")
        direction = math.degrees(math.atan2(point[1] - start[1], point[0] - start[0]))
        _aim(app, replace(draft, direction=direction), undo=replace(draft, direction=None))


@dataclass(frozen=True, slots=True)
class ShiftDice(Action):
    """+ gives the focused target a die from another; - gives one of its dice away."""

    step: int

    def perform(self, app: Following) -> None:
        draft = app.state.draft
        if draft is None or draft.kind != "shoot" or len(draft.targets) < 2:
            raise Impossible("+/- move dice between two or more targets")
        dice = [n for _, n in draft.targets]
        focus = draft.focus
        others = [i for i in range(len(dice)) if i != focus]
        if self.step > 0:
            donor = max(others, key=lambda i: dice[i])
            if dice[donor] < 2:
                raise Impossible("every other target is down to one die")
            dice[donor] -= 1
            dice[focus] += 1
        else:
            if dice[focus] < 2:
                raise Impossible(f"{who(draft.targets[focus][0])} is down to one die")
            taker = min(others, key=lambda i: dice[i])
            dice[focus] -= 1
            dice[taker] += 1
        targets = tuple((t, n) for (t, _), n in zip(draft.targets, dice, strict=True))
        app.state = replace(app.state, draft=replace(draft, targets=targets), message="")


@dataclass(frozen=True, slots=True)
class Confirm(Action):
    """Enter: declare the draft."""

    def perform(self, app: Following) -> None:
        draft = app.state.draft
        if draft is None:
            rules = app.require_turn()  # a game over says what is left to do
            raise Impossible(f"nothing to confirm: {rules.prompt(app.game).enter}")
        if draft.kind == "move":
            if not draft.points:
                raise Impossible("click where to move first")
            intent = Intent(IntentKind.MOVE, draft.model, path=draft.points)
        elif draft.aim == AimKind.TEMPLATE:
            if draft.direction is None:
                raise Impossible("point the template and click to lay it first")
            intent = Intent(IntentKind.SHOOT, draft.model, weapon=draft.weapon,
                            direction=draft.direction, blind=draft.blind)  # fmt: skip
        elif draft.aim == AimKind.BLAST and draft.point is not None and not draft.targets:
            intent = Intent(IntentKind.SHOOT, draft.model, weapon=draft.weapon,
                            point=draft.point, blind=draft.blind)  # fmt: skip
        else:
            if not draft.targets and draft.unit is not None:  # fired unit at unit
                raise Impossible("click a model of an enemy unit to fire at first")
            if not draft.targets:
                what = "an enemy or a point" if draft.aim == AimKind.BLAST else "an enemy"
                raise Impossible(f"click {what} to shoot at first")
            at = app.state.aro_at
            intent = Intent(IntentKind.SHOOT, draft.model, weapon=draft.weapon,
                            targets=draft.targets, at=at, blind=draft.blind,
                            extra=draft.extras)  # fmt: skip
        try:
            Propose(intent).perform(app)
        except Impossible as why:
            _drop_refused(app, draft, str(why))
            raise


def _drop_refused(app: Following, draft: Draft, why: str) -> None:
    """A shot refused for a target it names ("has no line of fire to zhanshi-2"): that
    target leaves the draft, its dice going to the others, so the pending line no longer
    shows a shot that cannot be made."""
    refused = {t for t, _ in draft.targets if re.search(rf"(?<![\w-]){re.escape(t)}(?![\w-])", why)}
    if not refused or app.state.draft is not draft:
        return
    left = tuple(t for t in draft.targets if t[0] not in refused)
    kept = replace(draft, targets=spread(left, draft.burst), focus=0, extras=())
    app.state = replace(app.state, draft=kept)


@dataclass(frozen=True, slots=True)
class CancelDraft(Action):
    def perform(self, app: Following) -> None:
        app.state = replace(app.state, draft=None, message="", preview=None)


@dataclass(frozen=True, slots=True)
class TakeBackPoint(Action):
    """Esc in an ARO with nothing laid out, the reacting trooper selected: the last step
    only, the point of the route picked (the reaction is ruled where the rules take it
    again) or the message; the trooper stays selected (tester13b finding 8: Esc dropped
    it, to be clicked again)."""

    def perform(self, app: Following) -> None:
        app.state = replace(app.state, aro_at=None, message="")
        app.refresh_hover()


def escape_action(state: AppState) -> Action | None:
    """What Esc takes back in play: the draft laid out; in an ARO, the route point picked
    (`TakeBackPoint`); else None: the selection goes."""
    if state.draft is not None:
        return CancelDraft()
    prompt = state.prompt
    if prompt is not None and prompt.reacting and state.selected in prompt.models:
        return TakeBackPoint()
    return None


@dataclass(frozen=True, slots=True)
class PickRoutePoint(Action):
    """A click on the mover's route: the point a reaction is taken at."""

    at: Point

    def perform(self, app: Following) -> None:
        app.state = replace(app.state, aro_at=self.at, message="")
        app.refresh_hover()  # the shot is ruled from there now
        place = app.state.place  # the point in the rule system's words
        if place is not None:
            said = f"ARO with {who(place.model)} {place.where}"
        else:
            said = f'ARO at ({self.at[0]:.1f}", {self.at[1]:.1f}")'
        app.state = replace(app.state, message=said)
