"""``autograder tournament``: the schedule, the ratings, the saved games, and the example
class's tournament (the solution first, the starter last)."""

from __future__ import annotations

import csv
import io
import json
import math
import random
import shutil
from pathlib import Path

import pytest

from autograder.classroom.tournament import kit_players, round_robin, swiss_round
from autograder.errors import GraderError
from autograder.games import find_assignment
from autograder.grading.rubric import load_rubric
from autograder.grading.tournament import (
    leaderboard_csv,
    leaderboard_html,
    leaderboard_text,
    pair_file,
    rate,
)
from tests.conftest import COURSE_TOML, ROOT, TEEKO

EXAMPLES = ROOT / "examples" / "submissions"
STARTER_ZIP = EXAMPLES / "nguyenlinh_10002_500002_hw8_lnguyen.zip"  # the untouched starter
SIMPLE_ZIP = EXAMPLES / "schmidtanna_10005_500005_hw8_aschmidt.zip"  # the simple player


def _game(first: str, second: str, winner: str | None, fault: str | None = None) -> dict:
    return {
        "id": f"{first}--{second}--1",
        "round": 1,
        "first": first,
        "second": second,
        "winner": winner,
        "fault": fault,
    }


def _table(out: Path) -> list[dict[str, str]]:
    with (out / "leaderboard.csv").open() as f:
        return list(csv.DictReader(f))


def quick_rubric(folder: Path) -> Path:
    """The course's rubric with a short game: 40 plies, then a draw; from the start only."""
    text = COURSE_TOML.read_text()
    path = folder / "quick.toml"
    path.write_text(
        text.replace("ply_cap = 200", "ply_cap = 40", 1) + "\n[tournament]\nopenings = 1\n"
    )
    assert "ply_cap = 40" in path.read_text()
    return path


# ---- the schedule and the table -----------------------------------------------------------------


@pytest.mark.parametrize("count", [2, 3, 6])
def test_round_robin_plays_every_pair_once_in_each_colour(count):
    ids = [f"s{i}" for i in range(count)]
    games = [(p.first, p.second) for p in round_robin(ids)]
    assert sorted(games) == sorted((a, b) for a in ids for b in ids if a != b)


def test_a_swiss_round_pairs_players_who_have_not_met_and_gives_the_odd_one_out_a_bye():
    ids = ["a", "b", "c", "d", "e"]
    first = swiss_round(ids, [], 1)
    played = [dict(_game(p.first, p.second, p.first), round=1) for p in first]
    met = {frozenset((p.first, p.second)) for p in first}
    second = swiss_round(ids, played, 2)
    assert len(first) == len(second) == 4  # two pairs, both colours; one player sits out
    assert not met & {frozenset((p.first, p.second)) for p in second}
    out_first = set(ids) - {p.first for p in first}
    out_second = set(ids) - {p.first for p in second}
    assert out_first != out_second  # the bye goes round


def test_the_table_ranks_the_player_who_won_everything_first_and_counts_forfeits():
    players = [("a", "student", ""), ("b", "student", ""), ("c", "kit", "the random player")]
    games = [
        _game("a", "b", "a"),
        _game("b", "a", "a"),
        _game("a", "c", "a"),
        _game("c", "a", "a"),
        _game("b", "c", None),
        _game("c", "b", "c", fault="b"),
    ]
    table = rate(players, games)
    assert [s.player for s in table] == ["a", "c", "b"]
    a, c, b = table
    assert (a.wins, a.draws, a.losses) == (4, 0, 0)
    assert (b.wins, b.draws, b.losses, b.forfeits) == (0, 1, 3, 1)
    assert a.rating > c.rating > b.rating and 0 < a.error < 400  # finite, for all its wins
    assert rate(players, games) == table  # the same games, the same table


def _league(strengths: dict[str, float], rounds: int, seed: int) -> list[dict]:
    """Every pair ``rounds`` times in each colour, won with the odds of the two players'
    Bradley-Terry strengths (a draw now and then)."""
    rng = random.Random(seed)
    games = []
    for n in range(rounds):
        for a in strengths:
            for b in strengths:
                if a == b:
                    continue
                p = 1 / (1 + math.exp(strengths[b] - strengths[a]))
                draw = rng.random() < 0.1
                winner = None if draw else a if rng.random() < p else b
                games.append(dict(_game(a, b, winner), round=n + 1))
    return games


def test_the_table_is_the_same_for_any_order_of_the_same_games():
    strengths = {f"p{n}": n / 3 for n in range(8)}
    players = [(p, "student", "") for p in strengths]
    games = _league(strengths, 2, seed=5)
    table = rate(players, games)
    text = (leaderboard_csv(table), leaderboard_text(table))
    rng = random.Random(11)
    for _ in range(6):
        rng.shuffle(games)
        again = rate(players, games)
        assert again == table
        assert (leaderboard_csv(again), leaderboard_text(again)) == text


def test_a_win_against_the_strongest_counts_more_than_one_against_the_weakest():
    """The issue's case: the depth-4 answer key (15 won, 2 lost) was put above the depth-8
    solution (15 won, 1 lost) that beat it when games were rated one by one in the schedule's
    order; fitted on all games at once, the solution is first whatever the order."""
    others = [f"x{n}" for n in range(7)]
    games = [_game("solution", "key", "solution"), _game("key", "solution", None)]
    for n, other in enumerate(others):
        games += [_game("solution", other, "solution"), _game(other, "solution", "solution")]
        games += [_game("key", other, "key"), _game(other, "key", other if n < 1 else "key")]
        for rival in others[n + 1 :]:
            games += [_game(other, rival, other), _game(rival, other, other)]
    players = [(p, "student", "") for p in ("key", "solution", *others)]
    rng = random.Random(3)
    for _ in range(20):
        rng.shuffle(games)
        table = rate(players, games)
        assert [s.player for s in table[:2]] == ["solution", "key"]


def test_connect_four_players_of_known_strength_are_ranked_the_same_in_any_order():
    """The issue's scenario, played for real (bench/tournament_verdict.py --save): the
    reference solution held to depths 8 and 6, the answer key at depths 4, 3 and 2, the greedy
    and random players, and three that crash, move illegally or sleep, in a round robin from
    three openings, both colours (270 games). The depth-8 solution is first in every order."""
    saved = json.loads((ROOT / "tests" / "data" / "connect4_known_strength_games.json").read_text())
    players = [(pid, kind, "") for pid, kind in saved["players"]]
    games = [
        {"first": a, "second": b, "winner": w, "fault": f, "opening": o}
        for a, b, w, f, o in saved["games"]
    ]
    assert len(games) == 270 and {g["opening"] for g in games} == {0, 1, 2}
    table = rate(players, games)
    assert table[0].player == "solution-d8" and table[0].ranks[0] == 1
    assert [s.player for s in table[-3:]] == ["crashes", "illegal", "sleeps"]
    assert {s.group for s in table[-3:]} == {"8-10"}  # three who forfeit every game: tied
    assert table[-4].group != "8-10"  # and told apart from the random player above them
    rng = random.Random(7)
    for _ in range(30):
        rng.shuffle(games)
        assert rate(players, games) == table


def test_players_the_games_cannot_tell_apart_show_the_ranks_they_could_hold():
    strengths = {"top": 6.0, "a": 1.0, "b": 1.0, "c": 0.9, "last": -5.0}
    players = [(p, "student", "") for p in strengths]
    games = _league(strengths, 3, seed=2)
    table = rate(players, games)
    by = {s.player: s for s in table}
    assert by["top"].rank == 1 and by["top"].could_be == "1" and by["top"].group == "1"
    assert by["last"].could_be == "5" and by["last"].group == "5"
    for middle in ("a", "b", "c"):
        assert by[middle].could_be == "2-4" and by[middle].group == "2-4"
    rows = {row["player"]: row for row in csv.DictReader(io.StringIO(leaderboard_csv(table)))}
    assert rows["b"]["could_be"] == "2-4" and rows["top"]["could_be"] == "1"
    text = leaderboard_text(table)
    splits = [line for line in text.splitlines() if set(line) == {"-"}]
    assert "2-4" in text and len(splits) == 2  # the games split the table twice
    page = leaderboard_html("T", table, games, [])
    assert page.count('<td class="n">2–4</td>') == 3 and page.count("student split") == 2


def _bands(tmp_path: Path, bands: str):  # type: ignore[no-untyped-def]
    path = tmp_path / "course.toml"
    path.write_text(COURSE_TOML.read_text() + f"\n[tournament]\nbands = {bands}\n")
    return load_rubric(path, TEEKO).tournament_bands


def test_rank_bands_give_points_to_students_by_place_among_students(tmp_path):
    bands = _bands(tmp_path, "[{ rank = 1, points = 5 }, { rank = 2, points = 2 }]")
    players = [("kit-solution", "kit", ""), ("a", "student", ""), ("b", "student", "")]
    games = []
    for _ in range(8):  # enough games to tell all three apart
        games += [_game("kit-solution", "a", "kit-solution"), _game("a", "b", "a")]
        games += [_game("kit-solution", "b", "kit-solution")]
    table = rate(players, games, bands)
    assert [s.group for s in table] == ["1", "2", "3"]
    assert [(s.player, s.points) for s in table] == [("kit-solution", None), ("a", 5), ("b", 2)]
    assert leaderboard_csv(table).splitlines()[0].endswith(",points")
    assert "points" not in leaderboard_csv(rate(players, games)).splitlines()[0]


def test_rank_bands_give_players_the_games_cannot_tell_apart_the_same_points(tmp_path):
    bands = _bands(tmp_path, "[{ rank = 1, points = 5 }, { rank = 2, points = 2 }]")
    players = [("a", "student", ""), ("b", "student", ""), ("c", "student", "")]
    close = [_game("a", "b", "a"), _game("b", "a", None)]  # a a little ahead of b: not apart
    rest = []
    for _ in range(8):
        rest += [_game("a", "c", "a"), _game("b", "c", "b")]
    table = rate(players, close + rest, bands)
    assert [s.player for s in table] == ["a", "b", "c"]
    assert [(s.group, s.points) for s in table] == [("1-2", 5), ("1-2", 5), ("3", 0)]
    apart = rate(players, close * 12 + rest, bands)  # the same lead, twelve times over
    assert [(s.group, s.points) for s in apart] == [("1", 5), ("2", 2), ("3", 0)]


def test_rank_bands_follow_what_the_games_show_of_each_student_not_a_chain_of_close_pairs(
    tmp_path,
):
    """Neighbours close in a line of five tie the whole table into one group, but the last
    two are shown weaker than the first two: each earns the best place it could hold (third),
    not the first place's points through the chain."""
    bands = _bands(
        tmp_path, "[{ rank = 1, points = 5 }, { rank = 2, points = 3 }, { rank = 3, points = 1 }]"
    )
    strengths = {"s1": 4.0, "s2": 3.0, "s3": 2.0, "s4": 1.0, "s5": 0.0}
    table = rate([(p, "student", "") for p in strengths], _league(strengths, 2, seed=0), bands)
    assert [s.group for s in table] == ["1-5"] * 5
    rows = [(s.player, s.could_be, s.points) for s in table]
    assert rows == [
        ("s1", "1-3", 5),
        ("s2", "1-3", 5),
        ("s3", "1-5", 5),  # could be first: so those above it get no less
        ("s4", "3-5", 1),
        ("s5", "3-5", 1),
    ]


def test_a_band_without_points_is_one_sentence_naming_it(tmp_path):
    path = tmp_path / "course.toml"
    path.write_text(COURSE_TOML.read_text() + "\n[tournament]\nbands = [{ rank = 1 }]\n")
    with pytest.raises(GraderError, match=r"tournament\.bands\[0\] should be"):
        load_rubric(path, TEEKO)


def test_a_swiss_page_names_who_sat_each_round_out():
    """With an odd count a player has a round without a game: the page says so, so that its
    fewer games read as a bye, not as forfeits."""
    from autograder.classroom.class_tournament import _byes
    from autograder.classroom.tournament import Player

    players = [Player(pid, "student") for pid in ("ann", "bob", "cat")]
    games = [
        {"first": "ann", "second": "bob", "round": 1},
        {"first": "bob", "second": "ann", "round": 1},
        {"first": "cat", "second": "ann", "round": 2},
    ]
    assert _byes(players, games, 2) == ["byes (a round without a game): round 1: cat; round 2: bob"]
    assert _byes(players[:2], games[:2], 1) == []


def test_the_html_head_to_head_links_each_cell_to_the_pairs_replays():
    players = [("a<b", "student", ""), ("c", "student", "")]
    games = [_game("a<b", "c", "a<b"), _game("c", "a<b", None)]
    page = leaderboard_html("T", rate(players, games), games, [])
    assert f'href="{pair_file("a<b", "c")}">1–1–0</a>' in page
    assert pair_file("a<b", "c").startswith("games/a_b--c-")  # a readable name and a digest
    assert "<script" not in page and "a<b" not in page


# ---- real games ---------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_a_rerun_plays_no_game_and_gives_the_same_table(tmp_path, run_cli):
    folder = tmp_path / "class"
    folder.mkdir()
    shutil.copy(STARTER_ZIP, folder)
    out = tmp_path / "out"
    args = ["tournament", str(folder), "-a", "teeko2", "--out", str(out), "--with", "random,greedy"]
    args += ["--roster", str(ROOT / "examples" / "roster.csv")]  # names each row by its login
    first = run_cli(*args, "--jobs", "2")
    assert first.returncode == 0, first.stderr
    assert "18 games played in" in first.stderr and "games per second" in first.stderr
    saved = {p.name: p.stat().st_mtime_ns for p in (out / "games").glob("*.json")}
    assert len(saved) == 18  # three players, three openings, both colours
    table = (out / "leaderboard.csv").read_text()
    rows = _table(out)
    assert rows[-1]["player"] == "lnguyen"  # the starter breaks the move phase
    game = json.loads((out / "games" / "lnguyen--kit-random--1.json").read_text())
    assert game["layers"] and game["frames"][0]["caption"] == "the start"
    again = run_cli(*args, "--jobs", "1")
    assert again.returncode == 0, again.stderr
    assert "0 games played in" in again.stderr and "18 were saved already" in again.stderr
    assert {p.name: p.stat().st_mtime_ns for p in (out / "games").glob("*.json")} == saved
    names = {row["player"]: row["name"] for row in _table(out)}
    assert names["lnguyen"] == "Nguyen, Linh"  # as the roster spells it
    assert (out / "leaderboard.csv").read_text() == table
    page = (out / "leaderboard.html").read_text()
    made = page[page.index("made by: ") :].split("<", 1)[0]
    assert f"--roster {ROOT / 'examples' / 'roster.csv'}" in made  # the command that names them
    replay = (out / "games" / "kit-random--lnguyen.html").read_text()
    assert 'id="replays"' in replay and "lnguyen lost on ply" in replay


def test_an_unknown_benchmark_is_one_sentence_listing_the_kits_players(tmp_path, run_cli):
    folder = tmp_path / "class"
    folder.mkdir()
    shutil.copy(STARTER_ZIP, folder)
    done = run_cli(
        "tournament", str(folder), "-a", "teeko2", "--out", str(tmp_path / "o"),
        "--with", "grandmaster", expect_ok=False,
    )  # fmt: skip
    assert done.returncode == 2
    assert "no player 'grandmaster'" in done.stderr and "answer-key" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize(
    ("assignment", "playable"), [("connect4", False), ("connect4-5x4", True), ("teeko2", True)]
)
def test_perfect_play_is_offered_where_the_kit_has_it_and_refused_in_one_sentence_elsewhere(
    tmp_path, run_cli, assignment, playable
):
    if not playable:
        folder = tmp_path / "class"
        folder.mkdir()
        shutil.copy(ROOT / "starter" / "connect4" / "game.py", folder / "ann.py")
        done = run_cli(
            "tournament", str(folder), "-a", assignment, "--out", str(tmp_path / "o"),
            "--with", "perfect,random", expect_ok=False,
        )  # fmt: skip
        assert done.returncode == 2 and done.stderr.count("\n") == 1
        assert "--with perfect: connect4 is too big for the kit's perfect player" in done.stderr
        assert "--with solution" in done.stderr and not (tmp_path / "o").exists()
        return
    try:
        [player] = kit_players(["perfect"], find_assignment(assignment), tmp_path)
    except GraderError as err:  # Teeko's table is not built on this machine
        assert "oracle build" in str(err)
        pytest.skip(str(err))
    assert player.id == "kit-perfect"


@pytest.mark.slow
@pytest.mark.timeout(1200)
@pytest.mark.long(80)
def test_the_example_class_tournament_puts_the_solution_first_and_the_starter_last(
    tmp_path, run_cli
):
    out = tmp_path / "out"
    done = run_cli(
        "tournament", str(EXAMPLES), "-a", "teeko2", "--out", str(out), "--with", "answer-key",
        "--rubric", str(quick_rubric(tmp_path)), "--jobs", "2", timeout=1100,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    rows = _table(out)
    assert len(rows) == 9  # the eight students and the kit's answer key
    assert rows[0]["player"] == "10001"  # bbadger (Canvas user 10001) handed in the solution
    assert rows[-1]["player"] == "10002"  # lnguyen, the starter (no roster: Canvas user ids)
    assert "72 games played in" in done.stderr
    board = json.loads((out / "leaderboard.json").read_text())
    assert {p["player"] for p in board["players"]} >= {"kit-answer-key", "10008", "10006"}


def test_the_kits_solution_and_answer_key_play_the_files_the_kit_ships(tmp_path):
    """``--with solution,answer-key``: each plays the kit's own file for the assignment (the
    example class's tournament above plays the answer key; its bbadger is the solution)."""
    assignment = find_assignment("teeko2")
    players = kit_players(["solution", "answer-key"], assignment, tmp_path)
    assert [p.id for p in players] == ["kit-solution", "kit-answer-key"]
    shipped = {
        "kit-solution": (ROOT / "solution" / "teeko2" / "game.py").read_bytes(),
        "kit-answer-key": (ROOT / "answer_key" / "teeko2" / "game.py").read_bytes(),
    }
    for player in players:
        assert dict(player.files)["game.py"] == shipped[player.id]


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_a_swiss_tournament_plays_its_rounds_without_a_repeat(tmp_path, run_cli):
    folder = tmp_path / "class"
    folder.mkdir()
    shutil.copy(STARTER_ZIP, folder)
    out = tmp_path / "out"
    done = run_cli(
        "tournament", str(folder), "-a", "teeko2", "--out", str(out),
        "--with", "random,greedy,minimax2", "--format", "swiss", "--rounds", "2",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    games = [json.loads(p.read_text()) for p in (out / "games").glob("*.json")]
    assert sorted(g["round"] for g in games) == [1] * 12 + [2] * 12  # 3 openings, 2 colours
    pairs = {
        r: {frozenset((g["first"], g["second"])) for g in games if g["round"] == r} for r in (1, 2)
    }
    assert len(pairs[1]) == len(pairs[2]) == 2 and not pairs[1] & pairs[2]
    assert all(row["games"] == "12" for row in _table(out))
    board = json.loads((out / "leaderboard.json").read_text())
    assert board["format"] == "swiss" and board["rounds"] == 2


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_a_timeout_and_a_crash_lose_the_game_with_the_reason(tmp_path, run_cli):
    starter = (ROOT / "starter" / "teeko2" / "game.py").read_text()
    head = "    def make_move(self, state) -> list:\n"
    assert head in starter
    folder = tmp_path / "class"
    for student, body in (("sleepy", "import time; time.sleep(30)"), ("crashy", "1 / 0")):
        (folder / student).mkdir(parents=True)
        source = starter.replace(head, f"{head}        {body}\n", 1)
        (folder / student / "game.py").write_text(source)
    rubric = tmp_path / "short.toml"
    rubric.write_text(COURSE_TOML.read_text().replace("call_seconds = 10.5", "call_seconds = 1.0"))
    out = tmp_path / "out"
    done = run_cli(
        "tournament", str(folder), "-a", "teeko2", "--out", str(out), "--rubric", str(rubric),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    games = {p.stem: json.loads(p.read_text()) for p in (out / "games").glob("*.json")}
    first = games["crashy--sleepy--1"]  # crashy moves first, and crashes at once
    assert first["winner"] == "sleepy" and first["fault"] == "crashy"
    assert "crashy lost on ply 1" in first["reason"] and "ZeroDivisionError" in first["reason"]
    second = games["sleepy--crashy--1"]  # sleepy moves first, and runs out of time
    assert second["winner"] == "crashy" and second["fault"] == "sleepy"
    assert "sleepy lost on ply 1" in second["reason"] and "after 1 s" in second["reason"]
    assert all(row["forfeits"] == "3" for row in _table(out))  # one a colour and opening
    why = {row["player"]: row["forfeit_reason"] for row in _table(out)}
    assert why["crashy"].startswith("make_move raised ZeroDivisionError: division by zero")
    assert why["sleepy"].startswith("make_move was still running after 1 s")
    page = (out / "leaderboard.html").read_text()
    assert "<h2>Why players forfeited</h2>" in page and "<li>crashy (3): make_move raised" in page
