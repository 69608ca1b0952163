#!/usr/bin/python3
"""Own data (issue 22): loading a CSV table, side by side with pandas.read_csv, in one run.

Writes a table of ROWS rows x 20 float columns and an integer label (numpy), then alternates,
ROUNDS times: `trainscope-cli data --json` on it (the whole import: parse, task, split, report;
minus the same on a 10-row table: process start and libtorch loading) and pandas.read_csv on
the same file (the call alone, in a Python process that already imported pandas). Prints the median wall times, their ratio, and the
CLI's peak resident memory above its own on a 10-row table, against the bytes of the float32
feature tensor.

usage: own_data_bench.py CLI [--rows 1000000] [--rounds 3] [--dir /tmp/trainscope-bench]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

import numpy as np


def cli_run(cli, path):
    """Wall seconds and peak RSS (bytes) of `cli data --json` on `path` (GNU time's %M)."""
    t0 = time.perf_counter()
    r = subprocess.run(["/usr/bin/time", "-f", "%M", cli, "data", "--json", "--set", "data.source=csv",
                        "--set", "data.csv.path=" + path, "--set", "data.val_fraction=0.2"],
                       capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if r.returncode != 0:
        sys.exit("trainscope-cli data failed:\n" + r.stderr)
    rss_kib = int(r.stderr.strip().splitlines()[-1])
    return wall, rss_kib * 1024, json.loads(r.stdout)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("cli")
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--dir", default="/tmp/trainscope-bench")
    a = ap.parse_args()
    try:
        import pandas as pd
    except ImportError:
        sys.exit("pandas is missing: apt-get install python3-pandas")
    os.makedirs(a.dir, exist_ok=True)
    path = os.path.join(a.dir, "table-%d.csv" % a.rows)
    small = os.path.join(a.dir, "table-10.csv")
    rng = np.random.default_rng(0)
    for file, n in ((path, a.rows), (small, 10)):
        if not os.path.exists(file):
            x = rng.normal(size=(n, 20)).astype(np.float32)
            y = rng.integers(0, 3, n)
            frame = pd.DataFrame(x, columns=["f%d" % i for i in range(20)])
            frame["label"] = y
            frame.to_csv(file, index=False, float_format="%.6g")
    print("table: %s (%d rows x 21 columns, %.0f MB)" % (path, a.rows, os.path.getsize(path) / 1e6))
    cli_times, pandas_times, rss = [], [], []
    for _ in range(a.rounds):
        wall, peak, report = cli_run(a.cli, path)
        cli_times.append(wall)
        rss.append(peak)
        t0 = time.perf_counter()
        pd.read_csv(path)
        pandas_times.append(time.perf_counter() - t0)
    base_walls = []
    for _ in range(a.rounds):
        wall, base, _ = cli_run(a.cli, small)
        base_walls.append(wall)
    start = statistics.median(base_walls)
    tensor = a.rows * 20 * 4
    c, p = statistics.median(cli_times) - start, statistics.median(pandas_times)
    print("trainscope-cli data: %.2f s (median of %d: parse, task, split, report; the %.2f s of a "
          "10-row import, process start and libtorch loading, subtracted)" % (c, a.rounds, start))
    print("pandas.read_csv:     %.2f s" % p)
    print("speed ratio pandas / trainscope: %.2f (>= 1 means TrainScope is at least as fast)" % (p / c))
    print("memory: peak RSS %.0f MB above a 10-row import, float32 features %.0f MB: ratio %.2f"
          % ((min(rss) - base) / 1e6, tensor / 1e6, (min(rss) - base) / tensor))
    assert report["n_train"] + report["n_val"] == a.rows


if __name__ == "__main__":
    main()
