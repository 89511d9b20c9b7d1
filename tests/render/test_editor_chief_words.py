"""The editor's refusal of a second Lieutenant names the model being moved, and a
model whose id is an article leaves the article in the sentence (retest13's finding 6:
S on Lieutenant C, to red whose Lieutenant is D, read "refused: D: lieutenant = true,
but Red has its Lieutenant already (C): A side has one Lieutenant")."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from game.render.editor import Editor
from game.scenario.editing import Editing, EditRefused, set_model
from game.scenario.names import places_named
from game.sequencer.sentences import ToldNames

TABLE = """[scenario]
name = "t"
ruleset = "infinity"
table = [24, 24]
[[side]]
id = "blue"
[[side]]
id = "red"
[[model]]
id = "a"
side = "blue"
profile = "fusilier"
at = [2, 2]
[[model]]
id = "c"
side = "blue"
profile = "zhanshi"
at = [10, 10]
lieutenant = true
[[model]]
id = "d"
side = "red"
profile = "zhanshi"
at = [12, 10]
lieutenant = true
"""


def test_moving_a_lieutenant_to_a_side_that_has_one_blames_the_one_moved(
    tmp_path: Path,
) -> None:
    path = tmp_path / "t.toml"
    path.write_text(TABLE, encoding="utf-8")
    editing = Editing.open(path)
    with pytest.raises(EditRefused) as why:
        editing.apply(set_model("c", side="red"))
    assert str(why.value) == (
        "model 'c': lieutenant = true, but side 'red' has its Lieutenant already "
        "(model 'd'): a side has one Lieutenant"
    )
    editor = Editor(editing, surface=pygame.Surface((800, 600)))
    editor.state.selected = ["c"]
    editor.cycle_side()
    assert editor.said(editor.state.refused) == (
        "C: lieutenant = true, but Red has its Lieutenant already (D): a side has one Lieutenant"
    )


def test_an_id_that_is_an_article_is_named_only_where_a_check_quotes_it() -> None:
    names = ToldNames({"a": "Alpha", "c": "C"}, {})
    assert places_named("model 'c': a side has one Lieutenant (model 'a')", names) == (
        "C: a side has one Lieutenant (Alpha)"
    )
