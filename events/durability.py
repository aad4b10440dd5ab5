"""How sure an append is before it is acknowledged. Redis replicates asynchronously: a master
that dies right after answering may take its latest writes with it when a replica takes over. With
`replicas` set, an append is acknowledged only once that many replicas hold it in memory (Redis's
WAIT, sent on the connection that wrote it: see events.slots)."""

from __future__ import annotations

from dataclasses import dataclass

from redis.client import Pipeline

from events.errors import NotReplicated


@dataclass(frozen=True)
class Durability:
    replicas: int = 0  # replicas that must hold an append before it is acknowledged (0: none)
    timeout_ms: int = 1000  # how long an append waits for them

    def wait(self, pipe: Pipeline) -> bool:
        """Queue on `pipe`, after a write, the wait for the replicas to hold it; whether one is queued."""
        if not self.replicas:
            return False
        pipe.execute_command("WAIT", self.replicas, self.timeout_ms)
        return True

    def check(self, acknowledged: int, version: int) -> None:
        """Raise NotReplicated if fewer replicas than asked acknowledged the append."""
        if acknowledged < self.replicas:
            raise NotReplicated(version, acknowledged, self.replicas)


