#!/usr/bin/env python

# # Connect Four with minimax and alpha-beta pruning (answer key)
#
# Three classes: `Connect4Env` runs a game, `Connect4State` holds a board and the rules,
# `Agent` picks a column (a person through `input()`, or a bot through alpha-beta search).
# The board is `board[row][column]`, row 0 at the bottom; a cell is 0 (empty), 1 (the MAX
# player) or -1 (the MIN player, who moves first). Any size m x n works.

# In[ ]:


import copy
from enum import Enum

WIN_SCORE = 10**6  # a completed line: larger than any sum of open windows


class Connect4Env:
    """Asks the agents for moves in turn until the game ends."""

    def __init__(self, begin_state, agents):
        self.curr_state = begin_state
        self.agents = agents
        self.winner = None

    def step(self):
        """One round: each agent moves once. True when the game is over."""
        for index, agent in enumerate(self.agents):
            if self.curr_state.isTerminal:
                return True
            player = 2 * index - 1
            new_state = None
            while new_state is None:
                new_state = self.curr_state.apply_action(agent.play(self.curr_state), player)
            self.curr_state = new_state
            if self.curr_state.isTerminal and not self.curr_state.draw_flag:
                self.winner = index
        return self.curr_state.isTerminal


# In[ ]:


class Connect4State:
    """A board, whose turn it is, and what the board is worth to MAX."""

    def __init__(self, board, agents_sign, curr_player_number=-1):
        self.board = board
        self.agents_sign = agents_sign
        self.curr_player_number = curr_player_number
        self.isTerminal = False
        self.draw_flag = False
        self.value = self.calculate_value()

    @staticmethod
    def empty_board(width, height, agents_sign):
        return Connect4State([[0] * width for _ in range(height)], agents_sign)

    def __repr__(self):
        rows = [
            "|" + "|".join(self.agents_sign.get(c, " ") for c in row) + "|"
            for row in reversed(self.board)
        ]
        rows.append(" " + " ".join(str(c) for c in range(len(self.board[0]))))
        return "\n".join(rows)


# ## The value of a state
#
# Every window of four cells in a row, a column or a diagonal counts: a window holding discs
# of one player only is worth 10 to the power of their number (positive for MAX, negative
# for MIN); a full window of one player ends the game.

# In[ ]:


def windows(board):
    """Every four cells in a line: right, up, up-right and down-right."""
    rows, columns = len(board), len(board[0])
    for r in range(rows):
        for c in range(columns):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (-1, 1)):
                end_r, end_c = r + 3 * dr, c + 3 * dc
                if 0 <= end_r < rows and 0 <= end_c < columns:
                    yield [board[r + i * dr][c + i * dc] for i in range(4)]


def calculate_value(self):
    total = 0
    for cells in windows(self.board):
        if 1 in cells and -1 in cells:
            continue
        count = sum(cells)
        if abs(count) == 4:
            self.isTerminal = True
            return WIN_SCORE if count > 0 else -WIN_SCORE
        if count:
            total += 10 ** abs(count) * (1 if count > 0 else -1)
    if all(cell != 0 for cell in self.board[-1]):
        self.isTerminal = True
        self.draw_flag = True
        return 0
    return total


Connect4State.calculate_value = calculate_value


# ## Moves
#
# `apply_action` never changes the state it is called on: it returns a new state, or None
# when the column is full. `next_states` yields `(action, state)` for every legal column.

# In[ ]:


def apply_action(self, action, player_number):
    if not 0 <= action < len(self.board[0]) or self.board[-1][action] != 0:
        return None
    board = copy.deepcopy(self.board)
    row = next(r for r in range(len(board)) if board[r][action] == 0)
    board[row][action] = player_number
    return Connect4State(board, self.agents_sign, -player_number)


def next_states(self):
    for action in range(len(self.board[0])):
        child = self.apply_action(action, self.curr_player_number)
        if child is not None:
            yield action, child


Connect4State.apply_action = apply_action
Connect4State.next_states = next_states


# ## The agent
#
# A bot searches `decision_depth` plies with alpha-beta: MAX (player 1) takes the largest
# value, MIN (player -1) the smallest, and a branch is cut as soon as it cannot matter.

# In[ ]:


class AgentType(Enum):
    Bot = 1
    Human = 2


class Agent:
    def __init__(self, decision_depth, piece_sign, mode=AgentType.Bot):
        self.depth = decision_depth
        self.piece_sign = piece_sign
        self.mode = mode

    def play(self, state):
        if self.mode == AgentType.Human:
            print(state)
            while True:
                text = input(f"your move (0-{len(state.board[0]) - 1}): ")
                if text.strip().isdigit() and state.apply_action(int(text), 1) is not None:
                    return int(text)
        maximising = state.curr_player_number == 1
        action, _ = self.search(state, self.depth, -float("inf"), float("inf"), maximising)
        return action

    def search(self, state, depth, alpha, beta, maximising):
        if depth == 0 or state.isTerminal:
            return None, state.value
        best_action, best = None, -float("inf") if maximising else float("inf")
        for action, child in state.next_states():
            _, score = self.search(child, depth - 1, alpha, beta, not maximising)
            if best_action is None or (score > best if maximising else score < best):
                best_action, best = action, score
            if maximising:
                alpha = max(alpha, best)
            else:
                beta = min(beta, best)
            if alpha >= beta:
                break
        return best_action, best


# ## Playing
#
# A person (`*`, moving first) against the bot (`o`) on an 8 x 6 board.

# In[ ]:


if __name__ == "__main__":
    person = Agent(4, "*", AgentType.Human)
    bot = Agent(4, "o", AgentType.Bot)
    signs = {-1: person.piece_sign, 1: bot.piece_sign}
    env = Connect4Env(Connect4State.empty_board(8, 6, signs), [person, bot])
    while not env.step():
        pass
    print(env.curr_state)
    print("draw" if env.winner is None else f"player {env.winner + 1} won")
