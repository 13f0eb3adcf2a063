# Dev: while loops everywhere, the successors built as (board, move) pairs.
import random


class Teeko2Player:
    def make_move(self, state):
        placed = 0
        i = 0
        while i < 5:
            j = 0
            while j < 5:
                if state[i][j] != " ":
                    placed = placed + 1
                j = j + 1
            i = i + 1
        pairs = self.moves_with_boards(state, self.my_piece, placed < 8)
        random.shuffle(pairs)
        best_score = -99999
        best_move = None
        k = 0
        while k < len(pairs):
            board, move = pairs[k]
            score = self.min_value(board, 1)
            if score > best_score:
                best_score = score
                best_move = move
            k = k + 1
        return best_move

    def moves_with_boards(self, state, piece, dropping):
        pairs = []
        row = 0
        while row < 5:
            col = 0
            while col < 5:
                if dropping and state[row][col] == " ":
                    board = [r[:] for r in state]
                    board[row][col] = piece
                    pairs.append((board, [(row, col)]))
                if not dropping and state[row][col] == piece:
                    for d in [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]:
                        tr = row + d[0]
                        tc = col + d[1]
                        if tr >= 0 and tr <= 4 and tc >= 0 and tc <= 4 and state[tr][tc] == " ":
                            board = [r[:] for r in state]
                            board[row][col] = " "
                            board[tr][tc] = piece
                            pairs.append((board, [(tr, tc), (row, col)]))
                col = col + 1
            row = row + 1
        return pairs

    def succ(self, state, piece):
        mine = 0
        for r in state:
            mine = mine + r.count(piece)
        return [b for b, m in self.moves_with_boards(state, piece, mine < 4)]

    def max_value(self, state, depth):
        v = self.game_value(state)
        if v != 0:
            return v
        if depth > 2:
            return self.heuristic_game_value(state)
        best = -2
        for s in self.succ(state, self.my_piece):
            best = max(best, self.min_value(s, depth + 1))
        return best

    def min_value(self, state, depth):
        v = self.game_value(state)
        if v != 0:
            return v
        if depth > 2:
            return self.heuristic_game_value(state)
        worst = 2
        for s in self.succ(state, self.opp):
            worst = min(worst, self.max_value(s, depth + 1))
        return worst

    def heuristic_game_value(self, state):
        v = self.game_value(state)
        if v != 0:
            return v
        mine = self.best_run(state, self.my_piece)
        theirs = self.best_run(state, self.opp)
        return (mine - theirs) / 5.0

    def best_run(self, state, piece):
        best = 0
        r = 0
        while r < 5:
            run = 0
            c = 0
            while c < 5:
                if state[r][c] == piece:
                    run = run + 1
                    if run > best:
                        best = run
                else:
                    run = 0
                c = c + 1
            r = r + 1
        c = 0
        while c < 5:
            run = 0
            r = 0
            while r < 5:
                if state[r][c] == piece:
                    run = run + 1
                    if run > best:
                        best = run
                else:
                    run = 0
                r = r + 1
            c = c + 1
        return best

    def game_value(self, state):
        for row in state:
            for i in range(2):
                if row[i] != " " and row[i] == row[i + 1] == row[i + 2] == row[i + 3]:
                    return 1 if row[i] == self.my_piece else -1
        for col in range(5):
            for i in range(2):
                if (
                    state[i][col] != " "
                    and state[i][col] == state[i + 1][col] == state[i + 2][col] == state[i + 3][col]
                ):
                    return 1 if state[i][col] == self.my_piece else -1
        for r in range(2):
            for c in range(2):
                if (
                    state[r][c] != " "
                    and state[r][c]
                    == state[r + 1][c + 1]
                    == state[r + 2][c + 2]
                    == state[r + 3][c + 3]
                ):
                    return 1 if state[r][c] == self.my_piece else -1
            for c in range(3, 5):
                if (
                    state[r][c] != " "
                    and state[r][c]
                    == state[r + 1][c - 1]
                    == state[r + 2][c - 2]
                    == state[r + 3][c - 3]
                ):
                    return 1 if state[r][c] == self.my_piece else -1
        for r in range(1, 4):
            for c in range(1, 4):
                if (
                    state[r][c] == " "
                    and state[r - 1][c - 1] != " "
                    and state[r - 1][c - 1]
                    == state[r - 1][c + 1]
                    == state[r + 1][c - 1]
                    == state[r + 1][c + 1]
                ):
                    return 1 if state[r - 1][c - 1] == self.my_piece else -1
        return 0
