"""What a new user found on main in session 9 (tester9, a wheel run from another folder):
`skirmish shoot` says the table as `lof` and the window say it."""

from __future__ import annotations

import pytest

from game.cli import main
from tests.conftest import SCENARIOS


def shoot(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["shoot", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize(
    ("table", "attacker", "target", "pieces", "ids"),
    [
        (
            "infinity-demo", "fusilier-lt", "zhanshi-2",
            "the habitation block, the fence [fence-a] in the way", ("hab-1,",),
        ),
        (
            "necromunda-demo", "orlock-grenadier", "escher-ganger-2",
            "the water still, the pipes in the way", ("still,", " pipes in"),
        ),
    ],
)  # fmt: skip
def test_a_shot_refused_names_the_scenery_as_lof_does(
    capsys: pytest.CaptureFixture[str],
    table: str,
    attacker: str,
    target: str,
    pieces: str,
    ids: tuple[str, ...],
) -> None:
    """A refused shot named the pieces in the way by their ids ("hab-1, fence-a in the
    way", "still, pipes") where `lof` and the window say their names."""
    path = str(SCENARIOS / f"{table}.toml")
    code, _, err = shoot(capsys, path, "--attacker", attacker, "--target", target)
    assert code == 2 and pieces in err, err
    assert not any(i in err.replace(pieces, "") for i in ids), err
    assert main(["lof", path, "--from", attacker, "--to", target]) == 0
    assert pieces in capsys.readouterr().out
