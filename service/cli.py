"""The `meeple` command."""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
from typing import Any

from gunicorn.app.base import BaseApplication

from service.config import Config
from service.embedded import EmbeddedRedis


class _Gunicorn(BaseApplication):  # type: ignore[misc]
    """Gunicorn serving the API, configured from the command line rather than a file."""

    def __init__(self, config: Config, settings: dict[str, Any]) -> None:
        self.meeple_config = config
        self.settings = settings
        super().__init__()

    def load_config(self) -> None:
        for name, value in self.settings.items():
            self.cfg.set(name, value)

    def load(self) -> Any:
        from service.app import create_app

        return create_app(self.meeple_config)


def serve(args: argparse.Namespace) -> None:
    """Serve the API; with no MEEPLE_REDIS_URL, on the embedded store under --data-dir."""
    config = Config.from_env()
    if args.data_dir:
        config = dataclasses.replace(config, data_dir=args.data_dir)
    embedded = None
    if config.redis_url is None:
        embedded = EmbeddedRedis(config.data_dir)
        config = dataclasses.replace(config, redis_url=embedded.start())
        print(f"meeple: embedded store at {embedded.url}, data in {embedded.data_dir}", flush=True)
    try:
        _Gunicorn(config, {
            "bind": f"{args.host}:{args.port}",
            "workers": args.workers,
            "threads": args.threads,
            "worker_class": "gthread",
            "accesslog": "-" if args.access_log else None,
            "graceful_timeout": 10,
            "control_socket_disable": True,
        }).run()
    finally:
        if embedded is not None:
            embedded.stop()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="meeple", description="Meeple, an event-sourced game server.")
    commands = parser.add_subparsers(dest="command", required=True)
    serve_parser = commands.add_parser("serve", help="serve the HTTP API (and the embedded store when needed)")
    serve_parser.add_argument("--host", default="127.0.0.1")
    serve_parser.add_argument("--port", type=int, default=8000)
    serve_parser.add_argument("--workers", type=int, default=int(os.environ.get("MEEPLE_WORKERS", 2)))
    serve_parser.add_argument("--threads", type=int, default=int(os.environ.get("MEEPLE_THREADS", 8)))
    serve_parser.add_argument("--data-dir", help="the embedded store's folder (default ./var)")
    serve_parser.add_argument("--access-log", action="store_true", help="log every request to stdout")
    serve_parser.set_defaults(run=serve)
    args = parser.parse_args(argv)
    args.run(args)


if __name__ == "__main__":
    main(sys.argv[1:])
