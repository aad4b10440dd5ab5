"""The body of every error the server gives (RFC 9457 problem details with a stable `code`),
whether the API answers it (service.errors) or gunicorn does before the API runs (service.serving).
It imports nothing of the API, so that gunicorn's master may load it before its workers fork."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

CODES = {  # every code the server sends → when; the spec's list of codes is this one
    "validation_error": "The request (body, query or header) is not valid; `errors` names each field's problem.",
    "invalid_json": "The body is not JSON.",
    "unsupported_media_type": "The body is not of the media type the operation reads.",
    "request_entity_too_large": "The body is larger than the server reads.",
    "illegal_move": "The rules refuse the command; `reason` is the rule's (and `index` the offending card of a batch).",
    "not_your_turn": "The seat may not act now.",
    "version_conflict": "The game has moved past the version the request was made for; `current` is its version.",
    "game_not_found": "No game has this id.",
    "version_not_found": "The game has not reached this version; `current` is its version.",
    "game_not_started": "The game waits for its players.",
    "game_not_finished": "What was asked is for a finished game.",
    "game_cancelled": "The game's lobby time passed with seats still free; it never started.",
    "game_over_at_version": "A fork asked to go on from a version at which the game was already over.",
    "not_a_move_boundary": "A fork asked to go on from a version inside a move.",
    "budget_unrated": "An AI of a rated game thinks within its level's own budget: a budget is given in an unrated game only.",
    "seat_unavailable": "The seat cannot be taken; `reason` says why.",
    "seat_reserved": "The seat is reserved for another player, or an invitation link's code opens no seat; "
                     "`reason` says which.",
    "cannot_leave": "The seat cannot be left; `reason` says why.",
    "unauthorized": "No good token where one is needed; `reason` says whether it was missing, malformed or unknown.",
    "idempotency_key_reused": "The Idempotency-Key was used before with another body.",
    "invalid_log": "An imported log is not a log this server's rules would write; `event` is its first wrong event.",
    "log_too_long": "An imported log is longer than this server imports; `limit` says how long it may be.",
    "webhook_not_found": "The player has no webhook with this id.",
    "too_many_confirmations": "The player asked for as many confirmation mails today as a player may; `limit` says how many.",
    "confirmation_not_found": "The confirmation link is used, expired, unknown, or for an address the player has changed since.",
    "mail_address_taken": "The address is another player's confirmed address; an address belongs to one account.",
    "confirmations_limited": "As many confirmation mails as may be were sent to this address, or asked for from this client, lately.",
    "unsubscribe_token_unknown": "The unsubscribe link is not one the server gave.",
    "no_vacation_days_left": "The vacation spans more days than the player has left this year "
                             "(MEEPLE_VACATION_DAYS_PER_YEAR a year).",
    "vacation_limited": "The player has begun or moved as many vacations lately as one may (MEEPLE_VACATIONS_PER_PLAYER); "
                        "`limit` says how many, `retry_after` when more may be.",
    "too_many_webhooks": "The player has as many webhooks as the server allows (MEEPLE_WEBHOOKS_PER_PLAYER); "
                         "`limit` says how many.",
    "not_the_creator": "Only the game's creator may read this (its invitation links).",
    "invitation_not_found": "The player has no invitation to this game (none, declined, or a seat they hold).",
    "invitation_limited": "An invited player has had as many invitations today from players who are not their "
                          "contacts as the server allows (MEEPLE_INVITATIONS_PER_DAY); `limit` says how many.",
    "registration_limited": "This client address has registered as many players lately as the server allows "
                            "(MEEPLE_REGISTRATIONS_PER_ADDRESS); `limit` says how many, `retry_after` when more may be.",
    "game_creation_limited": "This client address has created as many games today as the server allows "
                             "(MEEPLE_GAMES_PER_ADDRESS); `limit` says how many, `retry_after` when more may be.",
    "chat_off": "The game was created with its chat off.",
    "chat_limited": "The writer sent as many chat messages this minute as one may (MEEPLE_CHAT_PER_MINUTE), or the client "
                    "address as many as one may (MEEPLE_CHAT_PER_ADDRESS); `limit` says how many, `retry_after` when more may be.",
    "room_full": "The room holds as many messages as a room may (MEEPLE_CHAT_MESSAGES_PER_ROOM): it is read, no longer "
                 "written; `limit` says how many.",
    "chat_closed": "The game ended longer ago than its chat is written after the end (MEEPLE_CHAT_SECONDS_AFTER_END): it "
                   "is read, no longer written; `closed` says when it closed (ms since the epoch).",
    "room_not_found": "A game's chat has two rooms: `table` and `spectators`.",
    "room_closed": "The spectators' room opens to the game's seats once the game is over.",
    "not_seated": "The table's room is written by the game's seats only.",
    "seated": "A seat writes in the table's room, not the spectators'.",
    "not_registered": "Spectators read their room while the game is played, and write in it, with a player token.",
    "muted": "The admin muted the writer; `until` says when they may write again (ms since the epoch).",
    "message_not_found": "No message with this id is there for the caller to read.",
    "report_not_found": "No report has this id.",
    "report_closed": "The report was decided already.",
    "nothing_to_hide": "A report of a player names no message to hide: the admin dismisses it, or mutes the player.",
    "too_many_reports": "The reporter has as many open reports as the server allows (MEEPLE_OPEN_REPORTS_PER_REPORTER); "
                        "`limit` says how many.",
    "admin_only": "Only the admin token (MEEPLE_ADMIN_TOKEN) may do this.",
    "mute_not_found": "The player (or the message's writer) is not muted.",
    "writer_gone": "The guest who wrote the message left the seat before the game began: there is no one to mute.",
    "not_your_notes": "A seat's notes are read and written by the one who holds that seat only.",
    "player_not_found": "No registered player has this id.",
    "token_not_found": "The player holds no token with this id.",
    "last_token": "The token is the player's only one and they have no confirmed mail address to sign in by again.",
    "too_many_tokens": "The player holds as many tokens as the server allows (MEEPLE_TOKENS_PER_PLAYER); `limit` says how many.",
    "sign_in_limited": "As many sign-in links were asked from this client address for this mail address, or in all, as "
                       "the server allows (MEEPLE_SIGN_IN_LINKS_PER_ADDRESS, _PER_CLIENT); `retry_after` says when more may be.",
    "sign_in_link_refused": "The sign-in link signs nobody in: `reason` is `link_used` (each link signs in once) or "
                            "`link_expired` (past its time, or never sent).",
    "block_not_found": "The player does not block this player.",
    "too_many_blocks": "The player blocks as many players as the server allows (MEEPLE_MAX_BLOCKS); `limit` says how many.",
    "tournament_not_found": "No tournament has this id.",
    "sign_up_closed": "The tournament has started (or ended): entrants sign up before its start.",
    "already_entered": "The player is signed up for this tournament already.",
    "tournament_full": "The tournament holds as many entrants as one may (64).",
    "not_tournament_creator": "Only the tournament's creator enters AI players.",
    "entrant_not_found": "No such entrant is in the tournament, or it withdrew already.",
    "not_your_entrant": "A player withdraws themselves; the tournament's creator withdraws the AIs they entered.",
    "tournament_over": "The tournament is over.",
    "tournament_pairing": "The tournament is pairing its next round: an entrant withdraws once it is paired.",
    "tournament_invitation_not_found": "The player has no invitation to this tournament (none, or declined).",
    "not_found": "No such path.",
    "method_not_allowed": "The path does not take this method.",
    "requested_range_not_satisfiable": "The Range asked for lies outside the file.",
    "rate_limited": "Too many requests; `retry_after` says how many seconds to wait.",
    "too_many_streams": "The client holds as many event streams open as it may: `exceeded` says which limit "
                        "(`streams_per_address` or `streams_per_token`), `limit` how many.",
    "store_unavailable": "The game store cannot be reached; try again shortly.",
    "import_interrupted": "The log's events were not all kept until the game was made of them (the server was busy); "
                          "nothing was stored: send it again.",
    "append_unconfirmed": "The move was written but too few replicas confirmed it in time; it may yet be lost: "
                          "send it again with the same Idempotency-Key to learn whether it stands.",
    "internal_error": "Something went wrong on the server's side.",
    "bad_request": "The request cannot be read as HTTP (answered before the API runs, or as it reads a chunked body).",
    "uri_too_long": "The request line (its path and query) is longer than the server reads; `limit` says how long "
                    "it may be, in bytes.",
    "request_header_fields_too_large": "The request's header is larger than the server reads: `exceeded` says which "
                                       "limit (`header_fields`, `header_field_bytes` or `header_bytes`), `limit` how large it is.",
    "expectation_failed": "The request's Expect header cannot be met.",
    "not_implemented": "The request names a transfer coding the server does not know.",
}


def http_code(status: int) -> str:
    """The code of an error known only by its HTTP status: the status's name if listed, else its class's catch-all."""
    code = HTTPStatus(status).name.lower()
    return code if code in CODES else "bad_request" if status < 500 else "internal_error"


def problem_body(status: int, code: str, detail: str, **extra: Any) -> dict[str, Any]:
    """The problem details of an error; `code` is one of CODES (tests/service/test_openapi_document.py checks)."""
    return {"type": "about:blank", "title": HTTPStatus(status).phrase, "status": status,
            "code": code, "detail": detail, **extra}
