#!/bin/sh
# A recording copied away mid-write, main file only (the -wal file left
# behind, as a power cut or a careless scp would), replays up to its last
# completed sample: each copy replays, and what it replays is a prefix of
# the full recording (its columns; a device or memory cgroup that appeared
# later adds columns to the full file only) (with --rec-sync sample: the main file is brought up
# to date after every sample; the default lags by up to 5 s).
. "$E2E_LIB"
rec=$TMP/grow.wbrec
"$WBTOP" -b -q -w "$rec" -d 0.02 --rec-sync sample &
pid=$!
on_exit "kill -9 $pid 2>/dev/null"
sleep 0.5
i=0
while [ $i -lt 30 ]; do
	cp "$rec" "$TMP/copy$i.wbrec" || fail "cp failed"
	i=$((i + 1))
	sleep 0.07
done
# follow mode readers see the live file grow meanwhile
"$WBTOP" -r "$rec" --export json >"$TMP/live-read.json" || fail "reading the file being written failed"
kill -TERM $pid
wait $pid
"$WBTOP" -r "$rec" --export csv >"$TMP/full.csv" || fail "the full recording does not replay"
i=0
while [ $i -lt 30 ]; do
	c=$TMP/copy$i.wbrec
	[ -f "$c-wal" ] && fail "a -wal file came along"
	"$WBTOP" -r "$c" --export csv >"$TMP/c.csv" 2>"$TMP/c.err" || fail "copy $i does not replay: $(cat "$TMP/c.err")"
	n=$(wc -l <"$TMP/c.csv")
	[ "$n" -ge 2 ] || fail "copy $i holds no interval"
	# a prefix: the same rows, cell for cell, in every column the copy has (the
	# full file may have more: a device or cgroup that appeared after the copy).
	# A value beside the fixed blocks (the extras and cgroups tables, outside
	# the samples' checksum) may be missing from a copy that caught a
	# checkpoint half way: an empty cell there, never a different value.
	python3 - "$TMP/full.csv" "$TMP/c.csv" "$i" "$c" "$rec" <<'EOF' || fail "copy $i is not a prefix of the recording"
import csv, sys
full = list(csv.reader(open(sys.argv[1])))
copy = list(csv.reader(open(sys.argv[2])))
col = {h: k for k, h in enumerate(full[0])}
if any(h not in col for h in copy[0]) or len(copy) > len(full):
    sys.exit("copy %s: columns or rows the full file lacks" % sys.argv[3])
# the kernel writeback loop's columns (doc/kernel-loop.md): its device
# figures, its system figures, every cgroup's
extra_dev = {"wb_dirty_kb", "wb_writeback_kb", "wb_thresh_kb", "wb_bw_kbps", "wb_dirtied_kb_s",
             "wb_written_kb_s", "throttled_ms", "pauses"}
def beside(h):
    name = h.split("@")[0]
    return ("@cg:" in h or ("@" in h and name in extra_dev) or name in ("dirty_limit_kb", "trace_lost_s")
            or (name.startswith("flush_") and name.endswith("_kb_s")))
missing = 0
for r, row in enumerate(copy[1:], 1):
    for h, v in zip(copy[0], row):
        w = full[r][col[h]]
        if v == w:
            continue
        if v == "" and beside(h):
            missing += 1
            continue
        if "@cg:" in h:	# what each file holds of that sample's cgroups, to say why
            import sqlite3
            for label, path in (("copy", sys.argv[4]), ("full", sys.argv[5])):
                db = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
                seq = db.execute("SELECT min(seq) FROM samples").fetchone()[0] + r
                print(label, "seq", seq, "cgroups", db.execute("SELECT ino, path, gone FROM cgroups WHERE seq = ?",
                      (seq,)).fetchall(), "file_dirty", db.execute(
                      "SELECT obj, value FROM extras WHERE seq = ? AND kind = 'cg_file_dirty_kb'", (seq,)).fetchall())
        sys.exit("copy %s, row %d, %s: %r, the full file %r" % (sys.argv[3], r, h, v, w))
if missing:
    print("copy %s: %d values beside the fixed blocks missing (a torn copy), none different"
          % (sys.argv[3], missing))
EOF
	i=$((i + 1))
done
exit 0
