#!/usr/bin/env python3
"""The minimal Python torch loop a TrainScope small-model run is compared with (issue 26).

Same model (an MLP of nn.Linear and the activation, PyTorch's default initialisation), loss
(cross-entropy or MSE), optimizer, batch size, epochs and per-step reads as the engine: per
step zero_grad, forward, loss, backward, the total gradient norm (as clip_grad_norm_ computes
it; clipping when asked), step, and loss.item() and the norm read back; per epoch a shuffled
order and a validation pass under torch.no_grad() (loss, and accuracy for classification).
The data are random tensors of the preset's shapes and sizes (the cost per step is compared,
not the learning). Prints the training loop's steps per second (epochs with their validation,
start-up and data creation excluded) as "steps_per_second: X".
Run with Debian's /usr/bin/python3 (python3-torch 1.13); see bench/small_models.sh.
"""
import argparse
import time

import torch
import torch.nn as nn
import torch.nn.functional as F


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--inputs", type=int, required=True)
    ap.add_argument("--outputs", type=int, required=True)
    ap.add_argument("--hidden", default="32,32")
    ap.add_argument("--activation", default="tanh", choices=["tanh", "relu"])
    ap.add_argument("--task", default="classification", choices=["classification", "regression"])
    ap.add_argument("--optimizer", default="adam", choices=["adam", "sgd"])
    ap.add_argument("--lr", type=float, default=0.01)
    ap.add_argument("--clip", type=float, default=0.0, help="max_norm; 0: no clipping")
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--train", type=int, required=True, help="training samples")
    ap.add_argument("--val", type=int, required=True, help="validation samples")
    ap.add_argument("--epochs", type=int, required=True)
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args()

    torch.set_num_threads(args.threads)
    torch.manual_seed(42)
    widths = [args.inputs] + [int(h) for h in args.hidden.split(",") if h] + [args.outputs]
    layers = []
    for i in range(len(widths) - 1):
        layers.append(nn.Linear(widths[i], widths[i + 1]))
        if i < len(widths) - 2:
            layers.append(nn.Tanh() if args.activation == "tanh" else nn.ReLU())
    model = nn.Sequential(*layers)
    params = list(model.parameters())
    if args.optimizer == "adam":
        opt = torch.optim.Adam(params, lr=args.lr)
    else:
        opt = torch.optim.SGD(params, lr=args.lr)
    classification = args.task == "classification"
    x = torch.randn(args.train, args.inputs)
    xv = torch.randn(args.val, args.inputs)
    if classification:
        y = torch.randint(0, args.outputs, (args.train,))
        yv = torch.randint(0, args.outputs, (args.val,))
        loss_fn = F.cross_entropy
    else:
        y = torch.randn(args.train, args.outputs)
        yv = torch.randn(args.val, args.outputs)
        loss_fn = F.mse_loss
    gen = torch.Generator().manual_seed(0)

    steps = 0
    start = time.perf_counter()
    for _ in range(args.epochs):
        model.train()
        order = torch.randperm(args.train, generator=gen)
        for b in range(0, args.train, args.batch_size):
            idx = order[b:b + args.batch_size]
            opt.zero_grad()
            loss = loss_fn(model(x[idx]), y[idx])
            loss.backward()
            if args.clip > 0:
                norm = torch.nn.utils.clip_grad_norm_(params, args.clip)
            else:
                norm = torch.norm(torch.stack([torch.norm(p.grad.detach(), 2) for p in params]), 2)
            opt.step()
            loss.item()
            norm.item()
            steps += 1
        model.eval()
        with torch.no_grad():
            out = model(xv)
            loss_fn(out, yv).item()
            if classification:
                (out.argmax(1) == yv).float().mean().item()
    seconds = time.perf_counter() - start
    print(f"steps: {steps}")
    print(f"seconds: {seconds:.6f}")
    print(f"steps_per_second: {steps / seconds:.1f}")


if __name__ == "__main__":
    main()
