#!/usr/bin/env python3
"""Load test of wbtop --listen: 50 scrapers at once against 10 devices.

    python3 tests/listen/load.py [options] WBTOP

Makes DEVICES loop devices (sparse files in a temporary directory; root),
starts WBTOP --listen 127.0.0.1:PORT -d INTERVAL --devices REGEX selecting
exactly them, checks the page has exactly their series, then runs SCRAPERS
scrapers at once (threads in PROCS processes), each making REQUESTS
GET /metrics, a new connection each (http.client), the even-numbered ones
with Prometheus's OpenMetrics Accept header, the others with none.

A scrape fails on any exception, a status other than 200, a content type
that is not the dialect's, or a body that is not a whole page: OpenMetrics
must end in "# EOF\\n"; 0.0.4 must parse line by line (HELP/TYPE/samples)
and end with the wbtop_exporter_samples_total line, the last the exporter
writes.  Both must carry one wbtop_exporter_samples_total and one
wbtop_sample_timestamp_seconds; the pairs seen give the sampling gaps.

Measured: requests, failures, requests/s, latency p50/p99/max, wbtop's RSS
(VmRSS every 0.5 s: at the start of the load, its max, at the end), wbtop's
CPU time (its threads' schedstat run time, else utime+stime) per request,
raw and net of what sampling costs when idle (measured for 3 s before the
load), the open descriptors before and after, and the largest gap between
consecutive sample timestamps.

Exit status 1 when a scrape failed, a gap exceeded MAX_GAP (1.5 s at -d 1),
the samples counter advanced by fewer than the intervals that passed less
two, the page did not have exactly the devices' series, RSS grew by more than
RSS_BOUND MiB over its start, wbtop's descriptors did not come back, or
wbtop died or did not exit cleanly on SIGTERM; 2 on a usage or set-up error.

The RSS bound (20 MiB by default): libmicrohttpd gives a connection at most
its 32 KiB pool (MHD_OPTION_CONNECTION_MEMORY_LIMIT) and holds at most 256
connections, 8 MiB; a response holds a reference to a page (about 33 KB
at 10 devices) and at most 50 are in flight, with two current pages, under
4 MiB; the MHD thread's malloc arena adds a few MiB of slack.  A leak-free
server stays well inside 20 MiB (it grew by under 1 MiB here), while
leaking a page, a pool or a response per request (32-34 KB each) would
pass it within the first thousand requests of the 50000; a leak of under
about 400 bytes a request would not, which is what valgrind is for.  Under
a sanitizer (ASan's quarantine keeps freed memory) RSS is reported but not
judged unless --rss-bound is given.

wbtop answers every request with Connection: close (libmicrohttpd closes a
connection whose answer was queued from the headers alone), so the scrapers'
new connection per request is also what a keep-alive client would get, and
the TIME_WAIT sockets are on wbtop's side, not the scrapers' local ports.
"""
import argparse
import http.client
import multiprocessing
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

OM_ACCEPT = ("application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,"
             "text/plain;version=0.0.4;q=0.5,*/*;q=0.1")    # what Prometheus sends
OM_TYPE = "application/openmetrics-text; version=1.0.0"
PROM_TYPE = "text/plain; version=0.0.4"
from common import HOST, free_port  # noqa: E402  (tests/listen/common.py)

NAME = r"[a-zA-Z_:][a-zA-Z0-9_:]*"
LABELS = r'\{(?:[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\.)*"(?:,|(?=\})))*\}'
SAMPLE_RE = re.compile(r"^(%s)(%s)? (\S+)$" % (NAME, LABELS))
HELP_RE = re.compile(r"^# HELP (%s) .*$" % NAME)
TYPE_RE = re.compile(r"^# TYPE (%s) (counter|gauge|untyped|summary|histogram|info|stateset|gaugehistogram|unknown)$"
                     % NAME)
UNIT_RE = re.compile(r"^# UNIT (%s) \S*$" % NAME)


def log(*a):
    print(*a, flush=True)


# ---- the page ---------------------------------------------------------------

def check_page(body, om):
    """(error or None, samples_total, sample_timestamp) of a page."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as e:
        return "not UTF-8: %s" % e, None, None
    if not text.endswith("\n"):
        return "does not end in a newline (%d bytes)" % len(body), None, None
    if om:
        if not text.endswith("\n# EOF\n"):
            return "OpenMetrics page does not end in '# EOF\\n': ...%r" % text[-60:], None, None
        if text.count("# EOF") != 1:
            return "'# EOF' %d times" % text.count("# EOF"), None, None
        lines = text[:-len("# EOF\n")].split("\n")[:-1]
    else:
        if "# EOF" in text:
            return "0.0.4 page with '# EOF'", None, None
        lines = text.split("\n")[:-1]
    samples = stamp = None
    last = None
    for n, line in enumerate(lines, 1):
        if line.startswith("#"):
            if not (HELP_RE.match(line) or TYPE_RE.match(line) or (om and UNIT_RE.match(line))):
                return "line %d: not a HELP/TYPE line: %r" % (n, line[:100]), None, None
            continue
        m = SAMPLE_RE.match(line)
        if not m:
            return "line %d: not a sample: %r" % (n, line[:100]), None, None
        try:
            v = float(m.group(3))
        except ValueError:
            return "line %d: value %r" % (n, m.group(3)), None, None
        last = m.group(1)
        if last == "wbtop_exporter_samples_total":
            if samples is not None:
                return "wbtop_exporter_samples_total twice", None, None
            samples = int(v)
        elif last == "wbtop_sample_timestamp_seconds":
            if stamp is not None:
                return "wbtop_sample_timestamp_seconds twice", None, None
            stamp = v
    if samples is None or stamp is None:
        return "no wbtop_exporter_samples_total or wbtop_sample_timestamp_seconds", None, None
    if last != "wbtop_exporter_samples_total":
        return "last sample is %s, not wbtop_exporter_samples_total: cut short?" % last, None, None
    return None, samples, stamp


def device_labels(body, family="wbtop_device_written_bytes_total"):
    out = []
    for line in body.decode("utf-8", "replace").split("\n"):
        if line.startswith(family + "{"):
            m = re.search(r'device="((?:[^"\\]|\\.)*)"', line)
            out.append(m.group(1) if m else "?")
    return out


def scrape(port, om, timeout=10.0):
    c = http.client.HTTPConnection(HOST, port, timeout=timeout)
    try:
        c.request("GET", "/metrics", headers={"Accept": OM_ACCEPT} if om else {})
        r = c.getresponse()
        body = r.read()
        return r.status, r.getheader("Content-Type") or "", body
    finally:
        c.close()


# ---- the scrapers (in worker processes) --------------------------------------

class Tally:
    def __init__(self):
        self.lock = threading.Lock()
        self.lat = []
        self.requests = {True: 0, False: 0}
        self.failures = 0
        self.fail_kinds = {}
        self.fail_examples = []
        self.seen = set()           # (samples_total, timestamp)
        self.cache = {}             # body -> (err, samples, stamp): pages repeat for a whole interval
        self.sizes = {True: 0, False: 0}
        self.last_end = 0.0

    def fail(self, kind, msg):
        with self.lock:
            self.failures += 1
            self.fail_kinds[kind] = self.fail_kinds.get(kind, 0) + 1
            if len(self.fail_examples) < 10:
                self.fail_examples.append(msg)


def scraper(port, om, n, t):
    want = OM_TYPE if om else PROM_TYPE
    for _ in range(n):
        t0 = time.perf_counter()
        try:
            status, ctype, body = scrape(port, om)
        except Exception as e:  # noqa: BLE001 - any exception is a failed scrape
            t.lat.append(time.perf_counter() - t0)
            t.requests[om] += 1
            t.fail(type(e).__name__, "%s: %r" % ("om" if om else "0.0.4", e))
            continue
        t.lat.append(time.perf_counter() - t0)
        t.requests[om] += 1
        t.last_end = time.time()
        if status != 200:
            t.fail("status %d" % status, "status %d: %r" % (status, body[:100]))
            continue
        if not ctype.startswith(want):
            t.fail("content type", "content type %r for %s" % (ctype, "om" if om else "0.0.4"))
            continue
        key = (om, body)
        r = t.cache.get(key)
        if r is None:
            r = check_page(body, om)
            if len(t.cache) > 32:
                t.cache.clear()
            t.cache[key] = r
            t.sizes[om] = len(body)
        err, samples, stamp = r
        if err:
            t.fail("bad page", "%s page: %s" % ("om" if om else "0.0.4", err))
            continue
        t.seen.add((samples, stamp))


def worker(port, ids, n, go, q):
    signal.signal(signal.SIGINT, signal.SIG_IGN)    # the parent stops us
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)
    t = Tally()
    threads = [threading.Thread(target=scraper, args=(port, i % 2 == 0, n, t), daemon=True) for i in ids]
    go.wait()
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    q.put({"lat": t.lat, "requests": t.requests, "failures": t.failures, "fail_kinds": t.fail_kinds,
           "fail_examples": t.fail_examples, "seen": sorted(t.seen), "sizes": t.sizes,
           "last_end": t.last_end})


# ---- wbtop and the host --------------------------------------------------------

def proc_rss_kib(pid):
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def proc_cpu_s(pid):
    """wbtop's CPU time: its threads' run time in ns (schedstat), else utime+stime in clock ticks
    (10 ms: too coarse for what sampling costs in 3 s)."""
    try:
        total = 0
        for t in os.listdir("/proc/%d/task" % pid):
            with open("/proc/%d/task/%s/schedstat" % (pid, t)) as f:
                total += int(f.read().split()[0])
        return total / 1e9
    except (OSError, ValueError, IndexError):
        pass
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")     # utime, stime


def proc_fds(pid):
    try:
        return len(os.listdir("/proc/%d/fd" % pid))
    except OSError:
        return None


def sanitized(path):
    try:
        with open(path, "rb") as f:
            return b"__asan_init" in f.read()
    except OSError:
        return False


class Host:
    """Loop devices and wbtop: everything made is undone by close(), on any exit."""

    def __init__(self):
        self.owner = os.getpid()
        self.dir = tempfile.mkdtemp(prefix="wbtop-load.")
        self.devs = []
        self.wbtop = None
        self.err_path = os.path.join(self.dir, "wbtop.err")

    def make_loops(self, n, mib=64):
        for i in range(n):
            img = os.path.join(self.dir, "dev%d.img" % i)
            with open(img, "wb") as f:
                f.truncate(mib << 20)
            r = subprocess.run(["losetup", "-f", "--show", img], capture_output=True, text=True)
            if r.returncode != 0:
                raise SetupError("losetup -f --show %s: %s" % (img, r.stderr.strip()))
            self.devs.append(r.stdout.strip())
        return [os.path.basename(d) for d in self.devs]

    def start(self, binary, args):
        env = dict(os.environ)
        env.setdefault("ASAN_OPTIONS", "detect_leaks=1:abort_on_error=0:exitcode=99")
        env.setdefault("UBSAN_OPTIONS", "print_stacktrace=1:halt_on_error=1:exitcode=98")
        self.err = open(self.err_path, "w+")
        self.wbtop = subprocess.Popen([binary] + args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                      stderr=self.err, env=env)
        return self.wbtop

    def stderr(self):
        try:
            with open(self.err_path, errors="replace") as f:
                return f.read()
        except OSError:
            return ""

    def stop(self, timeout=15):
        """wbtop's exit status after SIGTERM (None: it had to be killed)."""
        p, self.wbtop = self.wbtop, None
        if p is None:
            return None
        if p.poll() is None:
            p.send_signal(signal.SIGTERM)
            try:
                return p.wait(timeout)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
                return None
        return p.returncode

    def close(self):
        if os.getpid() != self.owner:
            return
        try:
            self.stop(5)
        except Exception:   # noqa: BLE001 - best effort on the way out
            pass
        for d in reversed(self.devs):
            subprocess.run(["losetup", "-d", d], capture_output=True)
        left = subprocess.run(["losetup", "-j", self.dir], capture_output=True, text=True).stdout
        self.devs = []
        shutil.rmtree(self.dir, ignore_errors=True)
        if left.strip():
            log("load: loop devices left behind: %s" % left.strip())


class SetupError(Exception):
    """The run could not be made (exit 2), or wbtop died in it (code 1: a finding)."""

    def __init__(self, msg, code=2):
        super().__init__(msg)
        self.code = code


def on_signal(sig, frame):
    raise SystemExit(128 + sig)


# ---- the run -------------------------------------------------------------------

def pct(xs, p):
    if not xs:
        return float("nan")
    k = min(len(xs) - 1, max(0, int(round(p / 100.0 * len(xs) + 0.5)) - 1))
    return xs[k]


def wait_ready(port, p, timeout):
    end = time.time() + timeout
    last = None
    while time.time() < end:
        if p.poll() is not None:
            raise SetupError("wbtop exited with %s before serving" % p.returncode)
        try:
            status, _, body = scrape(port, True, timeout=2)
            if status == 200:
                return body
            last = "status %d" % status
        except OSError as e:
            last = repr(e)
        time.sleep(0.1)
    raise SetupError("no 200 from /metrics in %d s (%s)" % (timeout, last))


def run(a, host):
    binary = os.path.abspath(a.binary)
    if not os.access(binary, os.X_OK):
        raise SetupError("%s is not an executable" % binary)
    san = sanitized(binary)
    rss_bound = a.rss_bound if a.rss_bound is not None else (None if san else 20.0)
    names = host.make_loops(a.devices)
    regex = "^(%s)$" % "|".join(names)
    port = a.port or free_port()
    args = ["--listen", "%s:%d" % (HOST, port), "-d", str(a.interval), "--devices", regex]
    log("load: %s %s" % (binary, " ".join(args)))
    p = host.start(binary, args)
    page = wait_ready(port, p, 60)
    devs = device_labels(page)
    if sorted(devs) != sorted(names):
        raise SetupError("the page has %d device series in wbtop_device_written_bytes_total (%s), want %d: %s"
                         % (len(devs), ",".join(devs), len(names), ",".join(names)))
    log("load: %d devices on the page: %s" % (len(devs), " ".join(names)))

    rss = []            # (time, KiB)
    stop_mon = threading.Event()

    def monitor():
        while not stop_mon.is_set():
            v = proc_rss_kib(p.pid)
            if v is not None:
                rss.append((time.time(), v))
            stop_mon.wait(0.5)
    mon = threading.Thread(target=monitor, daemon=True)
    mon.start()

    # what sampling alone costs, to tell it from what serving costs
    idle_s = 3.0
    c0 = proc_cpu_s(p.pid)
    time.sleep(idle_s)
    idle_cpu = (proc_cpu_s(p.pid) - c0) / idle_s
    fds_before = proc_fds(p.pid)

    ctx = multiprocessing.get_context("fork")
    go = ctx.Event()
    q = ctx.Queue()
    procs = []
    ids = list(range(a.scrapers))
    nproc = max(1, min(a.procs, a.scrapers))
    for k in range(nproc):
        w = ctx.Process(target=worker, args=(port, ids[k::nproc], a.requests, go, q), daemon=True)
        w.start()
        procs.append(w)
    time.sleep(0.3)     # the workers are up and waiting
    rss_start = proc_rss_kib(p.pid)
    cpu_start = proc_cpu_s(p.pid)
    t_start = time.time()
    go.set()
    results = []
    try:
        while len(results) < nproc:
            if p.poll() is not None:
                raise SetupError("wbtop exited with %s during the load" % p.returncode, 1)
            try:
                results.append(q.get(timeout=1))
            except Exception:   # noqa: BLE001 - queue.Empty: look at wbtop again
                if not any(w.is_alive() for w in procs) and q.empty():
                    raise SetupError("a scraper process died without a result")
    finally:
        for w in procs:
            if w.is_alive() and len(results) < nproc:
                w.terminate()
            w.join(5)
    t_end = time.time()
    cpu_end = proc_cpu_s(p.pid)
    rss_end = proc_rss_kib(p.pid)
    time.sleep(0.6)
    stop_mon.set()
    mon.join()

    # the descriptors of the scrapes' connections go back (the idle timeout is 10 s)
    fds_after = proc_fds(p.pid)
    settle = time.time() + 12
    while fds_after is not None and fds_before is not None and fds_after > fds_before and time.time() < settle:
        time.sleep(0.2)
        fds_after = proc_fds(p.pid)

    alive = p.poll() is None
    status = host.stop()
    err_text = host.stderr()

    # ---- figures
    lat = sorted(x for r in results for x in r["lat"])
    requests = {True: sum(r["requests"][True] for r in results), False: sum(r["requests"][False] for r in results)}
    total = requests[True] + requests[False]
    failures = sum(r["failures"] for r in results)
    kinds = {}
    for r in results:
        for k, v in r["fail_kinds"].items():
            kinds[k] = kinds.get(k, 0) + v
    examples = [e for r in results for e in r["fail_examples"]][:10]
    seen = sorted(set(tuple(x) for r in results for x in r["seen"]))
    sizes = {om: max(r["sizes"][om] for r in results) for om in (True, False)}
    elapsed = t_end - t_start
    last_end = max([r["last_end"] for r in results] + [t_start])

    stamps = sorted(set(s for _, s in seen))
    # the sample in force when the load began may be up to one interval old: start from it;
    # the end counts too: a sampler that stopped would leave the last stamp far behind
    during = [s for s in stamps if s >= t_start - a.interval] or stamps
    gaps = [(b - a_, a_) for a_, b in zip(during, during[1:])]
    if during:
        gaps.append((last_end - during[-1], during[-1]))
    worst = max(gaps) if gaps else (float("inf"), 0)
    counters = sorted(set(c for c, _ in seen))
    missing = [c for c in range(counters[0], counters[-1] + 1) if c not in counters] if counters else []
    advanced = counters[-1] - counters[0] if counters else 0
    # a counter that went with two timestamps (or one timestamp with two counters) is a torn page
    by_counter = {}
    for c, s in seen:
        by_counter.setdefault(c, set()).add(s)
    torn = [c for c, ss in by_counter.items() if len(ss) > 1]

    window = [v for t, v in rss if t_start - 0.6 <= t <= t_end + 0.6] or [rss_start]
    rss_max = max(window + [rss_start, rss_end or 0])
    cpu = cpu_end - cpu_start
    cpu_req = cpu / total if total else float("nan")
    cpu_net = (cpu - idle_cpu * elapsed) / total if total else float("nan")

    verdicts = []
    if failures:
        verdicts.append("%d scrapes failed: %s" % (failures, ", ".join("%s %d" % kv for kv in sorted(kinds.items()))))
    if worst[0] > a.max_gap:
        verdicts.append("a gap of %.2f s between samples (after the one of %s), over %.1f s"
                        % (worst[0], time.strftime("%H:%M:%S", time.localtime(worst[1])), a.max_gap))
    # the counter goes with the clock: a sampler that fell behind takes fewer samples than intervals passed
    if counters and advanced < elapsed / a.interval - 2:
        verdicts.append("the samples counter advanced by %d in %.1f s at -d %g" % (advanced, elapsed, a.interval))
    if torn:
        verdicts.append("samples counter values with more than one timestamp: %s" % torn[:5])
    growth = (rss_max - rss_start) / 1024.0
    if rss_bound is not None and growth > rss_bound:
        verdicts.append("RSS grew by %.1f MiB over its start (bound %.0f MiB)" % (growth, rss_bound))
    if fds_after is not None and fds_before is not None and fds_after > fds_before:
        verdicts.append("wbtop has %d descriptors open 12 s after the load, %d before it" % (fds_after, fds_before))
    if not alive:
        verdicts.append("wbtop was not running at the end of the load")
    if status != 0:
        verdicts.append("wbtop's exit status after SIGTERM: %s" % ("killed after 15 s" if status is None else status))
    san_lines = [l for l in err_text.splitlines() if "ERROR: AddressSanitizer" in l or "runtime error:" in l
                 or "ERROR: LeakSanitizer" in l]
    if san_lines:
        verdicts.append("sanitizer report: %s" % san_lines[0])

    mib = lambda k: "%.1f" % (k / 1024.0) if k is not None else "?"
    ms = lambda s: "%.1f" % (s * 1000)
    rows = [
        ("binary", "%s%s" % (binary, " (sanitized)" if san else "")),
        ("set-up", "%d scrapers x %d requests (%d processes), a new connection each; %d loop devices; -d %g"
         % (a.scrapers, a.requests, nproc, len(names), a.interval)),
        ("requests", "%d (%d OpenMetrics, %d 0.0.4)" % (total, requests[True], requests[False])),
        ("failures", "%d" % failures),
        ("duration", "%.1f s" % elapsed),
        ("requests/s", "%.0f" % (total / elapsed if elapsed > 0 else 0)),
        ("latency p50 / p99 / max", "%s / %s / %s ms" % (ms(pct(lat, 50)), ms(pct(lat, 99)), ms(lat[-1]) if lat else "?")),
        ("page size", "%d B 0.0.4, %d B OpenMetrics" % (sizes[False], sizes[True])),
        ("wbtop RSS start / max / end", "%s / %s / %s MiB (growth %.1f MiB; bound %s)"
         % (mib(rss_start), mib(rss_max), mib(rss_end), growth,
            "%.0f MiB" % rss_bound if rss_bound is not None else "none: sanitized")),
        ("wbtop CPU per request", "%.3f ms (%.3f ms net of sampling, which took %.1f ms/s idle); %.1f s in all"
         % (cpu_req * 1000, cpu_net * 1000, idle_cpu * 1000, cpu)),
        ("samples during the load", "counter +%d over %.1f s (%d seen, %d never seen)"
         % (advanced, elapsed, len(counters), len(missing))),
        ("largest sample gap", "%.2f s (bound %.1f s)" % (worst[0], a.max_gap)),
        ("wbtop descriptors", "%s before, %s after" % (fds_before, fds_after)),
        ("verdict", "PASS" if not verdicts else "FAIL"),
    ]
    if examples:
        log("load: failed scrapes, first %d:" % len(examples))
        for e in examples:
            log("  " + e)
    if san_lines or (status not in (0, None) and err_text):
        log("load: wbtop's stderr (last 40 lines):")
        for l in err_text.splitlines()[-40:]:
            log("  | " + l)
    w = max(len(k) for k, _ in rows)
    log("")
    log("| %-*s | %s |" % (w, "wbtop --listen load", "result"))
    log("|%s|%s|" % ("-" * (w + 2), "-" * 8))
    for k, v in rows:
        log("| %-*s | %s |" % (w, k, v))
    for v in verdicts:
        log("load: FAIL: " + v)
    return 1 if verdicts else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("binary", help="the wbtop to test (the plain one for the full run)")
    ap.add_argument("-n", "--requests", type=int, default=1000, help="requests per scraper (1000)")
    ap.add_argument("--scrapers", type=int, default=50, help="scrapers at once (50)")
    ap.add_argument("--procs", type=int, default=2, help="processes the scrapers' threads are spread over (2)")
    ap.add_argument("--devices", type=int, default=10, help="loop devices to make and select (10)")
    ap.add_argument("--interval", type=float, default=1.0, help="wbtop -d (1)")
    ap.add_argument("--max-gap", type=float, default=None, help="largest gap between samples, s (1.5 x interval)")
    ap.add_argument("--rss-bound", type=float, default=None,
                    help="MiB RSS may grow over its start (20; not judged for a sanitized binary unless given)")
    ap.add_argument("--port", type=int, default=0, help="port (a free one)")
    a = ap.parse_args()
    if a.max_gap is None:
        a.max_gap = 1.5 * a.interval
    if os.geteuid() != 0:
        log("load: needs root (losetup)")
        return 2
    for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(s, on_signal)
    host = Host()
    try:
        return run(a, host)
    except SetupError as e:
        log("load: FAIL: %s" % e)
        err = host.stderr()
        if err.strip():
            log("load: wbtop's stderr (last 20 lines):\n" + "\n".join("  | " + l for l in err.splitlines()[-20:]))
        return e.code
    finally:
        host.close()


if __name__ == "__main__":
    sys.exit(main())
