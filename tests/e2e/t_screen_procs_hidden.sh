#!/bin/sh
# The process pane without root at 80 columns: the totals line says first
# how many tasks are hidden and why, so the zeros after it read as "not
# seen", not as "nothing writing" (before, the reason only fit at 140+).
. "$E2E_LIB"
. "$(dirname "$0")/screen_lib.sh"
need_root "switches to an unprivileged user"
need_tool setpriv util-linux
scr_setup_live
chmod 755 "$TMP"
cat >"$TMP/nobody.sh" <<EOF
#!/bin/sh
exec setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all "$WBTOP" "\$@"
EOF
chmod 755 "$TMP/nobody.sh"
WBTOP=$TMP/nobody.sh
scr_start_live 80 24 LANG=C.UTF-8 -- -P -d 0.5
scr_wait "tasks" 10
scr_wait_re "tasks [0-9]+ +hidden [1-9][0-9]* \\(not root\\)" 5
scr_quit
echo "80 columns, not root: $(grep -o 'tasks [0-9]* *hidden [0-9]* (not root)' "$TMP/pane")"
