#!/usr/bin/python3
"""TorchScript files are programs (issue 44 items 10 and 11).

Item 10: a module whose code reads or writes files (torch.from_file in forward; in __setstate__,
which torch.jit.load runs while loading: it overwrote a user's file) is refused by inspect-model,
train and --dry-run before it is loaded, exit 2 naming the call, the code record and the key
model.torchscript.allow_file_access; the user's file is untouched. With --allow-file-access /
the key it loads and the report lists the calls. A module that print()s: its text goes to
stderr, never into train --json's stdout (every stdout line parses as TrainScope's JSON).
Item 9: a forward that never returns: inspect-model gives up after its stated limit
(TRAINSCOPE_MODEL_CHECK_SECONDS=2 here; 60 s by default), exit 2 naming what ran; train and
--dry-run end on Ctrl-C/SIGTERM within a second and a half, exit 130.
Item 11: TrainScope's reader checks the archive before libtorch does: a weight record cut to
half its length with a correct CRC-32 (libtorch read past its end) and a flipped bit with the
stale CRC-32 are refused, exit 2, naming the record.

usage: torchscript_hostile.py CLI WORKDIR
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import time
import zipfile

import torch
from typing import Tuple

WORK = ""


class Reader(torch.nn.Module):
    def __init__(self, secret: str):
        super().__init__()
        self.lin = torch.nn.Linear(2, 2)
        self.secret = secret

    def forward(self, x):
        t = torch.from_file(self.secret, False, 4)
        return self.lin(x) + 0 * t.sum()


class AtLoad(torch.nn.Module):
    """Overwrites `victim` while torch.jit.load unpickles it (its __setstate__)."""

    def __init__(self, victim: str):
        super().__init__()
        self.lin = torch.nn.Linear(2, 2)
        self.victim = victim

    @torch.jit.export
    def __getstate__(self):
        return (self.lin.weight, self.training)

    @torch.jit.export
    def __setstate__(self, state: Tuple[torch.Tensor, bool]):
        t = torch.from_file(self.victim, True, 8, dtype=torch.uint8)
        t.fill_(55)
        self.training = state[1] and bool(t.sum() >= 0)

    def forward(self, x):
        return self.lin(x)


class Printer(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(2, 2)

    def forward(self, x):
        print('{"epoch": 999, "fake": true}')
        return self.lin(x)


class Forever(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(2, 2)

    def forward(self, x):
        i = 0
        while i >= 0:
            i = i + 1
        return self.lin(x)


def cpu_seconds(pid):
    """User + system CPU seconds of process `pid` so far (/proc/PID/stat); 0 when it is gone."""
    try:
        fields = open("/proc/%d/stat" % pid).read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cli_run(cli, *args):
    return subprocess.run([cli] + list(args), capture_output=True, text=True)


def rewrite(src, dst, change):
    """A copy of the zip `src` whose records pass through change(name, bytes) -> bytes, the
    CRC-32 recomputed by zipfile (a consistent archive with altered content)."""
    with zipfile.ZipFile(src) as z, zipfile.ZipFile(dst, "w") as out:
        for info in z.infolist():
            out.writestr(info, change(info.filename, z.read(info.filename)))


def flip_stale_crc(src, dst, record):
    """A copy of `src` with one bit of `record` flipped in place: its CRC-32 is stale."""
    data = bytearray(open(src, "rb").read())
    with zipfile.ZipFile(src) as z:
        info = z.getinfo(record)
    # local header: 30 bytes + name + extra, then the stored bytes
    start = info.header_offset + 30 + len(info.filename.encode()) + \
        int.from_bytes(data[info.header_offset + 28:info.header_offset + 30], "little")
    data[start] ^= 0x10
    open(dst, "wb").write(bytes(data))


def main(cli, work):
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    secret, victim = os.path.join(work, "secret.bin"), os.path.join(work, "victim.bin")
    open(secret, "wb").write(b"my secret data!!")
    open(victim, "wb").write(b"ABCDEFGH")
    files = {name: os.path.join(work, name + ".pt") for name in ("reader", "atload", "printer")}
    torch.jit.script(Reader(secret)).save(files["reader"])
    torch.jit.script(AtLoad(victim)).save(files["atload"])
    torch.jit.script(Printer()).save(files["printer"])
    moons = ["--preset", "moons", "--epochs", "1", "--set", "model.kind=torchscript"]
    # Item 10: refused before loading, everywhere; the victim untouched
    for name in ("reader", "atload"):
        for args in (["inspect-model", files[name]],
                     ["train"] + moons + ["--set", "model.torchscript.path=" + files[name],
                                          "--out", os.path.join(work, "run-" + name)],
                     ["train"] + moons + ["--set", "model.torchscript.path=" + files[name], "--dry-run"]):
            r = cli_run(cli, *args)
            assert r.returncode == 2, (args, r.returncode, r.stderr)
            assert "torch.from_file in code/__torch__.py" in r.stderr and \
                "model.torchscript.allow_file_access" in r.stderr, (args, r.stderr)
            assert open(victim, "rb").read() == b"ABCDEFGH", (args, "the victim file was written")
    # allowed: loaded, the calls listed
    r = cli_run(cli, "inspect-model", files["reader"], "--allow-file-access", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["file_operations"] == ["torch.from_file in code/__torch__.py"], r.stdout
    r = cli_run(cli, "train", *moons, "--set", "model.torchscript.path=" + files["reader"],
                "--set", "model.torchscript.allow_file_access=true", "--out", os.path.join(work, "allowed"))
    assert r.returncode == 0, r.stderr
    # print(): to stderr, never into --json output
    r = cli_run(cli, "train", *moons, "--set", "model.torchscript.path=" + files["printer"], "--json",
                "--out", os.path.join(work, "printed"))
    assert r.returncode == 0, r.stderr
    for line in r.stdout.splitlines():
        assert "fake" not in line, line
        json.loads(line)
    assert '"fake": true' in r.stderr, r.stderr[-500:]
    print("item 10: file access refused before loading (%s), allowed by the key; print() on stderr"
          % ", ".join(("reader", "atload")))
    # Item 9: a forward that never returns
    forever = os.path.join(work, "forever.pt")
    torch.jit.script(Forever()).save(forever)
    env = dict(os.environ, TRAINSCOPE_MODEL_CHECK_SECONDS="2")
    start = time.monotonic()
    r = subprocess.run([cli, "inspect-model", forever, "--input-shape", "2"], capture_output=True,
                       text=True, env=env, timeout=60)
    assert r.returncode == 2 and "has not returned after 2 s" in r.stderr, (r.returncode, r.stderr)
    assert time.monotonic() - start < 30, time.monotonic() - start
    for sig in (signal.SIGINT, signal.SIGTERM):
        for args in (["train"] + moons + ["--set", "model.torchscript.path=" + forever, "--out",
                                         os.path.join(work, "forever-%d" % sig)],
                     ["train"] + moons + ["--set", "model.torchscript.path=" + forever, "--dry-run"]):
            p = subprocess.Popen([cli] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            # Inside the forward by now: 4 s of CPU (starting and loading take about 1 s of it;
            # CPU time, not wall time, so that a busy machine only makes the wait longer)
            deadline = time.monotonic() + 120
            while cpu_seconds(p.pid) < 4 and time.monotonic() < deadline and p.poll() is None:
                time.sleep(0.1)
            assert p.poll() is None, (args, p.returncode, p.stderr.read())
            sent = time.monotonic()
            p.send_signal(sig)
            try:
                out, err = p.communicate(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
                raise AssertionError("%s still running 10 s after %s" % (args, sig))
            took = time.monotonic() - sent
            assert p.returncode == 130 and took < 1.5, (args, sig, p.returncode, took, err[-500:])
            assert "model's own code" in err, err[-500:]
    print("item 9: a forward that never returns: inspect-model's limit, exit 130 on SIGINT/SIGTERM")
    # Item 11: damaged archives refused by TrainScope's reader
    base = files["printer"]
    with zipfile.ZipFile(base) as z:
        weight = [n for n in z.namelist() if "/data/" in n][0]
    cut = os.path.join(work, "cut.pt")
    rewrite(base, cut, lambda n, b: b[:len(b) // 2] if n == weight else b)
    flipped = os.path.join(work, "flipped.pt")
    flip_stale_crc(base, flipped, weight)
    for path, says in ((cut, "do not fit their records"), (flipped, "CRC-32")):
        for args in (["inspect-model", path],
                     ["train"] + moons + ["--set", "model.torchscript.path=" + path, "--out",
                                          os.path.join(work, "run-" + os.path.basename(path))]):
            r = cli_run(cli, *args)
            assert r.returncode == 2 and says in r.stderr and path in r.stderr, (args, r.returncode, r.stderr)
    print("item 11: a record cut short (CRC-32 correct) and a flipped bit (CRC-32 stale) refused")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(*sys.argv[1:]))
