"""Games before they start: opened with their settings, their seats taken and given up, and
started once the last seat is taken."""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from application import invitees
from application.errors import Invalid
from application.tokens import new_id, new_token
from domain.core.game import Budget
from events.envelope import GameRecord, Origin, TurnDeadline
from events.errors import NotReplicated
from events.execute import Executor
from events.seats import Seated
from events.streams import Appended
from players.accounts import PlayerStore
from players.invitations import Invitations, met


class Caller(Protocol):
    """Who asks for a game, as the lobby needs to know them (the API answers from the request's
    token and client address)."""

    def creator(self, reserving: bool) -> str | None:
        """The registered player asking, if any; reserving a seat needs one (raise otherwise)."""

    def is_admin(self) -> bool:
        """Whether the caller holds the server's admin token."""

    def count_game(self) -> None:
        """Count one more game created by the caller; raise to refuse it."""

    def count_invitations(self, strangers: list[str]) -> None:
        """Count one invitation from a stranger to each of `strangers`; raise to refuse them."""


@dataclass(frozen=True, slots=True)
class Bot:
    """An AI seat: its level, and the budget it thinks within (None: as its level does)."""

    seat: int
    level: str
    budget: Budget | None = None


@dataclass(frozen=True, slots=True)
class GameSettings:
    """How a new game is played and filled."""

    deadline: TurnDeadline | None = None
    spectator_delay: int = 0  # moves a spectator sees the game behind
    lobby_seconds: int | None = None  # how long it waits for its seats; None (or 0) when opened: the server's
    bots: tuple[Bot, ...] = ()
    unlisted: bool = False
    reserved: Mapping[int, str] = field(default_factory=dict)  # seat → the registered player only who may take it
    named: Mapping[int, str] = field(default_factory=dict)  # seat → the name of the creator's contact it is reserved for
    linked: tuple[int, ...] = ()  # seats for whoever the creator sends each one's link
    chat: bool = True  # its chat on (application.chat)
    rated: bool | None = None  # its result counts for ratings; None: as `rated_by_default` says


@dataclass(frozen=True, slots=True)
class Opened:
    """A game just opened (`new`), or the rematch offered before, and the registered player who asked."""

    game_id: str
    creator: str | None
    new: bool = True


@dataclass(frozen=True, slots=True)
class Joined:
    """A seat taken, and its bearer token (None for an AI's)."""

    seat: int
    token: str | None


def start(executor: Executor, game_id: str) -> Appended | None:
    """Append the opening of a game whose seats are all taken (None if it has started already);
    its registered players become each other's contacts, and where its clocks stop on weekends,
    each seat's time zone is fixed for the game as its player's is now (UTC for a seat without one)."""
    record = executor.store.games.get(game_id)
    met(executor.store.redis, set(record.holders.values()))
    if record.deadline is not None and record.deadline.weekends:
        players = PlayerStore(executor.store.redis)
        executor.store.games.fix_time_zones(game_id, {
            seat: player.time_zone for seat, holder in record.holders.items() if (player := players.get(holder))})
    return executor.start(game_id)


class Lobby:
    """Opens games, seats and unseats their players and starts them, over one store."""

    def __init__(self, executor: Executor, players: PlayerStore, invitations: Invitations, lobby_seconds: int) -> None:
        """`lobby_seconds`: how long a game waits for its seats, unless its settings say."""
        self.executor = executor
        self.players = players
        self.invitations = invitations
        self.lobby_seconds = lobby_seconds

    def open(self, game: str, options: dict[str, Any], seats: int, settings: GameSettings, caller: Caller, *,
             forked_from: Origin | None = None, private_origin: bool = False) -> Opened:
        """Open a game waiting for its players: seat its AIs (starting it if they fill it) and
        invite the players its seats are reserved for (by id, or by name among the creator's
        contacts: application.invitees). Refused for a reservation naming no registered player,
        a name that is not one contact's, a player reserved two seats, and by the caller's bounds.
        A copy of an unlisted game (`private_origin`) is unlisted too."""
        creator = caller.creator(reserving=bool(settings.reserved or settings.named or settings.linked))
        settings = dataclasses.replace(settings, named={}, reserved={
            **settings.reserved, **invitees.by_name(self.players, self.invitations, creator, settings.named)})
        _check_reserved(self.players, settings.reserved)
        settings = dataclasses.replace(settings, rated=_rated(settings, seats, forked_from))
        caller.count_game()
        reached = self.invitations.reaching(creator, settings.reserved.values())
        if creator is not None:
            caller.count_invitations(self.invitations.strangers(creator, reached))
        game_id = new_id()
        settings = dataclasses.replace(settings, lobby_seconds=settings.lobby_seconds or self.lobby_seconds,
                                       unlisted=settings.unlisted or private_origin)
        self.create(game_id, game, options, seats, settings, creator=creator, forked_from=forked_from,
                    private_origin=private_origin)
        self.invite(game_id, reached)
        return Opened(game_id, creator)

    def create(self, game_id: str, game: str, options: dict[str, Any], seats: int, settings: GameSettings, *,
               creator: str | None, forked_from: Origin | None = None, rematch_of: str | None = None,
               private_origin: bool = False) -> None:
        """Store a new game and seat its AIs, starting it if they fill it."""
        store = self.executor.store
        store.games.create(game_id, game, options, seats, settings.deadline, settings.spectator_delay, forked_from,
                           settings.lobby_seconds, unlisted=settings.unlisted, reserved=settings.reserved,
                           rematch_of=rematch_of, creator=creator, private_origin=private_origin,
                           links=invitees.new_links(settings.linked),
                           invitees=invitees.names(self.players, settings.reserved), rated=bool(settings.rated),
                           chat=settings.chat)
        for bot in settings.bots:
            seated = store.seats.claim(game_id, bot.seat, f"{bot.level} bot", None, bot=bot.level, budget=bot.budget)
            self._start_if_full(game_id, seated)

    def invite(self, game_id: str, reached: list[str]) -> None:
        """Put the game in the inbox of each player its invitation reaches (Invitations.reaching),
        and tell their inbox streams."""
        if reached:
            self.invitations.deliver(game_id, reached)
            self.executor.store.feed.tell(game_id)

    def join(self, game_id: str, seat: int | None, name: str, *, player_id: str | None = None, device: str | None = None,
             bot: str | None = None, budget: Budget | None = None, code: str | None = None) -> Joined:
        """Take a seat (the one whose link has `code`, or `seat`, or else the one reserved for
        `player_id`, or else the lowest free one): as a person, given a new token (the seat is also
        `player_id`'s, if given, and the token lasts no longer than their player token whose SHA-256
        is `device`; a link's seat needs one), or for the AI at level `bot`. The game starts when its
        last seat is taken; a registered player's inbox streams are told."""
        if code is not None and (player_id is None or bot):
            raise Invalid("validation_error", "A seat's invitation link is taken by a registered player.",
                          errors={"invite": ["Send a player token: register first (POST /v1/players)."]})
        record = self.executor.store.games.get(game_id)
        refuse_budget_if_rated(record.rated, [budget])
        if player_id is None and not bot and _open_to_guests_but_rated(record):
            raise Invalid("validation_error", "A seat of a rated game is taken by a registered player or an AI.",
                          errors={"player": ["Send a player token: register first (POST /v1/players)."]})
        token = None if bot else new_token()
        seated = self.executor.store.seats.claim(game_id, seat, name, token, bot=bot, player_id=None if bot else player_id,
                                                 budget=budget, code=code, device=None if bot else device)
        if player_id is not None and not bot:
            self.players.joined(player_id, game_id)
            self.executor.store.feed.tell(game_id)
        self._start_if_full(game_id, seated)
        return Joined(seated.seat, token)

    def leave(self, record: GameRecord, seat: int) -> str | None:
        """Give up `seat` before the game starts; its token then acts for nothing. A player leaving
        the seat reserved for them declines the invitation (it is free for anyone). The registered
        player who held the seat, if any."""
        player_id = self.executor.store.seats.leave(record.id, seat)
        if player_id is not None:
            self.invitations.decline(record.id, record.reserved, player_id)
            self.executor.store.feed.tell(record.id)
        return player_id

    def _start_if_full(self, game_id: str, seated: Seated) -> None:
        """Start the game if `seated` took its last seat. The seat is taken whatever becomes of
        the opening: if no replica confirms it in time and a failover loses it, the reactor's
        sweep starts the game again."""
        if seated.taken == seated.seats:
            with contextlib.suppress(NotReplicated):
                start(self.executor, game_id)


def _open_to_guests_but_rated(record: GameRecord) -> bool:
    """Whether a guest would be refused only because the game is rated: a seat is free for anyone
    (else the seats' own refusal, reserved or taken, is the one to say)."""
    return record.rated and any(name is None and seat not in record.reserved for seat, name in enumerate(record.names))


def rated_by_default(settings: GameSettings, seats: int) -> bool:
    """Whether a new game is rated unless its creator says: every seat an AI's or kept for a
    registered player (reserved, by name or by link), no AI level at two seats (one identity
    holding two seats is never rated), and no AI given a budget of its own."""
    kept = {bot.seat for bot in settings.bots} | set(settings.reserved) | set(settings.named) | set(settings.linked)
    return (_unratable(settings, None) is None and not _budgeted([bot.budget for bot in settings.bots])
            and kept >= set(range(seats)))


def _unratable(settings: GameSettings, forked_from: Origin | None) -> str | None:
    """Why a game opened with `settings` can never be rated, if it cannot: a fork (its opening was
    played elsewhere), or an AI level at two seats (one identity holding two seats)."""
    levels = [bot.level for bot in settings.bots]
    if forked_from is not None:
        return "A forked game is never rated: its opening was played in another game."
    if len(set(levels)) != len(levels):
        return "A game with one AI level at two seats is never rated: one identity would hold two seats."
    return None


def _rated(settings: GameSettings, seats: int, forked_from: Origin | None) -> bool:
    """Whether the game opened with `settings` is rated: as `rated_by_default` says unless its
    creator said; refused (422) for a game that can never be rated."""
    if settings.rated is None:
        return forked_from is None and rated_by_default(settings, seats)
    if settings.rated and (reason := _unratable(settings, forked_from)):
        raise Invalid("validation_error", "The request is not valid.", errors={"rated": [reason]})
    refuse_budget_if_rated(settings.rated, [bot.budget for bot in settings.bots])
    return settings.rated


def refuse_budget_if_rated(rated: bool, budgets: list[Budget | None]) -> None:
    """Refuse (422 budget_unrated) a budget given to an AI of a rated game: a rated AI thinks within
    its level's own budget, so that its rating is its level's, not a weakened copy's."""
    if rated and _budgeted(budgets):
        raise Invalid("budget_unrated", "An AI of a rated game thinks within its level's own budget: create the game "
                      "unrated (\"rated\": false) to give one a budget.", errors={"budget": ["Not in a rated game."]})


def _budgeted(budgets: list[Budget | None]) -> bool:
    """Whether an AI is given a budget of its own, which makes a game unrated unless its creator says."""
    return any(budget is not None for budget in budgets)


def _check_reserved(players: PlayerStore, reserved: Mapping[int, str]) -> None:
    """Refuse reservations naming no registered player, or one player for two seats."""
    if unknown := [player_id for player_id in reserved.values() if players.get(player_id) is None]:
        raise Invalid("validation_error", "The request is not valid.",
                      errors={"reserved": [f"No registered player {player_id!r}." for player_id in unknown]})
    if len(set(reserved.values())) != len(reserved):
        raise Invalid("validation_error", "The request is not valid.",
                      errors={"reserved": ["A player holds one seat of a game: reserve one for each."]})
