#!/usr/bin/python3
"""`trainscope-cli report` (issue 25 §6) without a display, checked against the run's own files.

A finished moons run, a Fashion-MNIST run with a test set and a run stopped on a non-finite loss:
the default report (RUN/report.html) starts with TrainScope's mark, holds the plots as PNG images
inside it (decoded: PNG signatures), the final validation loss of metrics.csv and the test loss of
summary.json (4 significant digits, as the report words numbers), how the run ended; in Chinese
(`--lang zh_CN`) the headings are Chinese; a PDF (`--format pdf`) is A4 pages naming TrainScope
as creator. A second report over a file TrainScope wrote is allowed; a file of the user's own is
never replaced; bad arguments exit 2 naming the problem and write nothing.

usage: report_cli.py CLI WORKDIR
"""
import base64
import csv
import json
import os
import re
import shutil
import subprocess
import sys


def run(cli, *args, expect=(0,)):
    env = dict(os.environ)
    env.pop("DISPLAY", None)  # no display: the report must not need one
    env.pop("WAYLAND_DISPLAY", None)
    r = subprocess.run([cli] + list(args), capture_output=True, text=True, env=env)
    if r.returncode not in expect:
        sys.exit("%s %s: exit %d, expected %s\n%s" % (cli, " ".join(args), r.returncode, expect, r.stderr))
    return r


def read(path, mode="r"):
    with open(path, mode, **({} if "b" in mode else {"encoding": "utf-8"})) as f:
        return f.read()


def g4(v):
    return "%.4g" % v


def check_html(path, run_dir, lang="en"):
    html = read(path)
    assert html.startswith("<!DOCTYPE html>\n<!-- Written by TrainScope"), html[:80]
    images = re.findall(r'src="data:image/png;base64,([A-Za-z0-9+/=]+)"', html)
    assert len(images) >= 3, len(images)
    for b64 in images:
        assert base64.b64decode(b64)[:8] == b"\x89PNG\r\n\x1a\n"
    with open(os.path.join(run_dir, "metrics.csv"), newline="") as f:
        rows = list(csv.DictReader(f))
    if rows:
        assert g4(float(rows[-1]["val_loss"])) in html, ("final val_loss", rows[-1]["val_loss"])
    summary = json.load(open(os.path.join(run_dir, "summary.json")))
    if summary.get("test_loss") is not None:
        assert g4(summary["test_loss"]) in html, ("test_loss", summary["test_loss"])
    if lang == "zh_CN":
        assert "运行报告" in html and "诊断" in html and "设置" in html
    else:
        assert "Run report" in html and "Diagnosis" in html
    return html, summary


def main(cli, work):
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    runs = {}
    for name, args, code in (
            ("moons", ["--preset", "moons", "--epochs", "4"], 0),
            ("fmnist", ["--preset", "fashion-mnist-mlp", "--epochs", "1", "--set", "data.limit=2000"], 0),
            ("exploding", ["--preset", "exploding", "--epochs", "3"], 3)):
        runs[name] = os.path.join(work, name)
        run(cli, "train", *args, "--out", runs[name], expect=(code,))

    run(cli, "report", runs["moons"])
    html, _ = check_html(os.path.join(runs["moons"], "report.html"), runs["moons"])
    # The settings are those that act in the run (issue 43 item 22): generated classes
    for key in ("data.noise", "model.hidden", "optimizer.betas", "training.epochs"):
        assert "<code>%s</code>" % key in html, key
    for key in ("data.seq_len", "data.target_scale", "data.path", "optimizer.momentum",
                "model.cnn.channels", "data.csv.path"):
        assert "<code>%s</code>" % key not in html, key
    run(cli, "report", runs["moons"])  # over its own report: allowed
    zh = os.path.join(work, "moons-zh.html")
    run(cli, "report", runs["moons"], "--lang", "zh_CN", "-o", zh)
    check_html(zh, runs["moons"], "zh_CN")
    run(cli, "report", runs["fmnist"], "-o", os.path.join(work, "f.html"))
    html, summary = check_html(os.path.join(work, "f.html"), runs["fmnist"])
    assert "Test loss" in html
    assert "<code>data.limit</code>" in html and "<code>data.noise</code>" not in html  # files
    run(cli, "report", runs["exploding"], "-o", os.path.join(work, "x.html"))
    html, summary = check_html(os.path.join(work, "x.html"), runs["exploding"])
    assert summary["stop_reason"] == "non_finite" and "non-finite" in html, summary["stop_reason"]

    pdf_path = os.path.join(work, "moons.pdf")
    run(cli, "report", runs["moons"], "--format", "pdf", "--lang", "zh_CN", "-o", pdf_path)
    pdf = read(pdf_path, "rb")
    creator = "TrainScope run report".encode("utf-16-be")
    assert pdf.startswith(b"%PDF-") and b"/Creator (\xfe\xff" + creator in pdf
    pages = pdf.count(b"/Type /Page\n")
    assert pages >= 2 and b"/MediaBox [0 0 595" in pdf, pages  # A4: 595 x 842 points
    run(cli, "report", runs["moons"], "--format", "pdf", "-o", pdf_path)  # its own: allowed

    # The default report lives in the run folder: train --overwrite may still replace the run.
    run(cli, "train", "--preset", "moons", "--epochs", "1", "--out", runs["moons"], "--overwrite")
    assert not os.path.exists(os.path.join(runs["moons"], "report.html"))
    run(cli, "report", runs["moons"])

    # SIGTERM to trainscope-cli alone (not its process group) stops the dashboard it runs too:
    # exit 130, no file, no process left behind.
    import signal
    import time
    target = os.path.join(work, "stopped.pdf")
    p = subprocess.Popen([cli, "report", runs["fmnist"], "-o", target], stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 20
    while time.time() < deadline:  # until the dashboard has been started
        children = subprocess.run(["pgrep", "-P", str(p.pid)], capture_output=True, text=True).stdout.split()
        if children:
            break
        time.sleep(0.02)
    assert children, "the dashboard was not started"
    p.send_signal(signal.SIGTERM)
    assert p.wait(20) == 130, p.returncode
    time.sleep(1.5)
    assert not os.path.exists(target)
    assert subprocess.run(["ps", "-p", children[0]], capture_output=True).returncode != 0, "child left"

    mine = os.path.join(work, "mine.html")
    with open(mine, "w") as f:
        f.write("<p>my notes</p>\n")
    bad = [
        ([runs["moons"], "-o", mine], "was not written by TrainScope"),
        ([runs["moons"], "-o", pdf_path.replace(".pdf", ".txt")], "name an .html or .pdf file"),
        ([runs["moons"], "--format", "pdf", "-o", zh], "names a .html file"),
        ([runs["moons"], "-o", work], "is a directory"),
        ([runs["moons"], "-o", os.path.join(work, "no", "r.html")], "does not exist"),
        ([os.path.join(work, "missing")], "does not exist"),
        ([os.path.join(runs["moons"], "steps.csv")], "is not a run folder"),
        ([work], "is not a TrainScope run folder"),
        ([runs["moons"], "--lang", "de"], "--lang"),
        ([runs["moons"], "--format", "docx"], "--format"),
    ]
    for args, says in bad:
        r = run(cli, "report", *args, expect=(2,))
        assert says in r.stderr, (args, r.stderr)
    assert read(mine) == "<p>my notes</p>\n"
    assert not os.path.exists(os.path.join(work, "no"))
    # Issue 44 items 3 and 4: a write that fails part way (a file size limit of 4 KiB, SIGXFSZ
    # left at its default, as a full disk fails writes) exits 1 and leaves no file, torn or whole
    full = os.path.join(work, "full")
    os.makedirs(full)
    for fmt in ("html", "pdf"):
        target = os.path.join(full, "report." + fmt)
        env = dict(os.environ)
        env.pop("DISPLAY", None)
        p = subprocess.run(["/bin/sh", "-c", 'ulimit -f 8; exec "$0" report "$1" -o "$2"',
                            cli, runs["moons"], target], capture_output=True, text=True, env=env)
        assert p.returncode == 1, (fmt, p.returncode, p.stderr)
        assert "Cannot write" in p.stderr, (fmt, p.stderr)
        assert os.listdir(full) == [], (fmt, os.listdir(full))
    print("report: 3 runs (completed, with a test set, stopped on NaN), en and zh_CN, HTML and "
          "PDF; %d bad inputs refused; a write that fails part way: exit 1, no file" % len(bad))
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(*sys.argv[1:]))
