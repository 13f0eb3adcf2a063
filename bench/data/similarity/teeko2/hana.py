# Hana: dictionaries from squares to pieces, a heuristic rewarding threats one move from a win.
from itertools import product

GOALS = []
for a, b in product(range(5), range(2)):
    GOALS.append(frozenset((a, b + k) for k in range(4)))
    GOALS.append(frozenset((b + k, a) for k in range(4)))
for a, b in product(range(2), range(2)):
    GOALS.append(frozenset((a + k, b + k) for k in range(4)))
    GOALS.append(frozenset((a + k, 4 - b - k) for k in range(4)))
SQUARE_GOALS = [
    (frozenset({(r - 1, c - 1), (r - 1, c + 1), (r + 1, c - 1), (r + 1, c + 1)}), (r, c))
    for r, c in product(range(1, 4), repeat=2)
]


def as_dict(state):
    return {(r, c): state[r][c] for r, c in product(range(5), repeat=2) if state[r][c] != " "}


def holds_goal(where, piece):
    mine = {sq for sq, p in where.items() if p == piece}
    if any(goal <= mine for goal in GOALS):
        return True
    return any(corners <= mine and middle not in where for corners, middle in SQUARE_GOALS)


def threats(where, piece):
    mine = {sq for sq, p in where.items() if p == piece}
    taken = set(where)
    return sum(1 for goal in GOALS if len(goal & mine) == 3 and not (goal - mine) & taken)


class Teeko2Player:
    def options(self, where, piece):
        mine = [sq for sq, p in where.items() if p == piece]
        free = [sq for sq in product(range(5), repeat=2) if sq not in where]
        if len(mine) < 4:
            return [(sq, None) for sq in free]
        return [
            (to, frm)
            for frm in mine
            for to in free
            if max(abs(to[0] - frm[0]), abs(to[1] - frm[1])) == 1
        ]

    def moved(self, where, option, piece):
        to, frm = option
        new = dict(where)
        if frm is not None:
            del new[frm]
        new[to] = piece
        return new

    def value_of(self, where, depth, mine_to_move):
        if holds_goal(where, self.my_piece):
            return 1.0
        if holds_goal(where, self.opp):
            return -1.0
        if depth == 0:
            return 0.1 * (threats(where, self.my_piece) - threats(where, self.opp))
        piece = self.my_piece if mine_to_move else self.opp
        values = [
            self.value_of(self.moved(where, o, piece), depth - 1, not mine_to_move)
            for o in self.options(where, piece)
        ]
        return max(values) if mine_to_move else min(values)

    def make_move(self, state):
        where = as_dict(state)
        ranked = sorted(
            self.options(where, self.my_piece),
            key=lambda o: -self.value_of(self.moved(where, o, self.my_piece), 2, False),
        )
        to, frm = ranked[0]
        return [to] if frm is None else [to, frm]

    def succ(self, state, piece):
        where = as_dict(state)
        result = []
        for o in self.options(where, piece):
            new = self.moved(where, o, piece)
            result.append([[new.get((r, c), " ") for c in range(5)] for r in range(5)])
        return result

    def heuristic_game_value(self, state):
        return self.value_of(as_dict(state), 0, True)

    def max_value(self, state, depth):
        return self.value_of(as_dict(state), max(0, 3 - depth), True)

    def min_value(self, state, depth):
        return self.value_of(as_dict(state), max(0, 3 - depth), False)

    def game_value(self, state):
        where = as_dict(state)
        if holds_goal(where, self.my_piece):
            return 1
        if holds_goal(where, self.opp):
            return -1
        return 0
