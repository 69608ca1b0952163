#!/usr/bin/python3
"""A run pins its data; test metrics say whose weights they are (issue 43, items 2 and 6).

Item 2: every data file a run read is fingerprinted (size, modification time, SHA-256; image
folders by their listing key) in run.json, the checkpoint and split.json, the hashes checked
here with Python's hashlib. After the CSV's rows are merely reordered, `evaluate`, `train
--resume` and `train --replay` refuse (exit 2 naming the file) unless --allow-changed-data, and
then record the change as a data_changed warning; a file only touched (same bytes) is no change.
Item 6: with a test table, summary.json's test metrics are those of best.pt's weights
("test_weights": "best", "test_epoch" = the best epoch) and the final weights' are beside them
("last_test_loss"); both recomputed here with torch 1.13 from best.pt and last.pt.

README's Python recipe (the block starting "import csv, hashlib, json, torch") is run on the run:
it reads the validation rows with the original table and stops with an AssertionError naming
the table once its rows are reordered.

usage: data_pinning.py CLI WORKDIR README
"""
import csv
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys

import numpy as np
import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from own_data_python import mlp_forward, write_png  # noqa: E402


def call(cli, *args, code=0):
    r = subprocess.run([cli] + list(args), capture_output=True, text=True, timeout=300)
    if r.returncode != code:
        sys.exit("%s %s: exit %d, expected %d:\n%s" % (cli, " ".join(args), r.returncode, code, r.stderr))
    return r


def sha256(path):
    return hashlib.sha256(open(path, "rb").read()).hexdigest()


def write_table(path, rows):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["f%d" % i for i in range(8)] + ["label"])
        w.writerows(rows)


def make_rows(rng, n):
    """8 features, 3 classes from the first two features, 30% of labels noise: a wide MLP
    overfits within tens of epochs, so the best epoch comes before the last."""
    x = rng.normal(size=(n, 8))
    y = (x[:, 0] > 0).astype(int) + (x[:, 1] > 0.5).astype(int)
    noisy = rng.random(n) < 0.3
    y[noisy] = rng.integers(0, 3, noisy.sum())
    return [["%.6f" % v for v in xi] + ["c%d" % yi] for xi, yi in zip(x, y)]


def test_metrics(ck_file, test_file, classes):
    """Loss and accuracy of a checkpoint's weights on the test table, from torch.load."""
    ck = torch.load(ck_file)
    pre = ck["data"]["preprocessing"]
    with open(test_file, newline="") as f:
        rows = list(csv.DictReader(f))
    x = torch.tensor([[float(r["f%d" % i]) for i in range(8)] for r in rows], dtype=torch.float64)
    x = (x / pre["pixel_scale"] - torch.tensor(pre["mean"], dtype=torch.float64)) / torch.tensor(
        pre["std"], dtype=torch.float64)
    y = torch.tensor([classes.index(r["label"]) for r in rows])
    state = {k: v.double() for k, v in ck["model_state_dict"].items()}
    out = mlp_forward(state, "relu", x)
    return F.cross_entropy(out, y).item(), (out.argmax(1) == y).double().mean().item()


def readme_recipe(readme, run_dir):
    """README's split.json recipe, for this run and its target column "label"."""
    text = open(readme, encoding="utf-8").read()
    for block in re.findall(r"```python\n(.*?)```", text, re.S):
        if block.startswith("import csv, hashlib, json, torch"):
            block = re.sub(r'run = "[^"]*"', "run = %r" % run_dir, block)
            return block.replace('r["species"]', 'r["label"]')
    sys.exit("README.md has no python block starting with 'import csv, hashlib, json, torch'")


def main():
    cli, work, readme = sys.argv[1], sys.argv[2], sys.argv[3]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    rng = np.random.default_rng(11)
    table, test_table = os.path.join(work, "train.csv"), os.path.join(work, "test.csv")
    rows = make_rows(rng, 120)
    write_table(table, rows)
    write_table(test_table, make_rows(rng, 200))
    common = ["--set", "data.source=csv", "--set", "data.csv.path=" + table,
              "--set", "data.csv.test_path=" + test_table, "--set", "data.csv.target=label",
              "--set", "model.hidden=[128,128]", "--set", "optimizer.name=adam",
              "--set", "optimizer.lr=0.01", "--set", "training.batch_size=16",
              "--set", "training.seed=3", "--set", "training.num_threads=1"]
    one = os.path.join(work, "one")
    r = call(cli, "train", *common, "--epochs", "40", "--out", one)

    # ---- item 2: the fingerprints, checked with hashlib ----
    run_json = json.load(open(os.path.join(one, "run.json")))
    files = run_json["data"]["files"]
    assert [f["key"] for f in files] == ["data.csv.path", "data.csv.test_path"], files
    for f, path in zip(files, [table, test_table]):
        assert f["path"] == os.path.abspath(path), f
        assert f["size"] == os.path.getsize(path), f
        assert f["sha256"] == sha256(path), f
        assert f["mtime_ns"] == os.stat(path).st_mtime_ns, f
    split = json.load(open(os.path.join(one, "split.json")))
    assert split["data_files"] == files, split["data_files"]
    for name in ("last.pt", "best.pt"):
        ck = torch.load(os.path.join(one, "checkpoints", name))
        assert ck["data"]["files"] == files, (name, ck["data"]["files"])

    # ---- item 6: test metrics of best.pt's weights, the last weights' beside them ----
    summary = json.load(open(os.path.join(one, "summary.json")))
    classes = run_json["data"]["class_names"]
    best_epoch = summary["best_epoch"]
    assert 0 < best_epoch < 40, summary  # the wide MLP on noisy labels overfits
    assert summary["test_weights"] == "best" and summary["test_epoch"] == best_epoch, summary
    best_loss, best_acc = test_metrics(os.path.join(one, "checkpoints", "best.pt"), test_table, classes)
    last_loss, last_acc = test_metrics(os.path.join(one, "checkpoints", "last.pt"), test_table, classes)
    assert abs(summary["test_loss"] - best_loss) < 1e-5, (summary["test_loss"], best_loss)
    assert abs(summary["test_accuracy"] - best_acc) < 1e-9, (summary["test_accuracy"], best_acc)
    assert abs(summary["last_test_loss"] - last_loss) < 1e-5, (summary["last_test_loss"], last_loss)
    assert abs(summary["last_test_accuracy"] - last_acc) < 1e-9
    assert abs(best_loss - last_loss) > 1e-6  # two different models, told apart
    assert "best.pt, epoch %d" % best_epoch in r.stderr and "last weights" in r.stderr, r.stderr[-800:]
    # A run whose last epoch is its best: "last", nothing beside it.
    short = os.path.join(work, "short")
    call(cli, "train", *common, "--set", "checkpoint.save_best=false", "--epochs", "2", "--out", short)
    s2 = json.load(open(os.path.join(short, "summary.json")))
    assert s2["test_weights"] == "last" and s2["test_epoch"] == 2 and "last_test_loss" not in s2, s2

    recipe = readme_recipe(readme, one)
    scope = {}
    exec(recipe, scope)  # the unchanged table: the validation rows, as the run split them
    assert scope["x"].shape == (len(split["val"]), 8) and scope["y"].shape == (len(split["val"]),)

    last = os.path.join(one, "checkpoints", "last.pt")
    # Touched only (same bytes, a new modification time): no change.
    os.utime(table, ns=(os.stat(table).st_atime_ns, os.stat(table).st_mtime_ns + 5_000_000_000))
    r = call(cli, "evaluate", last)
    assert "warning" not in r.stderr, r.stderr

    # Reordered rows: same size, other bytes. Refused everywhere, naming the file.
    original = open(table, "rb").read()
    write_table(table, rows[::-1])
    assert os.path.getsize(table) == len(original) and sha256(table) != files[0]["sha256"]
    for args in (["evaluate", last], ["evaluate", last, "--json"],
                 ["train", "--resume", last, "--epochs", "45", "--out", os.path.join(work, "resumed")],
                 ["train", "--replay", one, "--out", os.path.join(work, "replayed")]):
        r = call(cli, *args, code=2)
        assert os.path.abspath(table) in r.stderr and "--allow-changed-data" in r.stderr, (args, r.stderr)
        assert "changed since" in r.stderr, r.stderr
    try:
        exec(recipe, {})
        sys.exit("README's recipe read a reordered table without a word")
    except AssertionError as e:
        assert os.path.abspath(table) in str(e), e
    # nothing was written for the refused runs (their --out claimed, then released)
    for d in ("resumed", "replayed"):
        p = os.path.join(work, d)
        assert not os.path.exists(p) or not os.listdir(p), os.listdir(p)
    # ... and go on when told, with the change said and recorded.
    r = call(cli, "evaluate", last, "--allow-changed-data", "--json")
    assert "warning: data:" in r.stderr and os.path.abspath(table) in r.stderr, r.stderr
    assert json.loads(r.stdout)["data_changes"], r.stdout[:300]
    replayed = os.path.join(work, "replayed-anyway")
    r = call(cli, "train", "--replay", one, "--allow-changed-data", "--out", replayed)
    events = [json.loads(l) for l in open(os.path.join(replayed, "events.jsonl"))]
    changed = [e for e in events if e["kind"] == "data_warning" and e.get("what") == "data_changed"]
    assert len(changed) == 1 and os.path.abspath(table) in changed[0]["message"], changed
    assert "data_changed" in r.stderr or "changed since" in r.stderr, r.stderr[-1500:]
    # The original bytes back: the resume goes on as before.
    open(table, "wb").write(original)
    resumed = os.path.join(work, "resumed-ok")
    call(cli, "train", "--resume", last, "--epochs", "42", "--out", resumed)
    events = [json.loads(l) for l in open(os.path.join(resumed, "events.jsonl"))]
    assert not [e for e in events if e.get("what") == "data_changed"], events

    # ---- an image folder: its listing key; one image more is a change ----
    root = os.path.join(work, "shapes")
    for c, name in enumerate(["dark", "light"]):
        os.makedirs(os.path.join(root, name))
        for i in range(8):
            write_png(os.path.join(root, name, "%02d.png" % i),
                      np.full((4, 4), 40 + 150 * c + i, dtype=np.uint8))
    img_run = os.path.join(work, "images")
    env_args = ["--set", "data.source=image-folder", "--set", "data.image_folder.path=" + root,
                "--set", "training.num_threads=1"]
    call(cli, "train", *env_args, "--epochs", "1", "--out", img_run)
    f = json.load(open(os.path.join(img_run, "run.json")))["data"]["files"]
    assert len(f) == 1 and f[0]["key"] == "data.image_folder.path" and f[0]["size"] == 16, f
    assert f[0]["path"] == os.path.abspath(root) and f[0]["sha256"].startswith("listing:"), f
    img_last = os.path.join(img_run, "checkpoints", "last.pt")
    call(cli, "evaluate", img_last)
    write_png(os.path.join(root, "light", "99.png"), np.full((4, 4), 200, dtype=np.uint8))
    r = call(cli, "evaluate", img_last, code=2)
    assert os.path.abspath(root) in r.stderr and "16 images" in r.stderr and "17 images" in r.stderr, r.stderr
    print("data pinning: fingerprints, refusals and best-weights test metrics as expected")


if __name__ == "__main__":
    main()
