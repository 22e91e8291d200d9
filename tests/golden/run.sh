#!/bin/sh
# Golden outputs: what each sink gives for fixed input, byte for byte, so a
# change of structure (issue 32's moves) can be shown to change no output.
#   sh tests/golden/run.sh WBTOP            compare with tests/golden/expected/
#   sh tests/golden/run.sh WBTOP update     write them (on purpose only)
# Input: the kept recordings tests/golden/data/{a,b}.wbrec (record.sh made
# them on fixture /proc with the kernel loop of the host, so the cgroup and
# throttling rows are there too) and the attached logs of tests/e2e/data.
# Every command runs with TZ=UTC, LC_ALL=C and an empty HOME; stderr is kept
# beside stdout.
set -u
wbtop=${1:?usage: run.sh WBTOP [update]}
mode=${2:-check}
here=$(cd "$(dirname "$0")" && pwd)
want=$here/expected
out=$(mktemp -d /tmp/wbtop-golden.XXXXXX)
trap 'rm -rf "$out"' EXIT
export TZ=UTC LC_ALL=C
# no settings file of the user's (~/.config/wbtop) may change an output
export HOME="$out/home" XDG_CONFIG_HOME="$out/home/.config"
# name, then the arguments; the file's paths are written as they are given
# here (relative to the tree), so run from the top of the tree
golden() {
	name=$1; shift
	"$wbtop" "$@" >"$out/$name" 2>"$out/$name.err"
	echo "exit $?" >>"$out/$name.err"
}
cd "$here/../.." || exit 1
a=tests/golden/data/a.wbrec b=tests/golden/data/b.wbrec logs=tests/e2e/data
golden replay.txt -r "$a" -b
golden replay-dip80.txt -r "$a" -b --dip 80
golden replay.json -r "$a" -b --format json
golden replay.om -r "$a" -b --format openmetrics -n 2
golden export.csv -r "$a" --export csv
golden export.json -r "$a" --export json
golden compare.txt --compare "$a" "$b"
golden compare.json --compare "$a" "$b" --format json
golden plot-replay.txt -r "$a" --plot "$out/plot-replay.svg"
golden plot-compare.txt --compare "$a" "$b" --plot "$out/plot-compare.svg"
golden annotate-attached.txt --annotate "$logs/thread-attached.txt"
golden annotate-quoted.txt --annotate "$logs/thread-quoted.txt"
if [ "$mode" = update ]; then
	rm -rf "$want" && mkdir -p "$want" && cp "$out"/* "$want"/ 2>/dev/null; ls "$want" | wc -l
	exit 0
fi
bad=0 n=0
for f in "$want"/*; do
	n=$((n + 1))
	name=${f##*/}
	cmp -s "$f" "$out/$name" || {
		bad=$((bad + 1))
		echo "golden: $name differs:"
		diff "$f" "$out/$name" | head -10
	}
done
for f in "$out"/*; do [ -f "$f" ] || continue; [ -e "$want/${f##*/}" ] || { bad=$((bad + 1)); echo "golden: $f is new"; }; done
echo "golden: $((n - bad)) of $n outputs as they were"
[ $bad -eq 0 ]
