"""A scenario's [[side]] names its automatic player and temperament: checked when the
file is read (an unknown name is one line naming the file, the line and the choices,
exit 2), kept by the writer and the editor, used by `skirmish play` for computer sides
and by `skirmish playtest` unless --ai or --temperament say otherwise."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.ai.search import SearchPlayer
from game.cli import main
from game.errors import InputError
from game.playtest.plan import choose_players
from game.playtest.players import describe
from game.render.session import Session
from game.scenario import load_scenario
from game.scenario.editing import Editing, move_piece
from game.scenario.writer import read_document, scenario_toml, write_scenario
from tests.conftest import SCENARIOS

DEMO = SCENARIOS / "necromunda-demo.toml"
HUMAN_SIDE = 'id = "orlock"\nname = "House Orlock"\nplayer = "human"'
AI_SIDE = 'id = "escher"\nname = "House Escher"\nplayer = "ai"'


def scenario(tmp_path: Path, orlock: str = "", escher: str = "", name: str = "s.toml") -> Path:
    """The bundled Necromunda demo with its two [[side]] entries' player lines replaced."""
    text = DEMO.read_text("utf-8")
    assert HUMAN_SIDE in text and AI_SIDE in text
    if orlock:
        text = text.replace(HUMAN_SIDE, 'id = "orlock"\nname = "House Orlock"\n' + orlock)
    if escher:
        text = text.replace(AI_SIDE, 'id = "escher"\nname = "House Escher"\n' + escher)
    path = tmp_path / name
    path.write_text(text, "utf-8")
    return path


def side_line(path: Path, side: str, key: str | None = None) -> int:
    lines = path.read_text("utf-8").splitlines()
    at = lines.index(f'id = "{side}"')
    assert lines[at - 1] == "[[side]]"
    if key is None:
        return at  # the [[side]] header's line number (1-based: the line before the id)
    return next(n for n in range(at, len(lines) + 1) if lines[n - 1].startswith(f"{key} ="))


def test_a_side_names_its_player_and_temperament(tmp_path: Path) -> None:
    path = scenario(tmp_path, 'player = "careful"', 'player = "search"\ntemperament = "cautious"')
    sides = {s.id: s for s in load_scenario(path).sides}
    assert (sides["orlock"].player, sides["orlock"].temperament) == ("careful", None)
    assert (sides["escher"].player, sides["escher"].temperament) == ("search", "cautious")


def test_old_files_keep_their_players_and_no_temperament() -> None:
    sides = {s.id: s for s in load_scenario(DEMO).sides}
    assert (sides["orlock"].player, sides["orlock"].temperament) == ("human", None)
    assert (sides["escher"].player, sides["escher"].temperament) == ("ai", None)
    assert "temperament" not in scenario_toml(read_document(DEMO))


@pytest.mark.parametrize(
    ("orlock", "needle"),
    [
        ('player = "serch"', "unknown player 'serch' (one of human, ai, simple, careful, search)"),
        ('temperament = "calm"', "unknown temperament 'calm' (one of cautious, balanced, aggr"),
        # not a name at all, as `player = 3` says (tester8: "unknown temperament ['cautious']")
        (
            'temperament = ["cautious"]',
            "temperament: expected text in quotes, not ['cautious'] (one of cautious, balanced",
        ),
        ("temperament = 3", "temperament: expected text in quotes, not 3 (one of cautious"),
        ("player = 3", "player: expected text in quotes, not 3"),
    ],
)
def test_an_unknown_player_or_temperament_is_one_line_naming_the_choices(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], orlock: str, needle: str
) -> None:
    path = scenario(tmp_path, orlock)
    assert main(["validate", str(path)]) == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert captured.out == "" and "Traceback" not in captured.err
    assert len(lines) == 1, lines
    key = orlock.split(" =", 1)[0]  # the line of the field at fault
    assert lines[0].startswith(f"skirmish: {path}:{side_line(path, 'orlock', key)}: side 'orlock'")
    assert needle in lines[0], lines[0]


def test_the_writer_keeps_player_and_temperament(tmp_path: Path) -> None:
    path = scenario(tmp_path, 'player = "careful"', 'player = "search"\ntemperament = "aggressive"')
    out = tmp_path / "written.toml"
    write_scenario(read_document(path), out)
    text = out.read_text("utf-8")
    assert 'player = "search"' in text and 'temperament = "aggressive"' in text
    assert load_scenario(out).sides == load_scenario(path).sides


def test_the_editor_round_trip_keeps_player_and_temperament(tmp_path: Path) -> None:
    path = scenario(tmp_path, 'player = "human"', 'player = "search"\ntemperament = "cautious"')
    editing = Editing.open(path)
    editing.apply(move_piece(editing.doc.scenery[0].id, 0.5, 0))
    out = editing.save(tmp_path / "edited.toml")
    assert load_scenario(out).sides == load_scenario(path).sides


def test_playtest_plays_the_named_players_unless_the_command_line_says(tmp_path: Path) -> None:
    path = scenario(tmp_path, 'player = "careful"', 'player = "search"\ntemperament = "cautious"')
    setup = load_scenario(path)
    choice = choose_players(setup, None, {})
    cautious = ("search", (("temperament", "cautious"),))
    assert choice == {"orlock": ("careful", ()), "escher": cautious}
    assert describe(choice)["escher"] == "search (temperament cautious)"
    # --temperament wins over the file's; --think reaches only the player that takes it
    choice = choose_players(setup, None, {"temperament": "aggressive", "think": 0.1})
    assert choice["escher"] == ("search", (("temperament", "aggressive"), ("think", 0.1)))
    assert choice["orlock"] == ("careful", ())
    # --ai names the players instead; the file's temperament goes to one that takes it
    simple = dict.fromkeys(("orlock", "escher"), ("simple", ()))
    assert choose_players(setup, "simple", {}) == simple
    choice = choose_players(setup, "orlock=search,escher=simple", {})
    assert choice == {"orlock": ("search", ()), "escher": ("simple", ())}
    choice = choose_players(setup, "search", {})
    assert choice["escher"] == cautious
    # sides naming no automatic player ("human", "ai") play the batch's default
    assert choose_players(load_scenario(DEMO), None, {}) == simple
    with pytest.raises(InputError, match="--temperament: not an option"):
        choose_players(load_scenario(DEMO), None, {"temperament": "cautious"})


def test_the_window_plays_a_side_with_the_player_it_names(tmp_path: Path) -> None:
    path = scenario(tmp_path, 'player = "careful"', 'player = "search"\ntemperament = "cautious"')
    session = Session.start(load_scenario(path), seed=3)
    assert session.is_ai("orlock") and session.is_ai("escher")
    searcher = session.players["escher"]
    assert isinstance(searcher, SearchPlayer) and searcher.temperament == "cautious"
    careful = session.players["orlock"]
    assert type(careful) is load_scenario(path).ruleset.player("careful")
    # the declaration made is the named player's own choice for that side
    game = session.game
    side = game.awaiting().side
    assert side is not None
    expected = session.players[side].choose(game.state, game.awaiting())
    session.step_ai()
    assert game.declarations[-1] == expected
    # a human side stays a person's; plain "ai" sides play the window's own player
    demo = Session.start(load_scenario(DEMO), seed=3)
    assert not demo.is_ai("orlock") and demo.is_ai("escher") and demo.players == {}


def test_play_ai_names_the_computer_sides_players(tmp_path: Path) -> None:
    """`skirmish play --ai/--temperament/--think`: the computer sides' players, as for
    playtest; a human side stays a person's, and a side the file names keeps its own
    player unless --ai says otherwise."""
    setup = load_scenario(scenario(tmp_path, escher='player = "careful"'))
    session = Session.start(setup, seed=3)
    assert type(session.players["escher"]) is setup.ruleset.player("careful")
    session.use_players(choose_players(setup, None, {"temperament": "cautious"}, default="search"))
    assert type(session.players["escher"]) is setup.ruleset.player("careful")  # the file's
    session.use_players(choose_players(setup, "search", {"think": 0.2}, default="search"))
    searcher = session.players["escher"]
    assert isinstance(searcher, SearchPlayer) and "orlock" not in session.players
    assert searcher.budget == int(0.2 * searcher.weights.search["steps_per_second"])
    # plain "ai" sides take the window's player, here with the temperament asked for
    demo = Session.start(load_scenario(DEMO), seed=3)
    demo.use_players(choose_players(demo.scenario, None, {"temperament": "aggressive"}, "search"))
    assert demo.players["escher"].temperament == "aggressive"


def test_play_refuses_an_unknown_ai_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "x.png"
    args = ["play", str(DEMO), "--frames", "1", "--screenshot", str(out)]
    assert main([*args, "--ai", "nobody"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no automatic player 'nobody'" in err[0], err
    assert main([*args, "--ai", "careful"]) == 0 and out.exists()
