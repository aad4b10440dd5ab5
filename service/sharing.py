"""How the API processes share gunicorn's one listening socket: a process holding clearly more
connections than another leaves each new one to it.

Every process waiting on a shared socket is woken for a new connection and the first to accept
it gets it: most often the process already running, that is the busiest. A client keeps its
connection alive and sends every request over it, so a few clients connecting at once could all
land on one process while the others stand idle (ten players all on one process of two were
answered about a third less often than ten shared out). So each process counts its open
connections in a table the processes share, and one holding clearly more than another lets a
new connection wait WAIT_FOR_FEWER for a process holding fewer to take it, before it takes the
connection itself."""

from __future__ import annotations

import mmap
import os
import struct
from typing import Any

from gevent.server import StreamServer  # type: ignore[import-untyped]

WAIT_FOR_FEWER = 0.002  # seconds a new connection is left to a process holding fewer connections
SLOT = struct.Struct("qq")  # a process's id (0: a free slot), and the connections it holds


class Table:
    """The open connections of each API process, in memory that gunicorn's processes share: made
    in the master before it forks them, a slot taken for each in the master as it is made."""

    def __init__(self, slots: int = 64) -> None:
        self.slots = slots
        self.memory = mmap.mmap(-1, slots * SLOT.size)  # anonymous and shared: children see one table

    def take(self) -> int | None:
        """A slot for a process about to start: a free one, or one whose process has ended (None:
        every slot is held, and the process shares nothing)."""
        for slot in range(self.slots):
            pid, _ = self.read(slot)
            if pid == 0 or (pid > 0 and not _alive(pid)):
                SLOT.pack_into(self.memory, slot * SLOT.size, -1, 0)  # held, not yet serving
                return slot
        return None

    def serve(self, slot: int) -> None:
        """The process in `slot` serves now: the others count it."""
        SLOT.pack_into(self.memory, slot * SLOT.size, os.getpid(), 0)

    def leave(self, slot: int) -> None:
        SLOT.pack_into(self.memory, slot * SLOT.size, 0, 0)

    def read(self, slot: int) -> tuple[int, int]:
        pid, held = SLOT.unpack_from(self.memory, slot * SLOT.size)
        return pid, held

    def add(self, slot: int, change: int) -> None:
        pid, held = self.read(slot)
        SLOT.pack_into(self.memory, slot * SLOT.size, pid, held + change)

    def fewer_elsewhere(self, slot: int) -> bool:
        """Whether another serving process holds clearly fewer connections than the one in
        `slot`: fewer by more than one and a tenth of its own. (Taking turns one connection at a
        time would have a process wait at every other connection of a burst.)"""
        _, mine = self.read(slot)
        return any(pid > 0 and mine - held > 1 + held // 10
                   for pid, held in (self.read(other) for other in range(self.slots) if other != slot))


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)  # no signal sent: only whether the process is there
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class SharingServer(StreamServer):  # type: ignore[misc]  # gevent ships no types
    """gevent's server, counting its connections in `table` at `slot` and leaving a new
    connection to a process holding fewer for WAIT_FOR_FEWER."""

    def __init__(self, *args: Any, table: Table, slot: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.table, self.slot = table, slot
        self.waited = False  # whether it has waited for the others since it last took a connection

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
