"""The options of §14 this server plays, each with its default."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from domain.core.options import option


class Setup(StrEnum):
    STANDARD = "standard"
    SHIFT_CHANGE = "shift_change"  # every cab starts full (§11.5)
    START_AS_DESTINATION = "start_as_destination"  # start cards become destinations (§11.6)


class DoublePickup(StrEnum):
    SEPARATELY = "separately"  # each citizen an ordinary pickup
    TOGETHER = "together"  # citizens waiting together are taken together or not at all (§11.7)


class DoubleDropoff(StrEnum):
    TOGETHER = "together"  # every passenger bound here gets out
    SEPARATELY = "separately"  # one per end phase, the seat chooses (§11.7)


class CancelledPassenger(StrEnum):
    ONE_POINT_INSTANT = "one_point_instant"
    ZERO_POINT_INSTANT = "zero_point_instant"
    TWO_POINT_ROUND_TRIP = "two_point_round_trip"


class TwoPawnMode(StrEnum):
    COIN = "coin"  # a coin flipped at setup: heads both, tails alternate (§11.8)
    BOTH = "both"  # every turn moves both pawns, in the order the seat chooses
    ALTERNATE = "alternate"  # one pawn a turn, cab 0 first


class Movement(StrEnum):
    MANDATORY = "mandatory"  # every pawn turn moves one area (§7.2)
    OPTIONAL = "optional"  # the original rule: a cab may stay


@dataclass(frozen=True, slots=True)
class TaxiOptions:
    movement: Movement = option(Movement.MANDATORY, "whether a cab must move each turn or may stay (§7.2)")
    passengers_from_god: bool = option(False, "a cab may collect, before moving, a citizen that appeared under it (§11.2)")
    mandatory_pickup: bool = option(False, "a cab ending on a citizen with room must take it (§11.3)")
    mirror_board: bool = option(False, "a citizen may be picked up at either end and rides to the other (§11.4)")
    unknown_destination: bool = option(False, "a citizen's destination is drawn only when it is picked up (§11.9)")
    double_pickup: DoublePickup = option(DoublePickup.SEPARATELY, "two decks: citizens waiting together (§11.7)")
    double_dropoff: DoubleDropoff = option(DoubleDropoff.TOGETHER, "two decks: passengers bound for one area (§11.7)")
    cancelled_passenger: CancelledPassenger = option(
        CancelledPassenger.ONE_POINT_INSTANT, "two decks: a citizen whose two cards are the same area (§11.7)")
    cabs_per_player: int = option(1, "cabs each seat drives (§11.8)", minimum=1, maximum=2)
    two_cab_mode: TwoPawnMode = option(TwoPawnMode.COIN, "how two cabs take their turns (§11.8)")
    cab_transfer: bool = option(True, "two adjacent cabs of a seat may pass passengers at the start of its turn (§11.8)")
    contraband: bool = option(False, "Bahama Contraband for two: smugglers and police (§11.12)")
    smuggler_runs_into_police: bool = option(True, "a smuggler driving onto the opposing police is arrested (§11.12)")
    dice: bool = option(False, "a die rolled before each pawn turn says how the cab moves (§11.10)")
    hand_size: int = option(0, "cards dealt to each seat to reroute its passengers with; 0 or 4 (§11.11)", minimum=0, maximum=4)
    setup: Setup = option(Setup.STANDARD, "how the game is set up (§4, §11.5, §11.6)")
    parity_burn: bool = option(True, "burn a card when the pile is odd before the citizens are drawn (§4)")
    initial_citizens: int = option(8, "citizens drawn at setup (§4)", minimum=1, maximum=20)
    second_passenger_threshold: int = option(
        4, "with this many citizens waiting or fewer, no cab may take a second passenger (§8.5)", minimum=0, maximum=26)
    max_rounds: int = option(300, "rounds after which the game ends anyway; 0 = no limit (§9)", minimum=0, maximum=10_000)


def decks(seats: int) -> int:
    """One deck for 2–4 players, two for 5–8 (§11.7)."""
    return 1 if seats <= 4 else 2


def check_options(options: TaxiOptions, seats: int) -> Mapping[str, str]:
    """Problems between the options and the seat count, by option (§4, §12)."""
    if options.unknown_destination and options.mirror_board:
        return {"unknown_destination": "cannot be combined with mirror_board: there is no second end to board at (§12)"}
    if options.unknown_destination and options.setup is Setup.START_AS_DESTINATION:
        return {"unknown_destination": "cannot be combined with setup start_as_destination: the destination would be known (§12)"}
    if options.contraband:
        clashes = {"dice": options.dice, "hand_size": options.hand_size > 0, "cabs_per_player": options.cabs_per_player == 2,
                   "setup": options.setup is not Setup.STANDARD}
        if clash := next((name for name, on in clashes.items() if on), None):
            return {"contraband": f"cannot be combined with {clash} (§12)"}
        if seats != 2:
            return {"contraband": "is a game for exactly 2 players (§12)"}
    if options.hand_size not in (0, 4):
        return {"hand_size": "must be 0 (no hands) or 4 (§11.11)"}
    if options.cabs_per_player == 2 and seats > 4:
        return {"cabs_per_player": "two cabs are for 2 to 4 players (§12)"}
    cards_per_seat = {Setup.STANDARD: 1, Setup.SHIFT_CHANGE: 6, Setup.START_AS_DESTINATION: 2}[options.setup]
    cards_per_seat = cards_per_seat * options.cabs_per_player + options.hand_size
    if seats * cards_per_seat + 2 * options.initial_citizens > 52 * decks(seats):
        return {"initial_citizens": f"the deck cannot deal {options.initial_citizens} citizens after the setup of {seats} seats"}
    return {}
