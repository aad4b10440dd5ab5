"""Properties of many random Bahama Taxi games under random options."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.bahama_taxi import BAHAMA_TAXI
from domain.bahama_taxi.cards import contraband_deck, deck
from domain.bahama_taxi.commands import CollectFromGod, Move, PickUp, Step
from domain.bahama_taxi.options import (
    CancelledPassenger,
    DoubleDropoff,
    DoublePickup,
    Movement,
    Setup,
    TaxiOptions,
    TwoPawnMode,
    check_options,
    decks,
)
from domain.bahama_taxi.state import CAPACITY, TaxiState
from domain.bahama_taxi.views import HIDDEN
from domain.core.codec import to_primitive
from domain.core.rng import SeededRng
from tests.playing import random_game


@st.composite
def tables(draw: st.DrawFn) -> tuple[int, TaxiOptions, int]:
    """Seats, options and a seed: only the combinations §12 allows, drawn as such."""
    contraband = draw(st.booleans()) and draw(st.booleans())  # a game in four
    seats = 2 if contraband else draw(st.integers(2, 8))
    mirror = draw(st.booleans())
    setup = Setup.STANDARD if contraband else draw(st.sampled_from(Setup))
    options = TaxiOptions(
        movement=draw(st.sampled_from(Movement)),
        passengers_from_god=draw(st.booleans()),
        mandatory_pickup=draw(st.booleans()),
        mirror_board=mirror,
        setup=setup,
        unknown_destination=not mirror and setup is not Setup.START_AS_DESTINATION and draw(st.booleans()),
        hand_size=0 if contraband else draw(st.sampled_from([0, 4])),
        dice=not contraband and draw(st.booleans()),
        cabs_per_player=1 if contraband or seats > 4 else draw(st.sampled_from([1, 1, 2])),
        two_cab_mode=draw(st.sampled_from(TwoPawnMode)),
        cab_transfer=draw(st.booleans()),
        contraband=contraband,
        smuggler_runs_into_police=draw(st.booleans()),
        double_pickup=draw(st.sampled_from(DoublePickup)),
        double_dropoff=draw(st.sampled_from(DoubleDropoff)),
        cancelled_passenger=draw(st.sampled_from(CancelledPassenger)),
        parity_burn=draw(st.booleans()),
        initial_citizens=draw(st.integers(1, 8)),
        second_passenger_threshold=draw(st.integers(0, 6)),
        max_rounds=draw(st.sampled_from([0, 40, 300])),
    )
    per_seat = {Setup.STANDARD: 1, Setup.SHIFT_CHANGE: 6, Setup.START_AS_DESTINATION: 2}[setup] * options.cabs_per_player
    spare = 52 * decks(seats) - seats * (per_seat + options.hand_size)
    if spare < 2:  # the deck cannot serve this setup: a plainer one
        options = replace(options, setup=Setup.STANDARD, hand_size=0)
        spare = 52 * decks(seats) - seats * options.cabs_per_player
    options = replace(options, initial_citizens=min(options.initial_citizens, spare // 2))
    assert not check_options(options, seats)
    return seats, options, draw(st.integers(0, 2**32))


def boards(command: object) -> bool:
    return isinstance(command, (Move, Step, PickUp, CollectFromGod))


def cards(state: TaxiState) -> Counter[str]:
    """Every card where it is: the pile, the discard pile, or a citizen on the street or aboard."""
    held = [card for c in state.citizens if c.id in state.waiting or any(
        c.id in pawn.riders for pawns in state.pawns for pawn in pawns) for card in c.cards]
    hands = [card for hand in state.hands for card in hand]
    return Counter(state.draw_pile) + Counter(state.discard) + Counter(state.set_aside) + Counter(held) + Counter(hands)


def shown_cards(view: dict) -> set[str]:  # type: ignore[type-arg]
    """Every card a view shows face up."""
    citizens = view["waiting"] + [rider for cab in view["cabs"] for rider in cab["passengers"]]
    return set(view["discard"]) | {c["origin"] for c in citizens} | {c["destination"] for c in citizens}


def check(state: TaxiState) -> None:
    if state.version > 0:  # once shuffled
        assert cards(state) == Counter(contraband_deck() if state.options.contraband else deck(decks(state.seats)))
    areas = Counter(pawn.area for pawns in state.pawns for pawn in pawns if pawn.area is not None)
    for area, count in areas.items():  # no two pawns on one area, but for a Contraband arrest (§7.1)
        if count > 1:
            there = state.pawns_on(area)
            kinds = sorted(state.cab(seat, pawn).kind for seat, pawn in there)
            assert kinds == ["police", "smuggler"] and there[0][0] != there[1][0], (area, there)
    assert all(len(pawn.riders) <= CAPACITY for pawns in state.pawns for pawn in pawns)


@settings(max_examples=40, deadline=None)
@given(tables())
def test_cards_pawns_and_cabs_stay_consistent_and_replay_equals_live(table: tuple[int, TaxiOptions, int]) -> None:
    seats, options, seed = table
    events = list(BAHAMA_TAXI.setup(options, seats, SeededRng(seed)))
    for step in random_game(BAHAMA_TAXI, seats, options, seed, prefer=boards):
        state = step.before
        for event in step.events:
            state = BAHAMA_TAXI.evolve(state, event)
            check(state)
            wire, version, payload = BAHAMA_TAXI.events.encode(event)
            assert BAHAMA_TAXI.events.decode(wire, version, json.loads(json.dumps(payload))) == event
            redacted = BAHAMA_TAXI.events.encode(BAHAMA_TAXI.redact(event, 0))[2]
            assert wire != "deck_shuffled" or set(redacted["order"]) == {HIDDEN}
            assert wire != "hand_dealt" or event.seat == 0 or set(redacted["cards"]) == {HIDDEN}  # type: ignore[union-attr]
        assert state == step.after
        legal = BAHAMA_TAXI.legal_commands(step.before, step.command.seat)
        assert step.command in legal
        events += step.events
    status = BAHAMA_TAXI.status(step.after)
    assert status.finished and status.reason in {"no_citizens_waiting", "round_limit"}
    assert BAHAMA_TAXI.replay(options, seats, events) == step.after
    for seat in (0, None):  # the pile's order is in no view: only its size
        view = to_primitive(BAHAMA_TAXI.view(step.before, seat))
        assert "draw_pile" not in view and view["draw_pile_size"] == len(step.before.draw_pile)
        others = [card for s, hand in enumerate(step.before.hands) if s != seat for card in hand]
        assert view["hand"] == (list(step.before.hands[seat]) if seat is not None and step.before.hands else None)
        assert not set(others) & shown_cards(view)


@settings(max_examples=15, deadline=None)
@given(tables())
def test_every_listed_command_is_accepted(table: tuple[int, TaxiOptions, int]) -> None:
    seats, options, seed = table
    for number, step in enumerate(random_game(BAHAMA_TAXI, seats, options, seed, prefer=boards)):
        if number % 5:
            continue
        seat = BAHAMA_TAXI.status(step.before).to_move[0]
        for command in BAHAMA_TAXI.legal_commands(step.before, seat):
            BAHAMA_TAXI.decide(step.before, command, SeededRng(0))  # raises if refused
