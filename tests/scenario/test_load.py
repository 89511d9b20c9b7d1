"""Scenario files: the bundled ones load; every kind of bad input is named exactly."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from game.errors import InputError
from game.scenario import SceneryKind, check_scenario, load_scenario
from tests.conftest import HEADER, SCENARIOS, field_line, infinity_known

Write = Callable[..., Path]


def problems_of(path: Path) -> list[str]:
    scenario, problems = check_scenario(path)
    assert scenario is None
    return [str(p) for p in problems]


@pytest.mark.parametrize("path", sorted(SCENARIOS.glob("*.toml")), ids=lambda p: p.name)
def test_bundled_scenarios_load(path: Path) -> None:
    scenario = load_scenario(path)
    assert len(scenario.scenery) >= 8
    assert len({p.kind for p in scenario.scenery}) >= 3
    for side in scenario.sides:
        count = sum(1 for m in scenario.models if m.side == side.id)
        assert 4 <= count <= 10, (side.id, count)


def test_each_ruleset_has_a_demo() -> None:
    rulesets = {load_scenario(p).ruleset.name for p in SCENARIOS.glob("*-demo.toml")}
    assert rulesets == {"infinity", "necromunda", "open-rebellion"}


def test_a_good_file_resolves_profiles_and_overrides(write_scenario: Write) -> None:
    path = write_scenario(
        """
        [[scenery]]
        id = "wall-1"
        kind = "wall"
        height = 1.0
        line = [[2, 12], [10, 12]]
        thickness = 0.5

        [[model]]
        id = "f1"
        side = "blue"
        profile = "fusilier"
        at = [5, 20]
        facing = -90

        [[model]]
        id = "proxy"
        side = "red"
        profile = "zhanshi"
        at = [5, 4]
        base = 40
        height = 1.6
        """
    )
    scenario = load_scenario(path)
    f1 = scenario.model("f1")
    assert f1.base_mm == 25 and f1.height == pytest.approx(1.0)
    assert f1.radius == pytest.approx(25 / 25.4 / 2)
    proxy = scenario.model("proxy")
    assert proxy.base_mm == 40 and proxy.height == pytest.approx(1.6)
    wall = scenario.piece("wall-1")
    assert wall.kind is SceneryKind.WALL
    xs = [x for x, _ in wall.footprint]
    ys = [y for _, y in wall.footprint]
    # The line is thickened to a 0.5" strip with flat ends.
    assert (min(xs), max(xs), min(ys), max(ys)) == pytest.approx((2, 10, 11.75, 12.25))


def test_malformed_toml_names_its_line(write_scenario: Write) -> None:
    path = write_scenario('[scenario]\nname = "x"\nruleset = \n', header=False)
    [message] = problems_of(path)
    assert message.startswith(f"{path}:3: TOML syntax: ")


def test_missing_file() -> None:
    _, problems = check_scenario(Path("no/such/table.toml"))
    assert [str(p) for p in problems] == ["no/such/table.toml: no such file"]


def test_missing_and_mistyped_fields(write_scenario: Write) -> None:
    path = write_scenario(
        """
        [[model]]
        id = "f1"
        side = "blue"
        at = [5, "north"]
        """
    )
    messages = problems_of(path)
    assert f"{path}:14: model 'f1': missing field 'profile'" in messages
    assert any(
        m.startswith(f"{path}:{field_line(path, 14, 'at')}: model 'f1': at: ") for m in messages
    )


def test_unknown_field_is_named(write_scenario: Write) -> None:
    path = write_scenario(
        """
        [[scenery]]
        id = "box"
        kind = "obstacle"
        hieght = 2
        polygon = [[1, 1], [2, 1], [2, 2]]
        """
    )
    assert problems_of(path) == [
        f"{path}:{field_line(path, 14, 'hieght')}: scenery 'box': unknown field 'hieght'"
    ]


def test_unknown_ruleset(write_scenario: Write) -> None:
    path = write_scenario(
        '[scenario]\nname = "x"\nruleset = "warhammer"\ntable = [24, 24]\n[[side]]\nid = "a"\n',
        header=False,
    )
    assert problems_of(path) == [
        f"{path}:{field_line(path, 1, 'ruleset')}: [scenario] ruleset: unknown ruleset 'warhammer' "
        "(known: infinity, necromunda, open-rebellion)"
    ]


def test_unknown_profile_weapon_and_side(write_scenario: Write) -> None:
    path = write_scenario(
        """
        [[model]]
        id = "f1"
        side = "green"
        profile = "fusileer"
        at = [5, 5]

        [[model]]
        id = "f2"
        side = "blue"
        profile = "fusilier"
        at = [9, 5]
        weapons = ["Lascannon"]
        """
    )
    assert problems_of(path) == [
        f"{path}:{field_line(path, 14, 'side')}: model 'f1': unknown side 'green' "
        "(the sides: blue, red)",
        f"{path}:{field_line(path, 14, 'profile')}: model 'f1': unknown profile 'fusileer' "
        "(did you mean 'fusilier'?)",
        f"{path}:{field_line(path, 20, 'weapons')}: model 'f2': unknown weapon 'Lascannon' "
        f"({infinity_known('weapon')})",
    ]


def test_a_scenario_profile_with_an_unknown_weapon(write_scenario: Write) -> None:
    path = write_scenario(
        """
        [[profile]]
        name = "sniper"
        cc = 12
        bs = 14
        ph = 10
        wip = 13
        arm = 1
        bts = 0
        wounds = 1
        silhouette = 2
        base = 25
        height = 1.0
        weapons = ["Viral Sniper Rifle"]
        """
    )
    line_weapons = field_line(path, 14, "weapons")
    assert problems_of(path) == [
        f"{path}:{line_weapons}: profile 'sniper': unknown weapon 'Viral Sniper Rifle' "
        f"({infinity_known('weapon')})"
    ]


def test_duplicate_ids(write_scenario: Write) -> None:
    path = write_scenario(
        """
        [[scenery]]
        id = "f1"
        kind = "area"
        polygon = [[1, 1], [3, 1], [3, 3]]

        [[model]]
        id = "f1"
        side = "blue"
        profile = "fusilier"
        at = [10, 10]
        """
    )
    assert problems_of(path) == [
        f"{path}:{field_line(path, 19, 'id')}: model 'f1': duplicate id (already a scenery piece)"
    ]


@pytest.mark.parametrize(
    ("polygon", "problem"),
    [
        ("[[1, 1], [5, 1]]", "polygon has 2 points, needs 3 or more"),
        ("[[1, 1], [5, 1], [9, 1]]", "polygon has zero area"),
        ("[[1, 1], [5, 5], [5, 1], [1, 5]]", "polygon crosses itself at (3, 3)"),
    ],
)
def test_bad_polygons(write_scenario: Write, polygon: str, problem: str) -> None:
    path = write_scenario(
        f"""
        [[scenery]]
        id = "bad"
        kind = "building"
        polygon = {polygon}
        """
    )
    assert problems_of(path) == [
        f"{path}:{field_line(path, 14, 'polygon')}: scenery 'bad': {problem}"
    ]


def test_model_off_the_table(write_scenario: Write) -> None:
    path = write_scenario(
        """
        [[model]]
        id = "f1"
        side = "blue"
        profile = "fusilier"
        at = [23.8, 12]
        """
    )
    line_at = field_line(path, 14, "at")
    assert problems_of(path) == [
        f"{path}:{line_at}: model 'f1': base at (23.8, 12) is off the 24x24 table"
    ]


def test_two_models_overlapping(write_scenario: Write) -> None:
    path = write_scenario(
        """
        [[model]]
        id = "f1"
        side = "blue"
        profile = "fusilier"
        at = [10, 10]

        [[model]]
        id = "f2"
        side = "blue"
        profile = "fusilier"
        at = [10.5, 10]

        [[model]]
        id = "f3"
        side = "blue"
        profile = "fusilier"
        at = [10, 10.985]

        [[model]]
        id = "f4"
        side = "blue"
        profile = "fusilier"
        at = [14, 10]

        [[model]]
        id = "f5"
        side = "blue"
        profile = "fusilier"
        at = [14, 10.981]
        """
    )
    # f2 overlaps f1 by about 0.48"; f3 touches f1 (0.984" between centres) and is fine;
    # f5 overlaps f4 by 0.003", which two decimals said as 'by 0.00"', no overlap at all
    f5_at = path.read_text(encoding="utf-8").splitlines().index("at = [14, 10.981]") + 1
    assert problems_of(path) == [
        f"{path}:{field_line(path, 20, 'at')}: model 'f2': base overlaps model 'f1' by 0.48\"",
        f"{path}:{f5_at}: model 'f5': base overlaps model 'f4' by under 0.01\"",
    ]


def test_model_standing_inside_a_building(write_scenario: Write) -> None:
    path = write_scenario(
        """
        [[scenery]]
        id = "hab"
        kind = "building"
        polygon = [[5, 5], [10, 5], [10, 10], [5, 10]]

        [[scenery]]
        id = "woods"
        kind = "area"
        polygon = [[12, 5], [18, 5], [18, 10], [12, 10]]

        [[model]]
        id = "f1"
        side = "blue"
        profile = "fusilier"
        at = [7, 7]

        [[model]]
        id = "f2"
        side = "blue"
        profile = "fusilier"
        at = [15, 7]

        [[model]]
        id = "f3"
        side = "blue"
        profile = "fusilier"
        at = [10.49, 12]
        """
    )
    assert problems_of(path) == [
        f"{path}:{field_line(path, 24, 'at')}: model 'f1': stands inside building 'hab'"
    ]


def test_every_problem_in_a_file_is_reported(write_scenario: Write) -> None:
    path = write_scenario(
        """
        [[scenery]]
        id = "a"
        kind = "tower"
        polygon = [[1, 1], [2, 1], [2, 2]]

        [[model]]
        id = "f1"
        side = "blue"
        profile = "fusilier"
        at = [50, 5]

        [[model]]
        id = "f2"
        side = "red"
        profile = "nobody"
        at = [5, 5]
        """
    )
    messages = problems_of(path)
    assert len(messages) == 3
    assert messages[0].startswith(
        f"{path}:{field_line(path, 14, 'kind')}: scenery 'a': unknown kind 'tower' (one of building"
    )
    line_at = field_line(path, 19, "at")
    assert messages[1] == f"{path}:{line_at}: model 'f1': base at (50, 5) is off the 24x24 table"
    line_profile = field_line(path, 25, "profile")
    assert messages[2] == (
        f"{path}:{line_profile}: model 'f2': unknown profile 'nobody' ({infinity_known('profile')})"
    )


def test_a_bad_field_hides_neither_its_entrys_other_problems_nor_the_files(
    write_scenario: Write,
) -> None:
    """Tester's finding 4, session 6: a bad field (at = [1e400, 5], thickness = -1) hid
    the entry's other problems and every check against the rest of the file (an unknown
    side and profile, a duplicate id, a one-point line): validate reports every problem
    of a file (README)."""
    path = write_scenario(
        """
        [[scenery]]
        id = "b1"
        kind = "building"
        polygon = [[1, 1], [3, 1], [3, 3]]

        [[scenery]]
        id = "b1"
        kind = "wall"
        thickness = -1
        line = [[5, 5]]

        [[model]]
        id = "m1"
        side = "green"
        profile = "nosuch"
        at = [1e400, 5]

        [[model]]
        id = "m1"
        side = "blue"
        profile = "fusilier"
        at = [10, 10]
        """
    )
    second = 19  # the second [[scenery]]'s header line

    def at(line: int, key: str) -> str:
        return f"{path}:{field_line(path, line, key)}"

    assert problems_of(path) == [
        f"{at(second, 'id')}: scenery 'b1': duplicate id (already a scenery piece)",
        f"{at(second, 'thickness')}: scenery 'b1': thickness must be more than 0, got -1",
        f"{at(second, 'line')}: scenery 'b1': line: needs at least 2 points",
        f"{at(25, 'side')}: model 'm1': unknown side 'green' (the sides: blue, red)",
        f"{at(25, 'profile')}: model 'm1': unknown profile 'nosuch' ({infinity_known('profile')})",
        f"{at(25, 'at')}: model 'm1': at x must be a finite number, got inf",
        f"{at(31, 'id')}: model 'm1': duplicate id (already a model)",
    ]


def test_a_one_point_line_names_the_line_it_is_written_on(write_scenario: Write) -> None:
    """Session 6: "a line needs at least 2 points" named the [[scenery]] header, not the
    line where `line = ...` is written."""
    path = write_scenario(
        """
        [[scenery]]
        id = "w"
        kind = "wall"
        height = 2
        line = [[5, 5]]
        """
    )
    lines = path.read_text().splitlines()
    header = next(i for i, text in enumerate(lines, 1) if text == "[[scenery]]")
    assert problems_of(path) == [
        f"{path}:{field_line(path, header, 'line')}: scenery 'w': line: needs at least 2 points"
    ]


def test_a_shape_check_naming_the_bad_field_is_not_said(write_scenario: Write) -> None:
    """A line of text is one problem, not also 'needs exactly one of polygon or line'."""
    path = write_scenario(
        """
        [[scenery]]
        id = "w"
        kind = "wall"
        line = "here"
        """
    )
    [message] = problems_of(path)
    assert message.endswith("scenery 'w': line: expected a number, not 'here'")


def test_load_scenario_raises_input_error(write_scenario: Write) -> None:
    path = write_scenario("[[model]]\nid = 3\n")
    with pytest.raises(InputError) as err:
        load_scenario(path)
    assert all(p.file == str(path) for p in err.value.problems)


@pytest.mark.parametrize("system", ["infinity", "necromunda", "open-rebellion"])
def test_every_systems_rule_values_load(system: str) -> None:
    from game.scenario.rule_values import load_rule_values

    values = load_rule_values(system)
    assert all(isinstance(v, float) for v in values.values())
    if system == "open-rebellion":
        assert values["skill_dice_green"] < values["skill_dice_veteran"]


def test_a_problem_points_at_its_fields_own_line(write_scenario: Write) -> None:
    """The line named is the field's (`at`, `height`...), not its entry's header; a value
    that runs over lines, a quoted key and a comment do not confuse it; a problem with
    no one field (a missing one) names the header."""
    path = write_scenario(
        """
        [[scenery]]
        id = "box"
        kind = "building"
        polygon = [
            [1, 1], [3, 1],  # a comment [with a bracket
            [3, 3], [1, 3],
        ]
        "height" = -2

        [[model]]
        id = "f1"
        side = "blue"
        profile = "fusilier"
        facing = 0
        at = [4, "far"]

        [[model]]
        id = "f2"
        side = "blue"
        """
    )
    text = path.read_text(encoding="utf-8").splitlines()
    height = text.index('"height" = -2') + 1
    at = text.index('at = [4, "far"]') + 1
    second = [n for n, line in enumerate(text, start=1) if line == "[[model]]"][1]
    messages = problems_of(path)
    assert f"{path}:{height}: scenery 'box': height must be more than 0, got -2" in messages
    assert any(m.startswith(f"{path}:{at}: model 'f1': at: ") for m in messages), messages
    assert f"{path}:{second}: model 'f2': missing field 'profile'" in messages


def test_field_lines_of_an_inline_entry_fall_back_to_nothing_wrong(write_scenario: Write) -> None:
    """Entries written inline (`model = [{...}]`) have no header or field lines: the
    problem is still one line, without a line number (nothing is made up)."""
    inline = 'model = [{ id = "f1", side = "blue", profile = "fusilier", at = [99, 99] }]\n'
    path = write_scenario(inline + HEADER, header=False)  # top-level keys before tables
    assert problems_of(path) == [f"{path}: model 'f1': base at (99, 99) is off the 24x24 table"]
