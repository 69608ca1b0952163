#!/usr/bin/python3
"""Runs every built-in preset with a trainscope-cli and diffs the run directories of two builds.

A refactoring that claims "no change in behaviour" must leave every preset's files bit for bit as
they were, wall-clock values aside (ARCHITECTURE section 4: epoch_seconds, samples_per_second
and any other time are the only values allowed to differ between two runs with the same seed and
config).

  preset_diff.py run CLI ROOT [--epochs N] [--limit N]
                                             every preset into ROOT/<preset> (ROOT must not
                                             exist); --limit sets data.limit (fewer samples
                                             for the presets that read files)
  preset_diff.py compare ROOT_A ROOT_B [--added KEYS]
                                             differences, exit 1 when there are any; KEYS
                                             (comma-separated dotted paths, e.g.
                                             "data.input_shape,*.pt:data") are keys a change
                                             adds on purpose: allowed in B only, nothing else.
                                             FILE:KEY limits a key to the files whose name
                                             matches FILE (fnmatch: "run.json", "*.pt")
  preset_diff.py selfcheck CLI [--epochs N] [--limit N]
                                             runs twice with one build and compares (must be
                                             equal), then checks that a changed value, a changed
                                             weight and a missing file are each reported

Compared: every file of a run directory. CSV and JSON/JSONL values cell by cell, with the wall
clock columns and keys left out and the run root replaced by <ROOT>; checkpoints (.pt) loaded with
Python's torch 1.13 (torch.load) and compared entry by entry, tensors with torch.equal (NaN equal to NaN at the same place; dtype,
shape and every bit); other files byte for byte. Every preset runs with training.num_threads=1:
"auto" chooses by timing, and its events would differ from run to run. Automatic checkpoint
saves are left out of events.jsonl's comparison: they follow the wall clock
(checkpoint.interval_seconds).
"""
import csv
import fnmatch
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

# Keys and columns that hold wall-clock values, host facts or the command line.
VOLATILE = re.compile(
    r"(seconds|per_second|wall|elapsed|time|date|host|hostname|pid|command|argv|cwd|started|"
    r"finished|created|_at$|samples_per_s|rate|throughput|memory|estimate_bytes|available|data_wait)",
    re.IGNORECASE)


def presets(cli):
    out = subprocess.run([cli, "presets"], check=True, capture_output=True, text=True).stdout
    names = [line.split()[0] for line in out.splitlines() if line.strip() and not line.startswith(" ")]
    if not names:
        sys.exit("preset_diff: `%s presets` listed no presets" % cli)
    return names


def run_all(cli, root, epochs, limit=None):
    if os.path.exists(root):
        sys.exit("preset_diff: %s exists; give a new folder" % root)
    os.makedirs(root)
    for name in presets(cli):
        args = [cli, "train", "--preset", name, "--out", os.path.join(root, name),
                "--set", "training.num_threads=1"]
        if epochs:
            args += ["--epochs", str(epochs)]
        if limit:
            args += ["--set", "data.limit=%d" % limit]
        r = subprocess.run(args, capture_output=True, text=True)
        # 0 completed, 1 failed to finish cleanly, 3 ended by a non-finite loss (exploding); 2 is
        # a refused command line and anything else a crash.
        if r.returncode not in (0, 1, 3) or not os.path.exists(os.path.join(root, name, "summary.json")):
            sys.exit("preset_diff: %s failed (exit %d):\n%s" % (" ".join(args), r.returncode, r.stderr))
        print("ran %-20s exit %d" % (name, r.returncode), flush=True)


ADDED = set()  # compare --added: [FILE:]dotted key paths build B adds on purpose


def added_for(name):
    """The key paths of ADDED that apply to the file `name` (its base name matched against
    each entry's FILE pattern; entries without one apply to every file)."""
    keys = set()
    for entry in ADDED:
        pattern, _, key = entry.rpartition(":")
        if not pattern or fnmatch.fnmatch(os.path.basename(name), pattern):
            keys.add(key)
    return keys


def normalise(value, root, added=frozenset(), path=""):
    """JSON value with volatile keys dropped, the run root replaced and (for build B) the key
    paths `added` left out."""
    if isinstance(value, dict):
        return {k: normalise(v, root, added, path + "." + k) for k, v in value.items()
                if not VOLATILE.search(k) and (path + "." + k)[1:] not in added}
    if isinstance(value, list):
        return [normalise(v, root, added, path) for v in value]
    if isinstance(value, str):
        return value.replace(root, "<ROOT>")
    return value


def read_csv(path, root):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    if not rows:
        return []
    keep = [i for i, h in enumerate(rows[0]) if not VOLATILE.search(h)]
    return [[row[i].replace(root, "<ROOT>") if i < len(row) else None for i in keep] for row in rows]


def read_json_lines(path, root, added=frozenset()):
    """The lines of a JSONL file, normalised; automatic checkpoint saves left out: they are
    written at most once per checkpoint.interval_seconds of wall time, so a slower machine
    records fewer of them (the checkpoint files themselves are compared)."""
    with open(path) as f:
        rows = [json.loads(line) for line in f if line.strip()]
    return [normalise(r, root, added) for r in rows
            if not (isinstance(r, dict) and r.get("kind") == "checkpoint_saved"
                    and r.get("what") == "automatic")]


# One Python process compares every checkpoint pair of a compare() (importing torch takes ~2 s:
# a process per pair took most of this test's 270 s). stdin: JSON [[a, b, added], ...]; argv:
# VOLATILE, root_a, root_b; stdout: JSON, one list of differences per pair.
TORCH_COMPARE = r"""
import json, re, sys, torch
volatile = re.compile(sys.argv[1], re.IGNORECASE)
added = set()
def same(a, b, path, out):
    if isinstance(a, torch.Tensor) or isinstance(b, torch.Tensor):
        # NaN equals NaN at the same place (the history's columns hold NaN where an epoch has
        # no value, e.g. the accuracy of a regression run)
        if not (isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor) and a.dtype == b.dtype
                and a.shape == b.shape and (torch.equal(a, b) or (
                    a.is_floating_point() and torch.equal(a.isnan(), b.isnan())
                    and torch.equal(a.nan_to_num(0.0, float("inf"), float("-inf")),
                                    b.nan_to_num(0.0, float("inf"), float("-inf")))))):
            out.append(path + ": tensors differ")
        return
    if isinstance(a, dict) and isinstance(b, dict):
        keys_a = [k for k in a if not (isinstance(k, str) and volatile.search(k))]
        keys_b = [k for k in b if not (isinstance(k, str) and volatile.search(k))
                  and (path + "." + str(k))[1:] not in added]
        if keys_a != keys_b:
            out.append(path + ": keys %r != %r" % (keys_a, keys_b))
            return
        for k in keys_a:
            same(a[k], b[k], path + "." + str(k), out)
        return
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        if len(a) != len(b):
            out.append(path + ": lengths %d != %d" % (len(a), len(b)))
            return
        for i, (x, y) in enumerate(zip(a, b)):
            same(x, y, path + "[%d]" % i, out)
        return
    if isinstance(a, str) and isinstance(b, str):
        a, b = a.replace(sys.argv[2], "<ROOT>"), b.replace(sys.argv[3], "<ROOT>")
        if a.startswith("{"):  # the config and run info are JSON text
            import json
            try:
                def norm(v):
                    if isinstance(v, dict):
                        return {k: norm(x) for k, x in v.items() if not volatile.search(k)}
                    if isinstance(v, list):
                        return [norm(x) for x in v]
                    return v
                a, b = norm(json.loads(a)), norm(json.loads(b))
            except ValueError:
                pass
    if type(a) != type(b) or (a != b and not (a != a and b != b)):
        out.append(path + ": %r != %r" % (a, b))
results = []
for a, b, keys in json.load(sys.stdin):
    added = set(keys)
    out = []
    same(torch.load(a), torch.load(b), "", out)
    results.append(out[:20])
json.dump(results, sys.stdout)
"""


def compare_checkpoints(pairs, root_a, root_b):
    """Differences of each (a, b) checkpoint pair, in one torch process."""
    if not pairs:
        return []
    job = [[a, b, sorted(added_for(b))] for a, b in pairs]
    r = subprocess.run(["/usr/bin/python3", "-c", TORCH_COMPARE, VOLATILE.pattern, root_a, root_b],
                       input=json.dumps(job), capture_output=True, text=True)
    if r.returncode != 0:
        return [["cannot compare with torch: " + r.stderr.strip().splitlines()[-1]]] * len(pairs)
    return json.loads(r.stdout)


TFEVENTS = re.compile(r"^events\.out\.tfevents\..*$")


def files_under(root):
    """{name: path relative to root}; a TensorBoard event file's name holds its creation time
    and host, so it is named events.out.tfevents.* here."""
    out = {}
    for d, _, names in os.walk(root):
        for n in names:
            if n == ".trainscope.lock":
                continue
            rel = os.path.relpath(os.path.join(d, n), root)
            key = os.path.join(os.path.dirname(rel), "events.out.tfevents.*") if TFEVENTS.match(n) else rel
            out[key] = rel
    return out


def tfevents_values(path):
    """The event file's (step, file_version, {tag: value}) records, decoded by
    tensorboard_python.read_events (CRCs checked), wall times and volatile tags left out."""
    from tensorboard_python import read_events
    return [(step, version, {t: v for t, v in scalars.items() if not VOLATILE.search(t)})
            for _, step, version, scalars in read_events(path)]


def compare(root_a, root_b):
    root_a, root_b = os.path.abspath(root_a), os.path.abspath(root_b)
    problems = []
    checkpoints = []  # (name, a, b), compared together at the end
    na, nb = files_under(root_a), files_under(root_b)
    fa, fb = set(na), set(nb)
    for f in sorted(fa ^ fb):
        problems.append("%s: only in %s" % (f, root_a if f in fa else root_b))
    for f in sorted(fa & fb):
        a, b = os.path.join(root_a, na[f]), os.path.join(root_b, nb[f])
        if f.endswith("events.out.tfevents.*"):
            if tfevents_values(a) != tfevents_values(b):
                problems.append("%s: differs" % f)
        elif os.path.basename(f) == "system.csv":
            # the machine while the run trained, about a row a second: only its columns match
            with open(a) as fa_, open(b) as fb_:
                if fa_.readline() != fb_.readline():
                    problems.append("%s: header differs" % f)
        elif f.endswith(".csv"):
            ra, rb = read_csv(a, root_a), read_csv(b, root_b)
            if ra != rb:
                row = next((i for i, (x, y) in enumerate(zip(ra, rb)) if x != y), min(len(ra), len(rb)))
                problems.append("%s: differs at line %d (%d and %d lines)" % (f, row + 1, len(ra), len(rb)))
        elif f.endswith(".json") or f.endswith(".jsonl"):
            if f.endswith(".json"):
                with open(a) as fa_, open(b) as fb_:
                    ja = [normalise(json.load(fa_), root_a)]
                    jb = [normalise(json.load(fb_), root_b, added_for(f))]
            else:
                ja, jb = read_json_lines(a, root_a), read_json_lines(b, root_b, added_for(f))
            if ja != jb:
                problems.append("%s: differs" % f)
                for x, y in zip(ja, jb):
                    if x != y:
                        problems.append("  %s\n  %s" % (json.dumps(x)[:300], json.dumps(y)[:300]))
                        break
        elif f.endswith(".pt"):
            checkpoints.append((f, a, b))
        else:
            if open(a, "rb").read() != open(b, "rb").read():
                problems.append("%s: bytes differ" % f)
    found = compare_checkpoints([(a, b) for _, a, b in checkpoints], root_a, root_b)
    for (f, _, _), differences in zip(checkpoints, found):
        problems += ["%s%s" % (f, p) for p in differences]
    return problems


def report(problems):
    for p in problems:
        print(p)
    print("preset_diff: %d difference(s)" % len(problems))
    return 1 if problems else 0


def selfcheck(cli, epochs, limit=None):
    tmp = tempfile.mkdtemp(prefix="trainscope-preset-diff-")
    try:
        a, b = os.path.join(tmp, "a"), os.path.join(tmp, "b")
        run_all(cli, a, epochs, limit)
        run_all(cli, b, epochs, limit)
        problems = compare(a, b)
        if problems:
            print("two runs of one build differ:")
            return report(problems)
        # The comparer must see a changed number, a changed weight and a missing file.
        name = sorted(os.listdir(b))[0]
        metrics = os.path.join(b, name, "metrics.csv")
        lines = open(metrics).read().splitlines()
        cells = lines[1].split(",")
        cells[2] = repr(float(cells[2]) * (1 + 1e-7))  # train_loss
        lines[1] = ",".join(cells)
        open(metrics, "w").write("\n".join(lines) + "\n")
        ckpt = os.path.join(b, name, "checkpoints", "last.pt")
        subprocess.run(["/usr/bin/python3", "-c",
                        "import sys, torch; d = torch.load(sys.argv[1]); "
                        "t = d['model_state_dict']['0.weight']; t.view(-1)[0] = t.view(-1)[0].item() + 1e-6; "
                        "torch.save(d, sys.argv[1])", ckpt], check=True)
        os.remove(os.path.join(b, name, "summary.json"))
        found = compare(a, b)
        expected = ["metrics.csv: differs at line 2", "last.pt.model_state_dict.0.weight: tensors differ",
                    "summary.json: only in"]
        missing = [e for e in expected if not any(e in p for p in found)]
        if missing:
            print("the comparer missed: %s\nit reported: %s" % (missing, found))
            return 1
        # A key B adds is a difference unless --added names it (for the files it names), and
        # naming it hides nothing else.
        subprocess.run(["/usr/bin/python3", "-c",
                        "import sys, torch; d = torch.load(sys.argv[1]); d['new_part'] = {'x': 1}; "
                        "torch.save(d, sys.argv[1])", ckpt], check=True)
        run_json = os.path.join(b, name, "run.json")
        info = json.load(open(run_json))
        info["data"]["new_fact"] = [1, 2]
        json.dump(info, open(run_json, "w"))
        found = compare(a, b)
        if not any("last.pt: keys" in p for p in found) or not any("run.json" in p for p in found):
            print("the comparer missed an added key: %s" % found)
            return 1
        ADDED.update({"run.json:new_part", "*.pt:data.new_fact"})  # the wrong files
        found = compare(a, b)
        ADDED.clear()
        if not any("last.pt: keys" in p for p in found) or not any("run.json" in p for p in found):
            print("--added hid a key in files it does not name: %s" % found)
            return 1
        ADDED.update({"*.pt:new_part", "run.json:data.new_fact"})
        found = compare(a, b)
        if any("keys" in p or "run.json" in p for p in found) or not any(
                "0.weight: tensors differ" in p for p in found):
            ADDED.clear()
            print("--added hid too much or too little: %s" % found)
            return 1
        info["data"]["n_train"] += 1  # an existing fact beside the added one still counts
        json.dump(info, open(run_json, "w"))
        found = compare(a, b)
        ADDED.clear()
        if not any("run.json" in p for p in found):
            print("--added hid run.json's data: %s" % found)
            return 1
        print("preset_diff selfcheck: %d presets equal across two runs; a changed value, weight and "
              "file are reported" % len(os.listdir(a)))
        return 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main(argv):
    epochs = None
    if "--epochs" in argv:
        i = argv.index("--epochs")
        epochs = int(argv[i + 1])
        del argv[i:i + 2]
    limit = None
    if "--limit" in argv:
        i = argv.index("--limit")
        limit = int(argv[i + 1])
        del argv[i:i + 2]
    if len(argv) == 3 and argv[0] == "run":
        run_all(argv[1], argv[2], epochs, limit)
        return 0
    if len(argv) == 5 and argv[0] == "compare" and argv[3] == "--added":
        ADDED.update(filter(None, argv[4].split(",")))
        argv = argv[:3]
    if len(argv) == 3 and argv[0] == "compare":
        return report(compare(argv[1], argv[2]))
    if len(argv) == 2 and argv[0] == "selfcheck":
        return selfcheck(argv[1], epochs, limit)
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
