#!/bin/sh
# The process sample's cost at 5000 tasks (issue 31): callgrind instructions
# per sample of `wbtop -b -P` with 5000 sleeping processes and four writers
# (each read its threads' counters and open files: their /proc/PID/io moves
# every interval), taken as the difference between a run of 12 and one of
# 2 intervals, over the 10 extra samples.  Root: the writers' taskstats
# records are read too.
set -u
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
wbtop=${WBTOP:-$root/wbtop}
command -v valgrind >/dev/null || { echo "procs bench: valgrind missing, skipped"; exit 0; }
n=5000
tmp=$(mktemp -d /tmp/wbtop-pb.XXXXXX)
pids=""
cleanup() { kill $pids 2>/dev/null; wait 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
i=0
while [ $i -lt $n ]; do sleep 600 & pids="$pids $!"; i=$((i + 1)); done
for w in 1 2 3 4; do
	sh -c "while :; do dd if=/dev/zero of=$tmp/w$w bs=64k count=16 conv=notrunc 2>/dev/null; sleep 0.05; done" &
	pids="$pids $!"
done
ir() {	# instructions of wbtop -b -P -d 0.2 -n N
	valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.$1" "$wbtop" -b -P -d 0.2 -n "$1" \
		> /dev/null 2>&1 || return 1
	callgrind_annotate "$tmp/cg.$1" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1; exit }'
}
a=$(ir 2) && b=$(ir 12) || { echo "procs bench: callgrind failed"; exit 1; }
tasks=$(ls -d /proc/[0-9]* 2>/dev/null | wc -l)
echo "procs sample at $tasks tasks (5000 sleeping, 4 writers): $(( (b - a) / 10 )) instructions a sample" \
     "($(( (b - a) / 10 / tasks )) a task)"
