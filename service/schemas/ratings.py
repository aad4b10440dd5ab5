"""Query schemas of the ratings: a leaderboard's page, a player's latest rated games, a page of their opponents."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from domain import GAMES

MAX_AFTER = 10_000  # the deepest page: a leaderboard's page costs up to what it skips (docs/ratings.md)
PLAYER_OR_AI = r"^(?:ai:[a-z_]{1,32}|[A-Za-z0-9_-]{1,64})$"  # a registered player's id, or an AI level's identity


class PageQuerySchema(Schema):
    after = fields.Integer(load_default=0, validate=validate.Range(min=0, max=MAX_AFTER), metadata={
        "description": "How many to skip: the previous page's `next`; left out, from the first (at most 10,000: "
                       "a page that deep costs the store more than anyone reads)."})


class LeaderboardQuerySchema(PageQuerySchema):
    days = fields.Integer(load_default=None, validate=validate.Range(min=1, max=3650), metadata={
        "description": "Only those who played a rated game of it in this many days (the server's MEEPLE_RATING_DAYS, 90, unless given)."})
    provisional = fields.Boolean(load_default=False, metadata={
        "description": "true: the provisional ratings (uncertainty above the server's MEEPLE_PROVISIONAL_SIGMA) instead of the established."})
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=100))


class RecentQuerySchema(Schema):
    game = fields.String(load_default=None, validate=validate.OneOf(sorted(GAMES)), metadata={
        "description": "Only rated games of this game."})
    limit = fields.Integer(load_default=20, validate=validate.Range(min=1, max=100))


class OpponentsQuerySchema(PageQuerySchema):
    game = fields.String(required=True, validate=validate.OneOf(sorted(GAMES)), metadata={
        "description": "The game whose rated games are counted."})
    limit = fields.Integer(load_default=20, validate=validate.Range(min=1, max=100))
