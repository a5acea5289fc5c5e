"""Seat wishes (FIDE's colour preference with "first seat" for white) and how a game settles two of them."""

from __future__ import annotations

from bot.tournaments.history import Outing
from bot.tournaments.model import Seat
from bot.tournaments.seats import NO_WISH, Wish, seat, wish

F, S = Seat.FIRST, Seat.SECOND


def had(*seats: Seat) -> list[Outing]:
    """Outings in which the player had these seats, in order."""
    return [Outing(k, f"o{k}", s, True) for k, s in enumerate(seats, start=1)]


def test_a_player_without_games_wishes_nothing():
    assert wish([Outing(1, None, None, True)]) == NO_WISH


def test_a_player_a_seat_short_wants_it():
    assert wish(had(F)) == Wish(S, 2) and wish(had(S, S, F)) == Wish(F, 2)


def test_a_player_with_both_seats_as_often_wants_the_one_not_had_last():
    assert wish(had(F, S)) == Wish(F, 1) and wish(had(S, F)) == Wish(S, 1)


def test_two_seats_short_or_the_same_seat_twice_running_is_the_strongest_wish():
    assert wish(had(F, F)) == Wish(S, 3) and wish(had(F, S, S)) == Wish(F, 3)


def test_byes_do_not_count_as_seats():
    assert wish([*had(F), Outing(2, None, None, True)]) == Wish(S, 2)


def test_different_wishes_are_both_granted():
    assert seat("a", "b", Wish(S, 1), Wish(F, 1), 1).players == ("b", "a")


def test_the_same_wish_goes_to_the_stronger():
    assert seat("a", "b", Wish(F, 1), Wish(F, 3), 1).players == ("b", "a")


def test_the_same_wish_of_equal_strength_goes_to_the_higher_ranked():
    assert seat("a", "b", Wish(S, 2), Wish(S, 2), 1).players == ("b", "a")


def test_a_player_with_no_wish_takes_the_seat_the_other_does_not_want():
    assert seat("a", "b", NO_WISH, Wish(F, 1), 1).players == ("b", "a")
