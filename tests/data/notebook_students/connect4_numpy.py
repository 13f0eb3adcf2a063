#!/usr/bin/env python
# coding: utf-8

# # Connect 4 with Minimax Alpha-Beta Pruning (numpy version)

# In[1]:


import numpy as np
from enum import Enum
from copy import deepcopy


# ## Environment

# In[2]:


class Connect4Env():
    def __init__(self, begin_state, agents):
        self.curr_state = begin_state
        self.agents = agents
        self.winner = -1

    def step(self):
        if self.curr_state.isTerminal:
            return True
        for i, agent in enumerate(self.agents):
            new_state = None
            while new_state is None:
                action = agent.play(self.curr_state.deepcopy())
                new_state = self.curr_state.apply_action(action, 2 * i - 1)
            self.curr_state = new_state
            if self.curr_state.isTerminal:
                self.winner = i
                return True
        return False


# ## State: the board is a numpy array, row 0 at the bottom

# In[3]:


class Connect4State():
    def __init__(self, board, agents_sign, curr_player_number=-1):
        self.board = np.array(board, dtype=int)
        self.isTerminal = np.bool_(False)
        self.draw_flag = False
        self.agents_sign = agents_sign
        self.curr_player_number = curr_player_number
        self.value = self.calculate_value()

    def empty_board(width, height, agents_sign):
        return Connect4State(np.zeros((height, width), dtype=int), agents_sign)

    def deepcopy(self):
        return deepcopy(self)


# In[4]:


def windows(board):
    '''every 4 continuous cells: rows, columns and both diagonals'''
    rows, cols = board.shape
    found = []
    for r in range(rows):
        for c in range(cols - 3):
            found.append(board[r, c:c + 4])
    for r in range(rows - 3):
        for c in range(cols):
            found.append(board[r:r + 4, c])
    for r in range(rows - 3):
        for c in range(cols - 3):
            block = board[r:r + 4, c:c + 4]
            found.append(np.diag(block))
            found.append(np.diag(np.fliplr(block)))
    return np.array(found)


def calculate_value(self):
    w = windows(self.board)
    sums = w.sum(axis=1)
    mixed = np.any(w == 1, axis=1) & np.any(w == -1, axis=1)
    self.isTerminal = np.any(np.abs(sums) == 4)  # numpy's bool_
    self.draw_flag = bool(np.all(self.board != 0)) and not self.isTerminal
    sums = np.where(mixed, 0, sums)
    return np.sum(np.sign(sums) * (10.0 ** np.abs(sums)) * (sums != 0))

Connect4State.calculate_value = calculate_value


# In[5]:


def apply_action(self, action, player_number):
    if self.board[-1, action] != 0:
        return None
    index = int(np.argmax(self.board[:, action] == 0))
    new_board = self.board.copy()
    new_board[index, action] = player_number
    return Connect4State(new_board, self.agents_sign, -player_number)

def next_states(self):
    for action in range(self.board.shape[1]):
        new_state = self.apply_action(action, self.curr_player_number)
        if new_state is not None:
            yield (action, new_state)

Connect4State.apply_action = apply_action
Connect4State.next_states = next_states


# ## Agent

# In[6]:


class AgentType(Enum):
    Bot = 1
    Human = 2


class Agent():
    def __init__(self, decision_depth, piece_sign, mode=AgentType.Bot):
        self.depth = decision_depth
        self.piece_sign = piece_sign
        self.mode = mode

    def play(self, curr_state):
        while self.mode == AgentType.Human:
            action = int(input('your move: '))
            if 0 <= action < curr_state.board.shape[1]:
                return action
        if curr_state.curr_player_number == 1:
            action, _ = self.max_value(curr_state, self.depth, -np.inf, np.inf)
        else:
            action, _ = self.min_value(curr_state, self.depth, -np.inf, np.inf)
        return action

    def max_value(self, state, depth, alpha, beta):
        if depth == 0 or state.isTerminal:
            return (-1, state.value * (depth + 1))
        best, best_action = -np.inf, -1
        for action, child in state.next_states():
            _, v = self.min_value(child, depth - 1, alpha, beta)
            if v > best or best_action == -1:
                best, best_action = v, action
            alpha = max(alpha, best)
            if alpha >= beta:
                break
        return (best_action, best)

    def min_value(self, state, depth, alpha, beta):
        if depth == 0 or state.isTerminal:
            return (-1, state.value * (depth + 1))
        best, best_action = np.inf, -1
        for action, child in state.next_states():
            _, v = self.max_value(child, depth - 1, alpha, beta)
            if v < best or best_action == -1:
                best, best_action = v, action
            beta = min(beta, best)
            if alpha >= beta:
                break
        return (best_action, best)


# ## Play

# In[7]:


agent1 = Agent(4, '*', mode=AgentType.Human)
agent2 = Agent(4, 'o', mode=AgentType.Bot)
agents_sign = {-1: agent1.piece_sign, 1: agent2.piece_sign}
env = Connect4Env(Connect4State.empty_board(8, 6, agents_sign), [agent1, agent2])
while not env.step():
    pass
