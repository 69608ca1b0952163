#!/usr/bin/python3
"""TensorBoard event files (issue 24), read by a reader written here from TensorFlow's record
format and event.proto, independent of TrainScope's writer:

- every record's length and data CRC-32C (masked) check, computed bit by bit;
- the first event has file_version "brain.Event:2";
- per step: train/loss, grad_norm, grad_norm_clipped and lr equal steps.csv's columns as float32;
  per epoch: val/loss, train/epoch_loss and val/accuracy equal metrics.csv's at the epoch's step;
- histograms (issue 49 §4): weights/<name> at the last step equal numpy's histogram of last.pt;
- a resumed run's file has the source's first steps too (the run's curves start at step 1);
- logging.tensorboard=false writes no event file;
- README's pandas block ("# All runs' metrics in one DataFrame") runs on the runs folder and gives
  one row per run and epoch.

usage: tensorboard_python.py CLI README WORKDIR
"""
import csv
import glob
import json
import math
import os
import re
import shutil
import struct
import subprocess
import sys

import numpy as np


def run(cli, *args, code=0):
    r = subprocess.run([cli] + list(args), capture_output=True, text=True)
    if code is not None and r.returncode != code:
        sys.exit("%s %s: exit %d, expected %d:\n%s%s" % (cli, " ".join(args), r.returncode, code,
                                                      r.stdout[-3000:], r.stderr))
    return r


def crc32c(data):
    crc = 0xFFFFFFFF
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 if crc & 1 else 0)
    return crc ^ 0xFFFFFFFF


def masked(data):
    c = crc32c(data)
    return (((c >> 15) | (c << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def varint(buf, i):
    shift = value = 0
    while True:
        b = buf[i]
        i += 1
        value |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return value, i


def fields(buf):
    """(field number, wire type, value) of a protobuf message."""
    i = 0
    out = []
    while i < len(buf):
        key, i = varint(buf, i)
        num, wire = key >> 3, key & 7
        if wire == 0:
            v, i = varint(buf, i)
        elif wire == 1:
            v = buf[i:i + 8]
            i += 8
        elif wire == 5:
            v = buf[i:i + 4]
            i += 4
        elif wire == 2:
            n, i = varint(buf, i)
            v = buf[i:i + n]
            i += n
        else:
            sys.exit("unexpected wire type %d" % wire)
        out.append((num, wire, v))
    return out


def read_events(path, plugins=None, histograms=None):
    """[(wall_time, step, file_version or None, {tag: value})] of one event file; plugin
    summaries (step, tag, (plugin name, content), (dtype, dims, float values)) go to `plugins`,
    histograms (step, tag, {min, max, num, sum, sum_squares, bucket_limit, bucket}) to
    `histograms`."""
    plugins = [] if plugins is None else plugins
    histograms = [] if histograms is None else histograms
    data = open(path, "rb").read()
    i = 0
    events = []
    while i < len(data):
        header = data[i:i + 8]
        (n,) = struct.unpack("<Q", header)
        (hcrc,) = struct.unpack("<I", data[i + 8:i + 12])
        assert hcrc == masked(header), "%s: length CRC wrong at byte %d" % (path, i)
        body = data[i + 12:i + 12 + n]
        (dcrc,) = struct.unpack("<I", data[i + 12 + n:i + 16 + n])
        assert dcrc == masked(body), "%s: data CRC wrong at byte %d" % (path, i)
        i += 16 + n
        wall, step, version, scalars = None, 0, None, {}
        for num, wire, v in fields(body):
            if num == 1:
                (wall,) = struct.unpack("<d", v)
            elif num == 2:
                step = v
            elif num == 3:
                version = v.decode()
            elif num == 5:
                for snum, _, value in fields(v):
                    assert snum == 1
                    tag, simple, plugin, tensor, histo = None, None, None, None, None
                    for vnum, _, x in fields(value):
                        if vnum == 1:
                            tag = x.decode()
                        elif vnum == 2:
                            (simple,) = struct.unpack("<f", x)
                        elif vnum == 9:  # SummaryMetadata {PluginData plugin_data = 1}
                            for mnum, _, md in fields(x):
                                if mnum == 1:
                                    pd = dict((n, d) for n, _, d in fields(md))
                                    plugin = (pd[1].decode(), pd.get(2, b""))
                        elif vnum == 5:  # HistogramProto {min 1, max 2, num 3, sum 4,
                            # sum_squares 5, bucket_limit 6 (packed), bucket 7 (packed)}
                            histo = {}
                            for hnum, _, hv in fields(x):
                                key = ["min", "max", "num", "sum", "sum_squares",
                                       "bucket_limit", "bucket"][hnum - 1]
                                histo[key] = (struct.unpack("<d", hv)[0] if hnum <= 5 else
                                              list(struct.unpack("<%dd" % (len(hv) // 8), hv)))
                        elif vnum == 8:  # TensorProto {dtype 1, tensor_shape 2, float_val 5}
                            t = dict((n, d) for n, _, d in fields(x))
                            dims = [dict((n, d) for n, _, d in fields(dim))[1]
                                    for n, _, dim in fields(t.get(2, b"")) if n == 2]
                            packed = t.get(5, b"")
                            flat = struct.unpack("<%df" % (len(packed) // 4), packed)
                            tensor = (t[1], dims, flat)
                    if histo is not None:
                        histograms.append((step, tag, histo))
                    elif plugin is None:
                        scalars[tag] = simple
                    else:
                        plugins.append((step, tag, plugin, tensor))
        events.append((wall, step, version, scalars))
    return events


def f32(x):
    return struct.unpack("<f", struct.pack("<f", float(x)))[0]


def same(a, b):
    return (math.isnan(a) and math.isnan(b)) or a == b


def check_run(run_dir, expect_from_step=1):
    files = glob.glob(os.path.join(run_dir, "events.out.tfevents.*"))
    assert len(files) == 1, "%s: event files %s" % (run_dir, files)
    events = read_events(files[0])
    assert events[0][2] == "brain.Event:2", events[0]
    assert all(e[0] is not None and e[0] > 1.6e9 for e in events), "wall times"
    per_tag = {}
    for _, step, _, scalars in events[1:]:
        for tag, value in scalars.items():
            per_tag.setdefault(tag, {})[step] = value
    steps = list(csv.DictReader(open(os.path.join(run_dir, "steps.csv"))))
    assert int(steps[0]["step"]) == expect_from_step, steps[0]
    for row in steps:
        s = int(row["step"])
        for tag, col in [("train/loss", "loss"), ("grad_norm", "grad_norm"),
                         ("grad_norm_clipped", "grad_norm_clipped"), ("lr", "lr")]:
            got = per_tag[tag][s]
            assert same(got, f32(row[col])), "%s step %d %s: %r vs steps.csv %r" % (
                run_dir, s, tag, got, row[col])
    assert sorted(per_tag["train/loss"]) == [int(r["step"]) for r in steps]
    metrics = list(csv.DictReader(open(os.path.join(run_dir, "metrics.csv"))))
    for row in metrics:
        s = int(row["step"])
        for tag, col in [("val/loss", "val_loss"), ("train/epoch_loss", "train_loss"),
                         ("val/accuracy", "val_accuracy")]:
            if row.get(col, "") == "":
                assert s not in per_tag.get(tag, {}), (tag, s)
                continue
            assert same(per_tag[tag][s], f32(row[col])), "%s epoch step %d %s" % (run_dir, s, tag)
        assert per_tag["epoch"][s] == int(row["epoch"])
    return len(steps), len(metrics)


def pr_curves_tensor(positive, scores, num_thresholds):
    """TensorBoard's pr_curves tensor [6, T] (tensorboard/plugins/pr_curve/summary.py
    compute_curve, numpy): TP, FP, TN, FN, precision, recall at thresholds k / (T - 1)."""
    buckets = np.floor(scores * (num_thresholds - 1)).astype(np.int32)
    tp_b = np.histogram(buckets, bins=num_thresholds, range=(0, num_thresholds - 1),
                        weights=positive.astype(float))[0]
    fp_b = np.histogram(buckets, bins=num_thresholds, range=(0, num_thresholds - 1),
                        weights=1.0 - positive)[0]
    tp = np.cumsum(tp_b[::-1])[::-1]
    fp = np.cumsum(fp_b[::-1])[::-1]
    tn = fp[0] - fp
    fn = tp[0] - tp
    precision = tp / np.maximum(1e-7, tp + fp)
    recall = tp / np.maximum(1e-7, tp + fn)
    return np.stack((tp, fp, tn, fn, precision, recall)).astype(np.float32)


def check_pr_curves(cli, work, run_dir):
    """The last PR curves in the event file (pr_curves plugin, one tag per class) equal
    TensorBoard's own computation on `evaluate --scores` of the run's final weights (the run
    trained on one intra-op thread, evaluated likewise: the same probabilities)."""
    plugins = []
    read_events(glob.glob(os.path.join(run_dir, "events.out.tfevents.*"))[0], plugins)
    names = json.load(open(os.path.join(run_dir, "evaluation.json")))["class_names"]
    scores_file = os.path.join(work, "pr-scores.csv")
    env = dict(os.environ, OMP_NUM_THREADS="1")
    r = subprocess.run([cli, "evaluate", os.path.join(run_dir, "checkpoints", "last.pt"),
                        "--scores", scores_file], capture_output=True, text=True, env=env)
    assert r.returncode == 0, r.stderr
    rows = list(csv.reader(open(scores_file)))[1:]
    label = np.array([int(x[1]) for x in rows])
    scores = np.array([[float(v) for v in x[2:]] for x in rows])
    last = {}
    for step, tag, plugin, tensor in plugins:
        if plugin[0] == "pr_curves":
            last[tag] = (step, plugin[1], tensor)
    assert sorted(last) == sorted("val/pr_curve/" + n for n in names), sorted(last)
    worst = 0.0
    for c, name in enumerate(names):
        step, content, (dtype, dims, flat) = last["val/pr_curve/" + name]
        t = dims[1]
        # PrCurvePluginData {version 0, num_thresholds T}: fields 1 and 2
        assert dict((n, v) for n, _, v in fields(content)).get(2) == t and dtype == 1, content
        assert dims == [6, t] and len(flat) == 6 * t, dims
        ref = pr_curves_tensor(label == c, scores[:, c].astype(np.float32).astype(np.float64), t)
        got = np.array(flat, dtype=np.float32).reshape(6, t)
        d = float(np.abs(got - ref).max())
        worst = max(worst, d)
        assert d <= 1e-6, (name, d, np.argwhere(np.abs(got - ref) > 1e-6)[:5])
    steps = list(csv.DictReader(open(os.path.join(run_dir, "metrics.csv"))))
    assert step == int(steps[-1]["step"]), (step, steps[-1]["step"])
    print("pr_curves of %s: %d classes x %d thresholds, largest difference from TensorBoard's "
          "computation %.3g" % (os.path.basename(run_dir), len(names), t, worst))


def check_histograms(run_dir):
    """The weights/<name> histograms at the run's last step (a distributions reading) equal
    numpy.histogram(w, 30, range=(w.min(), w.max())) of last.pt's weights, with their count,
    sum and sum of squares; every parameter has a gradients/ histogram of as many values; the
    activation layers (ReLU of the MLP) have theirs."""
    import torch
    histograms = []
    read_events(glob.glob(os.path.join(run_dir, "events.out.tfevents.*"))[0], None, histograms)
    ckpt = torch.load(os.path.join(run_dir, "checkpoints", "last.pt"), map_location="cpu")
    last_step = ckpt["global_step"]
    at_last = {tag: h for step, tag, h in histograms if step == last_step}
    sd = ckpt["model_state_dict"]
    worst = 0.0
    for name, w in sd.items():
        if "running_" in name or "num_batches" in name:
            continue
        h = at_last["weights/" + name]
        v = w.numpy().astype(np.float64).ravel()
        counts, edges = np.histogram(v, 30, range=(float(v.min()), float(v.max())))
        assert h["min"] == v.min() and h["max"] == v.max() and h["num"] == len(v), (name, h["num"])
        assert h["bucket"] == counts.tolist(), (name, h["bucket"], counts.tolist())
        assert np.allclose(h["bucket_limit"], edges[1:], rtol=0, atol=0), name
        worst = max(worst, abs(h["sum"] - v.sum()), abs(h["sum_squares"] - (v * v).sum()))
        g = at_last["gradients/" + name]
        assert g["num"] == len(v) and sum(g["bucket"]) == len(v), (name, g["num"])
    assert worst < 1e-9, worst
    # one per activation layer of the MLP: Linear, activation, Linear, activation, Linear
    model = json.load(open(os.path.join(run_dir, "config.json")))["model"]
    kind = {"relu": "ReLU", "tanh": "Tanh", "gelu": "GELU", "sigmoid": "Sigmoid"}[model["activation"]]
    want = ["activations/%d %s" % (2 * i + 1, kind) for i in range(len(model["hidden"]))]
    acts = sorted(t for t in at_last if t.startswith("activations/"))
    assert acts == want, (acts, want)
    print("histograms of %s at step %d: %d tensors equal numpy's of last.pt (sums within %.2g); "
          "activations %s" % (os.path.basename(run_dir), last_step, len(sd), worst, acts))


def main():
    cli, readme, work = sys.argv[1:4]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    runs = os.path.join(work, "runs")
    base = ["--set", "data.n_samples=120", "--out"]
    run(cli, "train", "--preset", "overfit-sine", "--epochs", "4", *base, os.path.join(runs, "sine"))
    n_steps, n_epochs = check_run(os.path.join(runs, "sine"))
    assert n_epochs == 4 and n_steps > 4, (n_steps, n_epochs)
    # classification: accuracies appear
    run(cli, "train", "--preset", "moons", "--epochs", "3", "--set", "data.n_samples=300",
        "--set", "training.num_threads=1", "--set", "training.distributions_every=4",
        "--out", os.path.join(runs, "moons"))
    check_run(os.path.join(runs, "moons"))
    check_pr_curves(cli, work, os.path.join(runs, "moons"))
    check_histograms(os.path.join(runs, "moons"))
    # a huge learning rate: the run ends non-finite (exit 3) and its inf/NaN are in the file as
    # in steps.csv
    run(cli, "train", "--preset", "overfit-sine", "--epochs", "3", "--set", "optimizer.name=sgd",
        "--set", "optimizer.lr=1000", *base, os.path.join(runs, "huge-lr"), code=3)
    check_run(os.path.join(runs, "huge-lr"))
    # resume: the resumed run's event file starts at step 1 as its steps.csv does
    ckpt = os.path.join(runs, "sine", "checkpoints", "last.pt")
    run(cli, "train", "--resume", ckpt, "--epochs", "6", "--out", os.path.join(runs, "resumed"))
    n_steps2, n_epochs2 = check_run(os.path.join(runs, "resumed"))
    assert n_epochs2 == 6 and n_steps2 > n_steps, (n_steps2, n_epochs2)
    # off
    run(cli, "train", "--preset", "overfit-sine", "--epochs", "1", "--set",
        "logging.tensorboard=false", *base, os.path.join(runs, "off"))
    assert not glob.glob(os.path.join(runs, "off", "events.out.tfevents.*"))
    # a run folder with an event file is still ours: --overwrite replaces it
    run(cli, "train", "--preset", "overfit-sine", "--epochs", "1", "--overwrite", *base,
        os.path.join(runs, "sine"))
    check_run(os.path.join(runs, "sine"))

    # README's pandas block, as a user would paste it
    text = open(readme).read()
    m = re.search(r"```python\n(# All runs' metrics in one DataFrame.*?)```", text, re.S)
    assert m, "README has no pandas block starting '# All runs' metrics in one DataFrame'"
    env = {}
    cwd = os.getcwd()
    os.chdir(work)
    try:
        exec(m.group(1), env)
    finally:
        os.chdir(cwd)
    df = env["df"]
    want = sum(len(list(csv.DictReader(open(p)))) for p in glob.glob(os.path.join(runs, "*", "metrics.csv")))
    assert len(df) == want, (len(df), want)
    assert {"run", "epoch", "val_loss"} <= set(df.columns), df.columns
    assert set(df["run"]) == {"sine", "moons", "huge-lr", "resumed", "off"}, set(df["run"])
    print("tensorboard_python: OK (%d steps, resumed %d)" % (n_steps, n_steps2))


if __name__ == "__main__":
    main()
