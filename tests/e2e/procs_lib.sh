# Helpers of the process-table tests (t_procs_*.sh); source after $E2E_LIB.

# The number of process tables (-P) in FILE so far.
# (0 before FILE exists: the shell that starts wbtop in the background may not have
# opened it yet on a loaded machine)
procs_tables() { _c=$(grep -c '^procs [0-9]* tasks:' "$1" 2>/dev/null); echo "${_c:-0}"; }

# Wait until FILE holds N process tables: each comes one interval after the
# one before, so this waits for what wbtop sampled, not for a time.  PID is
# wbtop's: when it has exited, no more will come.
procs_wait_tables() {
	_f=$1 _n=$2 _pid=$3
	while [ "$(procs_tables "$_f")" -lt "$_n" ]; do
		kill -0 "$_pid" 2>/dev/null || { cat "$_f"; fail "wbtop exited before $_n process tables"; }
		sleep 0.1
	done
}

# The rows of FILE's process tables as "TABLE PID S WKBS SHARE KIND DEV COMMAND...",
# columns found by the header's names.
procs_rows() {
	awk '/^procs [0-9]+ tasks:/ { t++; inproc = 1; next }
	     inproc && $1 == "PID" { for (i = 1; i <= NF; i++) col[$i] = i; next }
	     inproc && NF == 0 { inproc = 0; next }
	     inproc { cmd = ""; for (i = col["command"]; i <= NF; i++) cmd = cmd " " $i
		      print t, $1, $2, $3, $col["share%"], $col["kind"], $col["dev"] cmd }' "$1"
}

# Each table's summary write rate and its rows' sum: "TABLE TOTAL SUM ROWS"
# (the sum printed to 0.01: awk's %.6g would round 614478.4 to 614478).
procs_sums() {
	awk '/^procs [0-9]+ tasks:/ { t++; inproc = 1; total[t] = 0; sum[t] = 0; n[t] = 0
		for (i = 1; i < NF; i++) if ($i == "writing") total[t] = $(i + 1); next }
	     inproc && $1 == "PID" { next }
	     inproc && NF == 0 { inproc = 0; next }
	     inproc { if ($3 != "-" && $3 != "hidden") sum[t] += $3; n[t]++ }
	     END { for (k = 1; k <= t; k++) printf "%d %s %.2f %d\n", k, total[k], sum[k], n[k] }' "$1"
}

# Every table's rows add up to its summary (each row is rounded to 0.1), and
# no share is above 100.
procs_check_sums() {
	_bad=$(procs_sums "$1" | awk '{ d = $2 - $3; if (d < 0) d = -d
		if (d > 0.05 * ($4 + 1) + 1e-6) { print "table " $1 ": rows add up to " $3 ", total " $2; bad = 1 } }
		END { exit bad }') || { cat "$1"; fail "rows do not add up to the total: $_bad"; }
	procs_rows "$1" | awk '$5 != "-" && $5 + 0 > 100 { print; bad = 1 } END { exit bad }' ||
		{ cat "$1"; fail "a share above 100%"; }
}

# Each interval's wkB/s of device DEV in FILE's device tables: "TABLE WKBS".
procs_dev_wkbs() {
	awk -v dev="$2" '$1 == "device" { t++; for (i = 1; i <= NF; i++) col[$i] = i; indev = 1; next }
	     indev && NF == 0 { indev = 0 }
	     indev && $1 == dev { print t, $col["wkB/s"] }' "$1"
}

# A writer of new data: python3 writes 1 MiB at a time, every 100 ms, to
# each FILE in turn (O_DIRECT with -d), until killed; each file grows (pages
# already dirty would not count again: write_bytes counts a page going from
# clean to dirty), up to 256 MiB, where the writer stops writing.  Its
# output goes nowhere: a file open for writing is a device it writes to.
# Sets WRITER_PID.
start_writer() {
	python3 - "$@" > /dev/null 2>&1 <<'EOF' &
import mmap, os, sys, time
args = sys.argv[1:]
direct = args and args[0] == "-d"
paths = args[1:] if direct else args
flags = os.O_WRONLY | os.O_CREAT | (os.O_DIRECT if direct else 0)
fds = [os.open(p, flags, 0o644) for p in paths]
buf = mmap.mmap(-1, 1 << 20)	# page-aligned, as O_DIRECT wants
buf.write(b"\x5a" * (1 << 20))
off = 0
while True:
    if off < (256 << 20):
        for fd in fds:
            os.pwrite(fd, buf, off)
        off += 1 << 20
    time.sleep(0.1)
EOF
	WRITER_PID=$!
	on_exit "kill $WRITER_PID 2>/dev/null; wait $WRITER_PID 2>/dev/null"
}

# Wait until each FILE has grown past 2 MiB: its writer is writing.
procs_wait_written() {
	for _f in "$@"; do
		while [ "$(stat -c %s "$_f" 2>/dev/null || echo 0)" -lt $((2 << 20)) ]; do
			[ -z "${WRITER_PID:-}" ] || kill -0 "$WRITER_PID" 2>/dev/null || fail "a writer died"
			sleep 0.1
		done
	done
}
