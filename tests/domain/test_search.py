"""The `search` level: it plays legal commands, sees only what its seat may see, keeps the
heuristic's choice unless another command beats it, and stops when its budget runs out."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.bahama_taxi import BAHAMA_TAXI
from domain.bahama_taxi.bot import search_bot as taxi_search
from domain.core.game import Budget, Game, GameStatus
from domain.core.rng import Rng, SeededRng
from domain.core.search import Ismcts, Rules
from domain.djambi import DJAMBI
from domain.taki import TAKI
from domain.taki.bot import search_bot as taki_search
from domain.taki.options import Mode, TakiOptions
from tests.domain.djambi.positions import RED, position

QUICK = Budget(iterations=3)
djambi_search = DJAMBI.bot("search", Budget(iterations=6))  # its own six plays, untimed


class FakeClock:
    """A clock that reads 0 first and `step` seconds more at every later reading."""

    def __init__(self, step: float) -> None:
        self.step, self.now = step, 0.0

    def __call__(self) -> float:
        now, self.now = self.now, self.now + self.step
        return now


def play_to_end(game: Game, options: object, seats: int, levels: list[object], seed: int) -> object:  # type: ignore[type-arg]
    rng = SeededRng(seed)
    state = game.replay(options, seats, game.setup(options, seats, rng))
    for _ in range(5_000):
        status = game.status(state)
        if status.finished:
            return state
        seat = status.to_move[0]
        for event in game.decide(state, levels[seat](state, seat, rng), rng):  # raises if illegal
            state = game.evolve(state, event)
    raise AssertionError("the game did not finish")


@settings(max_examples=4, deadline=None)
@given(seats=st.integers(2, 4), seed=st.integers(0, 2**32), mode=st.sampled_from(Mode))
def test_taki_search_plays_whole_games_with_legal_commands(seats: int, seed: int, mode: Mode) -> None:
    levels = [replace(taki_search, budget=QUICK) if seat % 2 else TAKI.bots["greedy"] for seat in range(seats)]
    play_to_end(TAKI, TakiOptions(mode=mode), seats, levels, seed)


@pytest.mark.parametrize("options", [{}, {"hand_size": 4}, {"dice": True}, {"cabs_per_player": 2}, {"contraband": True},
                                     {"unknown_destination": True}, {"mirror_board": True, "passengers_from_god": True}])
def test_taxi_search_plays_whole_games_with_legal_commands(options: dict[str, object]) -> None:
    game_options = BAHAMA_TAXI.parse_options({**options, "max_rounds": 12}, 2)
    play_to_end(BAHAMA_TAXI, game_options, 2, [replace(taxi_search, budget=QUICK), BAHAMA_TAXI.bots["greedy"]], 7)


def test_djambi_search_plays_a_whole_game_with_legal_commands() -> None:
    options = DJAMBI.parse_options({}, 3)
    final = play_to_end(DJAMBI, options, 3, [djambi_search, DJAMBI.bots["random"], DJAMBI.bots["random"]], 3)
    assert DJAMBI.status(final).ranking[0] == (0,)


def test_djambi_search_takes_a_chief_when_it_can() -> None:
    state = position("rC@A9 rM@D4 bC@D5 yC@H2 gC@I8", RED)
    assert djambi_search(state, 0, SeededRng(0)).to == "H2"  # through the empty maze


def test_djambi_search_sees_the_reply_that_greedy_does_not() -> None:
    state = position("rC@A9 rM@D4 bC@D5 yC@H1 gC@I8", RED)  # yellow's chief watches D5 along the diagonal
    assert DJAMBI.bots["greedy"](state, 0, SeededRng(0)).to == "D5"
    assert djambi_search(state, 0, SeededRng(0)).to != "D5"


@pytest.mark.parametrize("budget", [Budget(iterations=6, seconds=0.0), Budget(iterations=1)])
def test_djambi_search_looks_into_no_further_play_once_its_budget_is_spent(budget: Budget) -> None:
    state = position("rC@A9 rM@D4 bC@D5 yC@H1 gC@I8", RED)
    assert DJAMBI.bot("search", budget, FakeClock(0.25))(state, 0, SeededRng(0)).to == "D5"  # the best-looking play alone, as greedy
    assert DJAMBI.bot("search", Budget(iterations=2))(state, 0, SeededRng(0)).to != "D5"


def shuffle_hidden(state, seat: int, seed: int):  # type: ignore[no-untyped-def]
    """The same state as `seat` sees it, with the cards it cannot see swapped around."""
    unseen = [card for other, hand in enumerate(state.hands) if other != seat for card in hand] + list(state.draw_pile)
    order = list(SeededRng(seed).shuffled(unseen))
    hands = list(state.hands)
    for other in range(len(hands)):
        if other != seat:
            hands[other], order = tuple(order[:len(hands[other])]), order[len(hands[other]):]
    return replace(state, hands=tuple(hands), draw_pile=tuple(order))


@pytest.mark.parametrize(("game", "search", "options"), [(TAKI, taki_search, {}), (BAHAMA_TAXI, taxi_search, {"hand_size": 4})])
def test_search_chooses_the_same_whatever_the_cards_it_cannot_see(game: Game, search: Ismcts, options: dict[str, object]) -> None:  # type: ignore[type-arg]
    search = replace(search, budget=Budget(iterations=4))
    rng = SeededRng(11)
    game_options = game.parse_options(options, 3)
    state = game.replay(game_options, 3, game.setup(game_options, 3, rng))
    compared = 0
    while not game.status(state).finished and compared < 12:
        seat = game.status(state).to_move[0]
        if len(game.legal_commands(state, seat)) > 1:
            twin = shuffle_hidden(state, seat, compared)
            assert twin != state
            assert search(twin, seat, SeededRng(compared)) == search(state, seat, SeededRng(compared))
            compared += 1
        for event in game.decide(state, game.bots["greedy"](state, seat, rng), rng):
            state = game.evolve(state, event)
    assert compared == 12


# A game of one move from three, where the command's letter decides who wins.
def toy_search(winner: dict[str, int], budget: Budget = Budget(iterations=20)) -> Ismcts:  # type: ignore[type-arg]
    def status(state: str) -> GameStatus:
        return GameStatus((), True, ((winner[state],), (1 - winner[state],))) if state else GameStatus((0,), False)

    rules = Rules(legal_commands=lambda state, seat: ("a", "b", "c"), decide=lambda state, command, rng: (command,),
                  evolve=lambda state, event: event, status=status)
    return Ismcts(rules, determinize=lambda state, seat, rng: state, policy=lambda state, seat, rng: "b",
                  evaluate=lambda state: (0.5, 0.5), seats=lambda state: 2, budget=budget, depth=4)


def test_search_keeps_the_heuristics_choice_unless_another_command_beats_it() -> None:
    assert toy_search({"a": 1, "b": 1, "c": 1})("", 0, SeededRng(0)) == "b"  # all lose alike
    assert toy_search({"a": 0, "b": 0, "c": 0})("", 0, SeededRng(0)) == "b"  # all win alike
    assert toy_search({"a": 1, "b": 1, "c": 0})("", 0, SeededRng(0)) == "c"


@pytest.mark.parametrize(("budget", "worlds"), [
    (Budget(iterations=50, seconds=0.0), 1),  # the time is up after the world it is in
    (Budget(iterations=7), 7),
    (Budget(iterations=7, seconds=60.0), 7),
    (Budget(seconds=4.0), 5),  # the clock reads 1, 2, … 5 after each world, and 5 is past 4
])
def test_a_search_samples_worlds_until_its_budget_runs_out(budget: Budget, worlds: int) -> None:
    sampled = []

    def counting(state: str, seat: int, rng: Rng) -> str:
        sampled.append(state)
        return state

    search = replace(toy_search({"a": 1, "b": 1, "c": 0}), determinize=counting)
    assert replace(search, budget=budget, clock=FakeClock(1.0))("", 0, SeededRng(0)) == "c"
    assert len(sampled) == worlds


def test_a_budget_in_seconds_needs_a_clock() -> None:
    with pytest.raises(ValueError, match="needs a clock"):
        replace(toy_search({"a": 1, "b": 1, "c": 0}), budget=Budget(iterations=7, seconds=60.0))("", 0, SeededRng(0))
    with pytest.raises(ValueError, match="needs a clock"):
        DJAMBI.bots["search"](position("rC@A9 rM@D4 bC@D5 yC@H1 gC@I8", RED), 0, SeededRng(0))


@pytest.mark.parametrize("game", [TAKI, BAHAMA_TAXI, DJAMBI], ids=lambda game: game.name)
def test_a_search_timed_on_a_clock_thinks_as_long_and_chooses_the_same_every_time(game: Game) -> None:  # type: ignore[type-arg]
    rng = SeededRng(3)
    options = game.parse_options({}, 3)
    state = game.replay(options, 3, game.setup(options, 3, rng))
    while len(game.legal_commands(state, seat := game.status(state).to_move[0])) < 3:
        for event in game.decide(state, game.bots["greedy"](state, seat, rng), rng):
            state = game.evolve(state, event)
    # A second is up when the clock, read at the start and once an iteration, passes 1.0: after
    # five iterations, as many as a budget of five would allow.
    chosen = {game.bot("search", Budget(seconds=1.0), FakeClock(0.25))(state, seat, SeededRng(9)) for _ in range(2)}
    assert chosen == {game.bot("search", Budget(iterations=5))(state, seat, SeededRng(9))}
    if isinstance(search := game.bots["search"], Ismcts):
        worlds = []

        def counting(state: object, seat: int, rng: Rng) -> object:
            worlds.append(seat)
            return search.determinize(state, seat, rng)

        assert replace(search, determinize=counting, budget=Budget(seconds=1.0), clock=FakeClock(0.25))(
            state, seat, SeededRng(9)) in chosen
        assert len(worlds) == 5


def test_each_game_says_which_levels_search_and_gives_them_a_budget() -> None:
    for game in (TAKI, BAHAMA_TAXI, DJAMBI):
        assert set(game.budgets()) == {"search"}
        assert game.bot("search", Budget(iterations=3)) == replace(game.bots["search"], budget=Budget(iterations=3))
        assert game.bot("greedy") is game.bots["greedy"]
        clock = FakeClock(1.0)
        assert game.bot("search", clock=clock) == replace(game.bots["search"], clock=clock)
        assert game.bot("greedy", clock=clock) is game.bots["greedy"]  # it needs no clock
        with pytest.raises(ValueError, match="greedy does not search"):
            game.bot("greedy", Budget(iterations=3))


@pytest.mark.parametrize("limits", [{}, {"iterations": 0}, {"seconds": -1.0}])
def test_a_budget_sets_a_limit_that_can_be_met(limits: dict[str, float]) -> None:
    with pytest.raises(ValueError, match="budget"):
        Budget(**limits)  # type: ignore[arg-type]
