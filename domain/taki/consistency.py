"""What the fold would record all the same but the rules never write: a card that does not
exist, a card played by a seat that does not hold it, a game ending with another ranking than
the rules give (§14). The log of a game played here never shows one; an imported log may."""

from __future__ import annotations

from domain.core.game import places
from domain.core.rng import ScriptedRng
from domain.taki.cards import BY_ID
from domain.taki.decide import TakiRecorder
from domain.taki.events import CardPlayed, CardsDrawn, Event, GameEnded, HandDealt, LeadingCardTurned, TakiRunClosed
from domain.taki.state import TakiState


def inconsistency(state: TakiState, event: Event) -> str | None:
    """What in `event` the rules would not have written after `state`, or None."""
    if unknown := next((card for card in _cards_named(event) if card not in BY_ID), None):
        return f"there is no card {unknown}"
    match event:
        case CardPlayed(seat, card) if BY_ID[card] not in state.hands[seat]:
            return f"seat {seat} does not hold {card}"
        case GameEnded(ranking, reason):
            recorder = TakiRecorder(state, ScriptedRng())  # the ranking draws on no chance
            recorder.finish(reason)
            if recorder.events != [event]:
                return f"the rules rank this game {places(recorder.state.result.ranking if recorder.state.result else ())}, not {places(ranking)}"
    return None


def _cards_named(event: Event) -> tuple[str, ...]:
    match event:
        case CardPlayed(card=card) | LeadingCardTurned(card) | TakiRunClosed(last_card=card):
            return (card,)
        case CardsDrawn(cards=cards) | HandDealt(cards=cards):
            return cards
    return ()
