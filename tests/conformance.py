"""The conformance checks of a game's rules, as plain functions of a pack and a variant: each
returns quietly or raises ``AssertionError`` saying what is wrong and where. The suite
(``tests/test_pack_conformance.py``) runs them over every registered pack; its teeth
(``tests/test_conformance_teeth.py``) run them on packs broken on purpose and see them fail.

In the spirit of PettingZoo's ``api_test`` (which walks ``agent_iter()``, so a game whose
sides do not alternate is tested as it plays) and python-chess's perft counts.
"""

from __future__ import annotations

import copy
import random
from typing import Any

from autograder.games.pack import DRAW, AnyPack, Cells, Turns
from autograder.play.records import Plan

__all__ = [
    "CHECKS",
    "PLY_CAP",
    "check_cells",
    "check_endings",
    "check_perft",
    "check_pure",
    "check_turn_order",
    "random_games",
]

PLY_CAP = Plan().ply_cap  # the referee's: a game still going then is called off
GAMES = 12  # random games per variant
PURE_PLIES = 80  # positions of each random game every rule is called on, for purity
PERFT_NODES = 5_000  # perft is compared at each depth up to the first whose count passes this


def random_games(pack: AnyPack, variant: Any, seed: int = 0, games: int = GAMES) -> list[list[Any]]:
    """The positions of ``games`` seeded random games, each to its end or the ply cap; a
    position with no legal move and no result fails (the game is stuck)."""
    rng = random.Random(f"conformance:{pack.name}:{seed}")
    found = []
    for _ in range(games):
        pos, seen = pack.start(variant), []
        while pack.result(pos) is None and len(seen) < PLY_CAP:
            seen.append(pos)
            moves = list(pack.legal_moves(pos))
            assert moves, f"{pack.name}: no legal move and no result:\n{pack.render(pos)}"
            pos = pack.play(pos, rng.choice(moves))
        found.append([*seen, pos])
    return found


def _snapshot(pack: AnyPack, pos: Any) -> tuple[Any, Any]:
    return copy.deepcopy(pos), copy.deepcopy(pack.state(pos))


def check_pure(pack: AnyPack, variant: Any) -> None:
    """No rule changes the position it is given: every function of the rules and drawing,
    called on the positions of random games (``play`` with every legal move), leaves each equal
    to a deep copy taken before, and its plain-data state the same."""
    for game in random_games(pack, variant, games=3):
        for pos in game[:PURE_PLIES]:
            before = _snapshot(pack, pos)
            moves = list(pack.legal_moves(pos)) if pack.result(pos) is None else []
            pack.turn(pos), pack.phase(pos), pack.render(pos), pack.cells(pos)
            if pack.outcome is not None:
                pack.outcome(pos)
            for move in moves:
                pack.play(pos, move)
                pack.marks(pos, pack.student_move(move))
            after = _snapshot(pack, pos)
            assert after == before, (
                f"{pack.name}: a rule changed the position it was given (play, legal_moves or "
                f"a drawing): it was\n{pack.render(before[0])}\nand became\n{pack.render(pos)}"
            )


def check_endings(pack: AnyPack, variant: Any) -> None:
    """Random games reach an outcome within the ply cap (some of them: Teeko's random games
    may wander), each finished position says who won in the pack's words (a side or DRAW,
    and its ``outcome`` agrees), and a winner is found: some game is won by a side."""
    assert pack.result(pack.start(variant)) is None, f"{pack.name}: over before it starts"
    endings = []
    for game in random_games(pack, variant):
        for pos in game[:-1]:
            assert pack.turn(pos) in pack.sides and pack.phase(pos) in pack.phases
        final = game[-1]
        result = pack.result(final)
        assert result in (*pack.sides, DRAW, None), f"{pack.name}: result {result!r}"
        if result is None:
            continue
        endings.append(result)
        if pack.outcome is not None:
            outcome = pack.outcome(final)
            assert outcome is not None, f"{pack.name}: a result and no outcome"
            assert (outcome.winner or DRAW) == result, (outcome, result)
    assert endings, f"{pack.name} {variant.name}: no random game ended within {PLY_CAP} plies"
    assert set(endings) & set(pack.sides), f"{pack.name}: no random game was won: {endings}"


def check_turn_order(pack: AnyPack, variant: Any) -> None:
    """The turn passes as the pack declares (``kind.turns``): where the sides alternate (a
    forced pass being a ply), no side ever moves twice in a row; where a move may give an
    extra turn, some random game shows a side moving twice in a row; a pass move is declared
    exactly where passes are."""
    turns = pack.kind.turns
    assert (pack.pass_move is not None) == (turns is Turns.PASSES), (
        f"{pack.name}: turns {turns.value} with pass_move {pack.pass_move!r}"
    )
    repeats = 0
    for game in random_games(pack, variant):
        for pos, after in zip(game, game[1:], strict=False):
            if pack.result(after) is None and pack.turn(after) == pack.turn(pos):
                repeats += 1
                assert turns is Turns.EXTRA, (
                    f"{pack.name} declares turns {turns.value}, but {pack.turn(pos)} moved "
                    f"twice in a row from\n{pack.render(pos)}"
                )
    if turns is Turns.EXTRA:
        assert repeats, f"{pack.name} declares extra turns, but no random game shows one"


def _perft(pack: AnyPack, pos: Any, depth: int) -> int:
    if depth == 0:
        return 1
    if pack.result(pos) is not None:
        return 0
    return sum(_perft(pack, pack.play(pos, move), depth - 1) for move in pack.legal_moves(pos))


def check_perft(pack: AnyPack, variant: Any) -> None:
    """Where the pack has a second, plain implementation of its rules (``perft``), both count
    the same move sequences from the start, depth by depth up to the first count past
    ``PERFT_NODES``."""
    if pack.perft is None:
        return
    depth = 1
    while True:
        plain = pack.perft(variant, depth)
        ours = _perft(pack, pack.start(variant), depth)
        assert ours == plain, (
            f"{pack.name} {variant.name}: perft({depth}) is {ours} by the rules, {plain} by the "
            "plain implementation"
        )
        if plain > PERFT_NODES or plain == 0:
            return
        depth += 1


def check_cells(pack: AnyPack, variant: Any) -> None:
    """Every position is drawn as the declared shape, its cells what the pack says they hold:
    a side's piece or ``' '`` (``Cells.MARK``), or a count or ``' '`` (``Cells.COUNT``)."""
    rows, columns = pack.kind.shape(variant)
    for game in random_games(pack, variant, games=3):
        for pos in game:
            drawn = pack.cells(pos)
            assert len(drawn) == rows and all(len(row) == columns for row in drawn), drawn
            held = {cell for row in drawn for cell in row} - {" "}
            if pack.kind.cells is Cells.MARK:
                assert held <= set(pack.colours), drawn
            else:
                assert all(type(cell) is int and cell >= 0 for cell in held), drawn


CHECKS = (check_pure, check_endings, check_turn_order, check_perft, check_cells)
