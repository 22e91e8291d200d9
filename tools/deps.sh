#!/bin/sh
# Make sure the build dependencies are there.  Each pkg-config module maps to
# the Debian package that provides it; missing ones are installed with apt-get
# when we are root, otherwise the exact command to run is printed and the
# build stops.  Tools the tests use (tmux, sysstat, ...) come along with
# "deps.sh test".
set -u
# The kernel lab (make check-kernels, tests/lab/): its tools and Debian 12's
# two kernels, fetched with apt-get download and unpacked into a cache.
# tests/lab/run.sh reads LAB_KERNELS and LAB_CACHE from here.
LAB_KERNELS="linux-image-6.1.0-47-amd64-unsigned linux-image-6.12.118+deb12-amd64-unsigned"
LAB_CACHE=${WBTOP_LAB_CACHE:-/var/cache/wbtop-lab}
LAB_PKGS="qemu-system-x86 qemu-utils busybox-static lvm2 mdadm cryptsetup xfsprogs e2fsprogs python3 kmod strace util-linux curl iproute2"
if [ "${1:-}" = lab-kernels ]; then
	echo "$LAB_CACHE $LAB_KERNELS"
	exit 0
fi
if [ "${1:-}" = lab ]; then
	if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
		echo "deps: the lab needs root and apt-get: sudo sh tools/deps.sh lab" >&2
		exit 1
	fi
	export DEBIAN_FRONTEND=noninteractive
	missing=""
	for p in $LAB_PKGS; do
		dpkg-query -W -f '${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing="$missing $p"
	done
	if [ -n "$missing" ]; then
		echo "deps: installing$missing" >&2
		apt-get update -qq >&2 && apt-get install -y -qq --no-install-recommends $missing >&2 ||
			{ echo "deps: apt-get install$missing failed" >&2; exit 1; }
	fi
	mkdir -p "$LAB_CACHE" || exit 1
	for k in $LAB_KERNELS; do
		[ -d "$LAB_CACHE/$k/boot" ] && continue
		if ! ls "$LAB_CACHE/${k}_"*.deb >/dev/null 2>&1; then
			echo "deps: apt-get download $k" >&2
			(cd "$LAB_CACHE" && apt-get download "$k" >&2) || {
				apt-get update -qq >&2
				(cd "$LAB_CACHE" && apt-get download "$k" >&2) ||
					{ echo "deps: apt-get download $k failed (apt-cache policy $k)" >&2; exit 1; }
			}
		fi
		rm -rf "$LAB_CACHE/$k.tmp"
		# the package's postinst would run depmod: modprobe in the guest needs modules.dep
		dpkg-deb -x "$LAB_CACHE/${k}_"*.deb "$LAB_CACHE/$k.tmp" &&
			depmod -b "$LAB_CACHE/$k.tmp" "$(ls "$LAB_CACHE/$k.tmp/lib/modules")" &&
			mv "$LAB_CACHE/$k.tmp" "$LAB_CACHE/$k" || exit 1
	done
	exit 0
fi
need_pc="ncursesw:libncurses-dev libproc2:libproc2-dev blkid:libblkid-dev sqlite3:libsqlite3-dev libtracefs:libtracefs-dev libtraceevent:libtraceevent-dev libmicrohttpd:libmicrohttpd-dev libcrypt:libcrypt-dev"
need_bin="pkg-config:pkg-config cc:gcc make:make"
if [ "${1:-}" = test ]; then
	need_pc="$need_pc check:check"
	need_bin="$need_bin tmux:tmux iostat:sysstat vmstat:procps valgrind:valgrind clang:clang mkfs.ext4:e2fsprogs mkfs.xfs:xfsprogs losetup:mount pv:pv unshare:util-linux python3:python3 groff:groff-base prometheus-node-exporter:prometheus-node-exporter chromium:chromium dpkg-buildpackage:dpkg-dev dh:debhelper lintian:lintian git:git systemd-analyze:systemd strace:strace promtool:prometheus flock:util-linux setpriv:util-linux timeout:coreutils"
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
