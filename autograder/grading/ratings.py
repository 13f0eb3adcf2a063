"""Ratings fitted on all of a tournament's games at once: a Bradley-Terry model. Pure.

Each player has a strength ``pi``; a game between ``i`` and ``j`` is won by ``i`` with
probability ``pi_i / (pi_i + pi_j)``, and a draw counts as half a win to each. The strengths
that make the games most likely (the fixed point of Zermelo's and Hunter's MM algorithm) are
found by Newton's method: with the prior the log-posterior is strictly concave, so it has one
maximum, which a few steps reach (each step limited in length, so a lopsided start cannot
overshoot). A small prior keeps every strength finite: each player is also given one win and
one loss against a virtual player of strength 1, the class average before any game. So a
player who won every game is rated high, not infinitely high, and players no game links
still get a rating.

The fit reads only how often each player beat each other one, so it cannot depend on the
order the games were played or listed: the sums run over the players in sorted order and
give the same numbers, bit for bit, for any order of the same games.

How sure each rating is comes from the observed Fisher information (the curvature of the
log-likelihood at the fit): its inverse is the covariance of the log-strengths, whose
diagonal gives each rating's standard error and whose off-diagonal says how sure the
difference between two players is. Two players whose difference is within
:data:`Z` standard errors of that difference are not told apart by the games.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["Fit", "ELO", "Z", "fit", "groups", "rank_ranges"]

ELO = 400 / math.log(10)  # a log-strength in Elo points: 400 points are odds of 10 to 1
Z = 1.96  # two-sided 95%: a difference larger than this many standard errors is real
PRIOR_GAMES = 1.0  # virtual wins, and as many losses, against a player of strength 1
_TOLERANCE = 1e-10  # largest change of a log-strength in the last step of the iteration
_MAX_STEPS = 200
_LONGEST = 2.0  # a Newton step moves a log-strength at most this far: no overshoot far off


@dataclass(frozen=True)
class Fit:
    """Log-strengths of ``players`` (0 is the virtual average player) and their covariance."""

    players: tuple[str, ...]
    strength: tuple[float, ...]  # natural log of pi
    covariance: tuple[tuple[float, ...], ...]
    steps: int  # iterations taken

    def error(self, i: int) -> float:
        """The standard error of player ``i``'s log-strength against the players' mean: how
        sure its place in this class is (the class's level against the prior's average player,
        unsure with few games, moves everyone together and is left out)."""
        c, size = self.covariance, len(self.covariance)
        mean_row = sum(c[i]) / size
        mean_all = sum(map(sum, c)) / size**2
        return math.sqrt(max(c[i][i] - 2 * mean_row + mean_all, 0.0))

    def apart(self, i: int, j: int) -> bool:
        """Whether the games tell players ``i`` and ``j`` apart (at :data:`Z`)."""
        c = self.covariance
        spread = math.sqrt(max(c[i][i] + c[j][j] - 2 * c[i][j], 0.0))
        return abs(self.strength[i] - self.strength[j]) > Z * spread


def fit(players: Sequence[str], scores: Mapping[tuple[str, str], float]) -> Fit:
    """The Bradley-Terry fit of ``players`` from ``scores``: (a, b) -> a's points against b
    (a win 1, a draw 1/2; a game between a and b adds 1 to the two scores together)."""
    import numpy as np  # the kit's own dependency; only the fit needs it

    ids = tuple(sorted(players))
    index = {p: n for n, p in enumerate(ids)}
    won = np.zeros((len(ids), len(ids)))
    for (a, b), points in sorted(scores.items()):
        if a in index and b in index and a != b:
            won[index[a], index[b]] += points
    games = won + won.T
    theta = np.zeros(len(ids))
    steps = 0
    while steps < _MAX_STEPS:
        steps += 1
        gradient, info = _slope(theta, won, games)
        step = np.linalg.solve(info, gradient) if len(ids) else theta
        largest = float(np.max(np.abs(step))) if len(ids) else 0.0
        theta = theta + step * min(1.0, _LONGEST / largest) if largest else theta
        if largest < _TOLERANCE:
            break
    _, info = _slope(theta, won, games)
    covariance = np.linalg.inv(info)
    return Fit(
        ids,
        tuple(float(t) for t in theta),
        tuple(tuple(float(c) for c in row) for row in covariance),
        steps,
    )


def _slope(theta: Any, won: Any, games: Any) -> tuple[Any, Any]:
    """The gradient of the log-posterior at ``theta`` and its observed Fisher information
    (minus its Hessian), the prior's virtual games against strength 1 included."""
    import numpy as np

    p = 1.0 / (1.0 + np.exp(theta[None, :] - theta[:, None]))  # p[i, j]: i beats j
    prior = 1.0 / (1.0 + np.exp(-theta))  # beats the virtual average player
    gradient = won.sum(axis=1) - (games * p).sum(axis=1) + PRIOR_GAMES * (1 - 2 * prior)
    weight = games * p * p.T
    info = -weight
    np.fill_diagonal(info, weight.sum(axis=1) + 2 * PRIOR_GAMES * prior * (1 - prior))
    return gradient, info


def groups(order: Sequence[int], result: Fit) -> list[tuple[int, int]]:
    """For each place in ``order`` (player indices, best first), the first and last place
    (0-based) of the players the games cannot tell apart from it: every pair not told apart
    is in one group, and a group is a run of places (a player between two tied ones joins
    them)."""
    count = len(order)
    parent = list(range(count))

    def root(n: int) -> int:
        while parent[n] != n:
            parent[n] = parent[parent[n]]
            n = parent[n]
        return n

    for a in range(count):
        for b in range(a + 1, count):
            if not result.apart(order[a], order[b]):
                parent[root(b)] = root(a)
    spans: dict[int, list[int]] = {}
    for place in range(count):
        span = spans.setdefault(root(place), [place, place])
        span[1] = place
    runs = sorted(spans.values())
    merged: list[list[int]] = []
    for first, last in runs:
        if merged and first <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], last)
        else:
            merged.append([first, last])
    found = [(0, 0)] * count
    for first, last in merged:
        for place in range(first, last + 1):
            found[place] = (first, last)
    return found


def rank_ranges(result: Fit) -> list[tuple[int, int]]:
    """Per player (in ``result.players``' order), the best and worst rank (1-based) it could
    hold: one past the players the games show stronger, and the count of players less those
    they show weaker."""
    size = len(result.players)
    found = []
    for i in range(size):
        apart = [j for j in range(size) if j != i and result.apart(i, j)]
        above = sum(result.strength[j] > result.strength[i] for j in apart)
        below = sum(result.strength[j] < result.strength[i] for j in apart)
        found.append((above + 1, size - below))
    return found
