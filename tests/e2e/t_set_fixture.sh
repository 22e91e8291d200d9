#!/bin/sh
# --set and --sysctl-conf against fixture files bind-mounted over
# /proc/sys/vm/* inside a private mount namespace: validation, exit
# statuses, all-or-nothing roll-back, read-only refusal and the sysctl.d
# round trip, without touching the host's real knobs.
. "$E2E_LIB"
need_root "bind mounts over /proc/sys/vm"
unshare -m true 2>/dev/null || skip "unshare -m not permitted here"

FX=$TMP/vm
mkdir -p "$FX"
# ratio bg_ratio bytes bg_bytes: the four pair members (the rest stay)
fx_set() {
	echo "$1" >"$FX/dirty_ratio"; echo "$2" >"$FX/dirty_background_ratio"
	echo "$3" >"$FX/dirty_bytes"; echo "$4" >"$FX/dirty_background_bytes"
	echo 3000 >"$FX/dirty_expire_centisecs"; echo 500 >"$FX/dirty_writeback_centisecs"
	echo 43200 >"$FX/dirtytime_expire_seconds"
}
fx() { cat "$FX/$1"; }
# Run a shell command with the fixtures mounted over the real knobs.
cat >"$TMP/ns.sh" <<NS
for f in "$FX"/*; do mount --bind "\$f" "/proc/sys/vm/\${f##*/}" || exit 90; done
eval "\$1"
NS
ns() { unshare -m sh "$TMP/ns.sh" "$1" >"$TMP/out" 2>"$TMP/err"; RC=$?; }
show() { echo "--- stdout"; cat "$TMP/out"; echo "--- stderr"; cat "$TMP/err"; }
expect_rc() { [ "$RC" = "$1" ] || { show; fail "$2: exit $RC, want $1"; }; }
expect_out() { grep -qF -- "$1" "$TMP/out" || { show; fail "stdout lacks: $1"; }; }
expect_err() { grep -qF -- "$1" "$TMP/err" || { show; fail "stderr lacks: $1"; }; }
one_error_line() { [ "$(wc -l <"$TMP/err")" -eq 1 ] || { show; fail "$1: want one error line"; }; }

# --- a plain change: old -> new printed, the file holds it
fx_set 20 10 0 0
ns '"$WBTOP" --set vm.dirty_ratio=10 --set dirty_background_ratio=5'
expect_rc 0 "valid --set"
expect_out "vm.dirty_ratio 20 -> 10: ok"
expect_out "vm.dirty_background_ratio 10 -> 5: ok"
[ "$(fx dirty_ratio)" = 10 ] && [ "$(fx dirty_background_ratio)" = 5 ] || fail "values not written"

# --- bytes with a suffix
ns '"$WBTOP" --set vm.dirty_bytes=512M'
expect_rc 0 "dirty_bytes=512M"
expect_out "vm.dirty_bytes 0 -> 536870912 (512.0M): ok"
[ "$(fx dirty_bytes)" = 536870912 ] || fail "dirty_bytes not written"

# --- invalid input: exit 2, one line naming the value, nothing written
fx_set 20 10 0 0
for bad in vm.dirty_ratio=101 vm.dirty_bytes=4096 vm.dirty_bytes=0 vm.dirty_ratio=-5 \
	   vm.dirty_ratio=ten vm.dirty_ratio= vm.no_such_knob=1 dirty_ratio bdi:no-such-disk:max_ratio=5 \
	   bdi:loop0:no_such_knob=1; do
	ns "\"\$WBTOP\" --set vm.dirty_expire_centisecs=1000 --set '$bad'"
	expect_rc 2 "--set $bad"
	one_error_line "--set $bad"
	expect_err "wbtop: --set '$bad':"
	[ -s "$TMP/out" ] && { show; fail "--set $bad printed results"; }
	[ "$(fx dirty_expire_centisecs)" = 3000 ] || fail "--set $bad: the valid one was written"
done
ns '"$WBTOP" --set vm.dirty_ratio=101'
expect_err "out of range: vm.dirty_ratio takes 0% to 100%"
ns '"$WBTOP" --set vm.dirty_bytes=4096'
expect_err "below two pages"
# one setting given twice (a ratio/bytes pair)
ns '"$WBTOP" --set vm.dirty_bytes=1G --set vm.dirty_ratio=5'
expect_rc 2 "pair given twice"
expect_err "one setting"
[ "$(fx dirty_bytes)" = 0 ] || fail "pair given twice: written"

# --- a warning does not stop the change; it is judged on the final values
ns '"$WBTOP" --set vm.dirty_ratio=8 --set vm.dirty_background_ratio=4'
expect_rc 0 "ratio then background"
[ -s "$TMP/err" ] && { show; fail "warned about an intermediate state"; }
ns '"$WBTOP" --set vm.dirty_background_ratio=30'
expect_rc 0 "background above foreground"
expect_err "warning: --set 'vm.dirty_background_ratio=30': background ratio (30%) at or above dirty_ratio (8%)"

# --- all or nothing: a later write fails, the earlier one is rolled back
fx_set 20 10 0 0
ns 'mount -o remount,bind,ro /proc/sys/vm/dirty_expire_centisecs &&
    "$WBTOP" --set vm.dirty_ratio=15 --set vm.dirty_expire_centisecs=1000'
expect_rc 1 "failed write"
expect_err "vm.dirty_expire_centisecs: write failed: Read-only file system"
expect_err "earlier changes rolled back"
expect_out "vm.dirty_ratio 20 -> 15: ok"
expect_out "vm.dirty_ratio 15 -> 20: ok (revert)"
[ "$(fx dirty_ratio)" = 20 ] || fail "dirty_ratio not rolled back: $(fx dirty_ratio)"

# --- no permission: said once, nothing written, not a failed write
ns 'mount -o remount,bind,ro /proc/sys/vm/dirty_ratio && "$WBTOP" --set vm.dirty_background_ratio=3'
expect_rc 1 "read-only /proc/sys"
one_error_line "read-only /proc/sys"
expect_err "cannot change knobs: /proc/sys/vm is mounted read-only; nothing written"
[ "$(fx dirty_background_ratio)" = 10 ] || fail "written although read-only"

# --- --sysctl-conf: only the member in force, and it loads back
fx_set 0 10 268435456 0
ns '"$WBTOP" --sysctl-conf'
expect_rc 0 "--sysctl-conf"
cp "$TMP/out" "$TMP/conf"
grep -q '^vm.dirty_bytes = 268435456$' "$TMP/conf" || { show; fail "dirty_bytes not listed"; }
grep -q '^vm.dirty_ratio' "$TMP/conf" && { show; fail "dirty_ratio listed beside dirty_bytes"; }
grep -q '^vm.dirty_background_ratio = 10$' "$TMP/conf" || { show; fail "background ratio missing"; }
grep -q '^vm.dirty_background_bytes' "$TMP/conf" && { show; fail "background bytes listed"; }
grep -q '^# .*order' "$TMP/conf" || { show; fail "no comment on the order"; }
[ "$(grep -c '^vm\.' "$TMP/conf")" -eq 5 ] || { show; fail "want 5 settings"; }
if command -v sysctl >/dev/null; then
	fx_set 20 5 0 0
	ns 'sysctl -q -p "'"$TMP/conf"'"'
	expect_rc 0 "sysctl -p of the snippet"
	[ "$(fx dirty_bytes)" = 268435456 ] && [ "$(fx dirty_background_ratio)" = 10 ] ||
		fail "sysctl -p did not load the snippet"
fi
echo "ok"
