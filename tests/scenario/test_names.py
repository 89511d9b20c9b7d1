"""The scenery as sentences name it (game.scenario.names): by label, else by an id that
says more than the piece's kind, else by height and kind; told apart by their ids where two pieces
would read the same."""

from __future__ import annotations

from game.scenario import Piece, SceneryKind
from game.scenario.names import scenery_names

SQUARE = ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))


def _piece(key: str, kind: SceneryKind, height: float | None = None,
           label: str | None = None) -> Piece:  # fmt: skip
    return Piece(key, kind, height, SQUARE, label)


def test_a_piece_reads_by_label_then_id_then_height_and_kind() -> None:
    names = scenery_names((
        _piece("hab-1", SceneryKind.BUILDING, 4.0, "habitation block"),
        _piece("gate", SceneryKind.AREA, None, "the gate between the barriers"),
        _piece("low-wall", SceneryKind.WALL, 1.0),
        _piece("crate-stack", SceneryKind.OBSTACLE, 0.8),
        _piece("wall-3", SceneryKind.WALL, 1.0),
        _piece("object", SceneryKind.BUILDING),
        _piece("area-2", SceneryKind.AREA, 0.5),
        _piece("w2", SceneryKind.OBSTACLE, 0.5),
    ))  # fmt: skip
    assert names == {
        "hab-1": "the habitation block",
        "gate": "the gate between the barriers",
        "low-wall": "the low wall",
        "crate-stack": "the crate stack",
        "wall-3": 'the 1" wall',
        "object": "the building",
        "area-2": 'the 0.5" area terrain',
        "w2": 'the 0.5" obstacle',
    }


def test_two_pieces_that_would_read_the_same_are_told_apart_by_their_ids_mark() -> None:
    # tester9: "the container [container-1]": brackets parted two pieces of one name
    names = scenery_names((
        _piece("crates-1", SceneryKind.OBSTACLE, 0.8),
        _piece("crates-2", SceneryKind.OBSTACLE, 0.8),
        _piece("wall-w", SceneryKind.WALL, 1.0),
        _piece("wall-e", SceneryKind.WALL, 1.0),
        _piece("wall-n", SceneryKind.WALL, 2.0),
        _piece("barrels", SceneryKind.OBSTACLE, 0.9),
        _piece("hab-a", SceneryKind.BUILDING, 4.0, "habitation block"),
        _piece("hab-b", SceneryKind.BUILDING, 4.0, "habitation block"),
        _piece("b1", SceneryKind.OBSTACLE, 0.5),
        _piece("c1", SceneryKind.OBSTACLE, 0.5),
        _piece("north", SceneryKind.AREA, None, "the ruins"),
        _piece("south", SceneryKind.AREA, None, "the ruins"),
    ))  # fmt: skip
    assert names == {
        "crates-1": "crates 1",
        "crates-2": "crates 2",
        "wall-w": '1" wall W',
        "wall-e": '1" wall E',
        "wall-n": 'the 2" wall',
        "barrels": "the barrels",
        "hab-a": "habitation block A",
        "hab-b": "habitation block B",
        "b1": '0.5" obstacle 1',  # both would be '0.5" obstacle 1': in the table's order
        "c1": '0.5" obstacle 2',
        "north": "north ruins",  # tester16: "ruins (north)" read as an id
        "south": "south ruins",
    }
