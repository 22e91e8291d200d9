#!/bin/sh
# --set on the BDI limits of a loop device the test makes, named by kernel
# name, /dev path, MAJ:MIN and device-mapper name.  The limits are put back
# on exit (a detached loop device keeps its BDI and its limits).
. "$E2E_LIB"
need_root "makes a loop device"
need_tool losetup mount
truncate -s 64M "$TMP/disk.img"
LOOP=$(losetup -f --show "$TMP/disk.img" 2>/dev/null) || skip "cannot make a loop device"
on_exit "losetup -d $LOOP 2>/dev/null"
NAME=${LOOP#/dev/}
DEVNO=$(cat /sys/class/block/$NAME/dev)
BDI=/sys/class/bdi/$DEVNO
[ -d "$BDI" ] || skip "$NAME has no BDI"
restore_bdi() { # $1: the BDI directory
	echo 0 >"$1/min_ratio"; echo 100 >"$1/max_ratio"; echo 0 >"$1/strict_limit"
}
restore_bdi "$BDI"
on_exit "restore_bdi $BDI"
run() { "$WBTOP" "$@" >"$TMP/out" 2>"$TMP/err"; RC=$?; }
show() { echo "--- stdout"; cat "$TMP/out"; echo "--- stderr"; cat "$TMP/err"; }
expect_rc() { [ "$RC" = "$1" ] || { show; fail "$2: exit $RC, want $1"; }; }
expect_out() { grep -qF -- "$1" "$TMP/out" || { show; fail "stdout lacks: $1"; }; }
expect_err() { grep -qF -- "$1" "$TMP/err" || { show; fail "stderr lacks: $1"; }; }

# By kernel name, and two knobs of one device at once.
run --set "bdi:$NAME:max_ratio=50" --set "bdi:$NAME:strict_limit=1"
expect_rc 0 "by name"
expect_out "bdi:$NAME:max_ratio 100 -> 50: ok"
expect_out "bdi:$NAME:strict_limit 0 -> 1: ok"
[ "$(cat $BDI/max_ratio)" = 50 ] && [ "$(cat $BDI/strict_limit)" = 1 ] || fail "not written"

# By MAJ:MIN and by /dev path.
run --set "bdi:$DEVNO:max_ratio=40"
expect_rc 0 "by MAJ:MIN"
expect_out "bdi:$NAME:max_ratio 50 -> 40: ok"
run --set "bdi:$LOOP:min_ratio=1"
expect_rc 0 "by /dev path"
[ "$(cat $BDI/min_ratio)" = 1 ] || fail "min_ratio not written"

# The kernel's min <= max rule is checked before writing: exit 2, nothing written.
run --set "bdi:$NAME:strict_limit=0" --set "bdi:$NAME:min_ratio=60"
expect_rc 2 "min above max"
expect_err "would be above max_ratio (40.0000%)"
[ "$(cat $BDI/strict_limit)" = 1 ] || fail "written despite invalid input"
# ...but in the order given, raising max first makes it valid.
run --set "bdi:$NAME:max_ratio=80" --set "bdi:$NAME:min_ratio=60"
expect_rc 0 "max then min"
[ "$(cat $BDI/min_ratio)" = 60 ] || fail "min_ratio not written"
run --set "bdi:$NAME:min_ratio=0" --set "bdi:$NAME:max_ratio=100"
expect_rc 0 "back to defaults"

# max_bytes (kernel 6.2+): kept as a share of the dirty limit.
if [ -e "$BDI/max_bytes" ]; then
	thresh=$(awk '$1 == "nr_dirty_threshold" { printf "%.0f", $2 * p }' p="$(getconf PAGESIZE)" /proc/vmstat)
	half=$((thresh / 2))
	run --set "bdi:$NAME:max_bytes=$half"
	expect_rc 0 "max_bytes half the limit"
	r=$(cat $BDI/max_ratio)
	[ "$r" -ge 45 ] && [ "$r" -le 55 ] || { show; fail "max_ratio after max_bytes=$half: $r"; }
	run --set "bdi:$NAME:max_bytes=$((thresh * 4))"
	expect_rc 2 "max_bytes above the dirty limit"
	expect_err "more than the whole dirty limit"
	echo 100 >"$BDI/max_ratio"
fi

# Names that are not devices.
run --set "bdi:no-such-disk-$$:max_ratio=5"
expect_rc 2 "unknown device"
expect_err "no block device \"no-such-disk-$$\""
run --set "bdi:../$NAME:max_ratio=5"
expect_rc 2 "path in a name"

# By device-mapper name, when device-mapper is there.
if command -v dmsetup >/dev/null && dmsetup version >/dev/null 2>&1; then
	DM=wbtop-t-$$
	if dmsetup create "$DM" --table "0 $((64 * 2048)) linear $LOOP 0" 2>/dev/null; then
		on_exit "dmsetup remove $DM 2>/dev/null"
		DMNO=$(cat /sys/block/$(basename "$(readlink -f /dev/mapper/$DM)")/dev)
		on_exit "restore_bdi /sys/class/bdi/$DMNO"
		run --set "bdi:$DM:max_ratio=30"
		expect_rc 0 "by dm name"
		expect_out "bdi:$DM:max_ratio 100 -> 30: ok"
		[ "$(cat /sys/class/bdi/$DMNO/max_ratio)" = 30 ] || fail "dm max_ratio not written"
		run --set "bdi:/dev/mapper/$DM:max_ratio=100"
		expect_rc 0 "by /dev/mapper path"
	else
		echo "note: dmsetup create failed; dm names not tested"
	fi
else
	echo "note: no device-mapper here; dm names not tested"
fi
echo ok
