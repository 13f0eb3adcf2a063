"""Bo's Connect Four AI: alpha-beta, centre columns first, a count of open threes."""

import math


def landing_row(board, col):
    for row in range(len(board) - 1, -1, -1):
        if board[row][col] == " ":
            return row
    return -1


def column_order(width):
    middle = width // 2
    return sorted(range(width), key=lambda c: abs(c - middle))


class Connect4Player:
    def drop(self, board, col, piece):
        new_board = [list(r) for r in board]
        new_board[landing_row(board, col)][col] = piece
        return new_board

    def succ(self, state, piece):
        return [
            self.drop(state, c, piece)
            for c in column_order(len(state[0]))
            if landing_row(state, c) >= 0
        ]

    def open_threes(self, board, piece):
        found = 0
        height, width = len(board), len(board[0])
        for r in range(height):
            for c in range(width):
                for dr, dc in ((0, 1), (1, 0), (1, 1), (-1, 1)):
                    cells = []
                    for k in range(4):
                        rr, cc = r + dr * k, c + dc * k
                        if not (0 <= rr < height and 0 <= cc < width):
                            break
                        cells.append(board[rr][cc])
                    if len(cells) == 4 and cells.count(piece) == 3 and cells.count(" ") == 1:
                        found += 1
        return found

    def heuristic_game_value(self, state):
        v = self.game_value(state)
        if v:
            return v
        diff = self.open_threes(state, self.my_piece) - self.open_threes(state, self.opp)
        return math.tanh(diff / 3)

    def ab(self, board, depth, alpha, beta, maximize):
        v = self.game_value(board)
        if v or depth == 0:
            return v * (depth + 1) if v else self.heuristic_game_value(board)
        piece = self.my_piece if maximize else self.opp
        children = self.succ(board, piece)
        if not children:
            return 0
        if maximize:
            value = -math.inf
            for child in children:
                value = max(value, self.ab(child, depth - 1, alpha, beta, False))
                if value >= beta:
                    break
                alpha = max(alpha, value)
            return value
        value = math.inf
        for child in children:
            value = min(value, self.ab(child, depth - 1, alpha, beta, True))
            if value <= alpha:
                break
            beta = min(beta, value)
        return value

    def max_value(self, state, depth):
        return self.ab(state, 4 - depth, -math.inf, math.inf, True)

    def min_value(self, state, depth):
        return self.ab(state, 4 - depth, -math.inf, math.inf, False)

    def make_move(self, state):
        best, best_col = -math.inf, None
        for col in column_order(len(state[0])):
            if landing_row(state, col) < 0:
                continue
            score = self.ab(self.drop(state, col, self.my_piece), 4, -math.inf, math.inf, False)
            if score > best:
                best, best_col = score, col
        return best_col

    def game_value(self, state):
        for piece, value in ((self.my_piece, 1), (self.opp, -1)):
            height, width = len(state), len(state[0])
            for r in range(height):
                for c in range(width - 3):
                    if all(state[r][c + k] == piece for k in range(4)):
                        return value
            for r in range(height - 3):
                for c in range(width):
                    if all(state[r + k][c] == piece for k in range(4)):
                        return value
                for c in range(width - 3):
                    if all(state[r + k][c + k] == piece for k in range(4)):
                        return value
                    if all(state[r + 3 - k][c + k] == piece for k in range(4)):
                        return value
        return 0
