#!/usr/bin/python3
"""Regression has its metrics outside the live dashboard (issue 43, item 5).

A regression CSV (two informative features, noise, data.target_scale 0.01 so that units
matter) trains 4 epochs; then
- metrics.csv's val_r2, val_mae, val_rmse of the last epoch equal numpy's recomputation from
  last.pt's weights on split.json's validation rows with the recorded preprocessing (R^2 as
  sklearn.metrics.r2_score: 1 - SSE / SST; MAE and RMSE in the table's units), to 1e-6;
- `evaluate --json` gives the same three numbers, and prints them without --json;
- `runs --json` carries best_val_r2 and the final values, and summary.json's final_metrics;
- `report` draws best.pt's predictions against the true values, titled with the R^2 and MAE
  numpy computes for best.pt, and says why when the data has moved away;
- a classification run leaves the three columns empty.

usage: regression_metrics.py CLI WORKDIR
"""
import base64
import csv
import json
import os
import re
import shutil
import subprocess
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from own_data_python import mlp_forward  # noqa: E402


def call(cli, *args):
    r = subprocess.run([cli] + list(args), capture_output=True, text=True, timeout=300)
    if r.returncode != 0:
        sys.exit("%s %s failed (exit %d):\n%s" % (cli, " ".join(args), r.returncode, r.stderr))
    return r


def close(a, b, what, tol=1e-6):
    assert abs(a - b) <= tol * max(1.0, abs(b)), (what, a, b)


def main():
    cli, work = sys.argv[1], sys.argv[2]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    rng = np.random.default_rng(5)
    n = 400
    x = rng.normal(size=(n, 3))
    y = 300 * x[:, 0] - 200 * x[:, 1] + 50 * rng.normal(size=n) + 1000  # units: hundreds
    table = os.path.join(work, "houses.csv")
    with open(table, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["a", "b", "c", "price"])
        for xi, yi in zip(x, y):
            w.writerow(["%.6f" % v for v in xi] + ["%.4f" % yi])
    run_dir = os.path.join(work, "reg")
    r = call(cli, "train", "--set", "data.source=csv", "--set", "data.csv.path=" + table,
             "--set", "data.csv.target=price", "--set", "data.target_scale=0.01",
             "--set", "training.num_threads=1", "--set", "training.seed=2",
             "--set", "optimizer.lr=0.01", "--epochs", "4", "--out", run_dir)
    assert "val_r2" in r.stderr and "val_rmse" in r.stderr, r.stderr[-1500:]

    with open(os.path.join(run_dir, "metrics.csv")) as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 4 and all(row["val_r2"] and row["val_mae"] and row["val_rmse"] for row in rows)
    last = {k: float(rows[-1][k]) for k in ("val_r2", "val_mae", "val_rmse", "val_loss")}

    # numpy's recomputation from last.pt on the validation rows of split.json
    def numpy_metrics(checkpoint):
        ck = torch.load(os.path.join(run_dir, "checkpoints", checkpoint))
        pre = ck["data"]["preprocessing"]
        assert pre["target_scale"] == 0.01, pre
        split = json.load(open(os.path.join(run_dir, "split.json")))
        with open(table, newline="") as f:
            data = list(csv.DictReader(f))
        val = [data[i] for i in split["val"]]
        xv = torch.tensor([[float(r[c]) for c in ("a", "b", "c")] for r in val], dtype=torch.float64)
        xv = (xv - torch.tensor(pre["mean"], dtype=torch.float64)) / torch.tensor(pre["std"], dtype=torch.float64)
        state = {k: v.double() for k, v in ck["model_state_dict"].items()}
        config = json.load(open(os.path.join(run_dir, "config.json")))
        pred = mlp_forward(state, config["model"]["activation"], xv).numpy().reshape(-1) / pre["target_scale"]
        truth = np.array([float(r["price"]) for r in val])
        err = pred - truth
        return (1 - (err ** 2).sum() / ((truth - truth.mean()) ** 2).sum(), np.abs(err).mean(),
                np.sqrt((err ** 2).mean()))
    r2, mae, rmse = numpy_metrics("last.pt")
    close(last["val_r2"], r2, "val_r2", 1e-5)
    close(last["val_mae"], mae, "val_mae", 1e-5)
    close(last["val_rmse"], rmse, "val_rmse", 1e-5)
    # the loss is in the scaled units: MSE of scaled targets = (RMSE * scale)^2
    close(last["val_loss"], (rmse * 0.01) ** 2, "val_loss vs rmse", 1e-4)
    assert 0.5 < r2 < 1, r2  # a learner, not a constant: the check has teeth

    ev = json.loads(call(cli, "evaluate", os.path.join(run_dir, "checkpoints", "last.pt"), "--json").stdout)
    for key in ("r2", "mae", "rmse"):
        close(ev[key], last["val_" + key], "evaluate " + key, 1e-5)
    text = call(cli, "evaluate", os.path.join(run_dir, "checkpoints", "last.pt")).stdout
    assert "R^2" in text and "RMSE" in text and "MAE" in text, text

    summary = json.load(open(os.path.join(run_dir, "summary.json")))
    close(summary["final_metrics"]["val_r2"], last["val_r2"], "summary val_r2", 1e-9)
    table_rows = json.loads(call(cli, "runs", work, "--json").stdout)
    row = [t for t in table_rows if t["dir"] == os.path.abspath(run_dir)][0]
    close(row["final_val_rmse"], last["val_rmse"], "runs final_val_rmse", 1e-9)
    close(row["best_val_r2"], max(float(x["val_r2"]) for x in rows), "runs best_val_r2", 1e-9)

    # the report's plot of predicted against true values: best.pt's, its R^2 in the title
    report = os.path.join(work, "reg-report.html")
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    r = subprocess.run([cli, "report", run_dir, "-o", report], capture_output=True, text=True,
                       timeout=300, env=env)
    assert r.returncode == 0, r.stderr
    html = open(report, encoding="utf-8").read()
    m = re.search(r'alt="Predicted against true values \(validation split, best\.pt\): R² ([^,]+), '
                  r'MAE ([^,]+), RMSE ([^"]+)"', html)
    assert m, html[:3000]
    best_r2, best_mae, best_rmse = numpy_metrics("best.pt")
    assert m.group(1) == "%.4g" % best_r2 and m.group(2) == "%.4g" % best_mae, (m.groups(), best_r2, best_mae)
    png = base64.b64decode(re.search(r'<img src="data:image/png;base64,([^"]+)"[^>]*alt="Predicted',
                                     html).group(1))
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and int.from_bytes(png[16:20], "big") >= 600, png[:24]
    # the data moved away: the report is still written, and says why the plot is missing
    os.rename(table, table + ".moved")
    r = subprocess.run([cli, "report", run_dir, "-o", report], capture_output=True, text=True,
                       timeout=300, env=env)
    assert r.returncode == 0, r.stderr
    html = open(report, encoding="utf-8").read()
    assert "No plot of predicted against true values" in html and "houses.csv" in html, html[-3000:]
    os.rename(table + ".moved", table)

    # classification: the regression columns stay empty
    moons = os.path.join(work, "moons")
    call(cli, "train", "--preset", "moons", "--epochs", "1", "--out", moons)
    with open(os.path.join(moons, "metrics.csv")) as f:
        m = list(csv.DictReader(f))
    assert m[0]["val_r2"] == "" and m[0]["val_mae"] == "" and m[0]["val_rmse"] == "", m[0]
    print("regression metrics: metrics.csv, evaluate, runs and summary agree with numpy")


if __name__ == "__main__":
    main()
