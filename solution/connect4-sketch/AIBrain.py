# The AI: it plays yellow ('Y'). autoPlay() chooses a column and drops its disc with
# self.gameBoard.trigger(column), as the chapter's does.
#
# The strong solution: the board read into two bitboards (7 bits a column, bottom first, the
# seventh always empty, so a line is a run of equal shifts), then negamax with alpha-beta,
# deepened one ply at a time until the time budget is spent (millis(), Processing's clock):
# the last depth searched to the end decides. A win scores more the sooner it comes; a
# position cut off by the depth scores its open lines (two and three discs of one side, none
# of the other's). Written for Processing's Python mode (Jython 2.7) and for Python 3 alike.
WIDTH, HEIGHT = 7, 6
STRIDE = HEIGHT + 1  # bits per column
BUDGET_MS = 1500  # time to think per move
ORDER = [3, 2, 4, 1, 5, 0, 6]  # the centre first: better moves first prune more
BOTTOM = [1 << (c * STRIDE) for c in range(WIDTH)]
TOP = [1 << (c * STRIDE + HEIGHT - 1) for c in range(WIDTH)]
COLUMN = [((1 << HEIGHT) - 1) << (c * STRIDE) for c in range(WIDTH)]
WIN = 100000
WEIGHT = [0, 1, 5, 40, 0]  # an open line's worth by the discs in it


def makeLines():
    """Every line of four, as a bitboard."""
    found = []
    for dc, dr in ((0, 1), (1, 0), (1, 1), (1, -1)):
        for c in range(WIDTH):
            for r in range(HEIGHT):
                cells = [(c + dc * k, r + dr * k) for k in range(4)]
                if all(0 <= x < WIDTH and 0 <= y < HEIGHT for x, y in cells):
                    mask = 0
                    for x, y in cells:
                        mask |= 1 << (x * STRIDE + y)
                    found.append(mask)
    return found


LINES = makeLines()


def discs(bits):
    return bin(bits).count('1')


def hasFour(bits):
    for shift in (1, STRIDE, STRIDE + 1, STRIDE - 1):
        pairs = bits & (bits >> shift)
        if pairs & (pairs >> 2 * shift):
            return True
    return False


def evaluate(mine, theirs):
    """The open lines of the side to move less the other side's."""
    score = 0
    for line in LINES:
        a = mine & line
        b = theirs & line
        if a and not b:
            score += WEIGHT[discs(a)]
        elif b and not a:
            score -= WEIGHT[discs(b)]
    return score


def readBoard(_gameBoard):
    """The AI's discs and every disc, as bitboards (grids' row 0 is the top)."""
    mine = 0
    mask = 0
    for r in range(HEIGHT):
        for c in range(WIDTH):
            value = _gameBoard.grids[r][c].value
            if value != '':
                bit = 1 << (c * STRIDE + HEIGHT - 1 - r)
                mask |= bit
                if value == 'Y':
                    mine |= bit
    return mine, mask


class OutOfTime(Exception):
    pass


class Search(object):

    def __init__(self, deadline):
        self.deadline = deadline
        self.nodes = 0
        self.best = {}  # (mine, mask) -> the best column found there, tried first next time

    def negamax(self, mine, mask, depth, alpha, beta, ply):
        self.nodes += 1
        if self.nodes % 512 == 0 and millis() > self.deadline:
            raise OutOfTime()
        moves = [c for c in ORDER if not mask & TOP[c]]
        if not moves:
            return 0  # a full board: a tie
        for c in moves:
            if hasFour(mine | ((mask + BOTTOM[c]) & COLUMN[c])):
                return WIN - ply
        theirs = mine ^ mask
        if depth == 0:
            return evaluate(mine, theirs)
        key = (mine, mask)
        first = self.best.get(key)
        if first in moves:
            moves.remove(first)
            moves.insert(0, first)
        best = -2 * WIN
        bestMove = moves[0]
        for c in moves:
            child = mask | ((mask + BOTTOM[c]) & COLUMN[c])
            score = -self.negamax(theirs, child, depth - 1, -beta, -alpha, ply + 1)
            if score > best:
                best = score
                bestMove = c
            if best > alpha:
                alpha = best
            if alpha >= beta:
                break
        self.best[key] = bestMove
        return best

    def choose(self, mine, mask):
        """The best column of the deepest search finished in time."""
        moves = [c for c in ORDER if not mask & TOP[c]]
        chosen = moves[0]
        theirs = mine ^ mask
        for depth in range(1, WIDTH * HEIGHT + 1):
            try:
                best = -2 * WIN
                bestMove = moves[0]
                for c in moves:
                    child = mask | ((mask + BOTTOM[c]) & COLUMN[c])
                    if hasFour(mine | (child ^ mask)):
                        return c  # a win at once
                    score = -self.negamax(theirs, child, depth - 1, -2 * WIN, -best, 1)
                    if score > best:
                        best = score
                        bestMove = c
            except OutOfTime:
                return chosen
            chosen = bestMove
            moves.remove(bestMove)
            moves.insert(0, bestMove)  # searched first at the next depth
            if abs(best) > WIN - 100 or depth >= discs(~mask & sum(COLUMN)):
                return chosen  # the outcome is known, or the board is searched to its end
        return chosen


class aiBrain(object):

    def __init__(self, _gameBoard):
        self.gameBoard = _gameBoard

    def autoPlay(self):
        mine, mask = readBoard(self.gameBoard)
        self.gameBoard.trigger(Search(millis() + BUDGET_MS).choose(mine, mask))
