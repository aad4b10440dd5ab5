"""What a TAKI command causes. TAKI checks a command by deciding it: its cards are played one at
a time on a TakiRecorder, each rule raising where it applies (§6 which card, §7 and §9 a play
and runs, §8 what a card does, §11 the +3 window, §12 drawing, §13 announcements), so that a
batch is judged on the table its earlier cards left; `rules.violation` is this, in trial."""

from __future__ import annotations

from dataclasses import dataclass
from typing import assert_never

from domain.core.errors import RuleViolation
from domain.core.game import Seat
from domain.core.recorder import Recorder
from domain.core.rng import Rng, ScriptedRng
from domain.core.shuffles import seal
from domain.taki.cards import NUMBERS, Card, Color, Figure
from domain.taki.commands import AnnounceLastCard, CloseTaki, Command, Draw, EndTurn, Forfeit, Pass, Play
from domain.taki.events import (
    BreakerPenalty,
    CardPlayed,
    CardsDrawn,
    ColorChosen,
    DirectionChanged,
    DiscardReshuffled,
    DrawReason,
    DrawShortfall,
    EndReason,
    Event,
    GameEnded,
    KingFollowUp,
    LastCardAnnounced,
    LastCardLapsed,
    LastCardOwed,
    LastCardPenalty,
    PlayerForfeited,
    PlayerSkipped,
    PlayerWentOut,
    Plus2StackCancelled,
    Plus2Stacked,
    Plus2StackTaken,
    Plus3Broken,
    Plus3Cancelled,
    Plus3Passed,
    Plus3Resolved,
    Plus3WindowOpened,
    PlusFollowUp,
    PlusUnfulfilled,
    Role,
    StageCompleted,
    TakiRunClosed,
    TakiRunLeftOpen,
    TakiRunOpened,
    TurnStarted,
)
from domain.taki.evolve import evolve
from domain.taki.options import KingOnPlus3, LastCardRule, SuperTakiAfterKing, TakiClose
from domain.taki.state import Phase, TakiState


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a card (or a close) left of the turn: going on, or ending with a skip or a +3."""

    ends: bool
    skip: bool = False
    plus3: bool = False


GOES_ON = Outcome(False)
ENDS = Outcome(True)


class TakiRecorder(Recorder[TakiState, Event]):
    """The TAKI table while a command is decided, with the chance it may draw on, and the mechanics the rules share."""

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
        """End the game, ranked: those gone out in order, the rest by stage and fewest cards, then the forfeited, the first to leave last."""
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


# Commands

def decide(state: TakiState, command: Command, rng: Rng) -> tuple[Event, ...]:
    """The events `command` causes; it raises the first rule it breaks, as `rules.violation` names it."""
    if state.is_over:
        raise RuleViolation("game_over", "The game is over.")
    if not 0 <= command.seat < len(state.hands):
        raise RuleViolation("not_in_game", f"No seat {command.seat} plays.")
    recorder = TakiRecorder(state, rng)
    match command:
        case Play():
            _play(recorder, command)
        case Draw(seat):
            _draw(recorder, seat)
        case CloseTaki(seat):
            _close_taki(recorder, seat)
        case EndTurn(seat):
            _end_turn(recorder, seat)
        case Pass(seat):
            _pass(recorder, seat)
        case AnnounceLastCard(seat):
            _announce(recorder, seat)
        case Forfeit(seat):
            forfeit(recorder, seat)
        case _:
            assert_never(command)
    return tuple(recorder.events)


def trial(state: TakiState, command: Command, chance: Rng) -> RuleViolation | None:
    """Why `command` is refused now, or None: it is decided on `chance` and its events dropped."""
    try:
        decide(state, command, chance)
    except RuleViolation as problem:
        return problem
    return None


# §6: which single card is legal

def basic_match(state: TakiState, card: Card) -> bool:
    """A wild card, the active colour, or the leading card's figure (§6)."""
    return card.is_wild or card.color == state.active_color or card.match_figure is state.leading_card.match_figure


def card_violation(state: TakiState, card: Card) -> RuleViolation | None:
    """Why `card` may not be played now outside a run, or None (§6)."""
    if state.phase is Phase.KING_FOLLOW_UP:
        return None  # §8.9: any card, no matching
    if state.plus2_stack and card.figure not in (Figure.PLUS2, Figure.KING):
        return RuleViolation("must_answer_plus2", f"A +2 stack of {state.plus2_stack} is active: play a +2 or a King, or draw.")
    if not state.plus2_stack and not basic_match(state, card):
        return RuleViolation("illegal_card", f"{card.code()} matches neither the colour {state.active_color} nor {state.leading_card.code()}.")
    return None


def needs_color(state: TakiState, card: Card) -> bool:
    """Whether playing `card` now names a colour: a Change Color, or a SuperTaki after a King under `choose` (§8.6, §8.8)."""
    if card.figure is Figure.CHANGE_COLOR:
        return True
    return (
        card.figure is Figure.SUPER_TAKI
        and state.run is None
        and state.phase is Phase.KING_FOLLOW_UP
        and state.options.super_taki_after_king is SuperTakiAfterKing.CHOOSE
    )


def single_plays(state: TakiState, seat: Seat) -> tuple[Play, ...]:
    """Every one-card play `seat` could send now, legal or not: one per colour where the card names one."""
    plays: list[Play] = []
    for card in state.hands[seat]:
        if needs_color(state, card):
            plays.extend(Play(seat, (card.id,), color=color) for color in Color)
        else:
            plays.append(Play(seat, (card.id,)))
    return tuple(plays)


# §7, §9: one card on one's turn

def play_card(recorder: TakiRecorder, seat: Seat, card: Card, color: Color | None, announce: bool) -> tuple[Outcome, bool]:
    """Play one card on one's turn (§7). Returns the outcome and whether it closed one's own run."""
    state = recorder.state
    closed_own = closes_run = False
    if state.run is not None:
        run = state.run
        if card.color == run.color or card.figure is Figure.SUPER_TAKI:
            recorder.emit(CardPlayed(seat, card.id, Role.RUN, announce))  # §9.1: joins the run, no effect
            return GOES_ON, False
        own = state.phase is Phase.IN_RUN
        if card.is_wild:
            closes_run, closed_own = True, own  # §7, §9.2: a colourless card ends the run as its last card
        elif own:
            if not (state.top.figure is Figure.PLUS and state.top.color == run.color and card.figure is Figure.PLUS):
                raise RuleViolation("wrong_run_color", f"Only {run.color} cards may follow in your {run.color} run.")
            close_run(recorder, seat)  # §9.5: a Plus of another colour reads as "Closed TAKI" on the Plus
            closed_own = True
        else:
            if not basic_match(state, card):
                raise RuleViolation("illegal_card", f"{card.code()} matches neither the open run nor {state.leading_card.code()}.")
            recorder.emit(TakiRunClosed(seat, state.top.id, declared=False))  # §9.6: another card closes it
    if problem := card_violation(recorder.state, card):
        raise problem
    follow_up = recorder.state.phase in (Phase.PLUS_FOLLOW_UP, Phase.KING_FOLLOW_UP)
    recorder.emit(CardPlayed(seat, card.id, Role.FOLLOW_UP if follow_up else Role.NORMAL, announce))
    if closes_run:
        recorder.emit(TakiRunClosed(seat, card.id, declared=False))
    return act(recorder, seat, card, color), closed_own


def close_run(recorder: TakiRecorder, seat: Seat) -> Outcome:
    """"Closed TAKI!": the run ends and its last card acts (§9.4)."""
    top = recorder.state.top
    if top.is_taki:
        raise RuleViolation("cannot_close_taki_on_top", "A TAKI on top is always open: it cannot be closed.")
    recorder.emit(TakiRunClosed(seat, top.id, declared=True))
    return act(recorder, seat, top, recorder.state.active_color)


# §8: what a card does when it acts

def act(recorder: TakiRecorder, seat: Seat, card: Card, color: Color | None) -> Outcome:  # noqa: C901 - one case per figure
    """The effect of a card played outside a run, or closing one (§8)."""
    state = recorder.state
    match card.figure:
        case figure if figure in NUMBERS:
            return ENDS
        case Figure.STOP:
            return Outcome(True, skip=True)
        case Figure.PLUS2:
            recorder.emit(Plus2Stacked(state.plus2_stack + 2))
            return ENDS
        case Figure.CHANGE_DIRECTION:
            recorder.emit(DirectionChanged(-state.direction))
            two = len(state.active_seats()) == 2
            return Outcome(True, skip=two and state.options.two_player_reverse_skips)
        case Figure.PLUS:
            recorder.emit(PlusFollowUp(seat))
            return GOES_ON
        case Figure.CHANGE_COLOR:
            assert color is not None
            recorder.emit(ColorChosen(seat, color))
            return ENDS
        case Figure.TAKI:
            assert card.color is not None
            recorder.emit(TakiRunOpened(seat, card.color))
            return GOES_ON
        case Figure.SUPER_TAKI:
            run_color = color or state.active_color
            assert run_color is not None
            recorder.emit(TakiRunOpened(seat, run_color, super_taki=True))
            return GOES_ON
        case Figure.KING:
            if state.plus2_stack:
                recorder.emit(Plus2StackCancelled(seat, state.plus2_stack))
            recorder.emit(KingFollowUp(seat))
            return GOES_ON
        case Figure.PLUS3:
            return Outcome(True, plus3=True)
        case Figure.PLUS3_BREAKER:
            recorder.emit(BreakerPenalty(seat))  # §8.11: no +3 to answer, so its player draws 3
            recorder.draw(seat, 3, DrawReason.BREAKER)
            return ENDS
        case _:
            raise AssertionError(card)


# the commands

def _turn_action(recorder: TakiRecorder, seat: Seat) -> None:
    """Gate every turn action: no +3 window open, the seat's turn; then due penalties (§13.1)."""
    state = recorder.state
    if state.plus3 is not None:
        raise RuleViolation("plus3_window_open", "A +3 is waiting for answers: only a Breaker, a King from the next player, or pass.")
    if seat != state.current:
        raise RuleViolation("not_your_turn", f"It is seat {state.current}'s turn.")
    recorder.collect_last_card_penalties()


def _finish_turn(recorder: TakiRecorder, outcome: Outcome) -> None:
    if outcome.ends and not recorder.state.is_over:
        recorder.end_turn(outcome)


def _play(recorder: TakiRecorder, play: Play) -> None:
    if not play.cards:
        raise RuleViolation("empty_play", "Name at least one card.")
    for index, card_id in enumerate(play.cards):
        if card_id in play.cards[:index]:
            raise RuleViolation("duplicate_card", f"{card_id} appears twice.").at(index)
    if recorder.state.plus3 is not None:
        _answer_plus3(recorder, play)
        return
    _turn_action(recorder, play.seat)
    _play_cards(recorder, play, 0, GOES_ON)


def _play_cards(recorder: TakiRecorder, play: Play, start: int, outcome: Outcome) -> None:
    """Play the batch from `start` on, one card at a time, then honour `close_taki` (§17.2)."""
    # its cards are those of the hand it was sent from: a card drawn during the batch (a
    # tournament stage's new hand) is not in it, or the answer would tell what the pile held
    seat = play.seat
    held = {card_id for card_id in play.cards[start:] if recorder.state.find_in_hand(seat, card_id) is not None}
    colors = dict(play.colors)
    color_used = False
    closed_own = False
    last = len(play.cards) - 1
    for index in range(start, len(play.cards)):
        card_id = play.cards[index]
        if outcome.ends or recorder.state.is_over:
            raise RuleViolation("card_after_turn_end", "The turn had already ended before this card.").at(index)
        card = recorder.state.find_in_hand(seat, card_id) if card_id in held else None
        if card is None:
            raise RuleViolation("card_not_in_hand", f"{card_id} is not in your hand.").at(index)
        named = colors.pop(card_id, None)
        color = _card_color(recorder.state, card, index, named, play.color)
        color_used = color_used or (named is None and color is not None)
        try:
            outcome, closed = play_card(recorder, seat, card, color, play.announce_last_card and index == last)
        except RuleViolation as problem:
            raise problem.at(index) from None
        closed_own = closed_own or closed
        outcome = recorder.after_card(seat, outcome)
    if (play.color is not None and not color_used) or colors:
        raise RuleViolation("color_not_allowed", "No card of this play takes that colour.")
    if play.close_taki is not None and not recorder.state.is_over:
        if recorder.state.phase is Phase.IN_RUN and not outcome.ends:
            outcome = close_run(recorder, seat) if play.close_taki else _end_run(recorder, seat)  # §17.2: false is end_turn
        elif play.close_taki and not closed_own:
            raise RuleViolation("no_run_to_close", "You have no run to close.")
    _finish_turn(recorder, outcome)


def _card_color(state: TakiState, card: Card, index: int, named: Color | None, fallback: Color | None) -> Color | None:
    """The colour `card` is played with: its own, else the play's; refused where it takes none or lacks one (§8.6, §8.8)."""
    if not needs_color(state, card):
        if named is not None:
            raise RuleViolation("color_not_allowed", f"{card.code()} takes no colour.").at(index)
        return None
    color = named if named is not None else fallback
    if color is None:
        raise RuleViolation("color_required", f"Name a colour for {card.code()}.").at(index)
    return color


def _answer_plus3(recorder: TakiRecorder, play: Play) -> None:
    """A play while a +3 waits: a Breaker from a responder, or the next player's King (§11.1)."""
    state = recorder.state
    window = state.plus3
    assert window is not None
    seat = play.seat
    card = state.find_in_hand(seat, play.cards[0])
    if card is None:
        raise RuleViolation("card_not_in_hand", f"{play.cards[0]} is not in your hand.").at(0)
    king_answers = state.options.king_on_plus3 is KingOnPlus3.CANCEL
    answers = card.figure is Figure.PLUS3_BREAKER or (card.figure is Figure.KING and king_answers)
    if (answers or seat == window.source) and seat not in window.awaiting:
        # §17.4: the source, or a seat that already passed, is no responder
        raise RuleViolation("not_a_responder", "You cannot answer this +3.")
    if card.figure is Figure.PLUS3_BREAKER:
        if len(play.cards) > 1:
            raise RuleViolation("card_after_turn_end", "A Breaker answering a +3 is played alone.").at(1)
        if play.color is not None or play.colors:
            raise RuleViolation("color_not_allowed", "A Breaker takes no colour.").at(0)
        dropped = len(state.hands[seat]) == 2
        recorder.emit(CardPlayed(seat, card.id, Role.ANSWER), Plus3Broken(seat, window.source))
        recorder.draw(window.source, 3, DrawReason.PLUS3)  # §8.11: the source draws instead
        recorder.check_lapse(seat)
        recorder.settle_last_card(seat, state.turn_no, play.announce_last_card, dropped)
        _finish_turn(recorder, recorder.after_card(seat, GOES_ON))  # the current player may have gone out
        return
    if card.figure is Figure.KING and king_answers and seat == state.current:
        recorder.collect_last_card_penalties()  # the King is the next player's turn action
        if play.colors and play.cards[0] in dict(play.colors):
            raise RuleViolation("color_not_allowed", "A King takes no colour.").at(0)
        recorder.emit(CardPlayed(seat, card.id, Role.ANSWER, play.announce_last_card and len(play.cards) == 1))
        recorder.emit(Plus3Cancelled(seat))
        recorder.check_out(window.source)  # a +3 that was its player's last card now goes out (§14.2)
        if recorder.state.is_over:
            if len(play.cards) > 1:
                raise RuleViolation("card_after_turn_end", "The game ended with this King.").at(1)
            return
        outcome = recorder.after_card(seat, act(recorder, seat, card, None))
        _play_cards(recorder, play, 1, outcome)
        return
    raise RuleViolation("plus3_window_open", "A +3 is waiting for answers: only a Breaker, a King from the next player, or pass.")


def _draw(recorder: TakiRecorder, seat: Seat) -> None:
    """Draw one card, or the whole +2 stack; the turn ends (§12)."""
    # the strict option judges the hand `seat` acts with: a last-card penalty it owes is drawn
    # first (§13.1), but those cards are unseen and may come from a reshuffle
    acting_with = recorder.state
    _turn_action(recorder, seat)
    state = recorder.state
    if state.phase in (Phase.IN_RUN, Phase.KING_FOLLOW_UP):
        raise RuleViolation("draw_not_allowed", "You cannot draw now: close or end your turn.")
    if state.options.draw_requires_no_legal_play and _can_play(acting_with, seat):
        raise RuleViolation("must_play", "You hold a card you can play.")
    if state.plus2_stack:
        recorder.emit(Plus2StackTaken(seat, state.plus2_stack))
        recorder.draw(seat, state.plus2_stack, DrawReason.PLUS2)
    else:
        recorder.draw(seat, 1, DrawReason.PLUS if state.phase is Phase.PLUS_FOLLOW_UP else DrawReason.DRAW)
    _finish_turn(recorder, ENDS)


def _can_play(state: TakiState, seat: Seat) -> bool:
    """Whether `seat` holds a card it may play now, each one-card play decided in trial (§12)."""
    chance = ScriptedRng()  # a trial's events are dropped: its shuffles need not be random
    return any(trial(state, play, chance) is None for play in single_plays(state, seat))


def _close_taki(recorder: TakiRecorder, seat: Seat) -> None:
    """Say "Closed TAKI!" after adding to one's own run this turn (§9.4)."""
    _turn_action(recorder, seat)
    if recorder.state.phase is not Phase.IN_RUN:
        raise RuleViolation("no_run_to_close", "You have not added to a run this turn.")
    _finish_turn(recorder, close_run(recorder, seat))


def _end_turn(recorder: TakiRecorder, seat: Seat) -> None:
    """End the turn in a run (left open, or closed under `taki_close = auto`) or after a King."""
    _turn_action(recorder, seat)
    state = recorder.state
    if state.phase is Phase.IN_RUN:
        _finish_turn(recorder, _end_run(recorder, seat))
    elif state.phase is Phase.KING_FOLLOW_UP:
        _finish_turn(recorder, ENDS)
    else:
        raise RuleViolation("nothing_to_end", "There is nothing to end: play a card or draw.")


def _end_run(recorder: TakiRecorder, seat: Seat) -> Outcome:
    """Leave the run open, its last card not acting (§9.6), or close it under `taki_close = auto` (§9.7)."""
    if recorder.state.options.taki_close is TakiClose.AUTO and not recorder.state.top.is_taki:
        return close_run(recorder, seat)
    recorder.emit(TakiRunLeftOpen(seat))
    return ENDS


def _pass(recorder: TakiRecorder, seat: Seat) -> None:
    """Decline to answer a +3; the last pass resolves it (§11.1)."""
    window = recorder.state.plus3
    if window is None:
        raise RuleViolation("nothing_to_pass", "There is no +3 to answer.")
    if seat not in window.awaiting:
        raise RuleViolation("not_a_responder", "You have no +3 to answer.")
    recorder.emit(Plus3Passed(seat))
    if not recorder.state.plus3 or not recorder.state.plus3.awaiting:
        recorder.resolve_plus3()


def _announce(recorder: TakiRecorder, seat: Seat) -> None:
    """Say "Last card!" while holding exactly one card, in or out of turn (§13.1)."""
    state = recorder.state
    if len(state.hands[seat]) != 1:
        raise RuleViolation("not_on_last_card", "You can announce only while holding exactly one card.")
    if state.announced[seat]:
        raise RuleViolation("already_announced", "You have already announced this card.")
    recorder.emit(LastCardAnnounced(seat))


# Leaving: Meeple's rule, for the forfeit deadline policy and players who resign

def forfeit(recorder: TakiRecorder, seat: Seat) -> None:
    """A seat leaves for good. The spec has no such rule; Meeple's: the seat keeps its cards
    but plays no more and ranks after everyone still playing (the first to leave last). A +3
    stops waiting for it. If it was its turn, the turn passes on as if it had drawn: a +2
    stack faces the next player, an open run stays open. The last seat left in play wins."""
    state = recorder.state
    if not state.is_active(seat):
        raise RuleViolation("not_in_game", "You are no longer in this game.")
    recorder.emit(PlayerForfeited(seat))
    if state.owed[seat] is not None:
        recorder.emit(LastCardLapsed(seat))
    remaining = recorder.state.active_seats()
    if len(remaining) == 1:
        recorder.emit(PlayerWentOut(remaining[0], len(recorder.state.out) + 1))
        recorder.finish(EndReason.WON)
        return
    window = recorder.state.plus3
    if seat == state.current:
        if state.phase is Phase.IN_RUN:
            recorder.emit(TakiRunLeftOpen(seat))
        recorder.emit(TurnStarted(recorder.state.next_seat(seat), state.turn_no + 1))
        if window is not None:
            recorder.emit(Plus3WindowOpened(window.source, window.awaiting))  # the window outlives the turn change
    if window is not None and not window.awaiting:
        recorder.resolve_plus3()
