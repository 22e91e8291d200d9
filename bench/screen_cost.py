#!/usr/bin/env python3
"""What the screen costs: instructions per frame and the time to the first frame.

The screen is wbtop's main job, so it is measured the way a user runs it: in
a terminal (a pseudo-terminal of 120x40 made here, TERM=xterm-256color), on a
fixture /proc/diskstats of N busy devices bind-mounted in a private mount
namespace (the same fixture as sample_cost.py: every device busy in every
sample), next to the headless sample (`wbtop -b -q`) on the same fixture.

* instructions per frame: callgrind over a short and a long run (-d 0.02,
  -n 5 and -n 25); the difference divided by the extra frames, so start-up
  cancels out;
* the curve: the same at 100, 1000, 2000, 5000 and 10000 devices; on this
  machine's /proc and at 2000 devices (the issue's targets) three times, shown
  as the least and the most (what curses sends, and so costs, depends on which
  digits changed between frames);
* the screen's own part: the screen's frame less the headless sample of the
  same fixture (curses, the rows drawn, the history, the save-history ring:
  what showing the sample adds to taking it);
* in curses: the part of the screen's frame counted inside libncursesw and
  libtinfo (their own instructions, not the libc they call: the least that
  sending the frame to the terminal costs), from the same callgrind runs;
* the first frame: the wall time from starting wbtop in the terminal to
  the first full screen written to it (identities of every device, the
  first sample, every pane drawn: the status line, the last row, has come),
  the least of five runs; on this machine's /proc and at 2000 devices.

usage: screen_cost.py WBTOP
"""
import fcntl, os, pty, select, struct, subprocess, sys, tempfile, termios, time

import sample_cost

WBTOP = os.path.abspath(sys.argv[1])
HERE = os.path.dirname(os.path.abspath(__file__))
COLS, ROWS = 120, 40
CURVE = (100, 1000, 2000, 5000, 10000)


def pty_start(cmd):
    """cmd started on a new pseudo-terminal of COLS x ROWS: (pid, fd)."""
    env = dict(os.environ, TERM="xterm-256color", LANG="C.UTF-8")
    env.pop("NO_COLOR", None)
    pid, fd = pty.fork()
    if pid == 0:
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLS, 0, 0))
        os.execvpe(cmd[0], cmd, env)
    return pid, fd


def pty_drain(fd):
    """Read fd until the other end closes."""
    while True:
        try:
            if not os.read(fd, 1 << 16):
                break
        except OSError:
            break


def pty_run(cmd):
    """Run cmd on a new pseudo-terminal of COLS x ROWS, reading all it
    prints until it exits; its wall time in seconds."""
    t0 = time.monotonic()
    pid, fd = pty_start(cmd)
    pty_drain(fd)
    _, status = os.waitpid(pid, 0)
    t1 = time.monotonic()
    os.close(fd)
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError("%s exited with %d" % (cmd, os.waitstatus_to_exitcode(status)))
    return t1 - t0


def pty_peak_rss_mb(cmd):
    """Run cmd on a new pseudo-terminal until it exits; its peak RSS in MB."""
    pid, fd = pty_start(cmd)
    pty_drain(fd)
    _, status, usage = os.wait4(pid, 0)
    os.close(fd)
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError("%s exited with %d" % (cmd, os.waitstatus_to_exitcode(status)))
    return usage.ru_maxrss / 1024.0


# Frames that fill the screen's history (1024 frames) with some over: its memory once full.
FULL_FRAMES = 1100


def full_history_rss_mb():
    return pty_peak_rss_mb([WBTOP, "-d", "0.02", "-n", str(FULL_FRAMES)])


def pty_time_to(cmd, marker):
    """Seconds from starting cmd on a new pseudo-terminal until marker
    (bytes) has been written to it; then cmd is ended."""
    t0 = time.monotonic()
    pid, fd = pty_start(cmd)
    seen, t = b"", None
    while t is None and time.monotonic() - t0 < 30:
        if not select.select([fd], [], [], 1)[0]:
            continue
        try:
            data = os.read(fd, 1 << 16)
        except OSError:
            break
        if not data:
            break
        seen += data
        if marker in seen:
            t = time.monotonic() - t0
    os.kill(pid, 15)
    pty_drain(fd)
    os.waitpid(pid, 0)
    os.close(fd)
    if t is None:
        raise RuntimeError("%s never drew %r" % (cmd, marker))
    return t


# The curses libraries, by the object a function's instructions were counted in.
CURSES_OBJECTS = ("/libncursesw.so", "/libtinfo.so")


def curses_ir(out):
    """Instructions counted inside the curses libraries in callgrind file out
    (their functions' own instructions: what they call in libc is not
    counted, so this is the least curses costs); None without
    callgrind_annotate."""
    try:
        text = subprocess.run(["callgrind_annotate", "--auto=no", "--threshold=100", out],
                              capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    total, listing = 0, False
    for line in text.splitlines():
        if "file:function" in line:
            listing = True
        elif listing and any(o in line for o in CURSES_OBJECTS):
            total += int(line.split()[0].replace(",", ""))
    return total


def screen_ir(n, parts=None):
    """Instructions of n frames; parts (a list), if given, gets those inside curses."""
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "cg.out")
        pty_run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out,
                 WBTOP, "-d", "0.02", "-n", str(n)])
        if parts is not None:
            parts.append(curses_ir(out))
        with open(out) as f:
            for line in f:
                if line.startswith(("summary:", "totals:")):
                    return int(line.split()[1])
    raise RuntimeError("no callgrind summary")


def per_frame(ir_of):
    return (ir_of(25) - ir_of(5)) / 20


def screen_per_frame(curses_frames):
    """per_frame of the screen; curses_frames (a list) gets the same for
    the part inside curses (None if it could not be told)."""
    parts = []
    total = (screen_ir(25, parts) - screen_ir(5, parts)) / 20
    long, short = parts
    curses_frames.append(None if long is None or short is None else (long - short) / 20)
    return total


# A frame's cost varies from run to run by up to a sixth: what curses sends depends on
# which digits changed since the last frame, and so on the timing of each frame.  The
# rows of the targets are measured this many times and shown as a range.
REPEAT = 3


def spread(ir_of, runs):
    """per_frame over runs runs: (least, most)."""
    got = [per_frame(ir_of) for _ in range(runs)]
    return min(got), max(got)


def fmt_range(lo, hi, width):
    text = "%.2f M" % (lo / 1e6) if abs(hi - lo) < 5000 else "%.2f-%.2f M" % (lo / 1e6, hi / 1e6)
    return text.rjust(width)


def batch_ir(n):
    return sample_cost.callgrind_ir([WBTOP, "-b", "-q", "-d", "0.02", "-n", str(n)])


def first_frame_ms():
    # the status line is the last thing a frame draws
    return min(pty_time_to([WBTOP, "-d", "1"], b"[m help ") for _ in range(5)) * 1000


def with_fixture(ndev, work):
    return sample_cost.with_fixture(ndev, work, "wbtop-screenbench.")


def inner(ndev):
    runs = REPEAT if ndev == 2000 else 1
    in_curses = []
    def work():
        scr_runs = [screen_per_frame(in_curses) for _ in range(runs)]
        scr = min(scr_runs), max(scr_runs)
        bq = spread(batch_ir, runs)
        ff = first_frame_ms() if ndev == 2000 else None
        rss = full_history_rss_mb() if ndev in (2000, 10000) else None
        return scr, bq, ff, rss
    scr, bq, ff, rss = with_fixture(ndev, work)
    # what the screen adds to the sample it shows: curses, the rows, the history, the ring
    bq_mid = (bq[0] + bq[1]) / 2
    own = (scr[0] - bq_mid, scr[1] - bq_mid)
    known = [c for c in in_curses if c is not None]
    curses_text = fmt_range(min(known), max(known), 14) if len(known) == len(in_curses) else "?".rjust(14)
    line = "  %6d %18s %18s %16s %14s %12.0f" % (ndev, fmt_range(*scr, 18), fmt_range(*bq, 18),
                                               fmt_range(*own, 16), curses_text, scr[1] / ndev)
    if ff is not None:
        line += "   first frame %.0f ms" % ff
    if rss is not None:
        line += "   peak RSS %.0f MB" % rss
    print(line)
    sys.stdout.flush()


def main():
    if len(sys.argv) > 2 and sys.argv[2] == "--inner":
        if os.environ.get("WBTOP_BENCH_PRIVATE_NS") != "1":
            sys.exit("screen_cost.py: --inner is internal; run without it")
        inner(int(sys.argv[3]))
        return
    ndev = sum(1 for _ in open("/proc/diskstats"))
    print("screen %dx%d on this machine's /proc (%d devices): %s instructions/frame,"
          " first frame %.0f ms" % (COLS, ROWS, ndev, fmt_range(*spread(screen_ir, REPEAT), 0).strip(),
                                    first_frame_ms()))
    if os.geteuid() != 0:
        print("SKIP fixture runs: need root for a private mount namespace")
        return
    print("fixture /proc/diskstats, every device busy (instructions per sample; at 2000 the"
          " least and most of %d runs; screen/dev of the most; peak RSS of the screen once its"
          " history is full, %d frames):" % (REPEAT, FULL_FRAMES))
    print("  %6s %18s %18s %16s %14s %12s" % ("devices", "screen 120x40", "wbtop -b -q", "screen's own",
                                              "in curses", "screen/dev"))
    sys.stdout.flush()
    for n in CURVE:
        subprocess.check_call(["unshare", "-m", "--propagation", "private", sys.executable,
                               os.path.abspath(__file__), WBTOP, "--inner", str(n)],
                              env=dict(os.environ, WBTOP_BENCH_PRIVATE_NS="1"))


if __name__ == "__main__":
    main()
