#!/usr/bin/python3
"""The experiment log's CLI (issue 24): `runs`, `compare` and `follow`, checked against values
computed here from each run's own files (metrics.csv, config.json) and from what was done to
the folders (a run killed with SIGKILL is "crashed", a user's folder is "not a run", a run.json
cut in half is "incomplete", a huge learning rate is "diverged").

usage: runs_table.py CLI WORKDIR
"""
import csv
import fcntl
import io
import json
import math
import os
import select
import shutil
import signal
import subprocess
import sys
import time


def run(cli, *args, code=0):
    r = subprocess.run([cli] + list(args), capture_output=True, text=True)
    if code is not None and r.returncode != code:
        sys.exit("%s %s: exit %d, expected %d:\n%s%s" % (cli, " ".join(args), r.returncode, code,
                                                      r.stdout[-3000:], r.stderr))
    return r


def metrics(run_dir):
    return list(csv.DictReader(open(os.path.join(run_dir, "metrics.csv"))))


def expect_close(a, b, what):
    assert a is not None and abs(a - b) <= 1e-12 * max(1.0, abs(b)), "%s: %r != %r" % (what, a, b)


def main():
    cli, work = os.path.abspath(sys.argv[1]), sys.argv[2]
    shutil.rmtree(work, ignore_errors=True)
    runs = os.path.join(work, "runs")
    os.makedirs(runs)
    small = ["--set", "data.n_samples=120", "--set", "training.num_threads=1"]
    lrs = {"lr-a": 0.003, "lr-b": 0.01, "lr-c": 0.0003}
    for name, lr in lrs.items():
        run(cli, "train", "--preset", "overfit-sine", "--epochs", "5", *small, "--set",
            "optimizer.lr=%g" % lr, "--out", os.path.join(runs, name))
    run(cli, "train", "--preset", "moons", "--epochs", "3", "--set", "training.num_threads=1",
        "--set", 'teaching.mistakes=["no_zero_grad"]', "--out", os.path.join(runs, "moons"))
    # SGD at lr 1000: diverged (exit 3)
    run(cli, "train", "--preset", "overfit-sine", "--epochs", "5", *small, "--set",
        "optimizer.name=sgd", "--set", "optimizer.lr=1000", "--out", os.path.join(runs, "huge"), code=3)
    # killed: crashed
    p = subprocess.Popen([cli, "train", "--preset", "overfit-sine", "--epochs", "100000", *small,
                          "--out", os.path.join(runs, "killed")],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(600):
        time.sleep(0.05)
        m = os.path.join(runs, "killed", "metrics.csv")
        if os.path.exists(m) and len(open(m).read().splitlines()) > 3:
            break
    p.kill()
    p.wait()
    # a user's folder, an empty one, a half-copied run, a file
    os.makedirs(os.path.join(runs, "my-notes"))
    open(os.path.join(runs, "my-notes", "ideas.txt"), "w").write("try dropout\n")
    os.makedirs(os.path.join(runs, "empty"))
    shutil.copytree(os.path.join(runs, "lr-a"), os.path.join(runs, "half"))
    text = open(os.path.join(runs, "half", "run.json")).read()
    open(os.path.join(runs, "half", "run.json"), "w").write(text[: len(text) // 2])
    # a finished run whose metrics.csv was cut short (2 of its 5 epochs): its final numbers
    # would be another run's, so it is "incomplete"
    shutil.copytree(os.path.join(runs, "lr-b"), os.path.join(runs, "short"))
    lines = open(os.path.join(runs, "short", "metrics.csv")).read().splitlines(True)
    open(os.path.join(runs, "short", "metrics.csv"), "w").write("".join(lines[:3]))
    open(os.path.join(runs, "README.txt"), "w").write("not a folder\n")
    # notes and tags (the dashboard writes them; the table reads them)
    json.dump({"notes": "baseline, 5 epochs", "tags": ["sine", "lr sweep"]},
              open(os.path.join(runs, "lr-a", "notes.json"), "w"))
    json.dump({"notes": "=HYPERLINK(\"http://x\",\"y\")", "tags": ["@SUM(1)", "-2+3"]},
              open(os.path.join(runs, "lr-c", "notes.json"), "w"))

    table = json.loads(run(cli, "runs", runs, "--json").stdout)
    by = {r["name"]: r for r in table}
    assert set(by) == {"lr-a", "lr-b", "lr-c", "moons", "huge", "killed", "my-notes", "empty",
                       "half", "short"}, sorted(by)
    want_status = {"lr-a": "completed", "lr-b": "completed", "lr-c": "completed",
                   "moons": "completed", "huge": "diverged", "killed": "crashed",
                   "my-notes": "not a run", "empty": "not a run", "half": "incomplete",
                   "short": "incomplete"}
    for name, st in want_status.items():
        assert by[name]["status"] == st, (name, by[name]["status"], by[name]["reason"])
    assert "run.json" in by["half"]["reason"], by["half"]["reason"]
    assert "summary.json" in by["killed"]["reason"], by["killed"]["reason"]
    assert "metrics.csv ends at epoch 2" in by["short"]["reason"], by["short"]["reason"]
    # a teaching run says so in its own column; the others have none
    assert by["moons"]["mistakes"] == "no_zero_grad", by["moons"]["mistakes"]
    assert by["lr-a"]["mistakes"] is None, by["lr-a"]["mistakes"]
    for name in ["lr-a", "lr-b", "lr-c", "moons", "killed"]:
        rows = metrics(os.path.join(runs, name))
        vals = [float(r["val_loss"]) for r in rows]
        best = min(vals)
        expect_close(by[name]["best_val_loss"], best, name + " best_val_loss")
        assert by[name]["best_epoch"] == int(rows[vals.index(best)]["epoch"]), name
        expect_close(by[name]["final_val_loss"], vals[-1], name + " final_val_loss")
        assert by[name]["epochs_done"] == int(rows[-1]["epoch"]), name
        config = json.load(open(os.path.join(runs, name, "config.json")))
        expect_close(by[name]["lr"], config["optimizer"]["lr"], name + " lr")
        assert by[name]["seed"] == json.load(open(os.path.join(runs, name, "run.json")))["seed"]
    accs = [float(r["val_accuracy"]) for r in metrics(os.path.join(runs, "moons"))]
    expect_close(by["moons"]["best_val_accuracy"], max(accs), "moons best_val_accuracy")
    assert by["lr-a"]["epochs"] == "5/5" and by["killed"]["epochs"].endswith("/100000")
    assert "non-finite" in by["huge"]["anomalies"], by["huge"]["anomalies"]
    assert by["lr-a"]["notes"] == "baseline, 5 epochs" and by["lr-a"]["tags"] == "sine, lr sweep"
    assert by["lr-a"]["model"] == "mlp 256-256", by["lr-a"]["model"]
    assert by["lr-a"]["dir"] == os.path.abspath(os.path.join(runs, "lr-a"))

    # sorting, filtering, columns
    order = [r["name"] for r in json.loads(run(cli, "runs", runs, "--json", "--sort", "lr").stdout)]
    lr_order = [n for n in order if n in lrs]
    assert lr_order == sorted(lrs, key=lrs.get), order
    order = [r["name"] for r in json.loads(run(cli, "runs", runs, "--json", "--sort", "lr", "--desc").stdout)]
    assert [n for n in order if n in lrs] == sorted(lrs, key=lrs.get, reverse=True), order
    assert order[-1] in ("my-notes", "empty"), order  # unknown values last either way
    got = json.loads(run(cli, "runs", runs, "--json", "--filter", "status=diverged").stdout)
    assert [r["name"] for r in got] == ["huge"], got
    got = json.loads(run(cli, "runs", runs, "--json", "--filter", "optimizer.name=sgd").stdout)
    assert [r["name"] for r in got] == ["huge"], got
    got = json.loads(run(cli, "runs", runs, "--json", "--filter", "LR SWEEP").stdout)
    assert [r["name"] for r in got] == ["lr-a"], got
    out = run(cli, "runs", runs, "--csv", "--columns", "name,best_val_loss,status").stdout
    rows = list(csv.DictReader(io.StringIO(out)))
    assert list(rows[0].keys()) == ["name", "best_val_loss", "status"], rows[0]
    assert len(rows) == len(table)
    r_a = [r for r in rows if r["name"] == "lr-a"][0]
    assert float(r_a["best_val_loss"]) == by["lr-a"]["best_val_loss"]  # exact text in CSV
    # Issue 44 item 15: text beginning with = + - @ is escaped as OWASP advises (a leading
    # quote), numbers are not (a negative number stays a number)
    out = run(cli, "runs", runs, "--csv", "--columns", "name,notes,tags,best_val_loss").stdout
    r_c = [r for r in csv.DictReader(io.StringIO(out)) if r["name"] == "lr-c"][0]
    assert r_c["notes"] == "'=HYPERLINK(\"http://x\",\"y\")", r_c
    assert r_c["tags"].startswith("'@SUM(1)"), r_c
    assert float(r_c["best_val_loss"]) == by["lr-c"]["best_val_loss"], r_c
    # Issue 43: any config key is a column (it was "no column"), in --csv, --json, the text
    # table and --sort; the values are each run's config.json's, numbers as numbers.
    out = run(cli, "runs", runs, "--csv", "--columns", "name,optimizer.lr,optimizer.name").stdout
    rows = list(csv.DictReader(io.StringIO(out)))
    assert list(rows[0].keys()) == ["name", "optimizer.lr", "optimizer.name"], rows[0]
    for r in rows:
        if r["name"] in lrs:
            assert float(r["optimizer.lr"]) == lrs[r["name"]], r
    got = json.loads(run(cli, "runs", runs, "--json", "--columns", "name,optimizer.lr", "--sort",
                         "optimizer.lr").stdout)
    assert [r["name"] for r in got if r["name"] in lrs] == sorted(lrs, key=lrs.get), got
    assert all(isinstance(r["optimizer.lr"], float) for r in got if r["name"] in lrs), got
    text = run(cli, "runs", runs, "--columns", "name,optimizer.weight_decay").stdout
    assert text.splitlines()[0].split() == ["name", "optimizer.weight_decay"], text
    text = run(cli, "runs", runs).stdout
    assert text.splitlines()[0].startswith("name") and "crashed" in text and "not a run" in text
    assert len(text.splitlines()) == 1 + len(table)
    # one run folder as the argument: one row
    assert len(json.loads(run(cli, "runs", os.path.join(runs, "lr-b"), "--json").stdout)) == 1
    # bad input: exit 2 naming the problem
    r = run(cli, "runs", os.path.join(work, "nope"), code=2)
    assert "does not exist" in r.stderr, r.stderr
    r = run(cli, "runs", os.path.join(runs, "README.txt"), code=2)
    assert "not a directory" in r.stderr, r.stderr
    r = run(cli, "runs", runs, "--sort", "nope", code=2)
    assert "no column 'nope'" in r.stderr, r.stderr
    r = run(cli, "runs", runs, "--columns", "name,bogus", code=2)
    assert "bogus" in r.stderr, r.stderr
    r = run(cli, "runs", runs, "--filter", "bogus=1", code=2)
    assert "bogus" in r.stderr, r.stderr
    # from another working directory, relative to it
    r = subprocess.run([cli, "runs", "runs", "--json"], cwd=work, capture_output=True, text=True)
    assert r.returncode == 0 and len(json.loads(r.stdout)) == len(table), r.stderr
    # nothing was written into any run folder; the folder of runs keeps its index
    assert not os.path.exists(os.path.join(runs, "lr-b", "notes.json"))
    index = os.path.join(runs, ".trainscope-runs-index.json")
    assert json.load(open(index))["trainscope_runs_index"] == 3  # 2: regression metrics; 3: sweep
    # the index never hides a change: new notes, a corrupt index, a foreign file of that name
    json.dump({"notes": "changed", "tags": []}, open(os.path.join(runs, "lr-b", "notes.json"), "w"))
    by2 = {r["name"]: r for r in json.loads(run(cli, "runs", runs, "--json").stdout)}
    assert by2["lr-b"]["notes"] == "changed", by2["lr-b"]
    assert by2 == {**by, "lr-b": by2["lr-b"]}, "the index changed other rows"
    open(index, "w").write('{"trainscope_runs_index": 1, "runs": {"lr-a": {"sig": "x"')  # torn
    by3 = {r["name"]: r for r in json.loads(run(cli, "runs", runs, "--json").stdout)}
    assert by3 == by2
    assert json.load(open(index))["trainscope_runs_index"] == 3  # rebuilt
    open(index, "w").write('{"mine": true}\n')
    by4 = {r["name"]: r for r in json.loads(run(cli, "runs", runs, "--json").stdout)}
    assert by4 == by2 and open(index).read() == '{"mine": true}\n'  # not ours: left alone
    os.remove(index)
    os.remove(os.path.join(runs, "lr-b", "notes.json"))

    # compare: differences and % against the first run
    cmp = json.loads(run(cli, "compare", os.path.join(runs, "lr-a"), os.path.join(runs, "lr-b"),
                         os.path.join(runs, "lr-c"), "--json").stdout)
    assert set(cmp["differences"]) == {"optimizer.lr"}, cmp["differences"]
    assert [float(v) for v in cmp["differences"]["optimizer.lr"]] == [0.003, 0.01, 0.0003]
    base = by["lr-a"]["best_val_loss"]
    for i, name in enumerate(["lr-a", "lr-b", "lr-c"]):
        v = cmp["metrics"]["best_val_loss"]["values"][i]
        expect_close(v, by[name]["best_val_loss"], "compare " + name)
        pct = cmp["metrics"]["best_val_loss"]["percent_vs_first"][i]
        expect_close(pct, (v - base) / abs(base) * 100, "percent " + name)
    text = run(cli, "compare", os.path.join(runs, "lr-a"), os.path.join(runs, "moons")).stdout
    assert "data.source" in text and "optimizer.lr" in text and "%" in text, text
    r = run(cli, "compare", os.path.join(runs, "lr-a"), os.path.join(runs, "my-notes"), code=2)
    assert "not a run" in r.stderr, r.stderr
    run(cli, "compare", os.path.join(runs, "lr-a"), code=2)  # needs two runs

    # follow a run another process writes, to its end: exit code as train's
    live = os.path.join(runs, "live")
    p = subprocess.Popen([cli, "train", "--preset", "overfit-sine", "--epochs", "150", *small,
                          "--out", live], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    f = subprocess.run([cli, "follow", live], capture_output=True, text=True, timeout=300)
    assert p.wait() == 0
    assert f.returncode == 0, f.stderr
    assert "epoch 150/150" in f.stderr or "150/150" in f.stderr, f.stderr[-2000:]
    assert "completed" in f.stderr, f.stderr[-1000:]
    # a crashed run: exit 1 saying so
    f = subprocess.run([cli, "follow", os.path.join(runs, "killed")], capture_output=True,
                       text=True, timeout=60)
    assert f.returncode == 1 and "crashed" in f.stderr, (f.returncode, f.stderr)
    # a finished run: its summary at once
    f = subprocess.run([cli, "follow", os.path.join(runs, "huge")], capture_output=True, text=True,
                       timeout=60)
    assert f.returncode == 3, (f.returncode, f.stderr)
    # stalled: a process holds the folder's lock and writes nothing; then it ends
    stall = os.path.join(runs, "stall")
    shutil.copytree(os.path.join(runs, "lr-b"), stall)
    os.remove(os.path.join(stall, "summary.json"))
    lock = open(os.path.join(stall, ".trainscope.lock"), "w")
    lock.write("pid %d, runs_table.py, since now" % os.getpid())
    lock.flush()
    fcntl.flock(lock, fcntl.LOCK_EX)
    fp = subprocess.Popen([cli, "follow", stall, "--stall-seconds", "1"], stderr=subprocess.PIPE,
                          stdout=subprocess.DEVNULL, text=True)
    # Wait for the stall to be reported (not a fixed sleep: on a loaded machine the CLI took
    # over 2 s to start, and the run "ended" before it could see it stall).
    said, deadline = "", time.time() + 120
    while "stalled" not in said and time.time() < deadline:
        ready, _, _ = select.select([fp.stderr], [], [], 1)
        if ready:  # unbuffered: select sees what the pipe holds, not Python's buffer
            chunk = os.read(fp.stderr.fileno(), 4096)
            if not chunk:
                break
            said += chunk.decode("utf-8", "replace")
    assert "stalled" in said and "runs_table.py" in said, said
    # the run ends: summary.json appears and the lock is released
    shutil.copy(os.path.join(runs, "lr-b", "summary.json"), os.path.join(stall, "summary.json"))
    fcntl.flock(lock, fcntl.LOCK_UN)
    lock.close()
    err = said + fp.communicate(timeout=60)[1]
    assert fp.returncode == 0, (fp.returncode, err)
    # Issue 43: a folder a run has claimed (its lock held, nothing written yet: the run is
    # loading its data) is waited for, not refused as "not a run"; the run's files then appear.
    claimed = os.path.join(runs, "claimed")
    os.makedirs(claimed)
    lock = open(os.path.join(claimed, ".trainscope.lock"), "w")
    lock.write("pid %d, runs_table.py, since now" % os.getpid())
    lock.flush()
    fcntl.flock(lock, fcntl.LOCK_EX)
    fp = subprocess.Popen([cli, "follow", claimed], stderr=subprocess.PIPE,
                          stdout=subprocess.DEVNULL, text=True)
    time.sleep(2)
    assert fp.poll() is None, fp.communicate()[1]
    for name in os.listdir(os.path.join(runs, "lr-b")):
        src = os.path.join(runs, "lr-b", name)
        if os.path.isfile(src) and name != "summary.json" and not name.startswith("."):
            shutil.copy(src, os.path.join(claimed, name))
    shutil.copy(os.path.join(runs, "lr-b", "summary.json"), os.path.join(claimed, "summary.json"))
    fcntl.flock(lock, fcntl.LOCK_UN)
    lock.close()
    err = fp.communicate(timeout=60)[1]
    assert fp.returncode == 0 and "completed" in err, (fp.returncode, err)
    # the same folder with its claim dropped and no run: refused at once
    empty_claim = os.path.join(runs, "dropped")
    os.makedirs(empty_claim)
    open(os.path.join(empty_claim, ".trainscope.lock"), "w").close()
    r = run(cli, "follow", empty_claim, code=2)
    assert "not a run" in r.stderr, r.stderr
    # Issue 43: the run's files replaced under `follow --json` (another run in the folder):
    # an explicit restart record separates the first run's epoch objects from the new run's.
    again = os.path.join(runs, "again")
    shutil.copytree(os.path.join(runs, "lr-b"), again)
    os.remove(os.path.join(again, "summary.json"))
    lock = open(os.path.join(again, ".trainscope.lock"), "w")
    lock.write("pid %d, runs_table.py, since now" % os.getpid())
    lock.flush()
    fcntl.flock(lock, fcntl.LOCK_EX)
    fp = subprocess.Popen([cli, "follow", again, "--json"], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True)
    time.sleep(2)
    first_epochs = len(metrics(again))
    # Replaced as `train --overwrite` replaces them: removed, then written again from their
    # first line (a new file may get the old one's inode number back: the shorter file tells),
    # while follow is frozen, so that it sees one replacement, not half of one.
    fp.send_signal(signal.SIGSTOP)
    new_lines = {}
    for name in ("steps.csv", "metrics.csv", "events.jsonl", "run.json", "config.json"):
        os.remove(os.path.join(again, name))
        lines = open(os.path.join(runs, "lr-a", name)).read().splitlines(True)
        keep = 1 if name.endswith(".csv") else len(lines)  # the CSV headers first
        open(os.path.join(again, name), "w").write("".join(lines[:keep]))
        new_lines[name] = lines[keep:]
    fp.send_signal(signal.SIGCONT)
    time.sleep(1.5)
    for name, rest in new_lines.items():
        with open(os.path.join(again, name), "a") as f:
            f.write("".join(rest))
    time.sleep(1.5)
    shutil.copy(os.path.join(runs, "lr-a", "summary.json"), os.path.join(again, "summary.json"))
    fcntl.flock(lock, fcntl.LOCK_UN)
    lock.close()
    out, err = fp.communicate(timeout=60)
    assert fp.returncode == 0, (fp.returncode, err)
    records = [json.loads(line) for line in out.splitlines() if line.strip()]
    kinds = [r.get("type", "epoch") for r in records]
    assert kinds.count("restart") == 1, kinds
    cut = kinds.index("restart")
    assert records[cut]["epochs_before"] == first_epochs == cut, (records[cut], first_epochs, cut)
    assert kinds[cut + 1:] == ["epoch"] * len(metrics(os.path.join(runs, "lr-a"))) + \
        ["summary"], kinds
    assert "starting over" in err, err
    # a missing folder's parent, a file: exit 2
    r = run(cli, "follow", os.path.join(work, "no", "such"), code=2)
    run(cli, "follow", os.path.join(runs, "README.txt"), code=2)
    # Issue 44 item 16: a folder named in Latin-1 (not UTF-8) and an unreadable notes.json mark
    # their own rows incomplete with the reason; the rest of the table is listed (exit 0)
    odd = os.path.join(work, "odd-runs")
    os.makedirs(odd)
    shutil.copytree(os.path.join(runs, "lr-a").encode(), os.path.join(odd.encode(), b"caf\xe9"))
    shutil.copytree(os.path.join(runs, "lr-b"), os.path.join(odd, "bad-notes"))
    shutil.copytree(os.path.join(runs, "lr-c"), os.path.join(odd, "fine"))
    with open(os.path.join(odd, "bad-notes", "notes.json"), "wb") as f:
        f.write(b'{"notes": "cut sho')
    r = subprocess.run([cli, "runs", odd, "--json"], capture_output=True)  # bytes: U+FFFD is UTF-8
    assert r.returncode == 0, (r.returncode, r.stderr)
    odd_rows = {row["name"]: row for row in json.loads(r.stdout.decode("utf-8"))}
    assert set(odd_rows) == {"caf\ufffd", "bad-notes", "fine"}, sorted(odd_rows)
    assert odd_rows["caf\ufffd"]["status"] == "incomplete", odd_rows["caf\ufffd"]
    assert "not valid UTF-8" in odd_rows["caf\ufffd"]["reason"], odd_rows["caf\ufffd"]
    assert odd_rows["bad-notes"]["status"] == "incomplete", odd_rows["bad-notes"]
    assert "notes.json" in odd_rows["bad-notes"]["reason"], odd_rows["bad-notes"]
    assert odd_rows["fine"]["status"] == "completed", odd_rows["fine"]
    assert subprocess.run([cli, "runs", odd], capture_output=True).returncode == 0
    print("runs_table: OK (%d rows)" % len(table))


if __name__ == "__main__":
    main()
