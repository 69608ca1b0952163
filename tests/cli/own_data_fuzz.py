#!/usr/bin/python3
"""Fuzz the own-data readers (issue 22): mutated CSV tables, .npy/.npz files, image folders and
IDX files fed to `trainscope-cli data` must end with exit 0 or 2 (a message naming the file), never a
crash, a hang (20 s) or absurd memory (address space capped at 4 GiB).

usage: own_data_fuzz.py CLI WORKDIR [--cases N] [--seed S]
"""
import argparse
import os
import random
import resource
import shutil
import struct
import subprocess
import sys
import zlib

import numpy as np


def limit():
    resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))


def mutate(data, rng):
    b = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        op = rng.randrange(6)
        pos = rng.randrange(len(b) + 1) if b else 0
        if op == 0 and b:
            b[min(pos, len(b) - 1)] = rng.randrange(256)
        elif op == 1:
            b[pos:pos] = rng.choice([b",", b";", b"\t", b'"', b"\n", b"\r\n", b"\xef\xbb\xbf",
                                     b"nan", b"1e999", b"NA", b"\x00", b"9" * 30, b"-"])
        elif op == 2 and b:
            del b[pos:pos + rng.randint(1, 40)]
        elif op == 3:
            b = b[:pos]
        elif op == 4 and b:
            chunk = b[pos:pos + rng.randint(1, 200)]
            b[pos:pos] = chunk * rng.randint(1, 20)
        elif op == 5 and len(b) > 8:
            i = rng.randrange(len(b) - 4)
            b[i:i + 4] = struct.pack("<I", rng.choice([0, 1, 0xFFFFFFFF, 0x7FFFFFFF, rng.randrange(1 << 32)]))
    return bytes(b)


def png(pixels):
    h, w = pixels.shape
    raw = b"".join(b"\x00" + pixels[r].tobytes() for r in range(h))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def check(cli, args, what, failures):
    try:
        r = subprocess.run([cli, "data"] + args, capture_output=True, text=True, timeout=20,
                           preexec_fn=limit)
    except subprocess.TimeoutExpired:
        failures.append("%s: hung (20 s)" % what)
        return None
    if r.returncode not in (0, 2):
        failures.append("%s: exit %d\n%s" % (what, r.returncode, r.stderr[-2000:]))
    elif r.returncode == 2 and "error" not in r.stderr:
        failures.append("%s: exit 2 without a message" % what)
    return r.returncode


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("cli")
    ap.add_argument("work")
    ap.add_argument("--cases", type=int, default=15)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    nrng = np.random.default_rng(a.seed)
    shutil.rmtree(a.work, ignore_errors=True)
    os.makedirs(a.work)
    failures, codes = [], {0: 0, 2: 0}

    base_csv = "a,b,colour,label\n" + "".join(
        "%.3f,%d,%s,%s\n" % (nrng.normal(), i % 7, ["red", "blue"][i % 2], ["x", "y", "z"][i % 3])
        for i in range(40))
    x = nrng.normal(size=(30, 3)).astype(np.float32)
    y = nrng.integers(0, 3, 30)
    np.save(os.path.join(a.work, "base-x.npy"), x)
    np.save(os.path.join(a.work, "base-y.npy"), y)
    np.savez_compressed(os.path.join(a.work, "base.npz"), x=x, y=y)
    npy_x = open(os.path.join(a.work, "base-x.npy"), "rb").read()
    npz = open(os.path.join(a.work, "base.npz"), "rb").read()
    image = png(nrng.integers(0, 256, (5, 4), dtype=np.uint8))
    # An IDX pair as the format defines it (big-endian dims and elements): int16 labels, and
    # images as uint8 or as float32 features.
    def idx(a, code, dtype):
        head = bytes([0, 0, code, a.ndim]) + b"".join(int(s).to_bytes(4, "big") for s in a.shape)
        return head + np.ascontiguousarray(a.astype(dtype)).tobytes()
    idx_labels = os.path.join(a.work, "base-labels-idx1")
    open(idx_labels, "wb").write(idx(nrng.integers(1, 5, 30), 0x0B, ">i2"))
    idx_images = idx(nrng.integers(0, 256, (30, 4, 3)), 0x08, ">u1")
    idx_floats = idx(nrng.normal(size=(30, 5)), 0x0D, ">f4")

    for i in range(a.cases):
        f = os.path.join(a.work, "t%d.csv" % i)
        open(f, "wb").write(mutate(base_csv.encode(), rng))
        code = check(a.cli, ["--set", "data.source=csv", "--set", "data.csv.path=" + f,
                           "--set", "data.csv.categorical=one_hot"], "csv case %d" % i, failures)
        codes[code] = codes.get(code, 0) + 1
        f = os.path.join(a.work, "x%d.npy" % i)
        open(f, "wb").write(mutate(npy_x, rng))
        code = check(a.cli, ["--set", "data.source=npy", "--set", "data.npy.path=" + f, "--set",
                           "data.npy.y_path=" + os.path.join(a.work, "base-y.npy")],
                     "npy case %d" % i, failures)
        codes[code] = codes.get(code, 0) + 1
        f = os.path.join(a.work, "z%d.npz" % i)
        open(f, "wb").write(mutate(npz, rng))
        code = check(a.cli, ["--set", "data.source=npy", "--set", "data.npy.path=" + f],
                     "npz case %d" % i, failures)
        codes[code] = codes.get(code, 0) + 1
        root = os.path.join(a.work, "img%d" % i)
        for c in ("cat", "dog"):
            os.makedirs(os.path.join(root, c))
            for k in range(3):
                data = image if rng.random() < 0.5 else mutate(image, rng)
                open(os.path.join(root, c, "%d.png" % k), "wb").write(data)
        code = check(a.cli, ["--set", "data.source=image-folder", "--set", "data.image_folder.path=" + root],
                     "image folder case %d" % i, failures)
        codes[code] = codes.get(code, 0) + 1
        f = os.path.join(a.work, "i%d-idx3" % i)
        open(f, "wb").write(mutate(idx_images if i % 2 else idx_floats, rng))
        code = check(a.cli, ["--set", "data.source=idx", "--set", "data.idx.path=" + f,
                           "--set", "data.idx.y_path=" + idx_labels], "idx case %d" % i, failures)
        codes[code] = codes.get(code, 0) + 1
    print("cases: %d loaded, %d refused with exit 2" % (codes.get(0, 0), codes.get(2, 0)))
    if failures:
        sys.exit("\n".join(failures))


if __name__ == "__main__":
    main()
