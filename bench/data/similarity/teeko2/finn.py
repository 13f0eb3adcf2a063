# Finn: comprehensions and small helpers; minimax returns (value, move) pairs.
import copy

DIRS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]
SQUARES = [(r, c) for r in range(5) for c in range(5)]


def empties(board):
    return [(r, c) for r, c in SQUARES if board[r][c] == " "]


def pieces_of(board, p):
    return [(r, c) for r, c in SQUARES if board[r][c] == p]


def on_board(r, c):
    return 0 <= r < 5 and 0 <= c < 5


def place(board, move, p):
    b = copy.deepcopy(board)
    if len(move) > 1:
        b[move[1][0]][move[1][1]] = " "
    b[move[0][0]][move[0][1]] = p
    return b


def moves_for(board, p):
    if len(pieces_of(board, p)) < 4:
        return [[sq] for sq in empties(board)]
    return [
        [(r + dr, c + dc), (r, c)]
        for r, c in pieces_of(board, p)
        for dr, dc in DIRS
        if on_board(r + dr, c + dc) and board[r + dr][c + dc] == " "
    ]


def windows():
    rows = [[(r, c + k) for k in range(4)] for r in range(5) for c in range(2)]
    cols = [[(r + k, c) for k in range(4)] for r in range(2) for c in range(5)]
    diag = [[(r + k, c + k) for k in range(4)] for r in range(2) for c in range(2)]
    anti = [[(r + k, c - k) for k in range(4)] for r in range(2) for c in range(3, 5)]
    return rows + cols + diag + anti


WINDOWS = windows()


class Teeko2Player:
    def succ(self, state, piece):
        return [place(state, m, piece) for m in moves_for(state, piece)]

    def search(self, board, depth, maximizing):
        value = self.game_value(board)
        if value or depth == 0:
            return (value if value else self.heuristic_game_value(board)), None
        piece = self.my_piece if maximizing else self.opp
        options = [
            (self.search(place(board, m, piece), depth - 1, not maximizing)[0], m)
            for m in moves_for(board, piece)
        ]
        pick = max if maximizing else min
        return pick(options, key=lambda pair: pair[0])

    def make_move(self, state):
        _, move = self.search(state, 3, True)
        return move

    def max_value(self, state, depth):
        return self.search(state, 3 - depth, True)[0]

    def min_value(self, state, depth):
        return self.search(state, 3 - depth, False)[0]

    def heuristic_game_value(self, state):
        value = self.game_value(state)
        if value:
            return value
        mine = (
            max(
                sum(state[r][c] == self.my_piece for r, c in w)
                for w in WINDOWS
                if all(state[r][c] != self.opp for r, c in w)
            )
            if WINDOWS
            else 0
        )
        theirs = max(
            (
                sum(state[r][c] == self.opp for r, c in w)
                for w in WINDOWS
                if all(state[r][c] != self.my_piece for r, c in w)
            ),
            default=0,
        )
        return (mine - theirs) / 4

    def game_value(self, state):
        for w in WINDOWS:
            owners = {state[r][c] for r, c in w}
            if len(owners) == 1 and " " not in owners:
                return 1 if owners == {self.my_piece} else -1
        for r, c in [(r, c) for r in range(1, 4) for c in range(1, 4)]:
            corners = {state[r + dr][c + dc] for dr in (-1, 1) for dc in (-1, 1)}
            if state[r][c] == " " and len(corners) == 1 and " " not in corners:
                return 1 if corners == {self.my_piece} else -1
        return 0
