#!/bin/sh
# --plot: a recording of three writers on loop filesystems made here, the
# second paused for 1.5 s (a dip) and vm.dirty_expire_centisecs changed in
# the middle (a knob change), drawn as SVG and rendered by headless
# Chromium; the screenshot is not blank and holds the colours of the total,
# the first device, the dips and the knob line.  --compare --plot draws a
# panel per recording; a file that cannot be written is named.
. "$E2E_LIB"
need_root "makes loop devices and filesystems and changes vm.dirty_expire_centisecs"
command -v pv >/dev/null || skip "pv not installed"
browser=$(command -v chromium || command -v chromium-browser) ||
	skip "chromium is not installed (sh tools/deps.sh test installs it)"
vm=/proc/sys/vm
old_expire=$(cat $vm/dirty_expire_centisecs)
on_exit "echo $old_expire > $vm/dirty_expire_centisecs"
for i in 1 2 3; do
	make_loop_fs 512 "$TMP/i17-p$i" || fail "could not make loop filesystem $i"
	losetup --direct-io=on "$LOOPDEV" 2>/dev/null
done
for i in 1 2 3; do
	setsid sh -c "pv -q -L 24m /dev/zero | dd of=$TMP/i17-p$i/f bs=1M iflag=fullblock oflag=direct" \
		</dev/null >/dev/null 2>&1 &
	eval "w$i=\$!"
done
on_exit "kill -CONT -$w1 -$w2 -$w3 2>/dev/null; kill -TERM -$w1 -$w2 -$w3 2>/dev/null; sleep 0.5"
sleep 1.5
rec="$TMP/run.wbrec"
"$WBTOP" -b -q -d 0.25 -n 24 -w "$rec" 2>"$TMP/err" &
wb=$!
sleep 2.6
kill -STOP -"$w2"
echo $((old_expire + 100)) > $vm/dirty_expire_centisecs
sleep 1.5
kill -CONT -"$w2"
wait $wb || fail "recording: $(cat "$TMP/err")"
echo "$old_expire" > $vm/dirty_expire_centisecs

"$WBTOP" -r "$rec" --plot "$TMP/run.svg" || fail "--plot failed"
ndip=$(grep -c 'class="dip"' "$TMP/run.svg")
nknob=$(grep -c 'class="knob"' "$TMP/run.svg")
echo "the SVG marks $ndip dips and $nknob knob changes"
[ "$ndip" -ge 1 ] || fail "no dip drawn (the recording's marks: $("$WBTOP" -r "$rec" --export json | grep -c '"dip":true'))"
[ "$nknob" -eq 1 ] || fail "$nknob knob lines, want 1"
grep -q 'vm.dirty_expire_centisecs' "$TMP/run.svg" || fail "the knob line is not labelled"
python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' "$TMP/run.svg" ||
	fail "the SVG is not well-formed XML"
grep -Eq '<(script|image|use)|href=' "$TMP/run.svg" && fail "the SVG is not self-contained"

mkdir -p "$TMP/chrome-profile"
timeout 60 "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
	--disable-background-networking --disable-component-update --disable-sync \
	--user-data-dir="$TMP/chrome-profile" --window-size=1000,280 \
	--screenshot="$TMP/shot.png" "file://$TMP/run.svg" >"$TMP/chrome.log" 2>&1
[ -s "$TMP/shot.png" ] || fail "chromium made no screenshot: $(tail -5 "$TMP/chrome.log")"
# the total, the three devices' colours (their lines overlap: the writers
# run at one rate), the dips, the knob line
python3 "$(dirname "$E2E_LIB")/png_colours.py" "$TMP/shot.png" '#000000' '#1f77b4' '#2ca02c' '#9467bd' \
	'#d62728' '#ff7f0e' >"$TMP/colours" || fail "cannot read the screenshot"
cat "$TMP/colours"
awk '$1 == "pixels" { n = $2 } $1 == "nonwhite" { w = $2 } $1 == "#000000" { k = $2 }
	$1 == "#1f77b4" || $1 == "#2ca02c" || $1 == "#9467bd" { b += $2; each = each && $2 > 10 }
	$1 == "#d62728" { r = $2 } $1 == "#ff7f0e" { o = $2 }
	BEGIN { each = 1 }
	END { exit !(w > n / 50 && k > 300 && b > 300 && each && r > 20 && o > 50) }' "$TMP/colours" ||
	fail "the screenshot lacks the total, the device line, the dips or the knob line"

# Two recordings compared: a panel each.
"$WBTOP" --compare "$rec" "$rec" --plot "$TMP/cmp.svg" >/dev/null || fail "--compare --plot failed"
[ "$(grep -c '<g class="run">' "$TMP/cmp.svg")" -eq 2 ] || fail "--compare --plot: not two panels"
"$WBTOP" -r "$rec" --plot "$TMP/no/such/dir/x.svg" 2>"$TMP/e"; [ $? -eq 1 ] || fail "unwritable --plot: not exit 1"
grep -q "$TMP/no/such/dir/x.svg" "$TMP/e" || fail "unwritable --plot: $(cat "$TMP/e")"
"$WBTOP" --plot "$TMP/x.svg" 2>"$TMP/e"; [ $? -eq 2 ] || fail "--plot alone: not exit 2"
exit 0
