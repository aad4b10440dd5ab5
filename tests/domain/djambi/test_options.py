"""Every value of every ruleset option of §3 (the defaults are exercised by the scenarios)."""

from __future__ import annotations

import pytest

from domain.core.errors import OptionsInvalid
from domain.core.rng import SeededRng
from domain.djambi import DJAMBI
from domain.djambi.events import Elimination, GameEnded, PlayerEliminated
from domain.djambi.options import Encirclement, NecromobileRescue
from tests.domain.djambi.positions import (
    BLUE,
    GREEN,
    RED,
    YELLOW,
    dest,
    play,
    plays,
    position,
    rejected,
    to_move,
    turns,
)


def test_self_kill_false_spares_every_own_piece_captured_armies_included() -> None:
    text = "rC@A9 rM@E3 bM@E4 bC@F3 X@B2 yC@I1 gC@A1"  # blue's chief is dead: red controls blue
    state = position(text.replace("bC@F3", "X@F3"), RED, controllers={BLUE: RED})
    assert "E4" in dest(state, "E3")
    assert "E4" not in dest(position(text.replace("bC@F3", "X@F3"), RED, controllers={BLUE: RED}, self_kill=False), "E3")


def test_reporter_may_abstain_false_forces_the_kill_when_there_is_a_target() -> None:
    text = "rC@A9 rR@D2 bC@C6 bM@D7 yC@I1 gC@A1"
    strict = position(text, RED, reporter_may_abstain=False)
    assert plays(strict, "D2", "D6") == {"D2-D6 report C6", "D2-D6 report D7"}
    assert rejected(strict, "D2-D6") == "report_required"
    assert "D2-D3" in plays(strict, "D2", "D3")  # nothing to kill there: the plain move stands


def test_master_moves_false_forbids_the_diplomat_master_move_too() -> None:
    text = "rC@A9 rD@H5 bC@E5 yC@E8 gC@A1"
    assert rejected(position(text, RED, master_moves=False), "H5-E5 exit E8 place A5") == "illegal_exit"
    assert "H5-E5 exit E8 place A5" in plays(position(text, RED), "H5", "E5")


def test_diplomat_chief_into_maze_false_keeps_chiefs_out_of_the_maze() -> None:
    text = "rC@A9 rD@B5 bC@H5 bM@I1 yC@I3 gC@A1"
    assert rejected(position(text, RED, diplomat_chief_into_maze=False), "B5-H5 place E5") == "illegal_place"
    assert "B5-H5 place E5" in plays(position(text, RED), "B5", "H5")


POCKET = "rC@A9 rM@A8 X@B8 X@B9 X@A7 X@B7 X@C7 X@C8 X@C9 bC@I9 bM@H5 yC@I1 gC@A1"


@pytest.mark.parametrize(("encirclement", "encircled"), [
    (Encirclement.ADJACENT, False),  # a living militant stands next to the chief
    (Encirclement.ENCLOSURE, True),  # chief and militant together touch only corpses
    (Encirclement.MAZE_ACCESS, True),  # corpses wall off every path to the maze
])
def test_encirclement_definitions(encirclement: Encirclement, encircled: bool) -> None:
    state = position(POCKET, BLUE, encirclement=encirclement)
    events, after = play(state, "H5-H4")
    assert (PlayerEliminated(0, Elimination.ENCIRCLED) in events) is encircled
    assert (0 in after.remaining) is not encircled


def test_enclosure_is_broken_by_an_enemy_piece_and_maze_access_by_a_path() -> None:
    touching = POCKET.replace("X@B7", "bM@B7")  # next to the militant, not to the chief
    assert 0 in play(position(touching, BLUE, encirclement=Encirclement.ENCLOSURE), "H5-H4")[1].remaining
    opened = POCKET.replace("X@A7", "yM@A7")  # a living piece: the path runs A8, A7, A6 …
    assert 0 in play(position(opened, BLUE, encirclement=Encirclement.MAZE_ACCESS), "H5-H4")[1].remaining


def test_necromobile_rescue_any_on_board() -> None:
    text = "rC@A9 X@A8 X@B8 rA@B9 rM@C5 bC@I9 bR@F9 bN@H2 yC@I1 gC@A1"
    _, controlled = play(position(text, BLUE), "F9-C9 report B9")
    assert 0 not in controlled.remaining  # only blue has a necromobile: red is encircled
    _, anywhere = play(position(text, BLUE, necromobile_rescue=NecromobileRescue.ANY_ON_BOARD), "F9-C9 report B9")
    assert 0 in anywhere.remaining  # a living necromobile exists: nobody is encircled


def test_no_progress_limit_draws_and_zero_turns_it_off() -> None:
    text = "rC@A9 bC@I9 yC@I1 gC@A1"
    state = position(text, RED, no_progress_limit=1)
    events, after = play(state, "A9-A8")
    assert events[-1] == GameEnded("draw", (0, 1, 2, 3), "no_progress") and DJAMBI.status(after).ranking == ((0, 1, 2, 3),)
    state = position(text, RED, no_progress_limit=0)
    for move in ("A9-A8", "I9-I8", "I1-I2", "A1-A2", "A8-A9", "I8-I9", "I2-I1", "A2-A1") * 30:
        _, state = play(state, move)
    assert state.result is None and state.quiet == 240


def test_hostage_army_may_be_any_colour_in_a_three_player_game() -> None:
    options = DJAMBI.parse_options({"hostage_army": "blue"}, 3)
    state = DJAMBI.replay(options, 3, DJAMBI.setup(options, 3, SeededRng(0)))
    assert state.players == (RED, YELLOW, GREEN) and state.hostage is BLUE
    assert to_move(state)[0] is RED and turns(state, 3) == ["yellow", "green", "red"]
    with pytest.raises(OptionsInvalid) as error:
        DJAMBI.parse_options({"hostage_army": "blue"}, 4)
    assert "hostage_army" in error.value.errors
