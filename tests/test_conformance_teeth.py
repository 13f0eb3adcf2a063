"""The conformance checks have teeth: Kalah's pack broken three ways on purpose (a ``play``
that changes the position it is given, no extra turn, no capture) fails the check that
should catch each, while the real pack passes them all."""

from __future__ import annotations

import dataclasses

import pytest

from autograder.games import PACKS
from autograder.games.kalah import rules
from tests.conformance import CHECKS, check_perft, check_pure, check_turn_order

pytestmark = pytest.mark.timeout(120)

KALAH = PACKS["kalah"]
VARIANT = KALAH.variants["kalah"]


def _mutating(pos: rules.Position, pit: int) -> rules.Position:
    """The real move, which then writes the new board into the position it was given."""
    after = rules.play(pos, pit)
    object.__setattr__(pos, "board", after.board)
    return after


def _no_extra_turn(pos: rules.Position, pit: int) -> rules.Position:
    """The real move, the turn always passed on: the last seed in one's store earns nothing."""
    after = rules.play(pos, pit)
    return dataclasses.replace(after, turn=rules.opponent(pos.turn))


def _no_capture(pos: rules.Position, pit: int) -> rules.Position:
    """The sowing without the capture: the last seed in one's own empty pit just stays."""
    pits, me = pos.variant.pits, rules.PIECES.index(pos.turn)
    ring = [(me, i) for i in range(pits + 1)] + [(1 - me, i) for i in range(pits)]
    board = [list(row) for row in pos.board]
    seeds, board[me][pit] = board[me][pit], 0
    at = pit
    for _ in range(seeds):
        at = (at + 1) % len(ring)
        row, cell = ring[at]
        board[row][cell] += 1
    turn = pos.turn if ring[at] == (me, pits) else rules.opponent(pos.turn)
    return rules.Position(pos.variant, (tuple(board[0]), tuple(board[1])), turn)


@pytest.mark.parametrize(
    ("play", "check", "said"),
    [
        (_mutating, check_pure, "changed the position it was given"),
        (_no_extra_turn, check_turn_order, "declares extra turns, but no random game shows one"),
        (_no_capture, check_perft, r"perft\(4\) is 949 by the rules, 942 by the plain"),
    ],
    ids=["play mutates its input", "no extra turn", "no capture"],
)
def test_a_broken_kalah_fails_the_check_that_catches_it(play, check, said):
    broken = dataclasses.replace(KALAH, rules=dataclasses.replace(KALAH.rules, play=play))
    with pytest.raises(AssertionError, match=said):
        check(broken, VARIANT)


def test_the_real_kalah_passes_every_check():
    for check in CHECKS:
        check(KALAH, VARIANT)
