"""Eve: a bitmask board, precomputed win masks and a transposition dictionary."""

WIN_MASKS = []
CENTRE_OF = {}


def _bit(r, c):
    return 1 << (5 * r + c)


for _r in range(5):
    for _c in range(2):
        WIN_MASKS.append(sum(_bit(_r, _c + k) for k in range(4)))
        WIN_MASKS.append(sum(_bit(_c + k, _r) for k in range(4)))
for _r in range(2):
    for _c in range(2):
        WIN_MASKS.append(sum(_bit(_r + k, _c + k) for k in range(4)))
        WIN_MASKS.append(sum(_bit(_r + k, _c + 3 - k) for k in range(4)))
for _r in range(1, 4):
    for _c in range(1, 4):
        _m = (
            _bit(_r - 1, _c - 1)
            | _bit(_r - 1, _c + 1)
            | _bit(_r + 1, _c - 1)
            | _bit(_r + 1, _c + 1)
        )
        CENTRE_OF[_m] = _bit(_r, _c)

NEIGHBOURS = [0] * 25
for _i in range(25):
    for _j in range(25):
        if _i != _j and abs(_i // 5 - _j // 5) <= 1 and abs(_i % 5 - _j % 5) <= 1:
            NEIGHBOURS[_i] |= 1 << _j


def has_won(mask, occupied):
    for w in WIN_MASKS:
        if mask & w == w:
            return True
    for corners, centre in CENTRE_OF.items():
        if mask & corners == corners and not occupied & centre:
            return True
    return False


def bits(mask):
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def children(me, them):
    occupied = me | them
    free = ~occupied & ((1 << 25) - 1)
    if bin(me).count("1") < 4:
        for to in bits(free):
            yield (to, None), me | (1 << to)
    else:
        for src in bits(me):
            for to in bits(NEIGHBOURS[src] & free):
                yield (to, src), (me ^ (1 << src)) | (1 << to)


class Teeko2Player:
    table = {}

    def masks(self, state):
        me = them = 0
        for r in range(5):
            for c in range(5):
                if state[r][c] == self.my_piece:
                    me |= _bit(r, c)
                elif state[r][c] == self.opp:
                    them |= _bit(r, c)
        return me, them

    def score(self, me, them, depth):
        key = (me, them, depth)
        if key in self.table:
            return self.table[key]
        if has_won(them, me | them):
            result = -100 - depth
        elif depth == 0:
            result = sum(
                bin(me & w).count("1") ** 3 - bin(them & w).count("1") ** 3
                for w in WIN_MASKS
                if not (me & w and them & w)
            )
        else:
            result = max(-self.score(them, after, depth - 1) for _, after in children(me, them))
        self.table[key] = result
        return result

    def make_move(self, state):
        me, them = self.masks(state)
        best = max(children(me, them), key=lambda item: -self.score(them, item[1], 2))
        (to, src), _ = best
        move = [divmod(to, 5)]
        if src is not None:
            move.append(divmod(src, 5))
        return move

    def succ(self, state, piece):
        me, them = self.masks(state)
        if piece != self.my_piece:
            me, them = them, me
        out = []
        for _, after in children(me, them):
            out.append(
                [
                    [
                        piece
                        if after >> (5 * r + c) & 1
                        else (state[r][c] if state[r][c] != piece else " ")
                        for c in range(5)
                    ]
                    for r in range(5)
                ]
            )
        return out

    def heuristic_game_value(self, state):
        me, them = self.masks(state)
        return max(-1.0, min(1.0, self.score(me, them, 0) / 200))

    def max_value(self, state, depth):
        me, them = self.masks(state)
        return self.score(me, them, max(0, 3 - depth)) / 200

    def min_value(self, state, depth):
        me, them = self.masks(state)
        return -self.score(them, me, max(0, 3 - depth)) / 200

    def game_value(self, state):
        me, them = self.masks(state)
        if has_won(me, me | them):
            return 1
        if has_won(them, me | them):
            return -1
        return 0
