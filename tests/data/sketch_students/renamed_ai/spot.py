# One hole of the board: where it is drawn and which disc it holds.
# value is '' (empty), 'R' (red, the player) or 'Y' (yellow, the AI).


class Spot(object):

    def __init__(self, _i, _j, _x, _y, _value):
        self.i = _i  # row, 0 at the top
        self.j = _j  # column, 0 at the left
        self.x = _x
        self.y = _y
        self.value = _value

    def display(self):
        stroke('#000000')
        strokeWeight(2)
        fill(self.matchColor(self.value))
        ellipse(self.x, self.y, 80, 80)

    def matchColor(self, _value):
        colours = {'': '#FFFFFF', 'R': '#FF5641', 'Y': '#FFDF37'}
        return colours.get(_value, '#888888')
