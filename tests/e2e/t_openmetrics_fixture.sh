#!/bin/sh
# Exact OpenMetrics values from known input, as root:
#  1. fixture /proc/meminfo, /proc/vmstat and /proc/diskstats bind-mounted
#     in a private mount namespace: every system figure and device counter
#     in base units, to the byte (sectors * 512, pages * page size, ms /
#     1000), the 4-, 11-, 15- and 17-field diskstats formats each exporting
#     exactly the counters they have;
#  2. a real loop device with an ext4 filesystem mounted on a directory
#     whose name needs escaping (" and \): its labels carry the stable key
#     and the mount point (as mountinfo writes it) back through a strict
#     parser, --devices keeps only it, and 32 MiB written with O_DIRECT
#     show up in its written-bytes counter.
. "$E2E_LIB"
need_root "bind-mounts fixtures over /proc, makes a loop device"
unshare -m true 2>/dev/null || skip "unshare -m not permitted here"
CHECK="python3 $(dirname "$E2E_LIB")/om_check.py"
PAGE=$(getconf PAGESIZE)

# ---- 1. fixtures ------------------------------------------------------
FX=$TMP/fx
mkdir -p "$FX"
sed -e 's/^Dirty:.*/Dirty:             12345 kB/' -e 's/^Writeback:.*/Writeback:           678 kB/' \
	/proc/meminfo >"$FX/meminfo"
awk '$1 == "nr_dirty" { $2 = 111 } $1 == "nr_writeback" { $2 = 22 }
     $1 == "nr_dirty_threshold" { $2 = 3333 } $1 == "nr_dirty_background_threshold" { $2 = 1111 }
     $1 == "nr_dirtied" { $2 = 5555 } $1 == "nr_written" { $2 = 4444 } { print }' /proc/vmstat >"$FX/vmstat"
# Majors no real driver uses, so no identity of a real device is found.
cat >"$FX/diskstats" <<'EOF'
 4000       1 fxold 7 8 9 10
 4000       2 fx11 1 2 3 4005 5 6 7 8009 9 10010 11011
 4000       3 fx15 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15015
 4000       4 fx17 1 2 3 4 5 6 18014398509481984 8 9 10 11 12 13 14 15 16 17017
EOF
cat >"$TMP/ns.sh" <<NS
for f in meminfo vmstat diskstats; do mount --bind "$FX/\$f" "/proc/\$f" || exit 90; done
"\$WBTOP" -b --format openmetrics -n 1
NS
WBTOP=$WBTOP unshare -m sh "$TMP/ns.sh" >"$TMP/fx.om" 2>"$TMP/err" || fail "wbtop on fixtures exited $?: $(cat "$TMP/err")"
$CHECK "$TMP/fx.om" || fail "fixture exposition is not valid"

# expect VALUE METRIC [LABEL=VALUE ...]
expect() {
	want=$1
	shift
	got=$($CHECK --get "$@" "$TMP/fx.om") || fail "--get $*"
	[ "$got" = "$want" ] || fail "$*: got $got, want $want"
}
expect $((12345 * 1024)) wbtop_dirty_bytes
expect $((678 * 1024)) wbtop_writeback_bytes
expect 111 wbtop_nr_dirty_pages
expect 22 wbtop_nr_writeback_pages
expect $((3333 * PAGE)) wbtop_dirty_threshold_bytes
expect $((1111 * PAGE)) wbtop_dirty_background_threshold_bytes
expect 5555 wbtop_dirtied_pages_total
expect 4444 wbtop_written_pages_total
expect "$PAGE" wbtop_page_size_bytes
expect 0 wbtop_write_dip

expect 7 wbtop_device_reads_completed_total device=fxold
expect $((8 * 512)) wbtop_device_read_bytes_total device=fxold
expect 9 wbtop_device_writes_completed_total device=fxold
expect $((10 * 512)) wbtop_device_written_bytes_total device=fxold
expect 4.005 wbtop_device_read_time_seconds_total device=fx11
expect 8.009 wbtop_device_write_time_seconds_total device=fx11
expect 10.01 wbtop_device_io_time_seconds_total device=fx11
expect 11.011 wbtop_device_io_time_weighted_seconds_total device=fx11
expect 9 wbtop_device_ios_in_flight device=fx11
expect 15.015 wbtop_device_discard_time_seconds_total device=fx15
expect $((14 * 512)) wbtop_device_discarded_bytes_total device=fx15
expect 17.017 wbtop_device_flush_time_seconds_total device=fx17
expect 16 wbtop_device_flushes_completed_total device=fx17
expect 0 wbtop_device_write_dip device=fx17
# 2^54 sectors is 2^63 bytes: exact in the text, past int64
grep -q '^wbtop_device_written_bytes_total{device="fx17"[^}]*} 9223372036854775808$' "$TMP/fx.om" ||
	fail "2^63 bytes not written exactly: $(grep 'written_bytes_total{device="fx17"' "$TMP/fx.om")"

# Which formats export which counters: exactly the fields the line has.
$CHECK --dump "$TMP/fx.om" | python3 -c '
import json, sys
have = {}
for line in sys.stdin:
    s = json.loads(line)
    d = s["labels"].get("device", "")
    if d.startswith("fx"):
        have.setdefault(d, set()).add(s["name"])
want = {"fxold": 5, "fx11": 12, "fx15": 16, "fx17": 18}   # counters + the dip gauge
bad = {d: len(have.get(d, ())) for d in want if len(have.get(d, ())) != want[d]}
if bad:
    print("metrics per device:", bad, "want", want)
    for d in bad: print(d, sorted(have.get(d, ())))
    sys.exit(1)
' || fail "counters exported per diskstats format"

# ---- 2. a real device with an awkward mount point ------------------------
make_loop_fs 96 "$TMP/plain" || fail "could not make a loop filesystem"
name=$(basename "$LOOPDEV")
umount "$TMP/plain" || fail "umount"
WEIRD="$TMP/m\"q\\b"
mkdir "$WEIRD" || fail "mkdir $WEIRD"
mount "$LOOPDEV" "$WEIRD" || fail "mount on $WEIRD"
on_exit 'umount -l "$WEIRD" 2>/dev/null'
sync
"$WBTOP" -b --format openmetrics -n 1 --devices "^$name\$" >"$TMP/a.om" 2>"$TMP/err" || fail "wbtop: $(cat "$TMP/err")"
dd if=/dev/zero of="$WEIRD/f" bs=1M count=32 oflag=direct 2>/dev/null || fail "dd"
"$WBTOP" -b --format openmetrics -n 1 --devices "^$name\$" >"$TMP/b.om" 2>"$TMP/err" || fail "wbtop: $(cat "$TMP/err")"
for f in a b; do $CHECK "$TMP/$f.om" || fail "$f.om is not valid"; done

$CHECK --dump "$TMP/b.om" | python3 -c '
import json, sys
name, weird = sys.argv[1], sys.argv[2]
# mount points are kept as /proc/self/mountinfo escapes them (and findmnt
# shows them): a backslash is \134, so spaces can separate several mounts
weird = weird.replace("\\", "\\134")
devs, bad = set(), 0
for line in sys.stdin:
    s = json.loads(line)
    if "device" not in s["labels"]:
        continue
    devs.add(s["labels"]["device"])
    if s["name"] == "wbtop_device_written_bytes_total":
        l = s["labels"]
        print("labels:", l)
        if l.get("mounts") != weird:
            print("mounts label", repr(l.get("mounts")), "want", repr(weird)); bad = 1
        if not l.get("key", "").startswith("fs:"):
            print("key label", repr(l.get("key")), "is not the filesystem UUID"); bad = 1
if devs != {name}:
    print("--devices kept", sorted(devs), "want", name); bad = 1
sys.exit(bad)
' "$name" "$WEIRD" || fail "labels of $name"

a=$($CHECK --get wbtop_device_written_bytes_total device="$name" "$TMP/a.om") || fail "--get a"
b=$($CHECK --get wbtop_device_written_bytes_total device="$name" "$TMP/b.om") || fail "--get b"
echo "written: $a -> $b"
awk -v a="$a" -v b="$b" 'BEGIN { d = b - a; w = 32 * 1048576; exit !(d >= w && d <= w + 4 * 1048576) }' ||
	fail "written bytes grew by $((b - a)), want 32 MiB (+ at most 4 MiB of metadata)"
exit 0
