#!/bin/sh
# wbtop --listen as a scraper and a stranger see it (issue 33): GET /metrics
# gives the Prometheus text format (0.0.4, which promtool check metrics takes
# without a word) unless Accept asks for OpenMetrics (then "# EOF" ends it and
# the counter TYPE lines lose _total); HEAD the same headers without a body; /
# a landing page; another path 404; another method 405 with Allow; no sample
# yet: 503.  The throttling families are there with their "other" rows, the
# trace availability gauge says 1, or 0 with the reason under
# --no-kernel-trace (and then no throttling counters that would stay 0).
# --web-config: TLS with a self-signed certificate, and basic auth (a bcrypt
# hash: no credentials 401, a wrong password 401, the right one 200).  Bad
# addresses, ports and files: one line, exit 2.  An address in use: exit 1.
# e2e: beside (its own port; answers, not timings)
. "$E2E_LIB"
need_tool curl curl
need_tool promtool prometheus
# wait_up URL [curl options]: up to 60 s for a 200
wait_up() {
	u=$1; shift
	i=0
	while [ "$(curl -s -o /dev/null -w '%{http_code}' "$@" "$u")" != 200 ]; do
		i=$((i + 1)); [ $i -lt 600 ] || return 1; sleep 0.1
	done
}
P=$(free_port)
"$WBTOP" --listen "127.0.0.1:$P" -d 0.2 >"$TMP/out" 2>"$TMP/err" &
pid=$!
on_exit "kill $pid 2>/dev/null"
wait_up "http://127.0.0.1:$P/metrics" || fail "no 200 from /metrics in 60 s: $(cat "$TMP/err")"
u=http://127.0.0.1:$P
curl -s -D "$TMP/h" -o "$TMP/m" "$u/metrics" || fail "curl failed"
grep -qi '^content-type: text/plain; version=0.0.4' "$TMP/h" || fail "0.0.4 content type: $(cat "$TMP/h")"
promtool check metrics <"$TMP/m" >"$TMP/promtool" 2>&1 || fail "promtool check metrics: $(cat "$TMP/promtool")"
[ -s "$TMP/promtool" ] && fail "promtool has something to say: $(cat "$TMP/promtool")"
grep -q '^# TYPE wbtop_device_throttled_seconds_total counter$' "$TMP/m" || fail "0.0.4 counter TYPE line"
grep -q '^# EOF' "$TMP/m" && fail "0.0.4 text with # EOF"
for fam in device_throttled_seconds device_throttle_pauses cgroup_throttled_seconds cgroup_throttle_pauses \
	command_throttled_seconds command_throttle_pauses; do
	grep -q "^wbtop_${fam}_total{[a-z]*=\"other\"} [0-9.]*$" "$TMP/m" || fail "no other row of wbtop_$fam"
done
if grep -q '^wbtop_trace_available 1$' "$TMP/m"; then
	grep -q '^wbtop_flusher_written_bytes_total{reason="background"} [0-9]*$' "$TMP/m" || fail "no flusher bytes"
	grep -q '^wbtop_trace_lost_events_total [0-9]*$' "$TMP/m" || fail "no lost events counter"
else
	grep '^wbtop_trace_available' "$TMP/m"
	skip "the trace is not available here: $(grep '^wbtop_trace_available' "$TMP/m")"
fi
# OpenMetrics when asked, as Prometheus asks
curl -s -D "$TMP/h2" -o "$TMP/om" -H 'Accept: application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5' "$u/metrics"
grep -qi '^content-type: application/openmetrics-text; version=1.0.0' "$TMP/h2" || fail "OpenMetrics type: $(cat "$TMP/h2")"
[ "$(tail -1 "$TMP/om")" = "# EOF" ] || fail "OpenMetrics does not end in # EOF"
grep -q '^# TYPE wbtop_device_throttled_seconds counter$' "$TMP/om" || fail "OpenMetrics counter TYPE line"
python3 "$(dirname "$0")/om_check.py" "$TMP/om" >"$TMP/omcheck" 2>&1 || fail "OpenMetrics parse: $(cat "$TMP/omcheck")"
# HEAD: the headers, no body
curl -s -I "$u/metrics" -o "$TMP/head" || fail "HEAD failed"
head -1 "$TMP/head" | grep -q ' 200' || fail "HEAD: $(head -1 "$TMP/head")"
grep -qi '^content-length: [1-9]' "$TMP/head" || fail "HEAD without the length"
code() { curl -s -o "$TMP/body" -D "$TMP/hh" -w '%{http_code}' "$@"; }
[ "$(code "$u/")" = 200 ] && grep -q 'href="/metrics"' "$TMP/body" || fail "landing page"
[ "$(code "$u/nope")" = 404 ] || fail "/nope: not 404"
[ "$(code "$u/metrics/x")" = 404 ] || fail "/metrics/x: not 404"
[ "$(code -X POST -d x=1 "$u/metrics")" = 405 ] || fail "POST: not 405"
grep -qi '^allow: GET, HEAD' "$TMP/hh" || fail "405 without Allow: $(cat "$TMP/hh")"
[ "$(code -X DELETE "$u/")" = 405 ] || fail "DELETE /: not 405"
# sampling went on meanwhile; stderr said where it serves and nothing per request
n1=$(grep '^wbtop_exporter_samples_total' "$TMP/m" | cut -d' ' -f2)
curl -s "$u/metrics" | grep '^wbtop_exporter_samples_total' | cut -d' ' -f2 >"$TMP/n2"
[ "$(cat "$TMP/n2")" -gt "$n1" ] || fail "the samples counter did not move: $n1 then $(cat "$TMP/n2")"
grep -q "^wbtop: serving http://127.0.0.1:$P/metrics every 0.2s$" "$TMP/err" || fail "stderr: $(cat "$TMP/err")"
kill -TERM $pid; wait $pid; rc=$?
[ $rc = 0 ] || fail "SIGTERM: exit $rc: $(cat "$TMP/err")"
grep -v '^wbtop: serving\|^wbtop: kernel writeback loop:' "$TMP/err" | grep . && fail "stderr has more: $(cat "$TMP/err")"

# without the trace: the gauge says 0 and why, and no throttling counter pretends to count
P=$(free_port)
"$WBTOP" --listen "$P" --no-kernel-trace -d 0.2 2>"$TMP/err2" &
pid=$!
on_exit "kill $pid 2>/dev/null"
wait_up "http://127.0.0.1:$P/metrics" || fail "--no-kernel-trace: no 200: $(cat "$TMP/err2")"
curl -s "http://127.0.0.1:$P/metrics" >"$TMP/m2"
grep -q '^wbtop_trace_available{reason="--no-kernel-trace"} 0$' "$TMP/m2" || fail "gauge: $(grep trace_available "$TMP/m2")"
grep -q 'throttled_seconds_total\|flusher_written' "$TMP/m2" && fail "throttling counters without the trace"
promtool check metrics <"$TMP/m2" >/dev/null 2>&1 || fail "promtool on the page without the trace"
kill $pid; wait $pid

# --web-config: TLS and basic auth
need_tool openssl openssl
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=localhost -keyout "$TMP/key.pem" \
	-out "$TMP/cert.pem" >/dev/null 2>&1 || fail "openssl req failed"
hash=$(python3 -c 'import crypt; print(crypt.crypt("s3cret", crypt.mksalt(crypt.METHOD_BLOWFISH, rounds=16)))' 2>/dev/null)
case $hash in '$2'*) ;; *) fail "no bcrypt hash from python: $hash" ;; esac
cat >"$TMP/web.yml" <<EOF2
# as Prometheus' exporter-toolkit has it
tls_server_config:
  cert_file: $TMP/cert.pem
  key_file: "$TMP/key.pem"
basic_auth_users:
  prom: '$hash'
EOF2
P=$(free_port)
"$WBTOP" --listen "127.0.0.1:$P" --web-config "$TMP/web.yml" -d 0.2 2>"$TMP/err3" &
pid=$!
on_exit "kill $pid 2>/dev/null"
wait_up "https://localhost:$P/metrics" --cacert "$TMP/cert.pem" -u prom:s3cret --resolve "localhost:$P:127.0.0.1" ||
	fail "TLS with the right password: no 200: $(cat "$TMP/err3")"
s=https://localhost:$P/metrics
[ "$(code --cacert "$TMP/cert.pem" --resolve "localhost:$P:127.0.0.1" "$s")" = 401 ] || fail "no credentials: not 401"
grep -qi '^www-authenticate: basic' "$TMP/hh" || fail "401 without WWW-Authenticate"
[ "$(code --cacert "$TMP/cert.pem" --resolve "localhost:$P:127.0.0.1" -u prom:wrong "$s")" = 401 ] || fail "a wrong password: not 401"
[ "$(code --cacert "$TMP/cert.pem" --resolve "localhost:$P:127.0.0.1" -u prom:s3cret "$s")" = 200 ] || fail "the right password: not 200"
grep -q '^wbtop_exporter_samples_total' "$TMP/body" || fail "TLS body"
[ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$P/metrics")" = 200 ] && fail "plain HTTP answered on a TLS listener"
kill $pid; wait $pid

# bad input: one line naming it, exit 2; an address in use: exit 1
bad() { # want-status want-line args...
	want=$1 line=$2; shift 2
	"$WBTOP" "$@" >/dev/null 2>"$TMP/bad"; rc=$?
	[ $rc = "$want" ] || fail "$*: exit $rc, want $want: $(cat "$TMP/bad")"
	[ "$(wc -l <"$TMP/bad")" = 1 ] && grep -qF -- "$line" "$TMP/bad" || fail "$*: $(cat "$TMP/bad")"
}
bad 2 "wbtop: --listen '70000': not a port" --listen 70000
bad 2 "wbtop: --listen 'localhost:9850': 'localhost' is not an IPv4 or IPv6 address" --listen localhost:9850
bad 2 "--listen serves the live figures over HTTP; -r does not go with it" --listen 9850 -r "$TMP/none.db"
bad 2 "wbtop: --listen-top goes with --listen" -b --listen-top 3
bad 2 "wbtop: --listen-top '0': " --listen 9850 --listen-top 0
printf 'tls_server_config:\n  cert: x\n' >"$TMP/bad.yml"
bad 2 "wbtop: $TMP/bad.yml:2: not a setting wbtop knows here" --listen "$(free_port)" --web-config "$TMP/bad.yml"
printf 'basic_auth_users:\n  prom: plain\n' >"$TMP/bad2.yml"
bad 2 "wbtop: $TMP/bad2.yml:2: a user's password must be a bcrypt hash" --listen "$(free_port)" --web-config "$TMP/bad2.yml"
bad 2 "wbtop: $TMP/none.yml: No such file or directory" --listen "$(free_port)" --web-config "$TMP/none.yml"
python3 -c 'import socket, time, sys
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1); s.bind(("127.0.0.1", 0)); s.listen()
print(s.getsockname()[1], flush=True); time.sleep(30)' >"$TMP/busy" &
busy=$!
on_exit "kill $busy 2>/dev/null"
i=0; while [ ! -s "$TMP/busy" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
bad 1 "wbtop: --listen 127.0.0.1:$(cat "$TMP/busy"): cannot listen: Address already in use" --listen "127.0.0.1:$(cat "$TMP/busy")"
exit 0
