"""Boards and moves: frozen bitmask values with a set-like face (rules §1, §2)."""

from __future__ import annotations

import dataclasses
from itertools import combinations

import pytest

from shutthebox import Board, Move, ParseError, ShutTheBoxError
from shutthebox.core.board import mask_of, mask_sum, subsets_with_sum, tiles_of
from tests.support.drive import brute_moves


# -- masks ----------------------------------------------------------------------------
def test_bit_i_minus_1_stands_for_tile_i() -> None:
    assert mask_of([1]) == 0b1
    assert mask_of([9]) == 0b1_0000_0000
    assert mask_of([1, 5, 9]) == 0b1_0001_0001
    assert tiles_of(0b1_0001_0001) == (1, 5, 9)
    assert tiles_of(0) == ()
    assert mask_sum(0b1_0001_0001) == 15


def test_masks_and_tiles_round_trip_for_every_mask() -> None:
    for mask in range(1 << 12):
        tiles = tiles_of(mask)
        assert list(tiles) == sorted(tiles)
        assert mask_of(tiles) == mask
        assert mask_sum(mask) == sum(t for t in range(1, 13) if mask >> (t - 1) & 1)


@pytest.mark.parametrize("max_tiles", [None, 1, 2, 3, 4])
def test_subsets_with_sum_match_brute_force(max_tiles: int | None) -> None:
    for size in range(1, 13):
        everything = tuple(range(1, size + 1))
        for total in range(1, 80):
            found = {frozenset(tiles_of(mask)) for mask in subsets_with_sum(size, total, max_tiles)}
            assert found == brute_moves(size, everything, total, max_tiles), (size, total)
            assert list(subsets_with_sum(size, total, max_tiles)) == sorted(
                subsets_with_sum(size, total, max_tiles)
            )


def test_subsets_with_sum_of_nothing_is_empty() -> None:
    assert subsets_with_sum(9, 0) == ()
    assert subsets_with_sum(9, -3) == ()
    assert subsets_with_sum(9, 46) == ()
    assert subsets_with_sum(9, 45) == (0b1_1111_1111,)


# -- Board -----------------------------------------------------------------------------
def test_full_board_is_every_tile_open() -> None:
    board = Board.full()
    assert board.size == 9 and board.mask == 0b1_1111_1111
    assert board.is_full and not board.is_shut
    assert board.open_tiles == tuple(range(1, 10))
    assert board.open_sum == 45
    assert Board.full(12).open_sum == 78
    assert Board.full(1).open_tiles == (1,)


def test_board_is_set_like() -> None:
    board = Board.with_open(9, [1, 5, 9])
    assert 5 in board and 2 not in board
    assert 0 not in board and 10 not in board and "5" not in board
    assert len(board) == 3
    assert list(board) == [1, 5, 9]
    assert board.shut_tiles == (2, 3, 4, 6, 7, 8)
    assert board.shut_mask == Board.full().mask & ~board.mask


def test_board_str_shows_shut_tiles_as_dots() -> None:
    assert str(Board.with_open(9, [1, 5, 9])) == "1 · · · 5 · · · 9"
    assert str(Board(4, 0)) == "· · · ·"
    assert str(Board.full(12)) == "1 2 3 4 5 6 7 8 9 10 11 12"


def test_board_repr_evaluates_to_an_equal_board() -> None:
    for board in (Board.full(), Board.with_open(12, [1, 10, 12]), Board(3, 0)):
        assert eval(repr(board), {"Board": Board}) == board


def test_board_is_a_frozen_hashable_value() -> None:
    board = Board.full()
    with pytest.raises(dataclasses.FrozenInstanceError):
        board.mask = 0  # type: ignore[misc]
    assert Board.full() == board and hash(Board.full()) == hash(board)
    assert Board(9, 1) != Board(10, 1)
    assert len({Board.full(), Board.full(), Board(9, 0)}) == 2


def test_board_parse() -> None:
    assert Board.parse("1,5,9") == Board.with_open(9, [1, 5, 9])
    assert Board.parse("9 5 1") == Board.with_open(9, [1, 5, 9])
    assert Board.parse("1, 10, 12", size=12) == Board.with_open(12, [1, 10, 12])
    assert Board.parse("-") == Board(9, 0)
    assert Board.parse("") == Board(9, 0)


@pytest.mark.parametrize(
    ("text", "size", "needle"),
    [("1,x", 9, "'1,x'"), ("10", 9, "10"), ("0", 9, "0"), ("13", 12, "13"), ("3,3", 9, "twice")],
)
def test_board_parse_errors_quote_the_input(text: str, size: int, needle: str) -> None:
    with pytest.raises(ParseError, match=needle):
        Board.parse(text, size=size)


@pytest.mark.parametrize(("size", "mask"), [(0, 0), (13, 0), (9, 1 << 9), (3, -1)])
def test_impossible_boards_are_refused(size: int, mask: int) -> None:
    with pytest.raises(ShutTheBoxError):
        Board(size, mask)


def test_with_open_refuses_tiles_off_the_board() -> None:
    with pytest.raises(ParseError, match="10"):
        Board.with_open(9, [10])


def test_shut_and_reopen() -> None:
    board = Board.full().shut(Move.parse("5+3"))
    assert board.open_tiles == (1, 2, 4, 6, 7, 8, 9)
    assert board.reopen(Move.parse("3")).open_tiles == (1, 2, 3, 4, 6, 7, 8, 9)
    assert Board.full(3).shut(Move.parse("1+2+3")).is_shut


def test_shutting_a_shut_tile_or_opening_an_open_one_is_an_error() -> None:
    board = Board.with_open(9, [1, 5, 9])
    with pytest.raises(ShutTheBoxError, match="3"):
        board.shut(Move.parse("3+1"))
    with pytest.raises(ShutTheBoxError, match="5"):
        board.reopen(Move.parse("5"))
    assert board == Board.with_open(9, [1, 5, 9])


# -- Move ------------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["5+3", "5,3", "5 & 3", "3 5", " 3 + 5 "])
def test_move_parse_accepts_the_ways_players_write_it(text: str) -> None:
    assert Move.parse(text) == Move.of([5, 3]) == Move(0b1_0100)


def test_move_formats_highest_first_and_parses_back() -> None:
    move = Move.parse("1+3+4")
    assert str(move) == "4+3+1"
    assert move.tiles == (4, 3, 1)
    assert list(move) == [4, 3, 1]
    assert len(move) == 3 and move.total == 8
    assert Move.parse(str(move)) == move
    assert eval(repr(move), {"Move": Move}) == move
    assert str(Move.parse("12+10")) == "12+10"


def test_every_move_round_trips_through_text() -> None:
    for size in range(1, 5):
        for combo in combinations(range(1, 13), size):
            move = Move.of(combo)
            assert Move.parse(str(move)) == move
            assert move.total == sum(combo)


@pytest.mark.parametrize("text", ["", "x", "5+x", "0", "13", "5+5", "-"])
def test_move_parse_errors(text: str) -> None:
    with pytest.raises(ParseError) as error:
        Move.parse(text)
    assert repr(text) in str(error.value) or text in str(error.value)


def test_move_needs_a_tile() -> None:
    with pytest.raises(ParseError):
        Move(0)
    with pytest.raises(ParseError):
        Move.of([])
    with pytest.raises(ParseError):
        Move(1 << 12)
    with pytest.raises(ParseError):
        Move.of([2, 2])


def test_move_is_a_frozen_hashable_value() -> None:
    move = Move.parse("5+3")
    with pytest.raises(dataclasses.FrozenInstanceError):
        move.mask = 1  # type: ignore[misc]
    assert {Move.parse("3+5"), move} == {move}
