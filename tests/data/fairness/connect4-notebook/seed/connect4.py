#!/usr/bin/env python
# coding: utf-8

# The seed's notebook (Agent and Connect4State), exported as a script.

# In[ ]:


class Connect4Env():
    
    def __init__(self,
                begin_state,
                agents:list):
        self.curr_state = begin_state
        self.agents = agents
        self.__winner = -1 # index of winner, = -1 means no winner yet


# In[ ]:


def step(self):
    '''
    Passes curr_state to agents and apply their moves
    to the current state.
    Returns True if it reaches a terminal state and
    returns False otherwise.
    '''
    # If this method is called after end of the game,
    # It should just return True
    if self.curr_state.isTerminal:
        return True
    
    # Iterating over agents, passing curr_state to whichever agent that
    # is its turn and get agents move and apply its move to curr_state
    for i, agent in enumerate(self.agents):
        new_state = None
        while new_state == None:
            action = agent.play(self.curr_state.deepcopy())
            new_state = self.curr_state.apply_action(action, 2*i-1)
        self.curr_state = new_state
        
        # If the game is ended and we reached to a terminal state,
        # then we save winner's index from agents list and return True
        if self.curr_state.isTerminal:
            self.__winner = i
            return True
        
    return False

# Adding "step" function to the Connect4Env class
Connect4Env.step = step


# In[ ]:


def print_status(self):
    '''
    Prints status of the game, Win-Draw-Ongoing.
    Also reports the winner if there is a winner.
    '''
    # Connect4State class will have a draw flag 
    # we will implement this class later
    if self.curr_state.draw_flag:
        print('Game Result : Draw!')
    # If draw flag was False and there is no winner
    # Then game is ongoing
    elif self.__winner == -1:
        print('Game is not finished yet!')
    # Last possible situtation is that one of
    # the agents wins the game
    else:
        print(str(self.curr_state))
        print(f'player {self.__winner+1} with sign {self.agents[self.__winner].piece_sign} won the game!')
        print(f"Winner's Agent Type: {self.agents[int((self.__winner+1)/2)].mode.name}")
        print(f'final value: {self.curr_state.value}\n')

# Adding "print_status" function to the Connect4Env class
Connect4Env.print_status = print_status


# In[ ]:


class Connect4State():
    from copy import deepcopy
    
    def __init__(self,
                board:list, # 2D array of integers representing game board
                            # each cell is either of these:
                            # Empty(0), MaxPlayerPiece(1), MinPlayerPiece(-1)
                agents_sign:dict, # sign of each agent's piece on the board
                curr_player_number:int = -1 # -1 or 1 depending on players min or max
                ):
        '''
        Constructor method of the class.
        Assigns values to class properties.
        '''
        self.board = board
        self.isTerminal = False
        self.draw_flag = False
        self.value = self.calculate_value()
        self.agents_sign = agents_sign
        self.curr_player_number = curr_player_number

    def empty_board(width:int, height:int, agents_sign:dict):
        '''
        This is a class method.
        Instead of using the __init__ function, this method can make
        an state with empty board of size width x height and agents sign
        and returns this instance of the class.
        '''
        board = [[0 for i in range(width)] for j in range(height)]
        return Connect4State(board, agents_sign)


# In[ ]:


def calculate_value(self):
    '''
    Calculates heuristic function for current game board as value
    h(state) =  amount of same colored pieces in 4 continous cells that
                does not contains more than 1 color of pieces
    '''
    x_size = len(self.board)
    y_size = len(self.board[0])
    
    value = 0
    '''
    checking 4 continous cells
    (3, 0): right    | (0, 3): up
    (3, 3): up-right | (3, -3): bottom right
    other directions will be checked symmetrically
    during process of other cells
    '''
    directions = [(3, 0), (0, 3), (3, 3), (3, -3)]
    self.draw_flag = True
    for i in range(x_size):
        for j in range(y_size):
            for direction in directions:
                if i + direction[0] in range(x_size) and j + direction[1] in range(y_size):
                    potential = self.__check_potential((i,j), (i+direction[0],j+direction[1]))       
                    if potential != 1e4:
                        self.draw_flag = False
                    value += potential
    return value

# Adding "calculate_value" function to the Connect4State class
Connect4State.calculate_value = calculate_value


# In[ ]:


def check_potential(self, start, end):
        '''
        calculates heuristic for 4 continous cells from
        start cell to end cell.
        start & end are tuples that contain
        x,y of start cell and end cell
        '''
        # First we fetch continous rows out of the board
        x_direction = int((end[0]-start[0]) / abs(end[0]-start[0]) if end[0]-start[0]!=0 else 0)
        y_direction = int((end[1]-start[1]) / abs(end[1]-start[1]) if end[1]-start[1]!=0 else 0)
        cells = None
        if x_direction == 0:
            # For columns
            cells = [self.board[start[0]][j] 
                    for j in range(start[1], end[1]+y_direction, y_direction)            
                    ]
        elif y_direction == 0:
            # For rows
            cells = [self.board[i][start[1]] 
                    for i in range(start[0], end[0]+x_direction, x_direction)           
                    ]
        else:
            # For diagonals
            cells = [self.board[start[0]+x_direction*i][start[1]+i*y_direction] 
                    for i in range(0, abs(end[0]-start[0])+1)           
                    ]
        
        ''' 
        Rule 1: if cells have more than 1 color
        Then postision is equal because neither
        of 2 players can win in this cells
        '''
        if 1 in cells and -1 in cells:
            return 0

        '''
        Rule 2: value of these 4 cells is 10 to the power 
        same colored piece in these 4 continous cells
        with sign equal to player that has pieces in these
        4 cells
        '''
        cells_sum = sum(cells)
        cells_value = 0
        if cells_sum != 0:
            cells_value = (10 ** abs(cells_sum)) * (cells_sum / abs(cells_sum))


        # if all 4 cells have same pieces then
        # we shuold mark this state as a terminal
        if abs(cells_sum) == 4:
            self.isTerminal = True
        
        return cells_value

# Adding "__check_potential" function to the Connect4State class
Connect4State.__check_potential = check_potential


# In[ ]:


def apply_action(self,
                action : int, # Integer in range [0, 7]
                player_number : int # palyer that made the move, 1 or -1
                ):
    '''
    Takes an action and return a new state 
    that chosen action is applied to.
    action: is equal to index of column that
    is chosen to put a piece in it
    '''
    # If chosen column is full, return null   
    if self.board[-1][action] != 0:
        return None
    
    # Finding first empty row in action column
    index = 0
    while self.board[index][action] != 0:
        index += 1
        
    # Making new state and returning it
    new_board = Connect4State.deepcopy(self.board)
    new_board[index][action] = player_number
    return Connect4State(new_board, self.agents_sign, -player_number)

# Adding "apply_action" function to the Connect4State class
Connect4State.apply_action = apply_action


# In[ ]:


def next_states(self):
    # TODO! Caution: yields value and action together
    '''
    This is successor function.
    yields all possible next moves
    '''
    for action in range(len(self.board[0])):
        new_state = self.apply_action(action, self.curr_player_number)
        if new_state != None:
            yield (action, new_state)

# Adding "next_states" function to the Connect4State class
Connect4State.next_states = next_states


# In[ ]:


def __repr__(self):
    output = '-' * (2*(len(self.board) + 3)) + '\n'
    board = self.board.copy()
    board.reverse()
    for row in board:
        output += '|'
        for piece in row:
            output += self.agents_sign[piece] if piece != 0 else ' '
            output += '|'
        output += '\n'
        output += '-' * (2*(len(board) + 3)) + '\n'
    for i in range(len(self.board[0])):
        output += f' {i}'
    output += '\n'
    return output

# Adding "__repr__" function to the Connect4State class
Connect4State.__repr__ = __repr__


# In[ ]:


from enum import Enum

class AgentType(Enum):
    Bot = 1
    Human = 2
    
class Agent():
    
    def __init__(self,  
                decision_depth:int,
                piece_sign:str, # sign of agent's pieces on the board
                mode:AgentType = AgentType.Bot):
        '''
        piece_sign = sign of agent pieces on the board
        goal = agent goal, whether 
        mode = whether to make moves itself or get moves from input
            -> goal will be ignored if mode = AgentType.Human
        '''
        self.depth = decision_depth
        self.piece_sign = piece_sign
        self.mode = mode


# In[ ]:


def play(self, 
        curr_state : Connect4State,
        ):
    '''
    This function takes current state and make
    a move based on that.
    '''
            
    # Getting human input and check it to be in range [0,7]
    if self.mode == AgentType.Human:
        print(str(curr_state))
    while self.mode == AgentType.Human:
        action = int(input(f'Please input your move(integer 0~{str(len(curr_state.board[0])-1)}):  '))
        if not action in range(len(curr_state.board[0])):
            print(f'Input should be a integer in range of [0, {str(len(curr_state.board[0])-1)}]')
        else:
            return action

    # Making a move using minimax algorithm
    action = -1
    if curr_state.curr_player_number == 1:
        action,_ = self.__max_value(curr_state, self.depth, -1e6, +1e6)
    else:
        action,_ = self.__min_value(curr_state, self.depth, -1e6, +1e6)  
    print(f"Bot's move: {str(action)}")      
    return action

# Adding "play" function to the Agent class
Agent.play = play


# In[ ]:


def min_value(self,
                curr_state:Connect4State, # current state
                depth : int, # depth to traverse in adversial tree
                alpha : int, # alpha for alpha-beta prunning 
                beta : int # beta for alpha-beta prunning
                ):
    ''' 
    Implementation of min for prunned minimax algorithm
    '''
    if depth == 0 or curr_state.isTerminal:
        return (-1, curr_state.value)
    
    minEval = +1e6
    minAction = -1
    for action, child_state in curr_state.next_states():
        _, eval = self.__max_value(child_state, depth - 1, alpha, beta)
        if eval < minEval:
            minEval = eval
            minAction = action
        beta = min(beta, eval)
        if minEval <= alpha:
            break
    return (minAction, minEval)

def max_value(self,
                curr_state:Connect4State, # current state
                depth : int, # depth to traverse in adversial tree
                alpha : int, # alpha for alpha-beta prunning 
                beta : int # beta for alpha-beta prunning 
                ):
    ''' 
    Implementation of Max for prunned minimax algorithm
    '''
    if depth == 0 or curr_state.isTerminal:
        return (-1, curr_state.value)
    
    maxEval = -1e6
    maxAction = -1
    for action, child_state in curr_state.next_states():
        _, eval = self.__min_value(child_state, depth - 1, alpha, beta)
        if eval > maxEval:
            maxEval = eval
            maxAction = action
        alpha = max(alpha, eval)
        if beta <= maxEval:
            break
    return (maxAction, maxEval)

# Adding new function to the Agent class
Agent.__min_value = min_value
Agent.__max_value = max_value


# In[ ]:


'''
We need minimum depth of 4 otherwise agent will not
consider more that 2 of its future move
Feel free to increase the depth and make the bot more intelligent!
'''
agent1 = Agent(6, '*', mode=AgentType.Human)
agent2 = Agent(6, 'o', mode=AgentType.Bot)

agents_sign = {-1: agent1.piece_sign,
                1: agent2.piece_sign}

begin_state = Connect4State.empty_board(8, 6, agents_sign)
env = Connect4Env(begin_state, [agent1, agent2])

while not env.step():
    pass
env.print_status()

