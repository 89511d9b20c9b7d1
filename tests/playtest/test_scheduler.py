"""--scheduler fails fast: a bad, refused or silent address, or no cluster backend
installed, is one line and exit 2 within --connect-timeout, never a traceback or a hang.
The only sockets are on 127.0.0.1."""

from __future__ import annotations

import json
import socket
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from game.cli import main
from game.playtest.cluster import ClusterError, parse_address


@pytest.mark.parametrize(
    ("address", "problem"),
    [
        ("", "the address is empty"),
        ("nonsense", "'nonsense' is not an address"),
        ("file:///tmp/scheduler.json", "a scheduler is reached over tcp://, not file://"),
        ("inproc://10.0.0.1/1/2", "a scheduler is reached over tcp://, not inproc://"),
        ("tcp://127.0.0.1:99999", "port 99999 is out of range"),
        ("tcp://127.0.0.1:port", "is not an address"),
    ],
)
def test_addresses_that_are_not_one(address: str, problem: str) -> None:
    with pytest.raises(ClusterError, match=problem):
        parse_address(address)


def test_good_addresses() -> None:
    assert parse_address("tcp://127.0.0.1:8786") == ("127.0.0.1", 8786)
    assert parse_address("localhost:8786") == ("localhost", 8786)
    assert parse_address("tcp://[::1]:8786") == ("::1", 8786)


def _fails(small: Path, address: str, capsys: pytest.CaptureFixture[str]) -> str:
    """Run the playtest on `address` in a thread (so a hang fails the test rather than
    stopping it) and return its one line of error."""
    status: list[int] = []
    argv = ["playtest", str(small), "--games", "2", "--scheduler", address]
    runner = threading.Thread(
        target=lambda: status.append(main([*argv, "--connect-timeout", "1"])), daemon=True
    )
    runner.start()
    runner.join(60)  # a liveness bound, not a speed figure: the time-out is 1 s
    assert not runner.is_alive(), f"--scheduler {address!r} hung"
    assert status == [2]
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(
        "skirmish: <command line>: playtest --scheduler: "
    )
    return lines[0]


@pytest.mark.parametrize("address", ["", "nonsense", "file:///tmp/x", "inproc://x"])
def test_bad_addresses_are_one_line(
    small: Path, address: str, capsys: pytest.CaptureFixture[str]
) -> None:
    _fails(small, address, capsys)


def test_a_refused_port_is_one_line(small: Path, capsys: pytest.CaptureFixture[str]) -> None:
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()  # nothing listens there now
    assert "cannot connect" in _fails(small, f"tcp://127.0.0.1:{port}", capsys)


@pytest.fixture
def silent_service() -> Iterator[int]:
    """A port on 127.0.0.1 that accepts connections and never says a word."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    held: list[socket.socket] = []

    def accept() -> None:
        while True:
            try:
                held.append(server.accept()[0])
            except OSError:
                return

    threading.Thread(target=accept, daemon=True).start()
    yield server.getsockname()[1]
    server.close()
    for connection in held:
        connection.close()


def test_a_silent_service_times_out_in_one_line(
    small: Path, silent_service: int, capsys: pytest.CaptureFixture[str]
) -> None:
    line = _fails(small, f"tcp://127.0.0.1:{silent_service}", capsys)
    assert "no Dask scheduler answered within 1 s" in line


def test_without_the_cluster_extra_the_message_says_what_to_install(
    small: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed fails
    line = _fails(small, "tcp://127.0.0.1:8786", capsys)
    assert "pip install 'skirmish[cluster]'" in line


def test_a_real_scheduler_plays_the_same_games(
    small: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from dask import distributed

    argv = ["playtest", str(small), "--games", "3", "--seed", "8", "--json", "--detail"]
    assert main(argv) == 0
    here = json.loads(capsys.readouterr().out)["results"]
    with distributed.LocalCluster(
        n_workers=1,
        threads_per_worker=1,
        processes=False,
        dashboard_address=None,
        protocol="tcp://",
        host="127.0.0.1",
    ) as cluster:
        assert cluster.scheduler_address.startswith("tcp://127.0.0.1:")
        assert main([*argv, "--scheduler", cluster.scheduler_address]) == 0
    there = json.loads(capsys.readouterr().out)
    assert there["scheduler"] == cluster.scheduler_address and there["workers"] is None
    assert there["results"] == here
