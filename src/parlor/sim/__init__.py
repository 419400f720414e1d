"""Simulations: many seeded bot games, locally or on Ray, with tables, summaries and plots.

``run_many(GameSpec(...), n, base_seed)`` plays the games (``iter_records`` yields them one by
one, for runs too large to hold); :mod:`parlor.sim.report` turns the records into a Parquet/CSV
table, a summary, a printed report and PNG plots, :mod:`parlor.sim.stream` writes the rows in
batches with the run's settings in the file, and :mod:`parlor.sim.rows` makes the summary and the
plots from that file alone, in bounded memory (a :class:`~parlor.sim.stream.Tally` fed a batch at
a time). The command line is ``parlor simulate`` (:mod:`parlor.cli.simulate_cmd`), and
``parlor simulate --from DIR`` for the report of an earlier run.
"""

from parlor.sim.runner import (
    CAPPED,
    DEFAULT_MAX_DECISIONS,
    ERROR,
    GameRecord,
    GameSpec,
    bot_seed,
    iter_records,
    run_batch,
    run_game,
    run_many,
)

__all__ = [
    "CAPPED",
    "DEFAULT_MAX_DECISIONS",
    "ERROR",
    "GameRecord",
    "GameSpec",
    "bot_seed",
    "iter_records",
    "run_batch",
    "run_game",
    "run_many",
]
