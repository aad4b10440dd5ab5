"""Whom a new game's reserved seats wait for: a registered player named by id, or by name among the
creator's contacts (players they have sat beside in a game that started: names are not unique, so a
name is looked up nowhere else, and a stranger is never reached by guessing one), or whoever is sent
the seat's link, whose code is a secret as long as a token."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from application.errors import Invalid
from application.tokens import new_token
from players.accounts import PlayerStore
from players.invitations import Invitations


def by_name(players: PlayerStore, invitations: Invitations, creator: str | None,
            named: Mapping[int, str]) -> dict[int, str]:
    """The player id each seat of `named` (seat → a name) is reserved for: the one contact of
    `creator` of that name, whatever its case and the spaces around it (`folded`). Refused naming each name that matches no contact,
    or two."""
    if not named:
        return {}
    contacts = [player for player_id in (invitations.contacts(creator) if creator else ())
                if (player := players.get(player_id)) is not None]
    found, problems = {}, []
    for seat, name in named.items():
        matching = [player.id for player in contacts if folded(player.name) == folded(name)]
        if len(matching) == 1:
            found[seat] = matching[0]
        else:
            problems.append(_unmatched(name, len(matching)))
    if problems:
        raise Invalid("validation_error", "The request is not valid.", errors={"reserved": problems})
    return found


def folded(name: str) -> str:
    """A name as a lookup compares it: without the spaces around it, whatever its case."""
    return name.strip().casefold()


def _unmatched(name: str, matches: int) -> str:
    """Why `name` reserves no seat: no contact has it, or `matches` of them do."""
    if matches == 0:
        return (f"No player you have played with is named {name!r}: invite them by a link, or by their player id "
                "(a name is looked up among the players you have sat beside in a game).")
    return f"{matches} players you have played with are named {name!r}: invite one by their player id, or by a link."


def names(players: PlayerStore, reserved: Mapping[int, str]) -> dict[int, str]:
    """The name of the player each seat of `reserved` (seat → player id) waits for."""
    return {seat: found.name for seat, player_id in reserved.items() if (found := players.get(player_id)) is not None}


def new_links(seats: Iterable[int]) -> dict[int, str]:
    """A new code for each of `seats`: the link that seats whoever sends it."""
    return {seat: new_token() for seat in seats}

