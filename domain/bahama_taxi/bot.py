"""AI seats for Bahama Taxi: pure functions from the state (and chance) to a legal command."""

from __future__ import annotations

from collections.abc import Callable

from domain.bahama_taxi.board import DISTANCE, Area
from domain.bahama_taxi.commands import CollectFromGod, Command, EndTurn, Move, PickUp, Step
from domain.bahama_taxi.decide import decide
from domain.bahama_taxi.evolve import evolve
from domain.bahama_taxi.rules import legal_commands
from domain.bahama_taxi.state import PawnKind, TaxiState, status
from domain.core.game import Budget, Seat
from domain.core.record_copies import replace
from domain.core.rng import Rng
from domain.core.search import Ismcts, Rules, redeal_unseen, softmax_shares


def random_bot(state: TaxiState, seat: Seat, rng: Rng) -> Command:
    """A random legal command; it picks up whoever it may."""
    legal = legal_commands(state, seat)
    pickups: list[Command] = [c for c in legal if isinstance(c, (PickUp, CollectFromGod))]
    choices = pickups or list(legal)
    return choices[rng.randint(0, len(choices) - 1)]


def greedy_bot(state: TaxiState, seat: Seat, rng: Rng) -> Command:
    """Take the best-paying citizen it may, then drive toward the nearest drop-off or pickup."""
    legal = legal_commands(state, seat)
    boardings = [c for c in legal if isinstance(c, (PickUp, CollectFromGod))]
    if boardings:
        return max(boardings, key=lambda c: _fare(state, c))
    moves = [c for c in legal if isinstance(c, (Move, Step))]
    if not moves:
        return EndTurn(seat) if EndTurn(seat) in legal else legal[0]
    return min(moves, key=lambda move: (min((DISTANCE[move.to][goal] for goal in _goals(state, seat, move.pawn)), default=0),
                                        rng.randint(0, 9)))


def _fare(state: TaxiState, command: PickUp | CollectFromGod) -> int:
    """The fare, or with unknown destinations the average a citizen pays (about 4)."""
    citizen = command.citizen if isinstance(command, CollectFromGod) else command.citizens[0]
    return state.person(citizen).fare or 4


def _goals(state: TaxiState, seat: Seat, pawn: int) -> list[Area]:
    """Where the cab wants to be: its passengers' destinations, and citizens it could take."""
    cab = state.cab(seat, pawn)
    if cab.kind is PawnKind.POLICE:  # Contraband: after the opposing smuggler
        return [smuggler.area for other, pawns in enumerate(state.pawns) if other != seat
                for smuggler in pawns[:1] if smuggler.area is not None]
    goals = [area for c in cab.riders if (area := state.person(c).to_area) is not None]
    if len(cab.riders) < state.pickup_limit():
        for waiting in (state.person(c) for c in state.waiting):
            ends = (waiting.origin_area, waiting.destination_area) if state.options.mirror_board else (waiting.origin_area,)
            goals += [area for area in ends if area is not None and area != cab.area]
    return goals


def determinize(state: TaxiState, seat: Seat, rng: Rng) -> TaxiState:
    """A city `seat` cannot tell from this one: the pile reshuffled, others' hands (§11.11) dealt anew (§10)."""
    hands, pile = redeal_unseen(state.hands, state.draw_pile, seat, rng, key=str)
    return replace(state, hands=hands, draw_pile=pile)


def evaluate(state: TaxiState) -> list[float]:
    """Each seat's chance of the highest income, from its income and its passengers' fares discounted by distance."""
    worth = []
    for seat, pawns in enumerate(state.pawns):
        value = float(state.income[seat])
        for cab in pawns:
            for rider in map(state.person, cab.riders):
                if rider.to_area is None or cab.area is None:
                    value += 2.0
                else:
                    value += (rider.fare or 4) * 0.85 ** DISTANCE[cab.area][rider.to_area]
        worth.append(value)
    return softmax_shares([0.4 * value for value in worth])


search_bot = Ismcts(Rules(legal_commands, decide, evolve, status), determinize, greedy_bot, evaluate,
                    seats=lambda state: state.seats, budget=Budget(iterations=24, seconds=0.8), depth=10)

BOTS: dict[str, Callable[[TaxiState, Seat, Rng], Command]] = {"random": random_bot, "greedy": greedy_bot, "search": search_bot}
