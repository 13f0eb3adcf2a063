"""Kalah's rules (``autograder/games/kalah``) on hand-computed positions: the sowing that skips
the other side's store, the extra turn, the capture (and none opposite an empty pit), the
end-of-game sweep, perft counts against the plain implementation; and the shared minimax and
tactics, which must follow whose turn it is when a side moves twice in a row."""

from __future__ import annotations

import random

import pytest

from autograder.games import PACKS, find_assignment, tactics
from autograder.games.kalah import plain, rules, view
from autograder.games.kalah.opponents import OPPONENTS, RULES
from autograder.games.kalah.variants import VARIANTS
from autograder.games.minimax import minimax
from autograder.games.pack import DRAW, MoveError

pytestmark = pytest.mark.timeout(60)

KALAH = VARIANTS["kalah"]
PACK = PACKS["kalah"]


def _pos(south: list[int], north: list[int], turn: str = "S") -> rules.Position:
    return rules.from_board([south, north], turn, KALAH)


def _after(pos: rules.Position, pit: int) -> tuple[list[list[int]], str]:
    after = rules.play(pos, pit)
    return rules.to_board(after), after.turn


def test_the_start_is_four_seeds_in_six_pits_a_side_and_south_moves():
    pos = rules.start(KALAH)
    assert rules.to_board(pos) == [[4] * 6 + [0], [4] * 6 + [0]] and pos.turn == "S"
    assert rules.legal_moves(pos) == [0, 1, 2, 3, 4, 5] and rules.result(pos) is None


def test_the_last_seed_in_ones_own_store_is_an_extra_turn():
    """South sows pit 2's four seeds into pits 3, 4, 5 and its store: south moves again."""
    board, turn = _after(rules.start(KALAH), 2)
    assert board == [[4, 4, 0, 5, 5, 5, 1], [4] * 6 + [0]] and turn == "S"


def test_otherwise_the_turn_passes():
    board, turn = _after(rules.start(KALAH), 5)
    assert board == [[4, 4, 4, 4, 4, 0, 1], [5, 5, 5, 4, 4, 4, 0]] and turn == "N"


def test_sowing_skips_the_other_sides_store():
    """South's 8 seeds from pit 5: its store, north's six pits, not north's store, then its
    own pit 0 (which held seeds: no capture)."""
    board, turn = _after(_pos([3, 0, 0, 0, 0, 8, 0], [1, 1, 1, 1, 1, 1, 5]), 5)
    assert board == [[4, 0, 0, 0, 0, 0, 1], [2, 2, 2, 2, 2, 2, 5]] and turn == "N"


def test_the_last_seed_in_an_own_empty_pit_captures_the_opposite_pit():
    """South's one seed from pit 0 lands in its empty pit 1; north's pit 4 (opposite) holds 5:
    6 seeds go to south's store."""
    board, turn = _after(_pos([1, 0, 0, 0, 0, 2, 0], [2, 0, 0, 0, 5, 0, 3]), 0)
    assert board == [[0, 0, 0, 0, 0, 2, 6], [2, 0, 0, 0, 0, 0, 3]] and turn == "N"


def test_opposite_an_empty_pit_the_seed_stays():
    board, turn = _after(_pos([1, 0, 0, 0, 0, 2, 0], [2, 0, 0, 0, 0, 0, 3]), 0)
    assert board == [[0, 1, 0, 0, 0, 2, 0], [2, 0, 0, 0, 0, 0, 3]] and turn == "N"


def test_a_north_capture_mirrors_a_south_one():
    """North's pit 2 (one seed) lands in its empty pit 3, opposite south's pit 2."""
    board, turn = _after(_pos([1, 1, 7, 0, 0, 0, 0], [0, 0, 1, 0, 0, 0, 0], "N"), 2)
    assert board == [[1, 1, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 8]] and turn == "S"


def test_the_side_to_move_with_no_seed_ends_the_game_and_the_rest_go_to_their_owners():
    """South's last seed goes to its store (an extra turn) but south has no seed left: north's
    five seeds go to north's store; 11 to 10."""
    pos = _pos([0, 0, 0, 0, 0, 1, 10], [3, 0, 0, 2, 0, 0, 5])
    board, turn = _after(pos, 5)
    assert board == [[0] * 6 + [11], [0] * 6 + [10]]
    after = rules.play(pos, 5)
    assert rules.result(after) == "S" and rules.legal_moves(after) == []
    outcome = rules.outcome(after)
    assert outcome is not None and (outcome.winner, outcome.reason) == ("S", "more seeds: 11 to 10")


def test_a_side_with_seeds_left_goes_on_when_the_other_runs_out():
    """South empties its side, but north is to move and has seeds: the game goes on."""
    board, turn = _after(_pos([0, 0, 0, 0, 0, 2, 10], [3, 0, 0, 2, 0, 0, 5]), 5)
    assert board == [[0] * 6 + [11], [4, 0, 0, 2, 0, 0, 5]] and turn == "N"
    assert rules.result(rules.from_board(board, turn, KALAH)) is None


def test_equal_stores_are_a_draw():
    pos = _pos([0] * 6 + [24], [0] * 6 + [24], "N")
    assert rules.result(pos) == DRAW
    assert rules.outcome(pos) == rules.Outcome(None, "equal seeds: 24 to 24")


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (True, "a bool"),
        ([3], r"not a list"),
        ("3", "a pit number, an int"),
        (6, "pit 6 is off the board"),
        (-1, "pit -1 is off the board"),
    ],
)
def test_a_returned_value_that_is_no_pit_is_refused_with_the_reason(raw, message):
    with pytest.raises(MoveError, match=message):
        rules.read_student_move(raw, rules.start(KALAH))


def test_an_empty_pit_is_illegal_and_a_numpy_like_int_costs_format_not_legality():
    pos = _pos([0, 4, 4, 4, 4, 4, 0], [4] * 6 + [0])
    with pytest.raises(rules.IllegalMoveError, match="pit 0 is empty"):
        rules.read_student_move(0, pos)

    class Index:
        def __index__(self) -> int:
            return 1

    assert rules.read_student_move(Index(), pos) == 1
    assert rules.format_problem(Index(), pos) and rules.format_problem(1, pos) is None


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_perft_counts_agree_with_the_plain_implementation(name):
    """Hand-counted: 6 moves, then 35 (pit 2's extra turn gives south 5 more, the other five
    give north 6 each); deeper, the plain ring-walking implementation."""
    variant = VARIANTS[name]
    ours = [_perft(rules.start(variant), depth) for depth in range(1, 6)]
    assert ours == [plain.perft(variant, depth) for depth in range(1, 6)]
    if name == "kalah":
        assert ours == [6, 35, 185, 942, 4690]


def _perft(pos: rules.Position, depth: int) -> int:
    if depth == 0:
        return 1
    if rules.result(pos) is not None:
        return 0
    return sum(_perft(rules.play(pos, m), depth - 1) for m in rules.legal_moves(pos))


def test_the_board_is_drawn_with_counts_and_a_sowing_is_marked_from_and_to():
    pos = rules.start(KALAH)
    assert view.cells(pos) == [[0, 4, 4, 4, 4, 4, 4, " "], [" ", 4, 4, 4, 4, 4, 4, 0]]
    assert view.marks(pos, 2) == [(1, 3, "from"), (1, 7, "to")]  # into south's store
    assert view.marks(pos, 5) == [(1, 6, "from"), (0, 4, "to")]  # north's pit 2
    empty = _pos([0, 4, 4, 4, 4, 4, 0], [4] * 6 + [0])
    assert view.marks(empty, 0) == [(1, 1, "bad")] and view.marks(empty, "x") == []
    north = rules.from_board([[4] * 6 + [0], [4] * 6 + [0]], "N", KALAH)
    assert view.clicks(north, [(0, 6)]) == 0 and view.clicks(pos, [(1, 6)]) == 5


def test_the_text_board_shows_the_stores_and_both_rows():
    text = rules.render(_pos([1, 0, 0, 0, 0, 2, 6], [2, 0, 0, 0, 5, 0, 3]))
    assert text.splitlines() == [
        "      5   4   3   2   1   0   north's pits",
        "    [ 0][ 5][ 0][ 0][ 0][ 2]",
        "N  3                          6 S",
        "    [ 1][ 0][ 0][ 0][ 0][ 2]",
        "      0   1   2   3   4   5   south's pits",
    ]


# ---- shared code that must follow whose turn it is -----------------------------------------------

# South's pit 5 (one seed) ends in its store: an extra turn, after which pit 3's two seeds land
# in the now empty pit 5, capturing north's pit 0 (ten seeds). Pit 3 first captures nothing.
CHAIN = _pos([0, 0, 0, 2, 0, 1, 0], [10, 1, 1, 1, 1, 1, 0])


def test_minimax_searches_an_extra_turn_as_two_moves_of_the_same_side():
    """Negating on every ply would score south's follow-up as north's reply (north would not
    capture for south): the extra turn would look worthless."""
    after = rules.play(CHAIN, 5)
    assert after.turn == "S"
    assert minimax(after, 1, RULES, "S") > minimax(rules.play(CHAIN, 3), 0, RULES, "S")
    rng = random.Random(0)
    assert OPPONENTS["minimax2"][1](CHAIN, rng) == 5
    assert OPPONENTS["greedy"][1](CHAIN, rng) == 5


# South's pit 5 (one seed) ends in its store, pit 4's two seeds then fill pit 5 and the store,
# pit 5 again ends in the store and south has no seed left: the game ends 25 to 23. No single
# ply ends the game: only the whole turn wins it.
WIN_IN_A_TURN = _pos([0, 0, 0, 0, 2, 1, 22], [0, 0, 0, 0, 0, 1, 22])


def test_a_win_within_a_turn_of_extra_moves_is_a_win_in_one():
    assert tactics.classify(PACK, WIN_IN_A_TURN) == "win in 1"
    probe = tactics.Probe("win in 1", WIN_IN_A_TURN)
    assert tactics.judge(PACK, probe, 5).status == tactics.SOLVED
    assert tactics.judge(PACK, probe, 4).status != tactics.SOLVED


def test_the_assignment_and_its_class_are_found_by_name():
    assignment = find_assignment("Mancala")
    assert assignment.name == "kalah" and assignment.player_class == "KalahPlayer"
    assert find_assignment("kalah-4x4").variant.pits == 4
