#!/usr/bin/env python3
"""Score the dip detector on the lab corpus (tests/dips/corpus/BUS/KVER/SCENARIO.{db,labels}).

usage: lab_score.py WBTOP CORPUS [--model q=..,n=..,k=..] [--split FILE] [--only train|held]
                    [--quiet]

Each recording is judged again by the given wbtop (wbtop -r DB --export json --dip D, D
wbtop's default, and --dip-model when given) and its marks compared with the labels
(tests/dips/lab_labels.py):
a dip interval (a fall of 25 % or more of what the disk really wrote) found or missed, a
steady one (under 10 %) marked or not. Per scenario, then the training and the held-out
parts of the split (tests/dips/split.txt, written before the fit), then the targets of
the held-out part:
  recall of dips >= 0.95; false marks <= 1 per 100 steady device-intervals; in the
  thread's ratio-40 runs, every interval whose bo is under a tenth of the median of the
  run's busy intervals marked (while the writers ran: the start and end left out).
Exit 0 when the targets hold on the held-out part, 1 otherwise, 2 on bad input.
"""
import functools
import json
import os
import subprocess
import sys

CLASSES = ((25, 40), (40, 60), (60, 90), (90, 101))


def die(msg):
    """exit 2: a corpus that can't be scored, apart from 1 (targets not met)"""
    print("lab_score: " + msg, file=sys.stderr)
    sys.exit(2)


def jsonl(text):
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def scenarios(corpus):
    """(name, path without extension) of every labelled recording under corpus, named by its
    path there (BUS/KVER/SCENARIO)."""
    out = []
    for top, dirs, files in os.walk(corpus):
        dirs.sort()
        for f in sorted(files):
            if f.endswith(".labels"):
                base = os.path.join(top, f[:-7])
                if not os.path.exists(base + ".db"):
                    # a scenario scored without its recording would drop out of the totals
                    # unseen (a .db left out of git once did exactly that)
                    die("%s.labels has no recording %s.db" % (base, base))
                out.append((os.path.relpath(base, corpus), base))
    return sorted(out)


def read_split(path):
    part = {}
    with open(path) as f:
        for line in f:
            w = line.split("#")[0].split()
            if len(w) == 2:
                part[w[1]] = w[0]
    return part


@functools.lru_cache(maxsize=None)
def detect_define(name):
    """A number #defined in include/core/detect.h, as its text: the scorers judge by wbtop's
    own constants, not copies of them."""
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "..", "..", "include", "core", "detect.h")) as f:
        for line in f:
            w = line.split()
            if len(w) == 3 and w[:2] == ["#define", name]:
                return w[2]
    raise SystemExit("lab_score: include/core/detect.h: no %s" % name)


def default_dip():
    """wbtop's --dip default (DIP_DEFAULT_DROP_PCT): a recording is judged again, as a user's
    replay with --dip would be, with the defaults users get."""
    return detect_define("DIP_DEFAULT_DROP_PCT")


def judge(wbtop, base, model):
    cmd = [wbtop, "-r", base + ".db", "--export", "json", "--dip", default_dip()]
    if model:
        cmd += ["--dip-model", model]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit("lab_score: %s: %s" % (" ".join(cmd), r.stderr.strip()[:300]))
    marks = {}
    for f in jsonl(r.stdout):
        marks[(f["wall_ns"], "bo")] = f.get("dip", False)
        for d in f["devices"]:
            marks[(f["wall_ns"], d["name"])] = d.get("dip", False)
    return marks


def score(name, base, marks):
    with open(base + ".labels") as f:
        labels = jsonl(f.read())
    s = {"name": name, "dips": 0, "found": 0, "steady": 0, "false": 0,
         "by_class": {c: [0, 0] for c in CLASSES}, "holes": 0, "holes_marked": 0}
    for lb in labels:
        if lb["dev"] == "bo":
            continue
        m = marks.get((lb["end_ns"], lb["dev"]))
        if m is None:
            continue
        if lb["class"] == "dip":
            s["dips"] += 1
            s["found"] += bool(m)
            for c in CLASSES:
                if c[0] <= lb["depth_pct"] < c[1]:
                    s["by_class"][c][0] += 1
                    s["by_class"][c][1] += bool(m)
        elif lb["class"] == "steady":
            s["steady"] += 1
            s["false"] += bool(m)
    # the thread's ratio-40 runs: holes of bo (under a tenth of the run's median, while the
    # writers ran: the labels' steady and dip intervals say when that was) are all marked
    if "thread40" in name:
        live = {lb["end_ns"] for lb in labels if lb["dev"] != "bo" and lb["live"]}
        bo = [lb for lb in labels if lb["dev"] == "bo" and lb["end_ns"] in live
              and lb.get("bo_kbps") is not None]
        # the median of its busy intervals: in a run off more than half the time the median
        # of all of them is 0, and under a tenth of it would be nothing
        vals = sorted(lb["bo_kbps"] for lb in bo if lb["bo_kbps"] > 64.0)
        # from the series' third busy interval: before it no rule without look-ahead knows a
        # level to fall from
        busy = [k for k, lb in enumerate(bo) if lb["bo_kbps"] > 64.0]
        bo = bo[busy[2] + 1:] if len(busy) > 2 else []
        if vals:
            med = vals[len(vals) // 2]
            for lb in bo:
                if lb["bo_kbps"] < 0.1 * med:
                    s["holes"] += 1
                    s["holes_marked"] += bool(marks.get((lb["end_ns"], "bo")))
    return s


def add(total, s):
    for k in ("dips", "found", "steady", "false", "holes", "holes_marked"):
        total[k] = total.get(k, 0) + s[k]
    bc = total.setdefault("by_class", {c: [0, 0] for c in CLASSES})
    for c in CLASSES:
        bc[c][0] += s["by_class"][c][0]
        bc[c][1] += s["by_class"][c][1]


def ratio(a, b):
    return "%.3f" % (a / b) if b else "-"


def false_per100(t):
    """False marks per 100 steady device-intervals of a score or a total; None if none."""
    return 100.0 * t["false"] / t["steady"] if t.get("steady") else None


def line(s):
    cls = " ".join("%d/%d" % (s["by_class"][c][1], s["by_class"][c][0]) for c in CLASSES)
    fp = false_per100(s)
    per100 = "-" if fp is None else "%.2f" % fp
    holes = "%d/%d" % (s["holes_marked"], s["holes"]) if s["holes"] else "-"
    return "%-40s %5d %6s  %-24s %6d %5d %7s  %s" % (
        s["name"], s["dips"], ratio(s["found"], s["dips"]), cls, s["steady"], s["false"], per100,
        holes)


HEAD = "%-40s %5s %6s  %-24s %6s %5s %7s  %s" % (
    "scenario", "dips", "recall", "found 25-40 40-60 60-90 90+", "steady", "false", "/100",
    "bo holes")


def unrecorded(part, found):
    """The scenarios a split names (read_split) that the corpus (scenarios) does not hold."""
    names = {name for name, _ in found}
    return [name for name in part if name not in names]


def run(wbtop, corpus, model=None, split=None, only=None, missing_ok=False):
    """missing_ok: the split may name recordings not made yet (a fit before its held-out
    part is recorded); else each one it names must be there."""
    part = read_split(split) if split else {}
    found = scenarios(corpus)
    lacking = unrecorded(part, found)
    if lacking and not missing_ok:
        die("%s names %s, which %s does not hold" % (split, lacking[0], corpus))
    per, totals = [], {}
    for name, base in found:
        p = part.get(name, "train")
        if only and p != only:
            continue
        s = score(name, base, judge(wbtop, base, model))
        per.append((p, s))
        add(totals.setdefault(p, {"name": "all " + p}), s)
        # and by corpus (bus16, bus48, loop), within the part
        add(totals.setdefault((p, name.split("/")[0]), {"name": "  %s %s" % (p, name.split("/")[0])}), s)
    return per, totals


def targets_met(t):
    return (t.get("dips") and t["found"] / t["dips"] >= 0.95 and
            (false_per100(t) or 0.0) <= 1.0 and
            t.get("holes_marked", 0) == t.get("holes", 0))


def main():
    args = sys.argv[1:]
    quiet = "--quiet" in args
    args = [a for a in args if a != "--quiet"]
    opt = {}
    while len(args) > 2 and args[-2].startswith("--"):
        opt[args[-2]] = args[-1]
        args = args[:-2]
    if len(args) != 2:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        sys.exit(2)
    wbtop, corpus = args
    per, totals = run(wbtop, corpus, opt.get("--model"), opt.get("--split"), opt.get("--only"))
    if not per:
        print("lab_score: %s: no labelled recordings" % corpus, file=sys.stderr)
        sys.exit(2)
    print(HEAD)
    for p in ("train", "held"):
        if not quiet:
            for q, s in per:
                if q == p:
                    print(line(s))
        if p in totals:
            print(line(totals[p]))
            for key in sorted(k for k in totals if isinstance(k, tuple) and k[0] == p):
                print(line(totals[key]))
    held = totals.get("held")
    ok = held is not None and targets_met(held)
    print("targets (held-out: recall >= 0.95, <= 1 false mark / 100 steady, bo holes marked): %s"
          % ("met" if ok else "NOT met"))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
