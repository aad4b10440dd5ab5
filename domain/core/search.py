"""Information-set Monte Carlo tree search: the `search` level of the games with hidden cards."""

# A single-observer ISMCTS (Cowling, Powley and Whitehouse, 2012) made to work on a small
# budget. Each iteration samples a world the searching seat cannot tell from the true one
# (`determinize` sees only what the seat may see) and tries every candidate command in it,
# all with the same chance, so that commands are compared on the same deals. Below each
# candidate grows a tree shared by all worlds: a node chooses among the commands legal in the
# world at hand by UCB1 with availability counts, widening progressively (the `policy`'s
# choice first, one more child as visits grow), and the policy plays a new leaf on for
# `depth` moves before `evaluate` judges the position. The heuristic's own choice is played
# unless another command beat it, world by world, by a clear margin.

from __future__ import annotations

import itertools
import math
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from domain.core.game import Budget, Clock, GameStatus, Seat
from domain.core.rng import Rng, SeededRng

S = TypeVar("S")
C = TypeVar("C")
E = TypeVar("E")
T = TypeVar("T")

EXPLORATION = 0.7  # UCB1's constant, for outcomes between 0 and 1
WIDENING = 16  # visits a node needs per child beyond its first


@dataclass(frozen=True)
class Rules(Generic[S, C, E]):
    """The parts of a game a search plays with."""

    legal_commands: Callable[[S, Seat], Sequence[C]]
    decide: Callable[[S, C, Rng], Sequence[E]]
    evolve: Callable[[S, E], S]
    status: Callable[[S], GameStatus]

    def play(self, state: S, command: C, rng: Rng) -> S:
        for event in self.decide(state, command, rng):
            state = self.evolve(state, event)
        return state


@dataclass(eq=False, slots=True)
class _Node(Generic[C]):
    seats: int
    visits: int = 0
    available: int = 1  # iterations in which this node's command was legal at its parent
    wins: list[float] = field(default_factory=list)  # summed outcome per seat
    children: dict[C, _Node[C]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.wins = [0.0] * self.seats

    def ucb(self, seat: Seat) -> float:
        return self.wins[seat] / self.visits + EXPLORATION * math.sqrt(math.log(self.available) / self.visits)

    def may_widen(self) -> bool:
        """Progressive widening: one child (the policy's), and one more every `WIDENING` visits."""
        return len(self.children) <= self.visits // WIDENING


def outcome(status: GameStatus, seats: int) -> list[float]:
    """A finished game's share of the win per seat: the first place splits 1."""
    first = status.ranking[0] if status.ranking else ()
    return [1 / len(first) if seat in first else 0.0 for seat in range(seats)]


@dataclass(frozen=True)
class Ismcts(Generic[S, C, E]):
    """A `search` bot: call it like any other bot, `(state, seat, rng) -> command`."""

    rules: Rules[S, C, E]
    determinize: Callable[[S, Seat, Rng], S]  # a world consistent with what `seat` may see
    policy: Callable[[S, Seat, Rng], C]  # the heuristic: first choice, expansion order, play-outs
    evaluate: Callable[[S], Sequence[float]]  # each seat's estimated share of the win, mid-game
    seats: Callable[[S], int]
    budget: Budget  # an iteration samples one world and tries every candidate in it
    depth: int  # play-out moves before `evaluate` judges the position
    candidates: Callable[[S, Seat], Sequence[C]] | None = None  # commands worth trying; default: all legal
    confidence: float = 1.0  # standard errors by which a command must beat the heuristic's choice
    clock: Clock | None = None  # what the budget's seconds are read on; a budget in seconds needs one

    def __call__(self, state: S, seat: Seat, rng: Rng) -> C:
        candidates = list((self.candidates or self.rules.legal_commands)(state, seat))
        if len(candidates) == 1:
            return candidates[0]
        chance = SeededRng(rng.randint(0, 2**32 - 1))
        heuristic = self.policy(state, seat, chance)
        if heuristic not in candidates:
            candidates.append(heuristic)
        trees = {command: _Node[C](self.seats(state)) for command in candidates}
        results: dict[C, list[float]] = {command: [] for command in candidates}
        out_of_time = self.budget.timer(self.clock)
        worlds = itertools.count() if self.budget.iterations is None else range(self.budget.iterations)
        for _ in worlds:
            world, seed = self.determinize(state, seat, chance), chance.randint(0, 2**32 - 1)
            for command in candidates:
                results[command].append(self._iterate(trees[command], world, command, SeededRng(seed))[seat])
            if out_of_time():
                break
        return max(candidates, key=lambda command: (self._margin(results[command], results[heuristic]), command == heuristic))

    def _margin(self, results: Sequence[float], heuristic: Sequence[float]) -> float:
        """How surely a command beats the heuristic's choice over the same worlds (0 for that choice itself)."""
        # the mean gain less `confidence` standard errors
        gains = [mine - theirs for mine, theirs in zip(results, heuristic, strict=True)]
        if not any(gains):
            return 0.0
        return statistics.fmean(gains) - self.confidence * statistics.pstdev(gains) / math.sqrt(len(gains))

    def _iterate(self, root: _Node[C], world: S, first: C, chance: SeededRng) -> Sequence[float]:
        """One descent below the candidate `first` in `world`; returns the outcome per seat."""
        world = self.rules.play(world, first, chance)
        node, path = root, [root]
        while not (status := self.rules.status(world)).finished:
            actor = status.to_move[0]
            legal = self.rules.legal_commands(world, actor)
            tried = [command for command in legal if command in node.children]
            for command in tried:
                node.children[command].available += 1
            if len(tried) < len(legal) and (not tried or node.may_widen()):
                command = self.policy(world, actor, chance)
                if command in node.children:
                    untried = [other for other in legal if other not in node.children]
                    command = untried[chance.randint(0, len(untried) - 1)]
                child = _Node[C](root.seats)
                node.children[command] = child
                node = child
                world = self.rules.play(world, command, chance)
                path.append(node)
                break
            command = max(tried, key=lambda c: node.children[c].ucb(actor))
            node = node.children[command]
            world = self.rules.play(world, command, chance)
            path.append(node)
        reward = self._play_out(world, chance)
        for visited in path:
            visited.visits += 1
            for seat, share in enumerate(reward):
                visited.wins[seat] += share
        return reward

    def _play_out(self, world: S, chance: SeededRng) -> Sequence[float]:
        for _ in range(self.depth):
            status = self.rules.status(world)
            if status.finished:
                return outcome(status, self.seats(world))
            world = self.rules.play(world, self.policy(world, status.to_move[0], chance), chance)
        status = self.rules.status(world)
        return outcome(status, self.seats(world)) if status.finished else self.evaluate(world)


def redeal_unseen(hands: Sequence[Sequence[T]], pile: Sequence[T], seat: Seat, rng: Rng,
                  key: Callable[[T], str]) -> tuple[tuple[tuple[T, ...], ...], tuple[T, ...]]:
    """The other hands and the draw pile dealt anew from the cards `seat` cannot see, each hand keeping its size."""
    # sorted by `key` before the shuffle: the deal depends on which cards are unseen, never on where they are
    others = [other for other in range(len(hands)) if other != seat]
    unseen = sorted([card for other in others for card in hands[other]] + list(pile), key=key)
    order, dealt = rng.shuffled(unseen), list(map(tuple, hands))
    for other in others:
        dealt[other], order = order[:len(hands[other])], order[len(hands[other]):]
    return tuple(dealt), order


def softmax_shares(scores: Sequence[float]) -> list[float]:
    """Scores made into shares of a win that add up to 1, each in proportion to e^score."""
    top = max(scores)
    weights = [math.exp(score - top) for score in scores]
    total = sum(weights)
    return [weight / total for weight in weights]
