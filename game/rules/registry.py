"""The rule systems, found by name: `find_ruleset("necromunda")`.

A `Ruleset` entry carries everything a system brings. What sits in the layers above
`rules/` (its engine, automatic players, window adapter, `shoot` handler, `odds`
command, event sentences) is named as a "module:attribute" part and imported only
when asked for, so nothing here imports the sequencer, the AI or pygame. A system
defined elsewhere (a test's, a house variant) registers itself with `register` and
may give its parts as the objects themselves. Everything outside a system's own
modules asks this registry and never names a system.

A system's data models (pydantic) and states are named the same way and imported on
first use, so that finding a ruleset, or a command that needs none (`skirmish odds`,
`--help`), does not pay for every system's rule data."""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from game.rules import data

# The bundled table `skirmish play` opens when it is given none.
DEMO_SCENARIO = "infinity-demo"

# A part of a rule system: a "module:attribute" to import when first asked for, the
# object itself, or None where the system does not have it.
Part = str | Callable[..., Any] | None

# The parts a ruleset may carry, and what each is called with:
PARTS = {
    "engine": "(setup) -> Engine: its turn structure on the sequencer",
    "cover": "(table, sight, rule_values) -> (Cover, reason): the sequencer's cover reading",
    "ruling": "(scenario, table, attacker, target) -> LofRuling: the ruling people read",
    "left_out": "(models, attacker, target) -> {id: why}: the models a shot from "
    "attacker at target is judged without, as the engine's sight has them, each with why "
    "in words (none: only those in an off_table state)",
    "refused": "(target, state, cover) -> str | None: why the engine refuses a shot "
    "line of fire allows at `target` in its scenario `state` with the sequencer's "
    "`cover`, in the engine's words (none: it refuses none such)",
    "play": "(engine) -> PlayRules: the window's adapter (render layer)",
    "shoot": "the `skirmish shoot` handler (commands layer)",
    "odds": "a typer command: `skirmish odds NAME`",
    "sentences": "(event as its JSON form) -> str | None: an event in the system's own words",
    "validate": "(scenario) -> [(place, problem)]: what a checked scenario has that the "
    "system cannot play (place as 'model 'id'' or 'side 'id'')",
    "advise": "(scenario) -> [(place, problem)]: what validate refuses in a checked "
    "scenario though a game plays through it (as it did before the check was made)",
}


@dataclass(frozen=True, slots=True, init=False)
class Ruleset:
    """What the table, the sequencer and the commands need to know of a rule system.

    `arc_degrees` is the shooter's vision arc centred on its facing (360 = all round);
    `models_block` says whether other models block sight lines.
    `profile_model` and `weapon_model` validate its rule data; `states` are the
    states a scenario may give a model at the start (each of these three given as
    the object or as a "module:attribute" imported on first use); `out_of_fight` the
    states in which a model counts as lost. `parts` maps a part name (see `PARTS`)
    to where it is; `players` maps an automatic player's name to its class (called
    with the engine). `rules_version` is the version of its rules a save records: raised
    by one whenever a correction of the rules makes the same seed and declarations give
    other events, so that a save made before it is known to go differently now (1: the
    rules of session 8, 2026-11-27; Infinity's 2: session 13's, 2026-11-28, the
    Lieutenant spending its Lieutenant Order first; Infinity's 3: session 14's, the
    Active Turn ending when no Order left can be spent; Open Rebellion's 2: session
    14's, a piece hiding part of a model covering it only within the cover reach; a
    save without one was made before saves recorded it). `turn_word` is what the system
    calls a turn ("round"), `model_word` what it calls a model ("fighter").
    `scores_objectives`: a scenario's objectives score their points at the turn limit
    (elsewhere an objective is drawn by its name alone). `not_offered`: states a
    scenario may give (a file that has one is read as before) that the editor does not
    offer, no game starting in them. `off_table`: states in which a model is off the
    table (no shot from it or at it: a line-of-fire ruling says so)."""

    name: str
    title: str
    arc_degrees: float
    models_block: bool
    assets: str  # folder under assets/
    data_parts: tuple[Part | tuple[str, ...], ...]  # profile model, weapon model, states
    out_of_fight: tuple[str, ...]  # states that count a model as lost
    parts: Mapping[str, Part]
    players: Mapping[str, Part]
    rules_version: int
    turn_word: str
    model_word: str
    scores_objectives: bool
    not_offered: tuple[str, ...]
    off_table: tuple[str, ...]

    def __init__(
        self,
        name: str,
        title: str,
        arc_degrees: float,
        models_block: bool,
        assets: str,
        profile_model: type[data.Profile] | str,
        weapon_model: type[data.Weapon] | str,
        states: tuple[str, ...] | str,
        out_of_fight: tuple[str, ...] = (),
        parts: Mapping[str, Part] | None = None,
        players: Mapping[str, Part] | None = None,
        rules_version: int = 1,
        turn_word: str = "turn",
        model_word: str = "model",
        scores_objectives: bool = False,
        not_offered: tuple[str, ...] = (),
        off_table: tuple[str, ...] = (),
    ) -> None:
        given = {
            "name": name,
            "title": title,
            "arc_degrees": arc_degrees,
            "models_block": models_block,
            "assets": assets,
            "data_parts": (profile_model, weapon_model, states),
            "out_of_fight": out_of_fight,
            "parts": dict(parts or {}),
            "players": dict(players or {}),
            "rules_version": rules_version,
            "turn_word": turn_word,
            "model_word": model_word,
            "scores_objectives": scores_objectives,
            "not_offered": not_offered,
            "off_table": off_table,
        }
        for key, value in given.items():
            object.__setattr__(self, key, value)  # frozen: set once, here

    @property
    def profile_model(self) -> type[data.Profile]:
        """The pydantic model of a profile in its rule data."""
        return resolve(self.data_parts[0])  # type: ignore[no-any-return]

    @property
    def weapon_model(self) -> type[data.Weapon]:
        """The pydantic model of a weapon in its rule data."""
        return resolve(self.data_parts[1])  # type: ignore[no-any-return]

    @property
    def states(self) -> tuple[str, ...]:
        """The states a scenario may give a model at the start."""
        return tuple(resolve(self.data_parts[2]))

    @property
    def offered_states(self) -> tuple[str, ...]:
        """The states the editor offers a model (T): those a game may start in."""
        return tuple(s for s in self.states if s not in self.not_offered)

    def unscored(self, objectives: int) -> str:
        """Where this system scores no objectives and a table has some, the sentence that
        says so (validate, the editor, the play panel); "" otherwise."""
        if self.scores_objectives or not objectives:
            return ""
        one = objectives == 1
        them = "it is" if one else "they are"
        decides = "decides" if one else "decide"
        drawn = f"{them} drawn on the table and {decides} nothing"
        return f"{self.title} scores no objectives here: {drawn}"

    def load(self, part: str) -> Any:
        """The part called `part` (imported now if named by a string), or None."""
        if part not in PARTS:
            raise KeyError(f"no ruleset part {part!r} (one of {', '.join(PARTS)})")
        return resolve(self.parts.get(part))

    def player(self, policy: str) -> Any:
        """The automatic player class called `policy`, or None when it has none."""
        return resolve(self.players.get(policy))

    def player_takes(self, policy: str, option: str) -> bool:
        """Whether the automatic player called `policy` takes the option `option` (a
        temperament, a thinking time): its class's constructor accepts the keyword."""
        return takes(self.player(policy), option)

    @property
    def plays(self) -> bool:
        """True when the sequencer can play whole games of it."""
        return self.parts.get("engine") is not None


def takes(cls: Any, option: str) -> bool:
    """True when the player class's constructor accepts the keyword `option`."""
    try:
        parameters = inspect.signature(cls).parameters
    except (TypeError, ValueError):
        return False
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values()):
        return True
    found = parameters.get(option)
    return found is not None and found.kind in (
        inspect.Parameter.KEYWORD_ONLY,
        inspect.Parameter.POSITIONAL_OR_KEYWORD,
    )


def resolve(part: Part | tuple[str, ...]) -> Any:
    """A part as an object: "package.module:attribute" is imported on first use."""
    if part is None or not isinstance(part, str):
        return part
    module, _, attribute = part.partition(":")
    loaded = importlib.import_module(module)
    return getattr(loaded, attribute) if attribute else loaded


_RULESETS: dict[str, Ruleset] = {}
# Read-only view of the registered systems, in registration order.
RULESETS: Mapping[str, Ruleset] = MappingProxyType(_RULESETS)


def register(ruleset: Ruleset) -> Ruleset:
    """Add (or replace) a rule system under its name; returns it."""
    _RULESETS[ruleset.name] = ruleset
    return ruleset


def unregister(name: str) -> None:
    """Remove a rule system (tests that register one of their own clean up with it)."""
    _RULESETS.pop(name, None)


class UnknownRuleset(KeyError):
    """No rule system has that name."""


def find_ruleset(name: str) -> Ruleset:
    """The rule system called `name` (one of `RULESETS`)."""
    try:
        return _RULESETS[name]
    except KeyError:
        known = ", ".join(_RULESETS)
        raise UnknownRuleset(f"unknown ruleset {name!r} (known: {known})") from None


def ruleset_of(engine: Any) -> Ruleset | None:
    """The rule system whose engine `engine` is (by its setup), or None."""
    setup = getattr(engine, "setup", None)
    rs = getattr(setup, "ruleset", None)
    return rs if isinstance(rs, Ruleset) else None


# Infinity: LoF needs the target at least partly in the front 180 degrees;
# models, friend or foe, block LoF (FACTS 3.5).
register(
    Ruleset(
        "infinity",
        "Infinity (N5 / CodeOne)",
        180.0,
        True,
        "infinity",
        "game.rules.infinity.data:InfinityProfile",
        "game.rules.infinity.data:InfinityWeapon",
        "game.rules.infinity.data:STATES",
        ("unconscious", "dead"),
        parts={
            "engine": "game.sequencer.infinity:InfinityEngine",
            "cover": "game.rules.infinity.cover:sequencer_cover",
            "ruling": "game.rules.infinity.cover:scenario_ruling",
            "play": "game.render.infinity_play:InfinityRules",
            "shoot": "game.commands._shoot_infinity",
            "odds": "game.commands._odds_infinity:command",
            "sentences": "game.sequencer.infinity_sentences:sentence",
            "advise": "game.rules.infinity.data:scenario_advice",
        },
        players={
            "simple": "game.ai.infinity:SimpleInfinityPlayer",
            "careful": "game.ai.infinity:CarefulInfinityPlayer",
            "search": "game.ai.infinity_search:SearchInfinityPlayer",
        },
        scores_objectives=True,  # the turn limit: objective points decide (README)
        # "dead" is a trooper out of the game: no table starts with one (fix13e); a file
        # that gives it is still read and played as before
        not_offered=("dead",),
        # a trooper Dead is removed from the table (FACTS 3.3): the engine's sight leaves
        # it out (an Unconscious one stays and blocks, as the engine has it)
        off_table=("dead",),
        # 2: the Lieutenant spends its Lieutenant Order first (session 13); 3: the turn
        # ends when no Order left can be spent (session 14)
        rules_version=3,
    )
)
# Necromunda: vision arc 90 degrees to the front (FACTS 2.3); fighters block LoF
# except prone ones, which the sequencer removes from the blockers.
register(
    Ruleset(
        "necromunda",
        "Necromunda (pre-2023)",
        90.0,
        True,
        "necromunda",
        "game.rules.necromunda.data:NecromundaProfile",
        "game.rules.necromunda.data:NecromundaWeapon",
        "game.rules.necromunda.data:STATES",
        ("seriously-injured", "out-of-action"),
        parts={
            "engine": "game.sequencer.necromunda:NecromundaEngine",
            "cover": "game.rules.necromunda.cover:sequencer_cover",
            "ruling": "game.rules.necromunda.cover:scenario_ruling",
            # prone fighters and friends touching the firer hide nothing (FACTS 2.3)
            "left_out": "game.rules.necromunda.sight:scenario_left_out",
            "refused": "game.rules.necromunda.sight:scenario_refused",
            "play": "game.render.necromunda_play:NecromundaRules",
            "shoot": "game.commands._shoot_necromunda",
            "odds": "game.commands._odds_necromunda:command",
            "sentences": "game.sequencer.necromunda_sentences:sentence",
            "advise": "game.rules.necromunda.data:scenario_problems",
        },
        players={
            "simple": "game.ai.necromunda:SimpleNecromundaPlayer",
            "careful": "game.ai.necromunda:CarefulNecromundaPlayer",
            "search": "game.ai.necromunda_search:SearchNecromundaPlayer",
        },
        turn_word="round",
        model_word="fighter",
        # "out-of-action" is a fighter out of the fight: no table starts with one
        # (fix13e); a file that gives it is still read and played as before
        not_offered=("out-of-action",),
        # a fighter Out of Action is off the table: no body in the game's sight
        off_table=("out-of-action",),
        # 2: Blaze and Knockback are played (FACTS 2.9; session 14); 3: a fighter taken
        # Out of Action before it activated is not Ready next round (session 15)
        rules_version=3,
    )
)
# Open Rebellion: no facing; squads see all round. Models do not block.
register(
    Ruleset(
        "open-rebellion",
        "Open Rebellion",
        360.0,
        False,
        "open-rebellion",
        "game.rules.open_rebellion.data:OpenRebellionProfile",
        "game.rules.open_rebellion.data:OpenRebellionWeapon",
        "game.rules.open_rebellion.data:STATES",
        ("dead",),
        parts={
            "engine": "game.sequencer.open_rebellion:OpenRebellionEngine",
            "cover": "game.rules.open_rebellion.cover:sequencer_cover",
            "ruling": "game.rules.open_rebellion.cover:scenario_ruling",
            "play": "game.render.open_rebellion_play:OpenRebellionRules",
            "shoot": "game.commands._shoot_open_rebellion",
            "odds": "game.commands._odds_open_rebellion:command",
            "sentences": "game.sequencer.open_rebellion_sentences:sentence",
            "validate": "game.rules.open_rebellion.data:scenario_problems",
        },
        players={
            "simple": "game.ai.open_rebellion:SimpleOpenRebellionPlayer",
            "careful": "game.ai.open_rebellion:CarefulOpenRebellionPlayer",
            "search": "game.ai.open_rebellion_search:SearchOpenRebellionPlayer",
        },
        # "activated" is a unit done for the turn: a game starts before anyone acts
        # (tester13's finding 18); a file that gives it still sits the unit out of turn 1
        not_offered=("activated",),
        # a dead model is removed: the engine's sight and a squad's cover leave it out
        off_table=("dead",),
        rules_version=2,
    )
)
