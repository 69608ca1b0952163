#!/usr/bin/python3
"""Data larger than memory (issue 48 §3), side by side in one run.

A uint8 .npy of images (default 1 GiB: 1,369,000 images of 28x28, 4 classes whose pixel level
depends on the class, written with numpy's open_memmap in chunks) trains one epoch of an MLP
784-32-4 (batch 256, Adam, one intra-op thread) with `trainscope-cli train`, two ways, alternating
ROUNDS times:
  on-disk    data.in_memory_limit 256 MiB (the file is 4x larger: it stays on disk, rows read
             as batches ask; data.workers auto: 1 loader thread on 2 cores)
  on-disk-0  the same with data.workers 0 (rows read on the training thread)
  in-memory  data.in_memory_limit above the file (read into memory as before; workers auto: 0)
Measured per run: peak resident memory of the process (the kernel's ru_maxrss, os.wait4) and
the epoch's training samples/s (metrics.csv). Printed: both per round, the medians and the
ratios on-disk/in-memory for samples/s (target >= 0.7) and the on-disk peaks against the
limit + 200 MB (target: peak <= limit + 200 MB). Prints, does not assert.

usage: on_disk_bench.py CLI [--gib 1] [--rounds 2] [--dir /tmp/trainscope-mmap-bench]
"""
import argparse
import csv
import os
import shutil
import statistics
import subprocess
import sys

LIMIT = 256 << 20


def make_data(d, gib):
    import numpy as np
    x_path, y_path = os.path.join(d, "x.npy"), os.path.join(d, "y.npy")
    n = int(gib * (1 << 30)) // 784
    if os.path.exists(x_path) and np.load(x_path, mmap_mode="r").shape[0] == n:
        return x_path, y_path, n
    rng = np.random.default_rng(0)
    y = rng.integers(0, 4, n)
    x = np.lib.format.open_memmap(x_path, mode="w+", dtype=np.uint8, shape=(n, 28, 28))
    for s in range(0, n, 65536):
        e = min(n, s + 65536)
        x[s:e] = rng.integers(0, 100, (e - s, 28, 28), dtype=np.uint8) + (y[s:e, None, None] * 40).astype(np.uint8)
    x.flush()
    del x
    np.save(y_path, y)
    return x_path, y_path, n


def run(cli, d, name, x_path, y_path, limit, workers):
    out = os.path.join(d, name)
    args = [cli, "train", "--preset", "moons", "--epochs", "1", "--out", out, "--overwrite",
            "--set", "data.source=npy", "--set", "data.npy.path=" + x_path,
            "--set", "data.npy.y_path=" + y_path, "--set", "data.in_memory_limit=%d" % limit,
            "--set", "model.hidden=[32]", "--set", "training.batch_size=256",
            "--set", "training.num_threads=1", "--set", "data.val_fraction=0.05",
            "--set", "data.workers=" + workers]
    p = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    err = p.stderr.read()
    _, status, usage = os.wait4(p.pid, 0)
    if status != 0:
        sys.exit("%s failed:\n%s" % (name, err[-2000:]))
    with open(os.path.join(out, "metrics.csv")) as f:
        rate = float(list(csv.DictReader(f))[0]["samples_per_second"])
    return usage.ru_maxrss * 1024, rate


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("cli")
    ap.add_argument("--gib", type=float, default=1.0)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--dir", default="/tmp/trainscope-mmap-bench")
    a = ap.parse_args()
    os.makedirs(a.dir, exist_ok=True)
    x_path, y_path, n = make_data(a.dir, a.gib)
    size = os.path.getsize(x_path)
    print("data: %s, %d images, %.0f MB; limit %.0f MB" % (x_path, n, size / 1e6, LIMIT / 1e6))
    runs = (("on-disk", LIMIT, "auto"), ("on-disk-0", LIMIT, "0"), ("in-memory", 2 * size, "auto"))
    res = {name: [] for name, _, _ in runs}
    for r in range(a.rounds):
        for name, limit, workers in runs:
            peak, rate = run(a.cli, a.dir, name, x_path, y_path, limit, workers)
            res[name].append((peak, rate))
            print("round %d  %-9s  peak RSS %7.1f MB  %9.0f samples/s" % (r + 1, name, peak / 1e6, rate))
    med = {k: (statistics.median(p for p, _ in v), statistics.median(s for _, s in v)) for k, v in res.items()}
    print("median peak RSS: on disk %.1f MB, on disk with 0 workers %.1f MB (limit + 200 MB = %.1f MB), in memory %.1f MB"
          % (med["on-disk"][0] / 1e6, med["on-disk-0"][0] / 1e6, (LIMIT + 200e6) / 1e6, med["in-memory"][0] / 1e6))
    for name in ("on-disk", "on-disk-0"):
        print("samples/s %s / in memory: %.2fx (target >= 0.7)" % (name, med[name][1] / med["in-memory"][1]))
    ok = all(med[n][0] <= LIMIT + 200e6 for n in ("on-disk", "on-disk-0"))
    print("peaks on disk <= limit + 200 MB: %s" % ("yes" if ok else "NO"))
    for name in res:
        shutil.rmtree(os.path.join(a.dir, name), ignore_errors=True)


if __name__ == "__main__":
    main()
