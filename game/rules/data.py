"""What every rule system's profiles and weapons share, as validated data.

Each system subclasses these in its own `data.py`; assets/<system>/*.toml and a
scenario's own [[profile]] and [[weapon]] tables are read into them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from pydantic import BaseModel, ConfigDict, Field, StrictBool

MM_PER_INCH = 25.4


class Entry(BaseModel):
    """A named piece of rule data. `unconfirmed` marks values no source confirmed."""

    # Every number must be finite: NaN and infinite values are refused where written.
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)

    name: str = Field(min_length=1)
    unconfirmed: StrictBool = False
    note: str | None = None


class Profile(Entry):
    """A model's profile: its base (mm), silhouette height (inches) and weapons.
    `SCENARIO_FIELDS`: the optional scenario fields only some systems read ([scenario]
    `saves`, a model's `lieutenant` and `unit`) that this system reads; a scenario of another
    system that gives one is refused (game.scenario.load). `called`: its name as people
    read it, where its id made readable is not (`sentences.profile_called`). `WRITTEN`:
    how the panel writes its statistics (`ranges.profile_summary`)."""

    SCENARIO_FIELDS: ClassVar[frozenset[str]] = frozenset()
    # How the rule system writes a statistic (field name -> a format of its value:
    # "WS {}+"); a statistic it does not name is written "NAME value"
    WRITTEN: ClassVar[Mapping[str, str]] = {}

    # "Knight of Justice", a unit's proper name ("knight-of-justice" made readable is
    # "Knight of justice")
    called: str | None = Field(default=None, min_length=1, max_length=64)
    base: float = Field(gt=0, le=200, description="base diameter in mm")
    height: float = Field(gt=0, le=20, description="silhouette height in inches")
    weapons: tuple[str, ...] = ()

    @property
    def radius(self) -> float:
        """Base radius in inches."""
        return self.base / MM_PER_INCH / 2

    def placement_problem(self, *, lieutenant: bool) -> str | None:
        """Why a model with this profile cannot be placed as a scenario gives it (None:
        it can). A system's profile overrides this for its own restrictions."""
        return None


class Weapon(Entry):
    """A weapon profile; each system adds its own columns."""
