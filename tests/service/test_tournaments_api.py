"""Tournaments over the API: created by a registered player, listed or unlisted, invitations,
signing up and withdrawing, AI entrants from the creator, every refusal as problem+json, and the
live stream of a tournament; on fakeredis and on a real Redis server alike."""

from __future__ import annotations

import json
import random
import time
from typing import Any

import pytest
import redis

from application import invitees, tournament_rounds
from application.letters import compose
from application.outbox import Mail
from application.tournaments import MAX_INVITATIONS
from domain.tournaments.pairing import Round, Table
from events import clock, keys
from events.execute import Executor
from events.store import EventStore
from events.tournaments import Entrant, Stage, TableResult, Tournaments
from players.invitations import met
from service.api.tournaments import change
from service.app import create_app
from tests.contract import ContractClient
from tests.service.conftest import unlimited
from tests.service.test_games_api import bearer
from tests.service.test_players_api import register
from tests.sse import messages, until


@pytest.fixture
def api(client: redis.Redis) -> ContractClient:  # type: ignore[type-arg]
    return ContractClient(create_app(unlimited(stream_heartbeat_ms=200), client=client).test_client())


def body(**settings: Any) -> dict[str, Any]:
    return {"name": "Friday cup", "game": "djambi", "seats": 4, "format": "swiss", "rounds": 3,
            "starts": int(time.time() * 1000) + 3_600_000, "turn_deadline": {"seconds": 86400, "policy": "forfeit"}} | settings


def create(api: ContractClient, token: str, **settings: Any) -> Any:
    return api.post("/v1/tournaments", json=body(**settings), headers=bearer(token))


def listed(api: ContractClient, token: str | None = None) -> list[str]:
    return [each["id"] for each in api.get("/v1/tournaments", headers=bearer(token) if token else {}).json["tournaments"]]


def test_a_registered_player_creates_a_tournament_that_lists_and_reads_with_its_rules(api: ContractClient) -> None:
    ann = register(api, "ann")
    created = create(api, ann["token"])
    assert created.status_code == 201 and created.headers["Location"].endswith(f"/v1/tournaments/{created.json['id']}")
    tournament = api.get(f"/v1/tournaments/{created.json['id']}").json
    assert (tournament["stage"], tournament["creator"], tournament["rounds"], tournament["entrants"]) == (
        "signing_up", ann["id"], 3, [])
    assert any("Buchholz" in rule and "a bye adds nothing" in rule for rule in tournament["rules"])
    assert any("ends early" in rule for rule in tournament["rules"]) and any("bye in your place" in rule for rule in tournament["rules"])
    assert any(rule.startswith("A Swiss's round 1 is seeded") for rule in tournament["rules"])  # its format's pairing only
    assert not any("round robin meets" in rule for rule in tournament["rules"])
    assert listed(api) == [created.json["id"]]
    robin = api.get(f"/v1/tournaments/{create(api, ann['token'], format='round_robin', rounds=None).json['id']}").json
    pairing = [rule for rule in robin["rules"] if "Swiss's round 1" in rule or "round robin meets" in rule]
    assert len(pairing) == 1 and pairing[0].startswith("A round robin meets every pair")


def test_the_list_pages_the_open_tournaments_by_cursor_and_apart_those_that_ended(
        api: ContractClient, client: redis.Redis) -> None:  # type: ignore[type-arg]
    ann, bo = register(api, "ann"), register(api, "bo")
    made = [create(api, ann["token"], starts=int(time.time() * 1000) + hours * 3_600_000).json["id"] for hours in range(1, 5)]

    def pages(token: str | None = None, stage: str = "open") -> list[list[str]]:
        found, cursor = [], None
        while True:
            page = api.get(f"/v1/tournaments?stage={stage}&limit=2" + (f"&cursor={cursor}" if cursor else ""),
                           headers=bearer(token) if token else {}).json
            found.append([each["id"] for each in page["tournaments"]])
            if (cursor := page["next"]) is None:
                return found
            if len(found) == 1 and stage == "open" and token is None:  # one more, starting last: it repeats nothing
                made.append(create(api, ann["token"], starts=int(time.time() * 1000) + 5 * 3_600_000).json["id"])

    assert pages() == [made[3:1:-1], made[1::-1]]
    assert api.post(f"/v1/tournaments/{made[0]}/entrants", headers=bearer(bo["token"])).status_code == 201
    assert pages(bo["token"]) == [[made[0], made[4], made[3]], made[2:0:-1], []]  # bo's own first, and only there
    tournaments = Tournaments(client)
    for ended in made[:2]:
        tournaments.begin(ended)
    time.sleep(0.005)  # the ends are ordered by the store's clock
    tournaments.end(made[0], Stage.CANCELLED)
    client.hset(keys.tournament(made[1]), "stage", Stage.FINISHED)  # ended in an older store, never filed apart
    assert pages() == [made[4:2:-1], [made[2]]]  # an ended one is passed over where it is still filed
    assert tournaments.refile_ended() == 1 and tournaments.refile_ended() == 0  # filed once, by the workers' sweep
    assert pages(stage="ended") == [made[:2]]  # by their last change: made[1]'s start came before made[0]'s end
    wrong = api.get("/v1/tournaments?stage=over&cursor=nonsense")
    assert (wrong.status_code, sorted(wrong.json["errors"])) == (422, ["cursor", "stage"])


def test_an_unlisted_tournament_is_listed_only_for_those_it_invites_and_who_sign_up(api: ContractClient) -> None:
    ann, bo, cy = register(api, "ann"), register(api, "bo"), register(api, "cy")
    created = create(api, ann["token"], unlisted=True, invited=[bo["id"]]).json
    assert listed(api) == [] and listed(api, bo["token"]) == [created["id"]] and listed(api, cy["token"]) == []
    assert api.post(f"/v1/tournaments/{created['id']}/entrants", headers=bearer(cy["token"])).status_code == 201
    assert listed(api, cy["token"]) == [created["id"]]  # its link is enough to sign up


def test_an_invited_player_declines_and_the_tournament_leaves_their_list(api: ContractClient) -> None:
    ann, bo = register(api, "ann"), register(api, "bo")
    created = create(api, ann["token"], unlisted=True, invited=[bo["id"]]).json
    assert api.get("/v1/tournaments", headers=bearer(bo["token"])).json["tournaments"][0]["invited"] is True
    declined = f"/v1/players/me/tournament-invitations/{created['id']}"
    assert api.delete(declined, headers=bearer(bo["token"])).status_code == 204
    assert listed(api, bo["token"]) == []
    again = api.delete(declined, headers=bearer(bo["token"]))
    assert (again.status_code, again.json["code"]) == (404, "tournament_invitation_not_found")


def test_an_invitation_is_in_the_inbox_and_its_stream_until_declined_answered_or_started(
        api: ContractClient, client: redis.Redis, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[type-arg]
    ann, bo = register(api, "ann"), register(api, "bo")
    first = create(api, ann["token"], unlisted=True, invited=[bo["id"]]).json
    inbox = api.get("/v1/players/me/inbox", headers=bearer(bo["token"])).json
    assert [(each["tournament"]["id"], each["invited_by"]["name"]) for each in inbox["tournaments"]] == [(first["id"], "ann")]
    answer = api.client.get("/v1/players/me/inbox/stream", headers=bearer(bo["token"]), buffered=False)
    told = messages(until(10, (line for chunk in answer.response for line in chunk.decode().split("\n"))))
    assert [each["tournament"]["id"] for each in next(told).data["tournaments"]] == [first["id"]]

    def invited() -> list[str]:
        message = next(told)
        assert message.event == "tournaments"
        return [each["tournament"]["id"] for each in message.data["tournaments"]]

    second = create(api, ann["token"], invited=[bo["id"]], name="Second cup").json
    assert invited() == [second["id"], first["id"]]
    assert api.delete(f"/v1/players/me/tournament-invitations/{first['id']}", headers=bearer(bo["token"])).status_code == 204
    assert invited() == [second["id"]]
    api.post(f"/v1/tournaments/{second['id']}/entrants", headers=bearer(bo["token"]))  # answered by signing up
    assert invited() == []
    api.delete(f"/v1/tournaments/{second['id']}/entrants/{bo['id']}", headers=bearer(bo["token"]))  # unanswered again
    assert invited() == [second["id"]]
    monkeypatch.setattr(clock, "now", lambda: second["starts"])
    tournament_rounds.start(Executor(EventStore(client)), Tournaments(client), second["id"])  # with nobody: cancelled
    assert invited() == []
    answer.close()
    assert api.get("/v1/players/me/inbox", headers=bearer(bo["token"])).json["tournaments"] == []


def test_an_invited_player_is_mailed_the_invitation_as_one_to_a_game_is(api: ContractClient,
                                                                        client: redis.Redis) -> None:  # type: ignore[type-arg]
    ann, bo, cy = register(api, "ann"), register(api, "bo"), register(api, "cy")
    assert api.put(f"/v1/players/me/blocks/{ann['id']}", headers=bearer(cy["token"])).status_code == 204
    created = create(api, ann["token"], unlisted=True, invited=[bo["id"], cy["id"]]).json
    [mail] = [Mail.loads(raw) for raw in client.lrange(keys.mail_outbox(), 0, -1)]  # not to cy, who blocks ann
    assert (mail.kind, mail.to_player, mail.data["tournament_id"]) == ("invitation", bo["id"], created["id"])
    letter = compose(mail, "bo@example.org", "bo", public_url="https://play.example", sender="m@x", stop_token="tok")
    assert letter["Subject"] == "ann invites you to Friday cup"
    text = letter.get_body(("plain",)).get_content()
    assert "invites you to Friday cup, a tournament of Djambi" in text and f"https://play.example/tournaments/{created['id']}" in text


def test_a_player_who_blocks_the_creator_is_not_told_of_the_invitation(api: ContractClient) -> None:
    ann, bo = register(api, "ann"), register(api, "bo")
    assert api.put(f"/v1/players/me/blocks/{ann['id']}", headers=bearer(bo["token"])).status_code == 204
    create(api, ann["token"], unlisted=True, invited=[bo["id"]])
    assert listed(api, bo["token"]) == []
    assert api.get("/v1/players/me/inbox", headers=bearer(bo["token"])).json["tournaments"] == []


def test_blocking_the_creator_of_a_tournament_takes_its_invitation_out_of_the_inbox_and_its_stream(
        api: ContractClient) -> None:
    ann, bo = register(api, "ann"), register(api, "bo")
    created = create(api, ann["token"], unlisted=True, invited=[bo["id"]]).json

    def inbox() -> list[str]:
        return [each["tournament"]["id"] for each in api.get("/v1/players/me/inbox", headers=bearer(bo["token"])).json["tournaments"]]

    answer = api.client.get("/v1/players/me/inbox/stream", headers=bearer(bo["token"]), buffered=False)
    told = messages(until(10, (line for chunk in answer.response for line in chunk.decode().split("\n"))))
    assert [each["tournament"]["id"] for each in next(told).data["tournaments"]] == inbox() == [created["id"]]
    assert api.put(f"/v1/players/me/blocks/{ann['id']}", headers=bearer(bo["token"])).status_code == 204
    assert (message := next(told)).event == "tournaments" and message.data["tournaments"] == []
    assert inbox() == []
    assert api.delete(f"/v1/players/me/blocks/{ann['id']}", headers=bearer(bo["token"])).status_code == 204
    assert [each["tournament"]["id"] for each in next(told).data["tournaments"]] == inbox() == [created["id"]]
    answer.close()


def test_invitations_answered_or_started_leave_room_for_an_older_open_one(
        api: ContractClient, client: redis.Redis, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[type-arg]
    ann, bo = register(api, "ann"), register(api, "bo")
    met(client, [ann["id"], bo["id"]])  # contacts: invited past the strangers' daily bound
    oldest = create(api, ann["token"], unlisted=True, invited=[bo["id"]], starts=body()["starts"] + 60_000).json
    later = [create(api, ann["token"], unlisted=True, invited=[bo["id"]]).json for _ in range(MAX_INVITATIONS)]
    for each in later[:30]:  # answered by signing up
        assert api.post(f"/v1/tournaments/{each['id']}/entrants", headers=bearer(bo["token"])).status_code == 201
    monkeypatch.setattr(clock, "now", lambda: later[-1]["starts"])
    for each in later[30:]:  # started, with nobody: cancelled
        tournament_rounds.start(Executor(EventStore(client)), Tournaments(client), each["id"])
        assert client.zscore(keys.tournament_invitations(bo["id"]), each["id"]) is None
        assert not client.exists(keys.tournament_invitees(each["id"]))
    assert [each["tournament"]["id"] for each in api.get("/v1/players/me/inbox", headers=bearer(bo["token"])).json["tournaments"]] == [
        oldest["id"]]


@pytest.mark.parametrize(("settings", "field"), [
    ({"turn_deadline": {"seconds": 60, "policy": "skip"}}, "turn_deadline"),
    ({"rounds": None}, "rounds"),
    ({"format": "round_robin"}, "rounds"),
    ({"rounds": 21}, "rounds"),
    ({"seats": 1}, "seats"),
    ({"name": "x" * 65}, "name"),
    ({"starts": 1}, "starts"),
    ({"invited": ["nobody"]}, "invited"),
    ({"invited": ["p"] * 51}, "invited"),
    ({"invited_names": ["zed"]}, "reserved"),
    ({"options": {"no_such_option": 1}}, None),
])
def test_a_tournament_that_cannot_be_is_refused_naming_its_field(api: ContractClient, settings: dict[str, Any],
                                                                 field: str | None) -> None:
    ann = register(api, "ann")
    refused = create(api, ann["token"], **settings)
    assert refused.status_code == 422 and refused.mimetype == "application/problem+json"
    assert field is None or field in refused.json["errors"]


def test_players_invited_by_id_and_by_name_are_bounded_together(api: ContractClient, monkeypatch: pytest.MonkeyPatch) -> None:
    ann = register(api, "ann")
    monkeypatch.setattr(invitees, "by_name", lambda *_: {index: f"named{index}" for index in range(20)})
    refused = create(api, ann["token"], invited=[f"id{index}" for index in range(40)], invited_names=["zed"] * 20)
    assert refused.status_code == 422 and "50" in refused.json["errors"]["invited"][0]


def test_creating_needs_a_player_token_and_an_unknown_tournament_is_a_404(api: ContractClient) -> None:
    refused = api.post("/v1/tournaments", json=body())
    assert (refused.status_code, refused.json["code"]) == (401, "unauthorized")
    for path in ("/v1/tournaments/nosuch", "/v1/tournaments/no%20such/stream", "/v1/tournaments/" + "x" * 100):
        missing = api.get(path)
        assert (missing.status_code, missing.json["code"]) == (404, "tournament_not_found")


def test_players_sign_up_and_withdraw_and_the_creator_enters_and_withdraws_ais(api: ContractClient) -> None:
    ann, bo = register(api, "ann"), register(api, "bo")
    tournament_id = create(api, ann["token"]).json["id"]
    entrants = f"/v1/tournaments/{tournament_id}/entrants"
    assert api.post(entrants, headers=bearer(bo["token"])).json["name"] == "bo"
    again = api.post(entrants, json={}, headers=bearer(bo["token"]))
    assert (again.status_code, again.json["code"]) == (409, "already_entered")
    not_creator = api.post(entrants, json={"level": "greedy"}, headers=bearer(bo["token"]))
    assert (not_creator.status_code, not_creator.json["code"]) == (403, "not_tournament_creator")
    assert api.post(entrants, json={"level": "grandmaster"}, headers=bearer(ann["token"])).status_code == 422
    ai = api.post(entrants, json={"level": "random"}, headers=bearer(ann["token"])).json
    assert ai["level"] == "random" and ai["id"].startswith("ai-")
    others = api.delete(f"{entrants}/{ai['id']}", headers=bearer(bo["token"]))
    assert (others.status_code, others.json["code"]) == (403, "not_your_entrant")
    assert api.delete(f"{entrants}/{ai['id']}", headers=bearer(ann["token"])).status_code == 204
    assert api.delete(f"{entrants}/{bo['id']}", headers=bearer(bo["token"])).status_code == 204
    gone = api.delete(f"{entrants}/{bo['id']}", headers=bearer(bo["token"]))
    assert (gone.status_code, gone.json["code"]) == (404, "entrant_not_found")
    assert api.get(f"/v1/tournaments/{tournament_id}").json["entrants"] == []


@pytest.mark.parametrize(("game", "seats"), [("djambi", 4), ("taki", 2)])
def test_a_cancelled_round_robin_reads_with_no_rounds_planned(api: ContractClient, client: redis.Redis,  # type: ignore[type-arg]
                                                               game: str, seats: int) -> None:
    ann = register(api, "ann")
    tournament_id = create(api, ann["token"], game=game, seats=seats, format="round_robin", rounds=None).json["id"]
    api.post(f"/v1/tournaments/{tournament_id}/entrants", json={"level": "random"}, headers=bearer(ann["token"]))
    tournaments = Tournaments(client)
    tournaments.begin(tournament_id)  # its start came with one entrant: cancelled
    tournaments.end(tournament_id, Stage.CANCELLED)
    tournament = api.get(f"/v1/tournaments/{tournament_id}")
    assert tournament.status_code == 200 and (tournament.json["stage"], tournament.json["rounds"]) == ("cancelled", None)


def test_an_ai_entered_after_another_left_takes_a_name_nobody_has(api: ContractClient) -> None:
    ann = register(api, "ann")
    entrants = f"/v1/tournaments/{create(api, ann['token']).json['id']}/entrants"
    first, second = (api.post(entrants, json={"level": "random"}, headers=bearer(ann["token"])).json for _ in range(2))
    assert api.delete(f"{entrants}/{first['id']}", headers=bearer(ann["token"])).status_code == 204
    third = api.post(entrants, json={"level": "random"}, headers=bearer(ann["token"])).json
    assert (second["name"], third["name"]) == ("random AI 2", "random AI 3")


def test_a_full_tournament_refuses_one_more(api: ContractClient) -> None:
    ann = register(api, "ann")
    entrants = f"/v1/tournaments/{create(api, ann['token']).json['id']}/entrants"
    for _ in range(64):
        assert api.post(entrants, json={"level": "random"}, headers=bearer(ann["token"])).status_code == 201
    full = api.post(entrants, headers=bearer(ann["token"]))
    assert (full.status_code, full.json["code"]) == (409, "tournament_full")


def test_the_stream_sends_the_tournament_now_and_again_when_it_changes(api: ContractClient) -> None:
    ann, bo = register(api, "ann"), register(api, "bo")
    tournament_id = create(api, ann["token"]).json["id"]
    answer = api.client.get(f"/v1/tournaments/{tournament_id}/stream", buffered=False)  # read as it comes, not whole
    assert answer.status_code == 200 and answer.mimetype == "text/event-stream"
    lines = (line for chunk in answer.response for line in chunk.decode().split("\n"))
    told = messages(lines)
    first = next(told)
    assert (first.event, first.data["id"], first.data["entrants"]) == ("tournament", tournament_id, [])
    api.post(f"/v1/tournaments/{tournament_id}/entrants", headers=bearer(bo["token"]))
    second = next(told)
    assert (second.event, second.data["since"], set(second.data)) == (
        "change", first.data["version"], {"since", "version", "entrants", "standings"})  # only what changed
    assert [entrant["name"] for entrant in second.data["entrants"]] == ["bo"]
    assert [row["name"] for row in second.data["standings"]] == ["bo"]
    assert applied(first.data, second.data) == api.get(f"/v1/tournaments/{tournament_id}").json
    answer.close()


def test_a_change_holds_every_part_that_changed_but_the_rounds_unchanged() -> None:
    before = {"version": "1-0", "name": "Friday cup", "stage": "running", "paired": [{"number": 1, "tables": []}]}
    now = before | {"version": "2-0", "name": "Friday night cup"}
    assert change(before, now) == {"since": "1-0", "version": "2-0", "name": "Friday night cup"}


def applied(tournament: dict[str, Any], change: dict[str, Any]) -> dict[str, Any]:
    """The tournament with a `change` of its stream applied, as the page applies it."""
    assert change["since"] == tournament["version"]
    rounds = {each["number"]: each for each in [*tournament["paired"], *change.get("paired", [])]}
    parts = {key: value for key, value in change.items() if key not in ("since", "paired")}
    return tournament | parts | {"paired": [rounds[number] for number in sorted(rounds)]}


def test_a_table_finished_late_in_a_64_entrant_swiss_streams_a_fraction_of_the_whole(
        api: ContractClient, client: redis.Redis) -> None:  # type: ignore[type-arg]
    ann = register(api, "ann")
    tournament_id = create(api, ann["token"], rounds=6).json["id"]
    tournaments = Tournaments(client)
    field = [f"ai-{number:014d}" for number in range(64)]
    for number, entrant_id in enumerate(field):
        tournaments.enter(tournament_id, Entrant(entrant_id, f"random AI {number + 1}", number, level="random"), 64)
    tournaments.begin(tournament_id)
    shuffled = random.Random(6)
    tables = []
    for number in range(1, 7):
        shuffled.shuffle(field)
        tables = [Table(f"r{number}t{index:02d}-game-id", tuple(field[index * 4:index * 4 + 4])) for index in range(16)]
        tournaments.pair(tournament_id, number, Round(tuple(tables)))
        tournaments.opened(tournament_id, number)
        for table in tables[:-1] if number == 6 else tables:
            tournaments.record_result(tournament_id, table.game_id, TableResult(tuple((each,) for each in table.entrants)))
    answer = api.client.get(f"/v1/tournaments/{tournament_id}/stream", buffered=False)
    told = messages(line for chunk in answer.response for line in chunk.decode().split("\n"))
    whole = next(told)
    tournaments.record_result(tournament_id, tables[-1].game_id, TableResult(tuple((each,) for each in tables[-1].entrants)))
    changed = next(told)
    answer.close()
    assert set(changed.data) == {"since", "version", "paired", "standings"} and len(changed.data["paired"]) == 1
    size = {each.event: len(json.dumps(each.data, separators=(",", ":"))) for each in (whole, changed)}
    assert size["change"] < size["tournament"] / 3
    assert applied(whole.data, changed.data) == api.get(f"/v1/tournaments/{tournament_id}").json


def test_each_table_says_whether_its_game_is_rated_as_the_game_does(api: ContractClient, client: redis.Redis,  # type: ignore[type-arg]
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    ann = register(api, "ann")
    for ann_plays, rated in ((True, True), (False, False)):  # ann against an AI; the same AI level twice: unrated
        tournament_id = create(api, ann["token"], game="taki", seats=2, format="round_robin", rounds=None).json["id"]
        entrants = f"/v1/tournaments/{tournament_id}/entrants"
        if ann_plays:
            api.post(entrants, headers=bearer(ann["token"]))
        for _ in range(1 if ann_plays else 2):
            api.post(entrants, json={"level": "greedy"}, headers=bearer(ann["token"]))
        starts = api.get(f"/v1/tournaments/{tournament_id}").json["starts"]
        monkeypatch.setattr(clock, "now", lambda starts=starts: starts)
        tournament_rounds.start(Executor(EventStore(client)), Tournaments(client), tournament_id)
        [paired] = api.get(f"/v1/tournaments/{tournament_id}").json["paired"]
        [table] = paired["tables"]
        assert table["rated"] == api.get(f"/v1/games/{table['game_id']}").json["rated"] == rated
