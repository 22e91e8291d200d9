#!/bin/sh
# --plot: a recording on fixture /proc data (two devices; the first drops to
# 30% for 1.5 s, a dip; vm.dirty_ratio goes from 20 to 10 in the middle, in
# the fixture's knob file, not the host's) drawn as SVG and rendered by
# headless Chromium; the screenshot is not blank and holds the colours of
# the total, both devices, the dips and the knob line.  --compare --plot
# draws a panel per recording; a file that cannot be written is named.
. "$E2E_LIB"
. "$(dirname "$0")/screen_lib.sh"
scr_setup
command -v chromium-browser >/dev/null 2>&1 || need_tool chromium chromium
browser=$(command -v chromium || command -v chromium-browser)
scr_scenario <<'SCN'
dev fixa 240 0
dev fixb 240 16
at 0 fixa w=20480 util=60
at 0 fixb w=8192 util=30
at 0 sys dirty=102400 wb=20480 dirtied=28672 written=28672
at 4 fixa w=6144
at 5.5 fixa w=20480
SCN
scr_driver_start
( sleep 3; echo 10 >"$FX/vm/dirty_ratio" ) &
knob=$!
rec="$TMP/run.wbrec"
scr_fixture_run -b -q -d 0.25 -n 28 -w "$rec" || fail "recording: $(cat "$TMP/fx.err")"
wait $knob

"$WBTOP" -r "$rec" --plot "$TMP/run.svg" || fail "--plot failed"
ndip=$(grep -c 'class="dip"' "$TMP/run.svg")
nknob=$(grep -c 'class="knob"' "$TMP/run.svg")
echo "the SVG marks $ndip dips and $nknob knob changes"
[ "$ndip" -ge 2 ] || fail "$ndip dips drawn (the recording's marks: $("$WBTOP" -r "$rec" --export json | grep -c '"dip":true'))"
[ "$nknob" -eq 1 ] || fail "$nknob knob lines, want 1"
grep -q 'vm.dirty_ratio 20% -&gt; 10%' "$TMP/run.svg" || fail "the knob line is not labelled"
grep -q '>fixa<' "$TMP/run.svg" && grep -q '>fixb<' "$TMP/run.svg" || fail "the legend lacks a device"
python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' "$TMP/run.svg" ||
	fail "the SVG is not well-formed XML"
grep -Eq '<(script|image|use)|href=' "$TMP/run.svg" && fail "the SVG is not self-contained"

mkdir -p "$TMP/chrome-profile"
timeout 60 "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
	--disable-background-networking --disable-component-update --disable-sync \
	--user-data-dir="$TMP/chrome-profile" --window-size=1000,280 \
	--screenshot="$TMP/shot.png" "file://$TMP/run.svg" >"$TMP/chrome.log" 2>&1
[ -s "$TMP/shot.png" ] || fail "chromium made no screenshot: $(tail -5 "$TMP/chrome.log")"
# the total, the two devices' colours, the dips, the knob line
python3 "$(dirname "$E2E_LIB")/png_colours.py" "$TMP/shot.png" '#000000' '#1f77b4' '#2ca02c' \
	'#d62728' '#ff7f0e' >"$TMP/colours" || fail "cannot read the screenshot"
cat "$TMP/colours"
awk '$1 == "pixels" { n = $2 } $1 == "nonwhite" { w = $2 } $1 == "#000000" { k = $2 }
	$1 == "#1f77b4" { b1 = $2 } $1 == "#2ca02c" { b2 = $2 } $1 == "#d62728" { r = $2 } $1 == "#ff7f0e" { o = $2 }
	END { exit !(w > n / 50 && k > 300 && b1 > 200 && b2 > 200 && r > 40 && o > 50) }' "$TMP/colours" ||
	fail "the screenshot lacks the total, a device line, the dips or the knob line"

# Two recordings compared: a panel each.
"$WBTOP" --compare "$rec" "$rec" --plot "$TMP/cmp.svg" >/dev/null || fail "--compare --plot failed"
[ "$(grep -c '<g class="run">' "$TMP/cmp.svg")" -eq 2 ] || fail "--compare --plot: not two panels"
"$WBTOP" -r "$rec" --plot "$TMP/no/such/dir/x.svg" 2>"$TMP/e"; [ $? -eq 1 ] || fail "unwritable --plot: not exit 1"
grep -q "$TMP/no/such/dir/x.svg" "$TMP/e" || fail "unwritable --plot: $(cat "$TMP/e")"
"$WBTOP" --plot "$TMP/x.svg" 2>"$TMP/e"; [ $? -eq 2 ] || fail "--plot alone: not exit 2"
exit 0
