#!/usr/bin/python3
"""training.monitor picks best.pt, early stopping and the test's weights (issue 43, item 5).

Each expectation is recomputed here from metrics.csv with Keras' rules (mode "auto": max for
accuracy and R^2, min for losses and errors; an improvement must beat the best by more than
min_delta; stop when `patience` epochs in a row did not improve):
- moons, monitor val_accuracy with early stopping: the run stops at the epoch the rule gives,
  best.pt holds the first epoch of the highest accuracy (its `epoch`, `best_loss` = that
  accuracy, `monitor`), which is not the epoch of the lowest validation loss (so the check has
  teeth), and summary.json's best_epoch / best_val_loss name that epoch;
- a regression CSV with val_r2 (max) and val_mae (min): best.pt's epoch is the argmax / argmin;
- refused with exit 2 naming training.monitor: a classification metric on regression data and
  the reverse, an unknown metric, and a resume with another monitor than the checkpoint's.

usage: monitor.py CLI WORKDIR
"""
import csv
import json
import os
import shutil
import subprocess
import sys

import numpy as np
import torch


def run(cli, *args):
    return subprocess.run([cli] + list(args), capture_output=True, text=True, timeout=300)


def call(cli, *args):
    r = run(cli, *args)
    if r.returncode != 0:
        sys.exit("%s %s failed (exit %d):\n%s" % (cli, " ".join(args), r.returncode, r.stderr))
    return r


def metrics(run_dir):
    with open(os.path.join(run_dir, "metrics.csv")) as f:
        return list(csv.DictReader(f))


def keras_best(values, maximize, min_delta=0.0):
    """(best epoch 1-based, best value, stop epoch or None) by Keras' EarlyStopping rule."""
    best, best_epoch = None, 0
    return_best = []
    for i, v in enumerate(values):
        better = best is None or (v - min_delta > best if maximize else v + min_delta < best)
        if better:
            best, best_epoch = v, i + 1
        return_best.append((best_epoch, best))
    return return_best


def stop_epoch(values, maximize, patience, min_delta=0.0):
    best, wait = None, 0
    for i, v in enumerate(values):
        better = best is None or (v - min_delta > best if maximize else v + min_delta < best)
        if better:
            best, wait = v, 0
        else:
            wait += 1
            if wait >= patience:
                return i + 1
    return None


def refused(r, what):
    assert r.returncode == 2, (what, r.returncode, r.stderr[-800:])
    assert "training.monitor" in r.stderr, (what, r.stderr[-800:])


def main():
    cli, work = sys.argv[1], sys.argv[2]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    common = ["--set", "training.num_threads=1", "--set", "training.seed=3"]

    # classification, val_accuracy, early stopping
    moons = os.path.join(work, "moons")
    call(cli, "train", "--preset", "moons", "--epochs", "40", *common,
         "--set", "data.noise=0.3", "--set", "optimizer.lr=0.003",
         "--set", "training.monitor=val_accuracy",
         "--set", "training.early_stopping.enabled=true",
         "--set", "training.early_stopping.patience=4", "--out", moons)
    rows = metrics(moons)
    acc = [float(r["val_accuracy"]) for r in rows]
    loss = [float(r["val_loss"]) for r in rows]
    expected_stop = stop_epoch(acc, True, 4)
    summary = json.load(open(os.path.join(moons, "summary.json")))
    assert expected_stop is not None and len(rows) == expected_stop, (len(rows), expected_stop, acc)
    assert summary["stop_reason"] == "early_stop", summary["stop_reason"]
    best_epoch, best_acc = keras_best(acc, True)[-1]
    loss_best_epoch = int(np.argmin(loss)) + 1
    assert best_epoch != loss_best_epoch, ("the check needs the two to differ", acc, loss)
    best = torch.load(os.path.join(moons, "checkpoints", "best.pt"))
    assert best["epoch"] == best_epoch, (best["epoch"], best_epoch, acc)
    assert best["monitor"] == "val_accuracy", best["monitor"]
    assert abs(best["best_loss"] - best_acc) < 1e-9, (best["best_loss"], best_acc)
    assert summary["best_epoch"] == best_epoch, summary
    assert abs(summary["best_val_loss"] - loss[best_epoch - 1]) < 1e-9, summary
    events = [json.loads(l) for l in open(os.path.join(moons, "events.jsonl"))]
    stop = [e for e in events if e["kind"] == "early_stop"]
    assert len(stop) == 1 and "val_accuracy has not improved" in stop[0]["message"], stop

    # regression: val_r2 (higher is better), val_mae (lower is better)
    rng = np.random.default_rng(7)
    x = rng.normal(size=(300, 2))
    y = 3 * x[:, 0] - 2 * x[:, 1] + rng.normal(size=300)
    table = os.path.join(work, "reg.csv")
    with open(table, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["a", "b", "y"])
        for xi, yi in zip(x, y):
            w.writerow(["%.6f" % xi[0], "%.6f" % xi[1], "%.6f" % yi])
    reg = ["--set", "data.source=csv", "--set", "data.csv.path=" + table,
           "--set", "data.csv.target=y", "--set", "optimizer.lr=0.05", "--epochs", "12"] + common
    for monitor, maximize in (("val_r2", True), ("val_mae", False)):
        out = os.path.join(work, monitor)
        call(cli, "train", *reg, "--set", "training.monitor=" + monitor, "--out", out)
        values = [float(r[monitor]) for r in metrics(out)]
        epoch, value = keras_best(values, maximize)[-1]
        best = torch.load(os.path.join(out, "checkpoints", "best.pt"))
        assert best["epoch"] == epoch and best["monitor"] == monitor, (monitor, best["epoch"], epoch, values)
        assert abs(best["best_loss"] - value) < 1e-9 * max(1, abs(value)), (monitor, best["best_loss"], value)

    # refusals
    refused(run(cli, "train", *reg, "--set", "training.monitor=val_accuracy",
                "--out", os.path.join(work, "bad1")), "accuracy of a regression")
    refused(run(cli, "train", "--preset", "moons", "--epochs", "1", "--set",
                "training.monitor=val_r2", "--out", os.path.join(work, "bad2")), "R^2 of classes")
    refused(run(cli, "train", "--preset", "moons", "--epochs", "1", "--set",
                "training.monitor=val_f1", "--out", os.path.join(work, "bad3")), "unknown metric")
    r = run(cli, "train", "--resume", os.path.join(moons, "checkpoints", "last.pt"), "--epochs", "60",
            "--set", "training.monitor=val_loss", "--out", os.path.join(work, "bad4"))
    refused(r, "resume with another monitor")
    assert "val_accuracy" in r.stderr, r.stderr[-800:]
    for d in ("bad1", "bad2", "bad3", "bad4"):  # nothing left behind by a refused start
        assert not os.path.exists(os.path.join(work, d, "metrics.csv")), d
    print("training.monitor: best.pt, early stopping and the summary follow Keras' rules")


if __name__ == "__main__":
    main()
