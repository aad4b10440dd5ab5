"""The test scenarios of rules/bahama_taxi.md §16 for the game this server plays, named by
number. (Scenarios of variants not yet offered — two decks, two cabs, special setups, unknown
destinations, dice, hands, Contraband — come with those variants.)"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from domain.bahama_taxi import BAHAMA_TAXI
from domain.bahama_taxi.board import AREAS, DISTANCE, EDGES, NEIGHBOURS, adjacent, fare
from domain.bahama_taxi.cards import deck
from domain.bahama_taxi.commands import (
    CollectFromGod,
    DropOff,
    End,
    EndTurn,
    Move,
    PickUp,
    PlacePolice,
    Reroute,
    Stay,
    Step,
    StopMoving,
    Transfer,
)
from domain.bahama_taxi.events import (
    CardBurned,
    CitizenAppeared,
    DestinationDrawn,
    DieRolled,
    GameEnded,
    HandDealt,
    MovementEnd,
    MovementEnded,
    PassengerDroppedOff,
    PassengerPickedUp,
    PassengerRerouted,
    PassengersTransferred,
    PawnPlaced,
    PawnTurnStarted,
    SkipReason,
    SmugglerArrested,
    StartCardRedrawn,
    TurnSkipped,
    TurnSkipPending,
    TurnStarted,
)
from domain.bahama_taxi.state import Phase
from domain.core.rng import ScriptedRng, SeededRng
from tests.domain.bahama_taxi.city import A, B, C, D, city, rejected, send

EIGHT = ["6D→8D", "AS→3C", "KH→4D", "7C→JD", "9H→2C", "QS→5H", "10C→8S", "4H→KD"]


# Board and fares

def test_1_fare_table() -> None:
    table = {("8S", "8H"): 3, ("10S", "10C"): 4, ("KC", "10H"): 2, ("3C", "AD"): 5, ("KD", "9C"): 3, ("5D", "2S"): 1,
             ("2D", "2H"): 7, ("6D", "8D"): 2}
    assert {pair: fare(*pair) for pair in table} == table
    events, after = send(city({A: "3H", B: "KC"}, riders={A: ["2D→2H"]}), Move(A, "2H"))
    assert PassengerDroppedOff(A, 0, "c1", "2H", 7) in events and after.income[A] == 7
    _, after = send(city({A: "6D", B: "KC"}, riders={A: ["5D→2S"]}), Move(A, "2S"))
    assert after.income[A] == 1


def test_2_adjacency_examples() -> None:
    assert rejected(city({A: "AS", B: "KC"}), Move(A, "AC")) == "not_adjacent"
    assert send(city({A: "5D", B: "KC"}), Move(A, "2S"))[1].cab(A).area == "2S"
    assert send(city({A: "QS", B: "KC"}), Move(A, "AS"))[1].cab(A).area == "AS"
    assert rejected(city({A: "3H", B: "KC"}), Move(A, "5H")) == "not_adjacent"


def test_3_occupied_area() -> None:
    state = city({A: "KC", B: "QH"})
    assert rejected(state, Move(A, "QH")) == "area_occupied"
    _, after = send(city({A: "KC", B: "QH"}, current=B), Move(B, "10H"))
    assert send(after, Move(A, "QH"))[1].cab(A).area == "QH"


def test_4_board_file() -> None:
    assert len(AREAS) == 52 and len(EDGES) == 128
    assert Counter(len(NEIGHBOURS[a]) for a in AREAS) == {3: 4, 4: 16, 5: 12, 6: 20}
    assert DISTANCE["5S"]["5C"] == 8 and max(DISTANCE[a][b] for a in AREAS for b in AREAS) == 8
    pairs = Counter(DISTANCE[a][b] for i, a in enumerate(AREAS) for b in AREAS[i + 1:])
    assert pairs == {1: 128, 2: 222, 3: 286, 4: 312, 5: 240, 6: 116, 7: 20, 8: 2}
    turn = str.maketrans("SHCD", "HCDS")
    assert all(adjacent(a.translate(turn), b.translate(turn)) for a, b in EDGES)
    assert adjacent("5D", "2S") and adjacent("QS", "AS") and adjacent("AC", "KC")
    assert not adjacent("3H", "5H") and not adjacent("AS", "AC")


# Setup

def new_game(seats: int, seed: int = 1, **options: object):  # type: ignore[no-untyped-def]
    chosen = BAHAMA_TAXI.parse_options(options, seats)
    events = BAHAMA_TAXI.setup(chosen, seats, SeededRng(seed))
    return events, BAHAMA_TAXI.replay(chosen, seats, events)


def test_5_base_setup_counts() -> None:
    events, state = new_game(4)
    order = events[0].order  # type: ignore[union-attr]
    placed = [e for e in events if isinstance(e, PawnPlaced)]
    assert [(e.seat, e.card) for e in placed] == list(enumerate(order[:4])) and state.discard == order[:4]
    assert not any(isinstance(e, CardBurned) for e in events)
    citizens = [e for e in events if isinstance(e, CitizenAppeared)]
    assert [card for e in citizens for card in (e.origin, e.destination)] == list(order[4:20])
    assert (citizens[0].citizen, citizens[0].origin, citizens[0].destination) == ("c1", order[4], order[5])
    assert len(state.draw_pile) == 32 and state.current == A and isinstance(events[-1], TurnStarted)


def play_to_the_end(state, seed: int = 0):  # type: ignore[no-untyped-def]
    rng, events = SeededRng(seed), []
    while not BAHAMA_TAXI.status(state).finished:
        seat = BAHAMA_TAXI.status(state).to_move[0]
        for event in BAHAMA_TAXI.decide(state, BAHAMA_TAXI.bots["greedy"](state, seat, rng), rng):
            events.append(event)
            state = BAHAMA_TAXI.evolve(state, event)
    return events, state


def test_6_three_player_burn() -> None:
    events, state = new_game(3)
    burned = [e for e in events if isinstance(e, CardBurned)]
    assert burned == [CardBurned(events[0].order[3])] and len(state.draw_pile) == 32  # type: ignore[union-attr]
    more, final = play_to_the_end(state)
    assert final.result.reason == "no_citizens_waiting"
    assert sum(isinstance(e, CitizenAppeared) for e in list(events) + more) == 24 and final.draw_pile == ()


def test_7_burn_off() -> None:
    events, state = new_game(3, parity_burn=False)
    assert not any(isinstance(e, CardBurned) for e in events) and len(state.draw_pile) == 33
    more, final = play_to_the_end(state)
    assert sum(isinstance(e, CitizenAppeared) for e in list(events) + more) == 24 and len(final.draw_pile) == 1
    six = EIGHT[:6]
    end = city({A: "6D", B: "KC"}, waiting=six, riders={A: ["9S→JS", "2H→3H"]}, pile=["5S"], moved=True,
               parity_burn=False)
    assert end.supply_exhausted and rejected(end, PickUp(A, ("c1",))) == "third_passenger_forbidden"


# Movement

def test_8_stay_forbidden_by_default() -> None:
    assert rejected(city({A: "6D", B: "KC"}), Stay(A)) == "stay_not_allowed"


def test_9_stay_allowed() -> None:
    state = city({A: "6D", B: "KC"}, waiting=EIGHT, movement="optional")
    events, after = send(state, Stay(A), PickUp(A, ("c1",)))
    assert after.cab(A).riders == ("c1",) and any(isinstance(e, CitizenAppeared) for e in events)


def blocked(**options: object):  # type: ignore[no-untyped-def]
    """A@5S hemmed in by B@4S, C@6S and D@2H; D, on 3H, is about to draw a citizen at 5S."""
    state = city({A: "5S", B: "4S", C: "6S", D: "3H"}, waiting=["2H→9D", *EIGHT[1:]], pile=["5S", "JD", "KS"],
                 current=D, **options)
    _, state = send(state, Move(D, "2H"))
    events, state = send(state, PickUp(D, ("c1",)))
    return events, state


def test_10_blocked_on_a_five() -> None:
    for from_god in (False, True):
        events, state = blocked(passengers_from_god=from_god)
        assert CitizenAppeared("c9", "5S", "JD") in events
        assert TurnSkipped(A, 0, SkipReason.BLOCKED) in events and state.current == B
        assert state.cab(A).riders == () and "c9" in state.waiting


def test_11_blocked_optional_movement() -> None:
    _, state = blocked(movement="optional")
    assert state.current == A and BAHAMA_TAXI.legal_commands(state, A) == (Stay(A),)
    _, after = send(state, Stay(A), PickUp(A, ("c9",)))
    assert after.cab(A).riders == ("c9",)


# Pickup, drop-off, replenishment

def test_12_pickup_at_end_of_move() -> None:
    state = city({A: "2S", B: "KC"}, waiting=EIGHT)
    events, after = send(state, Move(A, "6D"), PickUp(A, ("c1",)))
    assert after.cab(A).riders == ("c1",) and len(after.waiting) == 8
    top = state.draw_pile
    assert CitizenAppeared("c9", top[0], top[1]) in events


def test_12_as_one_batch() -> None:
    state = city({A: "2S", B: "KC"}, waiting=[*EIGHT, "6D→9C"])
    events, after = send(state, Move(A, "6D", pick_up=("c1", "c9")))
    assert after.cab(A).riders == ("c1", "c9") and after.current == B
    assert rejected(state, Move(A, "6D", pick_up=("c2",))) == "citizen_not_here"  # refused as a whole
    assert rejected(state, Move(A, "8S", pick_up=("c1",))) == "citizen_not_eligible"  # nobody there: the turn ended


def test_13_not_a_citizen_here() -> None:
    state = city({A: "8S", B: "KC"}, waiting=["6D→8D", "8S→KD"], moved=True)
    assert rejected(state, PickUp(A, ("c1",))) == "citizen_not_here"
    assert rejected(state, PickUp(A, ("c77",))) == "unknown_citizen"


def test_14_full_cab() -> None:
    state = city({A: "8S", B: "KC"}, waiting=["8S→KD", *EIGHT[1:]], riders={A: ["9S→JS", "2H→3H", "4C→5C"]}, moved=True)
    assert rejected(state, PickUp(A, ("c1",))) == "cab_is_full"
    assert send(state, EndTurn(A))[1].current == B


def test_15_automatic_drop_off() -> None:
    state = city({A: "10S", B: "KC"}, waiting=["8H→2D", *EIGHT[1:]], riders={A: ["8S→8H"]})
    events, after = send(state, Move(A, "8H"))
    dropped = events.index(PassengerDroppedOff(A, 0, "c9", "8H", 3))
    assert dropped == 1 and after.income[A] == 3 and after.discard[-2:] == ("8S", "8H")
    assert after.phase is Phase.END and BAHAMA_TAXI.legal_commands(after, A) == (PickUp(A, ("c1",)), EndTurn(A))


def test_16_drop_then_pick_on_one_area() -> None:
    state = city({A: "9H", B: "KC"}, waiting=["3S→8H.2", *EIGHT[1:]], riders={A: ["8S→8H.1", "9S→JS", "2H→3H"]},
                 mirror_board=True)
    events, after = send(state, Move(A, "8H"))
    assert PassengerDroppedOff(A, 0, "c9", "8H", 3) in events and after.phase is Phase.END
    assert send(after, PickUp(A, ("c1",)))[1].cab(A).riders == ("c10", "c11", "c1")


def test_17_own_replacement_not_eligible() -> None:
    state = city({A: "KS", B: "KC", C: "2D", D: "2H", 4: "5C"}, waiting=["AS.1→3C.1", *EIGHT[1:]], riders={A: ["9S.1→JS.1"]},
                 pile=["AS.2", "9C.1", "JH.2", "4S.1"], hand_size=4, hands={A: ["2C.1"]})
    events, state = send(state, Move(A, "AS"), PickUp(A, ("c1",)))
    assert CitizenAppeared("c10", "AS.2", "9C.1") in events and state.current == A  # a reroute is still open to A
    assert rejected(state, PickUp(A, ("c10",))) == "citizen_not_eligible"


# Final phase and game end

def test_18_third_passenger_forbidden() -> None:
    six = ["9C→2D", "JH→3S", *EIGHT[2:6]]
    a = city({A: "9C", B: "JH"}, waiting=six, riders={A: ["9S→JS", "2H→3H"]}, pile=0, moved=True)
    assert rejected(a, PickUp(A, ("c1",))) == "third_passenger_forbidden"
    b = city({A: "9C", B: "JH"}, waiting=six, riders={B: ["9S→JS"]}, pile=0, current=B, moved=True)
    events, after = send(b, PickUp(B, ("c2",)))
    assert len(after.waiting) == 5 and not any(isinstance(e, CitizenAppeared) for e in events)


def test_19_second_passenger_forbidden() -> None:
    four = ["9C→2D", *EIGHT[1:4]]
    assert rejected(city({A: "9C", B: "JH"}, waiting=four, riders={A: ["9S→JS"]}, pile=0, moved=True),
                    PickUp(A, ("c1",))) == "second_passenger_forbidden"
    _, after = send(city({A: "9C", B: "JH"}, waiting=four, pile=0, moved=True), PickUp(A, ("c1",)))
    assert len(after.waiting) == 3


def test_20_boundary_five() -> None:
    five = ["9C→2D", *EIGHT[1:5]]
    _, after = send(city({A: "9C", B: "JH"}, waiting=five, riders={A: ["9S→JS"]}, pile=0, moved=True), PickUp(A, ("c1",)))
    assert len(after.cab(A).riders) == 2


def test_21_game_ends_at_once() -> None:
    state = city({A: "10H", B: "JH"}, waiting=["9C→2D"], riders={B: ["9S→JS", "2H→3H"]}, pile=0)
    events, after = send(state, Move(A, "9C"), PickUp(A, ("c1",)))
    assert events[-1] == GameEnded((0, 0), ((A, B),), "no_citizens_waiting")
    assert rejected(after, EndTurn(A)) == "game_over"


def test_22_drop_offs_of_the_final_turn_count() -> None:
    state = city({A: "10H", B: "JH"}, waiting=["9C→2D"], riders={A: ["2C→9C"]}, pile=0)
    events, after = send(state, Move(A, "9C"), PickUp(A, ("c1",)))
    assert PassengerDroppedOff(A, 0, "c2", "9C", 2) in events and after.result.incomes == (2, 0)


def test_23_tie() -> None:
    state = city({A: "9C", B: "JH", C: "AS"}, waiting=["9C→2D"], pile=0, moved=True, income=(20, 20, 15))
    events, after = send(state, PickUp(A, ("c1",)))
    assert events[-1] == GameEnded((20, 20, 15), ((A, B), (C,)), "no_citizens_waiting")
    assert BAHAMA_TAXI.status(after).ranking == ((A, B), (C,)) and BAHAMA_TAXI.status(after).scores == (20, 20, 15)


def test_24_round_limit() -> None:
    state = city({A: "5D", B: "KC"}, waiting=EIGHT, max_rounds=3)
    moves = [Move(A, "2S"), Move(B, "QC"), Move(A, "5D"), Move(B, "KC"), Move(A, "2S"), Move(B, "QC")]
    for move in moves:
        state = send(state, move)[1]
        while state.result is None and state.phase is Phase.END:
            state = send(state, EndTurn(state.current))[1]
    assert state.result is not None and state.result.reason == "round_limit" and state.round_no == 3


# Passengers from God

def god(**options: object):  # type: ignore[no-untyped-def]
    """B@9S; A's pickup at 6D draws c9 = 9S→2D under B's cab."""
    state = city({A: "2S", B: "9S"}, waiting=EIGHT, pile=["9S", "2D", "KS", "QD"], **options)
    return send(state, Move(A, "6D"), PickUp(A, ("c1",)))[1]


def test_25_from_god_off() -> None:
    state = god()
    assert state.current == B and "c9" in state.waiting
    assert rejected(state, CollectFromGod(B, "c9")) == "variant_not_enabled"
    assert rejected(state, Stay(B)) == "stay_not_allowed"
    state = send(state, Move(B, "JS"))[1]
    state = send(state, Move(A, "2S"), Move(B, "9S"))[1]
    assert send(state, PickUp(B, ("c9",)))[1].cab(B).riders == ("c9",)


def test_26_from_god_on() -> None:
    state = god(passengers_from_god=True)
    events, after = send(state, CollectFromGod(B, "c9"))
    assert events[0] == PassengerPickedUp(B, 0, "c9", "9S", from_god=True) and isinstance(events[1], CitizenAppeared)
    assert after.phase is Phase.START and rejected(after, EndTurn(B)) == "wrong_phase"
    assert send(after, Move(B, "JS"))[1].cab(B).area == "JS"


def test_27_not_from_god_if_it_was_already_there() -> None:
    state = city({A: "2S", B: "8S"}, waiting=["9S→2D", *EIGHT[1:]], current=B, passengers_from_god=True)
    state = send(state, Move(B, "9S"), EndTurn(B), Move(A, "6D"))[1]
    assert state.current == B and rejected(state, CollectFromGod(B, "c1")) == "citizen_not_eligible"


def test_28_from_god_ends_the_game() -> None:
    state = city({A: "2S", B: "9S"}, waiting=["6D→8D"], pile=["9S", "2D"], passengers_from_god=True)
    state = send(state, Move(A, "6D"), PickUp(A, ("c1",)))[1]
    assert state.waiting == ("c2",) and state.supply_exhausted
    events, after = send(state, CollectFromGod(B, "c2"))
    assert events[-1].reason == "no_citizens_waiting" and after.cab(B).area == "9S"  # type: ignore[union-attr]


# Options of the 2–4 player game

def test_30_mirror_board() -> None:
    state = city({A: "9H", B: "KC"}, waiting=["8S→8H", *EIGHT[1:]], mirror_board=True)
    state = send(state, Move(A, "8H"), PickUp(A, ("c1",)))[1]
    assert state.person("c1").to_area == "8S" and state.cab(A).riders == ("c1",)
    for area in ("10S", "9S", "8S"):
        events, state = send(state, Move(B, "QC" if state.cab(B).area == "KC" else "KC"), Move(A, area))
    assert PassengerDroppedOff(A, 0, "c1", "8S", 3) in events and state.income[A] == 3
    assert rejected(city({A: "9H", B: "KC"}, waiting=["8S→8H", *EIGHT[1:]]), Move(A, "8H"), PickUp(A, ("c1",))) \
        == "not_your_turn"  # without the mirror board nobody waits at 8H: the turn ended by itself


def test_31_shift_change() -> None:
    events, state = new_game(4, setup="shift_change")
    placed = {e.seat: e.card for e in events if isinstance(e, PawnPlaced)}
    for seat in range(4):
        riders = [state.person(c) for c in state.cab(seat).riders]
        assert len(riders) == 3 and riders[0].origin == placed[seat] and riders[0].origin_area == state.cab(seat).area
    assert len(state.draw_pile) == 12 and len(state.waiting) == 8 and state.discard == ()
    rng, seen = SeededRng(3), {seat: False for seat in range(4)}  # no pickup before a drop-off frees a seat
    while not all(seen.values()) and state.result is None:
        seat = state.current
        for event in BAHAMA_TAXI.decide(state, BAHAMA_TAXI.bots["greedy"](state, seat, rng), rng):
            if isinstance(event, PassengerPickedUp):
                assert seen[event.seat], "picked up into a full cab"
            if isinstance(event, PassengerDroppedOff):
                seen[event.seat] = True
            state = BAHAMA_TAXI.evolve(state, event)


def test_32_start_cards_as_destinations() -> None:
    events, state = new_game(4, setup="start_as_destination")
    placed = [e for e in events if isinstance(e, PawnPlaced)]
    extra = [e for e in events if isinstance(e, CitizenAppeared)][:4]
    assert [e.destination for e in extra] == [p.card for p in placed] and all(p.kept for p in placed)
    assert len(state.waiting) == 12 and state.discard == () and len(state.draw_pile) == 52 - 4 - 4 - 16


# Five to eight players

def test_33_start_redraw() -> None:
    top = ["AS.1", "9H.1", "KC.1", "9H.2", "5D.1", "2S.1", "7C.1"]
    order = top + [card for card in deck(2) if card not in top]
    chosen = BAHAMA_TAXI.parse_options({}, 6)
    events = BAHAMA_TAXI.setup(chosen, 6, ScriptedRng(orders=[order]))
    assert StartCardRedrawn(3, "9H.2") in events
    assert [e.area for e in events if isinstance(e, PawnPlaced)] == ["AS", "9H", "KC", "5D", "2S", "7C"]
    state = BAHAMA_TAXI.replay(chosen, 6, events)
    assert CardBurned(order[7]) in events and len(state.draw_pile) == 104 - 7 - 1 - 16  # 97 left: odd, so a burn


TWO_AT_AS = ["AS.1→3C.1", "AS.2→KD.1", *EIGHT[2:]]


def test_34_double_pickup_together() -> None:
    state = city({A: "AS", B: "KC"}, waiting=TWO_AT_AS, riders={A: ["9S.1→JS.1"]}, moved=True, double_pickup="together")
    assert rejected(state, PickUp(A, ("c1",))) == "pickup_both_required"
    events, after = send(state, PickUp(A, ("c1", "c2")))
    assert len(after.cab(A).riders) == 3 and sum(isinstance(e, CitizenAppeared) for e in events) == 2
    two = city({A: "AS", B: "KC"}, waiting=TWO_AT_AS, riders={A: ["9S.1→JS.1", "2H.1→3H.1"]}, moved=True,
               double_pickup="together")
    assert rejected(two, PickUp(A, ("c1",))) == "pickup_both_required"
    assert rejected(two, PickUp(A, ("c1", "c2"))) == "pickup_both_required"
    final = city({A: "AS", B: "KC"}, waiting=TWO_AT_AS[:4], pile=0, moved=True, double_pickup="together")
    assert len(send(final, PickUp(A, ("c1",)))[1].cab(A).riders) == 1  # one passenger a cab: the pair rule rests


def test_35_double_pickup_separately() -> None:
    state = city({A: "AS", B: "KC"}, waiting=TWO_AT_AS, riders={A: ["9S.1→JS.1"]}, moved=True)
    _, after = send(state, PickUp(A, ("c1",)), EndTurn(A))
    assert "c2" in after.waiting and after.current == B


def test_36_double_drop_off() -> None:
    riders = {A: ["4C.1→JS.1", "8H.1→JS.2"]}
    events, _ = send(city({A: "9S", B: "KC"}, waiting=EIGHT, riders=riders), Move(A, "JS"))
    assert [e.fare for e in events if isinstance(e, PassengerDroppedOff)] == [fare("4C", "JS"), fare("8H", "JS")]
    state = city({A: "9S", B: "KC"}, waiting=EIGHT, riders=riders, double_dropoff="separately")
    state = send(state, Move(A, "JS"))[1]
    assert state.dropoff_choice == ("c9", "c10") and rejected(state, EndTurn(A)) == "dropoff_choice_pending"
    state = send(state, DropOff(A, "c10"))[1]
    assert state.cab(A).riders == ("c9",) and state.current == B
    events, state = send(state, Move(B, "QC"), Move(A, "9S"), Move(B, "KC"), Move(A, "JS"))
    assert PassengerDroppedOff(A, 0, "c9", "JS", fare("4C", "JS")) in events


def test_37_cancelled_passengers() -> None:
    waiting = ["AS.1→AS.2", *EIGHT[2:]]
    for mode, points in (("one_point_instant", 1), ("zero_point_instant", 0)):
        state = city({A: "KS", B: "KC"}, waiting=waiting, cancelled_passenger=mode)
        events, after = send(state, Move(A, "AS"), PickUp(A, ("c1",)))
        assert events[1:3] == [PassengerPickedUp(A, 0, "c1", "AS"), PassengerDroppedOff(A, 0, "c1", "AS", points)]
        assert isinstance(events[3], CitizenAppeared)  # the replacement, as after every pickup
        assert after.cab(A).riders == () and after.income[A] == points
    trip = city({A: "KS", B: "KC"}, waiting=waiting, cancelled_passenger="two_point_round_trip", movement="optional")
    trip = send(trip, Move(A, "AS"), PickUp(A, ("c1",)), Move(B, "QC"))[1]
    assert trip.cab(A).riders == ("c1",)
    stayed = send(trip, Stay(A))[1]
    assert stayed.cab(A).riders == ("c1",) and stayed.income[A] == 0  # not dropped without leaving
    events, back = send(trip, Move(A, "KS"), Stay(B), Move(A, "AS"))
    assert PassengerDroppedOff(A, 0, "c1", "AS", 2) in events and back.income[A] == 2
    full = city({A: "AS", B: "KC"}, waiting=waiting, riders={A: ["9S.1→JS.1", "2H.1→3H.1", "4C.1→5C.1"]}, moved=True)
    assert rejected(full, PickUp(A, ("c1",))) == "cab_is_full"


# Two cabs

def test_38_heads() -> None:
    state = city({A: ("2S", "9S"), B: ("KC", "QH")}, waiting=[*EIGHT, "8S→KD"], pile=["2S", "5H", "JD", "QD"],
                 two_cab_mode="both", passengers_from_god=True)
    assert {m.pawn for m in BAHAMA_TAXI.legal_commands(state, A) if isinstance(m, Move)} == {0, 1}
    events, state = send(state, Move(A, "8S", 1))  # cab 1 goes first
    assert events[0] == PawnTurnStarted(A, 1) and state.pawn == 1 and state.pawns_to_go == (0,)
    events, state = send(state, PickUp(A, ("c9",)))
    assert CitizenAppeared("c10", "2S", "5H") in events  # the replacement appears under cab 0
    assert state.current == A and state.pawn == 0 and state.phase is Phase.START  # now cab 0's pawn turn
    events, state = send(state, CollectFromGod(A, "c10"), Move(A, "3S", 0))
    assert PassengerPickedUp(A, 0, "c10", "2S", from_god=True) in events and state.current == B


def test_39_tails() -> None:
    state = city({A: ("2S", "9S"), B: ("KC", "QH")}, waiting=EIGHT, two_cab_mode="alternate")
    assert rejected(state, Move(A, "8S", 1)) == "wrong_pawn"
    state = send(state, Move(A, "3S", 0))[1]
    assert state.current == B and state.pawn == 1  # B's alternation: cab 0 played before the game began here
    state = send(state, Move(B, "10H", 1))[1]
    assert state.current == A and state.pawn == 1 and rejected(state, Move(A, "2S", 0)) == "wrong_pawn"
    assert send(state, Move(A, "10S", 1))[1].cab(A, 1).area == "10S"


def test_40_transfer() -> None:
    three = ["5D→2S", "8S→8H", "AS→3C"]
    state = city({A: ("9S", "JS"), B: ("KC", "QH")}, waiting=EIGHT[3:], riders={(A, 0): three, (A, 1): ["KH→4D"]},
                 two_cab_mode="both")
    events, after = send(state, Transfer(A, 0, 1, ("c6",)))
    assert events == [PassengersTransferred(A, 0, 1, ("c6",))]
    assert len(after.cab(A, 0).riders) == 2 and len(after.cab(A, 1).riders) == 2
    assert rejected(state, Transfer(A, 0, 1, ("c6", "c7", "c8"))) == "transfer_over_capacity"
    assert rejected(state, Transfer(A, 1, 0, ("c6",))) == "not_your_passenger"
    apart = city({A: ("9S", "3S"), B: ("KC", "QH")}, waiting=EIGHT[3:], riders={(A, 0): three}, two_cab_mode="both")
    assert rejected(apart, Transfer(A, 0, 1, ("c6",))) == "transfer_not_adjacent"
    assert rejected(state, Move(A, "10S", 0), Transfer(A, 0, 1, ("c6",))) == "wrong_phase"
    no = city({A: ("9S", "JS"), B: ("KC", "QH")}, riders={(A, 0): three}, two_cab_mode="both", cab_transfer=False)
    assert rejected(no, Transfer(A, 0, 1, ("c1",))) == "transfer_not_allowed"


def test_41_reveal_on_pickup() -> None:
    _, fresh = new_game(4, unknown_destination=True)
    assert all(fresh.person(c).destination is None for c in fresh.waiting) and len(fresh.draw_pile) == 52 - 4 - 8
    state = city({A: "2S", B: "KC"}, waiting=["6D→?", "AS→?", "KH→?"], pile=["8D", "9C", "JS", "JH", "2C", "3C"],
                 unknown_destination=True)
    events, after = send(state, Move(A, "6D"), PickUp(A, ("c1",)))
    assert events[1:4] == [PassengerPickedUp(A, 0, "c1", "6D"), DestinationDrawn("c1", "8D"), CitizenAppeared("c4", "9C", None)]
    assert after.person("c1").fare == 2
    dropped = send(after, Move(B, "QC"), Move(A, "7D"), Move(B, "KC"), Move(A, "8D"))[0]
    assert PassengerDroppedOff(A, 0, "c1", "8D", 2) in dropped


def test_42_reserve() -> None:
    eight = [f"{area}→?" for area in ("6D", "AS", "KH", "7C", "9H", "QS", "10C", "4H")]
    state = city({A: "2S", B: "KC"}, waiting=eight, pile=9, unknown_destination=True)
    assert state.supply_exhausted  # 9 - 8 < 2 before any pickup
    events, after = send(state, Move(A, "6D"), PickUp(A, ("c1",)))
    assert not any(isinstance(e, CitizenAppeared) for e in events) and len(after.waiting) == 7 and len(after.draw_pile) == 8
    full = city({A: "6D", B: "KC"}, waiting=eight, riders={A: ["9S→JS", "2H→3H"]}, pile=9, moved=True, unknown_destination=True)
    assert rejected(full, PickUp(A, ("c1",))) == "third_passenger_forbidden"


def rolled(state, *values: int):  # type: ignore[no-untyped-def]
    """A's pawn turn, B's having just ended, the die showing `values` one roll after the other."""
    return send(replace(state, current=B, phase=Phase.END), EndTurn(B), rng=ScriptedRng(dice=values))


def test_43_exact_steps_no_pickup_in_passing() -> None:
    events, state = rolled(city({A: "2S", B: "KC"}, waiting=["8S→8H", *EIGHT[1:]], dice=True), 2)
    assert DieRolled(A, 0, 2) in events and state.phase is Phase.START and state.steps_left == 2
    assert rejected(state, Move(A, "8S")) == "wrong_phase"
    after_one = send(state, Step(A, "8S"))[1]
    assert after_one.phase is Phase.MOVE and rejected(after_one, StopMoving(A)) == "must_keep_moving"
    events, after = send(after_one, Step(A, "9S"))
    assert after.cab(A).area == "9S" and after.cab(A).riders == () and "c1" in after.waiting
    assert MovementEnded(A, 0, MovementEnd.DONE) in events and after.current == B


def test_44_roll_four() -> None:
    state = city({A: "KH", B: "5C"}, waiting=EIGHT, riders={A: ["5S→2D", "9S→10H"]}, dice=True)
    events, state = rolled(state, 4)
    assert DieRolled(A, 0, 4, ("2D",)) in events and DISTANCE["KH"]["2D"] == 6
    assert rejected(state, Step(A, "JH")) == "not_toward_target"
    assert {s.to for s in BAHAMA_TAXI.legal_commands(state, A) if isinstance(s, Step)} == {"QH", "AH"}
    assert rejected(state, StopMoving(A)) == "must_keep_moving"
    for _ in range(4):
        state = send(state, next(s for s in BAHAMA_TAXI.legal_commands(state, A) if isinstance(s, Step)))[1]
    assert DISTANCE[state.cab(A).area]["2D"] == 2 and state.phase is not Phase.MOVE


def test_45_roll_four_with_an_empty_cab() -> None:
    events, state = rolled(city({A: "KH", B: "5C"}, waiting=EIGHT, dice=True), 4, 1)
    assert TurnSkipped(A, 0, SkipReason.EMPTY_CAB_ON_FOUR) in events and state.current == B


def test_46_roll_five() -> None:
    state = city({A: "KH", B: "5C"}, waiting=EIGHT, dice=True)
    _, state = rolled(state, 5)
    assert state.steps_left == 1
    events, state = send(state, Step(A, "AH"), rng=ScriptedRng(dice=[3]))  # nobody waits at AH
    assert TurnSkipPending(B) in events and TurnSkipped(B, 0, SkipReason.SKIPPED_BY_FIVE) in events
    assert state.current == A and DieRolled(A, 0, 3) in events and state.skip_pending == frozenset()


def test_47_roll_six() -> None:
    state = city({A: "2S", B: "5C"}, waiting=["8S→8H", *EIGHT[1:]], dice=True, passengers_from_god=True)
    events, state = rolled(state, 6, 1)
    assert TurnSkipped(A, 0, SkipReason.DIE_SIX) in events and state.current == B


def test_48_reroute_origin() -> None:
    state = city({A: "6D", B: "KC"}, waiting=EIGHT[1:], riders={A: ["5D→2S"]}, hands={A: ["5H", "9S", "JD", "4C"]},
                 hand_size=4)
    events, after = send(state, Reroute(A, "c8", End.FROM, "5H"))
    assert events == [PassengerRerouted(A, "c8", "from", "5D", "5H")]
    assert after.person("c8").fare == fare("5H", "2S") == 7 and after.discard[-1] == "5D" and len(after.hands[A]) == 3
    assert rejected(after, Reroute(A, "c8", End.FROM, "9C")) == "card_not_in_hand"
    assert rejected(after, Reroute(A, "c1", End.TO, "9S")) == "not_your_passenger"
    assert rejected(city({A: "6D", B: "KC"}, riders={A: ["5D→2S"]}), Reroute(A, "c1", End.TO, "9S")) == "variant_not_enabled"
    dropped = send(after, Move(A, "2S"))[0]
    assert PassengerDroppedOff(A, 0, "c8", "2S", 7) in dropped
    to = send(state, Reroute(A, "c8", End.TO, "9S"))[1]
    assert to.person("c8").to_area == "9S" and to.person("c8").origin == "5D"


def test_49_hand_secrecy() -> None:
    events, state = new_game(4, hand_size=4)
    dealt = [e for e in events if isinstance(e, HandDealt)]
    assert [len(e.cards) for e in dealt] == [4] * 4 and state.hands[A] == dealt[0].cards
    assert BAHAMA_TAXI.redact(dealt[0], B) == HandDealt(A, ("?",) * 4) and BAHAMA_TAXI.redact(dealt[0], A) == dealt[0]
    seen_by_b = BAHAMA_TAXI.view(state, B)
    assert seen_by_b.hand == state.hands[B] and seen_by_b.hand_sizes == (4, 4, 4, 4)
    shown = set(seen_by_b.discard) | {c.origin for c in seen_by_b.waiting} | {c.destination for c in seen_by_b.waiting}
    assert not set(state.hands[A]) & shown
    assert len(state.draw_pile) == 52 - 4 - 16 - 16


def test_29_mandatory_pickup() -> None:
    state = city({A: "2S", B: "KC"}, waiting=EIGHT, mandatory_pickup=True)
    state = send(state, Move(A, "6D"))[1]
    assert rejected(state, EndTurn(A)) == "mandatory_pickup_pending"
    assert BAHAMA_TAXI.legal_commands(state, A) == (PickUp(A, ("c1",)),)
    assert send(state, PickUp(A, ("c1",)))[1].current == B
    full = city({A: "6D", B: "KC"}, waiting=EIGHT, riders={A: ["9S→JS", "2H→3H", "4C→5C"]}, moved=True, mandatory_pickup=True)
    assert send(full, EndTurn(A))[1].current == B


# Bahama Contraband

def test_50_setup() -> None:
    events, state = new_game(2, contraband=True)
    assert len(events[0].order) == 48 and not any(card.startswith("3") for card in events[0].order)  # type: ignore[union-attr]
    assert state.phase is Phase.PLACING and BAHAMA_TAXI.legal_commands(state, A) == (PlacePolice(A, "3H"), PlacePolice(A, "3D"))
    assert rejected(state, PlacePolice(A, "3S")) == "not_your_start_area"
    state = send(state, PlacePolice(A, "3D"))[1]
    state = send(state, PlacePolice(B, "3S"))[1]
    assert [(p.kind, p.area) for p in state.pawns[A]] == [("smuggler", "3H"), ("police", "3D")]
    assert [(p.kind, p.area) for p in state.pawns[B]] == [("smuggler", "3C"), ("police", "3S")]
    goods = [state.person(c) for c in state.waiting]
    assert len(goods) == 8 and not any(g.origin_area.startswith("3") or (g.destination_area or "").startswith("3") for g in goods)
    assert state.phase is Phase.START and state.current == A and len(state.draw_pile) == 32


def arrest_scene(goods: list[str]):  # type: ignore[no-untyped-def]
    """Black's police on 7H, about to drive onto red's smuggler on 4H."""
    return city({A: ("4H", "KC"), B: ("JD", "7H")}, waiting=EIGHT, riders={(A, 0): goods}, current=B, pawn=1,
                contraband=True, two_cab_mode="alternate")


def test_51_arrest_by_police() -> None:
    events, state = send(arrest_scene(["8S→8H", "10S→10C"]), Move(B, "4H", 1))
    assert SmugglerArrested(B, A, "4H", ("c9", "c10"), 7) in events
    assert state.income == (0, 7) and state.cab(A, 0).riders == () and {"8S", "8H", "10S", "10C"} <= set(state.discard)
    assert state.current == A and state.pawn == 0 and state.arrested(A)
    assert rejected(state, Move(A, "QC", 1)) == "must_move_arrested_smuggler"
    assert all(isinstance(c, Move) and c.pawn == 0 for c in BAHAMA_TAXI.legal_commands(state, A))
    assert not send(state, Move(A, "3H", 0))[1].arrested(A)


def test_52_empty_smuggler() -> None:
    events, state = send(arrest_scene([]), Move(B, "4H", 1))
    assert SmugglerArrested(B, A, "4H", (), 0) in events and state.income == (0, 0)
    assert state.arrested(A) and rejected(state, Move(A, "QC", 1)) == "must_move_arrested_smuggler"


def test_53_smuggler_runs_into_police() -> None:
    def scene(**options: object):  # type: ignore[no-untyped-def]
        return city({A: ("8C", "KD"), B: ("JD", "3C")}, waiting=EIGHT, riders={(A, 0): ["8S→8H"]}, contraband=True,
                    two_cab_mode="alternate", **options)

    events, state = send(scene(), Move(A, "3C", 0))
    assert SmugglerArrested(B, A, "3C", ("c9",), 3) in events and state.income == (0, 3) and state.current == B
    assert rejected(scene(smuggler_runs_into_police=False), Move(A, "3C", 0)) == "area_occupied"


def test_54_police_carries_nothing() -> None:
    state = city({A: ("KD", "6D"), B: ("JD", "3C")}, waiting=EIGHT, contraband=True, two_cab_mode="alternate",
                 pawn=1, moved=True)
    assert rejected(state, PickUp(A, ("c1",))) == "police_cannot_carry"
    blocked = city({A: ("KD", "2S"), B: ("6D", "5D")}, waiting=EIGHT, contraband=True, two_cab_mode="alternate", pawn=1)
    assert rejected(blocked, Move(A, "5D", 1)) == "area_occupied"  # the opposing police
    own = city({A: ("6D", "2S"), B: ("JD", "5D")}, waiting=EIGHT, contraband=True, two_cab_mode="alternate", pawn=1)
    assert rejected(own, Move(A, "6D", 1)) == "area_occupied"  # its own smuggler
