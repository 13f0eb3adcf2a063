"""The child runner's pure parts: how a returned value is described, and its own JSON."""

from __future__ import annotations

import json

import pytest

from autograder.play.protocol import _MAX_NODES, decode, encode
from autograder.play.protocol import to_json as _to_json


def _reply_bytes(value: object) -> int:
    return len(_to_json({"ok": True, "move": encode(value)}).encode())


@pytest.mark.parametrize(
    "value",
    [
        [[["\u00e9" * 1000] * 16] * 16] * 16,
        [(0, 0)] * 10_000_000,
        "A1" * 5_000_000,
        [[[[[[[]]]]]]] * 16,
        {str(n): n for n in range(10_000)},
    ],
    ids=["wide unicode tree", "ten million tuples", "10 MB string", "deep", "big dict"],
)
def test_any_returned_value_makes_a_small_reply(value):
    assert _reply_bytes(value) < 64 * 1024


def test_a_cut_list_keeps_its_length_and_three_items():
    description = encode([[(1, 2)] * 40] * 1000)
    assert description["size"] == 1000
    assert len(description["list"]) >= 3
    shown = decode(description)
    assert type(shown) is list and repr(shown).endswith("more]")


def test_the_node_budget_holds_at_every_level():
    def count(description):
        items = description.get("list", description.get("tuple", []))
        return 1 + sum(count(item) for item in items)

    assert count(encode([[[0] * 16] * 16] * 16)) <= _MAX_NODES + 3 * 3 * 3


def test_a_huge_int_is_clamped_with_its_sign():
    assert decode(encode(10**100_000)) == 1 << 63
    assert decode(encode(-(10**100_000))) == -(1 << 63)
    assert decode(encode([(3, 4)])) == [(3, 4)]


def test_the_runner_json_is_json():
    message = {"ok": True, "id": 7, "notes": ['a "quote"', "\u00e9\n"], "x": None, "n": [1, 2]}
    assert json.loads(_to_json(message)) == message


def test_a_namedtuple_move_keeps_its_values_and_its_name():
    from collections import namedtuple

    from autograder.games.teeko.rules import format_problem, parse_position, read_student_move

    square = namedtuple("Square", "row col")
    shown = decode(encode([square(2, 2)]))
    assert type(shown) is list and shown == [(2, 2)]
    assert repr(shown) == "[Square(2, 2)]"
    pos = parse_position("......................... b", "teeko")
    assert read_student_move(shown, pos).student() == [(2, 2)]
    assert format_problem(shown, pos) == (
        "each square should be a tuple (row, col), got Square(2, 2) (a tests.test_child.Square)"
    )


def test_a_list_subclass_is_read_through_the_base_type():
    class Liar(list):
        def __len__(self):
            return 2

        def __getitem__(self, index):
            return (0, 0)

    description = encode(Liar([(1, 2)]))
    assert description["list"] == [{"tuple": [{"int": 1}, {"int": 2}], "size": 2}]
    assert description["size"] == 1 and description["type"].endswith("Liar")
