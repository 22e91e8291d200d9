#!/usr/bin/env python3
"""A long batch session under valgrind, devices coming and going.

Runs inside a private mount namespace (t_long_run.sh).  A fixture
/proc/diskstats is rewritten every 20 ms: devices appear and vanish, minors
are reused under new names, counters advance and sometimes reset.  wbtop
runs thousands of samples under valgrind's memcheck, which must report no
leak and no error; a native run of 3000 samples (without the kernel loop,
whose kept state follows the host's activity) must not have a larger peak
RSS than one of 1000 (500 and 1500, tried to save time, grew by 0.8-1.2 MB
beside a build: the tables of the devices seen are not full by then; it
runs beside the other tests, so its 40 s cost no wall time).
"""
import os, random, resource, subprocess, sys, threading, time

WBTOP = os.environ["WBTOP_PLAIN"]
TMP = sys.argv[1]
path = os.path.join(TMP, "diskstats")

def text(k, rnd):
    lines = []
    for i in range(40):
        if rnd.random() < 0.2:
            continue            # this device is gone in this sample
        # names no device of the host has: what wbtop looks up of them (sysfs, libblkid,
        # mounts) is the same whatever the other tests make meanwhile (loop devices: a
        # fixture "loop3" was looked up as the host's, and RSS followed their activity)
        name = "wbfx%d" % i if rnd.random() < 0.9 else "wbzz%d" % i   # minor reused under another name
        c = k * (i + 1)
        if rnd.random() < 0.02:
            c = 0               # counters reset
        lines.append("%4d %7d %s %d 0 %d 0 %d 0 %d 0 0 %d %d 0 0 0 0 0 0"
                     % (240, i, name, c, c * 8, c, c * 16, c, c * 2))
    return "\n".join(lines) + "\n"

def peak_rss_kib(cmd):
    # VmHWM read until the process exits (ru_maxrss would count the python
    # image the child was before exec).
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
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
    if p.returncode != 0:
        raise RuntimeError("%s exited %d" % (cmd, p.returncode))
    return hwm

def main():
    with open(path, "w") as f:
        f.write(text(1, random.Random(1)))
    subprocess.check_call(["mount", "--bind", path, "/proc/diskstats"])
    stop = threading.Event()
    def writer():
        rnd = random.Random(42)
        k = 1
        while not stop.is_set():
            k += 1
            with open(path, "r+") as f:
                f.truncate(0)
                f.write(text(k, rnd))
            time.sleep(0.02)
    t = threading.Thread(target=writer, daemon=True)
    t.start()
    try:
        n = 2000
        r = subprocess.run(["valgrind", "--leak-check=full", "--show-leak-kinds=definite,indirect,possible",
                            "--errors-for-leak-kinds=definite,indirect,possible", "--error-exitcode=3",
                            WBTOP, "-b", "-a", "-d", "0.01", "-n", str(n)],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        summary = [l for l in r.stderr.splitlines() if "ERROR SUMMARY" in l or "definitely lost" in l
                   or "indirectly lost" in l or "possibly lost" in l]
        print("valgrind, %d samples: %s" % (n, "; ".join(s.split("== ", 1)[-1] for s in summary)))
        if r.returncode != 0:
            print(r.stderr[-3000:])
            return 1
        # without the kernel loop: what it keeps (the tasks and cgroups the
        # trace saw in the last minute) grows with the host's activity, not
        # with the samples;
        # its leaks are valgrind's to find above
        rss = [peak_rss_kib([WBTOP, "-b", "-a", "-d", "0.01", "-n", str(c), "--no-kernel-trace"])
               for c in (1000, 3000)]
        print("peak RSS after 1000 samples: %d KiB; after 3000: %d KiB" % (rss[0], rss[1]))
        if rss[1] > rss[0] + 512:
            print("memory grew with the number of samples")
            return 1
        return 0
    finally:
        stop.set()
        t.join()

if __name__ == "__main__":
    sys.exit(main())
