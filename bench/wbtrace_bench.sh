#!/bin/sh
# The writeback trace source under an event flood (doc/kernel-loop.md): four
# buffered dd writers on an ext4 loop filesystem made here, vm.dirty_bytes
# 4 MiB (restored on exit), so that balance_dirty_pages fires thousands of
# times a second.  Prints the events a second, the events lost, the
# instructions per sample and per event of wbtrace_read (callgrind) and the
# native CPU time per sample.  Needs root; says so and stops otherwise.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 1
if [ "$(id -u)" != 0 ]; then
	echo "  (not root: no trace source figures)"
	exit 0
fi
out=${BUILD:-build}/bench
mkdir -p "$out"
tmp=$(mktemp -d /tmp/wbtop-wbtrace-bench.XXXXXX)
vm=/proc/sys/vm
# the host-wide knob lock of the tests (tests/e2e/lib.sh, knob_lock), held until exit
mkdir -p /run/lock && exec 8>>/run/lock/wbtop-knobs.lock && flock 8 ||
	{ echo "wbtrace_bench: cannot take /run/lock/wbtop-knobs.lock"; exit 1; }
old_ratio=$(cat $vm/dirty_ratio) old_bytes=$(cat $vm/dirty_bytes)
cleanup() {
	for w in ${writers:-}; do	# each writer loop, then the dd it is running
		kill $w 2>/dev/null
		pkill -P $w 2>/dev/null
	done
	wait 2>/dev/null
	if [ "$old_bytes" != 0 ]; then echo "$old_bytes" > $vm/dirty_bytes; else echo "$old_ratio" > $vm/dirty_ratio; fi
	flock -u 8
	umount -l "$tmp/mnt" 2>/dev/null
	[ -n "${dev:-}" ] && losetup -d "$dev"
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
# The probe, optimised as ./wbtop is: built by make (make bench, make check) from the
# program's own objects, so that a change of what it links fails there.
[ -x "$out/wbprobe" ] || make -s "$out/wbprobe" || { echo "wbtrace_bench: build failed"; exit 1; }
truncate -s 3G "$tmp/flood.img" && dev=$(losetup -f --show "$tmp/flood.img") &&
	mkfs.ext4 -q -F "$dev" >/dev/null 2>&1 && mkdir "$tmp/mnt" && mount "$dev" "$tmp/mnt" ||
	{ echo "wbtrace_bench: no loop filesystem"; exit 1; }
echo $((4 * 1024 * 1024)) > $vm/dirty_bytes || exit 1

flood() {	# four writers, each rewriting its file
	writers=""
	for i in 1 2 3 4; do
		( while :; do dd if=/dev/zero of="$tmp/mnt/f$i" bs=64k count=6000 2>/dev/null; done ) &
		writers="$writers $!"
	done
}
sum() { awk -v k="$1" '$1 == "interval" { for (i = 2; i <= NF; i++) if (index($i, k "=") == 1) s += substr($i, length(k) + 2) } END { print s + 0 }' "$2"; }

flood
sleep 1
n=20
"$out/wbprobe" -d 0.5 -n $n > "$tmp/native.out" 2>&1 &
p=$!
wait $p || { cat "$tmp/native.out"; exit 1; }
ev=$(sum events "$tmp/native.out") lost=$(sum lost "$tmp/native.out")
echo "flood: $((ev * 2 / n)) events/s decoded, $lost lost over $((n / 2)) s (4 dd, vm.dirty_bytes 4 MiB)"
python3 - "$out/wbprobe" <<'EOF'
import resource, subprocess, sys
r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
out = subprocess.run([sys.argv[1], "-d", "0.5", "-n", "20"], capture_output=True, text=True, check=True).stdout
r = resource.getrusage(resource.RUSAGE_CHILDREN)
ev = sum(int(w.split("=")[1]) for line in out.splitlines() if line.startswith("interval")
         for w in line.split() if w.startswith("events="))
cpu = (r.ru_utime - r0.ru_utime) + (r.ru_stime - r0.ru_stime)
print("native: %.0f us CPU a sample of 0.5 s (%d events a sample), %.2f us an event, start-up included"
      % (cpu / 20 * 1e6, ev / 20, cpu * 1e6 / max(ev, 1)))
EOF
if command -v valgrind >/dev/null 2>&1; then
	valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" --toggle-collect=wbtrace_read \
		"$out/wbprobe" -d 0.5 -n $n > "$tmp/cg.probe" 2> "$tmp/cg.err" || { cat "$tmp/cg.err"; exit 1; }
	ir=$(sed -n 's/^totals: *\([0-9]*\).*/\1/p' "$tmp/cg.out")
	[ -n "$ir" ] || ir=$(sed -n 's/^summary: *\([0-9]*\).*/\1/p' "$tmp/cg.out")
	ev=$(sum events "$tmp/cg.probe") lost=$(sum lost "$tmp/cg.probe")
	echo "callgrind: wbtrace_read $((ir / n)) instructions a sample, $((ir / (ev > 0 ? ev : 1))) an event ($((ev / n)) events a sample, $lost lost under valgrind)"
else
	echo "  (valgrind not installed: no instruction counts)"
fi
