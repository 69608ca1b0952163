#!/usr/bin/python3
"""model.kind "rnn" and "torchscript" against Python's torch 1.13 (issue 23).

rnn:         an LSTM trained on an .npz of sequences [N, T, F] loads strictly into README's
             RnnNet (load_trainscope_rnn) with evaluate's loss and predictions and metrics.csv's
             val_loss to 1e-5; `train --dry-run` gives the layer shapes of that module.
rnn-exploding: the preset as shipped pinned from its records: without clipping the gradient
             norm climbs over 1000x its first value and the run ends non-finite; with
             training.clip.enabled=true every step stays finite, clipped to max_norm, and the
             validation loss ends below a tenth of the targets' variance.
torchscript: a CNN scripted in Python: inspect-model's report (parameters, submodules, one batch
             of zeros and of the data, a wrong output size named with both shapes); trained by
             the CLI for an epoch, <run>/model.pt and checkpoints/best-model.pt load with
             torch.jit.load and give evaluate's loss on the validation split to 1e-5; last.pt's
             state_dict loads strictly into the user's scripted module; --resume continues it;
             a torch.save file is refused saying what to run instead.

usage: model_kinds_python.py CLI README WORKDIR
"""
import csv
import gzip
import json
import math
import os
import re
import shutil
import subprocess
import sys

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn


def run(cli, *args, code=0):
    r = subprocess.run([cli] + list(args), capture_output=True, text=True)
    if r.returncode != code:
        sys.exit("%s %s: exit %d, expected %d:\n%s%s" % (cli, " ".join(args), r.returncode, code,
                                                      r.stdout[-3000:], r.stderr))
    return r.stdout if code == 0 else r.stderr


def readme_block(readme, first_line):
    text = open(readme, encoding="utf-8").read()
    for block in re.findall(r"```python\n(.*?)```", text, re.S):
        if block.startswith(first_line):
            return block
    sys.exit("README.md has no python block starting with " + first_line)


def rows(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def idx(path):
    with gzip.open(path) as f:
        d = f.read()
    dims = [int.from_bytes(d[4 + 4 * i:8 + 4 * i], "big") for i in range(d[3])]
    return np.frombuffer(d, dtype=np.uint8, offset=4 + 4 * d[3]).reshape(dims)


def rnn_npz(cli, readme, work):
    ns = {}
    exec(readme_block(readme, '# TrainScope\'s model.kind "rnn" in Python'), ns)
    rng = np.random.default_rng(3)
    x = rng.normal(size=(400, 12, 3)).astype(np.float32)
    y = (x[:, :, 0].sum(1) > 0).astype(np.int64)
    path = os.path.join(work, "seq.npz")
    np.savez(path, x=x, y=y)
    sets = ["--set", "data.source=npy", "--set", "data.npy.path=" + path, "--set", "model.kind=rnn",
            "--set", "model.rnn.cell=lstm", "--set", "model.rnn.num_layers=2",
            "--set", "model.rnn.bidirectional=true", "--set", "model.rnn.hidden_size=8",
            "--set", "model.rnn.output=mean", "--set", "training.epochs=3",
            "--set", "training.num_threads=1", "--set", "data.val_fraction=0.25"]
    run_dir = os.path.join(work, "lstm")
    run(cli, "train", *sets, "--out", run_dir)
    ckpt = os.path.join(run_dir, "checkpoints", "last.pt")
    model, pre = ns["load_trainscope_rnn"](ckpt)
    assert isinstance(model.rnn, nn.LSTM) and model.rnn.bidirectional and model.rnn.num_layers == 2
    val = json.load(open(os.path.join(run_dir, "split.json")))["val"]
    assert pre["standardize"] == "per_feature", pre
    xv = torch.tensor(x[val]).reshape(len(val), -1)
    xv = ((xv - torch.tensor(pre["mean"], dtype=torch.float32)) /
          torch.tensor(pre["std"], dtype=torch.float32)).reshape(len(val), 12, 3)
    with torch.no_grad():
        out = model(xv)
    loss = F.cross_entropy(out, torch.tensor(y[val])).item()
    ev = json.loads(run(cli, "evaluate", ckpt, "--json"))
    val_loss = float(rows(os.path.join(run_dir, "metrics.csv"))[-1]["val_loss"])
    assert ev["predicted_class"] == out.argmax(1).tolist(), "predictions differ"
    for name, v in (("evaluate", ev["loss"]), ("metrics.csv", val_loss)):
        assert abs(v - loss) <= 1e-5 * max(1.0, loss), (name, v, loss)
    # Shape first: the layers of README's module.
    r = json.loads(run(cli, "train", *sets, "--dry-run", "--json"))
    with torch.no_grad():
        seq, _ = model.rnn(torch.zeros(r["x"]["shape"]))
    shapes = [l["output_shape"] for l in r["layers"]]
    assert shapes == [list(seq.shape), [seq.shape[0], 16], [seq.shape[0], 2]], shapes
    assert r["layers"][0]["trainable_parameters"] == sum(p.numel() for p in model.rnn.parameters())
    # A table is not a sequence: refused naming the shapes.
    err = run(cli, "train", "--dry-run", "--preset", "moons", "--set", "model.kind=rnn", code=2)
    assert "[T, F]" in err and "[2]" in err, err
    print("rnn: LSTM python %.9g, evaluate %.9g, metrics.csv %.9g; dry-run shapes %s"
          % (loss, ev["loss"], val_loss, shapes))


def rnn_exploding(cli, work):
    plain = os.path.join(work, "exploding")
    clipped = os.path.join(work, "clipped")
    # Ends non-finite: the exit code says so (not 0); the records are what is pinned.
    subprocess.run([cli, "train", "--preset", "rnn-exploding", "--out", plain],
                   capture_output=True, text=True)
    steps = rows(os.path.join(plain, "steps.csv"))
    norms = [float(s["grad_norm"]) for s in steps]
    finite = [n for n in norms if math.isfinite(n)]
    summary = json.load(open(os.path.join(plain, "summary.json")))
    assert max(finite) > 1000 * norms[0], (norms[0], max(finite))
    assert summary["stop_reason"] in ("non_finite", "diverged"), summary["stop_reason"]
    first_big = next(i for i, n in enumerate(norms) if not math.isfinite(n) or n > 100 * norms[0])
    assert first_big < 62, first_big  # within the first epoch (62 steps)
    run(cli, "train", "--preset", "rnn-exploding", "--set", "training.clip.enabled=true",
        "--out", clipped)
    steps = rows(os.path.join(clipped, "steps.csv"))
    norms = [float(s["grad_norm"]) for s in steps]
    used = [float(s["grad_norm_clipped"]) for s in steps]
    assert all(math.isfinite(n) for n in norms), "a non-finite gradient with clipping"
    assert max(used) <= 1.0 + 1e-4, max(used)
    metrics = rows(os.path.join(clipped, "metrics.csv"))
    summary = json.load(open(os.path.join(clipped, "summary.json")))
    assert summary["stop_reason"] == "completed", summary
    assert len(metrics) == 8
    # Chance level: predicting the mean; the targets (sine values plus noise) vary ~0.5.
    final = float(metrics[-1]["val_loss"])
    assert final < 0.05, final
    print("rnn-exploding: unclipped grad norm %.3g -> %s by step %d (%s); clipped: %d finite "
          "steps, val_loss %.4f" % (norms[0], "inf" if not finite else "%.3g" % max(finite),
                                    first_big + 1, "stopped", len(steps), final))


class Net(nn.Module):
    """The user's own CNN (torch.jit.script reads this source)."""
    def __init__(self, classes: int = 10):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(),
                                      nn.MaxPool2d(2))
        self.classifier = nn.Sequential(nn.Flatten(), nn.Dropout(0.2), nn.Linear(8 * 14 * 14, classes))

    def forward(self, x):
        return self.classifier(self.features(x.view(-1, 1, 28, 28)))


class ImageNet(nn.Module):
    """A CNN written for image batches [N, 1, 28, 28] (no reshape of its own), as README's."""
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(1, 4, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2))
        self.classifier = nn.Sequential(nn.Flatten(), nn.Linear(4 * 14 * 14, 10))

    def forward(self, x):
        return self.classifier(self.features(x))


def torchscript(cli, work):
    ns = {"Net": Net}
    torch.manual_seed(0)
    path = os.path.join(work, "net.pt")
    torch.jit.script(ns["Net"]()).save(path)
    wrong = os.path.join(work, "net5.pt")
    torch.jit.script(ns["Net"](5)).save(wrong)
    info = json.loads(run(cli, "inspect-model", path, "--input-shape", "784", "--json"))
    assert info["made_by"] == "torch.jit.script" and info["saved_in_training_mode"], info
    assert [p["name"] for p in info["parameters"]][:2] == ["features.0.weight", "features.0.bias"]
    assert info["trainable_parameters"] == 8 * 9 + 8 + 16 + 8 * 14 * 14 * 10 + 10, info
    assert "features.1.running_mean" in [b["name"] for b in info["buffers"]]
    assert info["output_shape"] == [2, 10], info["output_shape"]
    batch = json.loads(run(cli, "inspect-model", path, "--preset", "fashion-mnist-cnn",
                           "--set", "data.limit=600", "--json"))["batch"]
    assert batch["output"]["shape"] == [64, 10] and batch["model_kind"] == "torchscript", batch
    err = run(cli, "inspect-model", wrong, "--preset", "fashion-mnist-cnn", "--set",
              "data.limit=600", code=2)
    assert "[64, 5]" in err and "[64, 10]" in err and "nn.Linear" in err, err
    sd = os.path.join(work, "state_dict.pt")
    torch.save(ns["Net"]().state_dict(), sd)
    err = run(cli, "inspect-model", sd, code=2)
    assert "torch.save" in err and "torch.jit.script(model).save" in err, err

    run_dir = os.path.join(work, "ts-run")
    sets = ["--preset", "fashion-mnist-cnn", "--set", "model.kind=torchscript",
            "--set", "model.torchscript.path=" + path, "--set", "data.limit=2000",
            "--set", "training.num_threads=1"]
    # The wrong output size is refused by train too, before any step, naming both shapes.
    bad_sets = [v.replace(path, wrong) for v in sets]
    err = run(cli, "train", *bad_sets, "--epochs", "1", "--out", os.path.join(work, "ts-wrong"),
              code=2)
    assert "[64, 5]" in err and "[64, 10]" in err, err
    assert not os.path.exists(os.path.join(work, "ts-wrong", "steps.csv")) or \
        len(open(os.path.join(work, "ts-wrong", "steps.csv")).read().splitlines()) <= 1
    run(cli, "train", *sets, "--epochs", "1", "--out", run_dir)
    cfg = json.load(open(os.path.join(run_dir, "config.json")))
    assert cfg["model"]["torchscript"]["path"] == os.path.abspath(path), cfg["model"]
    data_dir = "/usr/share/datasets/fashion-mnist"
    images = idx(os.path.join(data_dir, "train-images-idx3-ubyte.gz"))
    labels = idx(os.path.join(data_dir, "train-labels-idx1-ubyte.gz"))
    val = json.load(open(os.path.join(run_dir, "split.json")))["val"]
    ckpt = torch.load(os.path.join(run_dir, "checkpoints", "last.pt"))
    pre = ckpt["data"]["preprocessing"]
    xv = torch.tensor(images[val].reshape(len(val), -1), dtype=torch.float32) / pre["pixel_scale"]
    xv = (xv - pre["mean"][0]) / pre["std"][0]
    yv = torch.tensor(labels[val].astype(np.int64))
    ev = json.loads(run(cli, "evaluate", os.path.join(run_dir, "checkpoints", "last.pt"), "--json"))
    val_loss = float(rows(os.path.join(run_dir, "metrics.csv"))[-1]["val_loss"])
    for saved in ("model.pt", "checkpoints/best-model.pt"):
        m = torch.jit.load(os.path.join(run_dir, saved))
        assert not m.training, saved
        with torch.no_grad():
            out = m(xv)
        loss = F.cross_entropy(out, yv).item()
        assert ev["predicted_class"] == out.argmax(1).tolist(), saved
        for name, v in (("evaluate", ev["loss"]), ("metrics.csv", val_loss)):
            assert abs(v - loss) <= 1e-5 * max(1.0, loss), (saved, name, v, loss)
    user = torch.jit.load(path)
    user.load_state_dict(ckpt["model_state_dict"], strict=True)
    user.eval()
    with torch.no_grad():
        assert torch.allclose(user(xv), out, atol=1e-6)
    resumed = os.path.join(work, "ts-resumed")
    out_text = run(cli, "train", "--resume", os.path.join(run_dir, "checkpoints", "last.pt"),
                   "--epochs", "2", "--out", resumed)
    assert len(rows(os.path.join(resumed, "metrics.csv"))) >= 1, out_text
    assert os.path.exists(os.path.join(resumed, "model.pt"))
    # Issue 43: a traced module is named so by inspect-model (tst_model_kinds covers one traced
    # alone in its process, without the mangled type names the old check relied on), and
    # `train` prints the warning README promises and records it in events.jsonl.
    traced = os.path.join(work, "net-traced.pt")
    torch.jit.trace(Net(), torch.zeros(2, 784)).save(traced)
    info = json.loads(run(cli, "inspect-model", traced, "--input-shape", "784", "--json"))
    assert info["made_by"] == "torch.jit.trace", info["made_by"]
    traced_dir = os.path.join(work, "ts-traced")
    r = subprocess.run([cli, "train"] + [v.replace(path, traced) for v in sets] +
                       ["--epochs", "1", "--set", "data.limit=600", "--out", traced_dir],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "warning: model " + os.path.abspath(traced) + ": traced (torch.jit.trace)" in r.stderr, r.stderr
    with open(os.path.join(traced_dir, "events.jsonl")) as f:
        warned = [e for e in map(json.loads, f) if e["kind"] == "model_warning"]
    assert [e["what"] for e in warned] == ["traced"], warned
    # Issue 43: README's command for a scripted CNN with a Conv2d first failed ("Expected 3D or
    # 4D input to conv2d, but got input of size: [64, 784]"): image data now reaches it as
    # [N, C, H, W]; inspect-model on the preset's data passes, and it trains. The validation
    # loss is recomputed here from the saved module on [N, 1, 28, 28] batches.
    image_net = os.path.join(work, "image-net.pt")
    torch.jit.script(ImageNet()).save(image_net)
    batch = json.loads(run(cli, "inspect-model", image_net, "--preset", "fashion-mnist-cnn",
                           "--set", "data.limit=600", "--json"))["batch"]
    assert batch["output"]["shape"] == [64, 10], batch
    image_dir = os.path.join(work, "ts-image")
    run(cli, "train", "--preset", "fashion-mnist-cnn", "--set", "model.kind=torchscript",
        "--set", "model.torchscript.path=" + image_net, "--set", "data.limit=600", "--set",
        "training.num_threads=1", "--epochs", "1", "--out", image_dir)
    image_val = json.load(open(os.path.join(image_dir, "split.json")))["val"]
    pre = torch.load(os.path.join(image_dir, "checkpoints", "last.pt"))["data"]["preprocessing"]
    xi = torch.tensor(images[image_val], dtype=torch.float32).reshape(len(image_val), 1, 28, 28)
    xi = (xi / pre["pixel_scale"] - pre["mean"][0]) / pre["std"][0]
    yi = torch.tensor(labels[image_val].astype(np.int64))
    trained = torch.jit.load(os.path.join(image_dir, "model.pt"))
    with torch.no_grad():
        image_loss = F.cross_entropy(trained(xi), yi).item()
    recorded = float(rows(os.path.join(image_dir, "metrics.csv"))[-1]["val_loss"])
    assert abs(image_loss - recorded) <= 1e-5 * max(1.0, recorded), (image_loss, recorded)
    print("torchscript: model.pt and best-model.pt give loss %.9g (evaluate %.9g, metrics.csv "
          "%.9g) on %d samples; resumed" % (loss, ev["loss"], val_loss, len(val)))


def rnn_two_targets(cli, readme, work):
    """Regression on two targets per sequence: metrics.csv's val_loss and evaluate's loss are
    MSELoss's mean over every element (as the training loss), not the sum over targets."""
    ns = {}
    exec(readme_block(readme, '# TrainScope\'s model.kind "rnn" in Python'), ns)
    rng = np.random.default_rng(5)
    x = rng.normal(size=(300, 10, 2)).astype(np.float32)
    y = np.stack([x[:, :, 0].mean(1), x[:, -1, 1]], axis=1).astype(np.float32)
    path = os.path.join(work, "seq2.npz")
    np.savez(path, x=x, y=y)
    run_dir = os.path.join(work, "gru2")
    run(cli, "train", "--set", "data.source=npy", "--set", "data.npy.path=" + path,
        "--set", "model.kind=rnn", "--set", "model.rnn.cell=gru", "--set", "model.rnn.hidden_size=8",
        "--set", "training.epochs=2", "--set", "training.num_threads=1", "--out", run_dir)
    ckpt = os.path.join(run_dir, "checkpoints", "last.pt")
    model, pre = ns["load_trainscope_rnn"](ckpt)
    val = json.load(open(os.path.join(run_dir, "split.json")))["val"]
    xv = torch.tensor(x[val]).reshape(len(val), -1)
    xv = ((xv - torch.tensor(pre["mean"], dtype=torch.float32)) /
          torch.tensor(pre["std"], dtype=torch.float32)).reshape(len(val), 10, 2)
    yv = torch.tensor(y[val]) * pre["target_scale"]
    with torch.no_grad():
        out = model(xv)
    assert out.shape == yv.shape, (out.shape, yv.shape)
    loss = F.mse_loss(out, yv).item()
    ev = json.loads(run(cli, "evaluate", ckpt, "--json"))
    val_loss = float(rows(os.path.join(run_dir, "metrics.csv"))[-1]["val_loss"])
    for name, v in (("evaluate", ev["loss"]), ("metrics.csv", val_loss)):
        assert abs(v - loss) <= 1e-5 * max(1.0, loss), (name, v, loss)
    print("rnn two targets: GRU python mse %.9g, evaluate %.9g, metrics.csv %.9g"
          % (loss, ev["loss"], val_loss))


def main(cli, readme, work):
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    rnn_npz(cli, readme, work)
    rnn_two_targets(cli, readme, work)
    rnn_exploding(cli, work)
    torchscript(cli, work)
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    sys.exit(main(*sys.argv[1:]))
