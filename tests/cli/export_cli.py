#!/usr/bin/python3
"""`trainscope-cli export` as a new user meets it (issue 50): a CNN trained on an image folder
(the fashion-png preset's PNG files), exported as ONNX and TorchScript, run outside TrainScope.

The model card's own Python lines are executed as written, with "image.png" replaced by a
validation image's file: the class they print must be the class `trainscope-cli evaluate`
predicts for that sample. On 100 validation images read with cv2 (as the card reads them),
softmax of OpenCV dnn's ONNX outputs and of torch.jit.load's TorchScript outputs must equal
evaluate's --scores (the run's model, TrainScope's own image decoding) within 1e-5. Without -o
the file lands in the working directory as RUN-NAME-best.onnx. Bad input ends with exit 2
naming the problem (no --format, an unknown one, -o a directory, a FIFO, inside the run folder,
a user's file, a file that is not a run folder, an rnn to ONNX), and no file of the run folder
changes (SHA-256 of every file before and after).

usage: export_cli.py CLI WORKDIR
"""
import contextlib
import csv
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys

import cv2
import numpy as np
import torch


def run(cli, *args, expect=0, cwd=None):
    p = subprocess.run([cli, *args], capture_output=True, text=True, cwd=cwd)
    assert p.returncode == expect, "%s -> %d (expected %d):\n%s%s" % (
        args, p.returncode, expect, p.stdout[-1000:], p.stderr[-2000:])
    return p


def digest(folder):
    out = {}
    for root, _, files in os.walk(folder):
        for f in files:
            path = os.path.join(root, f)
            with open(path, "rb") as fh:
                out[os.path.relpath(path, folder)] = hashlib.sha256(fh.read()).hexdigest()
    return out


def softmax(z):
    e = np.exp(z - z.max(1, keepdims=True))
    return e / e.sum(1, keepdims=True)


def main():
    cli, work = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    run_dir = os.path.join(work, "shoes")
    run(cli, "train", "--preset", "fashion-png", "--set", "data.limit=1000", "--set",
        "training.epochs=1", "--out", run_dir)
    before = digest(run_dir)
    scores_file = os.path.join(work, "scores.csv")
    ev = json.loads(run(cli, "evaluate", os.path.join(run_dir, "checkpoints", "best.pt"), "--json",
                        "--scores", scores_file).stdout)
    with open(scores_file, newline="") as f:
        rows = list(csv.reader(f))[1:]
    scores = np.array([[float(v) for v in r[2:]] for r in rows])
    split = json.load(open(os.path.join(run_dir, "split.json")))
    folder = json.load(open(os.path.join(run_dir, "config.json")))["data"]["image_folder"]["path"]
    images = [os.path.join(folder, "train", split["files"][i]) for i in ev["sample_index"]]

    deploy = os.path.join(work, "deploy")
    os.makedirs(deploy)
    onnx_file, pt_file = os.path.join(deploy, "shoes.onnx"), os.path.join(deploy, "shoes-ts.pt")
    out = run(cli, "export", run_dir, "--format", "onnx", "-o", onnx_file).stdout
    assert "shoes.model-card.md" in out, out
    card = json.load(open(os.path.join(deploy, "shoes.model-card.json")))
    lines_onnx = card["python"]
    run(cli, "export", run_dir, "--format", "torchscript", "-o", pt_file)
    card = json.load(open(os.path.join(deploy, "shoes-ts.model-card.json")))
    lines_pt = card["python"]
    assert card["class_names"] == [c["name"] for c in ev["classes"]], card["class_names"]
    assert card["input_shape"] == ["N", 784] and card["input_dtype"] == "float32"

    # The card's lines, as written, on validation images: the class evaluate predicts.
    names = card["class_names"]
    old = os.getcwd()
    os.chdir(deploy)
    try:
        for lines in (lines_onnx, lines_pt):
            code = "\n".join(lines)
            assert '"image.png"' in code, code
            for i in range(20):
                buf = io.StringIO()
                with contextlib.redirect_stdout(buf):
                    exec(code.replace('"image.png"', repr(images[i])), {})
                said = buf.getvalue().strip()
                assert said == names[ev["predicted_class"][i]], (i, said, names[ev["predicted_class"][i]])
    finally:
        os.chdir(old)

    # 100 images through both runtimes against the run's own probabilities.
    n = min(100, len(images))
    x = np.stack([cv2.imread(p, cv2.IMREAD_GRAYSCALE).astype(np.float32).reshape(784) for p in images[:n]])
    net = cv2.dnn.readNetFromONNX(onnx_file)
    net.setInput(x)
    d_cv = np.abs(softmax(net.forward()) - scores[:n]).max()
    m = torch.jit.load(pt_file)
    with torch.no_grad():
        d_pt = np.abs(softmax(m(torch.from_numpy(x)).numpy()) - scores[:n]).max()
    print("probabilities vs evaluate: OpenCV dnn %.3g, torch.jit.load %.3g" % (d_cv, d_pt))
    assert d_cv <= 1e-5 and d_pt <= 1e-5, (d_cv, d_pt)

    # Images resized by the run (28x28 files, data.image_folder.size 20x20): the card's lines
    # resize as the run did, and their outputs are the run's probabilities.
    small = os.path.join(work, "small")
    run(cli, "train", "--preset", "fashion-png", "--set", "data.limit=600", "--set", "training.epochs=1",
        "--set", "data.image_folder.size=[20,20]", "--out", small)
    ev = json.loads(run(cli, "evaluate", os.path.join(small, "checkpoints", "best.pt"), "--json",
                        "--scores", scores_file).stdout)
    with open(scores_file, newline="") as f:
        small_scores = np.array([[float(v) for v in r[2:]] for r in list(csv.reader(f))[1:]])
    split = json.load(open(os.path.join(small, "split.json")))
    small_images = [os.path.join(folder, "train", split["files"][i]) for i in ev["sample_index"]]
    small_onnx = os.path.join(deploy, "small.onnx")
    run(cli, "export", small, "--format", "onnx", "-o", small_onnx)
    card = json.load(open(os.path.join(deploy, "small.model-card.json")))
    assert card["input_shape"] == ["N", 400], card["input_shape"]
    code = "\n".join(card["python"])
    os.chdir(deploy)
    try:
        worst = 0
        for i in range(20):
            ns = {}
            with contextlib.redirect_stdout(io.StringIO()) as buf:
                exec(code.replace('"image.png"', repr(small_images[i])), ns)
            assert buf.getvalue().strip() == names[ev["predicted_class"][i]], (i, buf.getvalue())
            worst = max(worst, np.abs(softmax(ns["out"]) - small_scores[i:i + 1]).max())
    finally:
        os.chdir(old)
    print("resized images, the card's lines vs evaluate: %.3g" % worst)
    assert worst <= 1e-5, worst

    # Without -o: the working directory.
    cwd = os.path.join(work, "cwd")
    os.makedirs(cwd)
    run(cli, "export", os.path.relpath(run_dir, cwd), "--format", "onnx", cwd=cwd)
    assert sorted(os.listdir(cwd)) == ["shoes-best.model-card.json", "shoes-best.model-card.md",
                                       "shoes-best.onnx"], os.listdir(cwd)

    # Bad input: exit 2, the reason named, nothing written.
    fifo = os.path.join(work, "fifo")
    os.mkfifo(fifo)
    mine = os.path.join(work, "mine.onnx")
    open(mine, "w").write("my own file")
    rnn_dir = os.path.join(work, "rnn")
    run(cli, "train", "--preset", "rnn-exploding", "--set", "data.limit=200", "--set",
        "training.epochs=1", "--set", "training.clip.enabled=true", "--out", rnn_dir)
    for args, says in [
        ([run_dir], "--format"),
        ([run_dir, "--format", "tflite"], "--format must be onnx or torchscript"),
        ([run_dir, "--format", "onnx", "-o", work], "is a directory"),
        ([run_dir, "--format", "onnx", "-o", fifo], "is not a regular file"),
        ([run_dir, "--format", "onnx", "-o", os.path.join(run_dir, "m.onnx")], "inside the run folder"),
        ([run_dir, "--format", "onnx", "-o", mine], "not written by TrainScope"),
        ([os.path.join(run_dir, "config.json"), "--format", "onnx"], "is not a run folder"),
        ([rnn_dir, "--format", "onnx", "-o", os.path.join(work, "rnn.onnx")], "--format torchscript"),
        ([run_dir, "--format", "torchscript", "-o", os.path.join(deploy, "shoes.pt")], "describes shoes.onnx"),
        ([run_dir, "--format", "onnx", "-o", os.path.join(deploy, "x.pt")], "extension of the other format"),
        ([run_dir, "--format", "onnx", "-o", os.path.join(deploy, "shoes.model-card.json")], "is the name of a model card"),
    ]:
        p = run(cli, "export", *args, expect=2)
        assert says in p.stderr, (args, p.stderr)
    assert open(mine).read() == "my own file"
    assert not os.path.exists(os.path.join(work, "rnn.onnx"))
    assert digest(run_dir) == before, "the run folder changed"
    print("ok")


if __name__ == "__main__":
    main()
