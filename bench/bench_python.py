#!/usr/bin/python3
"""The fashion-mnist-mlp (or, with --cnn, fashion-mnist-cnn) workload in Python torch, timed like
bench_engine.

Run with Debian's interpreter (/usr/bin/python3, which has python3-torch 1.13). Reads the IDX
.gz files with gzip + numpy, standardises like TrainScope (pixels / 255, then one mean/std from
the training split), holds out the same validation fraction, and trains the same MLP with Adam
and the same batch size on shuffled batches. Timed: the training passes only (data loading and
model construction excluded), samples/s = training samples / that time. Prints each round, the
median of the timed rounds, and a last line "python_samples_per_second: X".

bench/run_bench.sh passes the workload's parameters as printed by bench_engine.
"""
import argparse
import gzip
import os
import statistics
import sys
import time

import numpy as np
import torch
import torch.nn.functional as F

DEFAULT_DIR = "/usr/share/datasets/fashion-mnist"


def read_idx(path, offset):
    with gzip.open(path, "rb") as f:
        return np.frombuffer(f.read(), dtype=np.uint8, offset=offset)


def load(data_dir, limit, val_fraction, data_seed):
    x = read_idx(os.path.join(data_dir, "train-images-idx3-ubyte.gz"), 16)
    y = read_idx(os.path.join(data_dir, "train-labels-idx1-ubyte.gz"), 8)
    x = x.reshape(-1, 28 * 28).astype(np.float32) / 255.0
    y = y.astype(np.int64)
    rng = np.random.RandomState(data_seed)
    if limit:
        keep = rng.permutation(len(x))[:limit]
        x, y = x[keep], y[keep]
    n = len(x)
    n_val = int(round(n * val_fraction))
    order = rng.permutation(n)
    train_idx = order[n_val:]
    x_train, y_train = x[train_idx], y[train_idx]
    # One mean/std (single channel) from the training split, population std like TrainScope.
    mean, std = float(x_train.mean()), float(x_train.std())
    x_train = (x_train - mean) / std
    return torch.from_numpy(np.ascontiguousarray(x_train)), torch.from_numpy(y_train)


def build_cnn(channels, batch_norm, n_out=10):
    """fashion-mnist-cnn's nn.Sequential (README "Your own model"): 3x3 convs, padding 1,
    [BatchNorm2d], ReLU, MaxPool2d(2), then a Linear output."""
    layers, c, side = [torch.nn.Unflatten(1, (1, 28, 28))], 1, 28
    for out in channels:
        layers.append(torch.nn.Conv2d(c, out, 3, padding=1))
        if batch_norm:
            layers.append(torch.nn.BatchNorm2d(out))
        layers += [torch.nn.ReLU(), torch.nn.MaxPool2d(2)]
        c, side = out, side // 2
    layers += [torch.nn.Flatten(), torch.nn.Linear(c * side * side, n_out)]
    return torch.nn.Sequential(*layers)


def sine_sequences(n, seq_len, noise, val_fraction, seed):
    """TrainScope's sine-sequence source drawn by numpy (same shapes and distribution; other
    samples): x [n_train, seq_len, 1], y [n_train, 1] the next value."""
    rng = np.random.RandomState(seed)
    phase = rng.uniform(0, 2 * np.pi, (n, 1))
    freq = rng.uniform(0.1, 0.3, (n, 1))
    s = np.sin(phase + freq * np.arange(seq_len + 1)[None]) + noise * rng.normal(size=(n, seq_len + 1))
    s = s.astype(np.float32)
    n_train = n - int(round(n * val_fraction))
    return (torch.from_numpy(np.ascontiguousarray(s[:n_train, :seq_len, None])),
            torch.from_numpy(np.ascontiguousarray(s[:n_train, seq_len:])))


class RnnNet(torch.nn.Module):
    """README's RnnNet for one layer, output "last"."""
    def __init__(self, cell, hidden):
        super().__init__()
        self.rnn = {"rnn": torch.nn.RNN, "lstm": torch.nn.LSTM, "gru": torch.nn.GRU}[cell](
            1, hidden, batch_first=True)
        self.head = torch.nn.Linear(hidden, 1)

    def forward(self, x):
        out, _ = self.rnn(x)
        return self.head(out[:, -1])


def build_model(hidden, n_in=784, n_out=10):
    layers, width = [], n_in
    for h in hidden:
        layers += [torch.nn.Linear(width, h), torch.nn.ReLU()]
        width = h
    layers.append(torch.nn.Linear(width, n_out))
    return torch.nn.Sequential(*layers)


def train_round(x, y, args):
    torch.manual_seed(args.seed)
    if args.rnn:
        model = RnnNet(args.rnn, args.rnn_hidden)
    else:
        model = build_cnn(args.cnn, args.batch_norm) if args.cnn else build_model(args.hidden)
    opt = (torch.optim.SGD(model.parameters(), lr=args.lr) if args.optimizer == "sgd"
           else torch.optim.Adam(model.parameters(), lr=args.lr))
    loss_fn = F.mse_loss if args.rnn else F.cross_entropy
    gen = torch.Generator().manual_seed(args.seed)
    n, bs = len(x), args.batch_size
    batches = (n + bs - 1) // bs  # keep the last partial batch
    seconds = 0.0
    for _ in range(args.epochs):
        start = time.perf_counter()
        perm = torch.randperm(n, generator=gen)
        model.train()
        for b in range(batches):
            idx = perm[b * bs:(b + 1) * bs]
            xb, yb = x.index_select(0, idx), y.index_select(0, idx)
            opt.zero_grad()
            loss = loss_fn(model(xb), yb)
            loss.backward()
            opt.step()
        seconds += time.perf_counter() - start
    return n * args.epochs / seconds


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--data-dir", default=DEFAULT_DIR)
    p.add_argument("--batch-size", type=int, default=128)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--hidden", default="256,128")
    p.add_argument("--cnn", default="", help="conv channels (fashion-mnist-cnn: 32,64); empty: the MLP")
    p.add_argument("--batch-norm", action="store_true", help="BatchNorm2d after each conv")
    p.add_argument("--rnn", default="", help="rnn, lstm or gru: the sine-sequence workload")
    p.add_argument("--rnn-hidden", type=int, default=64)
    p.add_argument("--seq-len", type=int, default=100)
    p.add_argument("--n-samples", type=int, default=2000)
    p.add_argument("--optimizer", default="adam", help="adam or sgd")
    p.add_argument("--val-fraction", type=float, default=0.2)
    p.add_argument("--limit", type=int, default=0)
    p.add_argument("--epochs", type=int, default=1)
    p.add_argument("--rounds", type=int, default=7)
    p.add_argument("--threads", type=int, default=os.cpu_count() or 1,
                   help="intra-op threads (0: leave torch's own default)")
    p.add_argument("--seed", type=int, default=42)
    p.add_argument("--data-seed", type=int, default=7)
    p.add_argument("--no-warmup", action="store_true")
    args = p.parse_args()
    args.hidden = [int(h) for h in args.hidden.split(",") if h]
    args.cnn = [int(c) for c in args.cnn.split(",") if c]

    if args.threads > 0:
        torch.set_num_threads(args.threads)
    if args.rnn:
        x, y = sine_sequences(args.n_samples, args.seq_len, 0.1, args.val_fraction, args.data_seed)
        name = "sine-sequence %s %d" % (args.rnn, args.rnn_hidden)
    else:
        x, y = load(args.data_dir, args.limit, args.val_fraction, args.data_seed)
        name = "fashion-mnist-cnn" if args.cnn else "fashion-mnist-mlp"
    print(f"workload: {name} in Python torch {torch.__version__}, {len(x)} train "
          f"samples, batch {args.batch_size}, {args.optimizer} lr {args.lr:g}, {args.epochs} epoch(s) per "
          f"round, {args.rounds} round(s), {torch.get_num_threads()} thread(s)", flush=True)
    if not args.no_warmup:
        train_round(x, y, args)
    results = []
    for r in range(args.rounds):
        results.append(train_round(x, y, args))
        print(f"round {r + 1}: python {results[-1]:.0f} samples/s", flush=True)
    print(f"median: python {statistics.median(results):.0f} samples/s")
    print(f"python_samples_per_second: {statistics.median(results):.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
