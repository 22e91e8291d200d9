#!/usr/bin/env python3
"""What the exporter costs (issue 33): CPU per sample and per scrape of
`wbtop --listen`, at 10 and 2000 busy devices, next to the sample alone
(`wbtop -b -q`), with the size of each dialect's page and wbtop's peak RSS.

Each device count runs in a private mount namespace (unshare -m
--propagation private) with a fixture /proc/diskstats bind-mounted over the
real one and rewritten every 2 ms by fixture_writer.c, as in sample_cost.py
(whose fixture text, callgrind and CPU helpers this reuses): every device is
busy in every sample, however slow the sample.  Nothing is mounted in the
host's namespace.  WBTOP is copied once at the start and the copy measured:
the tree is shared, and a rebuild during the bench would otherwise change
the binary between the two runs of a difference.

* per sample: callgrind instructions of a short and a long run at -d 0.02
  (no scrapes), the difference over the extra samples, for `wbtop -b -q` and
  for `wbtop --listen 127.0.0.1:PORT`; the exporter's share is the one less
  the other (both pages rendered, the throttling tally, the swap).  CPU
  microseconds the same way from native runs (getrusage of the children,
  the least of 3 runs of each length, as sample_cost.py does).
* per scrape: `wbtop --listen ... -d 1 -n 10` (11 samples whatever happens)
  with K scrapes, 0.0.4 and OpenMetrics alternating, each a fresh
  connection (Connection: close), started once the first page is up (503
  means not yet), against the same run with no scrape after that first
  200; the difference over K.  Callgrind counts every thread (the loop's
  and libmicrohttpd's).  These callgrind runs take --no-kernel-trace: the
  trace is read by the loop, never by a scrape, but what it reads follows
  the machine's other writeback, and with it a run's 5 samples at 10
  devices vary by ~300k instructions (+-1.5k a scrape at K=200); without
  it by ~30k, and a scrape costs the same (28k at 10 devices either way).
  At 2000 devices the 5 samples (440M instructions each) still vary by
  ~1M from run to run (the digits of the rates follow the timing): K is
  1000 there (+-1k a scrape), 200 at 10 devices.
  Native CPU per scrape the same with many more scrapes, with the trace
  (as a user runs it): utime + stime of wbtop from wait4 (the kernel's
  precise runtime, so a scrape's tens or hundreds of microseconds are not
  lost to 10 ms ticks), the least of 3 runs each.  The 503s before the
  first page are requests too, and their number follows the start-up's
  timing (polled every 0.25 s under callgrind: a few more or fewer from
  run to run): the difference is divided by the requests one run served
  more than the other, K and the 503s it made more (a 503 costs about
  what a scrape of a small page does: 26k against 28k at 10 devices);
  both counts are shown.
* pages: the body bytes of the largest page scraped in each dialect in the
  native runs (with the trace: its throttling families included); peak
  RSS: VmHWM of `wbtop --listen` while it is scraped, and of the long
  `wbtop -b -q` run.

CPU us is the sum of user and system time only: their split is made by
ticks, too coarse for these differences (it came out negative).

Time (on the 2-core shared machine; callgrind slows wbtop about 20-50x):
at 2000 devices a --listen sample (both pages, ~3 MB each) takes ~2.3 s
(up to 4 s when the machine is busy) under callgrind, so its per-sample
runs are 1 and 4 intervals there (5 and 25 at 10 devices, and for -b -q);
a -d 1 -n 10 run lasts 20-30 s under callgrind at 2000 devices, its first
page after 4-6 s, and 1000 scrapes take ~6 s of the rest (scrapes are
cheap under callgrind: the 3 MB are copied by the kernel); natively 2000
scrapes of a 3 MB page take ~1.5-2 s of the 10 s (printed), 0.3 s at 10
devices.  A scrape closed unanswered while wbtop runs is an error of
wbtop's, not of the bench: it stops the bench.  The whole takes about 4.5
minutes (the native -d 1 -n 10 runs, 6 of ~10 s at each device count, are
half of it).

usage: exporter_cost.py WBTOP
"""
import os, shutil, socket, subprocess, sys, tempfile, threading, time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import sample_cost  # noqa: E402  (its main() is guarded; it reads sys.argv[1] as WBTOP too)

WBTOP = os.path.abspath(sys.argv[1])
DEVICES = (10, 2000)

# Per device count: callgrind short and long -n for --listen, for -b -q; native
# short and long -n for --listen, for -b -q (all at -d 0.02).
PER_SAMPLE_N = {
    10: ((5, 25), (5, 25), (10, 110), (10, 110)),
    2000: ((1, 4), (5, 25), (5, 25), (10, 110)),
}
# Scrapes in the callgrind run (by device count) and in the native runs of
# `--listen -d 1 -n 10`.
SCRAPES_CG = {10: 200, 2000: 1000}
SCRAPES_NATIVE = 2000
RUNS = 3	# native runs of each kind: the least is taken
OM_ACCEPT = b"application/openmetrics-text; version=1.0.0; charset=utf-8"

BUF = memoryview(bytearray(1 << 20))


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def scrape(port, om):
    """One GET /metrics on a fresh connection: (status, body bytes)."""
    s = socket.create_connection(("127.0.0.1", port), timeout=30)
    try:
        s.sendall(b"GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n" +
                  (b"Accept: " + OM_ACCEPT + b"\r\n" if om else b"") + b"\r\n")
        head, total = b"", 0
        while True:
            r = s.recv_into(BUF)
            if not r:
                break
            if len(head) < 4096:
                head += bytes(BUF[:min(r, 4096)])
            total += r
    finally:
        s.close()
    end = head.find(b"\r\n\r\n")
    if end < 0:
        raise RuntimeError("no HTTP response from wbtop (%d bytes)" % total)
    return int(head.split()[1]), total - end - 4


def wait_first_page(port, p, poll_s):
    """Poll until the first 200 (refused: not listening yet; 503: no page
    yet); the number of 503s."""
    n503 = 0
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if p.poll() is not None:
            raise RuntimeError("wbtop --listen exited (%d) before its first page" % p.returncode)
        try:
            status, _ = scrape(port, False)
        except (ConnectionRefusedError, ConnectionResetError):
            status = None
        if status == 200:
            return n503
        if status == 503:
            n503 += 1
        elif status is not None:
            raise RuntimeError("GET /metrics: HTTP %d" % status)
        time.sleep(poll_s)
    raise RuntimeError("no page from wbtop --listen in 120 s")


def listen_cmd(port, delay, count):
    return [WBTOP, "--listen", "127.0.0.1:%d" % port, "-d", str(delay), "-n", str(count)]


def stop(p):
    """End p (one we started) if it still runs: SIGTERM (wbtop removes its
    tracefs instance), then SIGKILL."""
    if p.poll() is None:
        p.terminate()
        try:
            p.wait(10)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()


def scraped_run(k, native, hwm=None, sizes=None, spans=None):
    """`wbtop --listen -d 1 -n 10` with k scrapes after its first page.

    native: (user s, system s, 503s) of wbtop from wait4; else (callgrind
    instructions, 503s).  hwm (a list) gets VmHWM in KiB; sizes (a dict by
    dialect) the largest body seen, spans (a list) the seconds the k scrapes took."""
    port = free_port()
    tmp = tempfile.mkdtemp(prefix="wbtop-exbench.")
    out = os.path.join(tmp, "cg.out")
    cmd = listen_cmd(port, 1, 10)
    if not native:
        # fair scheduling: valgrind runs one thread at a time, and without it the server's
        # thread waited behind a 2000-device page long enough for wbtop's 10 s request
        # deadline to cut the scrape
        cmd = ["valgrind", "--tool=callgrind", "--fair-sched=yes", "--callgrind-out-file=" + out] + cmd + ["--no-kernel-trace"]
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    done = threading.Event()
    peak = [0]

    def watch():
        while not done.is_set():
            try:
                with open("/proc/%d/status" % p.pid) as f:
                    for line in f:
                        if line.startswith("VmHWM:"):
                            peak[0] = max(peak[0], int(line.split()[1]))
            except (OSError, ValueError):
                pass
            done.wait(0.01)
    w = threading.Thread(target=watch, daemon=True)
    if native and hwm is not None:
        w.start()
    try:
        n503 = wait_first_page(port, p, 0.02 if native else 0.25)
        t_scrape = time.monotonic()
        for i in range(k):
            om = i % 2 == 1
            try:
                status, n = scrape(port, om)
            except (ConnectionRefusedError, RuntimeError):
                # a scrape queued as wbtop stops is closed unanswered: say so, not "no response"
                if p.poll() is None:
                    raise
                raise RuntimeError("wbtop --listen -d 1 -n 10 ended after %d of %d scrapes (%.1f s of them)"
                                   % (i, k, time.monotonic() - t_scrape))
            if status != 200:
                raise RuntimeError("scrape %d: HTTP %d" % (i, status))
            if sizes is not None:
                sizes[om] = max(sizes.get(om, 0), n)
        if spans is not None and k:
            spans.append(time.monotonic() - t_scrape)
        if native:
            _, st, ru = os.wait4(p.pid, 0)
            p.returncode = os.waitstatus_to_exitcode(st)
        else:
            p.wait()
        done.set()
        if w.is_alive():
            w.join()
        if p.returncode != 0:
            raise RuntimeError("%s exited with %d" % (" ".join(cmd), p.returncode))
        if hwm is not None:
            hwm.append(peak[0])
        if native:
            return ru.ru_utime, ru.ru_stime, n503
        with open(out) as f:
            for line in f:
                if line.startswith(("summary:", "totals:")):
                    return int(line.split()[1]), n503
        raise RuntimeError("no callgrind summary")
    finally:
        done.set()
        stop(p)
        shutil.rmtree(tmp, ignore_errors=True)


def per_sample_ir(cmd, n1, n2):
    return (sample_cost.callgrind_ir(cmd(n2)) - sample_cost.callgrind_ir(cmd(n1))) / (n2 - n1)


def per_sample_us(cmd, c1, c2):
    """CPU (user + system) microseconds per sample: the least of RUNS runs each."""
    t1 = min(sum(sample_cost.cpu_run(cmd(c1))) for _ in range(RUNS))
    t2 = min(sum(sample_cost.cpu_run(cmd(c2))) for _ in range(RUNS))
    return (t2 - t1) / (c2 - c1) * 1e6


def measure(ndev):
    (ln1, ln2), (bn1, bn2), (lc1, lc2), (bc1, bc2) = PER_SAMPLE_N[ndev]
    t0 = time.monotonic()
    port = free_port()
    batch = lambda n: [WBTOP, "-b", "-q", "-d", "0.02", "-n", str(n)]
    listen = lambda n: listen_cmd(port, 0.02, n)
    b_ir = per_sample_ir(batch, bn1, bn2)
    l_ir = per_sample_ir(listen, ln1, ln2)
    b_us = per_sample_us(batch, bc1, bc2)
    l_us = per_sample_us(listen, lc1, lc2)
    b_rss = sample_cost.peak_rss_kib(batch(bc2))

    sizes, hwm, spans = {}, [], []
    k_cg = SCRAPES_CG[ndev]
    cg_k, cg_503k = scraped_run(k_cg, False)
    cg_0, cg_5030 = scraped_run(0, False)
    s_ir = (cg_k - cg_0) / (k_cg + cg_503k - cg_5030)
    with_k = [scraped_run(SCRAPES_NATIVE, True, hwm=hwm, sizes=sizes, spans=spans) for _ in range(RUNS)]
    with_0 = [scraped_run(0, True) for _ in range(RUNS)]
    uk, sk, nk = min(with_k, key=lambda r: r[0] + r[1])
    u0, s0, n0 = min(with_0, key=lambda r: r[0] + r[1])
    reqs = SCRAPES_NATIVE + nk - n0
    s_us = (uk + sk - u0 - s0) / reqs * 1e6

    rows = [
        ("wbtop -b -q (sample alone)", b_ir, b_us),
        ("wbtop --listen (sample + both pages)", l_ir, l_us),
        ("exporter's share per sample", l_ir - b_ir, l_us - b_us),
        ("per scrape (0.0.4, OpenMetrics alternating)", s_ir, s_us),
    ]
    print("fixture /proc/diskstats with %d busy devices:" % ndev)
    print("  %-44s %14s %10s" % ("", "instr", "CPU us"))
    for name, ir, us in rows:
        print("  %-44s %14.0f %10.0f" % (name, ir, us))
    print("  pages: 0.0.4 %d bytes, OpenMetrics %d bytes; peak RSS: --listen %d KiB (scraped),"
          " -b -q %d KiB" % (sizes.get(False, 0), sizes.get(True, 0), max(hwm), b_rss))
    print("  (per sample: callgrind -n %d/%d for --listen, %d/%d for -b -q; native -n %d/%d and %d/%d;"
          " per scrape: %d scrapes under callgrind (--no-kernel-trace), %d native, in -d 1 -n 10; 503s before the first"
          " page with and without them: %d and %d under callgrind, %d and %d native; the native"
          " scrapes took %.1f-%.1f s of their run; took %.0f s)"
          % (ln1, ln2, bn1, bn2, lc1, lc2, bc1, bc2, k_cg, SCRAPES_NATIVE, cg_503k, cg_5030,
             nk, n0, min(spans), max(spans), time.monotonic() - t0))
    sys.stdout.flush()


def with_fixture(ndev, work):
    return sample_cost.with_fixture(ndev, work, "wbtop-exbench.")


def main():
    if len(sys.argv) > 2 and sys.argv[2] == "--inner":
        # only ever inside the private namespace main() made: mounted in the
        # host's, the fixture would hide the real /proc/diskstats
        if os.environ.get("WBTOP_BENCH_PRIVATE_NS") != "1":
            sys.exit("exporter_cost.py: --inner is internal; run without it")
        ndev = int(sys.argv[3])
        with_fixture(ndev, lambda: measure(ndev))
        return
    if os.geteuid() != 0:
        print("SKIP exporter cost: needs root for a private mount namespace")
        return
    t0 = time.monotonic()
    # A copy of wbtop, taken once: the tree is shared, and a rebuild in the
    # middle of the bench would swap the binary between two runs of a pair
    # (or leave none to run while it links).
    bindir = tempfile.mkdtemp(prefix="wbtop-exbench-bin.")
    wbtop = os.path.join(bindir, "wbtop")
    for _ in range(60):
        try:
            shutil.copy2(WBTOP, wbtop)
            subprocess.run([wbtop, "--version"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           check=True)
            break
        except (OSError, subprocess.CalledProcessError):
            time.sleep(1)	# being rebuilt: try again
    else:
        shutil.rmtree(bindir, ignore_errors=True)
        sys.exit("exporter_cost.py: cannot copy and run %s" % WBTOP)
    print("exporter (wbtop --listen) per sample and per scrape, next to the sample alone; instr:"
          " callgrind, every thread (repeatable); CPU us: native user + system, the least of %d"
          " runs, noisy on"
          " this shared machine (other work adds to it; a difference can even come out"
          " negative)" % RUNS)
    sys.stdout.flush()
    try:
        for ndev in DEVICES:
            subprocess.check_call(["unshare", "-m", "--propagation", "private", sys.executable,
                                   os.path.abspath(__file__), wbtop, "--inner", str(ndev)],
                                  env=dict(os.environ, WBTOP_BENCH_PRIVATE_NS="1"))
    finally:
        shutil.rmtree(bindir, ignore_errors=True)
    print("(exporter bench took %.0f s)" % (time.monotonic() - t0))


if __name__ == "__main__":
    main()
