# Eli: while loops and index arithmetic, a greedy look at the opponent's immediate threats.
import random


class Connect4Player:
    def free_row(self, state, col):
        row = len(state) - 1
        while row >= 0:
            if state[row][col] == " ":
                return row
            row = row - 1
        return None

    def succ(self, state, piece):
        out = []
        col = 0
        while col < len(state[0]):
            row = self.free_row(state, col)
            if row is not None:
                copy_of = []
                i = 0
                while i < len(state):
                    copy_of.append(list(state[i]))
                    i = i + 1
                copy_of[row][col] = piece
                out.append(copy_of)
            col = col + 1
        return out

    def count_line(self, state, r, c, dr, dc, piece):
        n = 0
        while 0 <= r < len(state) and 0 <= c < len(state[0]) and state[r][c] == piece:
            n = n + 1
            r = r + dr
            c = c + dc
        return n

    def longest(self, state, piece):
        best = 0
        r = 0
        while r < len(state):
            c = 0
            while c < len(state[0]):
                if state[r][c] == piece:
                    for dr, dc in [(0, 1), (1, 0), (1, 1), (1, -1)]:
                        n = self.count_line(state, r, c, dr, dc, piece)
                        if n > best:
                            best = n
                c = c + 1
            r = r + 1
        return best

    def game_value(self, state):
        if self.longest(state, self.my_piece) >= 4:
            return 1
        if self.longest(state, self.opp) >= 4:
            return -1
        return 0

    def heuristic_game_value(self, state):
        g = self.game_value(state)
        if g != 0:
            return g
        return (self.longest(state, self.my_piece) - self.longest(state, self.opp)) / 4.0

    def max_value(self, state, depth):
        g = self.game_value(state)
        if g != 0 or depth == 3:
            return self.heuristic_game_value(state)
        best = -1
        kids = self.succ(state, self.my_piece)
        i = 0
        while i < len(kids):
            v = self.min_value(kids[i], depth + 1)
            if v > best:
                best = v
            i = i + 1
        return best if kids else 0

    def min_value(self, state, depth):
        g = self.game_value(state)
        if g != 0 or depth == 3:
            return self.heuristic_game_value(state)
        worst = 1
        kids = self.succ(state, self.opp)
        i = 0
        while i < len(kids):
            v = self.max_value(kids[i], depth + 1)
            if v < worst:
                worst = v
            i = i + 1
        return worst if kids else 0

    def make_move(self, state):
        cols = list(range(len(state[0])))
        random.shuffle(cols)
        best_col = None
        best = -2
        j = 0
        while j < len(cols):
            col = cols[j]
            row = self.free_row(state, col)
            if row is not None:
                trial = [list(x) for x in state]
                trial[row][col] = self.my_piece
                v = self.min_value(trial, 1)
                if v > best:
                    best = v
                    best_col = col
            j = j + 1
        return best_col
