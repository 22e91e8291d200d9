#!/usr/bin/env python3
"""The lab's checker: wbtop's figures against independent readings of the
same intervals (tests/lab/run.sh runs it on each kernel's results).

Readings, none of them from wbtop's code: reader.jsonl (debugfs bdi/*/stats
and wb_stats, cgroup io.stat, each stamped), trace.txt (a tracefs instance
of the lab's own, as text, clock mono), blockstats.jsonl (qemu's count of
each disk's writes, polled from the host), names.txt (dmsetup, lvs, mdstat,
findmnt, sysfs).  Every tolerance is what the readings themselves span
around the interval's ends: a gauge must lie between the readings just
before and just after wbtop's sample; a count over an interval between the
growth over the readings inside it and over the readings around it.

Prints one PASS/FAIL line per figure and device (or cgroup), with the
expected range next to what wbtop gave in the interval that decided it.
Exit 1 when anything failed.  usage: check.py RESULTS_DIR
"""
import json
import os
import re
import subprocess
import sys

PAGE_KB = 4
# how long after stamping a sample wbtop may still be reading debugfs (it
# reads diskstats and drains the trace first; under TCG that takes a while)
READ_LAG_NS = 400_000_000
# a request may complete on either side of an interval's end in the guest and
# in qemu's count: one small one's worth of slack (ext4/XFS log writes)
REQ_KB = 16
# a figure of a device whose readings show no activity may be absent in wbtop
# (it reads an idle device's debugfs files only every 10 s)


class Report:
    def __init__(self, kver):
        self.kver = kver
        self.failed = 0
        self.passed = 0

    def line(self, ok, what, detail):
        print("%s %s %s: %s" % ("PASS" if ok else "FAIL", self.kver, what, detail))
        if ok:
            self.passed += 1
        else:
            self.failed += 1


def load_jsonl(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def fmt(v):
    if v is None:
        return "null"
    if isinstance(v, float):
        return "%.1f" % v
    return str(v)


class Lab:
    def __init__(self, out):
        self.out = out
        env = dict(l.strip().split("=", 1) for l in open(os.path.join(out, "env")) if "=" in l)
        self.kver = env["KVER"]
        self.wbtop_bin = env["WBTOP"]
        self.rows = load_jsonl(os.path.join(out, "wbtop.json"))
        rd = load_jsonl(os.path.join(out, "reader.jsonl"))
        self.cg_ino = rd[0]["cg_ino"]
        self.readings = rd[1:]
        self.has_wb_stats = any("wb" in b for r in self.readings for b in r["bdi"].values())
        # trace clock (mono) -> guest realtime
        offs = sorted(r["rt_ns"] - r["mono_ns"] for r in self.readings)
        self.mono2rt = offs[len(offs) // 2]
        self.events = self.parse_trace(os.path.join(out, "trace.txt"))
        self.names = self.parse_names(os.path.join(out, "names.txt"))
        self.blockstats = load_jsonl(os.path.join(out, "blockstats.jsonl"))
        host = load_jsonl(os.path.join(out, "host-events.jsonl"))
        syncs = [h["host_rt_ns"] - h["guest_rt_ns"] for h in host if "sync" in h]
        # the guest wrote each sync file before the host saw it: the least
        # delay is the best estimate of the offset, the spread its error
        self.host_off = min(syncs)
        self.host_off_err = max(syncs) - min(syncs)
        self.throttles = [h for h in host if "throttle" in h]

    def parse_trace(self, path):
        ev = []
        pat = re.compile(r"\s(\d+\.\d+): (balance_dirty_pages|bdi_dirty_ratelimit): bdi (\S+): (.*)")
        for line in open(path, errors="replace"):
            m = pat.search(line)
            if not m:
                continue
            f = dict(kv.split("=", 1) for kv in m.group(4).split() if "=" in kv)
            rt = int(round(float(m.group(1)) * 1e9)) + self.mono2rt
            ev.append((rt, m.group(2), m.group(3), f))
        return ev

    def parse_names(self, path):
        n = {"dm": {}, "lv": {}, "md": {}, "mnt": {}, "dev": {}, "holders": {}, "slaves": {}}
        sect = None
        for line in open(path):
            if line.startswith("## "):
                sect = line[3:].strip()
                continue
            f = line.split()
            if not f:
                continue
            if sect == "dmsetup" and len(f) == 3:
                n["dm"]["%s:%s" % (f[1], f[2])] = f[0]
            elif sect == "lvs" and len(f) == 4:
                n["lv"]["%s:%s" % (f[2], f[3])] = (f[0], f[1])
            elif sect == "mdstat" and f[0] == "md" and len(f) >= 3:
                n["md"][f[2]] = (f[1], f[3].split(":")[-1] if len(f) > 3 else "")
            elif sect == "findmnt" and len(f) >= 3 and f[1].startswith("/mnt/"):
                n["mnt"][f[0]] = (f[1], f[2])
            elif sect == "sysfs" and f[0] == "dev":
                n["dev"][f[1]] = f[2]
                kv = dict(x.split("=", 1) for x in f[3:] if "=" in x)
                n["holders"][f[1]] = [x for x in kv.get("holders", "").split(",") if x]
                n["slaves"][f[1]] = [x for x in kv.get("slaves", "").split(",") if x]
        return n

    # --- the readings around an interval -------------------------------------
    def around(self, t):
        """The last reading that ended before t and the first that began after it."""
        before = [r for r in self.readings if r["rt_end_ns"] <= t]
        after = [r for r in self.readings if r["rt_ns"] >= t]
        return (before[-1] if before else None), (after[0] if after else None)

    def bracket(self, t):
        """The reading before wbtop's sample at t and those up to READ_LAG_NS after: wbtop
        stamps a sample, then reads diskstats and the trace, then debugfs."""
        before = [r for r in self.readings if r["rt_end_ns"] <= t]
        after = [r for r in self.readings if r["rt_ns"] >= t]
        if not before or not after:
            return []
        late = [r for r in after[1:] if r["rt_ns"] < t + READ_LAG_NS]
        return [before[-1], after[0]] + late

    def prev_of(self, r):
        i = self.readings.index(r)
        return self.readings[i - 1] if i > 0 else None

    def inner_outer(self, t0, t1):
        """Readings bounding the interval from inside and from outside."""
        inside = [r for r in self.readings if r["rt_ns"] >= t0 and r["rt_end_ns"] <= t1]
        b0, _ = self.around(t0)
        _, a1 = self.around(t1)
        return inside, b0, a1


def dev_domains(reading, bdi):
    e = reading["bdi"].get(bdi)
    return None if e is None else e


def active(block, prev_block):
    moved = prev_block is not None and block.get("WbWritten", 0) != prev_block.get("WbWritten", 0)
    return block.get("WbReclaimable", 0) > 0 or block.get("WbWriteback", 0) > 0 or moved


def dev_expect(lab, reading, prev, bdi):
    """What a reading says of device bdi: figures by name, None when it lacks it."""
    e = reading["bdi"].get(bdi)
    if e is None:
        return None
    if "wb" in e:
        blocks = e["wb"]
        pblocks = {b["WbCgIno"]: b for b in (prev["bdi"].get(bdi, {}).get("wb", []) if prev else [])}
        act = [b for b in blocks if active(b, pblocks.get(b["WbCgIno"]))]
        return {
            "wb_dirty_kb": sum(b.get("WbReclaimable", 0) for b in blocks),
            "wb_writeback_kb": sum(b.get("WbWriteback", 0) for b in blocks),
            "wb_thresh_kb": sum(b.get("WbDirtyThresh", 0) for b in act) if act else None,
            "wb_bw_kbps": sum(b.get("WbWriteBandwidth", 0) for b in act) if act else None,
            "dirtied": sum(b.get("WbDirtied", 0) for b in blocks),
            "written": sum(b.get("WbWritten", 0) for b in blocks),
            "busy": bool(act),
        }
    return {"busy": False}


def cg_expect(reading, prev, ino):
    blocks = [(bdi, b) for bdi, e in reading["bdi"].items() for b in e.get("wb", []) if b["WbCgIno"] == ino]
    if not any("wb" in e for e in reading["bdi"].values()):
        return None
    pb = {}
    if prev:
        pb = {bdi: b for bdi, e in prev["bdi"].items() for b in e.get("wb", []) if b["WbCgIno"] == ino}
    act = [b for bdi, b in blocks if active(b, pb.get(bdi))]
    return {
        "wb_dirty_kb": sum(b.get("WbReclaimable", 0) for _, b in blocks),
        "wb_writeback_kb": sum(b.get("WbWriteback", 0) for _, b in blocks),
        "wb_thresh_kb": sum(b.get("WbDirtyThresh", 0) for b in act) if act else None,
        "wb_bw_kbps": sum(b.get("WbWriteBandwidth", 0) for b in act) if act else None,
        "dirtied": sum(b.get("WbDirtied", 0) for _, b in blocks),
        "written": sum(b.get("WbWritten", 0) for _, b in blocks),
        "busy": bool(act),
    }


class Tally:
    """Intervals of one figure of one object: counts and the deciding example."""

    def __init__(self):
        self.n = 0
        self.bad = []
        self.example = None
        self.skipped = 0

    def add(self, ok, t, exp, got):
        self.n += 1
        if not ok:
            self.bad.append((t, exp, got))
        elif self.example is None or (isinstance(got, (int, float)) and got and not self.example[2]):
            self.example = (t, exp, got)


def in_range(got, lo, hi, slack=0.0):
    if got is None or lo is None or hi is None:
        return False
    return lo - slack <= got <= hi + slack


def check_gauges(lab, rep, devs, cgs):
    """dirty, writeback, threshold, bandwidth: between the readings around the sample."""
    figures = ["wb_dirty_kb", "wb_writeback_kb", "wb_thresh_kb", "wb_bw_kbps"]
    tallies = {}
    for row in lab.rows[1:]:
        t = row["wall_ns"]
        br = lab.bracket(t)
        if not br:
            continue
        objs = [("dev", d, lab_dev(row, d)) for d in devs] + [("cg", c, lab_cg(row, c)) for c in cgs]
        for kind, name, got_row in objs:
            if got_row is None:
                continue
            if kind == "dev":
                bdi = lab.names["dev"][name]
                exps = [dev_expect(lab, r, lab.prev_of(r), bdi) for r in br]
            else:
                ino = lab.cg_ino[name.strip("/")]
                exps = [cg_expect(r, lab.prev_of(r), ino) for r in br]
            if any(e is None or "wb_dirty_kb" not in e for e in exps):
                continue  # no per-domain file: checked against the trace below
            for f in figures:
                tl = tallies.setdefault((kind, name, f), Tally())
                got = got_row.get(f)
                vals = [e[f] for e in exps if e[f] is not None]
                rng = "%s..%s" % (fmt(min(vals)), fmt(max(vals))) if vals else "null"
                if got is None:
                    # absent is right where a reading around it has nothing for it:
                    # wbtop reads a device that looked idle only every 10 s, and
                    # never shows an old figure
                    if len(vals) < len(exps) or min(vals) == 0:
                        tl.skipped += 1
                    else:
                        tl.add(False, t, rng, None)
                    continue
                if not vals:
                    tl.add(False, t, "null", got)
                    continue
                tl.add(in_range(got, min(vals), max(vals)), t, rng, got)
    return tallies


def check_counts(lab, rep, devs, cgs):
    """dirtied and written per second: the growth of WbDirtied/WbWritten of the
    readings inside the interval and around it."""
    tallies = {}
    for i in range(1, len(lab.rows)):
        row, prev = lab.rows[i], lab.rows[i - 1]
        t0, t1 = prev["wall_ns"], row["wall_ns"]
        dt = row["dt_s"]
        inside, b0, _ = lab.inner_outer(t0, t1)
        br = lab.bracket(t1)
        if b0 is None or not br:
            continue
        a1 = br[-1]
        objs = [("dev", d, lab_dev(row, d)) for d in devs] + [("cg", c, lab_cg(row, c)) for c in cgs]
        for kind, name, got_row in objs:
            if got_row is None:
                continue
            for f, key in (("wb_dirtied_kb_s", "dirtied"), ("wb_written_kb_s", "written")):
                tl = tallies.setdefault((kind, name, f), Tally())

                def val(r):
                    if kind == "dev":
                        e = dev_expect(lab, r, None, lab.names["dev"][name])
                    else:
                        e = cg_expect(r, None, lab.cg_ino[name.strip("/")])
                    return None if e is None else e.get(key)
                outer = [val(b0), val(a1)]
                if None in outer:
                    continue
                hi = outer[1] - outer[0]
                lo = val(inside[-1]) - val(inside[0]) if len(inside) >= 2 else 0
                got = got_row.get(f)
                prev_row = lab_dev(prev, name) if kind == "dev" else lab_cg(prev, name)
                if got is None:
                    if lo == 0 or prev_row is None or prev_row.get("wb_dirty_kb") is None:
                        tl.skipped += 1
                    else:
                        tl.add(False, t1, "%s..%s" % (fmt(lo / dt), fmt(hi / dt)), None)
                    continue
                tl.add(lo - PAGE_KB <= got * dt <= hi + PAGE_KB, t1,
                       "%s..%s" % (fmt(lo / dt), fmt(hi / dt)), got)
    return tallies


def trace_window(lab, kind, t0, t1):
    return [e for e in lab.events if e[1] == kind and t0 < e[0] <= t1]


def check_trace(lab, rep, devs, cgs, margin_ns):
    """throttled ms/s against the lab's tracefs reader; on kernels without
    wb_stats, bandwidth from bdi_dirty_ratelimit and the rest absent."""
    tallies = {}
    bdi_of = {d: lab.names["dev"][d] for d in devs}
    for i in range(1, len(lab.rows)):
        row, prev = lab.rows[i], lab.rows[i - 1]
        t0, t1 = prev["wall_ns"], row["wall_ns"]
        dt = row["dt_s"]
        for d in devs:
            got_row = lab_dev(row, d)
            if got_row is None:
                continue
            bdi = bdi_of[d]
            # pauses sure to be in the interval, and those that may be (near an end)
            def pause_ms(a, b):
                return sum(max(0, int(e[3]["pause"])) for e in trace_window(lab, "balance_dirty_pages", a, b)
                           if e[2] == bdi)
            lo = pause_ms(t0 + margin_ns, t1 - margin_ns)
            hi = pause_ms(t0 - margin_ns, t1 + margin_ns)
            tl = tallies.setdefault(("dev", d, "throttled_ms"), Tally())
            got = got_row.get("throttled_ms")
            if got is None:
                if hi == 0:
                    tl.skipped += 1
                else:
                    tl.add(False, t1, "%s..%s" % (fmt(lo / dt), fmt(hi / dt)), None)
            else:
                tl.add(lo - 1 <= got * dt <= hi + 1, t1, "%s..%s" % (fmt(lo / dt), fmt(hi / dt)), got)
            if lab.has_wb_stats:
                continue
            # 6.1: no per-domain file.  Bandwidth: each domain's last write_bw in the
            # interval, summed; the other figures absent.
            for f in ("wb_dirty_kb", "wb_writeback_kb", "wb_thresh_kb", "wb_dirtied_kb_s", "wb_written_kb_s"):
                tl = tallies.setdefault(("dev", d, f), Tally())
                got = got_row.get(f)
                tl.add(got is None, t1, "null (no wb_stats)", got)
            cands = []
            for s0, s1 in ((t0, t1), (t0 + margin_ns, t1 - margin_ns), (t0 - margin_ns, t1 + margin_ns),
                           (t0 - margin_ns, t1 - margin_ns), (t0 + margin_ns, t1 + margin_ns)):
                last = {}
                for e in trace_window(lab, "bdi_dirty_ratelimit", s0, s1):
                    if e[2] == bdi:
                        last[e[3]["cgroup_ino"]] = int(e[3]["write_bw"])
                cands.append(sum(last.values()) if last else None)
            tl = tallies.setdefault(("dev", d, "wb_bw_kbps"), Tally())
            got = got_row.get("wb_bw_kbps")
            vals = [c for c in cands if c is not None]
            if got is None:
                if None in cands:
                    tl.skipped += 1
                else:
                    tl.add(False, t1, "%s..%s" % (fmt(min(vals)), fmt(max(vals))), None)
                continue
            if not vals:
                tl.add(False, t1, "null (no bdi_dirty_ratelimit event)", got)
                continue
            tl.add(in_range(got, min(vals), max(vals)), t1, "%s..%s" % (fmt(min(vals)), fmt(max(vals))), got)
    return tallies


def check_throughput(lab, rep, disks):
    """Each disk's w kB/s against qemu's count of what it wrote (host clock)."""
    tallies = {}
    bs = lab.blockstats
    # the offset is known to within the sync's spread (the host saw each file
    # late by however long its poller waited for a CPU) and the poll period
    poll = [b["rt_ns"] - a["rt_ns"] for a, b in zip(bs, bs[1:])]
    err = lab.host_off_err + (max(poll) if poll else 100_000_000)

    def at(t_host, side):
        # the poll at or before t (side -1) / at or after t (side +1)
        if side < 0:
            c = [b for b in bs if b["rt_ns"] <= t_host]
            return c[-1] if c else None
        c = [b for b in bs if b["rt_ns"] >= t_host]
        return c[0] if c else None
    for i in range(1, len(lab.rows)):
        row, prev = lab.rows[i], lab.rows[i - 1]
        h0, h1 = prev["wall_ns"] + lab.host_off, row["wall_ns"] + lab.host_off
        dt = row["dt_s"]
        o0, o1 = at(h0 - err, -1), at(h1 + err, 1)
        i0, i1 = at(h0 + err, 1), at(h1 - err, -1)
        if None in (o0, o1):
            continue
        for d in disks:
            got_row = lab_dev(row, d)
            if got_row is None or got_row.get("wkb_s") is None:
                continue
            hi = (o1["wr_bytes"][d] - o0["wr_bytes"][d]) / 1024
            lo = 0
            if i0 and i1 and i1["rt_ns"] > i0["rt_ns"]:
                lo = (i1["wr_bytes"][d] - i0["wr_bytes"][d]) / 1024
            tl = tallies.setdefault(("dev", d, "wkb_s"), Tally())
            got = got_row["wkb_s"]
            tl.add(lo - REQ_KB <= got * dt <= hi + REQ_KB, row["wall_ns"],
                   "%s..%s" % (fmt(lo / dt), fmt(hi / dt)), got)
    return tallies


def check_io_stat(lab, rep, cgs, tops):
    """A cgroup's written kB/s (trace: its domain's flusher pages) against io.stat's
    wbytes on the devices at the top of the stacks."""
    tallies = {}
    for i in range(1, len(lab.rows)):
        row, prev = lab.rows[i], lab.rows[i - 1]
        t0, t1 = prev["wall_ns"], row["wall_ns"]
        dt = row["dt_s"]
        inside, b0, a1 = lab.inner_outer(t0, t1)
        if b0 is None or a1 is None:
            continue
        for c in cgs:
            got_row = lab_cg(row, c)
            name = c.strip("/")

            def wbytes(r):
                io = r["io"].get(name, {})
                return sum(io.get(lab.names["dev"][d], {}).get("wbytes", 0) for d in tops) / 1024

            def inflight(r):
                e = cg_expect(r, None, lab.cg_ino[name])
                return e["wb_writeback_kb"] if e else 0
            hi = wbytes(a1) - wbytes(b0) + inflight(b0)
            lo = (wbytes(inside[-1]) - wbytes(inside[0]) - inflight(inside[-1])) if len(inside) >= 2 else 0
            f = "wb_written_kb_s" if lab.has_wb_stats else "written_kb_s"
            tl = tallies.setdefault(("cg", c, "%s vs io.stat" % f), Tally())
            got = None if got_row is None else got_row.get(f)
            if got is None:
                if hi <= 0:
                    tl.skipped += 1
                else:
                    tl.add(False, t1, "%s..%s" % (fmt(lo / dt), fmt(hi / dt)), None)
                continue
            tl.add(lo - REQ_KB <= got * dt <= hi + REQ_KB, t1, "%s..%s" % (fmt(lo / dt), fmt(hi / dt)), got)
    return tallies


def lab_dev(row, name):
    for d in row["devices"]:
        if d["name"] == name:
            return d
    return None


def lab_cg(row, path):
    for c in row.get("cgroups") or []:
        if c["path"] == path:
            return c
    return None


def report_tallies(lab, rep, tallies, must_move=()):
    for (kind, name, f), tl in sorted(tallies.items()):
        what = "%s %s %s" % (kind, name, f)
        if tl.n == 0:
            # nothing to compare: a defect where the scenario makes it move
            ok = (kind, name, f) not in must_move
            rep.line(ok, what, "no interval to compare (%d absent and idle)" % tl.skipped)
            continue
        if tl.bad:
            t, exp, got = tl.bad[0]
            rep.line(False, what, "%d/%d intervals off; first at +%.1fs: expected %s got %s" %
                     (len(tl.bad), tl.n, (t - lab.rows[0]["wall_ns"]) / 1e9, exp, fmt(got)))
        else:
            t, exp, got = tl.example
            rep.line(True, what, "%d/%d intervals; e.g. at +%.1fs: expected %s got %s" %
                     (tl.n, tl.n, (t - lab.rows[0]["wall_ns"]) / 1e9, exp, fmt(got)))


def check_names(lab, rep, tops):
    row = lab.rows[-1]
    n = lab.names
    for dev, devt in sorted(n["dev"].items()):
        d = lab_dev(row, dev)
        if d is None:
            rep.line(False, "name %s" % dev, "expected listed, got absent")
            continue
        if devt in n["dm"]:
            dm = n["dm"][devt]
            rep.line(d["label"] == dm or dm in (d["label"] or ""), "name %s dm" % dev,
                     "expected %s got %s" % (dm, d["label"]))
        if devt in n["lv"]:
            vg, lv = n["lv"][devt]
            lab_ = d["label"] or ""
            rep.line(vg in lab_ and lv in lab_, "name %s VG/LV" % dev,
                     "expected %s/%s got %s" % (vg, lv, lab_))
        if devt in n["md"]:
            rep.line(d["name"] == n["md"][devt][0], "name %s md" % dev,
                     "expected %s got %s" % (n["md"][devt][0], d["name"]))
        if devt in n["mnt"]:
            mnt, fs = n["mnt"][devt]
            rep.line(mnt in (d["mounts"] or []) and d["fstype"] == fs, "name %s mount" % dev,
                     "expected %s (%s) got %s (%s)" % (mnt, fs, ",".join(d["mounts"] or []), d["fstype"]))


def check_keys(lab, rep, rows, what):
    """Distinct devices, distinct identity keys, in every interval."""
    bad = {}
    for row in rows:
        seen = {}
        for d in row["devices"]:
            seen.setdefault(d["key"], set()).add(d["name"])
        for k, names in seen.items():
            if len(names) > 1:
                bad[k] = names
    lab_devs = set(lab.names["dev"])
    listed = set(d["name"] for row in rows for d in row["devices"])
    missing = lab_devs - listed
    if bad:
        k, names = sorted(bad.items())[0]
        rep.line(False, "keys %s" % what, "%d keys shared; e.g. %s by %s (expected one key a device)" %
                 (len(bad), k, ",".join(sorted(names))))
    else:
        rep.line(not missing, "keys %s" % what, "expected %d lab devices with distinct keys, got %d%s" %
                 (len(lab_devs), len(lab_devs - missing),
                  (" (missing %s)" % ",".join(sorted(missing))) if missing else ""))


def main():
    lab = Lab(sys.argv[1])
    rep = Report(lab.kver)
    n = lab.names
    tops = sorted(d for d, t in n["dev"].items() if t in n["mnt"])
    disks = sorted(d for d in n["dev"] if d.startswith("vd"))
    cgs = ["/" + c for c in sorted(lab.cg_ino)]
    print("lab %s: %d wbtop intervals, %d readings, %d trace events, wb_stats %s, "
          "host clock offset %.3f s (+-%.3f)" %
          (lab.kver, len(lab.rows), len(lab.readings), len(lab.events),
           "present" if lab.has_wb_stats else "absent", lab.host_off / 1e9, lab.host_off_err / 1e9))
    gaps = [b["rt_ns"] - a["rt_end_ns"] for a, b in zip(lab.readings, lab.readings[1:])]
    margin = max(gaps) if gaps else 500_000_000
    check_names(lab, rep, tops)
    check_keys(lab, rep, lab.rows, "live")
    # the thread's devices must be throttled at some time: a check that sees no
    # pause would assert nothing
    thread = [d for d in tops if n["dm"].get(n["dev"][d], "").startswith("thread")]
    must = {("dev", d, "throttled_ms") for d in thread}
    must |= {("dev", d, "wb_bw_kbps") for d in thread}
    if lab.has_wb_stats:
        must |= {("dev", d, f) for d in tops for f in ("wb_dirty_kb", "wb_thresh_kb", "wb_written_kb_s")}
        must |= {("cg", c, f) for c in cgs for f in ("wb_dirty_kb", "wb_bw_kbps", "wb_thresh_kb")}
    tallies = {}
    tallies.update(check_gauges(lab, rep, tops, cgs))
    tallies.update(check_counts(lab, rep, tops, cgs))
    tallies.update(check_trace(lab, rep, tops, cgs, margin))
    tallies.update(check_throughput(lab, rep, disks))
    tallies.update(check_io_stat(lab, rep, cgs, tops))
    if not lab.has_wb_stats:
        tallies = {k: v for k, v in tallies.items() if v.n or k in must}
    report_tallies(lab, rep, tallies, must)
    # the recording replays, every device listed, keys apart
    db = os.path.join(lab.out, "wbtop.db")
    p = subprocess.run([lab.wbtop_bin, "-r", db, "-b", "--format", "json"], capture_output=True, text=True)
    if p.returncode != 0:
        rep.line(False, "replay", "expected exit 0, got %d: %s" % (p.returncode, p.stderr.strip()[:200]))
    else:
        rows = [json.loads(l) for l in p.stdout.splitlines() if l.startswith("{")]
        check_keys(lab, rep, rows, "replay")
    print("lab %s: %d passed, %d failed" % (lab.kver, rep.passed, rep.failed))
    sys.exit(1 if rep.failed else 0)


if __name__ == "__main__":
    main()
