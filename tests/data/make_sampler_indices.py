#!/usr/bin/python3
"""Pins torch.utils.data.DistributedSampler's indices for tests/core/tst_distributed.cpp.

Run once with Debian's torch 1.13 (/usr/bin/python3 make_sampler_indices.py > sampler_indices.json)
and check the output in. For each case: the permutation DistributedSampler draws
(torch.randperm(n, generator=g) with g.manual_seed(seed + epoch); arange(n) without shuffling)
and the indices every rank takes from it (drop_last=False: padded by repeating the first
indices, then indices[rank:total:world_size]).
"""
import json

import torch
from torch.utils.data import DistributedSampler

CASES = [  # (n, world_size, seed, epoch, shuffle)
    (10, 3, 0, 0, True),    # padding 2
    (10, 2, 7, 3, True),    # no padding
    (5, 4, 1, 1, True),     # padding 3
    (3, 8, 2, 0, True),     # padding 5 > n: the order is cycled
    (7, 2, 0, 0, False),    # no shuffle, padding 1
    (1000, 3, 12345, 2, True),
]

out = {"torch_version": torch.__version__, "cases": []}
for n, world, seed, epoch, shuffle in CASES:
    if shuffle:
        g = torch.Generator()
        g.manual_seed(seed + epoch)
        order = torch.randperm(n, generator=g).tolist()
    else:
        order = list(range(n))
    ranks = []
    for rank in range(world):
        s = DistributedSampler(range(n), num_replicas=world, rank=rank, shuffle=shuffle,
                               seed=seed, drop_last=False)
        s.set_epoch(epoch)
        ranks.append(list(s))
    out["cases"].append({"n": n, "world_size": world, "seed": seed, "epoch": epoch,
                         "shuffle": shuffle, "order": order, "ranks": ranks})
print(json.dumps(out))
