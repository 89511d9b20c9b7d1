"""Reaching a Dask scheduler, or saying at once why not.

`--scheduler` takes `tcp://HOST:PORT` or `HOST:PORT`. Anything else, a missing cluster
extra, a port nothing listens on, a host that does not resolve, and a service that
accepts the connection but never answers as a scheduler each end in one sentence
(`ClusterError`) within the connection time-out, never a traceback or a wait without
end."""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import Iterator
from typing import Any

DEFAULT_PORT_HINT = "tcp://HOST:PORT or HOST:PORT, e.g. tcp://127.0.0.1:8786"
INSTALL_HINT = "pip install 'skirmish[cluster]' (or pip install 'dask[distributed]')"


class ClusterError(Exception):
    """No scheduler to play on: the message says why in one line."""


def parse_address(address: str) -> tuple[str, int]:
    """(host, port) of a scheduler address, or ClusterError naming what is wrong."""
    text = address.strip()
    if not text:
        raise ClusterError(f"the address is empty (expected {DEFAULT_PORT_HINT})")
    scheme, sep, rest = text.partition("://")
    if not sep:
        scheme, rest = "tcp", text
    if scheme != "tcp":
        raise ClusterError(
            f"{address!r}: a scheduler is reached over tcp://, not {scheme}:// "
            f"(expected {DEFAULT_PORT_HINT})"
        )
    host, colon, port_text = rest.rpartition(":")
    host = host.strip("[]")
    if not colon or not host or not port_text.isdigit() or "/" in rest:
        raise ClusterError(f"{address!r} is not an address (expected {DEFAULT_PORT_HINT})")
    port = int(port_text)
    if not 0 < port < 65536:
        raise ClusterError(f"{address!r}: port {port} is out of range (1-65535)")
    return host, port


def _distributed() -> Any:
    try:
        import distributed
    except ImportError:
        raise ClusterError(f"the cluster backend is not installed: {INSTALL_HINT}") from None
    return distributed


async def _identity(distributed: Any, url: str, timeout: float) -> None:
    comm = await distributed.comm.connect(url, timeout=timeout)
    try:
        await comm.write({"op": "identity", "reply": True})
        answer = await comm.read()
    finally:
        await comm.close()
    if not isinstance(answer, dict) or answer.get("type") != "Scheduler":
        raise ValueError("not a scheduler")


@contextlib.contextmanager
def connect(address: str, timeout: float) -> Iterator[Any]:
    """A `distributed.Client` for the scheduler at `address`, closed on leaving; a
    scheduler that cannot be reached within `timeout` seconds is a ClusterError."""
    host, port = parse_address(address)
    distributed = _distributed()
    try:
        # A plain connection first: a refused port or an unknown host answers at once.
        with socket.create_connection((host, port), timeout=timeout):
            pass
    except socket.gaierror:
        raise ClusterError(f"{address!r}: no such host {host!r}") from None
    except TimeoutError:
        raise ClusterError(f"{address!r}: no answer within {timeout:g} s") from None
    except OSError as err:
        reason = err.strerror or type(err).__name__
        raise ClusterError(f"{address!r}: cannot connect ({reason.lower()})") from None
    url = f"tcp://{host}:{port}"
    silent = ClusterError(f"{address!r}: no Dask scheduler answered within {timeout:g} s")
    try:
        # The client's own time-out does not cover a service that accepts and stays
        # silent: ask the scheduler who it is, bounded, before handing it the games.
        asyncio.run(asyncio.wait_for(_identity(distributed, url, timeout), timeout))
    except (OSError, TimeoutError, ValueError, EOFError, distributed.comm.CommClosedError):
        raise silent from None
    try:
        client = distributed.Client(url, timeout=timeout)
    except (OSError, TimeoutError, ValueError):
        raise silent from None
    try:
        yield client
    finally:
        client.close()
