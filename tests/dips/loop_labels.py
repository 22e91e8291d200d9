#!/usr/bin/env python3
"""Label a kept loop-device corpus run (tests/dips/corpus.sh with DIPS_KEEP=DIR) interval by
interval, as tests/dips/lab_labels.py labels the lab's, for tests/dips/lab_score.py.

usage: loop_labels.py WBTOP DIR CORPUS_LOOP   (CORPUS_LOOP: tests/dips/corpus/loop)

There the writers are held to known rates by pv into direct I/O on loop devices backed by
memory, so each device writes what its writer is given: the scenario's labels (drops,
throttles, knob changes: wall-clock spans with a depth) say what it really wrote. An
interval's depth is the labelled depth times the part of the interval the event covers
(a 2 s drop of 60 % is 60 % deep in an interval it fills and 30 % in one it half covers).
  dip     depth >= 25 %
  steady  no event on the device in the interval or the 1.5 s after one, after the warm-up
  skip    the rest (a rise, a burst and the 12 s after it, the first 3 intervals)
"""
import json
import os
import shutil
import subprocess
import sys

WARMUP = 3
AFTER = 1.5
DIP_AT = 25.0
DROPS = ("drop", "throttle", "knob")


def main():
    wbtop, src, dst = sys.argv[1:4]
    os.makedirs(dst, exist_ok=True)
    for f in sorted(os.listdir(src)):
        if not f.endswith(".labels") or not os.path.exists(os.path.join(src, f[:-7] + ".db")):
            continue
        scen = f[:-7]
        events, devs = [], set()
        with open(os.path.join(src, f)) as fh:
            for line in fh:
                w = line.split()
                if w[0] == "device":
                    devs.add(w[1])
                else:
                    t1 = float(w[4]) + (12.0 if w[0] == "burst" else 0.0)
                    events.append((w[0], w[1], float(w[2]), float(w[3]), t1))
        out = subprocess.run([wbtop, "-r", os.path.join(src, scen + ".db"), "--export", "json"],
                             capture_output=True, text=True, check=True).stdout
        rows = []
        for k, line in enumerate(out.splitlines()):
            fr = json.loads(line)
            end = fr["wall_ns"] / 1e9
            start = end - fr["dt_s"]
            for d in fr["devices"]:
                if d["name"] not in devs or d.get("status") != "ok":
                    continue
                depth, near = 0.0, False
                for kind, dev, dep, t0, t1 in events:
                    if dev != d["name"]:
                        continue
                    cover = max(0.0, min(end, t1) - max(start, t0)) / (end - start)
                    if kind in DROPS:
                        depth = max(depth, dep * cover)
                    near |= min(end, t1 + AFTER) - max(start, t0 - 0.25) > 0
                cls = "skip"
                if k >= WARMUP:
                    cls = "dip" if depth >= DIP_AT else "skip" if near else "steady"
                rows.append({"dev": d["name"], "end_ns": fr["wall_ns"], "dt_s": fr["dt_s"],
                             "depth_pct": round(depth, 1), "class": cls})
        shutil.copy(os.path.join(src, scen + ".db"), os.path.join(dst, scen + ".db"))
        with open(os.path.join(dst, scen + ".labels"), "w") as fh:
            for r in rows:
                fh.write(json.dumps(r, sort_keys=True) + "\n")
        n = {}
        for r in rows:
            n[r["class"]] = n.get(r["class"], 0) + 1
        print("loop/%s: %s" % (scen, ", ".join("%s %d" % kv for kv in sorted(n.items()))))


if __name__ == "__main__":
    main()
