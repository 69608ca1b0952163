"""torchvision 0.14's side of tst_augment: reads a JSON request on stdin, answers on stdout.

Request: {"dir": folder, "seeds": [..], "rrc": [[H, W, s0, s1, r0, r1], ..], "crop": [[H, W, th, tw], ..],
          "flip_p": p, "degrees": d, "jitter": [[b, c, s, h], ..],
          "pipelines": [{"exprs": ["T.RandomCrop(...)", ..], "shape": [C, H, W], "seed": s,
                         "count": n, "image": "in.f32", "out": "out.f32"}],
          "resize": [{"image": "in.u8", "shape": [C, H, W], "size": [h, w],
                      "mode": "bilinear", "antialias": true, "out": "out.u8"}]}
Every parameter is drawn after torch.manual_seed(seed) with torchvision's own get_params; each
pipeline runs T.Compose of the expressions on `count` images in turn after manual_seed(seed).
"""
import json
import os
import sys

import numpy as np
import torch
import torchvision.transforms as T
import torchvision.transforms.functional as F

req = json.load(sys.stdin)
folder = req["dir"]
out = {"rrc": [], "crop": [], "flip": [], "rotation": [], "jitter": []}
img_cache = {}


def dummy(c, h, w):
    return torch.zeros(c, h, w)


for s in req["seeds"]:
    row = []
    for h, w, s0, s1, r0, r1 in req["rrc"]:
        torch.manual_seed(s)
        row.append(list(T.RandomResizedCrop.get_params(dummy(1, int(h), int(w)), [s0, s1], [r0, r1])))
    out["rrc"].append(row)
    row = []
    for h, w, th, tw in req["crop"]:
        torch.manual_seed(s)
        row.append(list(T.RandomCrop.get_params(dummy(1, h, w), (th, tw))))
    out["crop"].append(row)
    torch.manual_seed(s)
    flip = T.RandomHorizontalFlip(p=req["flip_p"])
    marker = torch.arange(4.0).view(1, 1, 4)
    out["flip"].append([bool(flip(marker)[0, 0, 0] == 3.0) for _ in range(20)])
    torch.manual_seed(s)
    out["rotation"].append(T.RandomRotation.get_params([-req["degrees"], req["degrees"]]))
    row = []
    for b, c, sa, hu in req["jitter"]:
        torch.manual_seed(s)
        cj = T.ColorJitter(brightness=b, contrast=c, saturation=sa, hue=hu)
        order, *factors = T.ColorJitter.get_params(cj.brightness, cj.contrast, cj.saturation, cj.hue)
        row.append({"order": order.tolist(), "factors": factors})
    out["jitter"].append(row)

for p in req["pipelines"]:
    compose = T.Compose([eval(e, {"T": T}) for e in p["exprs"]])
    shape = p["shape"]
    images = np.fromfile(os.path.join(folder, p["image"]), dtype=np.float32).reshape(-1, *shape)
    torch.manual_seed(p["seed"])
    results = [compose(torch.from_numpy(images[k].copy())) for k in range(p["count"])]
    torch.stack(results).numpy().astype(np.float32).tofile(os.path.join(folder, p["out"]))

for r in req["resize"]:
    img = np.fromfile(os.path.join(folder, r["image"]), dtype=np.uint8).reshape(r["shape"])
    mode = T.InterpolationMode(r["mode"])
    res = F.resize(torch.from_numpy(img.copy()), r["size"], mode, antialias=r["antialias"])
    res.numpy().astype(np.uint8).tofile(os.path.join(folder, r["out"]))

json.dump(out, sys.stdout)
