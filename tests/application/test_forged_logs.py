"""Forged logs: genuine exports of every game (with variants) with events swapped, moved,
duplicated or dropped, runs repeated, payloads traded, versions renumbered so there is no gap.
Each is refused naming an event, by the import and by `meeple verify` alike, or is itself a game
the rules produce: deciding its commands again, here, gives its events."""

from __future__ import annotations

import argparse
import contextlib
import copy
import functools
import io
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

from application import copies
from application.errors import Invalid
from cli.main import verify
from domain import GAMES
from domain.core.rng import ReplayingRng, SeededRng
from events.envelope import Envelope, GameRecord, Lifecycle
from events.execute import recorded
from events.log_file import export_lines
from tests.logs import GENUINE, entries, genuine_export, joined

MUTATIONS = 1000  # per game, shared among CHUNKS tests so that `pytest -n` spreads them over the cores
CHUNKS = 4
KINDS = ("swap", "move", "duplicate", "drop", "repeat_run", "trade_payloads", "swap_runs",
         "redeal", "move_setup", "rewrite_actor", "change_seat")
OWN_ACTORS = ("system", "fork", "import")


@functools.cache
def exports(name: str) -> tuple[tuple[str, tuple[dict[str, Any], ...]], ...]:
    """The genuine exports of `name` the forgeries are made of: every variant the suite exports."""
    return tuple((header, tuple(events)) for header, events in
                 (entries(genuine_export(name, seats, seed, options)) for seats, seed, options in GENUINE[name]))


def runs(events: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """The lines by the command that caused them, in order."""
    found: list[list[dict[str, Any]]] = []
    for event in events:
        if found and found[-1][-1]["command_id"] == event["command_id"]:
            found[-1].append(event)
        else:
            found.append([event])
    return found


@st.composite
def forgeries(draw: st.DrawFn, name: str) -> tuple[str, list[dict[str, Any]], str]:
    """A genuine export of `name` with one mutation of the forger's kinds, versions renumbered: (header, lines, kind)."""
    header, genuine = draw(st.sampled_from(exports(name)))
    events, kind = copy.deepcopy(list(genuine)), draw(st.sampled_from(KINDS))
    at = draw(st.integers(0, len(events) - 1))
    to = draw(st.integers(0, len(events) - 1))
    if kind == "swap":
        events[at], events[to] = events[to], events[at]
    elif kind == "move":
        events.insert(to, events.pop(at))
    elif kind == "duplicate":
        events.insert(to, copy.deepcopy(events[at]))
    elif kind == "drop":
        del events[at]
    elif kind == "repeat_run":
        length = draw(st.integers(1, 8))
        events[to:to] = copy.deepcopy(events[at:at + length])
    elif kind == "trade_payloads":
        events[at]["payload"], events[to]["payload"] = events[to]["payload"], events[at]["payload"]
    elif kind in ("redeal", "move_setup", "rewrite_actor", "change_seat"):
        events = recaused(draw, json.loads(header)["seats"], runs(events), kind, at)
    else:
        moves = runs(events)
        first, second = sorted((at % len(moves), to % len(moves)))
        moves[first], moves[second] = moves[second], moves[first]
        events = [event for move in moves for event in move]
    for version, event in enumerate(events, start=1):
        event["version"] = version
    return header, events, kind


def recaused(draw: st.DrawFn, seats: int, moves: list[list[dict[str, Any]]], kind: str, at: int) -> list[dict[str, Any]]:
    """The lines of `moves` with one run's cause or actor rewritten, as a forger would: called the
    game's own redeal, the setup moved among the moves, its actor another's, its command another seat's."""
    move = moves[at % len(moves)]
    if kind == "redeal":
        move[0]["command"] = "redeal"
        actor = draw(st.sampled_from(OWN_ACTORS))
    elif kind == "move_setup":
        moves.insert(at % len(moves), moves.pop(0))
        return [event for run in moves for event in run]
    elif kind == "rewrite_actor":
        seat = draw(st.integers(0, seats - 1))
        actor = draw(st.sampled_from((*OWN_ACTORS, f"deadline:{seat}", f"seat:{seat}", f"bot:{seat}")))
    else:
        cause, actor = move[0].get("command"), move[0]["actor"]
        if isinstance(cause, dict) and "seat" in cause["payload"]:
            cause["payload"]["seat"] = draw(st.integers(0, seats - 1))
    for event in move:
        event["actor"] = actor
    return [event for run in moves for event in run]


def caused_by(game: Any, state: Any, clocked: bool, copied: bool, number: int, run: list[dict[str, Any]]) -> Any:
    """What a run's first line says caused it, where live play could: the setup first, by the system or a
    fork's copy; a redeal only in a fork's copied opening; a seat's command by its seat, its AI, its
    deadline (with a clock, or a deadline the rules set) or a fork's copy. None where live play could not."""
    cause, actor = run[0].get("command"), run[0].get("actor")
    if cause == "setup":
        return cause if number == 0 and actor in OWN_ACTORS else None
    if cause == "redeal" or number == 0 or not isinstance(cause, dict) or set(cause) - {"type", "schema_version", "payload"}:
        return cause if cause == "redeal" and number > 0 and actor == "fork" and copied else None
    command = game.commands.decode(cause["type"], cause["schema_version"], cause["payload"])
    if actor == "fork":
        return command if copied else None
    if actor == f"deadline:{command.seat}":
        return command if clocked or game.response_seconds(state) is not None else None
    return command if actor in (f"seat:{command.seat}", f"bot:{command.seat}") else None


def produced_by_the_rules(header: str, events: list[dict[str, Any]]) -> tuple[bool, bool]:
    """Whether deciding each run's command again, on the state the runs before it leave, with the
    chance its events record, gives its lines' events exactly; and whether the game ends with the last."""
    opening = json.loads(header)
    game, seats = GAMES[opening["game"]], opening["seats"]
    options = game.parse_options(opening["options"], seats)
    state, copied = game.initial(options, seats), True
    for number, run in enumerate(runs(events)):
        copied = copied and run[0].get("actor") == "fork"
        try:
            recorded = [game.events.decode(e["type"], e["schema_version"], e["payload"]) for e in run]
            rng = ReplayingRng([drawn for event in recorded for drawn in game.chance(event)])
            cause = caused_by(game, state, "clock" in opening, copied, number, run)
            if cause == "setup":
                decided = game.setup(options, seats, rng)
            elif cause == "redeal":
                decided = game.redeal(state, rng)
            else:
                decided = game.decide(state, cause, rng)
        except Exception:  # noqa: BLE001 - whatever the rules refuse, they do not produce
            return False, False
        written = [game.events.encode(event) for event in decided]
        if json.loads(json.dumps(written)) != [[e["type"], e["schema_version"], e["payload"]] for e in run]:
            return False, False
        for event in recorded:
            state = game.evolve(state, event)
    return True, game.status(state).finished


def verified(tmp: Path, body: bytes) -> tuple[int, str]:
    """`meeple verify` on a log: its exit status and what it printed."""
    path = tmp / "forged.jsonl"
    path.write_bytes(body)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        try:
            verify(argparse.Namespace(file=str(path)))
        except SystemExit as exit:
            return exit.code if isinstance(exit.code, int) else 1, printed.getvalue() + ("" if isinstance(exit.code, int) else str(exit.code))
    return 0, printed.getvalue()


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("name", sorted(GENUINE))
def test_a_forged_log_is_refused_naming_an_event_or_is_a_game_the_rules_produce(
        name: str, chunk: int, tmp_path_factory: pytest.TempPathFactory) -> None:
    tmp = tmp_path_factory.mktemp("forged")

    @seed(chunk)
    @settings(max_examples=MUTATIONS // CHUNKS, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(forgery=forgeries(name))
    def check(forgery: tuple[str, list[dict[str, Any]], str]) -> None:
        header, events, kind = forgery
        body = joined(header, events)
        produced, finished = produced_by_the_rules(header, events)
        status, printed = verified(tmp, body)
        try:
            copies.checked_log(body, max_events=10_000)
        except Invalid as refused:
            if "event" not in refused.extra:  # a game the rules produce, cut at the end of a move before its end
                assert produced and not finished and refused.detail.startswith("Only the log of a finished game"), kind
                return
            assert refused.code == "invalid_log" and 1 <= refused.extra["event"] <= len(events), (kind, refused.detail)
            assert status == 1, (kind, refused.detail, printed)
            return
        assert produced and finished, kind  # accepted: the rules produce it
        assert status == 0 and "every command, decided again" in printed, printed

    check()


def test_every_genuine_export_of_the_suite_imports_and_verifies_with_every_command_decided_again(tmp_path: Path) -> None:
    for name in GENUINE:
        for header, events in exports(name):
            body = joined(header, list(events))
            assert copies.checked_log(body, max_events=10_000).checked() == "redecided"
            status, printed = verified(tmp_path, body)
            assert status == 0 and f"{len(events)} events, {len(runs(list(events)))} commands" in printed, printed


@pytest.mark.parametrize("name", sorted(GENUINE))
def test_a_log_of_the_previous_format_imports_and_verifies_checked_the_old_way(name: str, tmp_path: Path) -> None:
    seats, seed, options = GENUINE[name][0]
    lines = genuine_export(name, seats, seed, options, old=True)
    assert json.loads(lines[0])["format_version"] == 1 and "command" not in json.loads(lines[1])
    assert copies.checked_log("\n".join(lines).encode(), max_events=10_000).checked() == "events"
    status, printed = verified(tmp_path, "\n".join(lines).encode())
    assert status == 2 and "verified the old way" in printed and "none was decided again" in printed, printed


class Stacked(SeededRng):
    """The forger's chance: every shuffle leaves the cards in the order they are given."""

    def shuffled(self, items: Any) -> Any:
        return tuple(items)


def with_deals_midgame(actor: str) -> bytes:
    """A TAKI log that redeals, under `actor`, the forger's chosen deal three times in its play."""
    game, chooser, rng = GAMES["taki"], random.Random(5), SeededRng(5)
    parsed = game.parse_options({}, 2)
    events, runs_at = list(game.setup(parsed, 2, rng)), [(1, "system", "setup")]
    state = game.replay(parsed, 2, events)
    while not (status := game.status(state)).finished:
        if len(runs_at) in (6, 12, 18) and (deal := game.redeal(state, Stacked(1))):
            runs_at.append((len(events) + 1, actor, "redeal"))
            for event in deal:
                state, _ = game.evolve(state, event), events.append(event)
        command = chooser.choice(game.legal_commands(state, chooser.choice(status.to_move)))
        runs_at.append((len(events) + 1, f"seat:{command.seat}", recorded(game, command)))
        for event in game.decide(state, command, rng):
            state, _ = game.evolve(state, event), events.append(event)
    record = GameRecord("forged", "taki", {}, 2, Lifecycle.FINISHED, len(events), 0, ("a", "b"), (None, None))
    starts = {first: (index, by, cause) for index, (first, by, cause) in enumerate(runs_at)}
    envelopes, current = [], starts[1]
    for version, event in enumerate(events, 1):
        current = starts.get(version, (current[0], current[1], None))
        envelopes.append(Envelope(record.id, version, *game.events.encode(event), f"c{current[0]}", current[1], 0, current[2]))
    return "".join(export_lines(record, envelopes)).encode()


@pytest.mark.parametrize("actor", ["system", "fork"])
def test_a_deal_of_the_forgers_choosing_in_the_midst_of_play_is_refused(actor: str, tmp_path: Path) -> None:
    body = with_deals_midgame(actor)
    with pytest.raises(Invalid, match="fork") as refused:
        copies.checked_log(body, max_events=10_000)
    assert refused.value.extra["event"] > 1 and verified(tmp_path, body)[0] != 0


@pytest.mark.parametrize(("actor", "why"), [
    ("fork", "only the runs a fork opens with"),  # a fork's copy in the midst of play
    ("deadline:1", "no time control"),  # its deadline's, in a game with no clock where the rules set none
    ("deadline:0", "is not caused by 'deadline:0'"),  # another seat's deadline
    ("system", "is not caused by 'system'"),
])
def test_a_seats_move_in_the_midst_of_play_under_another_actor_is_refused(actor: str, why: str) -> None:
    header, events = entries(genuine_export("taki", 2, 1, {}))
    assert "clock" not in json.loads(header)
    moved = next(e["command_id"] for e in events[30:] if e.get("actor") == "seat:1" and "command" in e)
    for event in events:
        if event["command_id"] == moved:
            event["actor"] = actor
    with pytest.raises(Invalid, match=why):
        copies.checked_log(joined(header, events), max_events=10_000)
