#!/usr/bin/env python3
"""The lab's independent reader in the guest (tests/lab/guest.sh starts it).

Every 0.1 s until STOPFILE exists: every debugfs bdi/*/stats and
bdi/*/wb_stats (where the kernel has it) and the lab cgroups' io.stat,
each line stamped with CLOCK_REALTIME and CLOCK_MONOTONIC.  First, the
clock handshake with the host, both ways (sync.N files on the results
share, qmp.py notes when it saw each and writes ack.N with its time; we note
when we saw that).  None of wbtop's code is used.

usage: reader.py RESULTS_DIR OUT.jsonl STOPFILE
"""
import json
import os
import sys
import time

BDI = "/sys/kernel/debug/bdi"
CG = "/sys/fs/cgroup"


def kv(text):
    """'Key:   123 kB' lines -> {Key: 123}"""
    out = {}
    for line in text.splitlines():
        k, sep, v = line.partition(":")
        v = v.split()
        if sep and v and v[0].isdigit():
            out[k.strip()] = int(v[0])
    return out


def wb_blocks(text):
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


def iostat(text):
    out = {}
    for line in text.splitlines():
        f = line.split()
        if f:
            out[f[0]] = {a: int(b) for a, b in (x.split("=") for x in f[1:])}
    return out


def read(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return None


def main():
    results, outpath, stop = sys.argv[1:4]
    acks = []
    for i in range(5):
        name = os.path.join(results, "sync.%d" % i)
        with open(name + ".tmp", "w") as f:
            f.write("%d\n" % time.time_ns())
        os.rename(name + ".tmp", name)
        # the host's answer: it wrote ack.N at host time h before we saw it at g,
        # so the host's clock minus ours is at least h - g
        ack = os.path.join(results, "ack.%d" % i)
        for _ in range(1000):
            if os.path.exists(ack):
                g = time.time_ns()
                with open(ack) as f:
                    acks.append({"n": i, "guest_rt_ns": g, "host_rt_ns": int(f.read().split()[0])})
                break
            time.sleep(0.01)
        time.sleep(0.2)
    cgs = sorted(d for d in os.listdir(CG) if d.startswith("lab"))
    # the devices at the top of the lab's stacks (dm, md, a partitioned disk):
    # their BDIs hold the page cache; the disks under dm and md have none.  Fewer files, closer readings.
    tops = []
    for b in os.listdir("/sys/block"):
        parted = any(os.path.exists("/sys/block/%s/%s/partition" % (b, p))
                     for p in os.listdir("/sys/block/" + b) if p.startswith(b))
        if b.startswith(("dm-", "md")) or parted:  # a partitioned disk's BDI: its partitions'
            tops.append(read("/sys/block/%s/dev" % b).strip())
    cg_ino = {d: os.stat(os.path.join(CG, d)).st_ino for d in cgs}
    with open(outpath, "w") as out:
        out.write(json.dumps({"cg_ino": cg_ino, "acks": acks}) + "\n")
        while not os.path.exists(stop):
            rt = time.time_ns()
            mono = time.clock_gettime_ns(time.CLOCK_MONOTONIC)
            # io.stat before wb_stats: a page that enters writeback between the
            # two reads is then in io.stat's growth after this reading or in its
            # WbWriteback, never in neither (check.py bounds a cgroup's WbWritten
            # by io.stat's growth plus WbWriteback; read the other way round the
            # bound missed such pages: 2047.8 kB/s against 1984 on 6.12, once)
            io = {d: iostat(read(os.path.join(CG, d, "io.stat")) or "") for d in cgs}
            bdi = {}
            for d in tops:
                s = read(os.path.join(BDI, d, "stats"))
                if s is None:
                    continue
                e = {"stats": kv(s)}
                w = read(os.path.join(BDI, d, "wb_stats"))
                if w is not None:
                    e["wb"] = wb_blocks(w)
                bdi[d] = e
            rt2 = time.time_ns()
            out.write(json.dumps({"rt_ns": rt, "rt_end_ns": rt2, "mono_ns": mono,
                                  "bdi": bdi, "io": io}) + "\n")
            time.sleep(0.1)


if __name__ == "__main__":
    main()
