"""Forks, rematches and imports, called as the API calls them."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from application import copies
from application.errors import Invalid, NotNow, NotReached, TooLong, Unreadable
from application.lobby import Bot, GameSettings, Lobby
from domain import GAMES
from events import keys
from events.envelope import Lifecycle, Origin
from events.log_file import export_lines, read_log
from events.store import EventStore
from tests.application.conftest import Asking, finished_game, full_game
from tests.logs import genuine_export


def opening_and_end(lobby: Lobby, game_id: str) -> tuple[int, int]:
    """The version at which the game's opening ends, and its last."""
    read = lobby.executor.store.streams.read(game_id)
    return max(e.version for e in read if e.actor == "system"), read[-1].version


def test_a_fork_opens_with_its_origins_events_up_to_the_version(lobby: Lobby) -> None:
    origin = lobby.executor.store.games.get(finished_game(lobby))
    opening, _ = opening_and_end(lobby, origin.id)
    opened = copies.fork(lobby, origin, opening, GameSettings(bots=(Bot(0, "random"), Bot(1, "random"))), Asking())
    fork = lobby.executor.store.games.get(opened.game_id)
    assert fork.forked_from == Origin(origin.id, opening, ("ann", "bo")) and fork.status is Lifecycle.ACTIVE
    assert fork.names == ("random bot", "random bot")  # the copied opening is credited to the origin's players
    copied = lobby.executor.store.streams.read(fork.id)
    assert [e.payload for e in copied[:opening]] == [e.payload for e in lobby.executor.store.streams.read(origin.id)[:opening]]
    assert {e.actor for e in copied} == {"fork"}


def test_a_fork_recorded_before_forks_kept_their_origins_names_reads_with_none(lobby: Lobby) -> None:
    origin = lobby.executor.store.games.get(finished_game(lobby))
    opening, _ = opening_and_end(lobby, origin.id)
    fork_id = copies.fork(lobby, origin, opening, GameSettings(), Asking()).game_id
    lobby.executor.store.redis.hset(keys.meta(fork_id), "forked_from", json.dumps({"game_id": origin.id, "version": opening}))
    assert lobby.executor.store.games.get(fork_id).forked_from == Origin(origin.id, opening)


@pytest.mark.parametrize(("where", "refusal", "code"), [
    (lambda opening, end: opening - 1, Invalid, "not_a_move_boundary"),
    (lambda opening, end: end, Invalid, "game_over_at_version"),
    (lambda opening, end: end + 1, NotReached, "version_not_found"),
])
def test_a_fork_inside_a_move_at_the_end_or_past_it_is_refused(
        lobby: Lobby, where: Callable[[int, int], int], refusal: type[Exception], code: str) -> None:
    origin = lobby.executor.store.games.get(finished_game(lobby))
    version = where(*opening_and_end(lobby, origin.id))
    caller = Asking()
    with pytest.raises(refusal) as refused:
        copies.fork(lobby, origin, version, GameSettings(), caller)
    assert refused.value.code == code and caller.games == 0  # type: ignore[attr-defined]


def test_a_game_in_play_is_forked_by_the_admin_only(lobby: Lobby) -> None:
    origin = lobby.executor.store.games.get(full_game(lobby))
    with pytest.raises(NotNow) as refused:
        copies.fork(lobby, origin, origin.version, GameSettings(), Asking())
    assert refused.value.code == "game_not_finished"
    opened = copies.fork(lobby, origin, origin.version, GameSettings(), Asking(admin=True))
    assert lobby.executor.store.games.get(opened.game_id).forked_from == Origin(origin.id, origin.version, ("ann", "bo"))


def test_a_rematch_rotates_the_seats_reserving_each_players_and_is_made_once(lobby: Lobby) -> None:
    origin = lobby.executor.store.games.get(finished_game(lobby))
    caller = Asking()
    opened = copies.rematch(lobby, origin, 0, caller)
    rematch = lobby.executor.store.games.get(opened.game_id)
    assert (opened.creator, opened.new) == ("ann", True)
    assert rematch.reserved == {1: "ann", 0: "bo"} and rematch.rematch_of == origin.id and rematch.unlisted
    assert rematch.status is Lifecycle.WAITING and opened.game_id in lobby.players.games("bo")
    assert (caller.games, caller.strangers) == (1, [])
    again = copies.rematch(lobby, lobby.executor.store.games.get(origin.id), 1, caller)
    assert (again.game_id, again.creator, again.new, caller.games) == (opened.game_id, "bo", False, 1)


def test_a_rematch_keeps_each_ai_moved_on_by_a_seat(lobby: Lobby) -> None:
    game_id = lobby.open("taki", {}, 2, GameSettings(bots=(Bot(1, "random"),)), Asking()).game_id
    lobby.join(game_id, 0, "Ann", player_id="ann")
    lobby.executor.execute(game_id, GAMES["taki"].forfeit_command(0), actor="seat:0")
    opened = copies.rematch(lobby, lobby.executor.store.games.get(game_id), 0, Asking())
    rematch = lobby.executor.store.games.get(opened.game_id)
    assert rematch.bots == ("random", None) and rematch.reserved == {1: "ann"}


def test_a_rematch_of_a_game_in_play_is_refused(lobby: Lobby) -> None:
    origin = lobby.executor.store.games.get(full_game(lobby))
    caller = Asking()
    with pytest.raises(NotNow) as refused:
        copies.rematch(lobby, origin, 0, caller)
    assert refused.value.code == "game_not_finished" and caller.games == 0


def test_an_imported_log_is_a_finished_game_of_its_events(store: EventStore) -> None:
    lines = genuine_export("taki", 2, 3, old=True)
    log = copies.checked_log("\n".join(lines).encode(), max_events=10_000)
    record = store.games.get(copies.import_log(store, log, "ann"))
    assert (record.status, record.imported, record.creator, record.original_id) == (Lifecycle.FINISHED, True, "ann", "original3")
    assert record.version == len(lines) - 1 and record.names == ("player 0", "player 1") and not record.unlisted
    stored = store.streams.read(record.id)
    # the old form writes every line with command "c" by "seat:0": one move, its actor kept, its cause unknown
    assert {e.actor for e in stored} == {"seat:0"} and {e.command_id for e in stored} == {stored[0].command_id} != {"c"}
    assert {e.cause for e in stored} == {None}


def test_an_imported_log_keeps_each_command_its_actor_and_its_cause(store: EventStore) -> None:
    lines = genuine_export("taki", 2, 3)
    log = copies.checked_log("\n".join(lines).encode(), max_events=10_000)
    stored = store.streams.read(copies.import_log(store, log, "ann"))
    written = [json.loads(line) for line in lines[1:]]
    assert [(e.actor, e.cause) for e in stored] == [(line["actor"], line.get("command")) for line in written]
    assert len({e.command_id for e in stored}) == len({line["command_id"] for line in written}) == len(log.causes)


def test_the_import_of_an_unlisted_games_log_is_unlisted_and_names_no_origin(store: EventStore) -> None:
    header, *events = genuine_export("taki", 2, 3)
    private = {key: value for key, value in json.loads(header).items() if key != "id"} | {"unlisted": True}
    log = copies.checked_log("\n".join([json.dumps(private), *events]).encode(), max_events=10_000)
    record = store.games.get(copies.import_log(store, log, None))
    assert record.unlisted and record.original_id is None


@pytest.mark.parametrize(("body", "refusal", "detail"), [
    (b"\xff\xfe", Unreadable, "The log is not UTF-8 text."),
    ("\n".join(genuine_export("taki", 2, 3)[:-3]).encode(), Invalid, "Only the log of a finished game can be imported."),
    ("\n".join(genuine_export("taki", 2, 3)[:1]).encode(), Invalid, "Only the log of a finished game can be imported."),
])
def test_a_log_that_is_not_text_or_not_of_a_finished_game_is_refused(
        body: bytes, refusal: type[Exception], detail: str) -> None:
    with pytest.raises(refusal) as refused:
        copies.checked_log(body, max_events=10_000)
    assert (refused.value.code, refused.value.detail) == ("invalid_log", detail)  # type: ignore[attr-defined]


def test_a_log_longer_than_the_server_imports_is_refused_with_the_limit() -> None:
    with pytest.raises(TooLong) as refused:
        copies.checked_log("\n".join(genuine_export("taki", 2, 3)).encode(), max_events=4)
    assert refused.value.code == "log_too_long" and refused.value.extra == {"limit": 4}


def test_a_log_with_an_event_the_rules_would_not_write_is_refused_naming_it() -> None:
    header, *events = genuine_export("taki", 2, 3)
    last = json.loads(events[-1])
    events[-1] = json.dumps(last | {"payload": {"ranking": [[7]], "reason": "won"}})
    with pytest.raises(Invalid) as refused:
        copies.checked_log("\n".join([header, *events]).encode(), max_events=10_000)
    assert refused.value.code == "invalid_log" and refused.value.extra == {"event": last["version"]}


def test_a_fork_of_a_fork_exports_a_log_whose_copied_opening_and_fresh_deals_are_decided_again(lobby: Lobby) -> None:
    origin = lobby.executor.store.games.get(finished_game(lobby))
    read = lobby.executor.store.streams.read(origin.id)
    ends = [e.version for e, after in zip(read, read[1:], strict=False) if e.command_id != after.command_id]
    bots = GameSettings(bots=(Bot(0, "random"), Bot(1, "random")))
    first = lobby.executor.store.games.get(copies.fork(lobby, origin, ends[len(ends) // 3], bots, Asking()).game_id)
    second = copies.fork(lobby, first, first.version, bots, Asking(admin=True)).game_id
    record, copied = lobby.executor.store.games.get(second), lobby.executor.store.streams.read(second)
    assert [e.cause for e in copied if e.cause == "redeal"] == ["redeal", "redeal"] and {e.actor for e in copied} == {"fork"}
    log = read_log("".join(export_lines(record, copied)).splitlines(), first_problem=True)
    assert log.checked() == "redecided" and log.problems == ()


def test_an_import_stores_each_command_as_the_game_encodes_what_it_decoded_not_the_logs_own_json(lobby: Lobby) -> None:
    header, *lines = [json.loads(line) for line in genuine_export("taki", 2, 1, {})]
    plays = [line for line in lines if isinstance(line.get("command"), dict) and line["command"]["type"] == "play"]
    for line in plays:
        del line["command"]["payload"]["close_taki"]  # a field the command's default fills
    log = copies.checked_log("\n".join(json.dumps(line) for line in [header, *lines]).encode(), max_events=10_000)
    stored = lobby.executor.store.streams.read(copies.import_log(lobby.executor.store, log, None))
    causes = [e.cause for e in stored if isinstance(e.cause, dict) and e.cause["type"] == "play"]
    assert len(causes) == len(plays) and all(cause["payload"]["close_taki"] is None for cause in causes)
    assert stored[0].cause == "setup"


def test_a_command_in_a_log_with_a_key_beside_its_type_schema_version_and_payload_is_refused() -> None:
    header, *lines = [json.loads(line) for line in genuine_export("taki", 2, 1, {})]
    caused = next(line for line in lines if isinstance(line.get("command"), dict))
    caused["command"]["note"] = "x" * 1000
    with pytest.raises(Invalid, match="and nothing else") as refused:
        copies.checked_log("\n".join(json.dumps(line) for line in [header, *lines]).encode(), max_events=10_000)
    assert refused.value.extra["event"] == caused["version"]
