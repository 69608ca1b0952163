#!/usr/bin/python3
"""Own data end to end, checked against Python (issue 22's "done when").

For each format it writes the data with Python, trains with `trainscope-cli train`, then
recomputes the validation loss and predictions of the checkpoint with torch 1.13 from
torch.load, the preprocessing recorded in run.json and the validation indices of split.json,
and compares them with `trainscope-cli evaluate --json` (loss to 1e-6, predictions equal).

usage: own_data_python.py CLI WORKDIR
"""
import csv
import json
import os
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


def mlp_forward(state, activation, x):
    """The MLP of model.kind mlp: Linear layers named '<i>.weight' with the activation between."""
    idx = sorted({int(k.split(".")[0]) for k in state if k.endswith(".weight")})
    act = {"relu": torch.relu, "tanh": torch.tanh, "gelu": F.gelu, "sigmoid": torch.sigmoid}[activation]
    for n, i in enumerate(idx):
        x = x @ state["%d.weight" % i].T + state["%d.bias" % i]
        if n + 1 < len(idx):
            x = act(x)
    return x


def check(cli, run_dir, x_val, y_val, task):
    """x_val: raw float64 inputs of the validation samples in split order; y_val: targets."""
    info = json.load(open(os.path.join(run_dir, "run.json")))["data"]
    config = json.load(open(os.path.join(run_dir, "config.json")))
    ckpt_file = os.path.join(run_dir, "checkpoints", "last.pt")
    ck = torch.load(ckpt_file)
    pre = ck["data"]["preprocessing"]
    assert pre == info["preprocessing"] or abs(pre["mean"][0] - info["preprocessing"]["mean"][0]) < 1e-12
    x = torch.tensor(x_val, dtype=torch.float32).reshape(len(x_val), -1) / pre["pixel_scale"]
    if pre["standardize"] == "per_feature":
        x = (x - torch.tensor(pre["mean"], dtype=torch.float32)) / torch.tensor(pre["std"], dtype=torch.float32)
    elif pre["standardize"] == "per_channel":
        x = (x - pre["mean"][0]) / pre["std"][0]
    with torch.no_grad():
        out = mlp_forward(ck["model_state_dict"], config["model"]["activation"], x)
    ev = json.loads(run(cli, "evaluate", ckpt_file, "--json"))
    if task == "classification":
        y = torch.tensor(y_val, dtype=torch.long)
        loss = F.cross_entropy(out, y).item()
        pred = out.argmax(1).tolist()
        assert ev["predicted_class"] == pred, "predictions differ"
        assert ev["classes"][0]["name"] == info["class_names"][0]
    else:
        y = torch.tensor(y_val, dtype=torch.float32).reshape(len(y_val), -1) * pre["target_scale"]
        loss = F.mse_loss(out, y).item()
        assert np.allclose(ev["predicted_value"], out.reshape(-1).tolist(), rtol=1e-5, atol=1e-6)
    assert abs(ev["loss"] - loss) <= 1e-6 * max(1.0, abs(loss)), (ev["loss"], loss)
    assert ev["samples"] == len(y_val)
    print("%s: evaluate loss %.9g, python %.9g, %d samples" % (run_dir, ev["loss"], loss, len(y_val)))


def csv_case(cli, work):
    rng = np.random.default_rng(1)
    names = ["setosa", "versicolor", "virginica"]
    path = os.path.join(work, "flowers.csv")
    rows = []
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["petal length", "petal width", "colour", "species"])
        for i in range(240):
            c = int(rng.integers(3))
            a, b = rng.normal(c, 0.6, 2)
            colour = ["red", "blue", "white"][int(rng.integers(3))]
            w.writerow(["%.5f" % a, "%.5f" % b, colour, names[c]])
            rows.append(("%.5f" % a, "%.5f" % b, colour, names[c]))
    run_dir = os.path.join(work, "csv-run")
    run(cli, "train", "--set", "data.source=csv", "--set", "data.csv.path=" + path,
        "--set", "data.csv.target=species", "--set", "data.csv.categorical=one_hot",
        "--set", "training.epochs=4", "--set", "data.val_fraction=0.25", "--set", "name=flowers",
        "--out", run_dir)
    info = json.load(open(os.path.join(run_dir, "run.json")))["data"]
    assert info["class_names"] == names, info["class_names"]
    assert info["outputs"] == 3 and info["task"] == "classification"
    assert info["feature_names"] == ["petal length", "petal width", "colour=blue", "colour=red",
                                     "colour=white"], info["feature_names"]
    split = json.load(open(os.path.join(run_dir, "split.json")))
    assert sorted(split["train"] + split["val"]) == list(range(240))
    feats = []
    for r in (rows[i] for i in split["val"]):
        feats.append([float(r[0]), float(r[1])] + [1.0 if r[2] == c else 0.0 for c in ("blue", "red", "white")])
    labels = [names.index(rows[i][3]) for i in split["val"]]
    check(cli, run_dir, feats, labels, "classification")


def main():
    cli, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    csv_case(cli, work)
    print("own data: every case equals Python")


if __name__ == "__main__":
    main()
