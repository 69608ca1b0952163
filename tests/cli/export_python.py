#!/usr/bin/python3
"""`trainscope-cli export-python` against Python's torch 1.13 (issue 25 §7).

For each case: `train` a short run, `export-python RUN -o FILE`, run the script with
/usr/bin/python3 (`--out DIR`) and compare DIR/steps.csv with the run's steps.csv: the same
number of steps and every loss within 1e-6 (the claim); the count of bit-identical losses is
printed and must be all of them where the operations are the same (every case here). The
epochs' val_loss in metrics.csv must agree to 1e-6 as well. Cases: the built-in presets
overfit-sine (as shipped), moons, circles, spirals, fashion-mnist-mlp and -cnn (fewer images),
rnn-exploding with clipping, exploding (stops on a non-finite value at the same step), and
variants (dropout, weight decay, SGD with momentum and gradient accumulation, AdamW with StepLR,
warm-up + cosine, ReduceLROnPlateau + early stopping + stratified split, AMP on the CPU, a GRU,
each teaching mistake). The user's own data (issue 43 item 7), read by the script through the
run's split.json with pandas, numpy and OpenCV: the presets flowers-csv, housing-csv and
fashion-png, and files written here (a headerless ';' table with whole-number labels, missing
cells dropped and a validation table; .npz classes; .npy regression of [N, 3, 4] samples; IDX
images for a CNN; RGB images of mixed sizes resized, in train/ and val/ folders); TorchScript
modules (an MLP on moons, a CNN on the IDX images). A data file changed after its run: the script
refuses it. `export-python --preset NAME` equals the export of a run of that preset.
Bad input: exit 2 naming the problem, nothing written.

usage: export_python.py CLI WORKDIR
"""
import csv
import gzip
import os
import shutil
import struct
import subprocess
import sys

PY = "/usr/bin/python3"

MOONS = ["--preset", "overfit-moons", "--epochs", "6", "--set", "data.n_samples=800"]
CASES = [
    ("overfit-sine", ["--preset", "overfit-sine"]),
    ("moons", ["--preset", "moons", "--epochs", "4"]),
    ("circles", ["--preset", "circles", "--epochs", "4"]),
    ("spirals", ["--preset", "spirals", "--epochs", "4"]),
    ("fashion-mnist-mlp", ["--preset", "fashion-mnist-mlp", "--epochs", "2", "--set", "data.limit=4000"]),
    ("fashion-mnist-cnn", ["--preset", "fashion-mnist-cnn", "--epochs", "2", "--set", "data.limit=800"]),
    ("rnn-clipped", ["--preset", "rnn-exploding", "--epochs", "2", "--set", "training.clip.enabled=true"]),
    ("exploding", ["--preset", "exploding", "--epochs", "3"]),
    ("dropout-wd", MOONS + ["--set", "model.dropout=0.3", "--set", "optimizer.weight_decay=1e-3"]),
    ("sgd-accum", MOONS + ["--set", "optimizer.name=sgd", "--set", "optimizer.momentum=0.9",
                           "--set", "optimizer.lr=0.05", "--set", "training.grad_accum_steps=3"]),
    ("adamw-steplr", MOONS + ["--set", "optimizer.name=adamw", "--set", "optimizer.weight_decay=0.01",
                              "--set", "scheduler.name=StepLR", "--set", "scheduler.step_size=2"]),
    ("warmup-cosine", MOONS + ["--set", "scheduler.name=CosineAnnealingLR", "--set", "scheduler.T_max=4",
                               "--set", "scheduler.warmup_epochs=2"]),
    ("plateau-early-stop", MOONS[:2] + ["--epochs", "12"] + MOONS[4:] + ["--set", "scheduler.name=ReduceLROnPlateau",
                                    "--set", "scheduler.patience=0", "--set", "data.stratify=true",
                                    "--set", "training.early_stopping.enabled=true",
                                    "--set", "training.early_stopping.patience=2"]),
    ("amp-cpu", ["--preset", "moons", "--epochs", "2", "--set", "training.amp=true",
                 "--set", "training.clip.enabled=true"]),
    ("gru-mean", ["--preset", "rnn-exploding", "--epochs", "1", "--set", "model.rnn.cell=gru",
                  "--set", "model.rnn.output=mean", "--set", "model.dropout=0.1", "--set", "optimizer.lr=0.05"]),
    # issue 48: training images augmented (each batch's own generator, as the script seeds it),
    # and drop_last (456 training rows in batches of 5 leave 91 x 5 + 1)
    ("fashion-augment", ["--preset", "fashion-mnist-cnn", "--epochs", "2", "--set", "data.limit=800",
                         "--set", "data.augment.crop_padding=3", "--set", "data.augment.hflip=0.5",
                         "--set", "data.augment.rotation=10",
                         "--set", "data.augment.color_jitter=[0.3, 0.3, 0, 0]"]),
    ("fashion-augment-rrc", ["--preset", "fashion-mnist-mlp", "--epochs", "1", "--set", "data.limit=600",
                             "--set", "data.augment.random_resized_crop=true",
                             "--set", "data.augment.scale=[0.5, 1.0]"]),
    # teaching mistake augment_validation: validation through the training transforms, its own draws
    ("mistake-augment_validation", ["--preset", "fashion-mnist-mlp", "--epochs", "2",
                                    "--set", "data.limit=600", "--set", "data.augment.crop_padding=2",
                                    "--set", "data.augment.hflip=0.5",
                                    "--set", 'teaching.mistakes=["augment_validation"]']),
    ("class-weights-sampler", ["--preset", "moons", "--epochs", "3", "--set", "data.n_samples=600",
                               "--set", "training.class_weights=[1.0, 2.5]", "--set", "data.sampler=weighted"]),
    ("balanced-weights", MOONS + ["--set", "training.class_weights=balanced"]),
    ("drop-last", ["--preset", "moons", "--epochs", "3", "--set", "data.n_samples=570",
                   "--set", "training.batch_size=5", "--set", "training.drop_last=true"]),
] + [("mistake-" + m, MOONS + ["--set", "model.dropout=0.2", "--set", 'teaching.mistakes=["%s"]' % m])
     for m in ("no_zero_grad", "step_before_backward", "eval_in_train_mode", "val_with_grad",
               "shuffled_labels", "lr_x1000", "lr_x1e-6")]


def own_data(work):
    """Files of the user's own data, written with numpy only; returns the cases that train on them."""
    import numpy as np
    import torch
    rng = np.random.default_rng(7)
    d = os.path.join(work, "own")
    os.makedirs(d)
    path = lambda name: os.path.join(d, name)

    def table(name, n, missing_row=None):
        with open(path(name), "w") as f:
            for i in range(n):
                a, b = rng.normal(), rng.normal() * 2
                label = int(a + b > 0) + int(a > 1)
                cells = ["%.6g" % a, " %.6g " % b, ("%d.0" if i % 4 == 0 else "%d") % label]
                if i == missing_row:
                    cells[1] = "NA"
                f.write(";".join(cells) + "\n")
    table("pool.csv", 180, missing_row=5)
    table("val.csv", 40, missing_row=3)
    np.savez(path("classes.npz"), x=rng.normal(size=(150, 4)), y=rng.choice([2, 5, 9], size=150))
    np.savez_compressed(path("pixels.npz"), x=rng.integers(0, 256, size=(120, 1, 6, 6), dtype=np.uint8),
                        y=rng.integers(0, 2, size=120), x_val=rng.integers(0, 256, size=(30, 1, 6, 6), dtype=np.uint8),
                        y_val=rng.integers(0, 2, size=30))
    np.save(path("x.npy"), rng.normal(size=(160, 3, 4)))
    np.save(path("y.npy"), rng.normal(size=160))

    def idx(name, a):
        header = bytes([0, 0, 8, a.ndim]) + b"".join(struct.pack(">I", n) for n in a.shape)
        data = header + a.tobytes()
        with open(path(name), "wb") as f:
            f.write(gzip.compress(data) if name.endswith(".gz") else data)
    idx("images.idx.gz", rng.integers(0, 256, size=(200, 8, 8), dtype=np.uint8))
    idx("labels.idx", rng.choice([3, 5, 7], size=200).astype(np.uint8))
    for split, n in (("train", 24), ("val", 8)):
        for cls in ("cat", "dog"):
            for i in range(n):
                folder = os.path.join(path("pictures"), split, cls, "more" if i % 3 == 0 else "")
                os.makedirs(folder, exist_ok=True)
                h, w = (int(v) for v in rng.integers(5, 14, size=2))
                pixels = rng.integers(0, 256, size=(h, w, 3), dtype=np.uint8)
                with open(os.path.join(folder, "%02d.ppm" % i), "wb") as f:
                    f.write(b"P6\n%d %d\n255\n" % (w, h) + pixels.tobytes())
    mlp = torch.nn.Sequential(torch.nn.Linear(2, 16), torch.nn.Tanh(), torch.nn.Dropout(0.2),
                                          torch.nn.Linear(16, 2))
    torch.jit.script(mlp).save(path("mlp.pt"))
    cnn = torch.nn.Sequential(torch.nn.Conv2d(1, 4, 3, padding=1), torch.nn.ReLU(), torch.nn.MaxPool2d(2),
                              torch.nn.Flatten(), torch.nn.Linear(64, 3))
    torch.jit.script(cnn).save(path("cnn.pt"))
    idx_data = ["--set", "data.source=idx", "--set", "data.idx.path=" + path("images.idx.gz"),
                "--set", "data.idx.y_path=" + path("labels.idx")]
    return [
        ("flowers-csv", ["--preset", "flowers-csv", "--epochs", "3"]),
        ("housing-csv", ["--preset", "housing-csv", "--epochs", "3"]),
        ("fashion-png", ["--preset", "fashion-png", "--epochs", "1", "--set", "data.limit=500"]),
        ("csv-headerless", ["--preset", "moons", "--epochs", "3", "--set", "data.source=csv",
                            "--set", "data.csv.path=" + path("pool.csv"), "--set", "data.csv.header=no",
                            "--set", "data.csv.val_path=" + path("val.csv"),
                            "--set", "data.csv.on_missing=drop_row"]),
        ("npz-classes", ["--preset", "moons", "--epochs", "3", "--set", "data.source=npy",
                         "--set", "data.npy.path=" + path("classes.npz"), "--set", "data.stratify=true"]),
        ("npz-pixels-val", ["--preset", "fashion-mnist-cnn", "--epochs", "2", "--set", "data.source=npy",
                            "--set", "data.npy.path=" + path("pixels.npz"), "--set", "model.cnn.channels=[3]"]),
        ("npy-regression", ["--preset", "overfit-sine", "--epochs", "3", "--set", "data.source=npy",
                            "--set", "data.npy.path=" + path("x.npy"), "--set", "data.npy.y_path=" + path("y.npy"),
                            "--set", "data.target_scale=3"]),
        ("idx-cnn", ["--preset", "fashion-mnist-cnn", "--epochs", "2", "--set", "model.cnn.channels=[4]"] + idx_data),
        ("image-folder-rgb", ["--preset", "fashion-mnist-mlp", "--epochs", "3", "--set", "data.source=image-folder",
                              "--set", "data.image_folder.path=" + path("pictures"),
                              "--set", "data.image_folder.channels=3", "--set", "data.image_folder.size=[8,10]"]),
        ("torchscript-mlp", ["--preset", "moons", "--epochs", "3", "--set", "model.kind=torchscript",
                             "--set", "model.torchscript.path=" + path("mlp.pt")]),
        ("torchscript-cnn", ["--preset", "fashion-mnist-cnn", "--epochs", "2", "--set", "model.kind=torchscript",
                             "--set", "model.torchscript.path=" + path("cnn.pt")] + idx_data),
    ]


def changed_data(cli, work):
    """A data file changed after its run: the script refuses to train on other samples."""
    run_dir = os.path.join(work, "run-csv-headerless")
    pool = os.path.join(work, "own", "pool.csv")
    with open(pool) as f:
        rows = f.read().splitlines()
    with open(pool, "w") as f:
        f.write("\n".join(rows[1:] + rows[:1]) + "\n")  # the same rows, reordered
    script = os.path.join(work, "changed.py")
    cli_run(cli, "export-python", run_dir, "-o", script)
    r = subprocess.run([PY, script], capture_output=True, text=True)
    assert r.returncode != 0 and "changed since the run" in r.stderr, (r.returncode, r.stderr[-500:])
    print("changed data: the script refuses a data file whose SHA-256 differs from split.json's")


def cli_run(cli, *args, expect=(0,)):
    r = subprocess.run([cli] + list(args), capture_output=True, text=True)
    if r.returncode not in expect:
        sys.exit("%s %s: exit %d, expected %s\n%s" % (cli, " ".join(args), r.returncode, expect, r.stderr))
    return r


def column(path, name):
    with open(path, newline="") as f:
        return [float(row[name]) for row in csv.DictReader(f)]


def check_case(cli, work, name, args):
    run_dir = os.path.join(work, "run-" + name)
    script = os.path.join(work, name + ".py")
    out = os.path.join(work, "py-" + name)
    cli_run(cli, "train", *args, "--out", run_dir, expect=(0, 3))
    cli_run(cli, "export-python", run_dir, "-o", script)
    r = subprocess.run([PY, script, "--out", out], capture_output=True, text=True)
    assert r.returncode == 0, (name, r.stderr[-2000:])
    ours, theirs = column(os.path.join(run_dir, "steps.csv"), "loss"), column(os.path.join(out, "steps.csv"), "loss")
    assert len(ours) == len(theirs) and ours, (name, len(ours), len(theirs))
    worst = max(abs(a - b) for a, b in zip(ours, theirs))
    same = sum(a == b for a, b in zip(ours, theirs))
    assert worst <= 1e-6, (name, worst)
    assert same == len(ours), (name, "bit-identical", same, "of", len(ours))
    val_a = column(os.path.join(run_dir, "metrics.csv"), "val_loss")
    val_b = column(os.path.join(out, "metrics.csv"), "val_loss")
    assert len(val_a) == len(val_b), (name, len(val_a), len(val_b))
    assert all(abs(a - b) <= 1e-6 for a, b in zip(val_a, val_b)), (name, val_a, val_b)
    print("%-22s %5d steps, %2d epochs: largest difference %.3g, %d of %d losses bit-identical"
          % (name, len(ours), len(val_a), worst, same, len(ours)))
    return script


def bad_input(cli, work, run_dir):
    """Each refused with exit 2, naming the problem; nothing written, a user's file untouched."""
    mine = os.path.join(work, "mine.py")
    with open(mine, "w") as f:
        f.write("print('my own script')\n")
    config_file = os.path.join(work, "csv.json")
    with open(config_file, "w") as f:
        f.write('{"data": {"source": "csv", "csv": {"path": "t.csv"}}}')
    cases = [
        ([run_dir, "-o", mine], "was not written by TrainScope"),
        ([run_dir, "-o", work], "is a directory"),
        ([run_dir, "-o", os.path.join(work, "no", "such", "x.py")], "does not exist"),
        ([os.path.join(work, "missing-run")], "does not exist"),
        ([os.path.join(run_dir, "steps.csv")], "is not a run folder"),
        ([work], "has no config.json"),
        ([run_dir, "--preset", "moons"], "one of RUN, --preset NAME or --config FILE"),
        ([], "one of RUN, --preset NAME or --config FILE"),
        (["--preset", "no-such-preset"], "no-such-preset"),
        (["--config", config_file], "export a run of it"),
        (["--preset", "moons", "--set", "scheduler.name=ReduceLROnPlateau", "--set", "scheduler.warmup_epochs=2"],
         "scheduler.warmup_epochs"),
    ]
    for args, says in cases:
        r = cli_run(cli, "export-python", *args, expect=(2,))
        assert says in r.stderr, (args, r.stderr)
        assert not r.stdout, (args, r.stdout[:200])
    with open(mine) as f:
        assert f.read() == "print('my own script')\n"
    print("bad input: %d cases refused with exit 2, your own file untouched" % len(cases))


def caveats(cli, work):
    """A resumed run with a changed lr: the export warns and its docstring says what it does not
    reproduce; the script refuses --out into a run folder (its steps.csv is the record)."""
    first, resumed = os.path.join(work, "rs1"), os.path.join(work, "rs2")
    cli_run(cli, "train", "--preset", "moons", "--epochs", "2", "--out", first)
    cli_run(cli, "train", "--resume", os.path.join(first, "checkpoints", "last.pt"), "--epochs", "3",
            "--set", "optimizer.lr=0.001", "--out", resumed)
    r = cli_run(cli, "export-python", resumed)
    assert "warning: this run was resumed from" in r.stderr and "optimizer.lr changed" in r.stderr, r.stderr
    assert "NOTE: this run was resumed from" in r.stdout and "NOTE: settings changed" in r.stdout
    before = open(os.path.join(first, "steps.csv")).read()
    script = os.path.join(work, "moons.py")
    p = subprocess.run([PY, script, "--out", first], capture_output=True, text=True)
    assert p.returncode != 0 and "is a TrainScope run folder" in p.stderr, (p.returncode, p.stderr)
    assert open(os.path.join(first, "steps.csv")).read() == before
    print("caveats: a resumed run's export says so; --out into a run folder refused")


def main(cli, work):
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    for name, args in CASES + own_data(work):
        check_case(cli, work, name, args)
    changed_data(cli, work)
    # --preset: the same script as the export of a run of the preset, but for where it came from
    # and what the run filled in (training.non_finite: the CLI's default "stop")
    from_preset = cli_run(cli, "export-python", "--preset", "overfit-sine").stdout
    with open(os.path.join(work, "overfit-sine.py")) as f:
        from_run = f.read()
    strip = lambda text: [l for l in text.splitlines() if not l.startswith("From ")]
    assert strip(from_preset) == strip(from_run), "export --preset differs from the run's export"
    # a second export over the file it wrote is allowed (it carries TrainScope's marker)
    cli_run(cli, "export-python", os.path.join(work, "run-moons"), "-o", os.path.join(work, "moons.py"))
    bad_input(cli, work, os.path.join(work, "run-moons"))
    caveats(cli, work)
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(*sys.argv[1:]))
