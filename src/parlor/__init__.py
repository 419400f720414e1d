"""Parlor: open implementations of property-trading board games and the TOOLS card game.

Every game shares one shape (see :mod:`parlor.core`): settings and a seed make a game; ``pending``
says who must decide what; ``legal_actions()`` lists what may be done; ``apply(action)`` changes the
state and returns events, or raises a :class:`parlor.core.errors.ParlorError` and changes nothing.
"""

__version__ = "0.1.0"
