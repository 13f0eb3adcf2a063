# Gil: a Node class for the game tree, built to a depth and then backed up.
class Node:
    def __init__(self, board, column, piece):
        self.board = board
        self.column = column
        self.piece = piece
        self.children = []
        self.value = None


class Connect4Player:
    def expand(self, node, depth, piece, other):
        if depth == 0 or self.game_value(node.board) != 0:
            node.value = self.heuristic_game_value(node.board)
            return node.value
        for col in range(len(node.board[0])):
            board = self.after(node.board, col, piece)
            if board is not None:
                node.children.append(Node(board, col, piece))
        if not node.children:
            node.value = 0
            return 0
        scores = [self.expand(child, depth - 1, other, piece) for child in node.children]
        node.value = max(scores) if piece == self.my_piece else min(scores)
        return node.value

    def after(self, board, col, piece):
        if board[0][col] != " ":
            return None
        new = [row[:] for row in board]
        r = len(new) - 1
        for r in range(len(new) - 1, -1, -1):
            if new[r][col] == " ":
                break
        new[r][col] = piece
        return new

    def make_move(self, state):
        root = Node(state, None, self.opp)
        self.expand(root, 4, self.my_piece, self.opp)
        best = max(root.children, key=lambda n: n.value)
        return best.column

    def succ(self, state, piece):
        return [
            b for b in (self.after(state, c, piece) for c in range(len(state[0]))) if b is not None
        ]

    def max_value(self, state, depth):
        return self.expand(Node(state, None, self.opp), max(0, 4 - depth), self.my_piece, self.opp)

    def min_value(self, state, depth):
        return self.expand(
            Node(state, None, self.my_piece), max(0, 4 - depth), self.opp, self.my_piece
        )

    def heuristic_game_value(self, state):
        won = self.game_value(state)
        if won != 0:
            return won
        h, w = len(state), len(state[0])
        score = 0
        for r in range(h):
            for c in range(w):
                if state[r][c] == " ":
                    continue
                sign = 1 if state[r][c] == self.my_piece else -1
                score += sign * (3 - abs(c - w // 2)) * 0.01
                if r > 0 and state[r - 1][c] == state[r][c]:
                    score += sign * 0.02
        return max(-0.9, min(0.9, score))

    def game_value(self, state):
        h, w = len(state), len(state[0])
        for r in range(h):
            for c in range(w):
                piece = state[r][c]
                if piece == " ":
                    continue
                if (
                    c <= w - 4
                    and state[r][c + 1] == piece
                    and state[r][c + 2] == piece
                    and state[r][c + 3] == piece
                ):
                    return 1 if piece == self.my_piece else -1
                if (
                    r <= h - 4
                    and state[r + 1][c] == piece
                    and state[r + 2][c] == piece
                    and state[r + 3][c] == piece
                ):
                    return 1 if piece == self.my_piece else -1
                if (
                    r <= h - 4
                    and c <= w - 4
                    and state[r + 1][c + 1] == piece
                    and state[r + 2][c + 2] == piece
                    and state[r + 3][c + 3] == piece
                ):
                    return 1 if piece == self.my_piece else -1
                if (
                    r <= h - 4
                    and c >= 3
                    and state[r + 1][c - 1] == piece
                    and state[r + 2][c - 2] == piece
                    and state[r + 3][c - 3] == piece
                ):
                    return 1 if piece == self.my_piece else -1
        return 0
