#!/usr/bin/python3
"""model.kind "cnn" against Python (issue 23): README's nn.Sequential loads a trained checkpoint.

Trains the fashion-mnist-cnn preset briefly (1 epoch on 3,000 images) with `trainscope-cli`,
runs the Python block of README.md's "Your own model" section (build_cnn, load_trainscope_cnn:
strict load_state_dict), and recomputes the validation loss with torch 1.13 on the samples of
split.json, preprocessed as the checkpoint records; it must equal `trainscope-cli evaluate` and
the epoch's val_loss in metrics.csv to 1e-5. `train --dry-run` reports the layer shapes
Python's module gives, and refuses a CNN that does not fit the data, naming both shapes.

usage: cnn_python.py CLI README WORKDIR
       cnn_python.py --accuracy CLI WORKDIR   the preset as shipped (2 epochs on all 48,000
                                              images): validation accuracy >= 0.90
"""
import csv
import gzip
import json
import os
import re
import shutil
import subprocess
import sys

import numpy as np
import torch
import torch.nn.functional as F


def run(cli, *args):
    r = subprocess.run([cli] + list(args), capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("%s %s failed (exit %d):\n%s" % (cli, " ".join(args), r.returncode, r.stderr))
    return r.stdout


def readme_block(readme):
    """The python block of README.md that starts with the CNN's comment line."""
    text = open(readme, encoding="utf-8").read()
    for block in re.findall(r"```python\n(.*?)```", text, re.S):
        if block.startswith('# TrainScope\'s model.kind "cnn" in Python'):
            return block
    sys.exit("README.md has no python block for model.kind cnn")


def idx(path):
    with gzip.open(path) as f:
        d = f.read()
    dims = [int.from_bytes(d[4 + 4 * i:8 + 4 * i], "big") for i in range(d[3])]
    return np.frombuffer(d, dtype=np.uint8, offset=4 + 4 * d[3]).reshape(dims)


def dry_run_checks(cli, namespace):
    """train --dry-run: every layer's batch output shape equals Python's for README's module;
    a conv stack too deep for 28x28 and a CNN for a table are refused naming the shapes."""
    r = json.loads(run(cli, "train", "--preset", "fashion-mnist-cnn", "--dry-run", "--json",
                       "--set", "data.limit=600"))
    cfg = {"activation": "relu", "dropout": 0.0,
           "cnn": {"channels": [32, 64], "kernel_size": 3, "stride": 1, "padding": 1,
                   "batch_norm": True, "pool": "max", "pool_size": 2, "hidden": []}}
    model = namespace["build_cnn"](cfg, [1, 28, 28], 10, unflatten=(1, 28, 28)).eval()
    h = torch.zeros(r["x"]["shape"])
    assert r["x"]["dtype"] == "float32" and r["y"]["dtype"] == "int64", r
    assert len(r["layers"]) == len(model), (len(r["layers"]), len(model))
    with torch.no_grad():
        for layer, (name, module) in zip(r["layers"], model.named_children()):
            h = module(h)
            params = sum(p.numel() for p in module.parameters())
            assert layer["name"] == name and layer["output_shape"] == list(h.shape), (layer, list(h.shape))
            assert layer["trainable_parameters"] == params, (layer, params)
    assert r["output"]["shape"] == [r["x"]["shape"][0], 10]
    assert r["trainable_parameters"] == sum(p.numel() for p in model.parameters())
    for args, says in (
            (["--preset", "fashion-mnist-cnn", "--set", "model.cnn.channels=[8,8,8,8,8]"],
             ["model.cnn.channels", "1x28x28", "block 5 of 5"]),
            (["--preset", "moons", "--set", "model.kind=cnn"], ["model.kind", "[2]", "mlp"])):
        p = subprocess.run([cli, "train", "--dry-run"] + args + ["--set", "data.limit=600"],
                           capture_output=True, text=True)
        assert p.returncode == 2 and all(w in p.stderr for w in says), (args, p.returncode, p.stderr)
    print("train --dry-run: %d layers as Python's, wrong shapes refused" % len(r["layers"]))


def npz_float_cases(cli, work, namespace):
    """Float arrays [N, C, H, W] and [N, H, W] (no image_shape recorded, standardised per
    feature): README's loader builds the same module and gives evaluate's predictions and loss."""
    rng = np.random.default_rng(5)
    for name, shape in (("chw", (3, 8, 8)), ("hw", (8, 8))):
        x = rng.normal(size=(160,) + shape).astype(np.float32)
        y = (x.reshape(160, -1)[:, :8].sum(1) > 0).astype(np.int64)
        path = os.path.join(work, name + ".npz")
        np.savez(path, x=x, y=y)
        run_dir = os.path.join(work, "npz-" + name)
        run(cli, "train", "--set", "data.source=npy", "--set", "data.npy.path=" + path,
            "--set", "model.kind=cnn", "--set", "model.cnn.channels=[4]", "--set", "training.epochs=2",
            "--set", "data.val_fraction=0.25", "--set", "training.num_threads=1", "--out", run_dir)
        ckpt = os.path.join(run_dir, "checkpoints", "last.pt")
        model, pre = namespace["load_trainscope_cnn"](ckpt)
        val = json.load(open(os.path.join(run_dir, "split.json")))["val"]
        assert pre["standardize"] == "per_feature", pre
        xv = torch.tensor(x[val]).reshape(len(val), -1) / pre["pixel_scale"]
        xv = (xv - torch.tensor(pre["mean"], dtype=torch.float32)) / torch.tensor(pre["std"], dtype=torch.float32)
        with torch.no_grad():
            out = model(xv.reshape((len(val),) + shape))
        ev = json.loads(run(cli, "evaluate", ckpt, "--json"))
        loss = F.cross_entropy(out, torch.tensor(y[val])).item()
        assert ev["predicted_class"] == out.argmax(1).tolist(), name
        assert abs(ev["loss"] - loss) <= 1e-5 * max(1.0, loss), (name, ev["loss"], loss)
        print("float %s arrays: python %.9g, evaluate %.9g" % (name, loss, ev["loss"]))


def main(cli, readme, work):
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    run_dir = os.path.join(work, "cnn-run")
    run(cli, "train", "--preset", "fashion-mnist-cnn", "--epochs", "1", "--set", "data.limit=3000",
        "--set", "training.num_threads=1", "--out", run_dir)
    namespace = {}
    exec(readme_block(readme), namespace)
    dry_run_checks(cli, namespace)
    npz_float_cases(cli, work, namespace)
    ckpt_file = os.path.join(run_dir, "checkpoints", "last.pt")
    model, pre = namespace["load_trainscope_cnn"](ckpt_file)
    assert isinstance(model[1], torch.nn.Conv2d) and isinstance(model[2], torch.nn.BatchNorm2d)

    data_dir = json.load(open(os.path.join(run_dir, "run.json")))["data"].get("path") or \
        "/usr/share/datasets/fashion-mnist"
    images = idx(os.path.join(data_dir, "train-images-idx3-ubyte.gz"))
    labels = idx(os.path.join(data_dir, "train-labels-idx1-ubyte.gz"))
    val = json.load(open(os.path.join(run_dir, "split.json")))["val"]
    x = torch.tensor(images[val].reshape(len(val), -1), dtype=torch.float32) / pre["pixel_scale"]
    assert pre["standardize"] == "per_channel", pre
    x = (x - pre["mean"][0]) / pre["std"][0]
    y = torch.tensor(labels[val].astype(np.int64))
    with torch.no_grad():
        out = model(x)
    loss = F.cross_entropy(out, y).item()
    ev = json.loads(run(cli, "evaluate", ckpt_file, "--json"))
    assert ev["samples"] == len(val), (ev["samples"], len(val))
    assert ev["predicted_class"] == out.argmax(1).tolist(), "predictions differ"
    with open(os.path.join(run_dir, "metrics.csv")) as f:
        val_loss = float(list(csv.DictReader(f))[-1]["val_loss"])
    for name, v in (("evaluate", ev["loss"]), ("metrics.csv val_loss", val_loss)):
        assert abs(v - loss) <= 1e-5 * max(1.0, abs(loss)), (name, v, loss)
    print("fashion-mnist-cnn: python %.9g, evaluate %.9g, metrics.csv %.9g on %d samples"
          % (loss, ev["loss"], val_loss, len(val)))
    return 0


def accuracy(cli, work):
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    out = run(cli, "train", "--preset", "fashion-mnist-cnn", "--json", "--out", os.path.join(work, "run"))
    epochs = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    last = [e for e in epochs if e.get("type") != "summary"][-1]
    assert last["epoch"] == 2 and last["val_accuracy"] >= 0.90, last
    print("fashion-mnist-cnn: val_accuracy %.4f after %d epochs" % (last["val_accuracy"], last["epoch"]))
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--accuracy":
        sys.exit(accuracy(sys.argv[2], sys.argv[3]))
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    sys.exit(main(*sys.argv[1:]))
