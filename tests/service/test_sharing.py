"""API processes sharing one listening socket: one holding clearly more connections than another
leaves new connections to it, and takes them itself when no other does in time."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator

import gevent
import pytest
from gevent import socket
from gevent.event import Event

from runtime.sharing import SLOT, WAIT_FOR_FEWER, ConnectionCounts, SharingServer


def test_each_process_takes_a_slot_of_its_own_and_a_slot_is_taken_again_once_its_process_ends() -> None:
    table = ConnectionCounts(slots=3)
    first, second = table.take(), table.take()
    assert (first, second) == (0, 1)
    table.start(first)
    ended = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    SLOT.pack_into(table.memory, second * SLOT.size, int(ended.stdout), 1, 5)  # held by a process now gone
    assert table.take() == second
    assert table.take() == 2
    assert table.take() is None  # every slot held: the process shares nothing
    table.leave(first)
    assert table.take() == first


def test_a_process_compares_itself_with_those_accepting_and_leaves_connections_to_one_holding_clearly_fewer() -> None:
    table = ConnectionCounts(slots=3)
    mine, other, starting = table.take(), table.take(), table.take()
    assert mine is not None and other is not None and starting is not None
    table.start(mine)
    table.accepting(mine, True)
    table.add(mine, 2)
    table.start(other)
    assert not table.fewer_elsewhere(mine)  # the others are not accepting yet
    table.accepting(other, True)
    assert table.fewer_elsewhere(mine)
    table.add(other, 1)
    assert not table.fewer_elsewhere(mine)  # fewer by one: not clearly fewer
    table.add(mine, 28)
    table.add(other, 26)
    assert table.read(mine) == (os.getpid(), 1, 30)
    assert not table.fewer_elsewhere(mine)  # 27 is fewer than 30 by a tenth of 27 and one, no more
    table.add(other, -1)
    assert table.fewer_elsewhere(mine)
    table.accepting(other, False)  # stopping: it takes no more connections
    assert not table.fewer_elsewhere(mine)


@pytest.fixture
def listener() -> Iterator[socket.socket]:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(64)
    sock.setblocking(False)
    yield sock
    sock.close()


class Process:
    """A server on the shared socket as an API process runs it, holding each connection until released."""

    def __init__(self, listener: socket.socket, table: ConnectionCounts, taken: list[tuple[str, float]], name: str) -> None:
        self.table, self.slot, self.name = table, table.take(), name
        assert self.slot is not None
        table.start(self.slot)
        self.released = Event()

        def handle(client: socket.socket, _: object) -> None:
            taken.append((name, time.monotonic()))
            self.released.wait()
        self.server = SharingServer(listener, handle=handle, table=table, slot=self.slot)
        self.server.max_accept = 1  # as gunicorn sets it when processes share the socket
        self.server.start()

    def held(self) -> int:
        return self.table.held(self.slot)

    def stop(self) -> None:
        self.released.set()
        gevent.sleep(0.01)
        self.server.stop()


def connect(listener: socket.socket, taken: list[tuple[str, float]]) -> socket.socket:
    """A connection, once a server has taken it."""
    before = len(taken)
    client = socket.create_connection(listener.getsockname())
    wait_until(lambda: len(taken) > before)
    return client


def wait_until(done: Callable[[], bool]) -> None:
    deadline = time.monotonic() + 5
    while not done():
        assert time.monotonic() < deadline
        gevent.sleep(0.0005)


def test_a_process_holding_clearly_more_connections_leaves_new_ones_to_another(listener: socket.socket) -> None:
    table, taken = ConnectionCounts(slots=2), []
    busy, idle = Process(listener, table, taken, "busy"), Process(listener, table, taken, "idle")
    table.add(busy.slot, 3)  # connections it held already
    clients = [connect(listener, taken) for _ in range(9)]
    assert [name for name, _ in taken[:2]] == ["idle"] * 2  # then neither holds clearly more
    assert abs(busy.held() - idle.held()) <= 2
    assert busy.held() + idle.held() == 12
    for client in clients:
        client.close()
    busy.stop()
    idle.stop()
    wait_until(lambda: (busy.held(), idle.held()) == (3, 0))  # each closed connection is counted off
    assert not table.read(idle.slot)[1]  # stopped, it is no longer waited for


def test_a_process_holding_more_takes_the_connection_itself_when_no_other_does_in_time(listener: socket.socket) -> None:
    table, taken = ConnectionCounts(slots=2), []
    serving = Process(listener, table, taken, "serving")
    stuck = table.take()  # a process that counts as accepting but takes nothing
    assert stuck is not None
    table.start(stuck)
    table.accepting(stuck, True)
    table.add(serving.slot, 2)
    asked = time.monotonic()
    client = connect(listener, taken)
    assert taken[-1][0] == "serving" and taken[-1][1] - asked >= WAIT_FOR_FEWER
    client.close()
    serving.stop()
