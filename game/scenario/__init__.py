"""Scenario files: TOML tables <-> validated models, and the bundled rule data."""

from game.scenario.load import check_scenario, load_scenario, rule_data
from game.scenario.model import SceneryKind
from game.scenario.scenario import Piece, PlacedModel, Scenario

__all__ = [
    "Piece",
    "PlacedModel",
    "Scenario",
    "SceneryKind",
    "check_scenario",
    "load_scenario",
    "rule_data",
]
