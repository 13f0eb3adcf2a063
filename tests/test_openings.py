"""Tournament openings: each pair plays from several fair positions, both colours, so that
deterministic players meet in more than two games; the replays show the opening's moves as
the opening's."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from autograder.classroom.openings import SEARCH_PLIES, fair_openings, forced_winner
from autograder.classroom.tournament import GameTask, kit_players, play_game, round_robin
from autograder.errors import GraderError
from autograder.games import find_assignment
from autograder.games.connect4.solver import Solver
from autograder.games.perfect import OracleError
from autograder.grading.rubric import load_rubric
from autograder.oracle.player import oracle_for
from tests.conftest import COURSE_TOML, TEEKO

pytestmark = pytest.mark.timeout(120)


def _after(assignment, moves):  # type: ignore[no-untyped-def]
    pack = assignment.pack
    pos = pack.start(assignment.variant)
    for move in moves:
        pos = pack.play(pos, move)
    return pos


def _mirror_shape(assignment, moves) -> str:  # type: ignore[no-untyped-def]
    rows = assignment.pack.cells(_after(assignment, moves))
    return min("/".join(rows), "/".join(r[::-1] for r in rows))


def test_every_pair_plays_each_opening_in_both_colours():
    schedule = round_robin(["a", "b", "c"], openings=3)
    assert len(schedule) == 3 * 2 * 3
    for opening in range(3):
        games = sorted((p.first, p.second) for p in schedule if p.opening == opening)
        assert games == sorted((x, y) for x in "abc" for y in "abc" if x != y)
    assert len({p.id for p in schedule}) == len(schedule)
    assert {p.id for p in schedule if p.opening == 0} == {p.id for p in round_robin("abc")}


@pytest.mark.parametrize("name", ["connect4", "othello", "teeko2"])
def test_openings_are_distinct_the_start_first_and_the_same_for_the_same_seed(name):
    assignment = find_assignment(name)
    openings = fair_openings(assignment, 4, 2, seed=3)
    assert openings[0] == () and len(openings) == 4
    assert all(len(moves) == 2 for moves in openings[1:])
    shapes = {_mirror_shape(assignment, moves) for moves in openings}
    assert len(shapes) == 4, "no opening is another's mirror image"
    assert fair_openings(assignment, 4, 2, seed=3) == openings
    assert fair_openings(assignment, 4, 2, seed=4) != openings


def test_mirror_images_are_one_opening():
    assignment = find_assignment("connect4")
    openings = fair_openings(assignment, 40, 2, seed=0)  # 49 pairs of moves, 25 unmirrored
    assert len({_mirror_shape(assignment, moves) for moves in openings}) == len(openings)
    assert 20 < len(openings) <= 26


def test_connect_four_openings_leave_no_win_to_force_where_no_solver_reaches():
    assignment = find_assignment("connect4")
    openings = fair_openings(assignment, 12, 7, seed=0)  # long ones: some random ones lose
    assert len(openings) == 12
    for moves in openings:
        assert forced_winner(assignment, _after(assignment, moves), SEARCH_PLIES) is None
    lost = (2, 2, 3, 3, 4)  # red has three on the bottom row, open at both ends
    assert forced_winner(assignment, _after(assignment, lost), 1) is None  # yellow to move
    assert forced_winner(assignment, _after(assignment, lost), 2) == "r"


def test_openings_keep_the_value_the_game_has_at_its_start_where_it_is_solved():
    assignment = find_assignment("connect4-5x4")
    solver = Solver("connect4-5x4")
    start = solver.value(assignment.pack.start(assignment.variant)).value
    openings = fair_openings(assignment, 30, 2, seed=1)  # all 25, less the mirrored and lost
    assert (0, 1) not in openings and (4, 3) not in openings  # red loses after either
    for moves in openings[1:]:
        assert solver.value(_after(assignment, moves)).value == start  # red to move again


def test_teeko_openings_are_draws_with_the_solved_table():
    assignment = find_assignment("teeko2")
    try:
        oracle = oracle_for(assignment)
    except OracleError as err:
        pytest.skip(f"no solved table here: {err}")
    for moves in fair_openings(assignment, 12, 3, seed=0):
        assert oracle.value(_after(assignment, moves)).value == "draw"


def test_a_game_from_an_opening_shows_the_opening_in_its_replay(tmp_path):
    assignment = find_assignment("connect4")
    rubric = load_rubric(None, assignment.pack)
    greedy, minimax = kit_players(["greedy", "minimax2"], assignment, tmp_path)
    opening = fair_openings(assignment, 2, 2, seed=0)[1]
    pairing = round_robin([greedy.id, minimax.id], openings=2)[2]
    assert pairing.opening == 1 and pairing.id.endswith("-o1")
    first, second = (greedy, minimax) if pairing.first == greedy.id else (minimax, greedy)
    game = play_game(GameTask(pairing, first, second, assignment.name, rubric, 0, opening))
    assert game["opening_moves"] == list(opening) and game["opening"] == 1
    texts = [m["text"] for m in game["moves"]]
    assert texts[0].startswith("ply 1, the opening (red): ")
    assert texts[1].startswith("ply 2, the opening (yellow): ")
    assert texts[2].startswith(f"ply 3, {pairing.first} (red): ")
    assert json.loads(json.dumps(game))["fingerprint"]["opening"] == repr(list(opening))


def test_openings_take_a_whole_number_of_at_least_one(tmp_path):
    path = tmp_path / "course.toml"
    path.write_text(COURSE_TOML.read_text() + "\n[tournament]\nopenings = 0\n")
    with pytest.raises(GraderError, match=r"tournament\.openings is 0; it must be at least 1"):
        load_rubric(path, TEEKO)
    path.write_text(COURSE_TOML.read_text() + "\n[tournament]\nopenings = 5\nopening_plies = 4\n")
    rubric = load_rubric(path, TEEKO)
    assert (rubric.openings, rubric.opening_plies) == (5, 4)


DETERMINISTIC = """
class Connect4Player:
    board = [[' '] * 7 for _ in range(6)]
    pieces = ['r', 'y']

    def __init__(self):
        self.my_piece, self.opp = 'r', 'y'

    def make_move(self, state):
        free = [c for c in range(7) if state[0][c] == ' ']
        return free[-1] if {SHIFT} else free[0]

    def place_piece(self, move, piece):
        for row in range(5, -1, -1):
            if self.board[row][move] == ' ':
                self.board[row][move] = piece
                return

    def opponent_move(self, move):
        self.place_piece(move, self.opp)
"""


@pytest.mark.slow
@pytest.mark.timeout(400)
def test_two_deterministic_players_meet_in_six_different_games(tmp_path, run_cli):
    """Players whose moves depend on the board alone play the same game again from the same
    position: from three positions, both colours, they play six different games."""
    folder = tmp_path / "class"
    for name, shift in (("lefty", "False"), ("shifty", "True")):
        (folder / name).mkdir(parents=True)
        (folder / name / "game.py").write_text(DETERMINISTIC.replace("{SHIFT}", shift))
    out = tmp_path / "out"
    done = run_cli("tournament", str(folder), "-a", "connect4", "--out", str(out))
    assert done.returncode == 0, done.stderr
    games = [json.loads(p.read_text()) for p in sorted((out / "games").glob("*.json"))]
    assert len(games) == 6 and {g["opening"] for g in games} == {0, 1, 2}
    played = {tuple(m["text"].split(": ", 1)[1] for m in g["moves"]) for g in games}
    assert len(played) == 6, "six different games"
    replay = (out / "games" / "lefty--shifty.html").read_text()
    assert "the opening (red)" in replay
    assert "could be" in done.stdout and str(Path(out / "leaderboard.csv")) in done.stdout
