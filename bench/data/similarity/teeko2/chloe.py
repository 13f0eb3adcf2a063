# Chloe: functions outside the class, negamax, the board as a tuple of strings inside the search.
from functools import lru_cache

LINES = []
for _r in range(5):
    for _c in range(5):
        for _dr, _dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
            _cells = [(_r + _k * _dr, _c + _k * _dc) for _k in range(4)]
            if all(0 <= x < 5 and 0 <= y < 5 for x, y in _cells):
                LINES.append(tuple(x * 5 + y for x, y in _cells))
BOXES = [
    ((r - 1) * 5 + c - 1, (r - 1) * 5 + c + 1, (r + 1) * 5 + c - 1, (r + 1) * 5 + c + 1, r * 5 + c)
    for r in range(1, 4)
    for c in range(1, 4)
]


def flat(state):
    return "".join("".join(row) for row in state)


def winner_of(cells):
    for line in LINES:
        first = cells[line[0]]
        if first != " " and all(cells[i] == first for i in line):
            return first
    for a, b, c, d, mid in BOXES:
        if cells[mid] == " " and cells[a] != " " and cells[a] == cells[b] == cells[c] == cells[d]:
            return cells[a]
    return None


def next_positions(cells, piece):
    out = []
    if cells.count(piece) < 4:
        for i, ch in enumerate(cells):
            if ch == " ":
                out.append(((i,), cells[:i] + piece + cells[i + 1 :]))
        return out
    for i, ch in enumerate(cells):
        if ch != piece:
            continue
        r, c = divmod(i, 5)
        for j in range(25):
            r2, c2 = divmod(j, 5)
            if cells[j] == " " and abs(r - r2) <= 1 and abs(c - c2) <= 1:
                moved = list(cells)
                moved[i], moved[j] = " ", piece
                out.append(((j, i), "".join(moved)))
    return out


def evaluate(cells, me, other):
    total = 0.0
    for line in LINES:
        mine = sum(cells[i] == me for i in line)
        theirs = sum(cells[i] == other for i in line)
        if theirs == 0:
            total += (0, 0.01, 0.05, 0.2, 1)[mine]
        if mine == 0:
            total -= (0, 0.01, 0.05, 0.2, 1)[theirs]
    return total


@lru_cache(maxsize=200000)
def negamax(cells, me, other, depth):
    won = winner_of(cells)
    if won is not None:
        return 10 if won == me else -10
    if depth == 0:
        return evaluate(cells, me, other)
    return max(-negamax(nxt, other, me, depth - 1) for _, nxt in next_positions(cells, me))


class Teeko2Player:
    def make_move(self, state):
        cells = flat(state)
        best, best_score = None, float("-inf")
        for move, nxt in next_positions(cells, self.my_piece):
            score = -negamax(nxt, self.opp, self.my_piece, 2)
            if score > best_score:
                best, best_score = move, score
        return [divmod(i, 5) for i in best]

    def succ(self, state, piece):
        return [
            [list(nxt[r * 5 : r * 5 + 5]) for r in range(5)]
            for _, nxt in next_positions(flat(state), piece)
        ]

    def heuristic_game_value(self, state):
        g = self.game_value(state)
        return g if g else max(-1, min(1, evaluate(flat(state), self.my_piece, self.opp) / 5))

    def max_value(self, state, depth):
        return negamax(flat(state), self.my_piece, self.opp, 3 - depth) / 10

    def min_value(self, state, depth):
        return -negamax(flat(state), self.opp, self.my_piece, 3 - depth) / 10

    def game_value(self, state):
        won = winner_of(flat(state))
        if won is None:
            return 0
        return 1 if won == self.my_piece else -1
