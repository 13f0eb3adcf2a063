"""Ben's Teeko2 AI: alpha-beta pruning, moves sorted by distance to the centre."""

import math


class Teeko2Player:
    SEARCH_DEPTH = 3

    def count_markers(self, state):
        total = 0
        for row in state:
            for cell in row:
                if cell != " ":
                    total += 1
        return total

    def make_move(self, state):
        in_drop = self.count_markers(state) < 8
        moves = self.legal_moves(state, self.my_piece, in_drop)
        alpha = -math.inf
        chosen = moves[0]
        for mv in moves:
            child = self.apply(state, mv, self.my_piece)
            score = self.alphabeta(child, 1, alpha, math.inf, False)
            if score > alpha:
                alpha = score
                chosen = mv
        return chosen

    def legal_moves(self, state, piece, in_drop):
        moves = []
        if in_drop:
            for i in range(25):
                if state[i // 5][i % 5] == " ":
                    moves.append([(i // 5, i % 5)])
        else:
            for i in range(25):
                r, c = divmod(i, 5)
                if state[r][c] == piece:
                    for j in range(25):
                        r2, c2 = divmod(j, 5)
                        if state[r2][c2] == " " and max(abs(r2 - r), abs(c2 - c)) == 1:
                            moves.append([(r2, c2), (r, c)])
        moves.sort(key=lambda m: abs(m[0][0] - 2) + abs(m[0][1] - 2))
        return moves

    def apply(self, state, move, piece):
        board = [list(row) for row in state]
        if len(move) == 2:
            board[move[1][0]][move[1][1]] = " "
        board[move[0][0]][move[0][1]] = piece
        return board

    def succ(self, state, piece):
        in_drop = sum(1 for row in state for cell in row if cell == piece) < 4
        return [self.apply(state, m, piece) for m in self.legal_moves(state, piece, in_drop)]

    def alphabeta(self, state, depth, alpha, beta, maximizing):
        value = self.game_value(state)
        if value != 0:
            return value * 1000
        if depth == self.SEARCH_DEPTH:
            return self.heuristic_game_value(state)
        piece = self.my_piece if maximizing else self.opp
        in_drop = self.count_markers(state) < 8
        if maximizing:
            best = -math.inf
            for mv in self.legal_moves(state, piece, in_drop):
                best = max(
                    best,
                    self.alphabeta(self.apply(state, mv, piece), depth + 1, alpha, beta, False),
                )
                alpha = max(alpha, best)
                if alpha >= beta:
                    break
            return best
        best = math.inf
        for mv in self.legal_moves(state, piece, in_drop):
            best = min(
                best, self.alphabeta(self.apply(state, mv, piece), depth + 1, alpha, beta, True)
            )
            beta = min(beta, best)
            if alpha >= beta:
                break
        return best

    def max_value(self, state, depth):
        return self.alphabeta(state, depth, -math.inf, math.inf, True)

    def min_value(self, state, depth):
        return self.alphabeta(state, depth, -math.inf, math.inf, False)

    def heuristic_game_value(self, state):
        def closeness(piece):
            spots = [(r, c) for r in range(5) for c in range(5) if state[r][c] == piece]
            if len(spots) < 2:
                return 0
            spread = 0
            for a in range(len(spots)):
                for b in range(a + 1, len(spots)):
                    spread += max(abs(spots[a][0] - spots[b][0]), abs(spots[a][1] - spots[b][1]))
            return -spread

        return closeness(self.my_piece) - closeness(self.opp)

    def game_value(self, state):
        winner = None
        for r in range(5):
            for c in range(5):
                p = state[r][c]
                if p == " ":
                    continue
                for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                    if all(
                        0 <= r + k * dr < 5
                        and 0 <= c + k * dc < 5
                        and state[r + k * dr][c + k * dc] == p
                        for k in range(4)
                    ):
                        winner = p
        for r in (1, 2, 3):
            for c in (1, 2, 3):
                p = state[r - 1][c - 1]
                if (
                    p != " "
                    and state[r][c] == " "
                    and p == state[r - 1][c + 1] == state[r + 1][c - 1] == state[r + 1][c + 1]
                ):
                    winner = p
        if winner is None:
            return 0
        return 1 if winner == self.my_piece else -1
