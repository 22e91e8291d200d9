#!/bin/sh
# Judge a kept corpus run again: tests/dips/corpus.sh run with DIPS_KEEP=DIR
# leaves each scenario's recording (SCENARIO.db) and labels there; this
# exports every recording with the detector's marks at --dip N (DIP, by
# default 10, wbtop's default) -- the rule of the wbtop given, judging from
# the first sample as it did live -- and scores them (score.py).  A change of
# the rule is scored on the same live data in seconds.
#
# Usage: sh tests/dips/rejudge.sh DIR [WBTOP]
set -u
here=$(cd "$(dirname "$0")" && pwd)
DIR=${1:?usage: rejudge.sh DIR [WBTOP]}
WBTOP=${2:-$here/../../wbtop}
out=$(mktemp -d /tmp/wbtop-rejudge.XXXXXX)
trap 'rm -rf "$out"' EXIT
n=0
for db in "$DIR"/*.db; do
	[ -f "$db" ] || continue
	scen=$(basename "$db" .db)
	[ -f "$DIR/$scen.labels" ] || continue
	cp "$DIR/$scen.labels" "$out/"
	"$WBTOP" -r "$db" --export json --dip "${DIP:-10}" >"$out/$scen.json" ||
		{ echo "rejudge: $db: the export failed" >&2; exit 2; }
	n=$((n + 1))
done
[ $n -gt 0 ] || { echo "rejudge: $DIR: no recordings with labels" >&2; exit 2; }
python3 "$here/score.py" "$out"
