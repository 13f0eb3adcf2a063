# Ada: the board as lists, windows of four scored, plain minimax on copies.
import copy


class Connect4Player:
    DEPTH = 3

    def succ(self, state, piece):
        result = []
        for col in range(len(state[0])):
            if state[0][col] != " ":
                continue
            nxt = copy.deepcopy(state)
            row = len(state) - 1
            while nxt[row][col] != " ":
                row -= 1
            nxt[row][col] = piece
            result.append((col, nxt))
        return result

    def score_window(self, window):
        mine, theirs, empty = window.count(self.my_piece), window.count(self.opp), window.count(" ")
        if mine == 3 and empty == 1:
            return 5
        if mine == 2 and empty == 2:
            return 2
        if theirs == 3 and empty == 1:
            return -4
        return 0

    def heuristic_game_value(self, state):
        val = self.game_value(state)
        if val != 0:
            return val
        rows, cols = len(state), len(state[0])
        total = 0
        for r in range(rows):
            for c in range(cols):
                if c + 3 < cols:
                    total += self.score_window([state[r][c + i] for i in range(4)])
                if r + 3 < rows:
                    total += self.score_window([state[r + i][c] for i in range(4)])
                if r + 3 < rows and c + 3 < cols:
                    total += self.score_window([state[r + i][c + i] for i in range(4)])
                if r + 3 < rows and c - 3 >= 0:
                    total += self.score_window([state[r + i][c - i] for i in range(4)])
        center = [state[r][cols // 2] for r in range(rows)]
        total += 3 * center.count(self.my_piece)
        return max(-0.9, min(0.9, total / 100))

    def max_value(self, state, depth):
        if self.game_value(state) != 0 or depth >= self.DEPTH:
            return self.heuristic_game_value(state)
        options = self.succ(state, self.my_piece)
        if not options:
            return 0
        return max(self.min_value(s, depth + 1) for _, s in options)

    def min_value(self, state, depth):
        if self.game_value(state) != 0 or depth >= self.DEPTH:
            return self.heuristic_game_value(state)
        options = self.succ(state, self.opp)
        if not options:
            return 0
        return min(self.max_value(s, depth + 1) for _, s in options)

    def make_move(self, state):
        best_col, best_val = None, -10
        for col, s in self.succ(state, self.my_piece):
            v = self.min_value(s, 1)
            if v > best_val:
                best_col, best_val = col, v
        return best_col

    def game_value(self, state):
        rows, cols = len(state), len(state[0])
        for r in range(rows):
            for c in range(cols):
                p = state[r][c]
                if p == " ":
                    continue
                for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                    er, ec = r + 3 * dr, c + 3 * dc
                    if (
                        0 <= er < rows
                        and 0 <= ec < cols
                        and all(state[r + k * dr][c + k * dc] == p for k in range(4))
                    ):
                        return 1 if p == self.my_piece else -1
        return 0
