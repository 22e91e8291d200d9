# Helpers for the screen tests (t_screen*.sh); source after "$E2E_LIB".
#
# The monitor runs in a tmux pane on fixture /proc files: inside its own
# mount namespace (unshare -m) /proc/diskstats, /proc/vmstat, /proc/stat,
# /proc/meminfo and /proc/sys/vm/dirty_* are bind-mounts of files in $FX,
# which a driver (python3, below) rewrites in place every 5 ms from a
# scenario.  Counters are integrals of the scenario's rates over time, so
# every interval wbtop samples sees the scripted rates whatever its phase.
#
#   scr_setup                  check what the tests need, make $FX
#   scr_setup_live             only tmux: for wbtop on this machine's /proc
#   scr_scenario < FILE        the scenario (format below)
#   scr_driver_start           start the fixture driver (scr_start does it too)
#   scr_start COLS ROWS [ENV...] -- [WBTOP ARGS...]
#   scr_start_live COLS ROWS [ENV...] -- [WBTOP ARGS...]  the same on the real /proc
#   scr_fixture_run [WBTOP ARGS...]  wbtop on the fixture, not in tmux (-b, -w);
#                              stdout in $TMP/fx.out, stderr in $TMP/fx.err
#   scr_wait TEXT [SECONDS]    until the pane shows TEXT (grep -F)
#   scr_wait_re RE [SECONDS]   the same with an extended regex
#   scr_wait_mark CHAR [SECS]  until the graph's mark row shows CHAR
#   scr_keys KEY...            tmux send-keys
#   scr_cap                    the pane, also saved in $TMP/pane
#   scr_quit                   press q; check exit 0, terminal modes back
#   scr_ended WHAT [STATUS]    wait for the end; check status, terminal modes
#   scr_pid                    wbtop's pid in the pane
#   scr_stop                   end the tmux session
#
# Scenario lines (times in seconds since the driver started):
#   dev NAME MAJOR MINOR       a device in /proc/diskstats
#   at T NAME key=value...     from T on; NAME is a device or "sys"
#     device keys: w, r (KiB/s), wsz (KiB per write, default 64), util (%),
#                  flush (per second)
#     sys keys: dirty, wb, thresh, bg (KiB; thresh=auto: from the vm
#               fixture knobs as the kernel would), dirtied, written (KiB/s),
#               run, blocked
SCR_TMUX=""
# A wait's seconds are a bound for a failure, not a measurement: they are
# stretched (by 4 unless SCR_WAIT_SCALE says) so that a loaded machine, slow to
# start a sanitized wbtop or to draw, fails no test; a wait that is met ends at once.
SCR_WAIT_SCALE=${SCR_WAIT_SCALE:-4}
# wbtop on the fixture runs at a real-time priority too, below the driver's:
# descheduled between its clock and its reads by a loaded machine, it would
# divide one interval's counts by another's time and see dips nobody scripted.
SCR_RT=""
chrt -f 5 true 2>/dev/null && SCR_RT="chrt -f 5"

scr_setup_live() {
	need_tool tmux tmux
	SCR_TMUX="tmux -S $TMP/tmux.sock"
}

scr_setup() {
	need_root "bind mounts over /proc in a private mount namespace"
	need_tool tmux tmux
	need_tool python3 python3
	unshare -m true 2>/dev/null || skip "unshare -m not permitted here"
	FX=$TMP/fx
	mkdir -p "$FX/vm"
	for k in dirty_ratio:20 dirty_background_ratio:10 dirty_bytes:0 dirty_background_bytes:0 \
		 dirty_expire_centisecs:3000 dirty_writeback_centisecs:500 dirtytime_expire_seconds:43200; do
		echo "${k#*:}" >"$FX/vm/${k%%:*}"
	done
	SCR_TMUX="tmux -S $TMP/tmux.sock"
	scr_write_driver
}

scr_scenario() {
	cat >"$FX/scenario"
}

# Two devices writing steadily; fixa drops to 30% at 5 s for 0.6 s (a dip).
scr_scenario_dip() {
	scr_scenario <<'EOF'
dev fixa 240 0
dev fixb 240 16
at 0 fixa w=20480 util=60
at 0 fixb w=8192 util=30
at 0 sys dirty=102400 wb=20480 dirtied=28672 written=28672
at 5 fixa w=6144
at 5.6 fixa w=20480
EOF
}

scr_write_driver() {
	cat >"$FX/driver.py" <<'PY'
import os, sys, time
fx = sys.argv[1]
KIB_PER_PAGE = 4
devs, order, phases = {}, [], []
for line in open(os.path.join(fx, "scenario")):
    w = line.split()
    if not w or w[0].startswith("#"):
        continue
    if w[0] == "dev":
        order.append(w[1]); devs[w[1]] = (int(w[2]), int(w[3]))
    elif w[0] == "at":
        phases.append((float(w[1]), w[2], dict(kv.split("=") for kv in w[3:])))
phases.sort(key=lambda p: p[0])
# each name's own phases: the counters of thousands of devices are integrated
# every few milliseconds, and must not each walk every device's phases
by_name = {}
for at, name, kv in phases:
    by_name.setdefault(name, []).append((at, kv))

def knob(name):
    try:
        return int(open(os.path.join(fx, "vm", name)).read())
    except (OSError, ValueError):
        return 0

DIRTYABLE_KB = 4000000   # what the fixture's ratios are taken of
def thresholds():
    b, r = knob("dirty_bytes"), knob("dirty_ratio")
    bb, br = knob("dirty_background_bytes"), knob("dirty_background_ratio")
    hard = b // 1024 if b else DIRTYABLE_KB * r // 100
    bg = bb // 1024 if bb else DIRTYABLE_KB * br // 100
    return hard, bg

def state_at(t):
    """Rates and gauges in force at time t, per name."""
    st = {n: {} for n in order + ["sys"]}
    for name, ph in by_name.items():
        for at, kv in ph:
            if at > t:
                break
            st.setdefault(name, {}).update(kv)
    return st

# integrate piecewise-constant rates from 0 to t
def integral(name, key, t, scale=1.0):
    total, last_t, rate = 0.0, 0.0, 0.0
    for at, kv in by_name.get(name, ()):
        if at > t:
            break
        if key in kv:
            total += rate * (at - last_t)
            last_t, rate = at, float(kv[key]) * scale
    return total + rate * (t - last_t)

def g(kv, key, default):
    return float(kv.get(key, default))

def num(v):
    return "%16d" % int(v)

def write(path, text):
    data = text.encode()
    fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o644)
    try:
        os.pwrite(fd, data, 0)
        os.ftruncate(fd, len(data))
    finally:
        os.close(fd)

def diskstats(t, st):
    out = []
    for n in order:
        kv = st[n]
        maj, mnr = devs[n]
        wkb = integral(n, "w", t)
        rkb = integral(n, "r", t)
        wsz = g(kv, "wsz", 64)
        wios = wkb / wsz
        rios = rkb / 64
        busy_ms = integral(n, "util", t, 10.0)   # util % -> ms of busy per second
        fl = integral(n, "flush", t)
        f = [rios, 0, rkb * 2, rios * 0.5, wios, 0, wkb * 2, wios * 2.0,
             0, busy_ms, busy_ms, 0, 0, 0, 0, fl, fl * 0.2]
        out.append("%4d %7d %s " % (maj, mnr, n) + " ".join(num(x) for x in f) + "\n")
    return "".join(out)

def vmstat(t, st, template):
    kv = st["sys"]
    hard, bg = thresholds()
    if kv.get("thresh", "auto") != "auto":
        hard = g(kv, "thresh", 0)
    if kv.get("bg", "auto") != "auto":
        bg = g(kv, "bg", 0)
    wkb = sum(integral(n, "w", t) for n in order)
    rkb = sum(integral(n, "r", t) for n in order)
    vals = {
        "nr_dirty": g(kv, "dirty", 0) / KIB_PER_PAGE,
        "nr_writeback": g(kv, "wb", 0) / KIB_PER_PAGE,
        "nr_dirtied": integral("sys", "dirtied", t) / KIB_PER_PAGE,
        "nr_written": integral("sys", "written", t) / KIB_PER_PAGE,
        "nr_dirty_threshold": hard / KIB_PER_PAGE,
        "nr_dirty_background_threshold": bg / KIB_PER_PAGE,
        "pgpgin": rkb, "pgpgout": wkb,
    }
    return "".join("%s %s\n" % (k, num(vals.get(k, 0))) for k in template)

def meminfo(t, st, template):
    kv = st["sys"]
    vals = {"MemTotal": 8000000, "MemFree": 3000000, "MemAvailable": 5000000,
            "Buffers": 100000, "Cached": 2000000, "SReclaimable": 100000,
            "Dirty": g(kv, "dirty", 0), "Writeback": g(kv, "wb", 0),
            "SwapTotal": 0, "SwapFree": 0}
    return "".join("%-16s%16d kB\n" % (k + ":", vals.get(k, 0)) for k in template)

def stat(t, st):
    kv = st["sys"]
    hz = 100 * t
    cpu = [hz * 0.1, 0, hz * 0.1, hz * 0.7, hz * 0.1, 0, 0, 0, 0, 0]
    line = " ".join(num(x) for x in cpu)
    return ("cpu  %s\ncpu0 %s\nintr %s\nctxt %s\nbtime 1700000000\nprocesses %s\n"
            "procs_running %s\nprocs_blocked %s\n" %
            (line, line, num(1000 * t), num(2000 * t), num(100),
             num(g(kv, "run", 1)), num(g(kv, "blocked", 0))))

vm_names = [l.split()[0] for l in open("/proc/vmstat")]
mem_names = [l.split(":")[0] for l in open("/proc/meminfo")]
t0 = time.monotonic()
deadline = t0 + float(os.environ.get("SCR_DRIVER_SECONDS", "120"))
while time.monotonic() < deadline:
    t = time.monotonic() - t0
    started = time.monotonic()
    st = state_at(t)
    write(os.path.join(fx, "diskstats"), diskstats(t, st))
    write(os.path.join(fx, "vmstat"), vmstat(t, st, vm_names))
    write(os.path.join(fx, "meminfo"), meminfo(t, st, mem_names))
    write(os.path.join(fx, "stat"), stat(t, st))
    if len(sys.argv) > 2 and not os.path.exists(sys.argv[2]):
        open(sys.argv[2], "w").close()   # the files exist: wbtop may start
    # at most half of a CPU, whatever the device count (it runs at a real-time priority)
    time.sleep(max(0.005, time.monotonic() - started))
PY
}

# One driver for all the runs of a test; its clock starts now.
scr_driver_start() {
	[ -e "$FX/ready" ] && return 0
	# at a real-time priority where it may (root): a driver that a loaded machine
	# starves writes stale counters, and wbtop would see rates nobody scripted
	rt=""
	chrt -f 10 true 2>/dev/null && rt="chrt -f 10"
	$rt python3 "$FX/driver.py" "$FX" "$FX/ready" >"$TMP/driver.log" 2>&1 &
	drv=$!
	on_exit "kill $drv 2>/dev/null"
	i=0
	while [ ! -e "$FX/ready" ]; do
		i=$((i + 1)); [ $i -gt 400 ] && fail "the fixture driver did not start: $(cat "$TMP/driver.log")"
		sleep 0.05
	done
}

# wbtop (not in tmux) in a namespace where the fixture files are bound
# over /proc, for batch runs and recordings.
scr_fixture_run() {
	scr_driver_start
	unshare -m sh -c '
fx=$1 kernfs=$2; shift 2
for f in diskstats vmstat stat meminfo; do mount --bind "$fx/$f" "/proc/$f" || exit 90; done
for f in "$fx"/vm/*; do mount --bind "$f" "/proc/sys/vm/${f##*/}" || exit 90; done
exec $SCR_RT sh "$kernfs" "$@"' wbtop "$FX" "$KERNFS" "$WBTOP" "$@" >"$TMP/fx.out" 2>"$TMP/fx.err"
}

# scr_start COLS ROWS [VAR=VALUE...] -- [wbtop args]
scr_start() {
	cols=$1 rows=$2
	shift 2
	envs=""
	while [ $# -gt 0 ] && [ "$1" != "--" ]; do envs="$envs $1"; shift; done
	[ $# -gt 0 ] && shift
	scr_driver_start
	scr_stop
	rm -f "$TMP/rc" "$TMP/stty.before" "$TMP/stty.after" "$TMP/stderr"
	# The pane: remember the terminal modes, run wbtop in its namespace,
	# note how it ended and the modes after, then wait to be looked at.
	cat >"$TMP/pane.sh" <<EOF
trap : INT	# Ctrl-C is for wbtop: this shell goes on to note how it ended
stty -g >"$TMP/stty.before"
unshare -m sh -c '
for f in diskstats vmstat stat meminfo; do mount --bind "$FX/\$f" "/proc/\$f" || exit 90; done
for f in "$FX"/vm/*; do mount --bind "\$f" "/proc/sys/vm/\${f##*/}" || exit 90; done
# the kernel loop as on a host that has it all (the mounts of the host untouched), or
# with debugfs hidden (SCR_NO_DEBUGFS=1): what the status line says must not depend on
# what this host happens to have mounted
exec $SCR_RT env WB_HIDE_DEBUGFS=${SCR_NO_DEBUGFS:-} $envs sh "$KERNFS" "$WBTOP" "\$@"' wbtop "\$@" 2>"$TMP/stderr"
echo \$? >"$TMP/rc.tmp"
stty -g >"$TMP/stty.after"
mv "$TMP/rc.tmp" "$TMP/rc"
exec sleep 300
EOF
	scr_new_session "$@"
}

scr_new_session() {
	$SCR_TMUX new-session -d -x "$cols" -y "$rows" sh "$TMP/pane.sh" "$@" || fail "tmux new-session failed"
	[ -n "${SCR_STARTED:-}" ] || on_exit "$SCR_TMUX kill-server 2>/dev/null"
	SCR_STARTED=1
}

# scr_start_live COLS ROWS [VAR=VALUE...] -- [wbtop args]: this machine's /proc.
scr_start_live() {
	cols=$1 rows=$2
	shift 2
	envs=""
	while [ $# -gt 0 ] && [ "$1" != "--" ]; do envs="$envs $1"; shift; done
	[ $# -gt 0 ] && shift
	scr_stop
	rm -f "$TMP/rc" "$TMP/stty.before" "$TMP/stty.after" "$TMP/stderr"
	cat >"$TMP/pane.sh" <<EOF
trap : INT
stty -g >"$TMP/stty.before"
env $envs "$WBTOP" "\$@" 2>"$TMP/stderr"
echo \$? >"$TMP/rc.tmp"
stty -g >"$TMP/stty.after"
mv "$TMP/rc.tmp" "$TMP/rc"
exec sleep 300
EOF
	scr_new_session "$@"
}

# End the tmux session (and whatever still runs in it).
scr_stop() {
	$SCR_TMUX kill-server 2>/dev/null
	i=0
	while $SCR_TMUX has-session 2>/dev/null && [ $i -lt 50 ]; do i=$((i + 1)); sleep 0.05; done
}

# The pid of wbtop in the pane (the pane's shell is its parent).
scr_pid() {
	pgrep -P "$($SCR_TMUX list-panes -F '#{pane_pid}' | head -1)" | head -1
}

# Wait until wbtop has ended; check it ended well and gave the terminal back.
scr_ended() {
	i=0
	while [ ! -e "$TMP/rc" ]; do
		i=$((i + 1)); [ $i -gt $((100 * SCR_WAIT_SCALE)) ] && { scr_cap >/dev/null; scr_show; fail "$1: wbtop did not end"; }
		sleep 0.05
	done
	[ "$(cat "$TMP/rc")" = "${2:-0}" ] || { scr_cap >/dev/null; scr_show; fail "$1: wbtop exited $(cat "$TMP/rc")"; }
	cmp -s "$TMP/stty.before" "$TMP/stty.after" || fail "$1: terminal modes not restored"
}

scr_cap() {
	$SCR_TMUX capture-pane -p >"$TMP/pane" 2>/dev/null
	cat "$TMP/pane"
}

scr_show() {
	echo "--- pane:"; cat "$TMP/pane"
	echo "--- stderr:"; cat "$TMP/stderr" 2>/dev/null
}

scr_wait() {
	want=$1 secs=${2:-10}
	secs=$((secs * SCR_WAIT_SCALE))
	end=$(( $(date +%s) + secs ))
	while :; do
		scr_cap >/dev/null
		grep -qF -- "$want" "$TMP/pane" && return 0
		[ -e "$TMP/rc" ] && { scr_show; fail "wbtop exited ($(cat "$TMP/rc")) while waiting for: $want"; }
		[ "$(date +%s)" -gt "$end" ] && { scr_show; fail "the screen never showed: $want"; }
		sleep 0.1
	done
}

scr_wait_re() {
	want=$1 secs=${2:-10}
	secs=$((secs * SCR_WAIT_SCALE))
	end=$(( $(date +%s) + secs ))
	while :; do
		scr_cap >/dev/null
		grep -qE -- "$want" "$TMP/pane" && return 0
		[ -e "$TMP/rc" ] && { scr_show; fail "wbtop exited ($(cat "$TMP/rc")) while waiting for: $want"; }
		[ "$(date +%s)" -gt "$end" ] && { scr_show; fail "the screen never matched: $want"; }
		sleep 0.1
	done
}

# Until the graph's mark row (the row above the status line) shows CHAR.
scr_wait_mark() {
	secs=${2:-10}
	secs=$((secs * SCR_WAIT_SCALE))
	end=$(( $(date +%s) + secs ))
	while :; do
		scr_cap >/dev/null
		tail -2 "$TMP/pane" | head -1 | grep -qF -- "$1" && return 0
		[ "$(date +%s)" -gt "$end" ] && { scr_show; fail "no '$1' on the graph's mark row"; }
		sleep 0.1
	done
}

scr_keys() {
	$SCR_TMUX send-keys "$@"
}

# The line of the pane that matches TEXT (first one).
scr_line() {
	grep -F -- "$1" "$TMP/pane" | head -1
}

scr_quit() {
	scr_keys q
	scr_ended "q"
}
