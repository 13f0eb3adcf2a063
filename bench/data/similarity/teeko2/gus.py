# Gus: a class of its own for the search, iterative deepening with a move-count limit.
import time


class Searcher:
    def __init__(self, player, limit=3.0):
        self.player = player
        self.deadline = time.time() + limit
        self.nodes = 0

    def value(self, board, depth, alpha, beta, turn):
        self.nodes += 1
        outcome = self.player.game_value(board)
        if outcome:
            return outcome * (10 + depth)
        if depth == 0 or time.time() > self.deadline:
            return self.player.heuristic_game_value(board)
        piece = self.player.my_piece if turn else self.player.opp
        kids = self.player.succ(board, piece)
        if turn:
            for kid in kids:
                alpha = max(alpha, self.value(kid, depth - 1, alpha, beta, False))
                if beta <= alpha:
                    return alpha
            return alpha
        for kid in kids:
            beta = min(beta, self.value(kid, depth - 1, alpha, beta, True))
            if beta <= alpha:
                return beta
        return beta


class Teeko2Player:
    def make_move(self, state):
        search = Searcher(self)
        kids = self.succ(state, self.my_piece)
        best = kids[0]
        for depth in range(1, 4):
            scores = [search.value(k, depth - 1, -1000, 1000, False) for k in kids]
            best = kids[scores.index(max(scores))]
            if time.time() > search.deadline:
                break
        added = [
            (r, c) for r in range(5) for c in range(5) if state[r][c] == " " and best[r][c] != " "
        ]
        removed = [
            (r, c) for r in range(5) for c in range(5) if state[r][c] != " " and best[r][c] == " "
        ]
        return added + removed

    def succ(self, state, piece):
        count = 0
        for row in state:
            for cell in row:
                count += cell == piece
        boards = []
        for r in range(5):
            for c in range(5):
                if count < 4:
                    if state[r][c] == " ":
                        b = [list(x) for x in state]
                        b[r][c] = piece
                        boards.append(b)
                elif state[r][c] == piece:
                    for nr in range(max(0, r - 1), min(5, r + 2)):
                        for nc in range(max(0, c - 1), min(5, c + 2)):
                            if state[nr][nc] == " ":
                                b = [list(x) for x in state]
                                b[r][c], b[nr][nc] = " ", piece
                                boards.append(b)
        return boards

    def max_value(self, state, depth):
        return Searcher(self).value(state, 3 - depth, -1000, 1000, True)

    def min_value(self, state, depth):
        return Searcher(self).value(state, 3 - depth, -1000, 1000, False)

    def heuristic_game_value(self, state):
        weights = [
            [1, 2, 2, 2, 1],
            [2, 3, 4, 3, 2],
            [2, 4, 5, 4, 2],
            [2, 3, 4, 3, 2],
            [1, 2, 2, 2, 1],
        ]
        total = 0
        for r in range(5):
            for c in range(5):
                if state[r][c] == self.my_piece:
                    total += weights[r][c]
                elif state[r][c] == self.opp:
                    total -= weights[r][c]
        return total / 20

    def game_value(self, state):
        def same(cells):
            return cells[0] != " " and all(x == cells[0] for x in cells)

        found = " "
        for r in range(5):
            for c in range(5):
                if c <= 1 and same([state[r][c + i] for i in range(4)]):
                    found = state[r][c]
                if r <= 1 and same([state[r + i][c] for i in range(4)]):
                    found = state[r][c]
                if r <= 1 and c <= 1 and same([state[r + i][c + i] for i in range(4)]):
                    found = state[r][c]
                if r <= 1 and c >= 3 and same([state[r + i][c - i] for i in range(4)]):
                    found = state[r][c]
                if 1 <= r <= 3 and 1 <= c <= 3 and state[r][c] == " ":
                    if same(
                        [
                            state[r - 1][c - 1],
                            state[r - 1][c + 1],
                            state[r + 1][c - 1],
                            state[r + 1][c + 1],
                        ]
                    ):
                        found = state[r - 1][c - 1]
        if found == " ":
            return 0
        return 1 if found == self.my_piece else -1
