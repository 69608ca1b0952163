#!/usr/bin/python3
"""`trainscope-cli evaluate --json --scores` against scikit-learn (issue 49 §1).

Three checkpoints are evaluated: fashion-mnist-mlp (10 classes, 3,000 images, 2 epochs), moons
(2 classes) and moons with 2 hidden units at lr 1, whose dead ReLUs give many samples equal
scores (ties, asserted present). For each, the --scores CSV
(index,label,score_0..score_{C-1}) gives the softmax probabilities; scikit-learn 1.2 (Debian's
python3-sklearn) computes from those same numbers, one class against the rest:
average_precision_score and roc_auc_score, and from the JSON's predicted classes
precision_recall_fscore_support(zero_division=0). Each of the JSON's per-class
precision, recall, f1, average_precision, roc_auc and support must equal scikit-learn's within
1e-6; the rows' probabilities sum to 1, their indices are the JSON's sample_index and their
labels the true classes of its confusion matrix. The fashion run's evaluation.json has one
entry per epoch, and its last epoch's numbers and precision-recall and ROC curves (thresholds
included) equal scikit-learn's on the scores of last.pt evaluated. Bad input: --scores into a directory, a missing
folder, a run folder's own file, a file of the user's, a regression checkpoint: exit 2 naming
--scores, nothing written.

usage: evaluate_metrics.py CLI WORKDIR
"""
import csv
import json
import os
import shutil
import subprocess
import sys

import numpy as np
from sklearn.metrics import (average_precision_score, precision_recall_curve,
                             precision_recall_fscore_support, roc_auc_score, roc_curve)


def run(cli, *args, expect=0, env=None):
    p = subprocess.run([cli, *args], capture_output=True, text=True,
                       env=None if env is None else dict(os.environ, **env))
    assert p.returncode == expect, "%s -> %d (expected %d):\n%s" % (args, p.returncode, expect, p.stderr[-2000:])
    return p


def check(cli, work, name, train_args):
    out = os.path.join(work, name)
    run(cli, "train", *train_args, "--out", out)
    scores_file = os.path.join(work, name + "-scores.csv")
    j = json.loads(run(cli, "evaluate", os.path.join(out, "checkpoints", "best.pt"), "--json",
                       "--scores", scores_file).stdout)
    with open(scores_file, newline="") as f:
        rows = list(csv.reader(f))
    k = len(j["classes"])
    assert rows[0] == ["index", "label"] + ["score_%d" % c for c in range(k)], rows[0]
    index = np.array([int(r[0]) for r in rows[1:]])
    label = np.array([int(r[1]) for r in rows[1:]])
    scores = np.array([[float(v) for v in r[2:]] for r in rows[1:]])
    assert len(label) == j["samples"]
    assert np.abs(scores.sum(1) - 1).max() < 1e-5
    if j["sample_index"] is not None:
        assert list(index) == j["sample_index"]
    pred = np.array(j["predicted_class"])
    confusion = np.zeros((k, k), dtype=np.int64)
    np.add.at(confusion, (label, pred), 1)
    assert confusion.tolist() == j["confusion"], "labels differ from the confusion matrix"
    p, r, f1, support = precision_recall_fscore_support(label, pred, labels=list(range(k)), zero_division=0)
    worst = 0.0
    for c, m in enumerate(j["classes"]):
        positive = label == c
        ap = average_precision_score(positive, scores[:, c])
        auc = roc_auc_score(positive, scores[:, c])
        for key, ref in (("precision", p[c]), ("recall", r[c]), ("f1", f1[c]),
                         ("average_precision", ap), ("roc_auc", auc)):
            d = abs(m[key] - ref)
            worst = max(worst, d)
            assert d <= 1e-6, "%s class %d %s: %r vs scikit-learn %r" % (name, c, key, m[key], ref)
        assert m["support"] == support[c]
    ties = len(label) - len(np.unique(scores[:, 0]))
    if name == "tied":
        assert ties >= 10, "the tied case has %d ties" % ties
    print("%-8s %d samples, %d classes, %d tied scores: largest difference from scikit-learn %.3g"
          % (name, len(label), k, ties, worst))
    return out


def evaluation_file(cli, work, run_dir, epochs):
    """The run's evaluation.json: one entry per epoch, and the last epoch's numbers and curves
    equal scikit-learn's on the final weights' scores (last.pt evaluated: the same forward
    passes as the run's last validation, so the same probabilities)."""
    ev = json.load(open(os.path.join(run_dir, "evaluation.json")))
    assert [e["epoch"] for e in ev["epochs"]] == list(range(1, epochs + 1)), ev["epochs"]
    assert ev["curves"]["epoch"] == epochs and not ev["curves"]["thinned"]
    scores_file = os.path.join(work, os.path.basename(run_dir) + "-last.csv")
    # one intra-op thread, as the run trained (training.num_threads 1): the same float sums
    run(cli, "evaluate", os.path.join(run_dir, "checkpoints", "last.pt"), "--scores", scores_file,
        env={"OMP_NUM_THREADS": "1"})
    with open(scores_file, newline="") as f:
        rows = list(csv.reader(f))[1:]
    label = np.array([int(r[1]) for r in rows])
    scores = np.array([[float(v) for v in r[2:]] for r in rows])
    pred = scores.argmax(1)
    k = len(ev["class_names"])
    p, r, f1, support = precision_recall_fscore_support(label, pred, labels=list(range(k)), zero_division=0)
    worst = 0.0
    for c in range(k):
        m, cur = ev["epochs"][-1]["classes"][c], ev["curves"]["classes"][c]
        positive = label == c
        for key, ref in (("precision", p[c]), ("recall", r[c]), ("f1", f1[c]),
                         ("average_precision", average_precision_score(positive, scores[:, c])),
                         ("roc_auc", roc_auc_score(positive, scores[:, c]))):
            worst = max(worst, abs(m[key] - ref))
            assert abs(m[key] - ref) <= 1e-12, (c, key, m[key], ref)
        assert m["support"] == support[c]
        prec, rec, thr = precision_recall_curve(positive, scores[:, c])
        fpr, tpr, rthr = roc_curve(positive, scores[:, c])
        for mine, ref in ((cur["pr"]["precision"], prec), (cur["pr"]["recall"], rec),
                          (cur["pr"]["thresholds"][:len(thr)], thr), (cur["roc"]["fpr"], fpr),
                          (cur["roc"]["tpr"], tpr), (cur["roc"]["thresholds"], rthr)):
            assert len(mine) == len(ref), (c, len(mine), len(ref))
            d = float(np.abs(np.array(mine, dtype=float) - ref).max())
            worst = max(worst, d)
            assert d <= 1e-12, (c, d)
    print("evaluation.json of %s: %d epochs; the last one's metrics and curves against scikit-learn: "
          "largest difference %.3g" % (os.path.basename(run_dir), epochs, worst))


def bad_input(cli, work, fashion_run):
    ck = os.path.join(fashion_run, "checkpoints", "best.pt")
    mine = os.path.join(work, "mine.csv")
    with open(mine, "w") as f:
        f.write("my,own,table\n")
    sine = os.path.join(work, "sine")
    run(cli, "train", "--preset", "overfit-sine", "--epochs", "2", "--out", sine)
    for args in (["--scores", work], ["--scores", os.path.join(work, "nowhere", "s.csv")],
                 ["--scores", os.path.join(fashion_run, "metrics.csv")], ["--scores", mine]):
        p = run(cli, "evaluate", ck, *args, expect=2)
        assert "--scores" in p.stderr, p.stderr
    p = run(cli, "evaluate", os.path.join(sine, "checkpoints", "best.pt"), "--scores",
            os.path.join(work, "sine.csv"), expect=2)
    assert "--scores" in p.stderr and "regression" in p.stderr, p.stderr
    assert open(mine).read() == "my,own,table\n"
    assert not os.path.exists(os.path.join(work, "sine.csv"))
    print("bad input: exit 2 naming --scores, nothing written")


def main(cli, work):
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    fashion = check(cli, work, "fashion", ["--preset", "fashion-mnist-mlp", "--epochs", "2",
                                           "--set", "data.limit=3000", "--set", "training.num_threads=1"])
    check(cli, work, "moons", ["--preset", "moons", "--epochs", "5"])
    # 2 hidden ReLU units at lr 1: dead units give many samples the same probabilities (ties,
    # which the curves take as one threshold; 57 of 200 here)
    check(cli, work, "tied", ["--preset", "moons", "--epochs", "5", "--set", "optimizer.lr=1.0",
                                     "--set", "model.hidden=[2]", "--set", "training.num_threads=1"])
    evaluation_file(cli, work, fashion, 2)
    bad_input(cli, work, fashion)
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(*sys.argv[1:]))
