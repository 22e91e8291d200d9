#!/bin/sh
# --set on the host's real vm knobs: the kernel's ratio/bytes interplay is
# what is read back and reported.  Every knob is put back on exit, pass or
# fail, by writing the member of each pair that was in force at the start.
. "$E2E_LIB"
need_root "writes /proc/sys/vm"
VM=/proc/sys/vm
[ -w $VM/dirty_ratio ] || skip "$VM is not writable here"
knob_lock
for k in dirty_ratio dirty_background_ratio dirty_bytes dirty_background_bytes dirty_expire_centisecs; do
	eval "orig_$k=\$(cat $VM/$k)"
done
restore() {
	if [ "$orig_dirty_bytes" -gt 0 ]; then echo "$orig_dirty_bytes" >$VM/dirty_bytes
	else echo "$orig_dirty_ratio" >$VM/dirty_ratio; fi
	if [ "$orig_dirty_background_bytes" -gt 0 ]; then echo "$orig_dirty_background_bytes" >$VM/dirty_background_bytes
	else echo "$orig_dirty_background_ratio" >$VM/dirty_background_ratio; fi
	echo "$orig_dirty_expire_centisecs" >$VM/dirty_expire_centisecs
}
on_exit restore
run() { "$WBTOP" "$@" >"$TMP/out" 2>"$TMP/err"; RC=$?; }
show() { echo "--- stdout"; cat "$TMP/out"; echo "--- stderr"; cat "$TMP/err"; }
expect_rc() { [ "$RC" = "$1" ] || { show; fail "$2: exit $RC, want $1"; }; }
expect_out() { grep -qF -- "$1" "$TMP/out" || { show; fail "stdout lacks: $1"; }; }
kv() { cat $VM/$1; }

# Start from ratios so the numbers below are known.
echo 20 >$VM/dirty_ratio
echo 10 >$VM/dirty_background_ratio
echo 3000 >$VM/dirty_expire_centisecs

# Writing dirty_bytes makes dirty_ratio read 0; the read-back says so.
run --set vm.dirty_bytes=256M
expect_rc 0 "dirty_bytes=256M"
expect_out "vm.dirty_bytes 0 -> 268435456 (256.0M): ok (dirty_ratio now 0%)"
[ "$(kv dirty_bytes)" = 268435456 ] && [ "$(kv dirty_ratio)" = 0 ] || fail "kernel state: $(kv dirty_ratio) $(kv dirty_bytes)"

# And the other way round.
run --set vm.dirty_ratio=15
expect_rc 0 "dirty_ratio=15"
expect_out "vm.dirty_ratio 0 -> 15: ok (dirty_bytes now 0)"
[ "$(kv dirty_ratio)" = 15 ] && [ "$(kv dirty_bytes)" = 0 ] || fail "kernel state: $(kv dirty_ratio) $(kv dirty_bytes)"

# The background pair: bytes then ratio, in one command, both in order.
run --set vm.dirty_background_bytes=64M --set vm.dirty_expire_centisecs=2000
expect_rc 0 "background bytes"
expect_out "vm.dirty_background_bytes 0 -> 67108864 (64.0M): ok (dirty_background_ratio now 0%)"
expect_out "vm.dirty_expire_centisecs 3000 -> 2000: ok"
[ "$(kv dirty_background_ratio)" = 0 ] || fail "background ratio not zeroed"

# Invalid input writes nothing, even the valid assignment before it.
run --set vm.dirty_ratio=12 --set vm.dirty_background_bytes=100
expect_rc 2 "background bytes below two pages"
[ "$(kv dirty_ratio)" = 15 ] && [ "$(kv dirty_background_bytes)" = 67108864 ] || fail "written despite invalid input"

echo ok
