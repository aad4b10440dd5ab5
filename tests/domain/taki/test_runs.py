"""TAKI runs (§7, §9) beyond the numbered scenarios."""

from __future__ import annotations

import pytest

from domain.taki.cards import Color
from domain.taki.events import TakiRunClosed
from tests.domain.taki.positions import apply, given, ids, play

A, B, C, D = 0, 1, 2, 3


@pytest.mark.parametrize("closer", ["K", "CC", "+3", "BRK"])
def test_a_colourless_card_closing_its_own_run_is_its_last_card(closer: str) -> None:
    # §7: a wild card closes the run "with c as its last card".
    state = given(["rTAKI r3 " + closer, "", "", ""])
    color = Color.GREEN if closer == "CC" else None
    _, events = apply(state, play(state, A, "rTAKI r3 " + closer, color=color))
    closed = [e for e in events if isinstance(e, TakiRunClosed)]
    assert closed == [TakiRunClosed(A, ids(state, A, closer)[0], declared=False)]
