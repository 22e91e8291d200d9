#!/bin/sh
# Make sure the build dependencies are there.  Each pkg-config module maps to
# the Debian package that provides it; missing ones are installed with apt-get
# when we are root, otherwise the exact command to run is printed and the
# build stops.  Tools the tests use (tmux, sysstat, ...) come along with
# "deps.sh test".
set -u
need_pc="ncursesw:libncurses-dev libproc2:libproc2-dev blkid:libblkid-dev sqlite3:libsqlite3-dev libtracefs:libtracefs-dev libtraceevent:libtraceevent-dev"
need_bin="pkg-config:pkg-config cc:gcc make:make"
if [ "${1:-}" = test ]; then
	need_pc="$need_pc check:check"
	need_bin="$need_bin tmux:tmux iostat:sysstat vmstat:procps valgrind:valgrind clang:clang mkfs.ext4:e2fsprogs mkfs.xfs:xfsprogs losetup:mount pv:pv unshare:util-linux python3:python3 groff:groff-base prometheus-node-exporter:prometheus-node-exporter chromium:chromium dpkg-buildpackage:dpkg-dev dh:debhelper lintian:lintian git:git"
fi
missing=""
for pair in $need_bin; do
	command -v "${pair%%:*}" >/dev/null 2>&1 || missing="$missing ${pair#*:}"
done
if command -v pkg-config >/dev/null 2>&1; then
	for pair in $need_pc; do
		pkg-config --exists "${pair%%:*}" || missing="$missing ${pair#*:}"
	done
else
	for pair in $need_pc; do missing="$missing ${pair#*:}"; done
fi
# The sanitizer and fuzzer runtimes of clang come in their own package.
if [ "${1:-}" = test ] && ! ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1; then
	missing="$missing libclang-rt-dev"
fi
[ -z "$missing" ] && exit 0
missing=$(echo $missing | tr ' ' '\n' | sort -u | tr '\n' ' ')
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
	echo "deps: installing $missing" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq >&2 && apt-get install -y -qq $missing >&2 && exit 0
	echo "deps: apt-get install $missing failed" >&2
	exit 1
fi
echo "wbtop: missing build dependencies. Run:" >&2
echo "  sudo apt-get install $missing" >&2
exit 1
