"""Fay: a player with a memo of positions already scored and an expectation over replies."""

from functools import lru_cache


def frozen(state):
    return tuple(tuple(row) for row in state)


def drop(board, col, piece):
    rows = [list(r) for r in board]
    for r in reversed(range(len(rows))):
        if rows[r][col] == " ":
            rows[r][col] = piece
            return frozen(rows)
    return None


def lines(board):
    h, w = len(board), len(board[0])
    for r in range(h):
        for c in range(w):
            if c + 4 <= w:
                yield [board[r][c + i] for i in range(4)]
            if r + 4 <= h:
                yield [board[r + i][c] for i in range(4)]
                if c + 4 <= w:
                    yield [board[r + i][c + i] for i in range(4)]
                if c - 3 >= 0:
                    yield [board[r + i][c - i] for i in range(4)]


@lru_cache(maxsize=None)
def judge(board, me, you):
    for line in lines(board):
        if line == [me] * 4:
            return 1
        if line == [you] * 4:
            return -1
    return 0


@lru_cache(maxsize=None)
def shape_score(board, me, you):
    points = {0: 0, 1: 1, 2: 3, 3: 9}
    s = 0
    for line in lines(board):
        if you not in line:
            s += points.get(line.count(me), 0)
        elif me not in line:
            s -= points.get(line.count(you), 0)
    return s


@lru_cache(maxsize=None)
def expect(board, me, you, depth, my_turn):
    done = judge(board, me, you)
    if done or depth == 0:
        return done * 1000 if done else shape_score(board, me, you)
    piece = me if my_turn else you
    kids = [k for k in (drop(board, c, piece) for c in range(len(board[0]))) if k is not None]
    if not kids:
        return 0
    values = [expect(k, me, you, depth - 1, not my_turn) for k in kids]
    if my_turn:
        return max(values)
    return 0.8 * min(values) + 0.2 * sum(values) / len(values)


class Connect4Player:
    def make_move(self, state):
        board = frozen(state)
        options = {}
        for c in range(len(state[0])):
            kid = drop(board, c, self.my_piece)
            if kid is not None:
                options[c] = expect(kid, self.my_piece, self.opp, 3, False)
        return max(sorted(options), key=lambda c: options[c])

    def succ(self, state, piece):
        kids = (drop(frozen(state), c, piece) for c in range(len(state[0])))
        return [[list(r) for r in k] for k in kids if k is not None]

    def heuristic_game_value(self, state):
        board = frozen(state)
        j = judge(board, self.my_piece, self.opp)
        return (
            j
            if j
            else shape_score(board, self.my_piece, self.opp)
            / (1 + abs(shape_score(board, self.my_piece, self.opp)))
        )

    def max_value(self, state, depth):
        return expect(frozen(state), self.my_piece, self.opp, max(0, 3 - depth), True) / 1000

    def min_value(self, state, depth):
        return expect(frozen(state), self.my_piece, self.opp, max(0, 3 - depth), False) / 1000

    def game_value(self, state):
        return judge(frozen(state), self.my_piece, self.opp)
