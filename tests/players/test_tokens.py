"""A player's tokens and sign-in links in the store, on fakeredis and on a real Redis server alike."""

from __future__ import annotations

import time

import pytest
import redis

from events import clock, keys
from events.seats import USE_RECORDED_MS, hash_token, player_of_token
from players.accounts import PlayerStore
from players.devices import FIRST_DEVICE, HeldToken, PlayerTokens, token_id
from players.errors import LastToken, SignInLinkRefused, TokenLimitReached
from players.sign_in import SignInLinks

ANN, PHONE, BOT = "ann-token-0123456789", "ann-phone-0123456789", "ann-bot-token-012345"


def test_registration_token_is_the_first_and_each_token_acts_for_its_player(client: redis.Redis) -> None:  # type: ignore[type-arg]
    players, tokens = PlayerStore(client), PlayerTokens(client, per_player=3)
    ann = players.register("ann", "ann", ANN, "Laptop")
    phone = tokens.add("ann", "Phone", PHONE, now=ann.created + 1)
    assert [(t.name, t.created) for t in tokens.of("ann")] == [("Laptop", ann.created), ("Phone", phone.created)]
    assert phone == HeldToken(token_id(hash_token(PHONE)), "Phone", phone.created, None)
    assert players.by_token(PHONE) == players.by_token(ANN) == ann
    assert tokens.rename("ann", phone.id, "Old phone") and not tokens.rename("ann", "nope", "x")
    assert [t.name for t in tokens.of("ann")] == ["Laptop", "Old phone"]


def test_a_revoked_token_finds_nobody_at_once(client: redis.Redis) -> None:  # type: ignore[type-arg]
    players, tokens = PlayerStore(client), PlayerTokens(client)
    players.register("ann", "ann", ANN)
    phone = tokens.add("ann", "Phone", PHONE)
    assert tokens.revoke("ann", phone.id)
    assert players.by_token(PHONE) is None and player_of_token(client, hash_token(PHONE)) is None
    assert players.by_token(ANN) is not None
    assert not tokens.revoke("ann", phone.id) and not tokens.revoke("bo", token_id(hash_token(ANN)))
    assert [t.name for t in tokens.of("ann")] == [FIRST_DEVICE]
    assert client.get(keys.player_token_use(hash_token(PHONE))) is None


def test_a_player_holds_at_most_so_many_tokens(client: redis.Redis) -> None:  # type: ignore[type-arg]
    tokens = PlayerTokens(client, per_player=2)
    PlayerStore(client).register("ann", "ann", ANN)
    tokens.add("ann", "Phone", PHONE)
    with pytest.raises(TokenLimitReached) as refused:
        tokens.add("ann", "Bot", BOT)
    assert refused.value.limit == 2 and PlayerStore(client).by_token(BOT) is None
    tokens.revoke("ann", token_id(hash_token(PHONE)))
    assert tokens.add("ann", "Bot", BOT).name == "Bot"


def test_a_use_is_recorded_at_most_once_a_minute(client: redis.Redis, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[type-arg]
    now = [1_800_000_000_000]
    monkeypatch.setattr(clock, "now", lambda: now[0])
    tokens = PlayerTokens(client)
    PlayerStore(client).register("ann", "ann", ANN)
    assert [t.last_used for t in tokens.of("ann")] == [None]
    assert player_of_token(client, hash_token(ANN)) == "ann"
    now[0] += USE_RECORDED_MS - 1
    player_of_token(client, hash_token(ANN))
    assert [t.last_used for t in tokens.of("ann")] == [1_800_000_000_000]
    now[0] += 1
    player_of_token(client, hash_token(ANN))
    assert [t.last_used for t in tokens.of("ann")] == [1_800_000_000_000 + USE_RECORDED_MS]


def test_a_player_registered_before_tokens_were_listed_keeps_their_token(client: redis.Redis) -> None:  # type: ignore[type-arg]
    digest = hash_token(ANN)  # as registration stored a player until then
    client.hset(keys.player("ann"), mapping={"name": "ann", "token": digest, "created": 1_700_000_000_000})
    client.set(keys.player_token(digest), "ann")
    players, tokens = PlayerStore(client), PlayerTokens(client, per_player=2)
    assert players.by_token(ANN) is not None
    tokens.add("ann", "Phone", PHONE)
    assert [(t.id, t.name, t.created) for t in tokens.of("ann")] == [
        (token_id(digest), FIRST_DEVICE, 1_700_000_000_000), (token_id(hash_token(PHONE)), "Phone", tokens.of("ann")[1].created)]
    assert client.hget(keys.player("ann"), "token") is None and players.by_token(ANN) is not None
    with pytest.raises(TokenLimitReached):  # the old token counts
        tokens.add("ann", "Bot", BOT)
    assert tokens.revoke("ann", token_id(digest)) and players.by_token(ANN) is None


def test_a_sign_in_link_signs_in_once(client: redis.Redis) -> None:  # type: ignore[type-arg]
    links = SignInLinks(client)
    links.issue("ann", "the-secret-of-a-link-0123")
    assert client.get(keys.sign_in_link(hash_token("the-secret-of-a-link-0123"))) is not None  # kept as its hash only
    assert 0 < client.ttl(keys.sign_in_link(hash_token("the-secret-of-a-link-0123"))) <= 15 * 60
    assert links.redeem("the-secret-of-a-link-0123") == "ann"
    with pytest.raises(SignInLinkRefused) as used:
        links.redeem("the-secret-of-a-link-0123")
    assert used.value.reason == "link_used"
    with pytest.raises(SignInLinkRefused) as unknown:
        links.redeem("never-issued-secret-0123")
    assert unknown.value.reason == "link_expired"
    assert client.exists(keys.sign_in_link(hash_token("never-issued-secret-0123"))) == 0


def test_a_sign_in_link_past_its_time_is_refused(client: redis.Redis) -> None:  # type: ignore[type-arg]
    links = SignInLinks(client)
    links.issue("ann", "short-lived-secret-0123")
    client.pexpire(keys.sign_in_link(hash_token("short-lived-secret-0123")), 1)
    time.sleep(0.01)
    with pytest.raises(SignInLinkRefused) as expired:
        links.redeem("short-lived-secret-0123")
    assert expired.value.reason == "link_expired"


def test_the_last_token_goes_only_when_allowed(client: redis.Redis) -> None:  # type: ignore[type-arg]
    tokens = PlayerTokens(client)
    phone = tokens.add("ann", "Phone", PHONE)
    with pytest.raises(LastToken):
        tokens.revoke("ann", phone.id, last=False)
    assert [t.name for t in tokens.of("ann")] == ["Phone"] and player_of_token(client, hash_token(PHONE)) == "ann"
    assert not tokens.revoke("ann", "nope", last=False)
    assert tokens.revoke("ann", phone.id) and tokens.of("ann") == []
