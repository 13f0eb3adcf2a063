"""The child runner's pure parts: how a returned value is described, and its own JSON."""

from __future__ import annotations

import json

import pytest

from autograder.child import _MAX_NODES, _to_json, encode
from autograder.referee import decode


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
