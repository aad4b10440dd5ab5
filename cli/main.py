"""The `meeple` command."""

from __future__ import annotations

import argparse
import dataclasses
import gc
import os
import shutil
import signal
import subprocess
import sys
from typing import TYPE_CHECKING, Any

from gunicorn.app.base import BaseApplication

from runtime.config import Config
from runtime.embedded import EmbeddedRedis, die_with_parent

if TYPE_CHECKING:
    from events.log_file import GameLog


WORKER_NICENESS = 10
WORKER = [sys.executable, "-m", "workers"]  # the workers run apart from the API: it imports none of them
# SIGTERM stops `meeple serve` within the 10 s an orchestrator allows (docker stop's default): first
# the API, whose requests get API_STOP_SECONDS (an event stream never ends by itself: it is cut
# then, and its client reconnects), then the worker, whose job gets WORKER_STOP_SECONDS (then it is
# killed, and the reactor's sweep enqueues it again), then the store
API_STOP_SECONDS = 5
# the collector's thresholds (Python's: 700, 10, 10). A request answered without error leaves no
# reference cycle (service.routing_without_cycles; an error's traceback still makes a few), so the collector has
# little to find. The youngest generation is collected once 2,000 more containers were made than
# freed, the middle one every 10 of those; the whole heap (less what gc.freeze set aside) only
# after 1,000 collections of the middle one, and once a quarter more objects than it then held
# have reached it: what dies old, such as a game's cached state replaced at its next move, is
# freed by its reference count
GC_THRESHOLDS = (2_000, 10, 1_000)
WORKER_STOP_SECONDS = 2


class _Gunicorn(BaseApplication):
    """Gunicorn serving the API, configured from the command line rather than a file."""

    def __init__(self, config: Config, settings: dict[str, Any]) -> None:
        self.meeple_config = config
        self.settings = settings
        super().__init__()

    def load_config(self) -> None:
        for name, value in self.settings.items():
            self.cfg.set(name, value)

    def load(self) -> Any:
        from runtime.logs import json_logs
        from service.app import create_app

        json_logs()
        app = create_app(self.meeple_config)
        # what the process holds once it serves (modules, rules, the app) is never collected:
        # moved out of the collector's sight, it is not walked at every collection
        gc.collect()
        gc.freeze()
        gc.set_threshold(*GC_THRESHOLDS)
        return app


def serve(args: argparse.Namespace) -> None:
    """Serve the API and run a worker beside it, on the embedded store under --data-dir if no MEEPLE_REDIS_URL."""
    config = Config.from_env()
    config = dataclasses.replace(config, connections=args.connections)
    if args.data_dir:
        config = dataclasses.replace(config, data_dir=args.data_dir)
    if not os.environ.get("MEEPLE_PUBLIC_URL"):  # links in mail lead where this server listens, unless told
        host = "127.0.0.1" if args.host in ("0.0.0.0", "::", "") else args.host
        host = f"[{host}]" if ":" in host else host
        config = dataclasses.replace(config, public_url=f"http://{host}:{args.port}")
    embedded = worker_process = None
    if config.redis_url is None:
        embedded = EmbeddedRedis(config.data_dir, appendfsync=config.store_fsync)
        config = dataclasses.replace(config, redis_url=embedded.start())
        print(f"meeple: embedded store at {embedded.url}, data in {embedded.data_dir}", flush=True)
        # a store that cannot be started again stops everything, as SIGTERM does, and serve exits 1
        embedded.keep_alive(config.store_restart_seconds, lambda: os.kill(os.getpid(), signal.SIGTERM))
    # each server process writes its metrics here and /metrics adds them up (runtime.metrics)
    metrics_dir = os.path.join(config.data_dir, "metrics")
    shutil.rmtree(metrics_dir, ignore_errors=True)
    os.makedirs(metrics_dir)
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = metrics_dir
    if not args.no_worker:
        assert config.redis_url is not None
        worker_process = subprocess.Popen(
            WORKER, env=os.environ | {"MEEPLE_REDIS_URL": config.redis_url, "MEEPLE_DATA_DIR": config.data_dir,
                                      "MEEPLE_PUBLIC_URL": config.public_url},
            preexec_fn=_background_child,
        )
    try:
        _Gunicorn(config, {
            "bind": f"{args.host}:{args.port}",
            "workers": args.workers,
            # gevent: an open event stream costs a greenlet, not a thread; gunicorn's own error
            # answers (a request it cannot read) are problem+json like the API's, and a process
            # holding clearly more connections than another leaves new ones to it
            "worker_class": "service.serving.ApiWorker",
            "worker_connections": config.connections,
            "accesslog": "-" if args.access_log else None,
            # the path without its query, which may hold a stream ticket; no referrer either
            "access_log_format": '%(h)s %(t)s "%(m)s %(U)s %(H)s" %(s)s %(b)s %(L)s "%(a)s"',
            "graceful_timeout": API_STOP_SECONDS,
            # a request's head is read only so far: a longer request line is answered 414, more or
            # longer header fields 431, each as problem+json (service.serving) as soon as the bytes
            # read pass the limit; bodies are capped by MEEPLE_MAX_BODY_BYTES
            "limit_request_line": config.max_request_line,
            "limit_request_fields": config.max_header_fields,
            "limit_request_field_size": config.max_header_field_bytes,
            "control_socket_disable": True,
        }).run()
    finally:
        if worker_process is not None:
            _stop_worker(worker_process)
        if embedded is not None:
            embedded.stop()
            if embedded.lost:
                raise SystemExit(f"meeple: the embedded store died and could not be started again in "
                                 f"{config.store_restart_seconds:g} s; see {embedded.data_dir / 'redis.log'}")


def _stop_worker(process: subprocess.Popen[bytes]) -> None:
    """Ask the worker to stop once its job ends; past WORKER_STOP_SECONDS, ask again, which makes RQ kill the job."""
    process.terminate()
    try:
        process.wait(timeout=WORKER_STOP_SECONDS)
    except subprocess.TimeoutExpired:
        process.terminate()
        process.wait()


def _background_child() -> None:
    """Make the worker beside the API die with it and yield the CPU to it."""
    # bots thinking and the reactor's sweeps never slow the answers on a machine the two share
    die_with_parent()
    os.nice(WORKER_NICENESS)


def worker(args: argparse.Namespace) -> None:
    """Become the workers' process (`python -m workers`): the reactor and an RQ worker with its scheduler."""
    os.execv(sys.executable, WORKER)


def _read(command: str, path: str) -> GameLog:
    from events.errors import LogInvalid
    from events.log_file import read_log

    try:
        with open(path, encoding="utf-8") as file:
            return read_log(file)
    except (OSError, UnicodeDecodeError, LogInvalid) as error:
        raise SystemExit(f"meeple {command}: {path}: {error}") from None


def replay(args: argparse.Namespace) -> None:
    """Print a game from its exported log, offline, at a version and as a seat sees it."""
    log = _read("replay", args.file)
    version = len(log.events) if args.to is None else args.to
    if not 0 <= version <= len(log.events):
        raise SystemExit(f"meeple replay: --to must be from 0 to {len(log.events)}")
    if args.as_seat is not None and not 0 <= args.as_seat < log.seats:
        raise SystemExit(f"meeple replay: --as must be a seat from 0 to {log.seats - 1}")
    state = log.game.replay(log.game.parse_options(log.options, log.seats), log.seats, log.events[:version])
    print(f"{log.game.title}, {log.seats} seats ({', '.join(log.names)}), version {version} of {len(log.events)}")
    print(log.game.render(state, args.as_seat))


def verify(args: argparse.Namespace) -> None:
    """Check a finished game's log offline as the import does: every command decided again (format 2), or
    each event against the state before it (format 1, the old way); exit 1 naming what does not hold,
    and 2 for a log of format 1 that holds: it could be checked only the old way."""
    from application.deadlines import early_deadline

    log = _read("verify", args.file)
    problems = log.problems or tuple(filter(None, [early_deadline(log)]))
    for version, problem in problems:
        print(f"{args.file}: version {version} ({log.envelopes[version - 1]['type']}): {problem}")
    if problems:
        raise SystemExit(1)
    if log.checked() == "redecided":
        print(f"{args.file}: verified - {len(log.events)} events, {len(log.causes)} commands; every payload is of its "
              "event's type, and every command, decided again from the start with the chance the log records (each "
              "shuffle's order and salt, each die), gives exactly the log's events: so every shuffle matches its "
              "commitment, every card came from the committed order and the result is the rules'; and, with a time control, "
              "every deadline's move came once its seat's time had run out, its clock worked out from the log as the live game's. "
              "The commitments are the log's own: whoever writes a whole log chooses its shuffles too, so compare them with "
              "those you saw while the game was played")
    else:
        print(f"{args.file}: verified the old way - {len(log.events)} events; every payload is of its event's type, "
              "every shuffle matches its commitment and every card came from the committed order; the log is of "
              "format 1, which records no commands, so none was decided again: a forged order of real events may pass "
              "this check (exit status 2)")
        raise SystemExit(2)


def ratings(args: argparse.Namespace) -> None:
    """Rebuild every rating from the finished games the store at MEEPLE_REDIS_URL holds."""
    from redis.exceptions import LockError

    from application.ratings import rebuild
    from events.execute import Executor
    from runtime import connections

    config = Config.from_env()
    if config.redis_url is None:
        raise SystemExit("meeple ratings: set MEEPLE_REDIS_URL to the store `meeple serve` uses")
    try:
        counted = rebuild(Executor(connections.event_store(config, connections.store_client(config))), config.provisional_sigma)
    except LockError as error:
        raise SystemExit(f"meeple ratings: {error}; the games swapped before stay rebuilt: run it again") from error
    print(f"meeple ratings: rebuilt from {counted} rated results (and the keys of the ratings as kept before each game "
          "had its slot deleted)")


def openapi(args: argparse.Namespace) -> None:
    """Print the API's OpenAPI document, as openapi.yaml holds it (and /openapi.yaml serves it)."""
    from service.contract import spec

    sys.stdout.write(spec.as_yaml())


def main(argv: list[str] | None = None) -> None:
    try:
        settings = Config.from_env()
    except ValueError as error:  # a setting that cannot be read, or settings that do not go together
        raise SystemExit(f"meeple: {error}") from None
    parser = argparse.ArgumentParser(prog="meeple", description="Meeple, an event-sourced game server.")
    commands = parser.add_subparsers(dest="command", required=True)
    serve_parser = commands.add_parser("serve", help="serve the HTTP API (and the embedded store when needed)")
    serve_parser.add_argument("--host", default="127.0.0.1")
    serve_parser.add_argument("--port", type=int, default=8000)
    serve_parser.add_argument("--workers", type=int, default=int(os.environ.get("MEEPLE_WORKERS", 2)))
    serve_parser.add_argument("--connections", type=int, default=settings.connections,
                              help="open connections per process, event streams included")
    serve_parser.add_argument("--data-dir", help="the embedded store's folder (default ./var)")
    serve_parser.add_argument("--access-log", action="store_true", help="log every request to stdout")
    serve_parser.add_argument("--no-worker", action="store_true", help="serve the API only (run `meeple worker` apart)")
    serve_parser.set_defaults(run=serve)
    worker_parser = commands.add_parser("worker", help="run AI seats and other reactions (needs MEEPLE_REDIS_URL)")
    worker_parser.set_defaults(run=worker)
    replay_parser = commands.add_parser("replay", help="print a game from an exported log, offline")
    replay_parser.add_argument("file", help="a log from GET /v1/games/{id}/export")
    replay_parser.add_argument("--to", type=int, help="the version to show (default: the last)")
    replay_parser.add_argument("--as", dest="as_seat", type=int, help="show what this seat sees (default: a spectator)")
    replay_parser.set_defaults(run=replay)
    verify_parser = commands.add_parser("verify", help="decide an exported log's commands again, offline: exit 0 if it holds, 1 at the first "
                                       "difference, 2 for a log of format 1 that holds, checked only the old way")
    verify_parser.add_argument("file", help="a finished game's log from GET /v1/games/{id}/export")
    verify_parser.set_defaults(run=verify)
    ratings_parser = commands.add_parser("ratings", help="rebuild the ratings from the stored finished games (needs MEEPLE_REDIS_URL)")
    ratings_parser.add_argument("action", choices=["rebuild"])
    ratings_parser.set_defaults(run=ratings)
    openapi_parser = commands.add_parser("openapi", help="print the API's OpenAPI document (openapi.yaml)")
    openapi_parser.set_defaults(run=openapi)
    args = parser.parse_args(argv)
    args.run(args)


if __name__ == "__main__":
    main(sys.argv[1:])
