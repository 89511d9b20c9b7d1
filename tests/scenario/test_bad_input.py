"""Bad scenario files answered in one line each, never a traceback, and never passed
on to fail later: what validates is what the engines, the window and the pictures can
read (non-finite and huge numbers, colours, weapon trait values, what a rule system
cannot play, deep nesting, binary files, folders, endless files and the size limits)."""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from game.cli import main
from game.scenario import check_scenario
from game.scenario.model import MAX_MODELS, MAX_POINTS, MAX_SCENERY_POINTS
from tests.conftest import SCENARIOS, field_line, infinity_known

Write = Callable[..., Path]
MODEL = """
[[model]]
id = "f1"
side = "blue"
profile = "fusilier"
at = {at}
facing = {facing}
"""
WEAPON = '[[weapon]]\nname = "Combi Rifle"\nbands = {bands}\nburst = 3\nps = 7'


def problems(path: Path) -> list[str]:
    scenario, found = check_scenario(path)
    assert scenario is None and found
    lines = [str(p) for p in found]
    assert all("\n" not in line and line.startswith(f"{path}") for line in lines), lines
    return lines


def validate_exits_2_with(path: Path, capsys: pytest.CaptureFixture[str], *needles: str) -> str:
    """`skirmish validate` exits 2 printing one line per problem, naming the file."""
    assert main(["validate", str(path)]) == 2
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err and captured.out == ""
    lines = captured.err.strip().splitlines()
    assert lines and all(line.startswith(f"skirmish: {str(path)[:200]}") for line in lines), lines
    for needle in needles:
        assert any(needle in line for line in lines), (needle, lines)
    return captured.err


@pytest.mark.parametrize(
    ("at", "facing", "needle"),
    [
        ("[nan, 20]", "0", "at x must be a finite number, got nan"),
        ("[4, inf]", "0", "at y must be a finite number, got inf"),
        ("[4, 20]", "-inf", "facing must be a finite number, got -inf"),
        ("[1e308, 20]", "0", "at x must be at most 10000, got 1e+308"),
        ("[4, 20]", "1e308", "facing must be at most 3600, got 1e+308"),
    ],
)
def test_non_finite_and_huge_numbers_in_a_model(
    at: str, facing: str, needle: str, write_scenario: Write, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_scenario(MODEL.format(at=at, facing=facing))
    assert any(needle in line for line in problems(path))
    field = needle.split()[0]  # the line of the field at fault, not the header's
    validate_exits_2_with(
        path, capsys, f"{path}:{field_line(path, 14, field)}: model 'f1': {needle}"
    )


@pytest.mark.parametrize(
    ("body", "needle"),
    [
        ('[[scenery]]\nid = "b"\nkind = "building"\nheight = nan\n'
         "polygon = [[1, 1], [2, 1], [2, 2]]",
         "scenery 'b': height must be a finite number, got nan"),
        ('[[scenery]]\nid = "b"\nkind = "building"\n'
         "polygon = [[1, 1], [1e308, 1], [2, 2]]",
         "scenery 'b': polygon point 2 x must be at most 10000"),
        ('[[scenery]]\nid = "w"\nkind = "wall"\nthickness = inf\nline = [[1, 1], [2, 1]]',
         "scenery 'w': thickness must be a finite number, got inf"),
        ('[[objective]]\nid = "o"\nat = [nan, 1]',
         "objective 'o': at x must be a finite number, got nan"),
        ('[[profile]]\nname = "fusilier"\nbase = nan\nheight = 1\ncc = 1\nbs = 1\nph = 1\n'
         "wip = 1\narm = 1\nbts = 1\nwounds = 1\nsilhouette = 2",
         "profile 'fusilier': base must be a finite number, got nan"),
    ],
)  # fmt: skip
def test_non_finite_numbers_anywhere(body: str, needle: str, write_scenario: Write) -> None:
    assert any(needle in line for line in problems(write_scenario(body)))


def test_non_finite_table(write_scenario: Write) -> None:
    path = write_scenario(
        '[scenario]\nname = "x"\nruleset = "infinity"\ntable = [nan, 24]\n[[side]]\nid = "blue"\n',
        header=False,
    )
    assert problems(path) == [f"{path}:4: [scenario]: table width must be a finite number, got nan"]


@pytest.mark.parametrize(
    ("colour", "ok"), [("[999, -5, 12]", False), ("[0, 128, 255]", True), ("[1, 2]", False)]
)
def test_side_colour_is_three_channels_of_0_to_255(
    colour: str, ok: bool, write_scenario: Write
) -> None:
    path = write_scenario(
        f'[[side]]\nid = "green"\ncolour = {colour}\n' + MODEL.format(at="[4, 20]", facing=0)
        + MODEL.format(at="[8, 20]", facing=0).replace('"f1"', '"g1"').replace('"blue"', '"green"')
    )  # fmt: skip
    scenario, found = check_scenario(path)
    assert (scenario is not None) == ok, found
    if not ok:
        assert any(p.place == "side 'green'" and "colour" in p.problem for p in found), found
        # the side is still there: its model is not also "on an unknown side"
        assert not any("unknown side" in p.problem for p in found), found


def test_deeply_nested_values(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "deep.toml"
    path.write_text("[scenario]\nname = " + "[" * 100_000 + "]" * 100_000 + "\n")
    validate_exits_2_with(path, capsys, "TOML syntax: values nested too deeply")


def test_binary_file_folder_and_endless_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    binary = tmp_path / "table.toml"
    binary.write_bytes(b'[scenario]\nname = "\xff\xfe"\n')
    validate_exits_2_with(binary, capsys, f"{binary}:2: not UTF-8 text (byte 20)")
    folder = tmp_path / "folder.toml"
    folder.mkdir()
    validate_exits_2_with(folder, capsys, f"{folder}: is a folder, not a TOML file")
    big = tmp_path / "big.toml"
    big.write_text("# padding\n" * 500_000)
    validate_exits_2_with(big, capsys, f"{big}: larger than 4 MB: not a TOML file")
    if os.path.exists("/dev/zero"):
        validate_exits_2_with(Path("/dev/zero"), capsys, "/dev/zero: larger than 4 MB")


def test_points_per_piece_and_models_have_limits(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], write_scenario: Write
) -> None:
    """The reproductions of issue 18: a 10,000-point wall line, 5,000 models."""
    points = ", ".join(f"[{1 + 20 * i / 10_000:.4f}, {2 + (i % 2) * 0.01}]" for i in range(10_000))
    wall = write_scenario(f'[[scenery]]\nid = "w"\nkind = "wall"\nline = [{points}]\n')
    validate_exits_2_with(
        wall, capsys, f"scenery 'w': line may have at most {MAX_POINTS} items, got 10000"
    )
    crowd = "".join(
        MODEL.format(at=f"[{1 + i % 20}, {1 + i // 20 % 20}]", facing=0).replace('"f1"', f'"m{i}"')
        for i in range(5_000)
    )
    many = write_scenario(crowd, name="crowd.toml")
    err = validate_exits_2_with(
        many, capsys, f"[[model]]: 5000 entries; a scenario may have at most {MAX_MODELS}"
    )
    # and red, which none of them is on, has no models (tester15 finding 12)
    assert len(err.strip().splitlines()) == 2 and "side 'red': has no models" in err


def _necromunda_with_weapon(tmp_path: Path, traits: str) -> Path:
    text = (SCENARIOS / "necromunda-demo.toml").read_text(encoding="utf-8")
    text += (
        '\n[[weapon]]\nname = "Frag grenade"\nlong_strength_multiple = 3\nstrength = 3\n'
        f"damage = 1\nammo = 4\ntraits = {traits}\n"
    )
    path = tmp_path / "necromunda.toml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("traits", "needle"),
    [
        ('["Blast (abc)", "Grenade"]', "Blast (abc): give the diameter in inches"),
        ('["Blast (0)"]', "Blast (0): give the diameter in inches"),
        ('["Rapid Fire (999999)"]', "Rapid Fire (999999): give a whole number of 1 to 6"),
        ('["Rapid Fire (x)"]', "Rapid Fire (x): give a whole number"),
    ],
)
def test_weapon_trait_values_must_be_playable(traits: str, needle: str, tmp_path: Path) -> None:
    lines = problems(_necromunda_with_weapon(tmp_path, traits))
    assert any("weapon 'Frag grenade'" in line and needle in line for line in lines), lines


def test_weapon_trait_values_that_play(tmp_path: Path) -> None:
    path = _necromunda_with_weapon(tmp_path, '["Blast (5\\")", "Rapid Fire (2)"]')
    scenario, found = check_scenario(path)
    assert found == [] and scenario is not None
    weapon = scenario.weapons["Frag grenade"]
    assert weapon.blast_diameter == 5.0 and weapon.rapid_fire == 2  # type: ignore[attr-defined]


def _open_rebellion(tmp_path: Path, extra: str) -> Path:
    text = (SCENARIOS / "open-rebellion-demo.toml").read_text(encoding="utf-8") + extra
    path = tmp_path / "open-rebellion.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_open_rebellion_is_played_by_two_sides(tmp_path: Path) -> None:
    # FACTS 1: "each player picks one unit and both units make a skill test".
    path = _open_rebellion(tmp_path, '\n[[side]]\nid = "third"\nplayer = "ai"\n')
    [line] = problems(path)
    assert line.endswith("side 'third': Open Rebellion is played by two sides, not 3")
    number = len(path.read_text().splitlines()) - 2
    assert line.startswith(f"{path}:{number}: ")


def test_open_rebellion_quality_needs_skill_dice(tmp_path: Path) -> None:
    path = _open_rebellion(
        tmp_path,
        '\n[[profile]]\nname = "rifleman"\nquality = "legendary"\nbase = 20\nheight = 0.7\n'
        'weapons = ["Rifle"]\n',
    )
    lines = problems(path)
    assert lines and all(
        "has quality 'legendary' (known: elite, green, regular, veteran)" in line for line in lines
    )
    assert all(": model '" in line for line in lines)


def test_a_units_models_are_all_of_one_side(tmp_path: Path) -> None:
    """Tester7's finding 13: a government model in the rebels' squad validated, and its
    squad fired on its enemies with it."""
    path = _open_rebellion(
        tmp_path,
        '\n[[model]]\nid = "turncoat"\nside = "government"\nprofile = "rifleman"\n'
        'at = [10, 25]\nunit = "rebel-squad-a"\n',
    )
    [line] = problems(path)
    number = len(path.read_text().splitlines())  # the `unit = ...` line, the last
    assert line == (
        f"{path}:{number}: model 'turncoat': unit 'rebel-squad-a' is of side 'rebels' "
        "(model 'reb-a1'), this model of 'government': a unit's models are all of one side"
    )


def test_an_open_rebellion_units_models_share_one_state(tmp_path: Path) -> None:
    """Tester7's finding 13: one model given state = "activated" made its whole unit sit
    out turn 1 (the unit activates, takes position or hides as one). Tester7b's C: the
    odd one out is blamed, at its state line, even when it is the unit's first model (the
    three that agree were blamed, at their headers)."""
    demo = (SCENARIOS / "open-rebellion-demo.toml").read_text(encoding="utf-8")
    path = tmp_path / "open-rebellion.toml"
    for odd in ("reb-a1", "reb-a2"):
        one = demo.replace(f'id = "{odd}"\n', f'id = "{odd}"\nstate = "activated"\n', 1)
        path.write_text(one, encoding="utf-8")
        [line] = problems(path)
        number = one.splitlines().index('state = "activated"') + 1
        assert line == (
            f"{path}:{number}: model '{odd}': state 'activated', but 3 of the 4 models of "
            "unit 'rebel-squad-a' are 'ready': a unit's models share one state"
        )
    # split evenly, the models written later are the odd ones out
    two = demo
    for later in ("reb-a3", "reb-a4"):
        two = two.replace(f'id = "{later}"\n', f'id = "{later}"\nstate = "hidden"\n', 1)
    path.write_text(two, encoding="utf-8")
    assert [line.split(": ")[1] for line in problems(path)] == ["model 'reb-a3'", "model 'reb-a4'"]
    assert "but 2 of the 4 models of unit 'rebel-squad-a' are 'ready'" in problems(path)[0]
    # the whole unit activated is a position a scenario may start from
    unit = 'unit = "rebel-squad-a"\n'
    path.write_text(demo.replace(unit, unit + 'state = "activated"\n'), encoding="utf-8")
    assert check_scenario(path)[1] == []


def test_a_side_with_no_models_cannot_be_played(
    write_scenario: Write, capsys: pytest.CaptureFixture[str]
) -> None:
    """Tester7's finding 11: a side added in the editor and saved validated "ok", and
    playtest then refused it at "[scenario] ruleset". The table is still a valid one to
    edit (the editor and import may write it); validate, scenarios and playtest say the
    side, at its line."""
    path = write_scenario(
        """
        [[model]]
        id = "b1"
        side = "blue"
        profile = "fusilier"
        at = [5, 5]
        """
    )
    red = path.read_text().splitlines().index('id = "red"')  # the line of [[side]] red
    line = f"skirmish: {path}:{red}: side 'red': has no models: a game needs one a side"
    scenario, found = check_scenario(path)
    assert scenario is not None and found == []  # it opens in the editor
    assert main(["validate", str(path)]) == 2
    assert capsys.readouterr().err.splitlines() == [line]
    assert main(["playtest", str(path), "--games", "1"]) == 2
    assert capsys.readouterr().err.splitlines() == [line]


def test_another_systems_field_is_refused(tmp_path: Path) -> None:
    """Tester7's finding 12: `lieutenant = true` on a Necromunda model and `saves =
    "codeone"` in its [scenario] validated "ok" and changed nothing; each is refused
    at its line, naming the system that reads it."""
    text = (SCENARIOS / "necromunda-demo.toml").read_text(encoding="utf-8")
    text = text.replace('ruleset = "necromunda"\n', 'ruleset = "necromunda"\nsaves = "codeone"\n')
    first = text.index("[[model]]")
    end = text.index("\n\n", first)
    text = text[:end] + "\nlieutenant = true" + text[end:]
    path = tmp_path / "necromunda.toml"
    path.write_text(text, encoding="utf-8")
    lines = text.splitlines()
    model = lines[text[:first].count("\n") + 1].split('"')[1]
    reads = "Necromunda (pre-2023) does not read it (a field of Infinity (N5 / CodeOne))"
    saves, lieutenant = lines.index('saves = "codeone"') + 1, lines.index("lieutenant = true") + 1
    assert problems(path) == [
        f"{path}:{saves}: [scenario]: saves: {reads}",
        f"{path}:{lieutenant}: model {model!r}: lieutenant: {reads}",
    ]


def test_an_unknown_name_says_the_nearest_and_an_unknown_table_its_line(
    write_scenario: Write,
) -> None:
    """Tester7's finding 17: "unknown profile 'gangr'" listed no choices and no "did you
    mean" (ruleset, state and temperament do), and "[sidee]: unknown table" had no line."""
    path = write_scenario(
        """
        [[model]]
        id = "b1"
        side = "blue"
        profile = "fusiler"
        at = [5, 5]

        [[sidee]]
        id = "green"
        """
    )
    lines = path.read_text().splitlines()
    profile, table = lines.index('profile = "fusiler"') + 1, lines.index("[[sidee]]") + 1
    assert problems(path) == [
        f"{path}:{profile}: model 'b1': unknown profile 'fusiler' (did you mean 'fusilier'?)",
        f"{path}:{table}: [sidee]: unknown table (did you mean 'side'?)",
    ]


def test_all_scenery_together_has_a_limit(write_scenario: Write) -> None:
    """Many pieces each under the limit on points still add up to one."""
    sides = MAX_POINTS - 1
    pieces = []
    for n in range(MAX_SCENERY_POINTS // sides + 1):
        x, y = 1 + n % 20, 1 + n // 20
        pts = ", ".join(
            f"[{x + 0.4 * math.cos(2 * math.pi * i / sides):.5f}, "
            f"{y + 0.4 * math.sin(2 * math.pi * i / sides):.5f}]"
            for i in range(sides)
        )
        pieces.append(f'[[scenery]]\nid = "p{n}"\nkind = "area"\npolygon = [{pts}]\n')
    lines = problems(write_scenario("\n".join(pieces)))
    last = MAX_SCENERY_POINTS // sides
    assert lines == [f"{lines[0].split(':')[0]}:{14 + last * 5 + 3}: scenery 'p{last}': "
                     f"the scenery has over {MAX_SCENERY_POINTS} points in all"]  # fmt: skip


def test_odds_dice_file_that_cannot_be_used(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`skirmish odds necromunda --dice FILE` on a binary file, a folder, deep nesting."""
    binary = tmp_path / "dice.toml"
    binary.write_bytes(b"[scatter]\nfaces = \x80\n")
    deep = tmp_path / "deep.toml"
    deep.write_text("x = " + "[" * 100_000 + "]" * 100_000 + "\n")
    cases = [
        (binary, f"{binary}:2: not UTF-8 text (byte 19): not a dice file"),
        (tmp_path, f"{tmp_path}: is a folder, not a dice file"),
        (deep, f"{deep}: TOML syntax: values nested too deeply"),
    ]
    for path, line in cases:
        args = ["odds", "necromunda", "--bs", "3", "--strength", "3", "--toughness", "3"]
        assert main([*args, "--dice", str(path)]) == 2
        captured = capsys.readouterr()
        assert captured.err == f"skirmish: {line}\n" and captured.out == ""


@pytest.mark.parametrize("at", ["[8]", "[]", '"x"', "[8, 20, 3]", '[8, "y"]'])
def test_a_malformed_at_is_one_problem_on_its_own_line(
    at: str, write_scenario: Write, capsys: pytest.CaptureFixture[str]
) -> None:
    """Whatever is wrong with the shape of `at` (too few or too many numbers, not a list, an
    item not a number), one line at `at`'s own line says what it should be, not "missing
    field" on the entry's header nor pydantic's wording about tuples."""
    path = write_scenario(MODEL.format(at=at, facing=0))
    line = field_line(path, 14, "at")
    expected = f"{path}:{line}: model 'f1': at: expected [x, y], two numbers, not "
    found = problems(path)
    assert len(found) == 1 and found[0].startswith(expected), found
    validate_exits_2_with(path, capsys, expected)


@pytest.mark.parametrize(
    ("body", "needle"),
    [
        ('[[side]]\nid = "green"\ntemperament = "clever"',
         "side 'green': unknown temperament 'clever' (one of cautious, balanced, aggressive)"),
        ('[[scenery]]\nid = "t"\nkind = "tower"\npolygon = [[1, 1], [2, 1], [2, 2]]',
         "scenery 't': unknown kind 'tower' (one of building, wall, obstacle, area)"),
        ('[[objective]]\nid = "o"\nat = [1, 1]\npoints = "many"',
         "objective 'o': points: expected a whole number, not 'many'"),
    ],
)  # fmt: skip
def test_a_value_not_among_the_choices_is_echoed_with_them(
    body: str, needle: str, write_scenario: Write
) -> None:
    path = write_scenario(body)
    assert any(line.endswith(needle) for line in problems(path)), problems(path)


@pytest.mark.parametrize(("value", "ok"), [("true", True), ("false", True), ('"yes"', False),
                                           ("1", False), ('"true"', False)])  # fmt: skip
def test_lieutenant_is_strictly_true_or_false(value: str, ok: bool, write_scenario: Write) -> None:
    """A loose boolean ("yes", 1) is refused where written, not read as true."""
    path = write_scenario(MODEL.format(at="[4, 20]", facing=0) + f"lieutenant = {value}\n")
    scenario, found = check_scenario(path)
    assert (scenario is not None) == ok, found
    if not ok:
        line = field_line(path, 14, "lieutenant")
        shown = value.replace('"', "'")
        expected = f"{path}:{line}: model 'f1': lieutenant: expected true or false, not {shown}"
        assert [str(p) for p in found] == [expected]


def test_every_bundled_table_still_validates() -> None:
    """The strict readings (booleans, shapes) refuse no bundled table (the test rule
    system's own table is read by its tests, tests/pips/)."""
    for path in SCENARIOS.glob("*.toml"):
        scenario, found = check_scenario(path)
        assert scenario is not None, [str(p) for p in found]


@pytest.mark.parametrize(
    ("body", "needle"),
    [
        (MODEL.format(at="[4, 20]", facing=0) + "base = -3\n",
         "model 'f1': base must be more than 0, got -3"),
        (MODEL.format(at="[4, 20]", facing=9999),
         "model 'f1': facing must be at most 3600, got 9999"),
        ('[[scenery]]\nid = "w"\nkind = "wall"\nthickness = -1\nline = [[1, 1], [2, 1]]',
         "scenery 'w': thickness must be more than 0, got -1"),
        ('[[scenery]]\nid = "w"\nkind = "wall"\nline = [[1, 1], [2, -20000]]',
         "scenery 'w': line point 2 y must be at least -10000, got -20000"),
        ('[[side]]\nid = "green"\ncolour = [0, 300, 0]',
         "side 'green': colour green must be at most 255, got 300"),
        ('[[side]]\nid = "dark green"',
         "side 'dark green': id 'dark green' may hold only letters, digits"),
        ('[[objective]]\nid = "o"\nat = [5, 5]\nradius = 0',
         "objective 'o': radius must be more than 0, got 0"),
        ('[[objective]]\nid = "o"\nat = [5, 5]\npoints = 0',
         "objective 'o': points must be at least 1, got 0"),
        ('[[weapon]]\nname = "Combi"\nshort = 8\nlong = 24\nburst = 9\ndam = 13',
         "weapon 'Combi': burst must be at most 6, got 9"),
    ],
)  # fmt: skip
def test_a_value_out_of_range_is_said_in_our_words(
    body: str, needle: str, write_scenario: Write
) -> None:
    """A value out of its range names the field (and the item of a list) and the value as
    written, never pydantic's "Input should be ..."."""
    found = problems(write_scenario(body))
    assert any(line.endswith(needle) or needle in line for line in found), found
    assert not any("should" in line for line in found), found


def test_a_bad_header_value_is_said_in_our_words(write_scenario: Write) -> None:
    path = write_scenario(
        '[scenario]\nname = "x"\nruleset = "infinity"\ntable = [-3, 300]\nturns = 0\n'
        '[[side]]\nid = "blue"\n',
        header=False,
    )
    assert problems(path) == [
        f"{path}:4: [scenario]: table width must be at least 2, got -3",
        f"{path}:4: [scenario]: table depth must be at most 240, got 300",
        f"{path}:5: [scenario]: turns must be at least 1, got 0",
    ]


def test_a_table_too_small_for_a_base_is_refused(write_scenario: Write) -> None:
    # A table of 0.016x0.012" validated (second tester's finding 2, session 6): a least
    # table size, as there is a most.
    path = write_scenario(
        '[scenario]\nname = "x"\nruleset = "infinity"\ntable = [0.016, 2]\n[[side]]\nid = "blue"\n',
        header=False,
    )
    assert problems(path) == [f"{path}:4: [scenario]: table width must be at least 2, got 0.016"]


@pytest.mark.parametrize(
    ("body", "key", "needle"),
    [
        (MODEL.format(at="[4, 20]", facing="true"), "facing",
         "model 'f1': facing: expected a number, not true"),
        (MODEL.format(at="[4, false]", facing=0), "at",
         "model 'f1': at: expected [x, y], two numbers, not [4, false]"),
        ('[[scenery]]\nid = "b"\nkind = "building"\nheight = true\n'
         "polygon = [[1, 1], [2, 1], [2, 2]]",
         "height", "scenery 'b': height: expected a number, not true"),
        ('[[scenery]]\nid = "b"\nkind = "building"\npolygon = [[1, 1], [true, 1], [2, 2]]',
         "polygon", "scenery 'b': polygon: point 2: expected [x, y], two numbers, not [true, 1]"),
        ('[[side]]\nid = "green"\ncolour = [0, true, 0]', "colour",
         "side 'green': colour: expected [red, green, blue], three whole numbers, "
         "not [0, true, 0]"),
        ('[[objective]]\nid = "o"\nat = [5, 5]\npoints = true', "points",
         "objective 'o': points: expected a whole number, not true"),
        ('[[profile]]\nname = "fusilier"\nbase = 25\nheight = 1\ncc = 13\nbs = true\nph = 10\n'
         "wip = 12\narm = 1\nbts = 0\nwounds = 1\nsilhouette = 2", "bs",
         "profile 'fusilier': bs: expected a whole number, not true"),
    # a number in quotes is text, not a number (pydantic would read "3" as 3)
        (MODEL.format(at="[4, 20]", facing='"90"'), "facing",
         "model 'f1': facing: expected a number, not '90'"),
        (MODEL.format(at='[4, "20"]', facing=0), "at",
         "model 'f1': at: expected [x, y], two numbers, not [4, '20']"),
        ('[[scenery]]\nid = "b"\nkind = "building"\nheight = "1.5"\n'
         "polygon = [[1, 1], [2, 1], [2, 2]]",
         "height", "scenery 'b': height: expected a number, not '1.5'"),
        ('[[objective]]\nid = "o"\nat = [5, 5]\npoints = "3"', "points",
         "objective 'o': points: expected a whole number, not '3'"),
        ('[[profile]]\nname = "fusilier"\nbase = 25\nheight = 1\ncc = 13\nbs = "12"\nph = 10\n'
         "wip = 12\narm = 1\nbts = 0\nwounds = 1\nsilhouette = 2", "bs",
         "profile 'fusilier': bs: expected a whole number, not '12'"),
    # in a list of numbers the item is named: "bands: expected a number, not [[8, 3], ..."
    # said a number where a list goes
        ('[[profile]]\nname = "fusilier"\nbase = 25\nheight = 1\nmov = ["4", 4]\ncc = 13\n'
         "bs = 12\nph = 10\nwip = 12\narm = 1\nbts = 0\nwounds = 1\nsilhouette = 2", "mov",
         "profile 'fusilier': mov item 1: expected a number, not '4'"),
        (WEAPON.format(bands='[[8, 3], ["16", 3]]'), "bands",
         "weapon 'Combi Rifle': bands item 2 item 1: expected a number, not '16'"),
        (WEAPON.format(bands='[[8, 3], [16, "3"]]'), "bands",
         "weapon 'Combi Rifle': bands item 2 item 2: expected a whole number, not '3'"),
        (WEAPON.format(bands='[[8, 3], "16"]'), "bands",
         "weapon 'Combi Rifle': bands item 2: expected a list in brackets, not '16'"),
    # a list where one number goes is said whole, not as items of a list the field lacks
        ('[[scenery]]\nid = "b"\nkind = "building"\nheight = [1, "a"]\n'
         "polygon = [[1, 1], [2, 1], [2, 2]]",
         "height", "scenery 'b': height: expected a number, not [1, 'a']"),
        ('[[scenery]]\nid = "b"\nkind = "building"\nheight = [[false, 1]]\n'
         "polygon = [[1, 1], [2, 1], [2, 2]]",
         "height", "scenery 'b': height: expected a number, not [[false, 1]]"),
    ],
)  # fmt: skip
def test_a_number_is_not_true_false_or_text(
    body: str, key: str, needle: str, write_scenario: Write
) -> None:
    """TOML's true is no number (pydantic would read it as 1), nor is "3": refused once,
    at the field's own line, naming the field and the value, with no second message
    about the same field."""
    path = write_scenario(body)
    found = problems(path)
    line = field_line(path, 14, key)
    assert found == [f"{path}:{line}: {needle}"]


def test_real_numbers_still_read(write_scenario: Write) -> None:
    path = write_scenario(MODEL.format(at="[4, 20.5]", facing=90))
    scenario, found = check_scenario(path)
    assert found == [] and scenario is not None
    assert scenario.models[-1].at == (4, 20.5)


def test_a_bad_scenario_table_hides_no_other_problem(write_scenario: Write) -> None:
    """validate stopped at a problem in [scenario]; every entry is still checked (what
    needs the rule system, when it is the problem, is not)."""
    path = write_scenario(
        '[scenario]\nname = "x"\nruleset = "chess"\ntable = [24, 24]\nturns = 0\n'
        '[[side]]\nid = "blue"\ncolour = [300, 0, 0]\n'
        '[[scenery]]\nid = "w"\nkind = "wal"\npolygon = [[0, 0], [1, 1], [1, 0]]\n'
        '[[model]]\nid = "m"\nside = "blue"\nprofile = "p"\nat = [1, "x"]\n',
        header=False,
    )
    known = "infinity, necromunda, open-rebellion"
    assert problems(path) == [
        f"{path}:3: [scenario] ruleset: unknown ruleset 'chess' (known: {known})",
        f"{path}:5: [scenario]: turns must be at least 1, got 0",
        f"{path}:8: side 'blue': colour red must be at most 255, got 300",
        f"{path}:11: scenery 'w': unknown kind 'wal' (one of building, wall, obstacle, area)",
        f"{path}:17: model 'm': at: expected [x, y], two numbers, not [1, 'x']",
    ]


def test_a_bad_table_size_still_checks_the_models(write_scenario: Write) -> None:
    path = write_scenario(
        '[scenario]\nname = "x"\nruleset = "infinity"\ntable = [24, true]\n'
        '[[side]]\nid = "blue"\n'
        + MODEL.format(at="[4, 20]", facing=0).replace('"fusilier"', '"nobody"'),
        header=False,
    )
    found = problems(path)
    assert (
        found[0]
        == f"{path}:4: [scenario]: table: expected [width, depth], two numbers, not [24, true]"
    )
    assert found[1].endswith(
        "model 'f1': unknown profile 'nobody' (" + infinity_known("profile") + ")"
    )


@pytest.mark.parametrize(
    ("body", "key", "needle"),
    [
        (MODEL.format(at="[4, 20]", facing=0) + 'weapons = "Combi Rifle"', "weapons",
         "model 'f1': weapons: expected a list in brackets, not 'Combi Rifle'"),
        (MODEL.format(at="[4, 20]", facing=0) + "weapons = {a = 1}", "weapons",
         "model 'f1': weapons: expected a list in brackets, not {a = 1}"),
        (MODEL.format(at="[4, 20]", facing=0) + 'weapons = ["Combi Rifle", 3]', "weapons",
         "model 'f1': weapons item 2: expected text in quotes, not 3"),
        ('[[scenery]]\nid = "b"\nkind = "building"', "id",
         "scenery 'b': needs exactly one of polygon or line"),
    ],
)  # fmt: skip
def test_no_pydantic_words_reach_a_person(
    body: str, key: str, needle: str, write_scenario: Write
) -> None:
    """ "weapons: Input should be a valid tuple" was pydantic's; a list item is named by
    its place in the list."""
    path = write_scenario(body)
    found = problems(path)
    assert any(line.endswith(needle) for line in found), found
    assert not any("Input should" in line or "valid tuple" in line for line in found)


TRIANGLE = '[[scenery]]\nid = "t"\nkind = "building"\npolygon = [[1, 1], [5, 1], [1, 4]]\n'


@pytest.mark.parametrize(
    ("axes", "needle"),
    [("60", "scenery 't': axes must be at most 45, got 60"),
     ('"thirty"', "scenery 't': axes"),
     ("nan", "scenery 't': axes must be a finite number, got nan")],
)  # fmt: skip
def test_a_pieces_axes_are_read_and_a_bad_value_refused_in_one_line(
    axes: str, needle: str, write_scenario: Write, capsys: pytest.CaptureFixture[str]
) -> None:
    """fix15b: a piece's own axes (`axes`, the degrees a turn in the editor gave a shape
    that does not tell them) are an optional key: old files do without it, a good value
    validates, a bad one is refused in one line naming the file and the key's line."""
    demo = (SCENARIOS / "infinity-demo.toml").read_text("utf-8")
    good = write_scenario(demo + "\n" + TRIANGLE + "axes = 30\n", header=False)
    assert main(["validate", str(good)]) == 0, capsys.readouterr().err
    capsys.readouterr()
    path = write_scenario(demo + "\n" + TRIANGLE + f"axes = {axes}\n", "bad.toml", False)
    line = len(path.read_text("utf-8").splitlines())  # the last line: axes = ...
    err = validate_exits_2_with(path, capsys, f"{path}:{line}: {needle}")
    assert len(err.strip().splitlines()) == 1


def test_axes_on_a_piece_whose_sides_give_its_axes_is_said_by_validate(
    write_scenario: Write, capsys: pytest.CaptureFixture[str]
) -> None:
    """tester15 finding 12: `axes = 10` on a square building and `axes = 20` on a wall
    validated "ok", unread (the shape gives their axes; the editor writes the key only on
    a shape whose sides do not). validate says it, one line each naming the file and the
    key's line, exit 2, as it says a field the system does not read; a game and the editor
    read the file as before, the shape winning."""
    box = '[[scenery]]\nid = "box"\nkind = "building"\npolygon = [[1, 1], [5, 1], [5, 4], [1, 4]]\n'
    wall = '[[scenery]]\nid = "w"\nkind = "wall"\nline = [[8, 1], [8, 6]]\n'
    red = MODEL.format(at="[20, 10]", facing=0).replace('"f1"', '"r1"').replace('"blue"', '"red"')
    models = MODEL.format(at="[20, 20]", facing=0) + red
    path = write_scenario(f"{box}axes = 10\n{wall}axes = 20\n{models}")
    lines = path.read_text("utf-8").splitlines()
    said = "axes: not read: the piece's sides lie square, and give its axes"
    assert main(["validate", str(path)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert [e.split(": axes:")[0] for e in err] == [
        f"skirmish: {path}:{lines.index('axes = 10') + 1}: scenery 'box'",
        f"skirmish: {path}:{lines.index('axes = 20') + 1}: scenery 'w'",
    ]
    assert all(said in e for e in err)
    scenario, found = check_scenario(path)
    assert scenario is not None and found == []  # played and edited as the shape says


def test_a_bad_axes_hides_none_of_the_files_other_problems(
    write_scenario: Write, capsys: pytest.CaptureFixture[str]
) -> None:
    """tester15 finding 12: with `axes = 60` in a file whose sides have no models,
    validate said only the axes line ("validate reports every problem of a file"); a bad
    thickness hid them the same way. Each is said, with the sides with no models."""
    for bad in (f"{TRIANGLE}axes = 60\n", '[[scenery]]\nid = "w"\nkind = "wall"\n'
                'line = [[8, 1], [8, 6]]\nthickness = -1\n'):  # fmt: skip
        path = write_scenario(bad)
        assert main(["validate", str(path)]) == 2
        err = capsys.readouterr().err.splitlines()
        assert len(err) == 3, err
        assert "axes must be at most 45, got 60" in err[2] or "thickness must" in err[2]
        assert all("has no models: a game needs one a side" in e for e in err[:2])
