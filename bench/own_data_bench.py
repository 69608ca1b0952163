#!/usr/bin/python3
"""Own data (issue 22): loading a CSV table, side by side with pandas.read_csv, in one run.

Writes a table of ROWS rows x 20 float columns and an integer label (numpy), then alternates,
ROUNDS times: `trainscope-cli data --json` on it (the whole import: parse, task, split, report;
minus the same on a 10-row table: process start and libtorch loading) and pandas.read_csv on
the same file (the call alone, in a Python process that already imported pandas). Prints the median wall times, their ratio, and the
CLI's peak resident memory above its own on a 10-row table, against the bytes of the float32
feature tensor.

With --images: writes Fashion-MNIST's 60,000 training images as 28x28 PNG files in
torchvision's ImageFolder layout (scripts/make-example-data --per-class 6000), then alternates
`trainscope-cli data --json` on the folder with an empty cache (decoding every PNG), the same
again (reading the cache of the first), and torchvision.datasets.ImageFolder (grayscale) with a
DataLoader pass (batch 256, 2 workers: the machine's cores) over it. Prints the median wall
times, the ratio torchvision / TrainScope and the cached start, and the peak resident memory
above a 10-row import against the bytes of the uint8 image tensor.

With --train: training samples/s from each source against the same tensor from a built-in
path: Fashion-MNIST from the idx, npy (.npz) and image-folder (60,000 PNGs) sources against the
fashion-mnist source (the same uint8 images), and a 100,000 x 20 float table from the csv source
against the same table as .npy (float32 [N, 20]: the tensor path). Each run trains 2 epochs
(MLP 256-128, batch 128, one thread) in alternation, ROUNDS times; the ratio of the median
second-epoch samples_per_second (metrics.csv) is printed (target >= 0.98).

usage: own_data_bench.py CLI [--rows 1000000] [--rounds 3] [--dir /tmp/trainscope-bench]
                             [--images | --train]
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time

import numpy as np


def cli_run(cli, path, source="csv", env=None):
    """Wall seconds and peak RSS (bytes) of `cli data --json` on `path` (GNU time's %M)."""
    key = "data.csv.path=" if source == "csv" else "data.image_folder.path="
    t0 = time.perf_counter()
    r = subprocess.run(["/usr/bin/time", "-f", "%M", cli, "data", "--json", "--set", "data.source=" + source,
                        "--set", key + path, "--set", "data.val_fraction=0.2"],
                       capture_output=True, text=True, env=env)
    wall = time.perf_counter() - t0
    if r.returncode != 0:
        sys.exit("trainscope-cli data failed:\n" + r.stderr)
    rss_kib = int(r.stderr.strip().splitlines()[-1])
    return wall, rss_kib * 1024, json.loads(r.stdout)


def small_table(d):
    path = os.path.join(d, "table-10.csv")
    if not os.path.exists(path):
        with open(path, "w") as f:
            f.write(",".join("f%d" % i for i in range(20)) + ",label\n")
            for i in range(10):
                f.write(",".join(str(0.1 * (i + j)) for j in range(20)) + ",%d\n" % (i % 3))
    return path


def images(a):
    try:
        import torch
        import torchvision
        from PIL import Image
    except ImportError:
        sys.exit("torchvision is missing: apt-get install python3-torchvision")
    root = os.path.join(a.dir, "fashion-png-60000")
    if not os.path.exists(os.path.join(root, ".trainscope-examples")) or \
            open(os.path.join(root, ".trainscope-examples")).read().split()[-1] != "6000":
        script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts", "make-example-data")
        subprocess.run([sys.executable, script, root, "--per-class", "6000"], check=True)
    train = os.path.join(root, "fashion-png", "train")
    n = sum(len(files) for _, _, files in os.walk(train))
    print("folder: %s (%d PNG files, 28x28 grayscale)" % (train, n))
    cache = os.path.join(a.dir, "image-cache")
    env = dict(os.environ, TRAINSCOPE_CACHE_DIR=cache)
    small = small_table(a.dir)
    cold, warm, tv, rss = [], [], [], []
    for _ in range(a.rounds):
        shutil.rmtree(cache, ignore_errors=True)
        wall, peak, report = cli_run(a.cli, train, "image-folder", env)
        cold.append(wall)
        rss.append(peak)
        wall, _, report = cli_run(a.cli, train, "image-folder", env)
        warm.append(wall)
        assert any("read from the cache" in note for note in report["notes"]), report["notes"]
        t0 = time.perf_counter()
        ds = torchvision.datasets.ImageFolder(
            train, transform=torchvision.transforms.Compose([
                torchvision.transforms.Grayscale(), torchvision.transforms.PILToTensor()]))
        seen = 0
        for x, y in torch.utils.data.DataLoader(ds, batch_size=256, num_workers=2):
            seen += x.shape[0]
        tv.append(time.perf_counter() - t0)
        assert seen == n
    base_walls, base_rss = [], []
    for _ in range(a.rounds):
        wall, peak, _ = cli_run(a.cli, small)
        base_walls.append(wall)
        base_rss.append(peak)
    start, base = statistics.median(base_walls), min(base_rss)
    c, w, t = statistics.median(cold) - start, statistics.median(warm) - start, statistics.median(tv)
    tensor = n * 28 * 28
    print("trainscope-cli data, decoding: %.2f s (median of %d; the %.2f s of a 10-row import "
          "subtracted)" % (c, a.rounds, start))
    print("trainscope-cli data, cached:   %.2f s (second start: lists, stats and reads the cache)" % w)
    print("torchvision ImageFolder + DataLoader pass: %.2f s" % t)
    print("speed ratio torchvision / trainscope: %.2f (>= 1 means TrainScope is faster)" % (t / c))
    print("memory: peak RSS %.0f MB above a 10-row import, uint8 images %.0f MB: ratio %.2f"
          % ((min(rss) - base) / 1e6, tensor / 1e6, (min(rss) - base) / tensor))


def train_rate(cli, out, sets):
    """Second-epoch samples/s of a 2-epoch run with `sets` (--set KEY=VALUE list)."""
    shutil.rmtree(out, ignore_errors=True)
    cmd = [cli, "train", "--out", out, "--set", "training.epochs=2", "--set", "training.num_threads=1",
           "--set", "model.hidden=[256,128]", "--set", "training.batch_size=128",
           "--set", "checkpoint.save_last=false", "--set", "checkpoint.save_best=false",
           "--set", "data.seed=7", "--set", "training.seed=1"]
    for kv in sets:
        cmd += ["--set", kv]
    r = subprocess.run(cmd, capture_output=True, text=True, env=dict(os.environ, TRAINSCOPE_CACHE_DIR="off"))
    if r.returncode != 0:
        sys.exit("trainscope-cli train failed:\n" + r.stderr[-2000:])
    import csv as csvmod
    rows = list(csvmod.DictReader(open(os.path.join(out, "metrics.csv"))))
    return float(rows[-1]["samples_per_second"])


def train(a):
    import gzip
    fm = "/usr/share/datasets/fashion-mnist"
    def idx(name):
        data = gzip.open(os.path.join(fm, name)).read()
        nd = data[3]
        dims = [int.from_bytes(data[4 + 4 * i:8 + 4 * i], "big") for i in range(nd)]
        return np.frombuffer(data[4 + 4 * nd:], dtype=np.uint8).reshape(dims)
    npz = os.path.join(a.dir, "fashion.npz")
    if not os.path.exists(npz):
        np.savez(npz, x=idx("train-images-idx3-ubyte.gz"), y=idx("train-labels-idx1-ubyte.gz"))
    root = os.path.join(a.dir, "fashion-png-60000")
    if not os.path.exists(os.path.join(root, "fashion-png", "train")):
        script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts", "make-example-data")
        subprocess.run([sys.executable, script, root, "--per-class", "6000"], check=True)
    table = os.path.join(a.dir, "table-100000.csv")
    npy_x, npy_y = os.path.join(a.dir, "table-x.npy"), os.path.join(a.dir, "table-y.npy")
    rng = np.random.default_rng(0)
    x = rng.normal(size=(100000, 20)).astype(np.float32)
    y = (x[:, 0] + x[:, 1] > 0).astype(np.int64) + (x[:, 2] > 1)
    with open(table, "w") as f:
        f.write(",".join("f%d" % i for i in range(20)) + ",label\n")
        np.savetxt(f, np.column_stack([x, y]), delimiter=",", fmt=["%.9g"] * 20 + ["%d"])
    # The table as the CSV reader sees it (float32 of the printed values), as the tensor path.
    back = np.loadtxt(table, delimiter=",", skiprows=1, dtype=np.float64)
    np.save(npy_x, back[:, :20].astype(np.float32))
    np.save(npy_y, back[:, 20].astype(np.int64))
    base_img = ["data.source=fashion-mnist"]
    pairs = {
        "idx": (["data.source=idx", "data.idx.path=" + os.path.join(fm, "train-images-idx3-ubyte.gz"),
                 "data.idx.y_path=" + os.path.join(fm, "train-labels-idx1-ubyte.gz")], base_img),
        "npy (.npz)": (["data.source=npy", "data.npy.path=" + npz], base_img),
        "image-folder": (["data.source=image-folder", "data.image_folder.path=" +
                          os.path.join(root, "fashion-png", "train")], base_img),
        "csv": (["data.source=csv", "data.csv.path=" + table],
                ["data.source=npy", "data.npy.path=" + npy_x, "data.npy.y_path=" + npy_y]),
    }
    out = os.path.join(a.dir, "train-run")
    for name, (source, builtin) in pairs.items():
        mine, ref = [], []
        for _ in range(a.rounds):
            mine.append(train_rate(a.cli, out, source))
            ref.append(train_rate(a.cli, out, builtin))
        m, r = statistics.median(mine), statistics.median(ref)
        print("%-13s %8.0f samples/s, built-in tensor path %8.0f samples/s: ratio %.3f (target >= 0.98)"
              % (name, m, r, m / r))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("cli")
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--dir", default="/tmp/trainscope-bench")
    ap.add_argument("--images", action="store_true")
    ap.add_argument("--train", action="store_true")
    a = ap.parse_args()
    if a.train:
        os.makedirs(a.dir, exist_ok=True)
        return train(a)
    if a.images:
        os.makedirs(a.dir, exist_ok=True)
        return images(a)
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
