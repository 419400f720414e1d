"""Seconds to build and write the value tables of ``parlor analyze --all``, on one core.

Usage: python bench/bench_value_tables.py [--repeat 3] [--out out/bench-tables]

Prints the time to solve the chains and build the rows of every edition x scenario x jail
strategy (the best of ``--repeat`` runs), then the time to write the CSV, Parquet and dictionary
files and the time of the plots.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from parlor.analysis.tablefiles import write_all
from parlor.analysis.tables import SCENARIOS, build
from parlor.monopoly.edition import EDITION_IDS


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--out", default="out/bench-tables")
    args = parser.parse_args()
    runs = [build() for _ in range(max(1, args.repeat))]
    best = min(run.seconds for run in runs)
    cases = len(EDITION_IDS) * len(SCENARIOS) * 2
    print(f"build: {best:.2f} s for {cases} chains ({1000 * best / cases:.0f} ms each)")
    tables = runs[-1]  # (the files are written from a build already timed: no extra build)
    start = time.perf_counter()
    write_all(tables, Path(args.out), plots=False)
    written = time.perf_counter() - start
    print(f"CSV + Parquet + dictionary: {written:.2f} s")
    start = time.perf_counter()
    write_all(tables, Path(args.out), plots=True)
    print(f"with plots: {time.perf_counter() - start - written:.2f} s more")


if __name__ == "__main__":
    main()
