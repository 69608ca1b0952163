#!/usr/bin/python3
"""`trainscope-cli sweep` with `"executor": {"kind": "slurm"}` (issue 47 §2), on a real Slurm.

The test starts a single-node Slurm from a configuration in a temporary folder
(tests/slurm/local_slurm.sh: munged, slurmctld and slurmd, NodeName=<this host> CPUs=2,
proctrack/linuxproc, task/none), runs sweeps through it and stops the daemons it started by
their pids. It needs root (slurmd starts jobs as their user) and Debian's slurmctld, slurmd,
slurm-client and munge; otherwise it skips (exit 77), saying why. The sweep file checks run
everywhere.

Each expectation comes from outside the code under test:
- a 4-trial grid, `concurrent` 2: Slurm itself (scontrol show job) holds the trials as the
  completed tasks 0-3 of one array job named trainscope-<sweep>, with the %2 limit
  (ArrayTaskThrottle=2);
  each trial's line in trials.jsonl carries that array task as slurm_job_id, goes queued ->
  running -> completed, and never more than 2 trials ran at once (their trial scripts' start
  and end times); every objective is the lowest val_loss of the trial's metrics.csv, and
  equals, bit for bit, the objective of the same sweep run by the local executor;
- the median pruner through Slurm (scancel --signal): the trial with a learning rate 1e4
  times too small is stopped, its run folder says pruned in the runs table;
- SIGINT to the sweep mid-trial: exit 130, Slurm holds none of the sweep's jobs afterwards,
  the running trials are queued with their last.pt; `--resume` completes every trial, the
  interrupted ones in "-resumed" folders;
- kill -9 of the sweep while its jobs run: the jobs go on in Slurm; `--resume` follows them
  (no trial submitted twice: one run folder per trial) and every trial completes;
- a request Slurm would keep pending for ever (64 CPUs per trial on a 2-CPU node) and an
  unknown partition: refused by `sbatch --test-only` before any folder is made, exit 2 with
  Slurm's own message; Slurm's commands
  missing from PATH: exit 2 naming sbatch and the package, before any folder is made.

usage: slurm_sweep_test.py CLI WORKDIR
"""
import glob
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
# the helpers of the local sweep test (sweep_test.py): check, fail, write, trials.jsonl's
# last lines, a run's lowest val_loss, waiting for a condition
from sweep_test import best_val_loss, check, fail, wait_for, write  # noqa: E402
from sweep_test import last_lines as lines_of  # noqa: E402
LOCAL_SLURM = os.path.join(HERE, "..", "slurm", "local_slurm.sh")


def run(cmd, env=None, timeout=300):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)


def sweep_file(path, name, epochs, lrs, executor, concurrent=2, pruner=None):
    s = {"name": name, "base": {"preset": "moons",
                                "set": {"training.epochs": epochs, "training.seed": 3}},
         "parameters": {"optimizer.lr": {"choices": lrs}},
         "method": "grid", "concurrent": concurrent,
         "objective": {"metric": "best_val_loss", "goal": "minimize"},
         "executor": executor}
    if pruner:
        s["pruner"] = pruner
    return write(path, s)


def file_checks(cli, work):
    """Bad executor settings: exit 2 naming the key, no Slurm needed."""
    for executor, key in [({"kind": "slurm", "cpus_per_trial": 0}, "executor.cpus_per_trial"),
                          ({"kind": "slurm", "time_limit": "soon"}, "executor.time_limit"),
                          ({"kind": "slurm", "sbatch_args": ["--array=0-9"]},
                           "executor.sbatch_args"),
                          ({"kind": "slurm", "nodes": 2}, "executor.nodes"),
                          ({"kind": "local", "partition": "x"}, "executor.partition"),
                          ({"kind": "cloud"}, "executor.kind")]:
        path = sweep_file(os.path.join(work, "bad.json"), "bad", 2, [0.01], executor)
        r = run([cli, "sweep", path, "--dry-run"])
        check(r.returncode == 2 and key in r.stderr,
              "%s: expected exit 2 naming %s, got %d: %s" % (executor, key, r.returncode, r.stderr))
    # Slurm's commands missing: refused before any folder is made.
    empty = os.path.join(work, "empty-bin")
    os.makedirs(empty, exist_ok=True)
    path = sweep_file(os.path.join(work, "nosbatch.json"), "nosbatch", 2, [0.01],
                      {"kind": "slurm"})
    out = os.path.join(work, "nosbatch-out")
    r = run([cli, "sweep", path, "--out", out], env=dict(os.environ, PATH=empty))
    check(r.returncode == 2 and "sbatch" in r.stderr and "slurm-client" in r.stderr,
          "no sbatch on PATH: expected exit 2 naming sbatch, got %d: %s" % (r.returncode, r.stderr))
    check(not os.path.exists(out), "no sbatch on PATH: %s was made" % out)


def our_jobs(env, name):
    r = run(["squeue", "-h", "-r", "-n", name, "-o", "%i|%T"], env=env)
    check(r.returncode == 0, "squeue: " + r.stderr)
    return [l for l in r.stdout.splitlines() if l.strip()]


def main():
    cli, work = sys.argv[1], os.path.abspath(sys.argv[2])
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    file_checks(cli, work)
    if os.geteuid() != 0:
        print("skip: the Slurm executor test starts slurmd, which needs root (CI runs as root)")
        return 77
    daemons = os.path.join(work, "slurm-daemons")
    os.makedirs(daemons)
    r = run(["bash", LOCAL_SLURM, "start", daemons], timeout=60)
    if r.returncode == 77:
        print(r.stdout.strip())
        return 77
    check(r.returncode == 0, "starting the local Slurm: %s %s" % (r.stdout, r.stderr))
    env = dict(os.environ, SLURM_CONF=os.path.join(daemons, "slurm.conf"))
    env["PATH"] = env.get("PATH", "/usr/bin:/bin") + ":/usr/sbin"
    try:
        return sweeps(cli, work, env)
    finally:
        run(["bash", LOCAL_SLURM, "stop", daemons], timeout=60)


def sweeps(cli, work, env):
    slurm = {"kind": "slurm", "cpus_per_trial": 1, "time_limit": 10}
    lrs = [0.003, 0.01, 0.03, 0.1]

    # ---- a 4-trial grid, 2 at a time, as one array job ----
    path = sweep_file(os.path.join(work, "grid.json"), "grid", 40, lrs, slurm)
    out = os.path.join(work, "grid")
    started = time.time()
    r = run([cli, "sweep", path, "--out", out, "--json"], env=env)
    check(r.returncode == 0, "slurm grid sweep exit %d: %s" % (r.returncode, r.stderr))
    print("4-trial sweep through Slurm, 2 at a time: %.1f s" % (time.time() - started))
    # Slurm's own record of the jobs (kept MinJobAge=600 s after they end)
    r = run(["scontrol", "show", "job", "-o"], env=env)
    tasks = {}
    for line in r.stdout.splitlines():
        fields = dict(f.split("=", 1) for f in line.split() if "=" in f)
        if fields.get("JobName") == "trainscope-grid":
            tasks["%s_%s" % (fields.get("ArrayJobId"), fields.get("ArrayTaskId"))] = fields
    check(len(tasks) == 4 and all(f.get("ArrayTaskThrottle") == "2" for f in tasks.values()),
          "Slurm's jobs of the sweep: %s" % {k: f.get("ArrayTaskThrottle") for k, f in tasks.items()})
    last, lines = lines_of(out)
    check(sorted(last) == [0, 1, 2, 3], "trials: %s" % sorted(last))
    arrays = set()
    for n, t in last.items():
        check(t["state"] == "completed", "trial %d: %s" % (n, t))
        job = t.get("slurm_job_id", "")
        m = re.fullmatch(r"(\d+)_(\d)", job)
        check(m is not None and int(m.group(2)) == n,
              "trial %d: slurm_job_id %r is not array task %d" % (n, job, n))
        arrays.add(m.group(1))
        check(job in tasks and tasks[job]["JobState"] == "COMPLETED",
              "trial %d: Slurm has no completed job %s" % (n, job))
        states = [l["state"] for l in lines if l["trial"] == n]
        check(states == ["queued", "queued", "running", "completed"],
              "trial %d's states: %s" % (n, states))
        run_dir = os.path.join(out, t["run"])
        check(t["objective"] == best_val_loss(run_dir),
              "trial %d: objective %s, metrics.csv %s" % (n, t["objective"], best_val_loss(run_dir)))
        with open(os.path.join(run_dir, "config.json")) as f:
            config = json.load(f)
        check(config["training"]["num_threads"] == 1, "trial %d's threads" % n)
        check(abs(config["optimizer"]["lr"] - lrs[n]) < 1e-15, "trial %d's lr" % n)
    check(len(arrays) == 1, "the 4 trials were not one array job: %s" % arrays)
    r = run([cli, "runs", out, "--json"], env=env)
    check(sorted(os.path.basename(row["dir"]) for row in json.loads(r.stdout)) ==
          sorted(t["run"] for t in last.values()),
          "the runs table of the sweep lists its trials alone (not slurm/): %s" % r.stdout[:300])
    spans = []
    for f in glob.glob(os.path.join(out, "slurm", "*.exit")):
        code, begin, end = open(f).read().split()
        check(code == "0", "%s: exit %s" % (f, code))
        spans.append((float(begin), float(end)))
    check(len(spans) == 4, "exit files: %d" % len(spans))
    most = max(sum(1 for b, e in spans if b <= t < e) for t, _ in spans)
    check(most <= 2, "%d trials ran at once, the limit is 2" % most)
    # the same sweep by the local executor: the same objectives, bit for bit
    local = sweep_file(os.path.join(work, "local.json"), "local", 40, lrs, {"kind": "local"})
    r = run([cli, "sweep", local, "--out", os.path.join(work, "local"), "--json"], env=env)
    check(r.returncode == 0, "local sweep: " + r.stderr)
    local_last, _ = lines_of(os.path.join(work, "local"))
    for n in range(4):
        check(local_last[n]["objective"] == last[n]["objective"],
              "trial %d: slurm %r, local %r" % (n, last[n]["objective"], local_last[n]["objective"]))
    check(not our_jobs(env, "trainscope-grid"), "jobs left in Slurm")

    # ---- the median pruner through scancel --signal ----
    path = sweep_file(os.path.join(work, "prune.json"), "prune", 300, [0.01, 1e-6], slurm,
                      concurrent=1, pruner={"kind": "median", "warmup_epochs": 5,
                                            "startup_trials": 1})
    out = os.path.join(work, "prune")
    r = run([cli, "sweep", path, "--out", out], env=env)
    check(r.returncode == 0, "pruned sweep: %s %s" % (r.stdout, r.stderr))
    last, _ = lines_of(out)
    check(last[0]["state"] == "completed" and last[1]["state"] == "pruned",
          "median pruner through Slurm: %s" % [last[n]["state"] for n in (0, 1)])
    r = run([cli, "runs", out, "--json"], env=env)
    rows = {os.path.basename(row["dir"]): row for row in json.loads(r.stdout)}
    check(rows[last[1]["run"]]["status"] == "pruned", "the pruned trial's run: %s" % rows)

    # ---- SIGINT mid-trial, then --resume ----
    path = sweep_file(os.path.join(work, "stop.json"), "stop", 1500, lrs, slurm)
    out = os.path.join(work, "stop")
    proc = subprocess.Popen([cli, "sweep", path, "--out", out], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def two_training():
        try:
            last, _ = lines_of(out)
        except (OSError, ValueError):
            return False
        running = [t for t in last.values() if t["state"] == "running"]
        return len(running) == 2 and all(
            os.path.exists(os.path.join(out, t["run"], "metrics.csv")) for t in running)

    wait_for(two_training, 60, "two trials training")
    time.sleep(0.5)
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=120)
    check(proc.returncode == 130, "SIGINT: exit %d: %s" % (proc.returncode, stderr))
    check(not our_jobs(env, "trainscope-stop"), "jobs left after SIGINT: %s"
          % our_jobs(env, "trainscope-stop"))
    last, _ = lines_of(out)
    stopped = [t for t in last.values() if t.get("resume_from")]
    check(len(stopped) == 2 and all(t["state"] == "queued" for t in last.values()),
          "after SIGINT: %s" % list(last.values()))
    for t in stopped:
        check(os.path.isfile(os.path.join(out, t["resume_from"])), "no %s" % t["resume_from"])
    r = run([cli, "sweep", "--resume", out], env=env)
    check(r.returncode == 0, "resume: %s %s" % (r.stdout, r.stderr))
    last, _ = lines_of(out)
    check(all(t["state"] == "completed" for t in last.values()), "after resume: %s" % last)
    check(sorted(t["run"].endswith("-resumed") for t in last.values()) == [False, False, True, True],
          "resumed folders: %s" % [t["run"] for t in last.values()])

    # ---- kill -9 of the sweep: its jobs go on and are followed ----
    path = sweep_file(os.path.join(work, "kill.json"), "kill", 1500, lrs, slurm)
    out = os.path.join(work, "kill")
    proc = subprocess.Popen([cli, "sweep", path, "--out", out], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wait_for(two_training, 60, "two trials training")
    proc.kill()
    proc.wait()
    check(len(our_jobs(env, "trainscope-kill")) == 4, "the jobs after kill -9: %s"
          % our_jobs(env, "trainscope-kill"))
    r = run([cli, "sweep", "--resume", out], env=env)
    check(r.returncode == 0, "resume after kill -9: %s %s" % (r.stdout, r.stderr))
    check(r.stdout.count("followed") == 4, "followed jobs: %s" % r.stdout)
    last, lines = lines_of(out)
    check(all(t["state"] == "completed" for t in last.values()), "after resume: %s" % last)
    folders = sorted(d for d in os.listdir(out) if os.path.isdir(os.path.join(out, d))
                     and d != "slurm")
    check(folders == sorted(t["run"] for t in last.values()),
          "one run folder per trial: %s" % folders)
    submitted = {l["slurm_job_id"] for l in lines if l.get("slurm_job_id")}
    check(len(submitted) == 4, "jobs submitted: %s" % submitted)

    # ---- sbatch refusing: Slurm's own message ----
    bad = dict(slurm, partition="no-such-partition")
    path = sweep_file(os.path.join(work, "badpart.json"), "badpart", 2, lrs, bad)
    r = run([cli, "sweep", path, "--out", os.path.join(work, "badpart")], env=env)
    check(r.returncode == 2 and "sbatch" in r.stderr and "invalid partition" in r.stderr.lower(),
          "unknown partition: exit %d: %s" % (r.returncode, r.stderr))
    check(not os.path.exists(os.path.join(work, "badpart")),
          "unknown partition: the sweep folder was made (a fixed file could not reuse it)")
    # a request no node can meet (64 CPUs per trial on a 2-CPU node): sbatch would accept it
    # and Slurm keep the jobs pending for ever; sbatch --test-only refuses it first, Slurm's
    # message said, nothing made
    big = dict(slurm, cpus_per_trial=64)
    path = sweep_file(os.path.join(work, "big.json"), "big", 2, lrs, big)
    out = os.path.join(work, "big")
    r = run([cli, "sweep", path, "--out", out], env=env, timeout=120)
    check(r.returncode == 2 and "test-only" in r.stderr and
          "Requested node configuration is not available" in r.stderr,
          "64 CPUs per trial: exit %d: %s" % (r.returncode, r.stderr))
    check(not os.path.exists(out), "64 CPUs per trial: %s was made" % out)
    check(not our_jobs(env, "trainscope-big"), "jobs left: %s" % our_jobs(env, "trainscope-big"))
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
