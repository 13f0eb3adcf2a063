# Ava: plain minimax over copies of the board, a heuristic counting pieces per line.
import copy


class Teeko2Player:
    def make_move(self, state):
        drop_phase = sum(row.count(" ") for row in state) > 17
        best_val = -2
        best_state = None
        for s in self.succ(state, self.my_piece):
            val = self.min_value(s, 1)
            if val > best_val:
                best_val, best_state = val, s
        return self.diff_to_move(state, best_state, drop_phase)

    def diff_to_move(self, old, new, drop_phase):
        to_sq = from_sq = None
        for r in range(5):
            for c in range(5):
                if old[r][c] == " " and new[r][c] != " ":
                    to_sq = (r, c)
                elif old[r][c] != " " and new[r][c] == " ":
                    from_sq = (r, c)
        if drop_phase:
            return [to_sq]
        return [to_sq, from_sq]

    def succ(self, state, piece):
        result = []
        mine = sum(row.count(piece) for row in state)
        if mine < 4:
            for r in range(5):
                for c in range(5):
                    if state[r][c] == " ":
                        nxt = copy.deepcopy(state)
                        nxt[r][c] = piece
                        result.append(nxt)
            return result
        for r in range(5):
            for c in range(5):
                if state[r][c] != piece:
                    continue
                for dr in (-1, 0, 1):
                    for dc in (-1, 0, 1):
                        nr, nc = r + dr, c + dc
                        if (dr or dc) and 0 <= nr < 5 and 0 <= nc < 5 and state[nr][nc] == " ":
                            nxt = copy.deepcopy(state)
                            nxt[r][c] = " "
                            nxt[nr][nc] = piece
                            result.append(nxt)
        return result

    def heuristic_game_value(self, state):
        value = self.game_value(state)
        if value != 0:
            return value
        score = 0
        for line in all_lines():
            cells = [state[r][c] for r, c in line]
            if self.opp not in cells:
                score += cells.count(self.my_piece) ** 2
            if self.my_piece not in cells:
                score -= cells.count(self.opp) ** 2
        return max(-0.99, min(0.99, score / 100))

    def max_value(self, state, depth):
        if self.game_value(state) != 0 or depth >= 3:
            return self.heuristic_game_value(state)
        return max(self.min_value(s, depth + 1) for s in self.succ(state, self.my_piece))

    def min_value(self, state, depth):
        if self.game_value(state) != 0 or depth >= 3:
            return self.heuristic_game_value(state)
        return min(self.max_value(s, depth + 1) for s in self.succ(state, self.opp))

    def game_value(self, state):
        for line in all_lines():
            cells = [state[r][c] for r, c in line]
            if cells[0] != " " and cells.count(cells[0]) == 4:
                return 1 if cells[0] == self.my_piece else -1
        for r in range(1, 4):
            for c in range(1, 4):
                corners = [
                    state[r - 1][c - 1],
                    state[r - 1][c + 1],
                    state[r + 1][c - 1],
                    state[r + 1][c + 1],
                ]
                if state[r][c] == " " and corners[0] != " " and corners.count(corners[0]) == 4:
                    return 1 if corners[0] == self.my_piece else -1
        return 0


def all_lines():
    lines = []
    for r in range(5):
        for c in range(2):
            lines.append([(r, c + i) for i in range(4)])
            lines.append([(c + i, r) for i in range(4)])
    for r in range(2):
        for c in range(2):
            lines.append([(r + i, c + i) for i in range(4)])
            lines.append([(r + i, c + 3 - i) for i in range(4)])
    return lines
