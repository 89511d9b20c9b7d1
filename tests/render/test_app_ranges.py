"""Range rings and panel summaries read each rule system's weapon columns."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.render.ranges import Ring, profile_summary, range_rings, weapon_summary
from game.scenario import Scenario, load_scenario
from tests.conftest import SCENARIOS


def demo(name: str) -> Scenario:
    return load_scenario(SCENARIOS / f"{name}-demo.toml")


def test_infinity_rings_where_the_mod_changes() -> None:
    weapons = demo("infinity").weapons
    # Combi Rifle bands 8:+3 16:+3 24:-3 32:-3 40:-6 48:-6
    assert range_rings(weapons["Combi Rifle"]) == [
        Ring(16.0, '+3 to 16"'),
        Ring(32.0, '-3 to 32"'),
        Ring(48.0, '-6 to 48"'),
    ]
    assert [r.label for r in range_rings(weapons["Pistol"])] == [
        '+3 to 8"',
        '0 to 16"',
        '-3 to 24"',
    ]


def test_necromunda_short_and_long_with_grenades_from_strength() -> None:
    scenario = demo("necromunda")
    leader = scenario.profiles["leader"]
    assert range_rings(scenario.weapons["Autopistol"], leader) == [
        Ring(4.0, 'short to 4", +1'),
        Ring(12.0, 'long to 12"'),
    ]
    # Grenades: long range = S x 3 (FACTS, Necromunda grenades); the leader has S 3.
    krak = scenario.weapons["Krak grenade"]
    assert range_rings(krak, leader) == [Ring(9.0, 'long to 9", -1')]
    assert range_rings(krak) == []  # no fighter, no strength: no ring rather than a guess


def test_open_rebellion_a_ring_per_band() -> None:
    rings = range_rings(demo("open-rebellion").weapons["Rifle"])
    assert rings[:3] == [
        Ring(8.0, 'past 8": +1 defence die'),
        Ring(16.0, 'past 16": +2 defence dice'),
        Ring(24.0, 'past 24": +3 defence dice'),
    ]


@pytest.mark.parametrize("path", sorted(SCENARIOS.glob("*-demo.toml")), ids=lambda p: p.name)
def test_every_demo_weapon_and_profile_summarises(path: Path) -> None:
    scenario = load_scenario(path)
    for model in scenario.models:
        assert profile_summary(scenario.profiles[model.profile])
        for name in model.weapons:
            assert weapon_summary(scenario.weapons[name])


def test_infinity_profile_summary_shows_move_pair() -> None:
    text = profile_summary(demo("infinity").profiles["fusilier"])
    assert text.startswith("MOV 4-4  CC 13  BS 12")


def test_weapon_summaries_read_as_each_rule_system_lists_a_profile() -> None:
    """Necromunda's armoury columns (FACTS 2.2: Rng S | Rng L | Acc S | Acc L | Str | AP |
    D | Am | Traits); Infinity's bands with their MODs, DAM, B, AMMO and the save; Open
    Rebellion's ROF and range band (seed 001). No column names from the data files."""
    necromunda = demo("necromunda").weapons
    assert weapon_summary(necromunda["Autopistol"]) == (
        'Rng 4"/12", Acc +1/-, Str 3, D 1, Am 4+, Rapid Fire (1), Sidearm'
    )
    assert weapon_summary(necromunda["Krak grenade"]).startswith("Rng L S x3, Acc -/-1, Str 6")
    assert weapon_summary(demo("infinity").weapons["HMG"]) == (
        'to 8" -3, to 16" 0, to 32" +3, to 48" -3, to 96" -6; DAM 15; B 4; AMMO N; SAVE ARM'
    )
    assert weapon_summary(demo("open-rebellion").weapons["HMG"]) == (
        'ROF 1, range band 12", 3 support dice in position'
    )
