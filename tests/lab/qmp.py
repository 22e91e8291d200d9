#!/usr/bin/env python3
"""The lab's host-side poller (tests/lab/run.sh starts it beside qemu).

Connects to qemu's QMP socket, records query-blockstats every 100 ms with
the host's CLOCK_REALTIME and CLOCK_MONOTONIC (each device's true writes),
answers the guest's clock handshake (sync.N files on the results share:
the host time each was first seen; ack.N written back with the host's time) and carries out its throttle requests
(slow.N files: "DEVICE BPS_WR SECONDS": block_set_io_throttle, then back
to unlimited, each change logged with its host time).

usage: qmp.py SOCKET RESULTS_DIR   (runs until qemu closes the socket)
"""
import json
import os
import socket
import sys
import time


class Qmp:
    def __init__(self, path):
        for _ in range(300):
            try:
                self.s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                self.s.connect(path)
                break
            except OSError:
                self.s.close()
                time.sleep(0.1)
        else:
            raise SystemExit("qmp.py: no QMP socket at " + path)
        self.f = self.s.makefile("rwb", buffering=0)
        self.read()  # the greeting
        self.cmd("qmp_capabilities")

    def read(self):
        while True:
            line = self.f.readline()
            if not line:
                raise EOFError
            msg = json.loads(line)
            if "event" not in msg:
                return msg

    def cmd(self, name, **args):
        req = {"execute": name}
        if args:
            req["arguments"] = args
        self.f.write(json.dumps(req).encode() + b"\n")
        ans = self.read()
        if "error" in ans:
            raise RuntimeError("%s: %s" % (name, ans["error"]))
        return ans.get("return")


def set_wr(q, dev, bps_wr, events):
    """The device's own (BlockBackend) throttle; it stacks on the filter nodes'."""
    try:
        q.cmd("block_set_io_throttle", id="/machine/peripheral/%s/virtio-backend" % dev,
              bps=0, bps_rd=0, bps_wr=bps_wr, iops=0, iops_rd=0, iops_wr=0)
    except RuntimeError as e:
        events.write(json.dumps({"throttle_error": str(e), "host_rt_ns": time.time_ns()}) + "\n")
        return
    events.write(json.dumps({"throttle": dev, "bps_wr": bps_wr, "host_rt_ns": time.time_ns()}) + "\n")


def main():
    sock, out = sys.argv[1], sys.argv[2]
    q = Qmp(sock)
    stats = open(os.path.join(out, "blockstats.jsonl"), "w")
    events = open(os.path.join(out, "host-events.jsonl"), "w")
    seen = set()
    pending = []  # (mono deadline, device) to set back to unlimited
    next_stats = 0.0
    try:
        while True:
            mono = time.monotonic()
            if mono >= next_stats:
                next_stats = mono + 0.1
                ans = q.cmd("query-blockstats")
                rt = time.time_ns()
                devs = {}
                for b in ans:
                    qdev = b.get("qdev") or b.get("device") or ""
                    # /machine/peripheral/vdb/virtio-backend -> vdb
                    parts = qdev.split("/")
                    name = parts[3] if len(parts) > 3 else qdev
                    devs[name] = b["stats"]["wr_bytes"]
                stats.write(json.dumps({"rt_ns": rt, "wr_bytes": devs}) + "\n")
            for name in sorted(os.listdir(out)):
                if name in seen or not (name.startswith("sync.") or name.startswith("slow.")):
                    continue
                if name.endswith(".tmp"):
                    continue
                seen.add(name)
                rt = time.time_ns()
                with open(os.path.join(out, name)) as f:
                    body = f.read().split()
                if name.startswith("sync."):
                    events.write(json.dumps({"sync": name, "host_rt_ns": rt,
                                             "guest_rt_ns": int(body[0])}) + "\n")
                    # the answer: the guest sees it after the host wrote it, so its
                    # time then bounds the offset from the other side
                    ack = os.path.join(out, "ack" + name[4:])
                    with open(ack + ".tmp", "w") as f:
                        f.write("%d\n" % time.time_ns())
                    os.rename(ack + ".tmp", ack)
                else:
                    dev, bps, secs = body[0], int(body[1]), float(body[2])
                    set_wr(q, dev, bps, events)
                    pending.append((time.monotonic() + secs, dev))
                events.flush()
            for p in [p for p in pending if p[0] <= time.monotonic()]:
                pending.remove(p)
                set_wr(q, p[1], 0, events)
                events.flush()
            time.sleep(0.01)
    except (EOFError, OSError):
        pass
    finally:
        stats.close()
        events.close()


if __name__ == "__main__":
    main()
