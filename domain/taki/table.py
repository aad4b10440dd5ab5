"""The table while a command is being decided: every event it emits is applied at once, so
each rule sees the state the previous ones left. Here live the mechanics the rules share:
drawing and reshuffling (§12), passing the turn (§8.12), "last card" (§13.1), going out (§14,
§15) and resolving a +3 (§11)."""

from __future__ import annotations

from dataclasses import dataclass

from domain.core.game import Seat
from domain.core.recorder import Recorder
from domain.core.rng import Rng
from domain.core.shuffles import seal
from domain.taki.events import (
    CardsDrawn,
    DiscardReshuffled,
    DrawReason,
    DrawShortfall,
    EndReason,
    Event,
    GameEnded,
    LastCardAnnounced,
    LastCardLapsed,
    LastCardOwed,
    LastCardPenalty,
    PlayerSkipped,
    PlayerWentOut,
    Plus3Resolved,
    Plus3WindowOpened,
    PlusUnfulfilled,
    StageCompleted,
    TakiRunLeftOpen,
    TurnStarted,
)
from domain.taki.evolve import evolve
from domain.taki.options import LastCardRule
from domain.taki.state import Phase, TakiState


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a card (or a close) left of the turn: going on, or ending with a skip or a +3."""

    ends: bool
    skip: bool = False
    plus3: bool = False


GOES_ON = Outcome(False)
ENDS = Outcome(True)


class Table(Recorder[TakiState, Event]):
    """The TAKI table while a command is decided, with the chance it may draw on."""

    def __init__(self, state: TakiState, rng: Rng) -> None:
        super().__init__(state, evolve)
        self.rng = rng

    # §12: drawing, reshuffling, running out of cards

    def draw(self, seat: Seat, count: int, reason: DrawReason) -> None:
        """`seat` draws `count` cards, reshuffling the discard pile when the draw pile runs out."""
        drawn = 0
        while drawn < count and (self.state.draw_pile or self._reshuffle()):
            cards = self.state.draw_pile[: count - drawn]
            self.emit(CardsDrawn(seat, tuple(card.id for card in cards), reason))
            drawn += len(cards)
        if drawn == 0:
            self.emit(CardsDrawn(seat, (), reason))
        if drawn < count:
            self.emit(DrawShortfall(seat, count - drawn))
        self.check_lapse(seat)

    def _reshuffle(self) -> bool:
        """Shuffle all but the leading card and the transparent cards above it (A18)."""
        discard = self.state.discard
        keep_from = discard.index(self.state.leading_card)
        if keep_from == 0:
            return False
        order = self.rng.shuffled([card.id for card in discard[:keep_from]])
        self.emit(DiscardReshuffled(order, *seal(order, self.rng)))
        return True

    # §13.1: "Last card!"

    def collect_last_card_penalties(self) -> None:
        """Before a turn action: every seat whose missed announcement is now due pays for it."""
        for seat, due in enumerate(self.state.owed):
            if due is not None and self.state.turn_no >= due:
                self.emit(LastCardPenalty(seat))
                if self.state.options.last_card_penalty:
                    self.draw(seat, self.state.options.last_card_penalty, DrawReason.LAST_CARD)

    def settle_last_card(self, seat: Seat, deadline_turn: int, announce: bool, dropped_to_one: bool) -> None:
        """A seat on one card announces it now, or owes the announcement from `deadline_turn`."""
        state = self.state
        if state.options.last_card_rule is LastCardRule.OFF or len(state.hands[seat]) != 1 or state.announced[seat]:
            return
        if announce:
            self.emit(LastCardAnnounced(seat))
        elif dropped_to_one and state.owed[seat] is None:
            self.emit(LastCardOwed(seat, deadline_turn))

    def check_lapse(self, seat: Seat) -> None:
        """An owed announcement lapses once the hand is no longer a single card."""
        if self.state.owed[seat] is not None and len(self.state.hands[seat]) != 1:
            self.emit(LastCardLapsed(seat))

    # §8.12: passing the turn

    def end_turn(self, outcome: Outcome) -> None:
        """The current turn ends: settle "last card", then pass the turn (with a skip or a +3)."""
        state = self.state
        seat = state.current
        self.settle_last_card(seat, state.turn_no + 1, state.announce_intent, state.dropped_to_one)
        if self.state.idle_turns >= len(self.state.active_seats()):
            self.finish(EndReason.STALEMATE)  # A19: a full round of draws that found nothing
            return
        following = self.state.next_seat(seat)
        if outcome.skip:
            self.emit(PlayerSkipped(following))
            following = self.state.next_seat(following)
        self.emit(TurnStarted(following, self.state.turn_no + 1))
        if outcome.plus3:
            awaiting = tuple(s for s in self.state.in_turn_order(following) if s != seat)
            self.emit(Plus3WindowOpened(seat, awaiting))

    # §11: the +3 window

    def resolve_plus3(self) -> None:
        """Nobody broke or cancelled the +3: every other player draws 3, from the current one on."""
        window = self.state.plus3
        assert window is not None
        self.emit(Plus3Resolved(window.source))
        for seat in self.state.in_turn_order(self.state.current):
            if seat != window.source and self.state.is_active(seat):
                self.draw(seat, 3, DrawReason.PLUS3)
        self.check_out(window.source)

    # §14, §15: going out, stages, the end

    def after_card(self, seat: Seat, outcome: Outcome) -> Outcome:
        """After every card: an empty hand completes a stage, owes the Plus its card, or goes out."""
        state = self.state
        if state.hands[seat]:
            return outcome
        if state.is_tournament and state.stages[seat] > 1:
            stage = state.stages[seat] - 1
            self.emit(StageCompleted(seat, stage))
            self.draw(seat, stage, DrawReason.STAGE)
            return outcome
        if state.phase is Phase.PLUS_FOLLOW_UP and seat == state.current:
            self.emit(PlusUnfulfilled(seat))  # §14.2: the Plus compels a card the player no longer has
            self.draw(seat, 1, DrawReason.PLUS)
            return ENDS
        if outcome.plus3 and state.options.plus3_last_card_resolves:
            return outcome  # §14.2: the window opens; going out is settled when it closes
        self.check_out(seat)
        if self.state.is_over:
            return ENDS
        if seat != self.state.current:
            return outcome
        if self.state.phase is Phase.IN_RUN:
            self.emit(TakiRunLeftOpen(seat))
        return Outcome(True, skip=outcome.skip)  # §14.3: no +3 window from a player who left

    def check_out(self, seat: Seat) -> None:
        """A seat with no cards goes out; the game ends unless the others play on for places."""
        state = self.state
        if state.hands[seat] or not state.is_active(seat):
            return
        self.emit(PlayerWentOut(seat, len(state.out) + 1))
        remaining = self.state.active_seats()
        if not state.options.play_for_places:
            self.finish(EndReason.WON)
        elif len(remaining) == 1:
            self.emit(PlayerWentOut(remaining[0], len(self.state.out) + 1))
            self.finish(EndReason.WON)

    def finish(self, reason: EndReason) -> None:
        """End the game: those gone out in order, then the rest by stage and fewest cards, then
        those who forfeited, the first to leave last."""
        state = self.state
        ranking: list[tuple[Seat, ...]] = [(seat,) for seat in state.out]

        def standing(seat: Seat) -> tuple[int, int]:
            return (state.stages[seat] if state.is_tournament else 0, len(state.hands[seat]))

        rest = sorted(state.active_seats(), key=standing)
        for seat in rest:
            if ranking and len(ranking) > len(state.out) and standing(ranking[-1][0]) == standing(seat):
                ranking[-1] += (seat,)
            else:
                ranking.append((seat,))
        ranking += [(seat,) for seat in reversed(state.forfeited)]
        self.emit(GameEnded(tuple(ranking), reason))
