#!/usr/bin/env python3
"""Cost of one sample: wbtop next to iostat -dx and vmstat -d.

"wbtop -b -q" is the live sample alone (read, parse, derive, detect: what
recording headless costs); "wbtop -b" adds printing every busy device.

For each tool and each /proc (the real one, and a fixture /proc/diskstats of
2000 busy devices bind-mounted in a private mount namespace), runs the tool
for a short and a long count under callgrind; the difference divided by the
extra samples is the steady-state instruction count per sample (start-up
cancels out).  CPU time per sample comes the same way from native runs
(getrusage of the children), and wbtop's peak RSS from the long batch run.

usage: sample_cost.py WBTOP [--fixture-only|--real-only]
"""
import os, re, resource, shutil, subprocess, sys, tempfile, threading, time

WBTOP = os.path.abspath(sys.argv[1])
NDEV = 2000

def callgrind_ir(cmd):
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "cg.out")
        subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out] + cmd,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        with open(out) as f:
            for line in f:
                if line.startswith("summary:") or line.startswith("totals:"):
                    return int(line.split()[1])
    raise RuntimeError("no callgrind summary for %s" % cmd)

def peak_rss_kib(cmd):
    """CPU seconds (user, system) of cmd and its peak RSS in KiB.

    The peak is VmHWM from /proc/PID/status, read until the process exits:
    ru_maxrss would count the forked python image the child was before exec.
    """
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    hwm = 0
    while p.poll() is None:
        try:
            with open("/proc/%d/status" % p.pid) as f:
                for line in f:
                    if line.startswith("VmHWM:"):
                        hwm = max(hwm, int(line.split()[1]))
        except (FileNotFoundError, ProcessLookupError, ValueError):
            pass
        time.sleep(0.01)
    return hwm

def cpu_run(cmd):
    """User and system CPU seconds of cmd (in a fresh process, so that
    RUSAGE_CHILDREN counts it alone)."""
    probe = ("import resource, subprocess, sys; "
             "subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True); "
             "r = resource.getrusage(resource.RUSAGE_CHILDREN); "
             "print(r.ru_utime, r.ru_stime)")
    u, s = subprocess.check_output([sys.executable, "-c", probe] + cmd, text=True).split()
    return float(u), float(s)

TOOLS = {
    # name: (command for n samples at the shortest delay the tool takes,
    # short n, long n for callgrind, short n, long n for CPU time).  CPU time
    # (the kernel's precise runtime, split into user and system by ticks)
    # needs many samples: start-up (identities for 2000 devices) varies by
    # milliseconds from run to run.  iostat and vmstat take whole seconds.
    "wbtop -b -q": (lambda n: [WBTOP, "-b", "-q", "-d", "0.02", "-n", str(n)], 5, 25, 10, 260),
    "wbtop -b": (lambda n: [WBTOP, "-b", "-d", "0.02", "-n", str(n)], 5, 25, 10, 260),
    "iostat -dx": (lambda n: ["iostat", "-dx", "1", str(n)], 2, 4, 2, 4),
    "vmstat -d": (lambda n: ["vmstat", "-d", "1", str(n)], 2, 4, 2, 4),
}

def measure(label, wbtop=True, others=True):
    rows = []
    for name, (cmd, n1, n2, c1, c2) in TOOLS.items():
        if not (wbtop if name.startswith("wbtop") else others):
            continue
        if not name.startswith("wbtop") and subprocess.run(["which", cmd(1)[0]], stdout=subprocess.DEVNULL).returncode:
            continue
        ir = (callgrind_ir(cmd(n2)) - callgrind_ir(cmd(n1))) / (n2 - n1)
        # the least (user + system) of three runs each: a shared machine only
        # ever adds time, and here it adds up to a fifth from run to run
        u1, s1 = min((cpu_run(cmd(c1)) for _ in range(3)), key=sum)
        u2, s2 = min((cpu_run(cmd(c2)) for _ in range(3)), key=sum)
        rss = peak_rss_kib(cmd(n2)) if name.startswith("wbtop") else 0
        us_user = max(0.0, (u2 - u1) / (c2 - c1) * 1e6)
        us_sys = max(0.0, (s2 - s1) / (c2 - c1) * 1e6)
        rows.append((name, ir, us_user, us_sys, rss))
    print("%s:" % label)
    print("  %-14s %16s %12s %12s %12s %12s" % ("tool", "instr/sample", "CPU us", "(user", "sys)", "peak RSS KiB"))
    for name, ir, uu, su, rss in rows:
        print("  %-14s %16.0f %12.0f %12.0f %12.0f %12s" % (name, ir, uu + su, uu, su,
                                                        rss if name.startswith("wbtop") else "-"))
    sys.stdout.flush()

# Digits of each diskstats field on a busy machine (ios ~ millions, sectors
# ~ billions, in_flight one digit): the parser's cost depends on them.
FIELD_DIGITS = [7, 5, 10, 8, 7, 5, 10, 8, 1, 8, 9, 5, 3, 8, 5, 6, 6]

def fixture_text(k):
    # Every field starts at 10^(digits-1) and grows by far less than that
    # (lines keep their length, as a real machine's mostly do); every device
    # reads and writes each step.
    lines = []
    for i in range(NDEV):
        w = k * (100 + i % 7)
        step = [k * 3, k, k * 24, k * 2, w, k, w * 8, w * 2, 0, k * 40, w * 3, 0, 0, 0, 0, k, k]
        vals = [10 ** (d - 1) + s if d > 1 else 0 for d, s in zip(FIELD_DIGITS, step)]
        lines.append("%4d %7d %s %s" % (253, i, "dm-%d" % i, " ".join(map(str, vals))))
    return "\n".join(lines) + "\n"

def with_fixture(ndev, work, prefix="wbtop-bench."):
    """work() with /proc/diskstats replaced by ndev busy devices, rewritten
    every 2 ms by fixture_writer.c (call only inside a private mount
    namespace: mounted in the host's, the fixture would hide the real file)."""
    global NDEV
    NDEV = ndev
    d = tempfile.mkdtemp(prefix=prefix)
    path = os.path.join(d, "diskstats")
    try:
        with open(path, "w") as f:
            f.write(fixture_text(1))
        writer_bin = os.path.join(d, "fixture_writer")
        subprocess.check_call(["cc", "-O2", "-o", writer_bin,
                               os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixture_writer.c")])
        subprocess.check_call(["mount", "--bind", path, "/proc/diskstats"])
        try:
            writer = subprocess.Popen([writer_bin, path, str(ndev), "2000"])
            try:
                return work()
            finally:
                writer.kill()
                writer.wait()
        finally:
            subprocess.call(["umount", "/proc/diskstats"])
    finally:
        shutil.rmtree(d, ignore_errors=True)

def fixture_run(only_wbtop=False):
    d = tempfile.mkdtemp(prefix="wbtop-bench.")
    path = os.path.join(d, "diskstats")
    with open(path, "w") as f:
        f.write(fixture_text(1))
    subprocess.check_call(["mount", "--bind", path, "/proc/diskstats"])
    # iostat and vmstat -d show only what /sys/block lists as a disk: give
    # them the same 2000 devices there (a tmpfs, private to this namespace).
    # iostat reads each device's /sys/block/NAME/stat: those get the same
    # counters, refreshed every half second (its samples are a second apart).
    subprocess.check_call(["mount", "-t", "tmpfs", "tmpfs", "/sys/block"])
    def write_sysfs(text):
        for line in text.splitlines():
            f = line.split()
            with open("/sys/block/%s/stat" % f[2], "w") as out:
                out.write(" ".join(f[3:]) + "\n")
    for i in range(NDEV):
        os.mkdir("/sys/block/dm-%d" % i)
    write_sysfs(fixture_text(1))
    # The diskstats file is rewritten every 2 ms by a small C program, its
    # counters proportional to the time since it started: every sample of
    # every tool, however slow under callgrind, sees every device busy at a
    # steady rate.  (A Python writer is too slow for that: samples that see
    # no change are idle devices, and cheaper.)
    writer_bin = os.path.join(d, "fixture_writer")
    subprocess.check_call(["cc", "-O2", "-o", writer_bin,
                           os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixture_writer.c")])
    writer = subprocess.Popen([writer_bin, path, str(NDEV), "2000"])
    stop = threading.Event()
    def sysfs_writer():
        k = 1
        while not stop.wait(0.5):
            k += 1
            write_sysfs(fixture_text(k))
    t = threading.Thread(target=sysfs_writer, daemon=True)
    t.start()
    try:
        measure("fixture /proc/diskstats with %d busy devices" % NDEV, others=not only_wbtop)
    finally:
        stop.set()
        t.join()
        writer.kill()
        writer.wait()
        subprocess.call(["umount", "/sys/block"])
        subprocess.call(["umount", "/proc/diskstats"])

def main():
    global NDEV
    mode = sys.argv[2] if len(sys.argv) > 2 else ""
    if mode not in ("--fixture-only", "--fixture-5000"):
        measure("this machine's /proc (%d devices)" % sum(1 for _ in open("/proc/diskstats")))
    if mode != "--real-only":
        if os.geteuid() != 0:
            print("SKIP fixture run: needs root for a private mount namespace")
        elif mode in ("--fixture-only", "--fixture-5000"):
            # only ever inside the private namespace main() made: mounted
            # in the host's, the fixture would hide the real /proc/diskstats
            if os.environ.get("WBTOP_BENCH_PRIVATE_NS") != "1":
                sys.exit("sample_cost.py: --fixture-only is internal; run without it")
            if mode == "--fixture-5000":
                NDEV = 5000
            fixture_run(only_wbtop=NDEV > 2000)
        else:
            sys.stdout.flush()
            # 5000 devices: wbtop only (iostat and vmstat -d would take
            # minutes under callgrind; vmstat -d grows with the square)
            for flag in ("--fixture-only", "--fixture-5000"):
                sys.stdout.flush()
                subprocess.check_call(["unshare", "-m", "--propagation", "private", sys.executable,
                                       os.path.abspath(__file__), WBTOP, flag],
                                      env=dict(os.environ, WBTOP_BENCH_PRIVATE_NS="1"))

if __name__ == "__main__":
    main()
