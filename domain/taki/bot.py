"""AI seats for TAKI: pure functions from the state (and chance) to a legal command."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from operator import attrgetter

from domain.core.game import Budget, Seat
from domain.core.record_copies import replace
from domain.core.rng import Rng
from domain.core.search import Ismcts, Rules, redeal_unseen, softmax_shares
from domain.taki.cards import Card, Figure
from domain.taki.commands import AnnounceLastCard, CloseTaki, Command, Draw, EndTurn, Pass, Play
from domain.taki.decide import decide
from domain.taki.evolve import evolve
from domain.taki.rules import legal_commands
from domain.taki.state import TakiState, status

ATTACKS = {Figure.PLUS2: 6, Figure.STOP: 4, Figure.PLUS3: 5, Figure.CHANGE_DIRECTION: 2, Figure.PLUS: 3, Figure.TAKI: 3}
SAVED = {Figure.KING: -6, Figure.CHANGE_COLOR: -5, Figure.SUPER_TAKI: -4, Figure.PLUS3_BREAKER: -8}


def random_bot(state: TakiState, seat: Seat, rng: Rng) -> Command:
    """A random legal command, a card whenever one can be played."""
    legal = legal_commands(state, seat)
    plays: list[Command] = [command for command in legal if isinstance(command, Play)]
    choices = plays or list(legal)
    return choices[rng.randint(0, len(choices) - 1)]


def greedy_bot(state: TakiState, seat: Seat, rng: Rng) -> Command:
    """Announce in time, break +3s, shed cards, hit the next player, keep wild cards for later."""
    legal = legal_commands(state, seat)
    if AnnounceLastCard(seat) in legal:
        return AnnounceLastCard(seat)
    plays = [command for command in legal if isinstance(command, Play)]
    if state.plus3 is not None:
        return max(plays, key=lambda play: _card(state, play).figure is Figure.PLUS3_BREAKER, default=Pass(seat))
    if plays:
        best = max(plays, key=lambda play: _score(state, seat, play))
        # §13.1: say "Last card!" with the play that leaves one card, before the next player moves
        return replace(best, announce_last_card=len(state.hands[seat]) == 2)
    for fallback in (CloseTaki(seat), EndTurn(seat), Draw(seat)):
        if fallback in legal:
            return fallback
    return legal[rng.randint(0, len(legal) - 1)]


def _card(state: TakiState, play: Play) -> Card:
    card = state.find_in_hand(play.seat, play.cards[0])
    assert card is not None
    return card


def _score(state: TakiState, seat: Seat, play: Play) -> float:
    card = _card(state, play)
    hand = state.hands[seat]
    colors = Counter(c.color for c in hand if c.color is not None)
    score = 10.0 + colors[card.color] * 0.5 if card.color else 10.0
    if state.run is not None and card.color == state.run.color:
        score += 20  # keep shedding into the run
    score += ATTACKS.get(card.figure, 0) * (1.5 if min(map(len, state.hands)) <= 3 else 1)
    if len(hand) > 3:
        score += SAVED.get(card.figure, 0)
    if play.color is not None:
        score += 3.0 * colors[play.color]  # name the colour most of the hand can follow
    return score


def determinize(state: TakiState, seat: Seat, rng: Rng) -> TakiState:
    """A table `seat` cannot tell from this one: the other hands and the draw pile dealt anew from the cards it cannot see."""
    hands, pile = redeal_unseen(state.hands, state.draw_pile, seat, rng, key=attrgetter("id"))
    return replace(state, hands=hands, draw_pile=pile)


# How much each feature of a seat's position adds to its chance of going out first, as a
# conditional logit over the seats: fitted on two-seat games of `greedy` against itself by
# `python -m bench.taki_evaluation`, which prints these weights.
WEIGHTS = {
    "cards": -0.10, "king": 0.78, "change_color": 0.23, "super_taki": 0.15, "plus3_breaker": -0.26,
    "plus3": 0.29, "plus2": 0.32, "stop": 0.08, "plus": 0.07, "taki": 0.14,
    "colors": -0.31, "active_color": 0.13, "to_move": 0.04, "facing_plus2": -0.09, "one_card": 0.26,
}
COUNTED = (Figure.KING, Figure.CHANGE_COLOR, Figure.SUPER_TAKI, Figure.PLUS3_BREAKER, Figure.PLUS3, Figure.PLUS2,
           Figure.STOP, Figure.PLUS, Figure.TAKI)  # each a feature named by its figure


def features(state: TakiState, seat: Seat) -> dict[str, int]:
    """What a seat's position is judged by: cards to go, the figures that matter, colours held and followed, a move or a +2 now."""
    hand = state.hands[seat]
    figures = Counter(card.figure for card in hand)
    moving = state.current == seat
    return {
        "cards": _cards_to_go(state, seat),
        **{figure.value: figures[figure] for figure in COUNTED},
        "colors": len({card.color for card in hand if card.color is not None}),
        "active_color": sum(card.color == state.active_color for card in hand),
        "to_move": int(moving),
        "facing_plus2": state.plus2_stack if moving else 0,
        "one_card": int(len(hand) == 1),
    }


def evaluate(state: TakiState) -> list[float]:
    """Each seat's chance of going out first: all of it for a winner (§14.3), else shared by the weighted features."""
    if state.out:
        return [float(seat == state.out[0]) for seat in range(state.seats)]
    active = state.active_seats()
    scores = [sum(WEIGHTS[name] * value for name, value in features(state, seat).items()) for seat in active]
    shares = dict(zip(active, softmax_shares(scores), strict=True))
    return [shares.get(seat, 0.0) for seat in range(state.seats)]


def _cards_to_go(state: TakiState, seat: Seat) -> int:
    """Cards left to shed: the hand, and in tournament mode the hands of the stages to come (§15)."""
    stage = state.stages[seat] if state.is_tournament else 1
    return len(state.hands[seat]) + stage * (stage - 1) // 2


def candidates(state: TakiState, seat: Seat) -> list[Command]:
    """The legal commands, each play that leaves one card saying "Last card!" with it (§13.1)."""
    last = len(state.hands[seat]) == 2
    return [replace(command, announce_last_card=True) if last and isinstance(command, Play) else command
            for command in legal_commands(state, seat)]


search_bot = Ismcts(Rules(legal_commands, decide, evolve, status), determinize, greedy_bot, evaluate,
                    seats=lambda state: state.seats, budget=Budget(iterations=40, seconds=0.8), depth=0, candidates=candidates)

BOTS: dict[str, Callable[[TakiState, Seat, Rng], Command]] = {"random": random_bot, "greedy": greedy_bot, "search": search_bot}
