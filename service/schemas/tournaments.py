"""What the tournaments API reads: a page of the list, a new tournament, and an entrant to add."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from application.tournaments import MAX_INVITED, MAX_SWISS_ROUNDS
from domain import GAMES
from events.tournaments import Format
from service.schemas.common import (
    PLAYER_ID,
    Flag,
    TurnDeadlineSchema,
    Whole,
    _name,
    _OptionValue,
    _readable,
    page_cursor,
)


class TournamentsQuerySchema(Schema):
    stage = fields.String(load_default="open", validate=validate.OneOf(["open", "ended"]), metadata={
        "description": "`open`: the tournaments signing up or under way, latest start first; `ended`: those finished "
                       "or cancelled, latest end first."})
    cursor = page_cursor()
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=100))


class CreateTournamentSchema(Schema):
    """A new tournament: one game with its options, played at tables of `seats` in rounds paired as
    `format` says, each game under `turn_deadline` (policy `forfeit`: a seat out of time leaves its
    game), signing up until `starts`."""

    name = _name("The tournament's name.")
    game = fields.String(required=True, validate=validate.OneOf(sorted(GAMES)))
    seats = Whole(required=True, metadata={"description": "The seats at each table: within the game's range."})
    options = fields.Dict(keys=fields.String(), values=_OptionValue(), load_default=dict, metadata={
        "description": "The game's variants by name (see /v1/games/types); omitted ones take their defaults."})
    format = fields.Enum(Format, by_value=fields.String, required=True, metadata={
        "description": "`round_robin`: every entrant meets every other; `swiss`: `rounds` rounds paired by score."})
    rounds = Whole(load_default=None, allow_none=True, validate=validate.Range(min=1, max=MAX_SWISS_ROUNDS),
                   metadata={"description": "A Swiss's rounds; none for a round robin, whose rounds follow from its entrants."})
    turn_deadline = fields.Nested(TurnDeadlineSchema, required=True)
    starts = Whole(required=True, validate=validate.Range(min=0, max=10**14), metadata={
        "description": "When sign-up closes and the first round is paired, in ms since the epoch: from now to 90 days ahead."})
    unlisted = Flag(load_default=False, metadata={"description": "true: in no listing; reached by its id (its link) only."})
    invited = fields.List(fields.String(validate=PLAYER_ID), load_default=list, validate=validate.Length(max=MAX_INVITED),
                          metadata={"description": "Players invited by id: the tournament is listed for them."})
    invited_names = fields.List(
        fields.String(validate=[validate.Length(min=1, max=64), _readable]), load_default=list,
        validate=validate.Length(max=MAX_INVITED),
        metadata={"description": "Players invited by name, among those the creator has sat beside in a game."})

    @validates_schema
    def _fits_the_game(self, data: dict[str, Any], **_: Any) -> None:
        game = GAMES.get(data.get("game", ""))
        if game is not None and not game.min_seats <= data["seats"] <= game.max_seats:
            raise ValidationError(f"{game.title} is for {game.min_seats} to {game.max_seats} seats.", "seats")


class NewEntrantSchema(Schema):
    """An entrant to add: the caller themselves (an empty body), or, from the creator, an AI at `level`."""

    level = fields.String(load_default=None, validate=validate.Length(min=1, max=32), metadata={
        "description": "The creator enters an AI at this level (see /v1/games/types) as an entrant of its own.",
        "examples": ["greedy"]})
