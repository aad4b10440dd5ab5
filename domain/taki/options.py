"""Every TAKI variant of §18, each with its default."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from domain.core.options import option


class Mode(StrEnum):
    CLASSIC = "classic"
    TOURNAMENT = "tournament"


class LastCardRule(StrEnum):
    ON = "on"
    OFF = "off"


class TakiClose(StrEnum):
    EXPLICIT = "explicit"
    AUTO = "auto"


class SuperTakiAfterKing(StrEnum):
    INHERIT = "inherit"
    CHOOSE = "choose"


class KingOnPlus3(StrEnum):
    CANCEL = "cancel"
    NOT_ALLOWED = "not_allowed"


@dataclass(frozen=True, slots=True)
class TakiOptions:
    mode: Mode = option(Mode.CLASSIC, "classic, or the 8-stage tournament (§15)")
    first_seat: int = option(0, "the seat that plays first (§3, step 4)", minimum=0, maximum=9)
    play_for_places: bool = option(False, "play on after the first player goes out, for places (§14.3)")
    draw_requires_no_legal_play: bool = option(False, "a player may draw only when holding no legal card (A12)")
    last_card_rule: LastCardRule = option(LastCardRule.ON, "whether 'last card' must be announced (§13.1)")
    last_card_penalty: int = option(4, "cards drawn for a missed 'last card' (§13.1)", minimum=0, maximum=20)
    taki_close: TakiClose = option(TakiClose.EXPLICIT, "auto closes a closable run when its owner's turn ends (§9.7)")
    super_taki_after_king: SuperTakiAfterKing = option(
        SuperTakiAfterKing.INHERIT, "a SuperTaki after a King takes the colour under it, or one chosen (§8.8)"
    )
    king_on_plus3: KingOnPlus3 = option(KingOnPlus3.CANCEL, "whether the next player's King cancels a +3 (§11.1)")
    plus3_last_card_resolves: bool = option(False, "a +3 played as the last card still opens its window (§14.2)")
    plus3_response_seconds: int = option(15, "seconds each seat has to answer a +3 (§11.1)", minimum=1, maximum=86400)
    two_player_reverse_skips: bool = option(False, "with two players Change Direction acts like Stop (§16)")


def check_options(options: TakiOptions, seats: int) -> Mapping[str, str]:
    """Problems between the options and the seat count."""
    if options.first_seat >= seats:
        return {"first_seat": f"must be one of the game's {seats} seats"}
    return {}
