#!/usr/bin/python3
"""Writes fashion-mnist-cnn's nn.Sequential (README "Your own model"; bench_python.build_cnn) as
TorchScript, for `bench_engine --preset fashion-mnist-cnn --torchscript FILE`: the same
architecture trained as model.kind "torchscript" against the built-in "cnn".

usage: /usr/bin/python3 bench/make_torchscript.py FILE
"""
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_python import build_cnn  # noqa: E402

if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    torch.manual_seed(42)
    torch.jit.script(build_cnn([32, 64], batch_norm=True)).save(sys.argv[1])
    print("wrote", sys.argv[1])
