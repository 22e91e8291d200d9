#!/usr/bin/env python3
"""Label the lab corpus (tests/lab/corpus_guest.sh) from what the disks really wrote.

usage: lab_labels.py WBTOP RESULTS CORPUS
       lab_labels.py --relabel WBTOP CORPUS
  RESULTS  the lab's results (a directory per kernel, make dips-lab)
  CORPUS   where each kernel's recordings and labels go (CORPUS/KVER/)
  --relabel  label the recordings under CORPUS again from their labels' true rates (a
             change of the rule below, without the lab)

For every interval wbtop recorded (its end and length, read from the recording's export:
nothing of wbtop's rates is used) and each of the three disks under the dm devices, the bytes
it really wrote in it come from qemu's query-blockstats, polled from the host every 100 ms,
placed on the guest's clock by the handshakes (sync.N/ack.N) before and after each
scenario. The interval's depth is its fall below the device's reference: the median of its
true rates over the busy intervals within REF_S seconds or REF_N intervals either side,
whichever is longer, that no injection touched (look-ahead is allowed here: a label is
written after the fact). A real hole that nobody injected is a dip as much as an injected
one. The disks are labelled, not the dm devices above them: a dm device counts a bio when all
of it is written, and XFS sends it bios of ~10 MiB, so at 1 s its own rate is bursts of
completions (64, 0, 0, 57, 0 MiB/s) while its disk writes a steady 5 MiB/s; what the disk
wrote says nothing of those.

Labels (one JSON line per device-interval, SCENARIO.labels):
  dip     depth >= 25 %, and more than 3 of the disk's usual requests (counting noise)
  (both only where qemu's count and the guest's put the interval in the same class, and where
  the reference of the same span before alone does too, when it holds 3 busy intervals:
  a class that turns on what the disk wrote after the interval is none the rule, which sees
  no future, could be held to)
  steady  depth < 10 %, after the warm-up, before the writers' end
  skip    the rest: between the two, the first WARMUP intervals, those up to the device's
          third busy one, those after the writers' end
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
# ... and at least as many intervals: at 5 s, 15 s either side are 7 intervals, and a hole of
# three (1.2 MiB/s between stretches at 8) was its own median, labelled steady
REF_N = 15
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
    """[(end_ns, dt_s, bo_kbps, {kernel name: (write kbps, writes/s)})] of the recording."""
    out = subprocess.run([wbtop, "-r", db, "--export", "json"], capture_output=True, text=True,
                         check=True).stdout
    rows = []
    for line in out.splitlines():
        f = json.loads(line)
        if f.get("dt_s") is None:
            continue
        devs = {d["name"]: (d.get("wkb_s"), d.get("w_s")) for d in f["devices"]}
        rows.append((f["wall_ns"], f["dt_s"], f["sys"].get("bo_kbps"), devs))
    return rows


def lag_ns(rows, devices, truths, clock):
    """The shift of qemu's count against the guest's that fits best: a write is counted by
    qemu when it completes there and by the guest when the guest hears of it, later by a
    steady delay under TCG (and by what is left of the clocks' offset). Fitted on the
    scenario's bytes per interval, every disk together, between -1 and +1 s: only when the
    two counts agree in time do the labels fall on the intervals wbtop measured."""
    best = (None, 0)
    for step in range(-100, 101):
        d = step * 10_000_000
        err = 0.0
        for _dm, disk in devices:
            for end, dt, _bo, devs in rows:
                g = devs.get(disk, (None, None))[0]
                b0 = truths[disk].at(clock.host(end - dt * 1e9) + d)
                b1 = truths[disk].at(clock.host(end) + d)
                if g is None or b0 is None or b1 is None:
                    continue
                err += ((b1 - b0) / 1024.0 - g * dt) ** 2
        if best[0] is None or err < best[0]:
            best = (err, d)
    return best[1]


def interval_class(kbps, ref, dt, req_kb):
    """dip, steady or skip, by the interval's fall below ref. A fall of 3 requests or fewer
    is counting noise, no dip: a request or two split by the interval's edge (at a few
    requests a second, a quarter of the rate)."""
    depth = max(0.0, 1.0 - kbps / ref)
    if depth >= DIP_AT and (ref - kbps) * dt > 3 * req_kb:
        return "dip"
    return "steady" if depth < STEADY_BELOW else "skip"


def req_size(rows, disk):
    """The disk's usual request, from what the guest counted (sizes only, not rates)."""
    sizes = sorted(r[3][disk][0] / r[3][disk][1] for r in rows
                   if disk in r[3] and r[3][disk][1] and r[3][disk][0])
    return sizes[len(sizes) // 2] if sizes else 0.0


def reference(series, end, dt, past_only, least):
    """The median of the true rates of the busy intervals no injection touched within REF_S
    seconds or REF_N intervals of dt of end, whichever is longer (before it only, with
    past_only), or None if fewer than least. Half an interval more, so that the interval
    ending REF_S before is in whatever the nanoseconds of the two ends."""
    span = (max(REF_S, REF_N * dt) + 0.5 * dt) * 1e9
    pool = sorted(v for (e, _d, v, i, _g) in series
                  if v is not None and v > BUSY_KBPS and i is None and abs(e - end) <= span
                  and (e < end or not past_only))
    return pool[len(pool) // 2] if len(pool) >= least else None


def label_series(disk, dm, series, req_kb, writers_end_ns, live=None):
    """The labels of one disk's intervals, series [(end_ns, dt_s, true kbps, injected depth,
    the guest's kbps)]. live[k] (relabelling) says whether interval k was one the writers
    ran in; else it is worked out: from the warm-up's and the disk's third busy interval on,
    up to the writers' end. Returns (records, intervals left unlabelled: the two counts apart,
    the two references apart)."""
    # the workload starts with the device's first busy interval: until its third, no rule
    # without look-ahead knows a level to fall from
    busy = [k for k, x in enumerate(series) if x[2] is not None and x[2] > BUSY_KBPS]
    first = busy[2] if len(busy) > 2 else len(series)
    out, disagree, ambiguous = [], 0, 0
    for k, (end, dt, kbps, inj, g) in enumerate(series):
        ref = reference(series, end, dt, False, 1)
        past = reference(series, end, dt, True, 3)    # the same from before the interval only
        depth = None
        if kbps is not None and ref:
            depth = max(0.0, 1.0 - kbps / ref)
        cls = "skip"
        # the two counts of the interval, qemu's and the guest's, must put it in the same
        # class: under TCG the guest's clock and its hearing of completions jitter (by a
        # batch of a MiB, 4-6 % of a disk's second at the lab's bus), and an interval the
        # guest counted as steady and qemu as a dip, or the other way, says nothing of
        # the rule
        true_cls = interval_class(kbps, ref, dt, req_kb) if depth is not None else None
        agree = (g is not None and true_cls is not None and
                 true_cls == interval_class(g, ref, dt, req_kb))
        # ... and from the past alone: a disk trading a bus (4, 24, 9, 14 MiB/s at 1 s) is
        # steady against the median of the 30 s about it and a quarter down on the 15 s
        # before, or the other way
        past_agree = past is None or true_cls is None or \
            true_cls == interval_class(kbps, past, dt, req_kb)
        on = (live[k] if live is not None else
              depth is not None and k >= WARMUP and k > first and end <= writers_end_ns)
        if depth is not None and on:
            cls = true_cls
            if cls != "skip" and not agree:
                cls = "skip"
                disagree += 1
            elif cls != "skip" and not past_agree:
                cls = "skip"
                ambiguous += 1
        out.append({"dev": disk, "dm": dm, "end_ns": end, "dt_s": dt,
                    "true_kbps": None if kbps is None else round(kbps, 1),
                    "ref_kbps": None if ref is None else round(ref, 1),
                    "past_ref_kbps": None if past is None else round(past, 1),
                    "depth_pct": None if depth is None else round(100 * depth, 1),
                    "injected_pct": inj, "class": cls, "agree": agree,
                    "past_agree": past_agree, "live": bool(on)})
    return out, (disagree, ambiguous)


def label_scenario(wbtop, res, name, devices, clock, injections, writers_end_ns):
    rows = intervals(wbtop, os.path.join(res, name + ".db"))
    out = []
    truths = {disk: Truth(res, disk) for _dm, disk in devices}
    lag = lag_ns(rows, devices, truths, clock)
    print("%s: qemu's count %+.2f s from the guest's" % (name, lag / 1e9), file=sys.stderr)
    for dm, disk in devices:
        truth = truths[disk]
        series = []
        for end, dt, _bo, devs in rows:
            b0 = truth.at(clock.host(end - dt * 1e9) + lag)
            b1 = truth.at(clock.host(end) + lag)
            # to the 0.1 KiB/s the labels keep, so that a relabelling judges the same numbers
            kbps = None if b0 is None or b1 is None else round((b1 - b0) / 1024.0 / dt, 1)
            inj = None
            for (d, depth, t0, secs) in injections:
                if d == disk and t0 < end and t0 + secs * 1e9 > end - dt * 1e9:
                    inj = max(inj or 0, depth)
            g = devs.get(disk, (None, None))[0]
            series.append((end, dt, kbps, inj, g))
        recs, (disagree, ambiguous) = label_series(disk, dm, series, req_size(rows, disk),
                                                   writers_end_ns)
        out += recs
        print("%s %s: %d intervals left unlabelled, the two counts apart; %d, the two references"
              % (name, disk, disagree, ambiguous), file=sys.stderr)
    for end, dt, bo, _d in rows:
        out.append({"dev": "bo", "end_ns": end, "dt_s": dt, "bo_kbps": bo})
    return out


def relabel(wbtop, corpus):
    """Label every recording under corpus again from what its labels keep (each interval's
    true rate, injection and whether the writers ran) and the guest's counts in its
    recording: a change of the labelling rule, without running the lab again."""
    for top, _dirs, files in sorted(os.walk(corpus)):
        for f in sorted(files):
            if not f.endswith(".labels"):
                continue
            base = os.path.join(top, f[:-7])
            if not os.path.exists(base + ".db"):
                sys.exit("lab_labels: %s.labels has no recording %s.db" % (base, base))
            old = jsonl(base + ".labels")
            if not any("true_kbps" in r for r in old):
                continue    # labelled from a schedule (tests/dips/loop_labels.py), not here
            rows = intervals(wbtop, base + ".db")
            guest = {(end, disk): v[0] for end, _dt, _bo, devs in rows for disk, v in devs.items()}
            out = []
            for disk in sorted({r["dev"] for r in old if r["dev"] != "bo"}):
                recs = sorted((r for r in old if r["dev"] == disk), key=lambda r: r["end_ns"])
                if any("live" not in r for r in recs):
                    raise SystemExit("lab_labels: %s.labels: no 'live' field to relabel from" % base)
                series = [(r["end_ns"], r["dt_s"], r["true_kbps"], r["injected_pct"],
                           guest.get((r["end_ns"], disk))) for r in recs]
                new, _n = label_series(disk, recs[0].get("dm"), series, req_size(rows, disk), 0,
                                       [r["live"] for r in recs])
                out += new
            out += [r for r in old if r["dev"] == "bo"]
            write_labels(base + ".labels", out)
            print("%s: %s" % (os.path.relpath(base, corpus), counts(out)))


def write_labels(path, rows):
    with open(path, "w") as f:
        for r in rows:
            f.write(json.dumps(r, sort_keys=True) + "\n")


def counts(rows):
    n = {}
    for r in rows:
        if "class" in r:
            n[r["class"]] = n.get(r["class"], 0) + 1
    return ", ".join("%s %d" % kv for kv in sorted(n.items(), key=str))


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--relabel":
        relabel(sys.argv[2], sys.argv[3])
        return
    if len(sys.argv) != 4:
        raise SystemExit(__doc__.split("\n\n")[1])
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
            write_labels(os.path.join(dst, name + ".labels"), rows)
            print("%s/%s: %s" % (kver, name, counts(rows)))


if __name__ == "__main__":
    main()
