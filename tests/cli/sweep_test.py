#!/usr/bin/python3
"""`trainscope-cli sweep` (issue 47 §1): trials, the sweep folder, interrupts and resumes.

Each expectation comes from outside the code under test:
- the grid's trials and their order equal scikit-learn's ParameterGrid over the same values;
- random trials: the same file and seed give the same trials; a discrete space is drawn without
  replacement and a budget above its size is capped (said in the note); log_uniform values are
  uniform in log space by scipy's Kolmogorov-Smirnov test (fixed seed: a fixed p-value, never
  flaky), int_uniform includes both ends;
- "seeds": 3: every configuration trained with 3 training and data seeds, its mean and
  standard deviation equal numpy's mean and std(ddof=1) of the trials' metrics.csv, the
  configurations ranked by the mean; the importance of lr is scipy.stats.spearmanr's rho;
- the median pruner, one trial at a time: the trials it stops, and the epoch it names, are
  those Optuna's MedianPruner rule gives when replayed here on the trials' metrics.csv; a
  pruned trial's run folder says "pruned" in the runs table and why in its events;
- successive halving (factor 3), one trial at a time: the trials it stops at each rung are
  those Optuna's asynchronous SuccessiveHalvingPruner rule gives, replayed here;
- TensorBoard's HParams records, decoded here from the wire format with the plugin's .proto
  field numbers: the sweep folder's experiment (optimizer.lr's choices, the objective's tag
  val/loss) and each trial's session start (its lr, one group per configuration) and end
  (STATUS_SUCCESS);
- tpe: the trials Optuna's own study (optuna.db, read back with Debian's python3-optuna) holds
  are the sweep's, with their values and the objectives told;
- a 4-trial sweep, 2 at a time: exit 0, every trial's last line in trials.jsonl is
  "completed", its run folder's config.json holds its values and max(1, cores // 2) threads,
  and its objective is the lowest val_loss of its metrics.csv (read here with the csv module);
- SIGINT as a trial starts, the sweep started with SIGINT ignored (a shell's `&`): the trial
  stops at once, not after its 20,000 epochs;
- stopped with SIGINT mid-trial (exit 130) or its orchestrator killed with kill -9, then
  resumed: every trial completed once, the interrupted ones from their last.pt, and each
  objective bit for bit the one of the same sweep run without interruption;
- a trial process killed with kill -9 is "crashed" and retried once; a trial that fails
  (a table without its target column) is retried once and left failed with the trial's own
  error; the sweep still exits 0; a missing data file, or one that is a folder, is refused
  before anything runs;
- bad sweep files: exit 2 naming the key, before any folder is made; a second orchestrator on
  a sweep folder is refused naming the first's pid.

usage: sweep_test.py CLI WORKDIR
"""
import csv
import glob
import json
import math
import os
import shutil
import signal
import struct
import subprocess
import sys
import time

import numpy as np
from scipy import stats
from sklearn.model_selection import ParameterGrid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tensorboard_python as tb  # noqa: E402  (the event-file reader of the TensorBoard test)


EPOCHS = 300  # moons epochs of the trials that are interrupted: seconds, not milliseconds


def run(cli, *args, cwd=None, timeout=300):
    return subprocess.run([cli] + list(args), capture_output=True, text=True, timeout=timeout,
                          cwd=cwd)


def fail(message):
    sys.exit("FAIL: " + message)


def check(cond, message):
    if not cond:
        fail(message)


def write(path, obj):
    with open(path, "w") as f:
        json.dump(obj, f)
    return path


def last_lines(sweep_dir):
    last, lines = {}, []
    with open(os.path.join(sweep_dir, "trials.jsonl")) as f:
        for line in f:
            t = json.loads(line)
            lines.append(t)
            last[t["trial"]] = t
    return last, lines


def best_val_loss(run_dir):
    with open(os.path.join(run_dir, "metrics.csv")) as f:
        return min(float(r["val_loss"]) for r in csv.DictReader(f))


def dry(cli, path):
    r = run(cli, "sweep", path, "--dry-run", "--json")
    check(r.returncode == 0, "dry run of %s: %s" % (path, r.stderr))
    return json.loads(r.stdout)


def wait_for(predicate, seconds, what):
    end = time.time() + seconds
    while time.time() < end:
        if predicate():
            return
        time.sleep(0.05)
    fail("timed out waiting for " + what)


def main():
    cli, work = sys.argv[1], sys.argv[2]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)

    # ---- `sweep --help` documents the file ----
    r = run(cli, "sweep", "--help")
    for word in ("choices", "uniform", "log_uniform", "int_uniform", "grid", "random", "tpe",
                 "max_trials", "concurrent", "objective", "successive_halving", "median",
                 "executor", "slurm", "sbatch_args", "seeds", "--resume"):
        check(word in r.stdout, "sweep --help does not say %s" % word)

    # ---- the grid, in ParameterGrid's order ----
    space = {"optimizer.lr": [0.1, 0.01, 0.001], "model.hidden": [[8], [16, 16]],
             "training.batch_size": list(range(16, 19))}
    g = write(os.path.join(work, "grid.json"), {
        "base": {"preset": "moons"},
        "parameters": {"optimizer.lr": {"choices": space["optimizer.lr"]},
                       "model.hidden": {"choices": space["model.hidden"]},
                       "training.batch_size": {"int_uniform": [16, 18]}},
        "method": "grid"})
    got = dry(cli, g)["trials"]
    want = list(ParameterGrid(space))
    check(got == want, "grid order %s != ParameterGrid %s" % (got[:3], want[:3]))
    write(g, {**json.load(open(g)), "max_trials": 5})
    capped = dry(cli, g)
    check(capped["trials"] == want[:5] and "first 5" in capped["note"], str(capped))

    # ---- random: seeded, without replacement over a discrete space ----
    d = write(os.path.join(work, "discrete.json"), {
        "base": {"preset": "moons"},
        "parameters": {"optimizer.lr": {"choices": [0.1, 0.01, 0.001]},
                       "training.batch_size": {"int_uniform": [16, 17]}},
        "method": "random", "seed": 7, "max_trials": 10})
    a, b = dry(cli, d), dry(cli, d)
    check(a["trials"] == b["trials"], "the same seed gave other trials")
    keys = [json.dumps(t, sort_keys=True) for t in a["trials"]]
    check(len(keys) == 6 and len(set(keys)) == 6, "discrete random trials: %s" % keys)
    check("capped at 6" in a["note"], "no note on the capped budget: %s" % a)
    write(d, {**json.load(open(d)), "seed": 8})
    check(dry(cli, d)["trials"] != a["trials"], "another seed gave the same order")

    c = write(os.path.join(work, "continuous.json"), {
        "base": {"preset": "moons"},
        "parameters": {"optimizer.lr": {"log_uniform": [1e-4, 1e-1]},
                       "training.epochs": {"int_uniform": [1, 4]}},
        "method": "random", "seed": 3, "max_trials": 2000})
    trials = dry(cli, c)["trials"]
    lrs = np.array([t["optimizer.lr"] for t in trials])
    check(lrs.min() >= 1e-4 and lrs.max() <= 1e-1, "log_uniform out of range")
    u = (np.log(lrs) - math.log(1e-4)) / (math.log(1e-1) - math.log(1e-4))
    p = stats.kstest(u, "uniform").pvalue
    check(p > 1e-3, "log_uniform is not uniform in log space (KS p = %g)" % p)
    epochs = [t["training.epochs"] for t in trials]
    check(set(epochs) == {1, 2, 3, 4}, "int_uniform values %s" % sorted(set(epochs)))
    counts = np.bincount(epochs)[1:]
    chi = stats.chisquare(counts).pvalue
    check(chi > 1e-3, "int_uniform counts %s (chi-square p = %g)" % (counts, chi))

    # ---- a real sweep: 4 trials, 2 at a time ----
    s = write(os.path.join(work, "small.json"), {
        "name": "small", "base": {"preset": "moons", "set": {"training.epochs": 2}},
        "parameters": {"optimizer.lr": {"choices": [0.001, 0.003, 0.01, 0.03]}},
        "method": "grid", "concurrent": 2})
    out = os.path.join(work, "small")
    r = run(cli, "sweep", s, "--out", out, "--json")
    check(r.returncode == 0, "sweep exit %d: %s" % (r.returncode, r.stderr))
    table = json.loads(r.stdout)
    last, _ = last_lines(out)
    threads = max(1, len(os.sched_getaffinity(0)) // 2)
    check(sorted(last) == [0, 1, 2, 3], "trials %s" % sorted(last))
    for n, t in last.items():
        check(t["state"] == "completed", "trial %d: %s" % (n, t))
        cfg = json.load(open(os.path.join(out, t["run"], "config.json")))
        check(cfg["optimizer"]["lr"] == t["values"]["optimizer.lr"], "trial %d's lr" % n)
        check(cfg["training"]["num_threads"] == threads, "trial %d's threads" % n)
        check(t["objective"] == best_val_loss(os.path.join(out, t["run"])),
              "trial %d's objective %s" % (n, t["objective"]))
    objectives = [t["objective"] for t in table["trials"]]
    check(objectives == sorted(objectives), "the table is not best first: %s" % objectives)
    # the runs table lists the trials with their sweep, the varied values as columns
    r = run(cli, "runs", out, "--json")
    rows = json.loads(r.stdout)
    check(r.returncode == 0 and len(rows) == 4 and all(x["sweep"] == "small" for x in rows),
          "runs --json of the sweep: %s" % r.stdout[:300])
    r = run(cli, "runs", os.path.dirname(out), "--filter", "sweep=small")  # the folder above
    header = r.stdout.splitlines()[0].split()
    check(r.returncode == 0 and len(r.stdout.splitlines()) == 5 and "sweep" in header and
          "optimizer.lr" in header, "runs --filter sweep=small:\n%s" % r.stdout)
    sweep_json = json.load(open(os.path.join(out, "sweep.json")))
    check(sweep_json["sweep"] == json.load(open(s)), "sweep.json does not hold the file as given")

    # ---- seeds: each configuration over 3 training and data seeds, mean +- std ----
    seeds_file = write(os.path.join(work, "seeds.json"), {
        "base": {"preset": "moons", "set": {"training.epochs": 2, "training.seed": 5,
                                            "data.seed": 11}},
        "parameters": {"optimizer.lr": {"choices": [0.001, 0.01]}},
        "method": "grid", "seeds": 3, "seeds_data": True, "concurrent": 2})
    out = os.path.join(work, "seeds")
    r = run(cli, "sweep", seeds_file, "--out", out, "--json")
    check(r.returncode == 0, "seeds sweep: %s" % r.stderr)
    table = json.loads(r.stdout)
    last, _ = last_lines(out)
    check(len(last) == 6, "2 configurations x 3 seeds: %d trials" % len(last))
    means = []
    for c in table["configs"]:
        losses, seeds = [], []
        for n in c["trials"]:
            cfg = json.load(open(os.path.join(out, last[n]["run"], "config.json")))
            seeds.append((cfg["training"]["seed"], cfg["data"]["seed"]))
            check(cfg["optimizer"]["lr"] == c["values"]["optimizer.lr"], "config %d's lr" % c["config"])
            losses.append(best_val_loss(os.path.join(out, last[n]["run"])))
        check(sorted(seeds) == [(5, 11), (6, 12), (7, 13)], "seeds %s" % seeds)
        check(abs(c["objective_mean"] - float(np.mean(losses))) < 1e-12 and
              abs(c["objective_std"] - float(np.std(losses, ddof=1))) < 1e-12,
              "config %d: %s +- %s != numpy %s +- %s" % (c["config"], c["objective_mean"],
              c["objective_std"], np.mean(losses), np.std(losses, ddof=1)))
        means.append(c["objective_mean"])
    check(means == sorted(means), "configurations not best mean first: %s" % means)
    # importance: Spearman's rho of lr with the objective, as scipy computes it (ties ranked
    # by their mean rank)
    xs = [last[n]["values"]["optimizer.lr"] for n in sorted(last)]
    ys = [last[n]["objective"] for n in sorted(last)]
    rho = stats.spearmanr(xs, ys).correlation
    imp = {i["key"]: i for i in table["importance"]}
    check(abs(imp["optimizer.lr"]["spearman_rho"] - rho) < 1e-12 and imp["optimizer.lr"]["n"] == 6,
          "importance %s, scipy's spearmanr %s" % (imp, rho))
    # runs --group-by: the same mean +- std over the seeds, from the runs table
    r = run(cli, "runs", out, "--group-by", "optimizer.lr", "--json")
    check(r.returncode == 0, "runs --group-by: %s" % r.stderr)
    for g in json.loads(r.stdout):
        losses = [best_val_loss(os.path.join(out, t["run"])) for t in last.values()
                  if t["values"]["optimizer.lr"] == g["group"]["optimizer.lr"]]
        m = g["metrics"]["best_val_loss"]
        check(g["runs"] == 3 and m["n"] == 3 and abs(m["mean"] - np.mean(losses)) < 1e-12 and
              abs(m["std"] - np.std(losses, ddof=1)) < 1e-12, "runs --group-by %s" % g)

    # TensorBoard's HParams records, decoded by the protobuf wire format against the plugin's
    # plugin_data.proto / api.proto field numbers (Debian has no TensorBoard)
    def plugin_records(folder):
        out = []
        for path in glob.glob(os.path.join(folder, "events.out.tfevents.*")):
            data = open(path, "rb").read()
            i = 0
            while i < len(data):
                (n,) = struct.unpack("<Q", data[i:i + 8])
                body = data[i + 12:i + 12 + n]
                check(struct.unpack("<I", data[i + 12 + n:i + 16 + n])[0] == tb.masked(body),
                      "%s: a record's CRC is wrong" % path)
                i += 16 + n
                for num, _, summary in tb.fields(body):
                    if num != 5:
                        continue
                    for _, _, value in tb.fields(summary):
                        f = {k: v for k, _, v in tb.fields(value)}
                        if 9 not in f:
                            continue
                        plugin = {k: v for k, _, v in tb.fields(f[9])}[1]
                        pd = {k: v for k, _, v in tb.fields(plugin)}
                        tensor = {k: v for k, _, v in tb.fields(f[8])}
                        check(tensor.get(1) == 1, "the hparams summary's tensor is not DT_FLOAT")
                        out.append((f[1].decode(), pd[1].decode(), pd[2]))
        return out

    def number(value_msg):
        (x,) = struct.unpack("<d", {k: v for k, _, v in tb.fields(value_msg)}[2])
        return x

    exp = [c for tag, plugin, c in plugin_records(out) if tag == "_hparams_/experiment"]
    check(len(exp) == 1, "the sweep folder has %d experiment records" % len(exp))
    experiment = [v for k, _, v in tb.fields(exp[0]) if k == 2][0]
    infos = [v for k, _, v in tb.fields(experiment) if k == 4]
    metrics_ = [v for k, _, v in tb.fields(experiment) if k == 5]
    info = {k: v for k, _, v in tb.fields(infos[0])}
    check(len(infos) == 1 and info[1] == b"optimizer.lr" and info[4] == 3,
          "hparam_infos: %s" % infos)
    check([number(v) for k, _, v in tb.fields(info[6]) if k == 1] == [0.001, 0.01],
          "the lr domain is not the choices")
    name = {k: v for k, _, v in tb.fields({k: v for k, _, v in tb.fields(metrics_[0])}[1])}
    check(name[2] == b"val/loss", "metric_infos: %s" % name)
    groups = {}
    for n, t in last.items():
        recs = {tag: c for tag, plugin, c in plugin_records(os.path.join(out, t["run"]))
                if plugin == "hparams"}
        start = {k: v for k, _, v in tb.fields(recs["_hparams_/session_start_info"])}[3]
        hp = {}
        for k, _, entry in tb.fields(start):
            if k == 1:
                e = {a: b for a, _, b in tb.fields(entry)}
                hp[e[1].decode()] = number(e[2])
        check(hp == {"optimizer.lr": t["values"]["optimizer.lr"]}, "trial %d hparams %s" % (n, hp))
        group = {k: v for k, _, v in tb.fields(start)}[4]
        groups.setdefault(t["config"], set()).add(group)
        end = {k: v for k, _, v in tb.fields(recs["_hparams_/session_end_info"])}[4]
        check({k: v for k, _, v in tb.fields(end)}[1] == 1, "trial %d: status not SUCCESS" % n)
    check(all(len(g) == 1 for g in groups.values()) and
          len(set.union(*groups.values())) == len(groups), "group names %s" % groups)

    # ---- the median pruner, one trial at a time: Optuna's MedianPruner rule replayed here ----
    lrs = [0.01, 0.03, 0.0001, 0.003, 0.00003, 0.1]
    prune_file = write(os.path.join(work, "prune.json"), {
        "base": {"preset": "moons", "set": {"training.epochs": 40}},
        "parameters": {"optimizer.lr": {"choices": lrs}}, "method": "grid", "concurrent": 1,
        "pruner": {"kind": "median", "startup_trials": 2, "warmup_epochs": 3}})
    out = os.path.join(work, "prune")
    r = run(cli, "sweep", prune_file, "--out", out)
    check(r.returncode == 0, "prune sweep: %s" % r.stderr)
    last, _ = last_lines(out)
    def val_losses(run_dir):
        with open(os.path.join(out, run_dir, "metrics.csv")) as f:
            return {int(x["epoch"]): float(x["val_loss"]) for x in csv.DictReader(f)}
    completed = []  # the curves of the trials completed before each one (one at a time)
    pruned_any = False
    for n in range(len(lrs)):
        t = last[n]
        curve = val_losses(t["run"])
        expected, best = None, math.inf
        for e in sorted(curve):
            best = min(best, curve[e])
            if e < 3 or len(completed) < 2:
                continue
            at_e = [c[e] for c in completed if e in c]
            if at_e and best > float(np.median(at_e)):
                expected = e
                break
        if expected is None:
            check(t["state"] == "completed", "trial %d (lr %g) was %s: %s" % (n, lrs[n], t["state"],
                                                                               t.get("reason")))
            completed.append(curve)
        else:
            pruned_any = True
            check(t["state"] == "pruned" and ("by epoch %d " % expected) in t["reason"],
                  "trial %d (lr %g): expected pruned at epoch %d, got %s" % (n, lrs[n], expected, t))
            row = json.loads(run(cli, "runs", out, "--json").stdout)
            status = [x["status"] for x in row if x["name"] == t["run"]]
            check(status == ["pruned"], "trial %d's run status %s" % (n, status))
            with open(os.path.join(out, t["run"], "events.jsonl")) as f:
                check(any('"pruned at step' in line and "median pruner" in line for line in f),
                      "trial %d's events do not say why it was pruned" % n)
    check(pruned_any, "no trial was pruned: the test has no teeth")

    # ---- successive halving (reduction factor 3, rungs at epochs 1, 3, 9, 27), replayed ----
    lrs = [0.01, 0.0001, 0.03, 0.001, 0.00003, 0.003, 0.1]
    sh_file = write(os.path.join(work, "halving.json"), {
        "base": {"preset": "moons", "set": {"training.epochs": 30}},
        "parameters": {"optimizer.lr": {"choices": lrs}}, "method": "grid", "concurrent": 1,
        "pruner": {"kind": "successive_halving", "min_epochs": 1, "reduction_factor": 3}})
    out = os.path.join(work, "halving")
    r = run(cli, "sweep", sh_file, "--out", out)
    check(r.returncode == 0, "halving sweep: %s" % r.stderr)
    last, _ = last_lines(out)
    at_rung = {}  # rung -> the values of the trials that reached it, in trial order
    states = []
    for n in range(len(lrs)):
        t = last[n]
        curve = val_losses(t["run"])
        expected = None
        for rung, epoch in enumerate([1, 3, 9, 27]):
            competing = at_rung.setdefault(rung, []) + [curve[epoch]]
            at_rung[rung].append(curve[epoch])
            idx = max(len(competing) // 3 - 1, 0)
            if curve[epoch] > sorted(competing)[idx]:  # Optuna: promoted when <= the bar
                expected = epoch
                break
        states.append(t["state"])
        if expected is None:
            check(t["state"] == "completed", "halving trial %d: %s" % (n, t))
        else:
            check(t["state"] == "pruned" and t.get("pruned_epoch") == expected,
                  "halving trial %d: expected pruned at epoch %d, got %s" % (n, expected, t))
    check("pruned" in states and "completed" in states, "halving states %s" % states)

    # ---- tpe through Optuna's command line: the study in optuna.db, read back with optuna ----
    tpe_file = write(os.path.join(work, "tpe.json"), {
        "name": "tpe", "base": {"preset": "moons", "set": {"training.epochs": 2}},
        "parameters": {"optimizer.lr": {"log_uniform": [1e-4, 1e-1]},
                       "model.hidden": {"choices": [[8], [16, 16]]}},
        "method": "tpe", "seed": 3, "max_trials": 4, "concurrent": 2})
    out = os.path.join(work, "tpe")
    r = run(cli, "sweep", tpe_file, "--out", out)
    check(r.returncode == 0, "tpe sweep: %s" % r.stderr)
    last, _ = last_lines(out)
    import optuna  # Debian's python3-optuna, which the sweep runs too
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study = optuna.load_study(study_name="tpe", storage="sqlite:///" + os.path.join(out, "optuna.db"))
    told = {t.number: t for t in study.trials}
    check(sorted(told) == sorted(last) == [0, 1, 2, 3], "tpe trials %s / %s" % (sorted(told), sorted(last)))
    check(len({json.dumps(t["values"], sort_keys=True) for t in last.values()}) == 4,
          "tpe asked the same trial twice: %s" % [t["values"] for t in last.values()])
    for n, t in last.items():
        o = told[n]
        check(o.state == optuna.trial.TrialState.COMPLETE and o.value == t["objective"] ==
              best_val_loss(os.path.join(out, t["run"])), "tpe trial %d: %s / %s" % (n, o, t))
        check(o.params["optimizer.lr"] == t["values"]["optimizer.lr"] and
              [[8], [16, 16]][o.params["model.hidden"]] == t["values"]["model.hidden"],
              "tpe trial %d's values %s / %s" % (n, o.params, t["values"]))

    # tpe over a space of choices: no configuration twice, the budget capped at the space
    tpe4 = write(os.path.join(work, "tpe4.json"), {
        "name": "tpe4", "base": {"preset": "moons", "set": {"training.epochs": 1}},
        "parameters": {"optimizer.lr": {"choices": [0.003, 0.03]},
                       "model.hidden": {"choices": [[8], [64]]}},
        "method": "tpe", "seed": 1, "max_trials": 8, "concurrent": 2})
    out = os.path.join(work, "tpe4")
    r = run(cli, "sweep", tpe4, "--out", out)
    check(r.returncode == 0 and "capped at 4" in r.stdout, "tpe4: %s %s" % (r.stdout, r.stderr))
    last, _ = last_lines(out)
    configs = [json.dumps(t["values"], sort_keys=True) for t in last.values()]
    check(len(configs) == 4 and len(set(configs)) == 4, "tpe ran a configuration twice: %s" % configs)
    # tpe with a pruner: pruned trials are told to Optuna as pruned (no value)
    tpep = write(os.path.join(work, "tpep.json"), {
        "name": "tpep", "base": {"preset": "moons", "set": {"training.epochs": 30}},
        "parameters": {"optimizer.lr": {"choices": [0.03, 0.00001, 0.00002]}},
        "method": "tpe", "seed": 2, "concurrent": 1,
        "pruner": {"kind": "median", "startup_trials": 1, "warmup_epochs": 2}})
    out = os.path.join(work, "tpep")
    r = run(cli, "sweep", tpep, "--out", out)
    check(r.returncode == 0, "tpe with a pruner: %s" % r.stderr)
    study = optuna.load_study(study_name="tpep", storage="sqlite:///" + os.path.join(out, "optuna.db"))
    states = {t.number: t.state for t in study.trials}
    for n, t in last_lines(out)[0].items():
        want = (optuna.trial.TrialState.PRUNED if t["state"] == "pruned"
                else optuna.trial.TrialState.COMPLETE)
        check(states.get(n) == want, "tpep trial %d: optuna %s, sweep %s" % (n, states.get(n), t))

    # ---- interrupts: SIGINT, and kill -9 of the orchestrator; then resume ----
    long_file = write(os.path.join(work, "long.json"), {
        "name": "long", "base": {"preset": "moons", "set": {"training.epochs": EPOCHS}},
        "parameters": {"optimizer.lr": {"choices": [0.001, 0.003, 0.01]}},
        "method": "grid", "concurrent": 2})
    reference = os.path.join(work, "reference")
    r = run(cli, "sweep", long_file, "--out", reference, "--json")
    check(r.returncode == 0, "reference sweep: %s" % r.stderr)
    want = {t["trial"]: t["objective"] for t in json.loads(r.stdout)["trials"]}
    for how in ("sigint", "kill9"):
        out = os.path.join(work, how)
        p = subprocess.Popen([cli, "sweep", long_file, "--out", out], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
        def some_progress():  # a trial training, far from its end (it saves last.pt as it stops)
            try:
                last, _ = last_lines(out)
            except (OSError, ValueError):
                return False
            for t in last.values():
                metrics = os.path.join(out, t["run"], "metrics.csv")
                if t["state"] != "running" or not os.path.exists(metrics):
                    continue
                with open(metrics) as f:
                    if 1 <= len(f.readlines()) - 1 < EPOCHS // 2:
                        return True
            return False
        wait_for(some_progress, 60, "a trial training")
        p.send_signal(signal.SIGINT if how == "sigint" else signal.SIGKILL)
        p.communicate(timeout=60)
        if how == "sigint":
            check(p.returncode == 130, "SIGINT: exit %d" % p.returncode)
        last, _ = last_lines(out)
        if how == "sigint":  # the sweep says it: queued again, to go on from its last.pt
            check(any(t["state"] == "queued" and t.get("resume_from", "").endswith("last.pt")
                      for t in last.values()), "nothing queued to go on: %s" % last)
        else:  # killed: the trial's last line is still "running"
            check(any(t["state"] == "running" for t in last.values()), "nothing running: %s" % last)
        r = run(cli, "sweep", "--resume", out, "--json")
        check(r.returncode == 0, "%s resume exit %d: %s" % (how, r.returncode, r.stderr))
        last, lines = last_lines(out)
        got = {n: t["objective"] for n, t in last.items()}
        check(got == want, "%s: objectives %s != uninterrupted %s" % (how, got, want))
        check(any(t["run"].endswith("-resumed") for t in last.values()),
              "%s: no trial went on from its last.pt" % how)
        for n in last:  # each trial completed once
            done = [t for t in lines if t["trial"] == n and t["state"] == "completed"]
            check(len(done) == 1, "%s: trial %d completed %d times" % (how, n, len(done)))
        again = run(cli, "sweep", "--resume", out, "--json")  # nothing left: nothing reruns
        check(again.returncode == 0 and last_lines(out)[1] == lines, "a finished sweep reran")
    # a stop sent while a trial starts (libtorch still loading) is not lost, also when the sweep
    # itself was started with SIGINT ignored, as a shell's `&` starts it: the trial stops at
    # once (before, it trained all its epochs and the sweep waited for it)
    slow_file = write(os.path.join(work, "slow.json"), {
        "name": "slow", "base": {"preset": "moons", "set": {"training.epochs": 20000}},
        "parameters": {"optimizer.lr": {"choices": [0.001]}}, "method": "grid"})
    out = os.path.join(work, "sigint-start")
    p = subprocess.Popen([cli, "sweep", slow_file, "--out", out], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))

    def started():
        try:
            last, _ = last_lines(out)
        except (OSError, ValueError):
            return False
        return any(t["state"] == "running" for t in last.values())

    wait_for(started, 60, "the trial started")
    sent = time.time()
    p.send_signal(signal.SIGINT)
    p.communicate(timeout=300)
    took = time.time() - sent
    check(p.returncode == 130, "SIGINT as the trial starts: exit %d" % p.returncode)
    check(took < 20, "SIGINT as the trial starts: the sweep ended %.1f s later (the trial "
          "ignored it and trained on)" % took)
    last, _ = last_lines(out)
    check(last[0]["state"] == "queued", "the stopped trial: %s" % last[0])

    # a last line cut short (a full disk) is ended before the next one is written
    torn = os.path.join(work, "sigint", "trials.jsonl")
    with open(torn, "a") as f:
        f.write('{"trial": 0, "sta')
    check(run(cli, "sweep", "--resume", os.path.join(work, "sigint")).returncode == 0, "resume")
    with open(torn) as f:
        text = f.read()
    check(text.endswith("\n") and '{"trial": 0, "sta\n' in text, "the torn line was not ended")

    # ---- a crashed trial is retried once; a failing one is left failed ----
    out = os.path.join(work, "crash")
    crash_file = write(os.path.join(work, "crash.json"), {
        "base": {"preset": "moons", "set": {"training.epochs": EPOCHS}},
        "parameters": {"optimizer.lr": {"choices": [0.01]}}, "method": "grid"})
    p = subprocess.Popen([cli, "sweep", crash_file, "--out", out], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    wait_for(lambda: os.path.exists(os.path.join(out, "trials.jsonl")) and
             any("pid" in t for t in last_lines(out)[1]), 30, "the trial's pid")
    pid = [t["pid"] for t in last_lines(out)[1] if "pid" in t][0]
    os.kill(pid, signal.SIGKILL)  # at once: the trial is far from its end
    p.communicate(timeout=120)
    check(p.returncode == 0, "crash sweep exit %d" % p.returncode)
    last, lines = last_lines(out)
    states = [t["state"] for t in lines]
    check("crashed" in states and last[0]["state"] == "completed" and last[0]["attempt"] == 2,
          "crash then retry: %s" % states)
    os.makedirs(os.path.join(work, "own"), exist_ok=True)
    with open(os.path.join(work, "own", "ok.csv"), "w") as f:
        f.write("sepal_length,sepal_width,petal_length,petal_width,species\n")
        for i in range(30):
            f.write("%d,%d,%d,%d,%s\n" % (i, i % 3, i % 5, i % 7, "ab"[i % 2]))
    with open(os.path.join(work, "own", "bad.csv"), "w") as f:  # no species column
        f.write("a,b\n1,2\n3,4\n")
    fail_file = write(os.path.join(work, "fail.json"), {
        "base": {"preset": "flowers-csv", "set": {"training.epochs": 1}},
        "parameters": {"data.csv.path": {"choices": ["own/ok.csv", "own/bad.csv"]}},
        "method": "grid"})
    out = os.path.join(work, "fail")
    r = run(cli, "sweep", fail_file, "--out", out, "--json", cwd="/")  # paths: the file's folder
    check(r.returncode == 0, "fail sweep exit %d: %s" % (r.returncode, r.stderr))
    last, lines = last_lines(out)
    check(last[0]["state"] == "completed", "the good file's trial: %s" % last[0])
    check(last[1]["state"] == "failed" and last[1]["attempt"] == 2 and
          "species" in last[1]["error"], "the bad file's trial: %s" % last[1])
    missing = write(os.path.join(work, "missing-data.json"), {
        "base": {"preset": "flowers-csv"},
        "parameters": {"data.csv.path": {"choices": ["own/ok.csv", "own/missing.csv"]}}})
    r = run(cli, "sweep", missing, "--out", os.path.join(work, "missing-out"))
    check(r.returncode == 2 and "data.csv.path" in r.stderr and "missing.csv" in r.stderr and
          not os.path.exists(os.path.join(work, "missing-out")),
          "a missing data file was not refused first: %s" % r.stderr)
    check(sum(1 for t in lines if t["trial"] == 1 and t["state"] == "failed") == 2,
          "the failed trial was not retried exactly once")
    # a data file choice that is a folder: refused first too, naming it
    os.makedirs(os.path.join(work, "own", "a-folder.csv"), exist_ok=True)
    folder = write(os.path.join(work, "folder-data.json"), {
        "base": {"preset": "flowers-csv"},
        "parameters": {"data.csv.path": {"choices": ["own/ok.csv", "own/a-folder.csv"]}}})
    r = run(cli, "sweep", folder, "--out", os.path.join(work, "folder-out"))
    check(r.returncode == 2 and "data.csv.path" in r.stderr and "a-folder.csv is a folder" in r.stderr
          and not os.path.exists(os.path.join(work, "folder-out")),
          "a data file that is a folder was not refused first: %s" % r.stderr)

    # ---- bad input: exit 2 naming the key, nothing made ----
    base = {"base": {"preset": "moons"}, "parameters": {"optimizer.lr": {"choices": [0.1]}}}
    bad = [
        ({"parameters": {"optimizer.lrr": {"choices": [1]}}}, "parameters.optimizer.lrr"),
        ({"parameters": {"training.clip": {"choices": [1]}}}, "section"),
        ({"parameters": {"optimizer.lr": {"uniform": [0.2, 0.1]}}}, "empty"),
        ({"parameters": {"optimizer.lr": {"log_uniform": [0, 0.1]}}}, "bounds > 0"),
        ({"parameters": {"optimizer.lr": {"choices": []}}}, "non-empty"),
        ({"parameters": {"optimizer.lr": {"choices": [0.1, -1]}}}, "optimizer.lr must be > 0"),
        ({"max_trials": 0}, "max_trials"),
        ({"parameters": {"training.seed": {"int_uniform": [0, 9999]},
                         "training.batch_size": {"int_uniform": [1, 9999]}},
          "method": "grid"}, "more than 100000"),
        ({"method": "bayes"}, "method"),
        ({"method": "tpe", "seeds": 2}, "seeds"),
        ({"objective": {"metric": "val_los"}}, "objective.metric"),
        ({"concurrent": 0}, "concurrent"),
        ({"surprise": 1}, "surprise"),
        ({"seeds": 2, "parameters": {"training.seed": {"choices": [1, 2]}}}, "training.seed"),
        ({"seeds": 0}, "seeds"),
        ({"pruner": {"kind": "median"}, "objective": {"metric": "test_loss"}}, "per epoch"),
        ({"pruner": {"kind": "median", "startup": 1}}, "pruner.startup"),
    ]
    for patch, words in bad:
        f = write(os.path.join(work, "bad.json"), {**base, **patch})
        out = os.path.join(work, "bad-out")
        r = run(cli, "sweep", f, "--out", out)
        check(r.returncode == 2 and words in r.stderr, "%s: exit %d: %s" % (patch, r.returncode,
                                                                             r.stderr))
        check(not os.path.exists(out), "%s: the sweep folder was made" % patch)
    for path in (work, os.path.join(work, "missing.json")):
        r = run(cli, "sweep", path)
        check(r.returncode == 2 and path in r.stderr, "%s: exit %d %s" % (path, r.returncode,
                                                                           r.stderr))
    r = run(cli, "sweep", s, "--out", os.path.join(work, "small"))
    check(r.returncode == 2 and "--resume" in r.stderr, "an existing sweep: %s" % r.stderr)

    # ---- one orchestrator per sweep folder ----
    out = os.path.join(work, "two")
    p = subprocess.Popen([cli, "sweep", long_file, "--out", out], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    wait_for(lambda: os.path.exists(os.path.join(out, "trials.jsonl")), 30, "the first sweep")
    r = run(cli, "sweep", "--resume", out)
    check(r.returncode == 2 and ("pid %d" % p.pid) in r.stderr, "second orchestrator: %s" % r.stderr)
    p.send_signal(signal.SIGINT)
    p.communicate(timeout=60)
    print("sweep: OK")


if __name__ == "__main__":
    main()
