#!/usr/bin/python3
"""Augmentation and the prefetching loader (issue 48 §2), side by side in one run.

On the fashion-png preset (6,000 Fashion-MNIST PNGs in torchvision's ImageFolder layout, an MLP
784-128-10, batch 64, Adam, one intra-op thread), alternating ROUNDS times:
  plain      `trainscope-cli train`, no augmentation (data.workers auto: 0)
  augmented  the same with RandomCrop(28, padding=4) and RandomHorizontalFlip(0.5), 2 workers
  workers-0  the augmented run with the batches made on the training thread
  torchvision ImageFolder (grayscale) + ToTensor, the same two transforms and Normalize,
             DataLoader(batch_size=64, shuffle=True, num_workers=2), the same model, optimizer
             and thread count, in Debian's python3-torch / python3-torchvision
Each trains 3 epochs; the figure is the median over rounds of the mean training samples/s of
epochs 2-3 (TrainScope: metrics.csv samples_per_second; Python: the same count over the
training loop's wall time, DataLoader iteration included). Printed: the four rates and the
ratios augmented/plain (target >= 0.9), augmented/torchvision (target >= 1.5) and the mean
data_wait share of the augmented runs. Prints, does not assert.

usage: augment_bench.py CLI [--rounds 3] [--dir /tmp/trainscope-augment-bench]
"""
import argparse
import csv
import os
import shutil
import statistics
import subprocess
import sys
import time

EPOCHS = 3

PYTHON_REFERENCE = r"""
import sys, time, torch, torchvision
import torchvision.transforms as T
from torch import nn
root, epochs = sys.argv[1], int(sys.argv[2])
torch.set_num_threads(1)
torch.manual_seed(42)
tf = T.Compose([T.Grayscale(), T.ToTensor(), T.RandomCrop(28, padding=4),
                T.RandomHorizontalFlip(0.5), T.Normalize((0.286,), (0.353,))])
data = torchvision.datasets.ImageFolder(root, transform=tf)
n_train = int(len(data) * 0.8)
train, _ = torch.utils.data.random_split(data, [n_train, len(data) - n_train],
                                         generator=torch.Generator().manual_seed(7))
loader = torch.utils.data.DataLoader(train, batch_size=64, shuffle=True, num_workers=2,
                                     persistent_workers=True)
model = nn.Sequential(nn.Flatten(), nn.Linear(784, 128), nn.ReLU(), nn.Linear(128, 10))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
rates = []
for epoch in range(epochs):
    t0 = time.perf_counter()
    seen = 0
    for x, y in loader:
        opt.zero_grad()
        loss = nn.functional.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        seen += len(y)
    rates.append(seen / (time.perf_counter() - t0))
print(sum(rates[1:]) / len(rates[1:]))
"""


def train(cli, work, name, sets):
    out = os.path.join(work, name)
    shutil.rmtree(out, ignore_errors=True)
    cmd = [cli, "train", "--preset", "fashion-png", "--epochs", str(EPOCHS), "--out", out]
    for s in sets:
        cmd += ["--set", s]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("trainscope-cli train failed:\n" + r.stdout + r.stderr)
    run_dir = out
    with open(os.path.join(run_dir, "metrics.csv")) as f:
        rows = list(csv.DictReader(f))
    rate = statistics.mean(float(r["samples_per_second"]) for r in rows[1:])
    with open(os.path.join(run_dir, "steps.csv")) as f:
        steps = list(csv.DictReader(f))
    wait = sum(float(s["data_wait"]) for s in steps)
    train_seconds = sum(float(r["epoch_seconds"]) for r in rows)
    shutil.rmtree(run_dir)
    return rate, wait / train_seconds


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("cli")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--dir", default="/tmp/trainscope-augment-bench")
    a = ap.parse_args()
    os.makedirs(a.dir, exist_ok=True)
    root = subprocess.run([a.cli, "config", "--preset", "fashion-png"], capture_output=True,
                          text=True).stdout
    import json
    folder = json.loads(root)["data"]["image_folder"]["path"]
    aug = ["data.augment.crop_padding=4", "data.augment.hflip=0.5"]
    rates = {"plain": [], "augmented": [], "workers-0": [], "torchvision": []}
    shares = []
    for _ in range(a.rounds):
        rates["plain"].append(train(a.cli, a.dir, "plain", [])[0])
        rate, share = train(a.cli, a.dir, "augmented", aug + ["data.workers=2"])
        rates["augmented"].append(rate)
        shares.append(share)
        rates["workers-0"].append(train(a.cli, a.dir, "workers0", aug + ["data.workers=0"])[0])
        r = subprocess.run(["/usr/bin/python3", "-c", PYTHON_REFERENCE, folder, str(EPOCHS)],
                           capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit("the torchvision reference failed:\n" + r.stderr)
        rates["torchvision"].append(float(r.stdout.strip().splitlines()[-1]))
    med = {k: statistics.median(v) for k, v in rates.items()}
    for k, v in rates.items():
        print("%-12s %8.0f samples/s (median of %s)" % (k, med[k], ", ".join("%.0f" % x for x in v)))
    print("augmented (2 workers) / plain:        %.2fx (target >= 0.9)" % (med["augmented"] / med["plain"]))
    print("augmented (2 workers) / workers 0:    %.2fx" % (med["augmented"] / med["workers-0"]))
    print("augmented / torchvision DataLoader:   %.2fx (target >= 1.5)" % (med["augmented"] / med["torchvision"]))
    print("data_wait share of the augmented runs: %.1f %%" % (100 * statistics.mean(shares)))


if __name__ == "__main__":
    main()
