"""Tournaments before and between their rounds: created by a registered player for one game with
its options and time control, signed up for and withdrawn from, entered by the AI levels the
creator adds, and read with their standings (the rounds themselves: application.tournament_rounds)."""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from application import invitees
from application.errors import Forbidden, Invalid, NotFound, NotNow
from application.lobby import Caller
from application.outbox import mail_player
from application.tokens import new_id
from domain import GAMES
from domain.core.errors import DomainError
from domain.tournaments.pairing import Round
from domain.tournaments.standings import Standing, standings
from events import clock, keys
from events.envelope import DeadlinePolicy, TurnDeadline
from events.errors import GameNotFound
from events.execute import Executor
from events.tournaments import Entrant, Entry, Format, Stage, TableResult, TournamentRecord, Tournaments
from players.accounts import Player, PlayerStore
from players.blocks import Blocks
from players.conversations import About, wake_inboxes
from players.invitations import Invitations

MAX_ENTRANTS = 64  # entrants of one tournament, people and AIs together
MAX_SWISS_ROUNDS = 20
MAX_INVITED = 50  # players one tournament invites
MAX_INVITATIONS = 50  # invitations to tournaments an inbox shows
MAX_START_DAYS = 90  # how far ahead a tournament may start
SCORING = (
    "Points by finishing place: one for each seat you finish above, half for each you tie with (4 seats: 3, 2, 1, 0).",
    "A bye (when the entrants do not fill whole tables) scores half of first place's points; byes go to those who "
    "had fewest (in a Swiss, then to the lowest placed; in its round 1, to the lowest seeded).",
    "Standings: points, then Buchholz (your opponents' points summed over every table you sat at; a bye adds nothing "
    "to it), then first places, then sign-up order.",
)
PAIRING = {
    Format.SWISS: "A Swiss's round 1 is seeded by rating in the game (the rating shown; unrated entrants after, sign-up "
    "order breaking ties): at two seats the top half meets the bottom half (1st against the first of the bottom half, "
    "and so on); at more, the entrants are cut into as many bands as seats, strongest first, and each table takes one "
    "from each band. Later rounds seat players of close scores together, keeping apart those who met where the search "
    "finds a way (at two seats, whenever a pairing that does is found within the search's bound).",
    Format.ROUND_ROBIN: "A round robin meets every pair: at two seats exactly once; at more seats, each round seats "
    "together as many pairs who have not met as the search finds, then those who met least, for as many rounds as "
    "every pair needs to meet, so some pairs meet more than once.",
}
PLAY = (
    "A round's games run at once; the next round is paired when its last game ends. A seat out of time forfeits, so "
    "a round lasts as long as its games' clocks allow: a player's vacation holds a per-move deadline up to the time "
    "control's vacation days, and stops a Fischer or simple clock, as in any game.",
    "A table counts for ratings as any game of registered players and AI seats does: not one where the same AI level "
    "sits twice.",
    "Withdrawing forfeits your running games (the others at the table play on; at two seats your opponent wins) and "
    "you are paired no more; your points stay. In a two-seat round robin, those you were yet to meet have a bye in "
    "your place.",
    "Running out of time in every game of a round withdraws you.",
    "The tournament ends early once its entrants still in cannot fill a table.",
)


def rules(form: Format) -> tuple[str, ...]:
    """The rules a tournament of the format `form` states on its page."""
    return (*SCORING, PAIRING[form], *PLAY)


@dataclass(frozen=True, slots=True)
class TournamentSettings:
    """What a new tournament is: its name, game and options, tables, format, time control and start."""

    name: str
    game: str
    options: Mapping[str, object]
    seats: int
    format: Format
    deadline: TurnDeadline
    starts: int  # ms since the epoch
    rounds: int | None = None  # a Swiss's
    unlisted: bool = False
    invited: Sequence[str] = ()  # player ids
    named: Sequence[str] = ()  # names among the creator's contacts (application.invitees)


@dataclass(frozen=True, slots=True)
class TournamentView:
    """A tournament as it stands: its settings, entrants, rounds with their results, standings, and the
    id of its latest change, read with them (its version: Tournaments.snapshot)."""

    record: TournamentRecord
    entrants: list[Entrant]
    rounds: list[Round]
    results: dict[str, TableResult]
    standings: list[Standing]
    version: str


def create(tournaments: Tournaments, players: PlayerStore, invitations: Invitations, caller: Caller, creator: str,
           settings: TournamentSettings) -> TournamentRecord:
    """Open a tournament signing up, created by the registered player `creator`, and tell the players
    it invites (by id, or by name among the creator's contacts; MAX_INVITED in all), in their list and by mail,
    unless they block its creator. Refused
    for a time control that does not forfeit, a start in the past or past MAX_START_DAYS, and by the
    caller's bounds (counted as one game created, and its invitations to strangers)."""
    _check(settings)
    named = invitees.by_name(players, invitations, creator, dict(enumerate(settings.named)))
    invited = list(dict.fromkeys([*settings.invited, *named.values()]))
    if len(invited) > MAX_INVITED:
        raise Invalid("validation_error", "The request is not valid.",
                      errors={"invited": [f"A tournament invites up to {MAX_INVITED} players, by id and by name together."]})
    if unknown := [player_id for player_id in invited if players.get(player_id) is None]:
        raise Invalid("validation_error", "The request is not valid.",
                      errors={"invited": [f"No registered player {player_id!r}." for player_id in unknown]})
    reached = invitations.reaching(creator, invited)
    caller.count_game()
    caller.count_invitations(invitations.strangers(creator, reached))
    record = TournamentRecord(new_id(), settings.name, settings.game, dict(settings.options), settings.seats,
                              settings.format, settings.deadline, settings.starts, creator, settings.unlisted,
                              settings.rounds, clock.now())
    tournaments.create(record)
    tournaments.invite(record.id, reached)
    wake_inboxes(tournaments.redis, reached, About.TOURNAMENTS)
    inviter = players.get(creator)
    for player_id in reached:  # mailed as an invitation to a game is, if they chose to be (players.mail.KINDS)
        mail_player(tournaments.redis, player_id, "invitation", f"{player_id}-invitation-{record.id}", tournament_id=record.id,
                    tournament=record.name, game=record.game, inviter=inviter.name if inviter else None)
    return record


def _check(settings: TournamentSettings) -> None:
    """Refuse a time control that does not forfeit, a start in the past or too far ahead, and a Swiss without rounds."""
    errors = {}
    if settings.deadline.policy is not DeadlinePolicy.FORFEIT:
        errors["turn_deadline"] = ["A tournament's games end: a seat out of time forfeits (policy `forfeit`)."]
    if not clock.now() <= settings.starts <= clock.now() + MAX_START_DAYS * 86_400_000:
        errors["starts"] = [f"A tournament starts between now and {MAX_START_DAYS} days from now."]
    if (settings.format is Format.SWISS) != (settings.rounds is not None):
        errors["rounds"] = ["A Swiss plays the rounds it names; a round robin's are worked out from its entrants."]
    if errors:
        raise Invalid("validation_error", "The request is not valid.", errors=errors)


def find(tournaments: Tournaments, tournament_id: str) -> TournamentRecord:
    """The tournament; NotFound if there is none."""
    record = tournaments.get(tournament_id) if keys.GAME_ID.match(tournament_id) else None
    if record is None:
        raise NotFound("tournament_not_found", "No tournament has this id.")
    return record


def sign_up(tournaments: Tournaments, record: TournamentRecord, player: Player) -> Entrant:
    """Enter the player, while the tournament signs up and has room (answering an invitation to it)."""
    entrant = _enter(tournaments, record, Entrant(player.id, player.name, clock.now()))
    wake_inboxes(tournaments.redis, [player.id], About.TOURNAMENTS)
    return entrant


def enter_ai(tournaments: Tournaments, record: TournamentRecord, caller: Caller, player_id: str, level: str) -> Entrant:
    """Enter an AI of `level` as an entrant of its own; the creator's to do, counted against the caller's
    bound on games created as the games it adds (ai_games)."""
    if player_id != record.creator:
        raise Forbidden("not_tournament_creator", "Only the tournament's creator enters AI players.")
    if level not in GAMES[record.game].bots:
        raise Invalid("validation_error", "The request is not valid.",
                      errors={"level": [f"{GAMES[record.game].title}'s AI levels: {', '.join(GAMES[record.game].bots)}."]})
    entrants = tournaments.entrants(record.id)
    for _ in range(ai_games(record, len(entrants))):
        caller.count_game()
    names = {entrant.name for entrant in entrants}
    number = next(number for number in itertools.count(len(entrants) + 1) if f"{level} AI {number}" not in names)
    return _enter(tournaments, record, Entrant(f"ai-{new_id()}", f"{level} AI {number}", clock.now(), level=level))


def ai_games(record: TournamentRecord, before: int) -> int:
    """The games an AI entrant adds to a tournament of `before` entrants, as its creator's games created:
    its share of its tables (a Swiss's rounds over the seats), or in a round robin the tables it needs to
    meet each entrant before it (at two seats, one game each). At least one."""
    if record.rounds is not None:
        return max(1, -(-record.rounds // record.seats))
    return max(1, -(-before // (record.seats - 1)))


def _enter(tournaments: Tournaments, record: TournamentRecord, entrant: Entrant) -> Entrant:
    """Add the entrant before the start; refused once the start has come, for one who is in, and past MAX_ENTRANTS."""
    entry = tournaments.enter(record.id, entrant, MAX_ENTRANTS) if clock.now() < record.starts else Entry.CLOSED
    if entry is Entry.CLOSED:
        raise NotNow("sign_up_closed", "The tournament has started: sign-up is closed.")
    if entry is Entry.ALREADY:
        raise NotNow("already_entered", "You are signed up already.")
    if entry is Entry.FULL:
        raise NotNow("tournament_full", f"A tournament holds {MAX_ENTRANTS} entrants.")
    return entrant


def withdraw(executor: Executor, tournaments: Tournaments, record: TournamentRecord, entrant_id: str, by: str) -> None:
    """Take the entrant out, as the player `by` asks (the entrant themselves, or the creator for an
    AI they entered): before the start, their sign-up; after, they are paired no more and their
    running games are forfeited (their points stay)."""
    entrant = next((each for each in tournaments.entrants(record.id) if each.id == entrant_id), None)
    if entrant is None or entrant.withdrawn is not None:
        raise NotFound("entrant_not_found", "No such entrant is (still) in this tournament.")
    if by != entrant_id and not (entrant.level is not None and by == record.creator):
        raise Forbidden("not_your_entrant", "A player withdraws themselves; the creator withdraws the AIs they entered.")
    if record.stage is Stage.SIGNING_UP and tournaments.leave(record.id, entrant_id) is Entry.DONE:
        wake_inboxes(tournaments.redis, [entrant_id] if entrant.level is None else [], About.TOURNAMENTS)  # unanswered again
        return
    with tournaments.pairing(record.id) as held:  # not while a round is paired: it would seat the entrant
        if not held:
            raise NotNow("tournament_pairing", "The tournament is pairing its next round: withdraw again in a moment.")
        record = find(tournaments, record.id)  # started since it was read, if it signed up then
        if record.stage is not Stage.RUNNING:
            raise NotNow("tournament_over", "The tournament is over.")
        rounds = tournaments.rounds(record.id)
        tournaments.withdraw(record.id, entrant, after=len(rounds))
        for table in rounds[-1].tables if rounds else ():
            if entrant_id in table.entrants:
                forfeit(executor, table.game_id, table.entrants.index(entrant_id))


def decline(tournaments: Tournaments, tournament_id: str, player_id: str) -> None:
    """Decline the player's invitation to the tournament: it leaves their list (unless they signed up)."""
    if not tournaments.decline(tournament_id, player_id):
        raise NotFound("tournament_invitation_not_found", "You have no invitation to this tournament.")
    wake_inboxes(tournaments.redis, [player_id], About.TOURNAMENTS)


def invitations(tournaments: Tournaments, blocks: Blocks, player_id: str) -> list[TournamentRecord]:
    """The tournaments signing up that invited the player, latest invitation first, but those they declined or
    signed up for and those whose creator they block (at most MAX_INVITATIONS): their inbox's."""
    found = [record for record in tournaments.many(tournaments.unanswered(player_id, MAX_INVITATIONS))
             if record is not None and record.stage is Stage.SIGNING_UP]
    blocked = blocks.blocked_among(player_id, list({record.creator for record in found}))
    return [record for record in found if record.creator not in blocked]


def end_invitations(tournaments: Tournaments, tournament_id: str) -> None:
    """End the invitations to a tournament that starts (or is cancelled at its start): out of each invitee's list,
    their inbox streams told, then the list of its invitees dropped (a job cut short before that does it again)."""
    invitees = tournaments.invitees(tournament_id)
    tournaments.uninvite(tournament_id, invitees)
    wake_inboxes(tournaments.redis, invitees, About.TOURNAMENTS)
    tournaments.forget_invitees(tournament_id)


def forfeit(executor: Executor, game_id: str, seat: int) -> None:
    """Make the seat leave its game, if it is opened and still playing."""
    try:
        loaded = executor.load(game_id)
    except GameNotFound:  # paired, not opened yet: opening it forfeits the seat (tournament_rounds._open)
        return
    if loaded.version == 0 or loaded.game.status(loaded.state).finished:
        return
    with contextlib.suppress(DomainError):  # the seat left already
        executor.execute(game_id, loaded.game.forfeit_command(seat), actor=f"seat:{seat}")


def view(tournaments: Tournaments, record: TournamentRecord) -> TournamentView:
    """The tournament with its entrants and standings now, exactly as of its latest change (its version)."""
    read = tournaments.snapshot(record.id)
    if read is None:
        raise NotFound("tournament_not_found", "No tournament has this id.")
    places = {game_id: result.places for game_id, result in read.results.items()}
    return TournamentView(read.record, read.entrants, read.rounds, read.results,
                          standings([each.id for each in read.entrants], read.record.seats, read.rounds, places), read.version)
