# Cy: negamax over columns kept as strings (bottom first), functions outside the class.
EMPTY = "."


def to_columns(state):
    rows = len(state)
    return tuple(
        "".join(state[r][c] for r in range(rows - 1, -1, -1)).replace(" ", "")
        for c in range(len(state[0]))
    )


def play(cols, c, piece):
    return cols[:c] + (cols[c] + piece,) + cols[c + 1 :]


def cell(cols, c, r):
    return cols[c][r] if 0 <= c < len(cols) and 0 <= r < len(cols[c]) else EMPTY


def four_from(cols, c, r, dc, dr, piece):
    return all(cell(cols, c + k * dc, r + k * dr) == piece for k in range(4))


def winner(cols, height):
    for c in range(len(cols)):
        for r in range(height):
            p = cell(cols, c, r)
            if p == EMPTY:
                continue
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                if four_from(cols, c, r, dc, dr, p):
                    return p
    return None


def potential(cols, height, piece):
    score = 0
    for c in range(len(cols)):
        for r in range(height):
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                run = [cell(cols, c + k * dc, r + k * dr) for k in range(4)]
                ends_ok = 0 <= c + 3 * dc < len(cols) and 0 <= r + 3 * dr < height
                if ends_ok and all(x in (piece, EMPTY) for x in run):
                    score += 4 ** run.count(piece)
    return score


def negamax(cols, height, me, you, depth):
    w = winner(cols, height)
    if w is not None:
        return -1000 - depth if w == you else 1000 + depth
    moves = [c for c in range(len(cols)) if len(cols[c]) < height]
    if not moves:
        return 0
    if depth == 0:
        return potential(cols, height, me) - potential(cols, height, you)
    return max(-negamax(play(cols, c, me), height, you, me, depth - 1) for c in moves)


class Connect4Player:
    def make_move(self, state):
        cols, height = to_columns(state), len(state)
        moves = [c for c in range(len(cols)) if len(cols[c]) < height]
        return max(
            moves,
            key=lambda c: (
                -negamax(play(cols, c, self.my_piece), height, self.opp, self.my_piece, 3),
                -abs(c - len(cols) // 2),
            ),
        )

    def succ(self, state, piece):
        boards = []
        for c in range(len(state[0])):
            if state[0][c] == " ":
                b = [row[:] for row in state]
                r = max(i for i in range(len(state)) if state[i][c] == " ")
                b[r][c] = piece
                boards.append(b)
        return boards

    def heuristic_game_value(self, state):
        cols = to_columns(state)
        w = winner(cols, len(state))
        if w:
            return 1 if w == self.my_piece else -1
        raw = potential(cols, len(state), self.my_piece) - potential(cols, len(state), self.opp)
        return raw / (abs(raw) + 50)

    def max_value(self, state, depth):
        return (
            negamax(to_columns(state), len(state), self.my_piece, self.opp, max(0, 3 - depth))
            / 1100
        )

    def min_value(self, state, depth):
        return (
            -negamax(to_columns(state), len(state), self.opp, self.my_piece, max(0, 3 - depth))
            / 1100
        )

    def game_value(self, state):
        w = winner(to_columns(state), len(state))
        return 0 if w is None else (1 if w == self.my_piece else -1)
