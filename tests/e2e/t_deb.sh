#!/bin/sh
# The Debian package: dpkg-buildpackage -us -uc -b builds it from a copy of
# the tree (the build leaves nothing git does not ignore), lintian finds
# nothing to say (pedantic and informational tags included), and the .deb
# unpacked into a scratch root holds the binary (which runs), the manual
# page, the systemd service (pointing at /usr/bin) and timer, the exporter's
# service (pointing at /usr/bin, which systemd-analyze verify passes), and
# the sysctl.d example; the maintainer scripts enable and start none of
# them, and removing the package stops the exporter.  make install still
# installs the binary and the page.
# e2e: beside (a package built from a copy of the tree)
. "$E2E_LIB"
for tool in dpkg-buildpackage:dpkg-dev dh:debhelper lintian:lintian git:git systemd-analyze:systemd; do
	need_tool "${tool%%:*}" "${tool#*:}"
done
root=$(cd "$(dirname "$0")/../.." && pwd)
[ -f "$root/debian/control" ] || fail "no debian/control in $root"
src=$TMP/build/wbtop-0.1
mkdir -p "$src"
# The tree as git knows it (tracked and new files, nothing ignored), made a
# repository of its own, so what the build leaves behind can be listed.
if git -C "$root" rev-parse >/dev/null 2>&1; then
	git -C "$root" ls-files -co --exclude-standard -z | (cd "$root" && xargs -0 tar -cf -) | tar -xf - -C "$src"
else
	(cd "$root" && tar --exclude=./build --exclude=./wbtop -cf - .) | tar -xf - -C "$src"
fi
git -C "$src" init -q && git -C "$src" add -A && git -C "$src" -c user.name=t -c user.email=t@t commit -qm tree ||
	fail "could not make a repository of the copy"

(cd "$src" && dpkg-buildpackage -us -uc -b) >"$TMP/build.log" 2>&1 || { tail -30 "$TMP/build.log"; fail "dpkg-buildpackage failed"; }
deb=$(ls "$TMP"/build/wbtop_*_*.deb 2>/dev/null | head -1)
[ -n "$deb" ] || fail "no .deb built"
left=$(git -C "$src" status --porcelain)
[ -z "$left" ] || fail "the build left files git does not ignore: $left"

lintian -I -E --pedantic --tag-display-limit 0 "$TMP"/build/wbtop_*.changes >"$TMP/lintian" 2>"$TMP/lintian.err" ||
	{ cat "$TMP/lintian" "$TMP/lintian.err"; fail "lintian failed"; }
[ -s "$TMP/lintian" ] && { cat "$TMP/lintian"; fail "lintian has something to say"; }

scratch=$TMP/root
dpkg -x "$deb" "$scratch" || fail "dpkg -x failed"
for f in usr/bin/wbtop usr/share/man/man1/wbtop.1.gz lib/systemd/system/wbtop.service \
	 lib/systemd/system/wbtop.timer lib/systemd/system/wbtop-exporter.service \
	 usr/share/doc/wbtop/examples/60-writeback.conf \
	 usr/share/doc/wbtop/copyright usr/share/doc/wbtop/changelog.gz; do
	[ -s "$scratch/$f" ] || fail "the package lacks /$f"
done
"$scratch/usr/bin/wbtop" --version | grep -q '^wbtop ' || fail "the packaged binary does not run"
grep -qx 'ExecStart=/usr/bin/wbtop -b --format openmetrics -n 1 -o /var/lib/prometheus/node-exporter/wbtop.prom' \
	"$scratch/lib/systemd/system/wbtop.service" || fail "the packaged service does not run /usr/bin/wbtop"
zcat "$scratch/usr/share/man/man1/wbtop.1.gz" | grep -q '^\.TH WBTOP 1' || fail "the manual page is not wbtop(1)"
# the exporter's unit: /usr/bin, on the network, and what systemd reads in it
# is all it says (verify on a copy naming the unpacked binary; its manual
# page is looked up in the scratch root, where man is there to do it)
xunit=$scratch/lib/systemd/system/wbtop-exporter.service
grep -qx 'ExecStart=/usr/bin/wbtop --listen 127.0.0.1:9850' "$xunit" ||
	fail "the packaged exporter does not run /usr/bin/wbtop --listen: $(grep '^ExecStart' "$xunit")"
grep -q '^PrivateNetwork=yes' "$xunit" && fail "the exporter's unit cuts it off the network"
mkdir -p "$TMP/units"
sed "s|^ExecStart=/usr/bin/wbtop |ExecStart=$scratch/usr/bin/wbtop |" "$xunit" >"$TMP/units/wbtop-exporter.service"
man_opt=--man=no
command -v man >/dev/null 2>&1 && man_opt=--man=yes
MANPATH=$scratch/usr/share/man systemd-analyze verify --recursive-errors=no $man_opt \
	"$TMP/units/wbtop-exporter.service" >"$TMP/verify" 2>&1 || { cat "$TMP/verify"; fail "systemd-analyze verify fails on the exporter's unit"; }
grep 'wbtop' "$TMP/verify" && fail "systemd-analyze verify has something to say about the exporter's unit"
grep -q '^vm.dirty_ratio = ' "$scratch/usr/share/doc/wbtop/examples/60-writeback.conf" || fail "the sysctl example is empty"
find "$scratch" -path '*/usr/local*' | grep -q . && fail "the package installs under /usr/local"
# the control fields: the libraries it links, nothing enabled at install
dpkg-deb -f "$deb" Depends | grep -q 'libsqlite3' || fail "Depends lacks libsqlite3: $(dpkg-deb -f "$deb" Depends)"
dpkg-deb -e "$deb" "$TMP/ctl"
# (dh_installsystemd --no-enable: enable again only what was enabled before)
if [ -f "$TMP/ctl/postinst" ]; then
	grep -q 'invoke-rc.d\|systemctl.*start\|deb-systemd-invoke start\|deb-systemd-invoke restart' "$TMP/ctl/postinst" &&
		fail "installing the package starts a unit"
	for u in wbtop.timer wbtop-exporter.service; do
		# each enable of the unit right after the test that it was enabled
		awk -v u="'$u'" '/^[ \t]*#/ { next }
			index($0, "deb-systemd-helper enable " u) && !was { bad = 1 }
			{ was = index($0, "was-enabled " u) > 0 } END { exit bad }' "$TMP/ctl/postinst" ||
			fail "installing the package enables $u"
	done
fi
grep -q "wbtop-exporter.service" "$TMP/ctl/postinst" 2>/dev/null ||
	fail "dh_installsystemd left the exporter's unit out of the postinst"
find "$scratch" -name '*.wants' | grep -q . && fail "the package ships an enabled unit: $(find "$scratch" -name '*.wants')"
grep -q "deb-systemd-invoke stop 'wbtop-exporter.service'" "$TMP/ctl/prerm" 2>/dev/null ||
	fail "removing the package leaves the exporter running"

# make install (the other way in) is unchanged
make -C "$src" install DESTDIR="$TMP/inst" PREFIX=/usr >"$TMP/inst.log" 2>&1 || { cat "$TMP/inst.log"; fail "make install failed"; }
[ -x "$TMP/inst/usr/bin/wbtop" ] && [ -s "$TMP/inst/usr/share/man/man1/wbtop.1" ] || fail "make install: binary or page missing"
echo "built $(basename "$deb") ($(stat -c %s "$deb") bytes), lintian silent, unpacked and run; make install too"
