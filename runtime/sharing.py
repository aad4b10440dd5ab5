"""How the API processes share gunicorn's one listening socket: a process holding clearly more
connections than another leaves each new one to it.

The first process to accept a new connection gets it, most often the busiest, and a client sends
every request over the one connection: a few clients connecting at once could all land on one
process. So each process counts its open connections in a table the processes share, and one
holding clearly more than another lets a new connection wait WAIT_FOR_FEWER for it."""

from __future__ import annotations

import mmap
import os
import struct
from typing import Any

from gevent.server import StreamServer  # type: ignore[import-untyped]

WAIT_FOR_FEWER = 0.002  # seconds a new connection is left to a process holding fewer connections
# a process's id (0: a free slot; -1: taken for a process not yet started), whether it accepts
# connections (not yet, or no longer as it stops), and the connections it holds
SLOT = struct.Struct("qqq")


class ConnectionCounts:
    """The open connections of each API process, in memory shared by the processes the master forks."""

    def __init__(self, slots: int = 64) -> None:
        self.slots = slots
        # anonymous and shared: made in the master before it forks, children see one table (a slot each)
        self.memory = mmap.mmap(-1, slots * SLOT.size)

    def take(self) -> int | None:
        """A slot for a process about to start, free or left by a process that ended; None: it shares nothing."""
        for slot in range(self.slots):
            pid, _, _ = self.read(slot)
            if pid == 0 or (pid > 0 and not _alive(pid)):
                self._write(slot, -1, 0, 0)
                return slot
        return None

    def start(self, slot: int) -> None:
        """The process in `slot` has started (it is not yet accepting)."""
        self._write(slot, os.getpid(), 0, 0)

    def accepting(self, slot: int, accepts: bool) -> None:
        pid, _, held = self.read(slot)
        self._write(slot, pid, int(accepts), held)

    def leave(self, slot: int) -> None:
        self._write(slot, 0, 0, 0)

    def read(self, slot: int) -> tuple[int, int, int]:
        """The slot's process id, whether it accepts connections, and the connections it holds."""
        pid, accepts, held = SLOT.unpack_from(self.memory, slot * SLOT.size)
        return pid, accepts, held

    def held(self, slot: int) -> int:
        return self.read(slot)[2]

    def add(self, slot: int, change: int) -> None:
        pid, accepts, held = self.read(slot)
        self._write(slot, pid, accepts, held + change)

    def _write(self, slot: int, pid: int, accepts: int, held: int) -> None:
        SLOT.pack_into(self.memory, slot * SLOT.size, pid, accepts, held)

    def fewer_elsewhere(self, slot: int) -> bool:
        """Whether another accepting process holds clearly fewer connections than `slot`'s."""
        # clearly: taking turns one connection at a time would have a process wait at every other one of a burst
        mine = self.held(slot)
        return any(accepts and mine - held > 1 + held // 10
                   for _, accepts, held in (self.read(other) for other in range(self.slots) if other != slot))


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)  # no signal sent: only whether the process is there
    except ProcessLookupError:
        return False
    except PermissionError:
        pass  # there, but another user's
    return True


class SharingServer(StreamServer):  # type: ignore[misc]  # gevent ships no types
    """gevent's server, counting its connections in `table` and leaving new ones a while to a process with fewer."""

    def __init__(self, *args: Any, table: ConnectionCounts, slot: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.table, self.slot = table, slot
        self.waited = False  # whether it has waited for the others since it last tried to accept

    def start(self) -> None:
        super().start()
        self.table.accepting(self.slot, True)

    def close(self) -> None:
        self.table.accepting(self.slot, False)  # stopping: the others no longer wait for it
        super().close()

    def _do_read(self) -> None:
        if not self.waited and self.table.fewer_elsewhere(self.slot):
            self.stop_accepting()
            self._timer = self.loop.timer(WAIT_FOR_FEWER)
            self._timer.start(self._waited_for_others)
            return
        self.waited = False
        super()._do_read()

    def _waited_for_others(self) -> None:
        """The wait is over: the next connection is taken, however busy a process is."""
        self.waited = True
        self._start_accepting_if_started()

    def do_handle(self, *args: Any) -> None:
        self.table.add(self.slot, 1)
        super().do_handle(*args)

    def do_close(self, *args: Any) -> None:
        self.table.add(self.slot, -1)
        super().do_close(*args)
