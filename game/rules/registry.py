"""The rule systems, found by name: `find_ruleset("necromunda")`."""

from __future__ import annotations

from dataclasses import dataclass

from game.rules import data
from game.rules.infinity import data as infinity_data
from game.rules.necromunda import data as necromunda_data
from game.rules.open_rebellion import data as open_rebellion_data


@dataclass(frozen=True, slots=True)
class Ruleset:
    """What the table and the sequencer need to know of a rule system.

    `arc_degrees` is the shooter's vision arc centred on its facing (360 = all round);
    `models_block` says whether other models block sight lines.
    `profile_model` and `weapon_model` validate its rule data; `states` are the
    states a scenario may give a model at the start.
    """

    name: str
    title: str
    arc_degrees: float
    models_block: bool
    assets: str  # folder under assets/
    profile_model: type[data.Profile]
    weapon_model: type[data.Weapon]
    states: tuple[str, ...]


RULESETS: dict[str, Ruleset] = {
    # Infinity: LoF needs the target at least partly in the front 180 degrees;
    # models, friend or foe, block LoF (FACTS 3.5).
    "infinity": Ruleset(
        "infinity",
        "Infinity (N5 / CodeOne)",
        180.0,
        True,
        "infinity",
        infinity_data.InfinityProfile,
        infinity_data.InfinityWeapon,
        infinity_data.STATES,
    ),
    # Necromunda: vision arc 90 degrees to the front (FACTS 2.3); fighters block LoF
    # except prone ones, which the sequencer removes from the blockers.
    "necromunda": Ruleset(
        "necromunda",
        "Necromunda (pre-2023)",
        90.0,
        True,
        "necromunda",
        necromunda_data.NecromundaProfile,
        necromunda_data.NecromundaWeapon,
        necromunda_data.STATES,
    ),
    # Open Rebellion: no facing; squads see all round. Models do not block.
    "open-rebellion": Ruleset(
        "open-rebellion",
        "Open Rebellion",
        360.0,
        False,
        "open-rebellion",
        open_rebellion_data.OpenRebellionProfile,
        open_rebellion_data.OpenRebellionWeapon,
        open_rebellion_data.STATES,
    ),
}


class UnknownRuleset(KeyError):
    """No rule system has that name."""


def find_ruleset(name: str) -> Ruleset:
    """The rule system called `name` (one of `RULESETS`)."""
    try:
        return RULESETS[name]
    except KeyError:
        known = ", ".join(RULESETS)
        raise UnknownRuleset(f"unknown ruleset {name!r} (known: {known})") from None
