# Dee: bitboards, seven bits a column, and a transposition dictionary.
class Connect4Player:
    memo = {}

    def encode(self, state):
        rows, cols = len(state), len(state[0])
        mine = theirs = 0
        for c in range(cols):
            for r in range(rows):
                bit = 1 << (c * (rows + 1) + (rows - 1 - r))
                if state[r][c] == self.my_piece:
                    mine |= bit
                elif state[r][c] == self.opp:
                    theirs |= bit
        return mine, theirs, rows, cols

    @staticmethod
    def four(bb, h):
        for shift in (1, h + 1, h, h + 2):
            m = bb & (bb >> shift)
            if m & (m >> (2 * shift)):
                return True
        return False

    def heights(self, both, rows, cols):
        hs = []
        for c in range(cols):
            base = c * (rows + 1)
            n = 0
            while n < rows and both >> (base + n) & 1:
                n += 1
            hs.append(n)
        return hs

    def solve(self, me, you, rows, cols, depth):
        key = (me, you, depth)
        if key in self.memo:
            return self.memo[key]
        if self.four(you, rows + 1):
            return -100 - depth
        hs = self.heights(me | you, rows, cols)
        playable = [c for c in range(cols) if hs[c] < rows]
        if not playable:
            return 0
        if depth == 0:
            total = 0
            for c in range(cols):
                weight = cols // 2 - abs(c - cols // 2) + 1
                for r in range(rows):
                    bit = 1 << (c * (rows + 1) + r)
                    total += weight * ((me & bit) > 0) - weight * ((you & bit) > 0)
            return total
        best = -(10**9)
        for c in sorted(playable, key=lambda x: abs(x - cols // 2)):
            after = me | (1 << (c * (rows + 1) + hs[c]))
            best = max(best, -self.solve(you, after, rows, cols, depth - 1))
        self.memo[key] = best
        return best

    def make_move(self, state):
        me, you, rows, cols = self.encode(state)
        hs = self.heights(me | you, rows, cols)
        scored = []
        for c in range(cols):
            if hs[c] < rows:
                after = me | (1 << (c * (rows + 1) + hs[c]))
                scored.append((-self.solve(you, after, rows, cols, 4), -abs(c - cols // 2), c))
        return max(scored)[2]

    def succ(self, state, piece):
        out = []
        for c in range(len(state[0])):
            rows = [r for r in range(len(state)) if state[r][c] == " "]
            if rows:
                board = [list(row) for row in state]
                board[rows[-1]][c] = piece
                out.append(board)
        return out

    def heuristic_game_value(self, state):
        me, you, rows, cols = self.encode(state)
        return max(-1, min(1, self.solve(me, you, rows, cols, 0) / 60))

    def max_value(self, state, depth):
        me, you, rows, cols = self.encode(state)
        return self.solve(me, you, rows, cols, max(0, 4 - depth)) / 200

    def min_value(self, state, depth):
        me, you, rows, cols = self.encode(state)
        return -self.solve(you, me, rows, cols, max(0, 4 - depth)) / 200

    def game_value(self, state):
        me, you, rows, _ = self.encode(state)
        if self.four(me, rows + 1):
            return 1
        if self.four(you, rows + 1):
            return -1
        return 0
