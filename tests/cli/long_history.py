#!/usr/bin/python3
"""A run longer than the history TrainScope keeps in memory (issue 44 item 2).

overfit-sine trains 10,300 epochs: past 10,000 the history in memory and in a checkpoint keeps
every 2nd epoch and the latest (core/run/epoch_thinning.h) and best_epoch's record, so memory
stays bounded. Checked against what is known from outside TrainScope:
- torch.load(last.pt)["history"]["epoch"] is the set the rule gives (computed here with
  Python's range) with best_epoch added, and each kept record equals metrics.csv's row;
- metrics.csv still has every epoch (1..10,300);
- best_epoch and best_val_loss in summary.json are metrics.csv's argmin and minimum;
- a run stopped at 10,151 epochs (off the stride) and resumed from its last.pt to 10,300
  writes the same metrics.csv as the uninterrupted run (bit-identical losses, learning rates)
  and the same final diagnosis.

usage: long_history.py CLI WORKDIR
"""
import csv
import json
import os
import shutil
import subprocess
import sys

import torch

CAPACITY = 10000
EPOCHS = 10300


def call(cli, *args):
    r = subprocess.run([cli] + list(args), capture_output=True, text=True, timeout=600)
    if r.returncode != 0:
        sys.exit("%s %s failed (exit %d):\n%s" % (cli, " ".join(args), r.returncode, r.stderr))
    return r


def metrics(run):
    with open(os.path.join(run, "metrics.csv"), newline="") as f:
        return list(csv.DictReader(f))


def train(cli, out, epochs, *extra):
    call(cli, "train", "--preset", "overfit-sine", "--set", "training.seed=3",
         "--set", "training.num_threads=1", "--epochs", str(epochs), "--out", out, *extra)


def main():
    cli, work = sys.argv[1], sys.argv[2]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    whole = os.path.join(work, "whole")
    train(cli, whole, EPOCHS)
    rows = metrics(whole)
    assert [int(r["epoch"]) for r in rows] == list(range(1, EPOCHS + 1)), "metrics.csv epochs"
    val = [float(r["val_loss"]) for r in rows]
    best_epoch = min(range(len(val)), key=lambda i: (val[i], i)) + 1
    with open(os.path.join(whole, "summary.json")) as f:
        summary = json.load(f)
    assert summary["best_epoch"] == best_epoch, (summary["best_epoch"], best_epoch)
    assert summary["best_val_loss"] == val[best_epoch - 1], (summary["best_val_loss"],
                                                              val[best_epoch - 1])

    # The checkpoint's history: the rule's epochs (stride 2 at 10,300: 5,150 <= 10,000 but
    # 10,300 > 10,000 at stride 1) with the best epoch.
    stride = 1
    while len(range(1, EPOCHS + 1, stride)) > CAPACITY:
        stride *= 2
    assert stride == 2
    want = sorted(set(range(1, EPOCHS + 1, stride)) | {EPOCHS, best_epoch})
    ckpt = torch.load(os.path.join(whole, "checkpoints", "last.pt"))
    history = ckpt["history"]
    got = history["epoch"].tolist()
    assert got == want, ("history epochs", len(got), len(want), got[:5], got[-5:])
    for i, epoch in enumerate(got):
        row = rows[epoch - 1]
        for name in ("train_loss", "val_loss", "lr"):
            a, b = float(history[name][i]), float(row[name])
            assert abs(a - b) <= 1e-9 * max(1.0, abs(b)), (epoch, name, a, b)
    inspected = json.loads(call(cli, "inspect", os.path.join(whole, "checkpoints", "last.pt"),
                                "--json").stdout)
    assert [e["epoch"] for e in inspected["history"]] == want, "inspect --json history"

    # Stopped off the stride and resumed: the same rows as the uninterrupted run.
    part = os.path.join(work, "part")
    train(cli, part, 10151)
    resumed = os.path.join(work, "resumed")
    call(cli, "train", "--resume", os.path.join(part, "checkpoints", "last.pt"),
         "--epochs", str(EPOCHS), "--out", resumed)
    again = metrics(resumed)
    assert len(again) == EPOCHS, len(again)
    for a, b in zip(rows, again):
        for name in ("epoch", "step", "train_loss", "val_loss", "lr"):
            assert a[name] == b[name], (a["epoch"], name, a[name], b[name])
    with open(os.path.join(resumed, "summary.json")) as f:
        resumed_summary = json.load(f)
    for key in ("best_epoch", "best_val_loss"):
        assert resumed_summary[key] == summary[key], (key, resumed_summary[key], summary[key])
    assert resumed_summary.get("diagnosis", {}).get("kind") == summary.get("diagnosis", {}).get(
        "kind"), (resumed_summary.get("diagnosis"), summary.get("diagnosis"))
    print("long history: %d epochs, checkpoint history %d records (stride %d, best epoch %d), "
          "resumed at 10151 identical" % (EPOCHS, len(got), stride, best_epoch))


if __name__ == "__main__":
    main()
