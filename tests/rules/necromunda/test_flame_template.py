"""The flame template's size is data (assets/necromunda/templates.toml)."""

from __future__ import annotations

import pytest

from game.errors import InputError
from game.rules.necromunda.assets import load_flame_template, parse_flame_template
from game.rules.necromunda.dice import FlameTemplate


def test_the_bundled_template_is_about_eight_inches_long() -> None:
    flame = load_flame_template()
    assert flame == FlameTemplate(8.0, 2.5, unconfirmed=True)


@pytest.mark.parametrize(
    ("data", "place"),
    [
        ({}, "[flame]"),
        ({"flame": {"length": 8, "wide_width": -1}}, "flame.wide_width"),
        ({"flame": {"length": "long", "wide_width": 2}}, "flame.length"),
        ({"flame": {"length": 2, "wide_width": 3}}, "flame.wide_width"),
        ({"flame": {"length": 8, "wide_width": 2, "unconfirmed": "yes"}}, "flame.unconfirmed"),
    ],
)
def test_a_bad_template_names_the_place(data: dict[str, object], place: str) -> None:
    with pytest.raises(InputError) as err:
        parse_flame_template(data, "t.toml")
    assert err.value.problems[0].place == place
