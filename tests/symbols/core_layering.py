#!/usr/bin/python3
"""Counts the include arrows inside core/ that run back up (LLVM's library layering: a folder
uses only folders below it; ../shared/design/STYLE.md, "Library layering").

core's folders, lowest first, are LAYERS below. An arrow is a pair (folder A, folder B) where a
file under core/A has `#include "core/B/..."`; it runs back up when B sits above A. The files
core/*.h at the top of core (errors.h, base_pch.h) are below every folder.

  core_layering.py [--max N] [--root DIR]   prints every arrow that runs back up with its
                                            include lines; exits 1 when there are more than N
  core_layering.py --selfcheck              checks the counting on a made-up tree
"""
import argparse
import os
import re
import sys
import tempfile

# Lowest first. kinds/ is the composition root: it names every data source, model kind and
# optimizer, so it sits above data/, model/ and optim/, and nothing in core includes it. sweep/
# runs trials as train processes and reads their folders: above everything, included by none.
# export/ reads a run's folder and checkpoint (run/, train/state) and writes files for other
# runtimes: included by the front ends only.
LAYERS = ["system", "io", "config", "data", "model", "optim", "run", "distributed", "train",
          "export", "kinds", "sweep"]

INCLUDE = re.compile(r'^\s*#\s*include\s+"core/([A-Za-z0-9_]+)/')


def arrows_up(root):
    """{(from, to): [(file, line number, text), ...]} for every include that runs back up."""
    rank = {name: i for i, name in enumerate(LAYERS)}
    found = {}
    core = os.path.join(root, "core")
    for folder, _, files in os.walk(core):
        rel = os.path.relpath(folder, core)
        if rel == ".":
            continue
        src = rel.split(os.sep)[0]
        if src not in rank:
            raise SystemExit(f"core/{src}/ is not in LAYERS ({__file__}): place it")
        for name in sorted(files):
            if not name.endswith((".h", ".cpp")):
                continue
            path = os.path.join(folder, name)
            with open(path, encoding="utf-8", errors="replace") as f:
                for number, text in enumerate(f, 1):
                    m = INCLUDE.match(text)
                    if not m:
                        continue
                    dst = m.group(1)
                    if dst not in rank:
                        raise SystemExit(f"{path}:{number}: core/{dst}/ is not in LAYERS")
                    if rank[dst] > rank[src]:
                        found.setdefault((src, dst), []).append(
                            (os.path.relpath(path, root), number, text.strip()))
    return found


def report(found):
    for (src, dst), lines in sorted(found.items()):
        print(f"core/{src} -> core/{dst}: {len(lines)} include(s)")
        for path, number, text in lines:
            print(f"    {path}:{number}: {text}")
    total = sum(len(v) for v in found.values())
    print(f"{len(found)} arrow(s) run back up inside core ({total} include line(s)); "
          f"layers, lowest first: {' < '.join(LAYERS)}")


def selfcheck():
    with tempfile.TemporaryDirectory() as root:
        def write(path, text):
            os.makedirs(os.path.dirname(os.path.join(root, path)), exist_ok=True)
            with open(os.path.join(root, path), "w") as f:
                f.write(text)
        write("core/io/a.h", '#include "core/system/clock.h"\n')           # down: fine
        write("core/system/b.cpp", '#include "core/io/a.h"\n')             # up
        write("core/config/c.cpp", '#include "core/data/d.h"\n'
              '  #  include "core/model/m.h"\n#include "core/data/e.h"\n')  # up x2 arrows
        write("core/train/t.cpp", '#include "core/kinds/k.h"\n// #include "core/x/y.h"\n')
        found = arrows_up(root)
        expected = {("system", "io"): 1, ("config", "data"): 2, ("config", "model"): 1,
                    ("train", "kinds"): 1}
        got = {k: len(v) for k, v in found.items()}
        if got != expected:
            print(f"selfcheck failed: {got} != {expected}")
            return 1
    print("selfcheck passed")
    return 0


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--max", type=int, default=None)
    p.add_argument("--root", default=os.path.join(os.path.dirname(__file__), "..", ".."))
    p.add_argument("--selfcheck", action="store_true")
    a = p.parse_args()
    if a.selfcheck:
        return selfcheck()
    found = arrows_up(a.root)
    report(found)
    if a.max is not None and len(found) > a.max:
        print(f"more than {a.max} arrow(s) run back up")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
