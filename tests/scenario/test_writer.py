"""Writing scenario files: every bundled table written back loads as the same table."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from game.errors import InputError
from game.scenario import load_scenario
from game.scenario.model import ModelEntry
from game.scenario.writer import read_document, scenario_toml, write_scenario

from ..conftest import SCENARIOS

BUNDLED = sorted(SCENARIOS.glob("*.toml"))


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.stem)
def test_written_file_loads_back_to_the_same_table(path: Path, tmp_path: Path) -> None:
    doc = read_document(path)
    out = tmp_path / path.name
    write_scenario(doc, out)
    before, after = load_scenario(path), load_scenario(out)
    assert after.header == before.header
    assert after.scenery == before.scenery
    assert after.sides == before.sides
    assert after.models == before.models
    assert after.objectives == before.objectives
    assert after.profiles == before.profiles
    assert after.weapons == before.weapons
    # and reading the written file gives the same document again
    assert read_document(out) == doc


def test_written_text_is_plain_toml_one_entry_a_table() -> None:
    doc = read_document(SCENARIOS / "infinity-demo.toml")
    text = scenario_toml(doc)
    data = tomllib.loads(text)
    assert len(data["scenery"]) == len(doc.scenery)
    assert text.count("[[model]]") == len(doc.models)
    # whole numbers as the file writes them (tester7's finding 16: [36, 30] came back
    # as [36.0, 30.0]); the others bit for bit (test_floats_survive_exactly)
    assert "polygon = [[5, 7], [11, 7], [11, 11], [5, 11]]" in text
    assert "table = [32, 32]" in text and "at = [27.5, 12.5]" in text


def test_floats_survive_exactly(tmp_path: Path) -> None:
    doc = read_document(SCENARIOS / "infinity-demo.toml")
    odd = 0.1 + 0.2  # not 0.3: the repr must come back bit for bit
    first = doc.models[0]
    moved = ModelEntry.model_validate(first.model_dump() | {"at": (first.at[0] + odd, first.at[1])})
    doc = type(doc)(doc.header, doc.scenery, doc.sides, (moved, *doc.models[1:]), doc.objectives)
    out = tmp_path / "odd.toml"
    write_scenario(doc, out)
    assert load_scenario(out).models[0].at == (first.at[0] + odd, first.at[1])


def test_invalid_document_is_refused_and_writes_nothing(tmp_path: Path) -> None:
    doc = read_document(SCENARIOS / "infinity-demo.toml")
    a, b = doc.models[0], doc.models[1]
    on_top = ModelEntry.model_validate(b.model_dump() | {"at": a.at})
    doc = type(doc)(doc.header, doc.scenery, doc.sides, (a, on_top, *doc.models[2:]))
    out = tmp_path / "bad.toml"
    out.write_text("old", encoding="utf-8")
    with pytest.raises(InputError, match="overlaps"):
        write_scenario(doc, out)
    assert out.read_text(encoding="utf-8") == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.toml"]


def test_a_source_the_writer_cannot_follow_is_written_anew(tmp_path: Path) -> None:
    # kept_form gives up on a file it cannot follow (here one no longer a scenario):
    # the table is written anew, whole, and reads back the same
    from game.scenario.writer import kept_form

    doc = read_document(SCENARIOS / "open-rebellion-village.toml")
    gone = tmp_path / "gone.toml"
    gone.write_text("# the club's table\nprofile = [1]\n", encoding="utf-8")
    assert kept_form(gone.read_text(encoding="utf-8"), doc) is None
    out = tmp_path / "village.toml"
    write_scenario(doc, out, comments_from=gone)
    assert read_document(out) == doc
