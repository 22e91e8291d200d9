#!/usr/bin/env python3
"""Label the lab corpus (tests/lab/corpus_guest.sh) from what the disks really wrote.

usage: lab_labels.py WBTOP RESULTS CORPUS
  RESULTS  the lab's results (a directory per kernel, make dips-lab)
  CORPUS   where each kernel's recordings and labels go (tests/dips/corpus/KVER/)

For every interval wbtop recorded (its end and length, read from the recording's export:
nothing of wbtop's rates is used) and each of the three dm devices, the bytes its disk
really wrote in it come from qemu's query-blockstats, polled from the host every 100 ms,
placed on the guest's clock by the handshakes (sync.N/ack.N) before and after each
scenario. The interval's depth is its fall below the device's reference: the median of its
true rates over the busy intervals within REF_S seconds either side that no injection
touched (look-ahead is allowed here: a label is written after the fact). A real hole that
nobody injected is a dip as much as an injected one.

Labels (one JSON line per device-interval, SCENARIO.labels):
  dip     depth >= 25 %
  steady  depth < 10 %, after the warm-up, before the writers' end
  skip    the rest: between the two, the first WARMUP intervals, those up to the device's
          first busy one, those after the writers' end
"""
import bisect
import json
import os
import shutil
import subprocess
import sys

DIP_AT = 0.25
STEADY_BELOW = 0.10
REF_S = 15.0
WARMUP = 3
BUSY_KBPS = 64.0


def jsonl(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


class Clock:
    """Guest realtime -> host realtime, from the handshakes: each sync bounds host minus
    guest from above (the guest wrote it before the host saw it), each ack from below; the
    middle of the two at each handshake, interpolated in time between them."""

    def __init__(self, res):
        up = {}
        for h in jsonl(os.path.join(res, "host-events.jsonl")):
            if "sync" in h:
                n = int(h["sync"].split(".")[1])
                up[n] = (h["guest_rt_ns"], h["host_rt_ns"] - h["guest_rt_ns"])
        self.pts = []
        with open(os.path.join(res, "acks.txt")) as f:
            for line in f:
                n, g_seen, h_ack = (int(x) for x in line.split())
                if n in up:
                    g, hi = up[n]
                    lo = h_ack - g_seen
                    self.pts.append((g, (hi + lo) / 2.0, (hi - lo) / 2.0))
        self.pts.sort()
        if not self.pts:
            raise SystemExit("lab_labels: %s: no clock handshakes" % res)

    def host(self, g):
        p = self.pts
        i = bisect.bisect_left([x[0] for x in p], g)
        if i == 0:
            return g + p[0][1]
        if i == len(p):
            return g + p[-1][1]
        (g0, o0, _), (g1, o1, _) = p[i - 1], p[i]
        return g + o0 + (o1 - o0) * (g - g0) / (g1 - g0)


class Truth:
    """A disk's cumulative written bytes at any host time, interpolated between polls."""

    def __init__(self, res, disk):
        self.t, self.b = [], []
        for r in jsonl(os.path.join(res, "blockstats.jsonl")):
            if disk in r["wr_bytes"]:
                self.t.append(r["rt_ns"])
                self.b.append(r["wr_bytes"][disk])

    def at(self, h):
        t, b = self.t, self.b
        i = bisect.bisect_left(t, h)
        if i == 0 or i == len(t):
            return None
        return b[i - 1] + (b[i] - b[i - 1]) * (h - t[i - 1]) / (t[i] - t[i - 1])


def intervals(wbtop, db):
    """[(end_ns, dt_s, bo_kbps, {kernel name: write kbps})] of the recording."""
    out = subprocess.run([wbtop, "-r", db, "--export", "json"], capture_output=True, text=True,
                         check=True).stdout
    rows = []
    for line in out.splitlines():
        f = json.loads(line)
        if f.get("dt_s") is None:
            continue
        devs = {d["name"]: d.get("wkb_s") for d in f["devices"]}
        rows.append((f["wall_ns"], f["dt_s"], f["sys"].get("bo_kbps"), devs))
    return rows


def label_scenario(wbtop, res, name, devices, clock, injections, writers_end_ns):
    rows = intervals(wbtop, os.path.join(res, name + ".db"))
    out = []
    for dm, disk in devices:
        truth = Truth(res, disk)
        series = []
        for k, (end, dt, _bo, _devs) in enumerate(rows):
            b0, b1 = truth.at(clock.host(end - dt * 1e9)), truth.at(clock.host(end))
            kbps = None if b0 is None or b1 is None else (b1 - b0) / 1024.0 / dt
            inj = None
            for (d, depth, t0, secs) in injections:
                if d == disk and t0 < end and t0 + secs * 1e9 > end - dt * 1e9:
                    inj = max(inj or 0, depth)
            series.append((end, dt, kbps, inj))
        # the workload starts with the device's first busy interval: before it, and in the
        # partial one, there is nothing to fall from
        first = next((k for k, x in enumerate(series) if x[2] is not None and x[2] > BUSY_KBPS),
                     len(series))
        for k, (end, dt, kbps, inj) in enumerate(series):
            ref_pool = sorted(v for (e, _d, v, i) in series
                              if v is not None and v > BUSY_KBPS and i is None
                              and abs(e - end) <= REF_S * 1e9)
            ref = ref_pool[len(ref_pool) // 2] if ref_pool else None
            depth = None
            if kbps is not None and ref:
                depth = max(0.0, 1.0 - kbps / ref)
            cls = "skip"
            if depth is not None and k >= WARMUP and k > first and end <= writers_end_ns:
                cls = "dip" if depth >= DIP_AT else "steady" if depth < STEADY_BELOW else "skip"
            out.append({"dev": dm, "disk": disk, "end_ns": end, "dt_s": dt,
                        "true_kbps": None if kbps is None else round(kbps, 1),
                        "ref_kbps": None if ref is None else round(ref, 1),
                        "depth_pct": None if depth is None else round(100 * depth, 1),
                        "injected_pct": inj, "class": cls})
    for end, dt, bo, _devs in rows:
        out.append({"dev": "bo", "end_ns": end, "dt_s": dt, "bo_kbps": bo})
    return out


def main():
    wbtop, results, corpus = sys.argv[1:4]
    for kver in sorted(os.listdir(results)):
        res = os.path.join(results, kver)
        if not os.path.exists(os.path.join(res, "scenarios.txt")):
            continue
        clock = Clock(res)
        devices = []
        with open(os.path.join(res, "corpus-devices.txt")) as f:
            for line in f:
                w = line.split()
                if w[0].startswith("thread") and len(w) >= 4:
                    devices.append((w[2], w[3]))
        injections = []  # (disk, depth, host ns of the limit, seconds)
        host = jsonl(os.path.join(res, "host-events.jsonl"))
        starts = [h for h in host if "throttle" in h and h["bps_wr"] > 0]
        with open(os.path.join(res, "slows.txt")) as f:
            for line, h in zip(f, starts):
                _n, disk, depth, secs, _g = line.split()
                # the host's time of the limit, back on the guest's clock (the intervals')
                g = h["host_rt_ns"] - (clock.host(int(_g)) - int(_g))
                injections.append((disk, int(depth), g, float(secs)))
        marks = {}
        with open(os.path.join(res, "scenarios.txt")) as f:
            for line in f:
                name, what, ns = line.split()
                marks.setdefault(name, {})[what] = int(ns)
        dst = os.path.join(corpus, kver)
        os.makedirs(dst, exist_ok=True)
        for name, m in sorted(marks.items()):
            if "end" not in m:
                continue
            rows = label_scenario(wbtop, res, name, devices, clock, injections,
                                  m.get("writers_end", m["end"]))
            shutil.copy(os.path.join(res, name + ".db"), os.path.join(dst, name + ".db"))
            with open(os.path.join(dst, name + ".labels"), "w") as f:
                for r in rows:
                    f.write(json.dumps(r, sort_keys=True) + "\n")
            n = {}
            for r in rows:
                if "class" in r:
                    n[r["class"]] = n.get(r["class"], 0) + 1
            print("%s/%s: %s" % (kver, name, ", ".join("%s %d" % kv for kv in sorted(n.items(), key=str))))


if __name__ == "__main__":
    main()
