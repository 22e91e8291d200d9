#!/bin/sh
# Without permission (not root), --set says why once and writes nothing;
# --sysctl-conf still works, reading needs no privilege.
. "$E2E_LIB"
need_root "switches to an unprivileged user"
need_tool setpriv util-linux
as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
as_nobody "$WBTOP" --help >/dev/null 2>&1 || as_nobody test -x "$WBTOP" || skip "nobody cannot run $WBTOP"
VM=/proc/sys/vm
ratio=$(cat $VM/dirty_ratio)
bytes=$(cat $VM/dirty_bytes)
# The value it holds already: harmless even if a bug let the write through.
as_nobody "$WBTOP" --set vm.dirty_ratio="$ratio" >"$TMP/out" 2>"$TMP/err"
rc=$?
[ $rc = 1 ] || { cat "$TMP/out" "$TMP/err"; fail "exit $rc, want 1"; }
grep -qx "wbtop: --set: cannot change knobs: not root; nothing written" "$TMP/err" ||
	{ cat "$TMP/err"; fail "no reason given"; }
[ "$(wc -l <"$TMP/err")" -eq 1 ] || { cat "$TMP/err"; fail "more than one line"; }
[ -s "$TMP/out" ] && { cat "$TMP/out"; fail "printed a result"; }
[ "$(cat $VM/dirty_ratio)" = "$ratio" ] && [ "$(cat $VM/dirty_bytes)" = "$bytes" ] || fail "knobs changed"

as_nobody "$WBTOP" --sysctl-conf >"$TMP/out" 2>"$TMP/err" || { cat "$TMP/err"; fail "--sysctl-conf as nobody"; }
grep -q '^vm.dirty_expire_centisecs = ' "$TMP/out" || { cat "$TMP/out"; fail "--sysctl-conf output"; }
echo ok
