# Hal: numpy arrays for the board, convolution-free window sums with slicing.
import numpy as np


class Connect4Player:
    def grid(self, state):
        g = np.zeros((len(state), len(state[0])), dtype=int)
        for r, row in enumerate(state):
            for c, cell in enumerate(row):
                if cell == self.my_piece:
                    g[r, c] = 1
                elif cell == self.opp:
                    g[r, c] = -1
        return g

    def windows(self, g):
        h, w = g.shape
        out = []
        out += [g[r, c : c + 4] for r in range(h) for c in range(w - 3)]
        out += [g[r : r + 4, c] for r in range(h - 3) for c in range(w)]
        out += [
            np.array([g[r + i, c + i] for i in range(4)])
            for r in range(h - 3)
            for c in range(w - 3)
        ]
        out += [
            np.array([g[r + i, c + 3 - i] for i in range(4)])
            for r in range(h - 3)
            for c in range(w - 3)
        ]
        return out

    def outcome(self, g):
        for win in self.windows(g):
            total = int(win.sum())
            if total == 4:
                return 1
            if total == -4:
                return -1
        return 0

    def evaluate(self, g):
        result = self.outcome(g)
        if result:
            return result
        value = 0.0
        for win in self.windows(g):
            pos, neg = int((win == 1).sum()), int((win == -1).sum())
            if neg == 0:
                value += pos**2 / 50
            elif pos == 0:
                value -= neg**2 / 50
        return float(np.clip(value, -0.95, 0.95))

    def legal(self, g):
        return [c for c in range(g.shape[1]) if g[0, c] == 0]

    def drop(self, g, c, sign):
        new = g.copy()
        r = int(np.max(np.where(new[:, c] == 0)[0]))
        new[r, c] = sign
        return new

    def minimax(self, g, depth, sign):
        result = self.outcome(g)
        cols = self.legal(g)
        if result or depth == 0 or not cols:
            return self.evaluate(g)
        vals = [self.minimax(self.drop(g, c, sign), depth - 1, -sign) for c in cols]
        return max(vals) if sign == 1 else min(vals)

    def make_move(self, state):
        g = self.grid(state)
        cols = self.legal(g)
        vals = [self.minimax(self.drop(g, c, 1), 3, -1) for c in cols]
        return int(cols[int(np.argmax(vals))])

    def succ(self, state, piece):
        g = self.grid(state)
        sign = 1 if piece == self.my_piece else -1
        letters = {1: self.my_piece, -1: self.opp, 0: " "}
        return [
            [[letters[int(v)] for v in row] for row in self.drop(g, c, sign)] for c in self.legal(g)
        ]

    def heuristic_game_value(self, state):
        return self.evaluate(self.grid(state))

    def max_value(self, state, depth):
        return self.minimax(self.grid(state), max(0, 3 - depth), 1)

    def min_value(self, state, depth):
        return self.minimax(self.grid(state), max(0, 3 - depth), -1)

    def game_value(self, state):
        return self.outcome(self.grid(state))
