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


def run_err(cli, *args):
    """Like run, and returns stderr (where train prints its progress and warnings)."""
    r = subprocess.run([cli] + list(args), capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("%s %s failed (exit %d):\n%s" % (cli, " ".join(args), r.returncode, r.stderr))
    return r.stderr


def events_of(run_dir, kind):
    with open(os.path.join(run_dir, "events.jsonl")) as f:
        return [e for e in map(json.loads, f) if e["kind"] == kind]


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
    x = torch.tensor(np.asarray(x_val), dtype=torch.float32).reshape(len(x_val), -1) / pre["pixel_scale"]
    if pre["standardize"] == "per_feature":
        x = (x - torch.tensor(pre["mean"], dtype=torch.float32)) / torch.tensor(pre["std"], dtype=torch.float32)
    elif pre["standardize"] in ("per_channel", "global"):
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
        "--out", run_dir, "--overwrite")
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
    # Issue 43: validation rows that are training rows. The training file as data.csv.val_path:
    # `train` says what `data` says (was: "healthy" and nothing else), as an event of the run
    # and in the runs table's anomalies. The count, from the rows: validation rows whose
    # (features, label) also is a training row.
    leak_dir = os.path.join(work, "csv-leak")
    err = run_err(cli, "train", "--set", "data.source=csv", "--set", "data.csv.path=" + path,
                  "--set", "data.csv.val_path=" + path, "--set", "data.csv.target=species",
                  "--set", "data.csv.categorical=one_hot", "--set", "training.epochs=2",
                  "--out", leak_dir, "--overwrite")
    leak_split = json.load(open(os.path.join(leak_dir, "split.json")))
    train_rows = set(rows[i] for i in leak_split["train"])
    leaked = sum(1 for r in rows if r in train_rows)  # the validation file is the whole table
    assert leaked == 240, leaked
    sentence = "%d validation samples also occur in the training split" % leaked
    assert "warning: data: " + sentence in err, err
    warnings = [e for e in events_of(leak_dir, "data_warning") if e["what"] not in ("note", "csv_header")]
    assert [(e["what"], e["value"]) for e in warnings] == [("leakage", leaked)], warnings
    header = [e for e in events_of(leak_dir, "data_warning") if e["what"] == "csv_header"]
    assert [(e["value"], e["file"]) for e in header] == [(1, path)], header
    assert "note: data: " + path + ": line 1 read as the header (columns petal length" in err, err
    table = json.loads(run(cli, "runs", leak_dir, "--json"))
    assert "data leakage %d" % leaked in table[0]["anomalies"], table[0]["anomalies"]
    report = json.loads(run(cli, "data", "--set", "data.source=csv", "--set", "data.csv.path=" + path,
                            "--set", "data.csv.val_path=" + path, "--set", "data.csv.target=species",
                            "--set", "data.csv.categorical=one_hot", "--json"))
    assert any(sentence in w for w in report["warnings"]), report["warnings"]
    # The same table with two feature columns swapped: refused, not evaluated wrong.
    swapped = os.path.join(work, "flowers-swapped.csv")
    with open(swapped, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["petal width", "petal length", "colour", "species"])
        for r in rows:
            w.writerow([r[1], r[0], r[2], r[3]])
    ckpt = os.path.join(run_dir, "checkpoints", "last.pt")
    r = subprocess.run([cli, "evaluate", ckpt, "--set", "data.csv.path=" + swapped],
                       capture_output=True, text=True)
    assert r.returncode == 2 and "differ from those the checkpoint" in r.stderr, r.stderr
    # --set alone changes the checkpoint's own data keys: its own table again evaluates the same.
    again = json.loads(run(cli, "evaluate", ckpt, "--json", "--set", "data.csv.path=" + path))
    assert again["predicted_class"] == json.loads(run(cli, "evaluate", ckpt, "--json"))["predicted_class"]


def wide_and_id_columns_case(cli, work):
    """Issue 44 item 7: a header of 10^6 columns is handled in linear time (pairwise it took
    hours: 10^5 columns 28 s), and a one-hot column of 1,500 different texts (an id) is refused
    naming the column before anything is allocated (50,000 categories reached 8.7 GB)."""
    wide = os.path.join(work, "wide.csv")
    n = 10 ** 6
    with open(wide, "w") as f:
        f.write(",".join("c%d" % i for i in range(n)) + "\n")
        for j in range(1, 7):
            f.write(",".join(str((i + j) % 7) for i in range(n)) + "\n")
    r = subprocess.run([cli, "data", "--set", "data.source=csv", "--set", "data.csv.path=" + wide, "--json"],
                       capture_output=True, text=True, timeout=120)  # hours before the fix
    assert r.returncode == 0, r.stderr[-500:]
    assert json.loads(r.stdout)["input_shape"] == [n - 1], r.stdout[:300]
    ids = os.path.join(work, "ids.csv")
    with open(ids, "w") as f:
        f.write("id,x,label\n" + "".join("u%d,%d,%d\n" % (i, i % 5, i % 2) for i in range(1500)))
    r = subprocess.run([cli, "data", "--set", "data.source=csv", "--set", "data.csv.path=" + ids,
                        "--set", "data.csv.categorical=one_hot"], capture_output=True, text=True)
    assert r.returncode == 2 and "column 'id' holds 1500 different texts" in r.stderr, r.stderr


def npz_case(cli, work):
    """uint8 images [N, 1, 8, 8] with labels 3 and 4 and a validation split of its own."""
    rng = np.random.default_rng(2)
    x = rng.integers(0, 256, (300, 1, 8, 8), dtype=np.uint8)
    y = (x.reshape(300, -1)[:, :32].mean(1) > x.reshape(300, -1)[:, 32:].mean(1)).astype(np.int64) + 3
    path = os.path.join(work, "images.npz")
    np.savez_compressed(path, x=x[:240], y=y[:240], x_val=x[240:], y_val=y[240:])
    run_dir = os.path.join(work, "npz-run")
    run(cli, "train", "--set", "data.source=npy", "--set", "data.npy.path=" + path,
        "--set", "training.epochs=3", "--set", "name=npz", "--out", run_dir, "--overwrite")
    info = json.load(open(os.path.join(run_dir, "run.json")))["data"]
    assert info["class_names"] == ["3", "4"] and info["outputs"] == 2, info
    assert info["image_shape"] == [1, 8, 8] and info["x_dtype"] == "uint8", info
    split = json.load(open(os.path.join(run_dir, "split.json")))
    assert split["val"] is None and split["val_file"] == path and len(split["train"]) == 240
    check(cli, run_dir, x[240:].astype(np.float64), (y[240:] - 3).tolist(), "classification")
    # Issue 44 item 13: a member's bytes altered with its stored size kept (np.savez stores them
    # uncompressed) fails its zip CRC-32: refused, exit 2, naming the array
    altered = os.path.join(work, "altered.npz")
    np.savez(altered, x=np.full((50, 3), 7.0), y=np.arange(50) % 2)
    data = bytearray(open(altered, "rb").read())
    at = data.find(np.full(3, 7.0).tobytes())
    data[at + 3] ^= 0x01
    open(altered, "wb").write(bytes(data))
    r = subprocess.run([cli, "data", "--set", "data.source=npy", "--set", "data.npy.path=" + altered],
                       capture_output=True, text=True)
    assert r.returncode == 2 and "CRC-32" in r.stderr and "'x'" in r.stderr, (r.returncode, r.stderr)


def npy_pair_case(cli, work):
    """Regression from an .npy pair: x big-endian float64 in Fortran order, y float32."""
    rng = np.random.default_rng(3)
    x = rng.normal(size=(200, 4))
    y = (x @ np.array([1.0, -2.0, 0.5, 3.0]) + 0.1 * rng.normal(size=200)).astype(np.float32)
    xp, yp = os.path.join(work, "x.npy"), os.path.join(work, "y.npy")
    np.save(xp, np.asfortranarray(x.astype(">f8")))
    np.save(yp, y)
    run_dir = os.path.join(work, "npy-run")
    run(cli, "train", "--set", "data.source=npy", "--set", "data.npy.path=" + xp,
        "--set", "data.npy.y_path=" + yp, "--set", "training.epochs=3", "--set", "name=npy",
        "--set", "data.val_fraction=0.3", "--out", run_dir, "--overwrite")
    info = json.load(open(os.path.join(run_dir, "run.json")))["data"]
    assert info["task"] == "regression" and info["outputs"] == 1, info
    split = json.load(open(os.path.join(run_dir, "split.json")))
    assert sorted(split["train"] + split["val"]) == list(range(200))
    check(cli, run_dir, x[split["val"]], y[split["val"]].tolist(), "regression")


def write_png(path, pixels):
    """A grayscale (H, W) or RGB (H, W, 3) uint8 array as an 8-bit PNG (zlib, no filter)."""
    import struct
    import zlib
    h, w = pixels.shape[:2]
    colour = 2 if pixels.ndim == 3 else 0
    raw = b"".join(b"\x00" + pixels[r].tobytes() for r in range(h))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, colour, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def image_folder_case(cli, work):
    """RGB PNGs in root/train/<class>/ and root/val/<class>/, a text file and a broken image."""
    rng = np.random.default_rng(4)
    root = os.path.join(work, "shapes")
    classes = ["circle", "square", "triangle"]
    val_x, val_y = [], []
    for split, n in (("train", 20), ("val", 6)):
        for c, name in enumerate(classes):
            os.makedirs(os.path.join(root, split, name), exist_ok=True)
            for i in range(n):
                img = rng.integers(0, 256, (6, 5, 3), dtype=np.uint8)
                img[:, :, c] = np.clip(img[:, :, c].astype(int) + 100, 0, 255).astype(np.uint8)
                write_png(os.path.join(root, split, name, "%03d.png" % i), img)
                if split == "val":
                    val_x.append(img.transpose(2, 0, 1).astype(np.float64))  # [C, H, W]
                    val_y.append(c)
    open(os.path.join(root, "train", "circle", "notes.txt"), "w").write("not an image")
    open(os.path.join(root, "train", "square", "broken.png"), "wb").write(b"\x89PNG\r\n\x1a\nbroken")
    run_dir = os.path.join(work, "images-run")
    err = run_err(cli, "train", "--set", "data.source=image-folder", "--set", "data.image_folder.path=" + root,
        "--set", "data.image_folder.channels=3", "--set", "training.epochs=3", "--set", "name=shapes",
        "--out", run_dir, "--overwrite")
    info = json.load(open(os.path.join(run_dir, "run.json")))["data"]
    assert info["class_names"] == classes and info["image_shape"] == [3, 6, 5], info
    assert info["n_train"] == 60 and info["n_val"] == 18, info
    report = json.loads(run(cli, "data", "--set", "data.source=image-folder", "--set",
                            "data.image_folder.path=" + root, "--set", "data.image_folder.channels=3", "--json"))
    notes = " ".join(report["notes"])
    assert "notes.txt" in notes and "broken.png" in notes, report["notes"]
    # Issue 43: `train` says it too (was: only `data`), and the run records it.
    assert "note: data: could not decode (skipped): " in err and "broken.png" in err, err
    skipped = [e["message"] for e in events_of(run_dir, "data_warning") if e["what"] == "note"]
    assert any("broken.png" in m for m in skipped) and any("notes.txt" in m for m in skipped), skipped
    split = json.load(open(os.path.join(run_dir, "split.json")))
    assert split["files"][0] == "circle/000.png" and len(split["files"]) == 60, split["files"][:3]
    check(cli, run_dir, val_x, val_y, "classification")
    # Issue 44 item 12: links to folders below a class folder are not followed: a loop
    # (circle/loop -> ..: every class again, labelled circle), a link to another class and a
    # second way into one folder are skipped and listed; the counts stay those of the files
    linked = os.path.join(work, "linked")
    shutil.rmtree(linked, ignore_errors=True)  # the work folder is kept between runs
    shutil.copytree(os.path.join(root, "train"), linked, symlinks=True)
    os.makedirs(os.path.join(linked, "circle", "more"))
    write_png(os.path.join(linked, "circle", "more", "extra.png"), rng.integers(0, 256, (6, 5, 3), dtype=np.uint8))
    os.symlink("..", os.path.join(linked, "circle", "loop"))
    os.symlink(os.path.join("..", "square"), os.path.join(linked, "circle", "squares"))
    os.symlink("more", os.path.join(linked, "circle", "more-again"))
    report = json.loads(run(cli, "data", "--set", "data.source=image-folder", "--set",
                            "data.image_folder.path=" + linked, "--set", "data.image_folder.channels=3",
                            "--set", "data.val_fraction=0.2", "--json"))
    assert report["n_train"] + report["n_val"] == 61, report  # 60 + extra.png, once
    notes = " ".join(report["notes"])
    for link in ("circle/loop", "circle/squares", "circle/more-again"):
        assert any(n.endswith(link) and "not followed" in n for n in report["notes"]), (link, notes)


def image_cache_case(cli, work):
    """Issue 44 item 13: the decoded-pixel cache carries a CRC-32; a cache whose pixels were
    altered is not read (the images are decoded again: the same data as the first time)."""
    import glob
    rng = np.random.default_rng(9)
    root = os.path.join(work, "cached")
    for old in (root, os.path.join(work, "image-cache")):
        shutil.rmtree(old, ignore_errors=True)  # the work folder is kept between runs
    for c in ("a", "b"):
        os.makedirs(os.path.join(root, c))
        for i in range(10):
            write_png(os.path.join(root, c, "%d.png" % i), rng.integers(0, 256, (4, 4), dtype=np.uint8))
    env = dict(os.environ, TRAINSCOPE_CACHE_DIR=os.path.join(work, "image-cache"))
    args = [cli, "data", "--set", "data.source=image-folder", "--set", "data.image_folder.path=" + root,
            "--set", "data.image_folder.channels=1", "--json"]
    def report():
        r = subprocess.run(args, env=env, capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        return json.loads(r.stdout)
    first = report()
    (cache,) = glob.glob(os.path.join(work, "image-cache", "image-folder-*.bin"))
    second = report()
    assert any("read from the cache" in n for n in second["notes"]), second["notes"]
    data = bytearray(open(cache, "rb").read())
    data[-10] ^= 0x40  # a pixel of the last image (the CRC-32 is the last 4 bytes)
    open(cache, "wb").write(bytes(data))
    third = report()
    assert not any("read from the cache" in n for n in third["notes"]), third["notes"]
    strip = lambda rep: {k: v for k, v in rep.items() if k != "notes"}
    assert strip(third) == strip(first), (strip(third), strip(first))


def main():
    cli, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    csv_case(cli, work)
    wide_and_id_columns_case(cli, work)
    npz_case(cli, work)
    npy_pair_case(cli, work)
    image_folder_case(cli, work)
    image_cache_case(cli, work)
    print("own data: every case equals Python")


if __name__ == "__main__":
    main()
