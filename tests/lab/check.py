#!/usr/bin/env python3
"""The lab's checker: wbtop's figures against independent readings of the
same instants (tests/lab/run.sh runs it on each kernel's results).

Readings, none of them from wbtop's code: wbtop.strace (strace -P attached to
wbtop: the debugfs wb_stats text the kernel gave wbtop at each of its reads,
and when it drained its trace), reader.jsonl (debugfs bdi/*/stats and
wb_stats, cgroup io.stat, each stamped), trace.txt (a tracefs instance of the
lab's own, as text, clock mono), blockstats.jsonl (qemu's count of each
disk's writes, polled from the host), names.txt (dmsetup, lvs, mdstat,
findmnt, sysfs), knobset.txt (--set of a 6.2 knob).  A gauge (dirty,
writeback, threshold, bandwidth) must equal what the checker makes of the
text wbtop read; a count (dirtied/written per second) the growth between
wbtop's reads over its dt; a sum of trace events (pauses, flusher pages) lie
between the events surely and maybe between wbtop's drains; a count against
io.stat or qemu between the growth over the readings inside and around the
span wbtop's reads cover.  None depends on the machine's load.

Prints one PASS/FAIL line per figure and device (or cgroup), with the
expected range next to what wbtop gave in the interval that decided it.
Exit 1 when anything failed.  usage: check.py RESULTS_DIR
"""
import bisect
import codecs
import json
import os
import re
import subprocess
import sys

PAGE_KB = 4
# a request may complete on either side of an interval's end in the guest and
# in qemu's count: one small one's worth of slack (ext4/XFS log writes)
REQ_KB = 16
# An event the lab's trace saw before wbtop drained may reach wbtop's own
# instance only after the drain: a tracepoint writes the lab's copy, then
# wbtop's, and a vCPU interrupted or descheduled by the host in between
# commits wbtop's copy late.  So an event is surely in wbtop's interval only
# LATE_NS before its drain began, and one up to LATE_NS before the previous
# drain may still be in it (CI on 6.1, once: dm-2's bandwidth 25248 where the
# one event surely inside said 23840, the domain's value falling).  The margin
# was short: wbtop's drain ended 3.7-142 ms after its knob read (a run with
# strace showing its per-CPU stats reads, which follow the drain; 10 ms or
# less in half the samples), and the lab's reader saw the guest stall 3.7 ms
# between two clock reads.  20 ms covers several such stalls.
LATE_NS = 20 * 10**6
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
        self.passes_ = self.passes()
        self.names = self.parse_names(os.path.join(out, "names.txt"))
        self.blockstats = load_jsonl(os.path.join(out, "blockstats.jsonl"))
        host = load_jsonl(os.path.join(out, "host-events.jsonl"))
        syncs = [h["host_rt_ns"] - h["guest_rt_ns"] for h in host if "sync" in h]
        acks = [a["host_rt_ns"] - a["guest_rt_ns"] for a in rd[0].get("acks", [])]
        # the guest wrote each sync file before the host saw it: host minus guest
        # is at most the least of those; the host wrote each ack before the guest
        # saw it: at least the most of those.  The offset is the middle, known to
        # half the gap, however late either side ran (without acks, older
        # results: the spread of the syncs)
        upper = min(syncs)
        lower = max(acks) if acks else upper - (max(syncs) - min(syncs))
        self.host_off = (upper + lower) // 2
        self.host_off_err = (upper - lower) // 2 + 1
        self.throttles = [h for h in host if "throttle" in h]
        parsed = parse_strace(os.path.join(out, "wbtop.strace"))
        self.wbreads = WbReads(self, parsed) if parsed is not None else None

    def parse_trace(self, path):
        ev = []
        pat = re.compile(r"\s(\d+\.\d+): (balance_dirty_pages|bdi_dirty_ratelimit|writeback_start|"
                         r"writeback_written): bdi (\S+): (.*)")
        task = re.compile(r"^\s*.*?-(\d+)\s+\[\d+\]")
        for line in open(path, errors="replace"):
            m = pat.search(line)
            if not m:
                continue
            f = dict(kv.split("=", 1) for kv in m.group(4).split() if "=" in kv)
            p = task.match(line)
            f["_pid"] = p.group(1) if p else "0"
            rt = int(round(float(m.group(1)) * 1e9)) + self.mono2rt
            ev.append((rt, m.group(2), m.group(3), f))
        return ev

    def passes(self):
        """Flusher passes from the lab's trace: (start, end, cgroup_ino, pages),
        a pass being one writeback_start to the writeback_written of the same
        task, its pages the drop of nr_pages between them (what the work still
        had to write); end None for one not over when the trace stopped."""
        out, open_ = [], {}
        for t, kind, bdi, f in self.events:
            if kind == "writeback_start":
                open_[f["_pid"]] = (t, int(f.get("nr_pages", 0)), f.get("cgroup_ino"))
            elif kind == "writeback_written":
                s = open_.pop(f["_pid"], None)
                if s is not None:
                    out.append((s[0], t, f.get("cgroup_ino"), max(0, s[1] - int(f.get("nr_pages", 0)))))
        out += [(s[0], None, s[2], 0) for s in open_.values()]
        return out

    def parse_names(self, path):
        n = {"dm": {}, "lv": {}, "md": {}, "mnt": {}, "dev": {}, "holders": {}, "slaves": {},
             "disk_of": {}}
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
                if "disk" in kv:  # a partition: its page cache is its disk's BDI's
                    n["disk_of"][f[1]] = kv["disk"]
                n["holders"][f[1]] = [x for x in kv.get("holders", "").split(",") if x]
                n["slaves"][f[1]] = [x for x in kv.get("slaves", "").split(",") if x]
        return n

    # --- the readings around an interval -------------------------------------
    def around(self, t):
        """The last reading that ended before t and the first that began after it."""
        before = [r for r in self.readings if r["rt_end_ns"] <= t]
        after = [r for r in self.readings if r["rt_ns"] >= t]
        return (before[-1] if before else None), (after[0] if after else None)

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


def rate_ok(got, lo, hi, dt, slack=0):
    """A rate wbtop gave (per second, over its dt) against totals lo..hi over
    the interval, slack on each side.  The JSON gives dt and the rate to 0.001:
    at 22 MB/s that is up to 11 kB of the total (seen in run 1 on 6.1, 4 kB)."""
    return (lo - slack) / (dt + 0.0005) - 0.0005 <= got <= (hi + slack) / max(dt - 0.0005, 1e-6) + 0.0005


def in_range(got, lo, hi, slack=0.0):
    if got is None or lo is None or hi is None:
        return False
    return lo - slack <= got <= hi + slack


STAMP = re.compile(r"^(?:\d+\s+)?(\d+)\.(\d+) ")


def parse_strace(path):
    """wbtop's system calls as strace saw them (guest.sh prints only its
    debugfs bdi files and its last knob file).  Returns (reads, knobs, stamps):
    reads [(t_open, t_done, "MAJ:MIN", text)] of wb_stats, a file's reads joined
    up to the one that returned 0, t_done the stamp of the line after that one
    (the read was over by then; strace stamps a call as it enters); knobs the
    stamps of wbtop's reads of vm.dirtytime_expire_seconds, the last file it
    reads before draining its trace; stamps every line's, in order.  A read
    strace did not show whole leaves its file out."""
    if not os.path.exists(path):
        return None
    op = re.compile(r" openat\(.*\) = (\d+)</sys/kernel/debug/bdi/(\d+:\d+)/wb_stats>$")
    rd = re.compile(r' read\((\d+)</sys/kernel/debug/bdi/(\d+:\d+)/wb_stats>, '
                    r'"((?:[^"\\]|\\.)*)"(\.\.\.)?, \d+\) = (-?\d+)$')
    open_files = {}
    reads, knobs, stamps = [], [], []
    ending = []  # reads whose t_done is the next line's stamp
    for line in open(path, errors="replace"):
        line = line.rstrip("\n")
        st = STAMP.match(line)
        if not st:
            continue
        t = int(st.group(1)) * 10**9 + int(st.group(2).ljust(9, "0"))
        if "</sys/kernel/debug/bdi" in line:
            stamps.append(t)
        for r in ending:
            r[1] = t
            reads.append(tuple(r))
        ending = []
        if "dirtytime_expire_seconds>" in line and " read(" in line:
            knobs.append(t)
            continue
        m = op.search(line)
        if m:
            open_files[m.group(1)] = [t, m.group(2), b"", True]
            continue
        m = rd.search(line)
        if not m:
            fd = re.search(r" read\((\d+)</sys/kernel/debug/bdi/[\d:]+/wb_stats>", line)
            if fd and fd.group(1) in open_files:
                open_files[fd.group(1)][3] = False  # not seen whole
            continue
        f = open_files.get(m.group(1))
        if f is None:
            continue
        n = int(m.group(5))
        if n < 0 or m.group(4):
            f[3] = False
        if n <= 0:
            del open_files[m.group(1)]
            if f[3] and n == 0:
                ending.append([f[0], None, f[1], f[2].decode(errors="replace")])
            continue
        f[2] += codecs.escape_decode(m.group(3).encode("latin-1"))[0]
    return reads, knobs, stamps


def wb_text_blocks(text):
    """wb_stats text -> [{key: value}], one a domain (the lab's own parser)."""
    blocks = []
    for line in text.splitlines():
        k, sep, v = line.partition(":")
        v = v.split()
        if not sep or not v or not v[0].isdigit():
            continue
        if k.strip() == "WbCgIno":
            blocks.append({})
        if blocks:
            blocks[-1][k.strip()] = int(v[0])
    return blocks


class WbReads:
    """wbtop's reads, sample by sample: the reads after a row's wall_ns and
    before the next row's are that row's sample (wbtop stamps a sample, then
    reads; it prints the row once the sample is whole).  Per sample, where
    its trace drain lies: after its knob read (drain_lo) and before the next
    line strace shows (drain_hi: its first debugfs open, or later)."""

    def __init__(self, lab, parsed):
        reads, knobs, bdi_stamps = parsed
        self.walls = [r["wall_ns"] for r in lab.rows]
        self.by_sample = {}
        self.span = {}
        for t, t_done, devt, text in reads:
            i = bisect.bisect_right(self.walls, t) - 1
            if i < 0:
                continue
            self.by_sample.setdefault(i, {})[devt] = (t, wb_text_blocks(text), t_done)
            a, b = self.span.get(i, (t, t_done))
            self.span[i] = (min(a, t), max(b, t_done))
        self.drain = {}
        for k in knobs:
            i = bisect.bisect_right(self.walls, k) - 1
            j = bisect.bisect_right(bdi_stamps, k)
            if i >= 0 and j < len(bdi_stamps):
                self.drain[i] = (k, bdi_stamps[j])
        self.first = min(self.by_sample) if self.by_sample else None
        self.seen_devs = set(d for v in self.by_sample.values() for d in v)

    def window(self, i):
        """Where the kernel's counters wbtop's sample i took the growth of lie:
        (outer start, inner start, inner end, outer end) - from the earliest
        open of the reads before it of the devices it read, past the last of
        those reads, then to the start of its first read and the end of its
        last.  None when a read before is not known."""
        now = self.sample(i)
        if not now:
            return None
        prev = []
        for devt in now:
            for j in range(i - 1, (self.first if self.first is not None else i) - 1, -1):
                e = self.by_sample.get(j, {}).get(devt)
                if e is not None:
                    prev.append(e)
                    break
            else:
                return None
        return (min(e[0] for e in prev), max(e[2] for e in prev),
                min(e[0] for e in now.values()), max(e[2] for e in now.values()))

    def sample(self, i):
        return self.by_sample.get(i, {})

    def drains(self, i):
        """Where sample i's trace events lie, (a0, b0, a1, b1): an event of
        the lab's trace in (b0, a1] is surely in it, one in (a0, b1] maybe
        (from wbtop's drains, less LATE_NS at both starts); None unknown."""
        if i - 1 not in self.drain or i not in self.drain:
            return None
        (a0, b0), (a1, b1) = self.drain[i - 1], self.drain[i]
        return a0 - LATE_NS, b0, max(b0, a1 - LATE_NS), b1

    def prev_block(self, i, devt, ino):
        """The domain at wbtop's last read of it before sample i: the block,
        None where strace saw no earlier read of the device (before it was
        attached: unknown), {} where the domain was not there then."""
        for j in range(i - 1, (self.first if self.first is not None else i) - 1, -1):
            e = self.by_sample.get(j, {}).get(devt)
            if e is not None:
                return next((b for b in e[1] if b["WbCgIno"] == ino), {})
        return None

    def latest(self, i, devt):
        """The device's domains as wbtop last read them up to sample i; None unknown."""
        for j in range(i, (self.first if self.first is not None else i) - 1, -1):
            e = self.by_sample.get(j, {}).get(devt)
            if e is not None:
                return e[1]
        return None


def subset_sums(must, maybe):
    """Every sum of must plus a subset of maybe (a domain whose activity is
    unknown: strace was not attached at wbtop's last read of it)."""
    sums = {sum(must)}
    for v in maybe:
        sums |= {x + v for x in sums}
    return sums


def dev_expect_read(wr, i, devt):
    """What wbtop's own read of device devt in sample i says, by the rule of
    issue 28: dirty and writeback summed over every domain; threshold and
    bandwidth over the active ones (dirty or writeback pages, or WbWritten
    moved since wbtop's last read of that domain), absent when none is."""
    e = wr.sample(i).get(devt)
    if e is None:
        return None
    blocks = e[1]
    exp = {"wb_dirty_kb": {sum(b.get("WbReclaimable", 0) for b in blocks)},
           "wb_writeback_kb": {sum(b.get("WbWriteback", 0) for b in blocks)}}
    for f, key in (("wb_thresh_kb", "WbDirtyThresh"), ("wb_bw_kbps", "WbWriteBandwidth")):
        must, maybe = [], []
        for b in blocks:
            if b.get("WbReclaimable", 0) or b.get("WbWriteback", 0):
                must.append(b.get(key, 0))
                continue
            p = wr.prev_block(i, devt, b["WbCgIno"])
            if p is None:
                maybe.append(b.get(key, 0))
            elif p and p.get("WbWritten") != b.get("WbWritten"):
                must.append(b.get(key, 0))
        sums = subset_sums(must, maybe)
        exp[f] = sums if must else (sums | {None} if maybe else {None})
    return exp


def cg_expect_read(wr, i, ino, devts):
    """A cgroup's domains over the devices, each device as wbtop last read it
    (wbtop keeps a device's blocks between its reads); threshold and
    bandwidth of the domains with dirty or writeback pages (doc/kernel-loop.md).
    None while a device has not been seen read since strace attached."""
    blocks = []
    for d in devts:
        bl = wr.latest(i, d)
        if bl is None:
            return None
        blocks += [b for b in bl if b["WbCgIno"] == ino]
    if not blocks:
        # no domain of it on any device (the kernel frees an idle cgroup's
        # domains): nothing to show
        return {f: {None} for f in ("wb_dirty_kb", "wb_writeback_kb", "wb_thresh_kb", "wb_bw_kbps")}
    paged = [b for b in blocks if b.get("WbReclaimable", 0) or b.get("WbWriteback", 0)]
    return {
        "wb_dirty_kb": {sum(b.get("WbReclaimable", 0) for b in blocks)},
        "wb_writeback_kb": {sum(b.get("WbWriteback", 0) for b in blocks)},
        "wb_thresh_kb": {sum(b.get("WbDirtyThresh", 0) for b in paged)} if paged else {None},
        "wb_bw_kbps": {sum(b.get("WbWriteBandwidth", 0) for b in paged)} if paged else {None},
    }


def check_gauges(lab, rep, devs, cgs):
    """dirty, writeback, threshold, bandwidth: against the debugfs text wbtop
    itself was given, read from its system calls by strace (the only reading
    of the very instant wbtop read: the reader's, 0.1-2.8 s apart under TCG,
    bracket gauges that move by megabytes between two readings, up and down).
    A figure wbtop shows absent: right where it did not read the device in
    that sample, and the reader's readings from the last before the sample
    to the first after wbtop's reads do not all show pages on it."""
    figures = ["wb_dirty_kb", "wb_writeback_kb", "wb_thresh_kb", "wb_bw_kbps"]
    tallies = {}
    wr = lab.wbreads
    if wr is None or not lab.has_wb_stats:
        return tallies
    all_devts = sorted(wr.seen_devs)
    for i, row in enumerate(lab.rows):
        if wr.first is None or i <= wr.first:
            continue  # strace attached during or after this sample
        t = row["wall_ns"]
        t_end = wr.span.get(i, (t, t))[1]
        objs = [("dev", d, lab_dev(row, d)) for d in devs] + [("cg", c, lab_cg(row, c)) for c in cgs]
        for kind, name, got_row in objs:
            if got_row is None:
                continue
            if kind == "dev":
                devt = lab.names["dev"][name]
                exp = dev_expect_read(wr, i, devt)
            else:
                exp = cg_expect_read(wr, i, lab.cg_ino[name.strip("/")], all_devts)
                if exp is None:
                    continue
            for f in figures:
                tl = tallies.setdefault((kind, name, f), Tally())
                got = got_row.get(f)
                if exp is None:
                    # not read in this sample: absent is right unless the device
                    # had pages all the while (the reader's readings around)
                    b0, _ = lab.around(t)
                    _, a1 = lab.around(t_end)
                    rs = [r for r in lab.readings if b0 and a1 and b0["rt_ns"] <= r["rt_ns"] <= a1["rt_ns"]]
                    paged = [r for r in rs if (dev_expect(lab, r, None, devt) or {}).get("wb_dirty_kb", 0)
                             or (dev_expect(lab, r, None, devt) or {}).get("wb_writeback_kb", 0)]
                    if got is None and (not rs or len(paged) < len(rs)):
                        tl.skipped += 1
                    else:
                        tl.add(False, t, "read (pages in all %d readings around)" % len(rs)
                               if got is None else "null (not read in the sample)", got)
                    continue
                want = exp[f]
                shown = "|".join(fmt(v) for v in sorted(want, key=lambda v: -1 if v is None else v)[:4])
                tl.add(got in want, t, shown + " (wbtop's read)", got)
    return tallies


def check_counts(lab, rep, devs, cgs):
    """dirtied and written per second: the growth of WbDirtied/WbWritten
    between wbtop's own reads (strace) of the sample before and this one,
    over the row's dt.  A device: its domains summed, read in both samples
    (absent when not read in this one).  A cgroup: each of its domains' growth
    since wbtop's last read of that device, over the devices read in this
    sample (a domain seen for the first time is a baseline)."""
    tallies = {}
    wr = lab.wbreads
    if wr is None or not lab.has_wb_stats:
        return tallies
    devts = sorted(wr.seen_devs)
    for i in range(1, len(lab.rows)):
        if wr.first is None or i <= wr.first:
            continue
        row = lab.rows[i]
        dt = row["dt_s"]
        now = wr.sample(i)
        objs = [("dev", d, lab_dev(row, d)) for d in devs] + [("cg", c, lab_cg(row, c)) for c in cgs]
        for kind, name, got_row in objs:
            if got_row is None:
                continue
            for f, key in (("wb_dirtied_kb_s", "WbDirtied"), ("wb_written_kb_s", "WbWritten")):
                tl = tallies.setdefault((kind, name, f), Tally())
                got = got_row.get(f)
                if kind == "dev":
                    devt = lab.names["dev"][name]
                    e, p = now.get(devt), wr.sample(i - 1).get(devt)
                    if e is None:
                        tl.add(got is None, row["wall_ns"], "null (not read in the sample)", got)
                        continue
                    if p is None:
                        tl.skipped += 1  # not read in the sample before: no rate
                        continue
                    grow = sum(b.get(key, 0) for b in e[1]) - sum(b.get(key, 0) for b in p[1])
                else:
                    ino = lab.cg_ino[name.strip("/")]
                    grow, known = 0, True
                    for d in devts:
                        if d not in now:
                            continue
                        b = next((x for x in now[d][1] if x["WbCgIno"] == ino), None)
                        if b is None:
                            continue
                        pb = wr.prev_block(i, d, ino)
                        if pb is None:
                            known = False
                        else:
                            # a domain new on a device read before was made since: all
                            # it counts grew in the interval
                            grow += max(0, b.get(key, 0) - pb.get(key, 0))
                    if not known:
                        tl.skipped += 1
                        continue
                if got is None:
                    # a rate needs the figure in the row before
                    pr = lab_dev(lab.rows[i - 1], name) if kind == "dev" else lab_cg(lab.rows[i - 1], name)
                    if pr is None or pr.get("wb_dirty_kb") is None:
                        tl.skipped += 1
                    else:
                        tl.add(False, row["wall_ns"], fmt(grow / dt), None)
                    continue
                # JSON gives dt and the rate to 0.001
                lo, hi = grow / (dt + 0.0005) - 0.0005, grow / max(dt - 0.0005, 1e-6) + 0.0005
                tl.add(lo <= got <= hi, row["wall_ns"], "%s (wbtop's reads)" % fmt(grow / dt), got)
    return tallies


def trace_window(lab, kind, t0, t1):
    return [e for e in lab.events if e[1] == kind and t0 < e[0] <= t1]


def bw_bounds(lab, win, mine, dom):
    """The bandwidth wbtop may show for an interval whose start lies in
    (a0, b0] and end in (a1, b1]: each domain's last write_bw in it, summed.
    Per domain (dom(e)) the last event may be the last one surely inside or
    any one near the end, and the domain may be left out when none is surely
    inside.  Returns [lo, hi], None for "absent" where every domain may be
    left out, or [None] when none has an event at all.  (Four fixed windows'
    sums were no bound: run 8 on 6.1 had labA at 169204 against 102400..138584,
    its domains' last events in different windows.)"""
    a0, b0, a1, b1 = win
    per = {}
    for e in trace_window(lab, "bdi_dirty_ratelimit", a0, b1):
        if mine(e):
            per.setdefault(dom(e), []).append((e[0], int(e[3]["write_bw"])))
    if not per:
        return [None]
    lo = hi = 0
    may_absent = True
    for evs in per.values():
        sure = [v for t, v in evs if b0 < t <= a1]
        near_end = [v for t, v in evs if a1 < t <= b1]
        vals = sure[-1:] + near_end
        if not sure:
            vals = vals + [0]  # may be outside the interval altogether
        else:
            may_absent = False
        if not [v for t, v in evs if a0 < t <= b1]:
            continue
        # an event near the start may be the last one too, when none follows it
        early = [v for t, v in evs if a0 < t <= b0]
        if early and not sure:
            vals.append(early[-1])
        lo += min(vals)
        hi += max(vals)
    return [lo, hi] + ([None] if may_absent else [])


def check_trace(lab, rep, devs, cgs, margin_ns):
    """throttled ms/s against the lab's tracefs reader; on kernels without
    wb_stats, bandwidth from bdi_dirty_ratelimit and the rest absent."""
    tallies = {}
    bdi_of = {d: lab.names["dev"][d] for d in devs}
    wr = lab.wbreads
    for i in range(1, len(lab.rows)):
        row, prev = lab.rows[i], lab.rows[i - 1]
        t0, t1 = prev["wall_ns"], row["wall_ns"]
        dt = row["dt_s"]
        if wr is not None and wr.drain:
            # wbtop drained its trace between its knob read and the next line
            # strace showed, in each sample: the events of the interval are
            # those after the previous drain and up to this one
            w = wr.drains(i)
            if w is None:
                continue
            a0, b0, a1, b1 = w
        else:
            a0, b0, a1, b1 = t0 - margin_ns, t0 + margin_ns, t1 - margin_ns, t1 + margin_ns
        for d in devs:
            got_row = lab_dev(row, d)
            if got_row is None:
                continue
            bdi = bdi_of[d]
            # pauses sure to be in the interval, and those that may be (near an end)
            def pause_ms(a, b):
                return sum(max(0, int(e[3]["pause"])) for e in trace_window(lab, "balance_dirty_pages", a, b)
                           if e[2] == bdi)
            lo = pause_ms(b0, a1)
            hi = pause_ms(a0, b1)
            tl = tallies.setdefault(("dev", d, "throttled_ms"), Tally())
            got = got_row.get("throttled_ms")
            if got is None:
                # absent: no pause of the device seen yet, so none in the interval;
                # right where no pause is surely inside it (run 3: pauses at +2.7 s
                # maybe before the drain of the row at +2.0 s, shown in the next)
                if hi == 0:
                    tl.skipped += 1
                else:
                    tl.add(lo == 0, t1, "%s..%s" % (fmt(lo / dt), fmt(hi / dt)), None)
            else:
                tl.add(rate_ok(got, lo, hi, dt, 1), t1, "%s..%s" % (fmt(lo / dt), fmt(hi / dt)), got)
            if lab.has_wb_stats:
                continue
            # 6.1: no per-domain file.  Bandwidth: each domain's last write_bw in the
            # interval, summed; the other figures absent.
            for f in ("wb_dirty_kb", "wb_writeback_kb", "wb_thresh_kb", "wb_dirtied_kb_s", "wb_written_kb_s"):
                tl = tallies.setdefault(("dev", d, f), Tally())
                got = got_row.get(f)
                tl.add(got is None, t1, "null (no wb_stats)", got)
            cands = bw_bounds(lab, (a0, b0, a1, b1), lambda e: e[2] == bdi, lambda e: e[3]["cgroup_ino"])
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
        if lab.has_wb_stats:
            continue
        # 6.1: a cgroup's bandwidth the same way, its domains over the devices
        for c in cgs:
            got_row = lab_cg(row, c)
            ino = str(lab.cg_ino[c.strip("/")])
            cands = bw_bounds(lab, (a0, b0, a1, b1), lambda e: e[3].get("cgroup_ino") == ino, lambda e: e[2])
            tl = tallies.setdefault(("cg", c, "wb_bw_kbps"), Tally())
            got = None if got_row is None else got_row.get("wb_bw_kbps")
            vals = [v for v in cands if v is not None]
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


def check_passes(lab, rep, cgs):
    """A cgroup's written kB/s from the trace (the pages of its domain's
    flusher passes that ended in the interval) against the passes of the lab's
    own trace that ended between wbtop's drains: those surely inside, and
    those maybe inside."""
    tallies = {}
    wr = lab.wbreads
    if wr is None or not wr.drain:
        return tallies
    for i in range(1, len(lab.rows)):
        w = wr.drains(i)
        if w is None:
            continue
        a0, b0, a1, b1 = w
        row, dt = lab.rows[i], lab.rows[i]["dt_s"]
        for c in cgs:
            got_row = lab_cg(row, c)
            ino = str(lab.cg_ino[c.strip("/")])
            ps = [p for p in lab.passes_ if p[2] == ino and p[1] is not None]
            lo = sum(p[3] for p in ps if b0 < p[1] <= a1) * PAGE_KB
            hi = sum(p[3] for p in ps if a0 < p[1] <= b1) * PAGE_KB
            tl = tallies.setdefault(("cg", c, "written_kb_s vs trace"), Tally())
            got = None if got_row is None else got_row.get("written_kb_s")
            if got is None:
                if hi == 0 or lab_cg(lab.rows[i - 1], c) is None:
                    tl.skipped += 1
                else:
                    tl.add(False, row["wall_ns"], "%s..%s" % (fmt(lo / dt), fmt(hi / dt)), None)
                continue
            tl.add(rate_ok(got, lo, hi, dt, 1), row["wall_ns"], "%s..%s" % (fmt(lo / dt), fmt(hi / dt)), got)
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
            tl.add(rate_ok(got, lo, hi, dt, REQ_KB), row["wall_ns"],
                   "%s..%s" % (fmt(lo / dt), fmt(hi / dt)), got)
    return tallies


def check_io_stat(lab, rep, cgs, tops):
    """A cgroup's written kB/s (trace: its domain's flusher pages) against io.stat's
    wbytes on the devices at the top of the stacks."""
    tallies = {}
    wr = lab.wbreads
    for i in range(1, len(lab.rows)):
        row, prev = lab.rows[i], lab.rows[i - 1]
        t0, t1 = prev["wall_ns"], row["wall_ns"]
        dt = row["dt_s"]
        if wr is not None and lab.has_wb_stats:
            # WbWritten's growth between wbtop's own reads (strace)
            w = wr.window(i) if wr.first is not None and i > wr.first else None
            if w is None:
                continue
            o0, i0, i1, o1 = w
        elif wr is not None and wr.drain:
            # the trace's flusher pages between wbtop's drains
            w = wr.drains(i)
            if w is None:
                continue
            o0, i0, i1, o1 = w
        else:
            o0, i0, i1, o1 = t0, t0, t1, t1
        for c in cgs:
            p0, lo_ok = o0, True
            if not lab.has_wb_stats:
                # the trace credits a flusher pass's pages to the interval it ends
                # in, issued since it began: the window opens at the earliest start
                # of those; a pass running at the window's end has issued pages
                # that count later (seen: 3360 kB/s against 0..695 at +32 s on 6.1)
                ino = str(lab.cg_ino[c.strip("/")])
                ps = [p for p in lab.passes_ if p[2] == ino]
                p0 = min([o0] + [p[0] for p in ps if p[1] is not None and o0 < p[1] <= o1])
                # and io.stat counts a cgroup's writes that are no flusher pass's:
                # run 5 saw labA's grow by 44.3 MB in an interval whose passes (the
                # lab's trace and wbtop agreeing) wrote 30.7 MB, none running across
                # its ends.  The upper bound holds; no lower one
                lo_ok = False
            b0, _ = lab.around(p0)
            _, a1 = lab.around(o1)
            inside = [r for r in lab.readings if r["rt_ns"] >= i0 and r["rt_end_ns"] <= i1]
            if b0 is None or a1 is None:
                continue
            got_row = lab_cg(row, c)
            name = c.strip("/")

            def wbytes(r):
                io = r["io"].get(name, {})
                return sum(io.get(lab.names["dev"][d], {}).get("wbytes", 0) for d in tops) / 1024

            def inflight(r):
                e = cg_expect(r, None, lab.cg_ino[name])
                return e["wb_writeback_kb"] if e else 0
            hi = wbytes(a1) - wbytes(b0) + inflight(b0)
            lo = (wbytes(inside[-1]) - wbytes(inside[0]) - inflight(inside[-1])) \
                if len(inside) >= 2 and lo_ok else 0
            f = "wb_written_kb_s" if lab.has_wb_stats else "written_kb_s"
            tl = tallies.setdefault(("cg", c, "%s vs io.stat" % f), Tally())
            got = None if got_row is None else got_row.get(f)
            pr = lab_cg(prev, c)
            if got is None:
                # no rate without the cgroup's figure in the row before
                if hi <= 0 or pr is None or (lab.has_wb_stats and pr.get("wb_dirty_kb") is None):
                    tl.skipped += 1
                else:
                    tl.add(False, t1, "%s..%s" % (fmt(lo / dt), fmt(hi / dt)), None)
                continue
            tl.add(rate_ok(got, lo, hi, dt, REQ_KB), t1, "%s..%s" % (fmt(lo / dt), fmt(hi / dt)), got)
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


def check_knobs(lab, rep):
    """--set of a BDI knob of 6.2+ (strict_limit): refused with "absent on this
    kernel (6.2+)" where the kernel's BDI directory lacks the file, written
    where it has it."""
    path = os.path.join(lab.out, "knobset.txt")
    if not os.path.exists(path):
        rep.line(False, "knob strict_limit --set", "expected its output, got none")
        return
    text = open(path).read()
    rc = re.search(r"rc=(\d+)", text)
    rc = int(rc.group(1)) if rc else -1
    has = "strict_limit" in open(os.path.join(lab.out, "bdi-knobs.txt")).read()
    if has:
        rep.line(rc == 0, "knob strict_limit --set", "expected written (the kernel has it), got rc %d: %s" %
                 (rc, text.strip().splitlines()[0] if text.strip() else ""))
    else:
        ok = rc != 0 and "absent on this kernel (6.2+)" in text
        rep.line(ok, "knob strict_limit --set", "expected refused as absent on this kernel (6.2+), "
                 "got rc %d: %s" % (rc, text.strip().splitlines()[0] if text.strip() else ""))


def procs_rows(path):
    """The rows of the -P tables in PATH: dicts of the header's columns
    (the command: the rest of the line)."""
    rows, cols, inproc, t = [], None, False, 0
    for line in open(path):
        f = line.split()
        if line.startswith("procs "):
            inproc, t = True, t + 1
            continue
        if not inproc:
            continue
        if not f:
            inproc = False
            continue
        if f[0] == "PID":
            cols = f
            continue
        if cols and len(f) >= len(cols):
            r = dict(zip(cols[:-1], f[:len(cols) - 1]))
            r["command"] = " ".join(f[len(cols) - 1:])
            r["table"] = t
            rows.append(r)
    return rows


def mount_dev(lab, mnt):
    """The kernel name of the device mounted at mnt (names.txt), or None."""
    devts = [d for d, (m, _fs) in lab.names["mnt"].items() if m == mnt]
    names = [n for n, devt in lab.names["dev"].items() if devts and devt == devts[0]]
    return names[0] if names else None


def check_procs_dev(lab, rep):
    """The process pane's dev on dm devices: each writer of procs.pids (a
    buffered dd on a dm-linear XFS, an O_DIRECT one on the LV) is shown
    writing, and every row where it writes names its mount's device."""
    pids = os.path.join(lab.out, "procs.pids")
    txt = os.path.join(lab.out, "procs.txt")
    if not os.path.exists(pids) or not os.path.exists(txt):
        rep.line(False, "procs dev", "expected procs.pids and procs.txt, got none")
        return
    rows = procs_rows(txt)
    for line in open(pids):
        pid, mnt = line.split()[:2]
        name = mount_dev(lab, mnt)
        # by its kernel name or (as wbtop names dm devices) its dm name
        want = {name, lab.names["dm"].get(lab.names["dev"][name], name)} if name else None
        mine = [r for r in rows if r.get("PID") == pid and r.get("S") != "X"
                and r.get("wkB/s", "-") != "-" and float(r["wkB/s"]) > 0]
        devs = sorted(set(r.get("dev") for r in mine))
        what = "procs dev %s (%s)" % (mnt, "O_DIRECT" if "lv" in mnt else "buffered")
        if not mine:
            rep.line(False, what, "expected dd %s writing in some interval, got %d rows of it" %
                     (pid, len([r for r in rows if r.get("PID") == pid])))
        else:
            rep.line(want is not None and len(devs) == 1 and devs[0] in want, what,
                     "expected %s in its %d writing rows, got %s" %
                     (" or ".join(sorted(want or ["?"])), len(mine), ",".join(devs)))


def io_stat_wbytes(path, devt):
    """wbytes of device devt ("254:3") in an io.stat file, 0 if it has no line."""
    for line in open(path):
        f = line.split()
        if f and f[0] == devt:
            kv = dict(x.split("=", 1) for x in f[1:] if "=" in x)
            return int(kv.get("wbytes", 0))
    return 0


def check_procs_iostat(lab, rep):
    """The process pane's rows of a cgroup's only writer (an O_DIRECT dd in
    labB on the LV, started after wbtop's first table and killed before its
    last), times each interval's dt (from the recording wbtop made of the same
    samples), add up to what the cgroup's io.stat counts on the LV over the
    dd's life: write_bytes and io.stat both count an O_DIRECT write as it is
    issued.  Each row is rounded to 0.1 kB/s and each dt to 1 ms: 2 % or a
    request (1 MiB) of slack."""
    out = lab.out
    files = [os.path.join(out, f) for f in ("procs.pids", "procs.txt", "procs.db", "procs.io.0", "procs.io.1")]
    what = "procs cgroup /labB O_DIRECT rows vs io.stat"
    if not all(os.path.exists(f) for f in files):
        rep.line(False, what, "expected %s, got none" % ", ".join(os.path.basename(f) for f in files
                                                               if not os.path.exists(f)))
        return
    mine = [l.split() for l in open(files[0]) if len(l.split()) > 2 and l.split()[2] == "labB"]
    if not mine:
        rep.line(False, what, "expected a writer in labB in procs.pids, got none")
        return
    pid, mnt = mine[0][0], mine[0][1]
    name = mount_dev(lab, mnt)
    if not name:
        rep.line(False, what, "expected the device of %s in names.txt, got none" % mnt)
        return
    devt = lab.names["dev"][name]
    p = subprocess.run([lab.wbtop_bin, "-r", files[2], "--export", "json"], capture_output=True, text=True)
    if p.returncode != 0:
        rep.line(False, what, "expected the recording to export, got exit %d: %s" %
                 (p.returncode, p.stderr.strip()[:200]))
        return
    dts = [json.loads(l)["dt_s"] for l in p.stdout.splitlines() if l.startswith("{")]
    rows = procs_rows(files[1])
    got, n = 0.0, 0
    for r in rows:
        if r.get("PID") != pid or r.get("wkB/s", "-") == "-":
            continue
        if r["table"] > len(dts):
            rep.line(False, what, "expected a dt for table %d, got %d intervals" % (r["table"], len(dts)))
            return
        got += float(r["wkB/s"]) * dts[r["table"] - 1]
        n += 1
    want = (io_stat_wbytes(files[4], devt) - io_stat_wbytes(files[3], devt)) / 1024.0
    slack = max(0.02 * want, 1024 + 64)
    ok = n >= 2 and want > 4096 and abs(got - want) <= slack
    rep.line(ok, what, "expected %.0f kB (io.stat on %s, %s) +-%.0f, got %.0f kB from %d rows of dd %s" %
             (want, name, devt, slack, got, n, pid))


def check_exporter(lab, rep, cgs):
    """wbtop --listen's counters since its start (issue 33), from its page fetched after the
    writers ended, against the lab's own trace: throttled seconds and pauses per device (by
    its BDI), per cgroup (by its inode) and per command (the trace line's task), each row
    its own (--listen-top 20) with "other" at 0; the trace read, nothing lost.  The exporter
    started before the writers, so every pause the lab saw is in its counters."""
    path = os.path.join(lab.out, "exporter.txt")
    if not os.path.exists(path):
        rep.line(False, "exporter page", "expected exporter.txt (the page after the writers), got none")
        return
    page = {}
    pat = re.compile(r'^(wbtop_[a-z_]+)(?:\{([a-z_]+)="((?:[^"\\]|\\.)*)"\})? (\S+)$')
    for line in open(path):
        m = pat.match(line.strip())
        if m:
            page[(m.group(1), m.group(3))] = float(m.group(4))
    rep.line(page.get(("wbtop_trace_available", None)) == 1 and page.get(("wbtop_trace_lost_events_total", None)) == 0,
             "exporter trace", "expected wbtop_trace_available 1 and 0 lost events, got %s and %s" %
             (page.get(("wbtop_trace_available", None)), page.get(("wbtop_trace_lost_events_total", None))))
    bdp = [e for e in lab.events if e[1] == "balance_dirty_pages"]
    comm_of = {}
    for line in open(os.path.join(lab.out, "trace.txt"), errors="replace"):
        m = re.match(r"^\s*(.*?)-(\d+)\s+\[\d+\]", line)
        if m:
            comm_of[m.group(2)] = m.group(1)[:15]
    ino_name = {str(v): "/" + k for k, v in lab.cg_ino.items()}
    name_of = {t: d for d, t in lab.names["dev"].items()}
    want = {}
    for e in bdp:
        ms = max(0, int(e[3].get("pause", 0)))
        keys = [("device", name_of.get(e[2], e[2])), ("comm", comm_of.get(e[3]["_pid"], "unknown"))]
        if e[3].get("cgroup_ino") in ino_name:
            keys.append(("cgroup", ino_name[e[3]["cgroup_ino"]]))
        for k in keys:	# a pause is a decision that slept (pause > 0), as wbtop counts them
            w = want.setdefault(k, [0, 0])
            w[0] += ms
            w[1] += ms > 0
    total = sum(max(0, int(e[3].get("pause", 0))) for e in bdp)
    fams = {"device": "wbtop_device", "cgroup": "wbtop_cgroup", "comm": "wbtop_command"}
    for (label, key), (ms, n) in sorted(want.items()):
        if ms == 0:
            continue
        fam = fams[label]
        got_s = page.get((fam + "_throttled_seconds_total", key))
        got_n = page.get((fam + "_throttle_pauses_total", key))
        ok = got_s is not None and abs(got_s * 1000 - ms) <= max(20, 0.01 * ms) and got_n is not None and \
            abs(got_n - n) <= max(1, 0.01 * n)
        rep.line(ok, "exporter %s %s" % (label, key), "expected %.3f s in %d pauses (the lab's trace), got %s s in %s" %
                 (ms / 1000, n, got_s, got_n))
    for label, fam in sorted(fams.items()):
        rows = sum(v for (name, _), v in page.items() if name == fam + "_throttled_seconds_total")
        other = page.get((fam + "_throttled_seconds_total", "other"))
        ok = total > 0 and abs(rows * 1000 - total) <= max(20, 0.01 * total) and other == 0
        rep.line(ok, "exporter %s family" % label, "expected %.3f s over its rows, other 0, got %.3f s, other %s" %
                 (total / 1000, rows, other))


def main():
    lab = Lab(sys.argv[1])
    rep = Report(lab.kver)
    n = lab.names
    tops = sorted(d for d, t in n["dev"].items() if t in n["mnt"])
    # the devices whose BDI holds the mounted filesystems' pages: a mounted
    # partition's is its disk's (and io.stat counts on the disk)
    btops = sorted(set(n["disk_of"].get(d, d) for d in tops))
    disks = sorted(d for d in n["dev"] if d.startswith("vd") and d not in n["disk_of"])
    cgs = ["/" + c for c in sorted(lab.cg_ino)]
    print("lab %s: %d wbtop intervals, %d readings, %d trace events, wb_stats %s, "
          "host clock offset %.3f s (+-%.3f)" %
          (lab.kver, len(lab.rows), len(lab.readings), len(lab.events),
           "present" if lab.has_wb_stats else "absent", lab.host_off / 1e9, lab.host_off_err / 1e9))
    gaps = [b["rt_ns"] - a["rt_end_ns"] for a, b in zip(lab.readings, lab.readings[1:])]
    margin = max(gaps) if gaps else 500_000_000
    check_names(lab, rep, tops)
    check_keys(lab, rep, lab.rows, "live")
    check_knobs(lab, rep)
    check_procs_dev(lab, rep)
    check_procs_iostat(lab, rep)
    if lab.has_wb_stats and lab.wbreads is None:
        rep.line(False, "strace of wbtop", "expected wbtop.strace (the gauges are checked against "
                 "wbtop's own reads), got none")
    # the thread's devices must be throttled at some time: a check that sees no
    # pause would assert nothing
    thread = [d for d in tops if n["dm"].get(n["dev"][d], "").startswith("thread")]
    must = {("dev", d, "throttled_ms") for d in thread}
    must |= {("dev", d, "wb_bw_kbps") for d in thread}
    if not lab.has_wb_stats:
        # the writers are throttled on 6.1 too: their cgroups' bandwidth comes from the trace
        must |= {("cg", c, "wb_bw_kbps") for c in cgs}
    if lab.has_wb_stats:
        must |= {("dev", d, f) for d in btops for f in ("wb_dirty_kb", "wb_thresh_kb", "wb_written_kb_s")}
        must |= {("cg", c, f) for c in cgs for f in ("wb_dirty_kb", "wb_bw_kbps", "wb_thresh_kb")}
    tallies = {}
    tallies.update(check_gauges(lab, rep, btops, cgs))
    tallies.update(check_counts(lab, rep, btops, cgs))
    tallies.update(check_trace(lab, rep, btops, cgs, margin))
    tallies.update(check_throughput(lab, rep, disks))
    tallies.update(check_io_stat(lab, rep, cgs, btops))
    tallies.update(check_passes(lab, rep, cgs))
    if not lab.has_wb_stats:
        tallies = {k: v for k, v in tallies.items() if v.n or k in must}
    report_tallies(lab, rep, tallies, must)
    check_exporter(lab, rep, cgs)
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
