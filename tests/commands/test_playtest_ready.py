"""The first run after an install compiles the sight-line loops (numba, cached on disk):
playtest does it before its clock starts and says so, and only then."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from game.cli import main


def _counter(values: list[int]) -> Iterator[int]:
    yield from values


@pytest.mark.parametrize(("counts", "said"), [([0, 19], True), ([19, 19], False)])
def test_playtest_says_when_it_compiled_the_sight_line_loops(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    counts: list[int],
    said: bool,
) -> None:
    """Kernels compiled afresh during the warm-up game (the count rises): one sentence on
    standard error; loaded from the cache (the count stays): nothing."""
    from game.geometry import compiled

    seen = _counter(counts)
    monkeypatch.setattr(compiled, "compiled_afresh", lambda: next(seen))
    assert main(["playtest", "infinity-corridor", "--games", "1", "--seed", "3"]) == 0
    err = capsys.readouterr().err
    line = "The first run after an install compiles the sight-line loops: "
    assert (line in err) is said, err
    if said:
        assert "before the first game and not counted in the speed below." in err


def test_the_warm_up_game_leaves_the_games_as_they_were(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The throwaway game before the clock shares only exact answers with the games after:
    the same seeded playtest gives the same results with it and without it."""
    import json

    from game.commands import playtest
    from game.sequencer.table_sight import forget_shared

    argv = ["playtest", "necromunda-demo", "--games", "3", "--seed", "5", "--json", "--detail"]
    runs = []
    for warm in (False, True):
        forget_shared()
        with monkeypatch.context() as patch:
            if not warm:
                patch.setattr(playtest, "_ready", lambda loaded, quiet: None)
            assert main(argv) == 0
        runs.append(json.loads(capsys.readouterr().out)["results"])
    assert runs[0] == runs[1]
