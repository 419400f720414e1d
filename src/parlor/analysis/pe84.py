"""Project Euler problem 84 ("Monopoly odds"), solved from the problem's own rules.

A movement-only model written from the problem statement alone, independent of the edition files:
the 40 squares named by the problem's codes (GO, A1, CC1, ..., H2), two dice of ``sides`` sides,
three doubles in a row send the token to JAIL without moving, G2J sends it to JAIL, Community
Chest has 2 movement cards of 16 (GO, JAIL), Chance 10 of 16 (GO, JAIL, C1, E3, H2, R1, next R
twice, next U, back 3 squares). JAIL and Just Visiting are one square, and a jailed player leaves
on the next throw. Cards are drawn independently and uniformly (the chain's convention).

The problem does not say that being sent to jail ends a turn: read literally, a double that ends on
G2J or a "go to jail" card still gives another throw (from JAIL, counting towards three doubles).
That reading (``jail_ends_turn=False``, the default) gives the figures the problem publishes for
six-sided dice, JAIL 6.24%, E3 3.18%, GO 3.09%, as their first two decimals (JAIL 6.2422%, E3
3.1838%, GO 3.0952%). With ``jail_ends_turn=True`` (the board game's rule, and Parlor's engine's)
the model is the classic edition's chain with jail left at once, which the tests check square by
square: an independent check of :class:`parlor.analysis.markov.MarkovChain`.

>>> top = ranked(solve(6))[:3]
>>> [(code, f"{100 * p:.2f}") for code, p in top]
[('JAIL', '6.24'), ('E3', '3.18'), ('GO', '3.10')]
"""

from __future__ import annotations

import numpy as np

from parlor.analysis.markov import FloatArray, stationary

CODES: tuple[str, ...] = tuple(
    [
        "GO",
        "A1",
        "CC1",
        "A2",
        "T1",
        "R1",
        "B1",
        "CH1",
        "B2",
        "B3",
        "JAIL",
        "C1",
        "U1",
        "C2",
        "C3",
        "R2",
        "D1",
        "CC2",
        "D2",
        "D3",
        "FP",
        "E1",
        "CH2",
        "E2",
        "E3",
        "R3",
        "F1",
        "F2",
        "U2",
        "F3",
        "G2J",
        "G1",
        "G2",
        "CC3",
        "G3",
        "R4",
        "CH3",
        "H1",
        "T2",
        "H2",
    ]
)
INDEX = {code: i for i, code in enumerate(CODES)}
N = len(CODES)
JAIL = INDEX["JAIL"]
CARDS = 16
#: Chance's movement cards that name a square (the problem's list); the others are below.
CHANCE_TARGETS = ("GO", "JAIL", "C1", "E3", "H2", "R1")


def _next(square: int, prefix: str) -> int:
    i = (square + 1) % N
    while not CODES[i].startswith(prefix):
        i = (i + 1) % N
    return i


def settle(square: int) -> list[tuple[float, int]]:
    """(probability, square where the token finishes) for a token arriving on ``square``."""
    code = CODES[square]
    if code == "G2J":
        return [(1.0, JAIL)]
    if code.startswith("CC"):
        return [(14 / CARDS, square), (1 / CARDS, INDEX["GO"]), (1 / CARDS, JAIL)]
    if code.startswith("CH"):
        out = [(6 / CARDS, square)] + [(1 / CARDS, INDEX[t]) for t in CHANCE_TARGETS]
        out += [(2 / CARDS, _next(square, "R")), (1 / CARDS, _next(square, "U"))]
        out += [(p / CARDS, end) for p, end in settle((square - 3) % N)]  # back 3 squares
        return out
    return [(1.0, square)]


def transition(sides: int = 6, jail_ends_turn: bool = False) -> FloatArray:
    """The chain over (square, doubles thrown so far this turn): state ``square * 3 + d``."""
    trans = np.zeros((N * 3, N * 3))
    p = 1.0 / sides**2
    for square in range(N):
        for d in range(3):
            s = square * 3 + d
            for a in range(1, sides + 1):
                for b in range(1, sides + 1):
                    doubles = a == b
                    if doubles and d == 2:  # the third double: to jail, the turn is over
                        trans[s, JAIL * 3] += p
                        continue
                    again = d + 1 if doubles else 0
                    landed = (square + a + b) % N
                    for q, end in settle(landed):
                        sent = end == JAIL and landed != JAIL
                        trans[s, end * 3 + (0 if sent and jail_ends_turn else again)] += p * q
    return trans


def solve(sides: int = 6, jail_ends_turn: bool = False) -> FloatArray:
    """The long-run probability of finishing a throw on each of the 40 squares."""
    pi = stationary(transition(sides, jail_ends_turn))
    out: FloatArray = pi.reshape(N, 3).sum(axis=1)
    return out


def ranked(probabilities: FloatArray) -> list[tuple[str, float]]:
    """(code, probability), most likely first."""
    order = np.argsort(-probabilities, kind="stable")
    return [(CODES[int(i)], float(probabilities[int(i)])) for i in order]
