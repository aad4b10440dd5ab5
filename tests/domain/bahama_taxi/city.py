"""Bahama Taxi positions written as in the spec's scenarios, and helpers to play on them."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from domain.bahama_taxi import BAHAMA_TAXI
from domain.bahama_taxi.cards import deck
from domain.bahama_taxi.commands import Command
from domain.bahama_taxi.events import Event
from domain.bahama_taxi.evolve import initial
from domain.bahama_taxi.options import TwoPawnMode
from domain.bahama_taxi.state import Citizen, Pawn, PawnKind, Phase, TaxiState
from domain.core.errors import RuleViolation
from domain.core.rng import Rng, SeededRng

A, B, C, D = 0, 1, 2, 3


def city(
    cabs: dict[int, str | tuple[str, str]],
    waiting: list[str] = (),  # type: ignore[assignment]
    riders: dict[int | tuple[int, int], list[str]] | None = None,
    pile: int | list[str] | None = None,
    current: int = A,
    seats: int | None = None,
    moved: bool = False,
    pawn: int = 0,
    income: tuple[int, ...] | None = None,
    hands: dict[int, list[str]] | None = None,
    **options: Any,
) -> TaxiState:
    """Cabs by seat (`{A: "2S"}`, or two: `{A: ("9S", "JS")}`), waiting citizens and passengers
    as `6D→8D` or `6D→?` (ids c1, c2, … in that order; riders by seat, or by (seat, cab)), and
    the draw pile: its top cards, or a size (the unused cards, in deck order). It is `current`'s
    turn in round 1, before its (first) cab — or `pawn` — moves (or, `moved`, in its end phase).
    In Contraband each seat's two areas are its smuggler's and its police's."""
    seats = seats or len(cabs)
    two_cabs = not options.get("contraband") and any(isinstance(cab, tuple) for cab in cabs.values())
    chosen = BAHAMA_TAXI.parse_options({"cabs_per_player": 2} | options if two_cabs else options, seats)
    state = initial(chosen, seats)
    citizens: dict[str, Citizen] = {}
    areas = {seat: (cab,) if isinstance(cab, str) else cab for seat, cab in cabs.items()}
    used = {area for pair in areas.values() for area in pair}

    def add(text: str) -> str:
        origin, destination = text.split("→")  # "?": not drawn yet (unknown destinations)
        citizen = Citizen.drawn(f"c{len(citizens) + 1}", origin, None if destination == "?" else destination, 0)
        citizens[citizen.id] = citizen
        used.update(citizen.cards)
        return citizen.id

    waiting_ids = tuple(add(text) for text in waiting)
    aboard = {(key, 0) if isinstance(key, int) else key: texts for key, texts in (riders or {}).items()}
    kinds = (PawnKind.SMUGGLER, PawnKind.POLICE) if chosen.contraband else (PawnKind.TAXI, PawnKind.TAXI)
    pawns = tuple(tuple(Pawn(area, kinds[pawn], tuple(add(t) for t in aboard.get((seat, pawn), [])))
                        for pawn, area in enumerate(areas[seat])) for seat in range(seats))
    two = len(pawns[current]) == 2
    mode = None if not two else TwoPawnMode.BOTH if chosen.two_cab_mode is TwoPawnMode.COIN else chosen.two_cab_mode
    if isinstance(pile, list):
        draw_pile = tuple(pile)
    else:
        unused = tuple(card for card in deck(1) if card not in used)
        draw_pile = unused if pile is None else unused[:pile]
    return replace(state, pawns=pawns, citizens=tuple(citizens.values()), waiting=waiting_ids, draw_pile=draw_pile,
                   two_pawn_mode=mode, pawn=pawn, pawns_to_go=(1 - pawn,) if mode is TwoPawnMode.BOTH else (),
                   alternation=(1,) * seats if mode is TwoPawnMode.ALTERNATE else (),
                   current=current, phase=Phase.END if moved else Phase.START, end_started=1, turn_no=1, round_no=1,
                   version=1, income=income or state.income,
                   hands=tuple(tuple((hands or {}).get(seat, [])) for seat in range(seats)) if hands else ())


def send(state: TaxiState, *commands: Command, rng: Rng | None = None) -> tuple[list[Event], TaxiState]:
    """Play `commands` in order; `rng` rolls the dice."""
    events: list[Event] = []
    for command in commands:
        for event in BAHAMA_TAXI.decide(state, command, rng or SeededRng(0)):
            events.append(event)
            state = BAHAMA_TAXI.evolve(state, event)
    return events, state


def rejected(state: TaxiState, *commands: Command) -> str:
    """The reason the last of `commands` is refused (the ones before it are played)."""
    *before, last = commands
    _, state = send(state, *before)
    try:
        BAHAMA_TAXI.decide(state, last, SeededRng(0))
    except RuleViolation as violation:
        return violation.reason
    raise AssertionError(f"{last} was accepted")
