"""The TAKI rulebook: which card is legal (§6), how a play is processed (§7), what each card
does (§8), runs (§9), the +3 window (§11), drawing (§12) and announcements (§13).

`decide` is the one place that applies the rules; `violation` and `legal_commands` ask it."""

from __future__ import annotations

from typing import assert_never

from domain.core.errors import RuleViolation
from domain.core.game import Seat
from domain.core.rng import Rng, SeededRng
from domain.taki.cards import NUMBERS, Card, Color, Figure
from domain.taki.commands import AnnounceLastCard, CloseTaki, Command, Draw, EndTurn, Forfeit, Pass, Play
from domain.taki.events import (
    BreakerPenalty,
    CardPlayed,
    ColorChosen,
    DirectionChanged,
    DrawReason,
    EndReason,
    Event,
    KingFollowUp,
    LastCardAnnounced,
    LastCardLapsed,
    PlayerForfeited,
    PlayerWentOut,
    Plus2StackCancelled,
    Plus2Stacked,
    Plus2StackTaken,
    Plus3Broken,
    Plus3Cancelled,
    Plus3Passed,
    Plus3WindowOpened,
    PlusFollowUp,
    Role,
    TakiRunClosed,
    TakiRunLeftOpen,
    TakiRunOpened,
    TurnStarted,
)
from domain.taki.options import KingOnPlus3, SuperTakiAfterKing, TakiClose
from domain.taki.state import Phase, TakiState
from domain.taki.table import ENDS, GOES_ON, Outcome, Table

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
    """Whether playing `card` now names a colour: a Change Color, or a SuperTaki after a King
    under `super_taki_after_king = choose` (§8.6, §8.8)."""
    if card.figure is Figure.CHANGE_COLOR:
        return True
    return (
        card.figure is Figure.SUPER_TAKI
        and state.run is None
        and state.phase is Phase.KING_FOLLOW_UP
        and state.options.super_taki_after_king is SuperTakiAfterKing.CHOOSE
    )


# §8: what a card does when it acts

def act(table: Table, seat: Seat, card: Card, color: Color | None) -> Outcome:
    """The effect of a card played outside a run, or closing one (§8)."""
    state = table.state
    match card.figure:
        case figure if figure in NUMBERS:
            return ENDS
        case Figure.STOP:
            return Outcome(True, skip=True)
        case Figure.PLUS2:
            table.emit(Plus2Stacked(state.plus2_stack + 2))
            return ENDS
        case Figure.CHANGE_DIRECTION:
            table.emit(DirectionChanged(-state.direction))
            two = len(state.active_seats()) == 2
            return Outcome(True, skip=two and state.options.two_player_reverse_skips)
        case Figure.PLUS:
            table.emit(PlusFollowUp(seat))
            return GOES_ON
        case Figure.CHANGE_COLOR:
            assert color is not None
            table.emit(ColorChosen(seat, color))
            return ENDS
        case Figure.TAKI:
            assert card.color is not None
            table.emit(TakiRunOpened(seat, card.color))
            return GOES_ON
        case Figure.SUPER_TAKI:
            run_color = color or state.active_color
            assert run_color is not None
            table.emit(TakiRunOpened(seat, run_color, super_taki=True))
            return GOES_ON
        case Figure.KING:
            if state.plus2_stack:
                table.emit(Plus2StackCancelled(seat, state.plus2_stack))
            table.emit(KingFollowUp(seat))
            return GOES_ON
        case Figure.PLUS3:
            return Outcome(True, plus3=True)
        case Figure.PLUS3_BREAKER:
            table.emit(BreakerPenalty(seat))  # §8.11: no +3 to answer, so its player draws 3
            table.draw(seat, 3, DrawReason.BREAKER)
            return ENDS
        case _:
            raise AssertionError(card)


# §7, §9: one card on one's turn

def play_card(table: Table, seat: Seat, card: Card, color: Color | None, announce: bool) -> tuple[Outcome, bool]:
    """Play one card on one's turn (§7). Returns the outcome and whether it closed one's own run."""
    state = table.state
    closed_own = closes_run = False
    if state.run is not None:
        run = state.run
        if card.color == run.color or card.figure is Figure.SUPER_TAKI:
            table.emit(CardPlayed(seat, card.id, Role.RUN, announce))  # §9.1: joins the run, no effect
            return GOES_ON, False
        own = state.phase is Phase.IN_RUN
        if card.is_wild:
            closes_run, closed_own = True, own  # §7, §9.2: a colourless card ends the run as its last card
        elif own:
            if not (state.top.figure is Figure.PLUS and state.top.color == run.color and card.figure is Figure.PLUS):
                raise RuleViolation("wrong_run_color", f"Only {run.color} cards may follow in your {run.color} run.")
            close_run(table, seat)  # §9.5: a Plus of another colour reads as "Closed TAKI" on the Plus
            closed_own = True
        else:
            if not basic_match(state, card):
                raise RuleViolation("illegal_card", f"{card.code()} matches neither the open run nor {state.leading_card.code()}.")
            table.emit(TakiRunClosed(seat, state.top.id, declared=False))  # §9.6: another card closes it
    if problem := card_violation(table.state, card):
        raise problem
    follow_up = table.state.phase in (Phase.PLUS_FOLLOW_UP, Phase.KING_FOLLOW_UP)
    table.emit(CardPlayed(seat, card.id, Role.FOLLOW_UP if follow_up else Role.NORMAL, announce))
    if closes_run:
        table.emit(TakiRunClosed(seat, card.id, declared=False))
    return act(table, seat, card, color), closed_own


def close_run(table: Table, seat: Seat) -> Outcome:
    """"Closed TAKI!": the run ends and its last card acts (§9.4)."""
    top = table.state.top
    if top.is_taki:
        raise RuleViolation("cannot_close_taki_on_top", "A TAKI on top is always open: it cannot be closed.")
    table.emit(TakiRunClosed(seat, top.id, declared=True))
    return act(table, seat, top, table.state.active_color)


# Commands

def decide(state: TakiState, command: Command, rng: Rng) -> tuple[Event, ...]:
    """The events a command causes, or a RuleViolation saying why it is refused."""
    if state.is_over:
        raise RuleViolation("game_over", "The game is over.")
    if not 0 <= command.seat < len(state.hands):
        raise RuleViolation("not_in_game", f"No seat {command.seat} plays.")
    table = Table(state, rng)
    match command:
        case Play():
            _play(table, command)
        case Draw(seat):
            _draw(table, seat)
        case CloseTaki(seat):
            _turn_action(table, seat)
            if table.state.phase is not Phase.IN_RUN:
                raise RuleViolation("no_run_to_close", "You have not added to a run this turn.")
            _finish_turn(table, close_run(table, seat))
        case EndTurn(seat):
            _end_turn(table, seat)
        case Pass(seat):
            _pass(table, seat)
        case AnnounceLastCard(seat):
            _announce(table, seat)
        case Forfeit(seat):
            forfeit(table, seat)
        case _:
            assert_never(command)
    return tuple(table.events)


_TRIAL_CHANCE = SeededRng(0)  # a trial's events are dropped, so its shuffles need not be fresh


def violation(state: TakiState, command: Command) -> RuleViolation | None:
    """Why `command` is refused now, or None."""
    try:
        decide(state, command, _TRIAL_CHANCE)
    except RuleViolation as problem:
        return problem
    return None


def legal_commands(state: TakiState, seat: Seat) -> tuple[Command, ...]:
    """Every command `seat` may send now: single-card plays (one per colour where a colour is
    named), then draw, close, end turn, pass and announce (§17.2)."""
    others = (Draw(seat), CloseTaki(seat), EndTurn(seat), Pass(seat), AnnounceLastCard(seat))
    return legal_plays(state, seat) + tuple(command for command in others if violation(state, command) is None)


def legal_plays(state: TakiState, seat: Seat) -> tuple[Play, ...]:
    """Every single-card play `seat` may make now."""
    candidates: list[Play] = []
    for card in state.hands[seat]:
        if needs_color(state, card):
            candidates.extend(Play(seat, (card.id,), color=color) for color in Color)
        else:
            candidates.append(Play(seat, (card.id,)))
    return tuple(play for play in candidates if violation(state, play) is None)


def _turn_action(table: Table, seat: Seat) -> None:
    """Gate every turn action: no +3 window open, the seat's turn; then due penalties (§13.1)."""
    state = table.state
    if state.plus3 is not None:
        raise RuleViolation("plus3_window_open", "A +3 is waiting for answers: only a Breaker, a King from the next player, or pass.")
    if seat != state.current:
        raise RuleViolation("not_your_turn", f"It is seat {state.current}'s turn.")
    table.collect_last_card_penalties()


def _finish_turn(table: Table, outcome: Outcome) -> None:
    if outcome.ends and not table.state.is_over:
        table.end_turn(outcome)


def _play(table: Table, play: Play) -> None:
    if not play.cards:
        raise RuleViolation("empty_play", "Name at least one card.")
    for index, card_id in enumerate(play.cards):
        if card_id in play.cards[:index]:
            raise RuleViolation("duplicate_card", f"{card_id} appears twice.").at(index)
    if table.state.plus3 is not None:
        _answer_plus3(table, play)
        return
    _turn_action(table, play.seat)
    _play_cards(table, play, 0, GOES_ON)


def _play_cards(table: Table, play: Play, start: int, outcome: Outcome) -> None:
    """Play the batch from `start` on, one card at a time, then honour `close_taki` (§17.2). Its
    cards are those of the hand it was sent from: a card drawn during the batch (a tournament
    stage's new hand) is not in it, or the answer would tell the player what the pile held."""
    seat = play.seat
    held = {card_id for card_id in play.cards[start:] if table.state.find_in_hand(seat, card_id) is not None}
    colors = dict(play.colors)
    color_used = False
    closed_own = False
    last = len(play.cards) - 1
    for index in range(start, len(play.cards)):
        card_id = play.cards[index]
        if outcome.ends or table.state.is_over:
            raise RuleViolation("card_after_turn_end", "The turn had already ended before this card.").at(index)
        card = table.state.find_in_hand(seat, card_id) if card_id in held else None
        if card is None:
            raise RuleViolation("card_not_in_hand", f"{card_id} is not in your hand.").at(index)
        color = colors.pop(card_id, None)
        if needs_color(table.state, card):
            if color is None:
                color, color_used = play.color, play.color is not None
            if color is None:
                raise RuleViolation("color_required", f"Name a colour for {card.code()}.").at(index)
        elif color is not None:
            raise RuleViolation("color_not_allowed", f"{card.code()} takes no colour.").at(index)
        try:
            outcome, closed = play_card(table, seat, card, color, play.announce_last_card and index == last)
        except RuleViolation as problem:
            raise problem.at(index) from None
        closed_own = closed_own or closed
        outcome = table.after_card(seat, outcome)
    if (play.color is not None and not color_used) or colors:
        raise RuleViolation("color_not_allowed", "No card of this play takes that colour.")
    if play.close_taki is not None and not table.state.is_over:
        if table.state.phase is Phase.IN_RUN and not outcome.ends:
            outcome = close_run(table, seat) if play.close_taki else _end_run(table, seat)  # §17.2: false is end_turn
        elif play.close_taki and not closed_own:
            raise RuleViolation("no_run_to_close", "You have no run to close.")
    _finish_turn(table, outcome)


def _answer_plus3(table: Table, play: Play) -> None:
    """A play while a +3 waits: a Breaker from a responder, or the next player's King (§11.1)."""
    state = table.state
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
        table.emit(CardPlayed(seat, card.id, Role.ANSWER), Plus3Broken(seat, window.source))
        table.draw(window.source, 3, DrawReason.PLUS3)  # §8.11: the source draws instead
        table.check_lapse(seat)
        table.settle_last_card(seat, state.turn_no, play.announce_last_card, dropped)
        _finish_turn(table, table.after_card(seat, GOES_ON))  # the current player may have gone out
        return
    if card.figure is Figure.KING and king_answers and seat == state.current:
        table.collect_last_card_penalties()  # the King is the next player's turn action
        if play.colors and play.cards[0] in dict(play.colors):
            raise RuleViolation("color_not_allowed", "A King takes no colour.").at(0)
        table.emit(CardPlayed(seat, card.id, Role.ANSWER, play.announce_last_card and len(play.cards) == 1))
        table.emit(Plus3Cancelled(seat))
        table.check_out(window.source)  # a +3 that was its player's last card now goes out (§14.2)
        if table.state.is_over:
            if len(play.cards) > 1:
                raise RuleViolation("card_after_turn_end", "The game ended with this King.").at(1)
            return
        outcome = table.after_card(seat, act(table, seat, card, None))
        _play_cards(table, play, 1, outcome)
        return
    raise RuleViolation("plus3_window_open", "A +3 is waiting for answers: only a Breaker, a King from the next player, or pass.")


def _draw(table: Table, seat: Seat) -> None:
    """Draw one card, or the whole +2 stack; the turn ends (§12). Under the strict option a seat
    holding a card it may play may not draw, judged on the hand it acts with: a last-card
    penalty it owes comes first (§13.1), but its cards are unseen and may come from a reshuffle."""
    acting_with = table.state
    _turn_action(table, seat)
    state = table.state
    if state.phase in (Phase.IN_RUN, Phase.KING_FOLLOW_UP):
        raise RuleViolation("draw_not_allowed", "You cannot draw now: close or end your turn.")
    if state.options.draw_requires_no_legal_play and legal_plays(acting_with, seat):
        raise RuleViolation("must_play", "You hold a card you can play.")
    if state.plus2_stack:
        table.emit(Plus2StackTaken(seat, state.plus2_stack))
        table.draw(seat, state.plus2_stack, DrawReason.PLUS2)
    else:
        table.draw(seat, 1, DrawReason.PLUS if state.phase is Phase.PLUS_FOLLOW_UP else DrawReason.DRAW)
    _finish_turn(table, ENDS)


def _end_turn(table: Table, seat: Seat) -> None:
    """End the turn in a run (left open, or closed under `taki_close = auto`) or after a King."""
    _turn_action(table, seat)
    state = table.state
    if state.phase is Phase.IN_RUN:
        _finish_turn(table, _end_run(table, seat))
    elif state.phase is Phase.KING_FOLLOW_UP:
        _finish_turn(table, ENDS)
    else:
        raise RuleViolation("nothing_to_end", "There is nothing to end: play a card or draw.")


def _end_run(table: Table, seat: Seat) -> Outcome:
    """Ending one's turn in a run leaves it open and its last card does not act (§9.6), unless
    `taki_close = auto` closes it, as every closable run is when its owner's turn ends (§9.7)."""
    if table.state.options.taki_close is TakiClose.AUTO and not table.state.top.is_taki:
        return close_run(table, seat)
    table.emit(TakiRunLeftOpen(seat))
    return ENDS


def _pass(table: Table, seat: Seat) -> None:
    """Decline to answer a +3; the last pass resolves it (§11.1)."""
    window = table.state.plus3
    if window is None:
        raise RuleViolation("nothing_to_pass", "There is no +3 to answer.")
    if seat not in window.awaiting:
        raise RuleViolation("not_a_responder", "You have no +3 to answer.")
    table.emit(Plus3Passed(seat))
    if not table.state.plus3 or not table.state.plus3.awaiting:
        table.resolve_plus3()


def _announce(table: Table, seat: Seat) -> None:
    """Say "Last card!" while holding exactly one card, in or out of turn (§13.1)."""
    state = table.state
    if len(state.hands[seat]) != 1:
        raise RuleViolation("not_on_last_card", "You can announce only while holding exactly one card.")
    if state.announced[seat]:
        raise RuleViolation("already_announced", "You have already announced this card.")
    table.emit(LastCardAnnounced(seat))


# Leaving: Meeple's rule, for the forfeit deadline policy and players who resign

def forfeit(table: Table, seat: Seat) -> None:
    """A seat leaves for good. The spec has no such rule; Meeple's: the seat keeps its cards
    but plays no more and ranks after everyone still playing (the first to leave last). A +3
    stops waiting for it. If it was its turn, the turn passes on as if it had drawn: a +2
    stack faces the next player, an open run stays open. The last seat left in play wins."""
    state = table.state
    if not state.is_active(seat):
        raise RuleViolation("not_in_game", "You are no longer in this game.")
    table.emit(PlayerForfeited(seat))
    if state.owed[seat] is not None:
        table.emit(LastCardLapsed(seat))
    remaining = table.state.active_seats()
    if len(remaining) == 1:
        table.emit(PlayerWentOut(remaining[0], len(table.state.out) + 1))
        table.finish(EndReason.WON)
        return
    window = table.state.plus3
    if seat == state.current:
        if state.phase is Phase.IN_RUN:
            table.emit(TakiRunLeftOpen(seat))
        table.emit(TurnStarted(table.state.next_seat(seat), state.turn_no + 1))
        if window is not None:
            table.emit(Plus3WindowOpened(window.source, window.awaiting))  # the window outlives the turn change
    if window is not None and not window.awaiting:
        table.resolve_plus3()


# §17.3, §11.1: when time runs out

def listed_form(state: TakiState, command: Command) -> Command | None:
    """A play of several cards, or one that also closes, leaves or announces, is a batch
    (§17.2); every other command is listed as it is."""
    if isinstance(command, Play) and (len(command.cards) > 1 or command.colors or command.announce_last_card
                                      or command.close_taki is not None):
        return None
    return command


def timeout_command(state: TakiState, seat: Seat) -> Command:
    """What `seat` does when its deadline passes (§17.3): pass a +3, end a run or a King's
    turn, else draw (or, where drawing is refused, its first legal command)."""
    if state.plus3 is not None:
        command: Command = Pass(seat)
    elif state.phase in (Phase.IN_RUN, Phase.KING_FOLLOW_UP):
        command = EndTurn(seat)
    else:
        command = Draw(seat)
    if violation(state, command) is None:
        return command
    return legal_commands(state, seat)[0]


def response_seconds(state: TakiState) -> int | None:
    """The game's own deadline on the seats to move: a +3 window closes by itself (§11.1)."""
    return state.options.plus3_response_seconds if state.plus3 is not None else None
