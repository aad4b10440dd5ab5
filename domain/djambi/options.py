"""The ruleset options of §3, each with its default."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from domain.core.options import option
from domain.djambi.pieces import Color


class Encirclement(StrEnum):
    ADJACENT = "adjacent"  # every square next to the chief holds a corpse
    ENCLOSURE = "enclosure"  # the chief's group of own pieces touches no empty square and no enemy
    MAZE_ACCESS = "maze_access"  # no path of squares free of corpses leads from the chief to the maze


class NecromobileRescue(StrEnum):
    CONTROLLED = "controlled"  # a living necromobile the chief's player controls
    ANY_ON_BOARD = "any_on_board"  # any living necromobile anywhere


@dataclass(frozen=True, slots=True)
class DjambiOptions:
    self_kill: bool = option(True, "a player may kill pieces of armies they control, except their own chief (A3)")
    reporter_may_abstain: bool = option(True, "a reporter may move without killing when it has a target (A4)")
    master_moves: bool = option(True, "the exit move of an assassin or diplomat may target a living chief (§9.5)")
    diplomat_chief_into_maze: bool = option(True, "a diplomat may drop a manipulated chief on an empty maze (§8.5)")
    encirclement: Encirclement = option(Encirclement.ADJACENT, "when a chief is encircled (§11.2)")
    necromobile_rescue: NecromobileRescue = option(
        NecromobileRescue.CONTROLLED, "whose living necromobile protects a chief from encirclement (A13)"
    )
    no_progress_limit: int = option(200, "turns without a kill or an elimination before the game is drawn; 0 = off (§16)",
                                    minimum=0, maximum=10_000)
    hostage_army: Color = option(Color.GREEN, "the army nobody plays in a three-player game (§14)")


def check_options(options: DjambiOptions, seats: int) -> Mapping[str, str]:
    """Problems between the options and the seat count."""
    if seats == 4 and options.hostage_army is not Color.GREEN:
        return {"hostage_army": "a four-player game has no hostage army"}
    return {}
