"""Whom the per-address limits count: an IPv4 client by its address, an IPv6 client by its
network (MEEPLE_IPV6_PREFIX bits, a /64 by default), since one holder of a /64 has 2^64 addresses."""

from __future__ import annotations

import fakeredis
import pytest

from runtime.config import Config, Rate
from service.app import create_app
from service.limits import address_key
from tests.contract import ContractClient


def test_an_ipv6_address_counts_as_its_network_and_an_ipv4_one_as_itself() -> None:
    assert address_key("2001:db8:1:2:3:4:5:6", 64) == address_key("2001:DB8:1:2::9", 64) == "2001:db8:1:2::/64"
    assert address_key("2001:db8:1:3::1", 64) == "2001:db8:1:3::/64"
    assert address_key("2001:db8:1:2:3:4:5:6", 48) == "2001:db8:1::/48"
    assert address_key("2001:db8:1:2:3:4:5:6", 128) == "2001:db8:1:2:3:4:5:6/128"
    assert address_key("192.0.2.7", 64) == address_key("::ffff:192.0.2.7", 64) == "192.0.2.7"
    assert address_key("unknown", 64) == "unknown"


def by_address(rate: Rate | None, games: Rate | None = None, ipv6_prefix: int = 64) -> ContractClient:
    config = Config(rate_per_address=rate, games_per_address=games, trusted_proxies=1, ipv6_prefix=ipv6_prefix)
    return ContractClient(create_app(config, client=fakeredis.FakeRedis()).test_client())


def statuses(api: ContractClient, addresses: list[str], path: str = "/v1/games/types") -> list[int]:
    return [api.get(path, headers={"X-Forwarded-For": address}).status_code for address in addresses]


def test_every_address_of_an_ipv6_network_shares_one_rate() -> None:
    api = by_address(Rate(2, 60))
    assert statuses(api, ["2001:db8:1:2::1", "2001:db8:1:2:ffff::7", "2001:db8:1:2::3"]) == [200, 200, 429]
    assert statuses(api, ["2001:db8:1:3::1"]) == [200]  # the next /64 is another client
    api = by_address(Rate(1, 60), ipv6_prefix=128)
    assert statuses(api, ["2001:db8:1:2::1", "2001:db8:1:2::2"]) == [200, 200]


def test_an_ipv4_mapped_address_shares_the_ipv4_address_rate() -> None:
    api = by_address(Rate(1, 60))
    assert statuses(api, ["192.0.2.7", "::ffff:192.0.2.7", "192.0.2.8"]) == [200, 429, 200]


def test_games_created_from_an_ipv6_network_count_together() -> None:
    api = by_address(None, games=Rate(1, 86400))
    created = [api.post("/v1/games", json={"game": "taki", "seats": 2}, headers={"X-Forwarded-For": address})
               for address in ("2001:db8:5::1", "2001:db8:5::2")]
    assert [answer.status_code for answer in created] == [201, 429]
    assert created[1].json["code"] == "game_creation_limited"


@pytest.mark.parametrize("prefix", ["0", "129"])
def test_the_ipv6_prefix_is_1_to_128_bits(prefix: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEEPLE_IPV6_PREFIX", prefix)
    with pytest.raises(ValueError, match="MEEPLE_IPV6_PREFIX"):
        Config.from_env()
