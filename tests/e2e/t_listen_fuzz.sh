#!/bin/sh
# wbtop --listen against malformed and hostile requests over a raw socket
# (tests/listen/fuzz.py, seeded, so a failure names a case that re-runs alone
# with --only): bad methods (a clean token gets 405 with Allow: GET, HEAD),
# targets and headers past the 32 KiB a connection may use, NUL bytes, bad
# versions, lines without a colon, thousands of headers, bad chunked bodies,
# CR without LF, pipelined and half-closed requests, resets, random bytes and
# mutated requests.  Each is answered 4xx/5xx or closed (200 only where HTTP
# lets a server take the request), and after each GET /metrics answers 200
# with a whole page within 5 s.  A connection that sends nothing, a request
# line only, or a header byte a second (slowloris) is closed by the server by
# 14 s (its deadline is 10 s), and 256 slowloris connections do not keep every
# scrape out for longer.  Sampling goes on throughout; wbtop exits 0 on
# SIGTERM; no sanitizer report on its stderr.  No devices: no root needed.
# Beside the others: its port is its own, it reads no host state, and its
# times (a few milliseconds to answer, a 10 s deadline) have seconds of slack.
# e2e: beside (its own port; answers within 5 s, cuts by 14 s)
. "$E2E_LIB"
need_tool python3 python3
python3 "$(dirname "$E2E_LIB")/../listen/fuzz.py" --binary "$WBTOP" --seed 1 --cases 400 >"$TMP/out" 2>&1
rc=$?
cat "$TMP/out"
[ $rc = 0 ] && exit 0
n=$(grep -c '^FAIL' "$TMP/out")
first=$(grep -m1 '^FAIL' "$TMP/out" | sed 's/^FAIL: //')
fail "${first:-fuzz.py exited $rc}${n:+ (of $n FAIL lines above; seed 1, a case alone: --only N)}"
