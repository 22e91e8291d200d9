#!/usr/bin/env python3
"""Fuzz wbtop --listen's request line and headers over a raw socket.

    python3 tests/listen/fuzz.py --binary WBTOP [--seed S] [--cases N] ...

Starts WBTOP --listen 127.0.0.1:PORT -d INTERVAL (no devices needed, no root)
and sends it CASES malformed or odd requests made by a seeded generator (the
same seed, the same bytes), a new connection each, in turn by kind:

  bad_method    methods not GET/HEAD (a clean token must get 405 with
                Allow: GET, HEAD, or 404 off /metrics and /), tokens with
                bad characters, huge methods, the HTTP/2 preface
  huge_uri      request targets of 30 KiB to 1 MiB (the connection's memory
                is 32 KiB)
  nul           NUL bytes in the method, target, version, header names and
                values, and after the request
  bad_version   HTTP/1.2, 2.0, 0.9 (no version), HTTP/1., lower case, ...
  no_colon      header lines without a colon, with space before it, an empty
                name, a fold
  huge_header   a header value (or name) of 33 KiB to 2 MiB
  many_headers  1000 to 50000 headers
  bad_chunked   Transfer-Encoding: chunked with a body whose chunks are bad
                (sizes not hex, negative, 2^64, short, long, no end), with
                Content-Length too, and TE values not chunked
  bad_length    Content-Length bad, twice, huge; Host missing, twice
  cr_no_lf      lines ended by CR alone, CR inside a value; bare LF
  pipelined     2 to 100 requests in one write: the answers in order, each
                whole (200 for /metrics and /, 404, 405, HEAD bodiless),
                then a malformed one or Connection: close
  half_close    the write side shut after a whole or part request, or the
                connection reset (SO_LINGER 0) while wbtop answers
  random_bytes  random bytes, random text, random lines, and mutations of a
                valid request

A case's outcome is the first answer: "ok" (2xx), "error" (4xx/5xx), "closed"
(closed or reset with no answer), "open" (nothing, and the connection still
open SHUT_WAIT s after our side was shut: then it must be closed by CLOSE_BY (14 s),
the idle timeout), "garbage" (bytes that are not an HTTP/1.x answer) or
"partial" (an answer cut short).  A case says what it allows: an error or a
close always, ok only when the request is one HTTP lets a server take
(HTTP/1.2, bare LF, a fold, a NUL in a value, a body wbtop never reads, a
mutation that is still valid, ...).  An ok where HTTP wants the request
refused (no Host, Host twice, a space before the colon, ...) is "lenient":
libmicrohttpd's parser takes it, which harms no one in front of a read-only
page; it is listed, and a failure only with --strict.  A request sent whole
but not ended is shut at once (our write side) rather than waited on.  A
pipeline's answers must be right and in order; the server may answer a
prefix and close, if the last answer it gives says Connection: close.

After every case GET /metrics must answer 200 with a whole page within ANSWER_BY (5 s),
and the page must be fresh (its sample not older than max(2 s, 4 intervals):
sampling not stalled).  Beside the cases, three connections run for 15 s:
one sends nothing, one a request line and then nothing, one ("slowloris")
a header byte every second; each must be closed by the server by CLOSE_BY (14 s)
after it opened (the idle timeout is 10 s).  Then ("slowloris flood")
CONNECTION_LIMIT connections trickle a header byte a second each for 15 s,
and a scrape must get through by CLOSE_BY (14 s) after they opened (the server must
cut them, not let them hold every slot).  At the end wbtop must still be
running, its samples counter must have advanced with the time (at least
80% of the intervals), it must exit 0 on SIGTERM, and its stderr must hold
no sanitizer report ("ERROR: AddressSanitizer", "runtime error:", ...).

Exit status: 0 all held, 1 something did not (each said on a FAIL line),
2 a usage or set-up error.  --only I runs case I alone (with --seed, the
case a failure named; without the slow connections and the flood unless
--slow is given); --list prints the cases without running them; -v prints a
line per case.
"""
import argparse
import http.client
import os
import random
import re
import select
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time

from common import HOST, free_port  # noqa: E402  (tests/listen/common.py)
OM_ACCEPT = "application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5,*/*;q=0.1"
IDLE_TIMEOUT = 10.0
CLOSE_BY = 14.0         # the 10 s deadline and slack for a loaded machine (make check runs it beside others)
ANSWER_BY = 5.0         # a health scrape on a loaded machine; it takes milliseconds idle
LONG_S = 15.0           # how long the slow connections trickle
ALLOW_METHODS = "GET, HEAD"


def log(*a):
    print(*a, flush=True)


# ---- answers ------------------------------------------------------------------

class Resp:
    def __init__(self, status, headers, body):
        self.status, self.headers, self.body = status, headers, body


STATUS_RE = re.compile(rb"^HTTP/1\.[01] ([0-9]{3})(?: [^\r\n]*)?$")


def parse_responses(buf, methods, closed):
    """(answers, state): state "whole" (buf is whole answers), "more" (an answer
    not yet complete) or "garbage: why"."""
    out = []
    pos = 0
    while pos < len(buf):
        end = buf.find(b"\r\n\r\n", pos)
        if end < 0:
            rest = buf[pos:pos + 7]
            if not (rest.startswith(b"HTTP/1.") or b"HTTP/1.".startswith(rest)):
                return out, "garbage: %r" % buf[pos:pos + 60]
            return out, "more"
        lines = buf[pos:end].split(b"\r\n")
        m = STATUS_RE.match(lines[0])
        if not m:
            return out, "garbage: %r" % buf[pos:pos + 60]
        status = int(m.group(1))
        headers = {}
        for l in lines[1:]:
            k, sep, v = l.partition(b":")
            if not sep:
                return out, "garbage: header line %r" % l[:60]
            headers.setdefault(k.strip().lower().decode("latin-1"), v.strip().decode("latin-1"))
        start = end + 4
        if 100 <= status < 200:
            pos = start
            continue
        head = len(out) < len(methods) and methods[len(out)] == "HEAD"
        if head or status in (204, 304):
            n = 0
        elif "transfer-encoding" in headers:
            return out, "garbage: a chunked answer"     # wbtop's are all sized
        elif "content-length" in headers:
            try:
                n = int(headers["content-length"])
            except ValueError:
                return out, "garbage: Content-Length %r" % headers["content-length"]
        elif closed:
            n = len(buf) - start
        else:
            return out, "more"
        if len(buf) < start + n:
            return out, "more"
        out.append(Resp(status, headers, buf[start:start + n]))
        pos = start + n
    return out, "whole"


def page_ok(body, om):
    """None, or what is wrong with a /metrics page."""
    if om:
        return None if body.endswith(b"\n# EOF\n") else "OpenMetrics page not ending in # EOF: %r" % body[-40:]
    if not body.endswith(b"\n") or b"# EOF" in body:
        return "0.0.4 page not whole: %r" % body[-40:]
    last = body[:-1].rsplit(b"\n", 1)[-1]
    if not last.startswith(b"wbtop_exporter_samples_total "):
        return "0.0.4 page does not end with wbtop_exporter_samples_total: %r" % last[:60]
    return None


def page_sample(body):
    m1 = re.search(rb"^wbtop_exporter_samples_total (\d+)$", body, re.M)
    m2 = re.search(rb"^wbtop_sample_timestamp_seconds (\S+)$", body, re.M)
    return (int(m1.group(1)) if m1 else None, float(m2.group(1)) if m2 else None)


# ---- the cases ----------------------------------------------------------------

class Case:
    def __init__(self, kind, name, data, allow=("error", "closed"), methods=("GET",), expect=None,
                 shut=False, rst=False, read_some=0, check=None):
        self.kind, self.name = kind, name
        self.data = data if isinstance(data, list) else [data]  # written in turn
        self.allow = set(allow)
        self.methods = list(methods)    # of the requests, for HEAD's bodiless answers
        self.expect = expect            # for "ok": the statuses, in order (pipelined)
        self.shut = shut                # shut our write side after sending (the request is not ended)
        self.rst = rst                  # reset the connection after sending (and reading read_some bytes)
        self.read_some = read_some
        self.check = check              # (answers) -> None or what is wrong

    def size(self):
        return sum(len(d) for d in self.data)


def req(method=b"GET", target=b"/metrics", version=b"HTTP/1.1", headers=(b"Host: 127.0.0.1",), end=b"\r\n\r\n"):
    line = method + b" " + target + (b" " + version if version is not None else b"")
    return b"\r\n".join([line] + list(headers)) + end


VALID = req()
TOKENS = [b"POST", b"PUT", b"DELETE", b"PATCH", b"OPTIONS", b"TRACE", b"FOO", b"get", b"head", b"Get",
          b"M-SEARCH", b"PROPFIND", b"GETT", b"HEADX", b"PRI", b"BREW"]


def allow_check(want):
    def check(rs):
        r = rs[0]
        if r.status != want:
            return "want %d, got %d" % (want, r.status)
        if want == 405 and r.headers.get("allow") != ALLOW_METHODS:
            return "405 with Allow %r, want %r" % (r.headers.get("allow"), ALLOW_METHODS)
        return None
    return check


def g_bad_method(rnd):
    v = rnd.randrange(8)
    if v <= 2:     # a clean token: wbtop's own answer
        m = rnd.choice(TOKENS) if rnd.random() < 0.7 else \
            bytes(rnd.choice(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ") for _ in range(rnd.randint(1, 20)))
        if m in (b"GET", b"HEAD"):
            m = b"GOT"
        t = rnd.choice([b"/metrics", b"/", b"/x", b"/metrics/", b"/METRICS"])
        want = 405 if t in (b"/metrics", b"/") else 404
        return Case("bad_method", "token %s %s" % (m.decode(), t.decode()),
                    req(m, t, headers=[b"Host: 127.0.0.1", b"Content-Length: 0"]), allow=("error",),
                    methods=[m.decode()], check=allow_check(want))
    if v == 3:
        m = rnd.choice([b"G(ET", b"GE\"T", b"G\x7fET", b"G\xc3\x89T", b"\tGET", b"GET\t", b"G;ET", b"{}", b"@"])
        return Case("bad_method", "bad characters %r" % m, req(m), allow=("error", "closed"))
    if v == 4:
        return Case("bad_method", "empty method", b" /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
    if v == 5:
        n = rnd.choice([4096, 20000, 40000, 100000])
        return Case("bad_method", "method of %d letters" % n, req(b"G" * n),
                    allow=("error", "closed"), check=None)
    if v == 6:
        return Case("bad_method", "HTTP/2 preface", b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + b"\x00\x00\x12\x04" + b"\x00" * 18)
    return Case("bad_method", "two spaces", b"GET  /metrics  HTTP/1.1\r\nHost: x\r\n\r\n", allow=("error", "closed"))


def g_huge_uri(rnd):
    n = rnd.choice([30000, 33000, 40000, 65536, 100000, 300000, 1 << 20])
    v = rnd.randrange(3)
    if v == 0:
        t = b"/" + bytes(rnd.choice(b"abcdefghijklmnopqrstuvwxyz0123456789-._~") for _ in range(n))
        name = "target /%d chars" % n
    elif v == 1:
        t = b"/metrics?" + b"a=" * (n // 2)
        name = "/metrics?%d-char query" % n
    else:
        t = b"/" + b"%41" * (n // 3)
        name = "%d escaped chars" % n
    # a target the connection's 32 KiB can hold may be answered (/metrics and a query: 200; else 404)
    allow = ("error", "closed", "ok") if n < 32768 and v == 1 else ("error", "closed")
    return Case("huge_uri", name, req(target=t), allow=allow)


def g_nul(rnd):
    v = rnd.choice(["method", "target", "target start", "version", "header name", "header value", "line", "after",
                    "accept", "host"])
    if v == "method":
        d = req(b"GE\x00T")
    elif v == "target":
        d = req(target=b"/metrics\x00.html")
    elif v == "target start":
        d = req(target=b"/\x00metrics")
    elif v == "version":
        d = req(version=b"HTTP/1.1\x00")
    elif v == "header name":
        d = req(headers=[b"Host: 127.0.0.1", b"X-F\x00oo: bar"])
    elif v == "header value":
        d = req(headers=[b"Host: 127.0.0.1", b"X-Foo: b\x00ar"])
    elif v == "line":
        d = req(headers=[b"Host: 127.0.0.1", b"\x00"])
    elif v == "accept":
        d = req(headers=[b"Host: 127.0.0.1", b"Accept: application/openmetrics-text\x00; version=1.0.0"])
    elif v == "host":
        d = req(headers=[b"Host: 127.0.0.1\x00evil"])
    else:
        return Case("nul", "NULs after a request", VALID + b"\x00" * rnd.randint(1, 5000), allow=("ok",),
                    check=lambda rs: None if rs[0].status == 200 and not page_ok(rs[0].body, False) else
                    "the request before the NULs: %d" % rs[0].status)
    # RFC 9110 5.5: a NUL in a field value is refused, or taken as a space: 200 allowed there
    return Case("nul", "NUL in the " + v, d,
                allow=("error", "closed", "ok") if v in ("header value", "accept", "host") else ("error", "closed"))


def g_bad_version(rnd):
    v = rnd.choice([b"HTTP/1.2", b"HTTP/1.9", b"HTTP/2.0", b"HTTP/3", b"HTTP/0.9", b"HTTP/1.", b"HTTP/",
                    b"HTTP/1.1x", b"http/1.1", b"HTTP/11.1", b"HTTP/1.10", b"HTTP/-1.1", b"HTTP/1.1 extra",
                    b"HTTPS/1.1", b"HTTP/1 .1", b"HTTP/\xff.1", None])
    if v is None:      # HTTP/0.9: a request line without a version
        return Case("bad_version", "no version (HTTP/0.9)", b"GET /metrics\r\n\r\n")
    # RFC 9112 2.3: a 1.x minor version above 1 is to be taken as the highest the server has
    allow = ("error", "closed", "ok") if v in (b"HTTP/1.2", b"HTTP/1.9") else ("error", "closed")
    return Case("bad_version", "version %r" % v, req(version=v), allow=allow)


def g_no_colon(rnd):
    v = rnd.randrange(7)
    if v == 0:
        return Case("no_colon", "a line without a colon", req(headers=[b"Host: x", b"NoColonHere"]))
    if v == 1:
        return Case("no_colon", "a line without a colon, with a value",
                    req(headers=[b"Host: x", b"Accept application/openmetrics-text"]))
    if v == 2:
        return Case("no_colon", "an empty name", req(headers=[b"Host: x", b": novalue"]))
    if v == 3:     # RFC 9112 5.1: a server MUST reject this with 400
        return Case("no_colon", "space before the colon", req(headers=[b"Host: x", b"Accept : text/plain"]))
    if v == 4:     # RFC 9112 5.2: an obs-fold is rejected or taken as spaces
        return Case("no_colon", "a folded value", req(headers=[b"Host: x", b"X-Foo: a", b" b"]),
                    allow=("error", "closed", "ok"))
    if v == 5:
        return Case("no_colon", "a fold as the first line", req(headers=[b" Host: x"]))
    return Case("no_colon", "%d lines without a colon" % 100, req(headers=[b"Host: x"] + [b"word%d" % i for i in range(100)]))


def g_huge_header(rnd):
    n = rnd.choice([33000, 40000, 65536, 256 << 10, 1 << 20, 2 << 20])
    v = rnd.randrange(3)
    if v == 0:
        h = b"X-Big: " + b"v" * n
        name = "a %d-byte value" % n
    elif v == 1:
        h = b"Accept: application/openmetrics-text," + b"x" * n
        name = "an Accept of %d bytes" % n
    else:
        h = b"X" * n + b": v"
        name = "a %d-byte name" % n
    return Case("huge_header", name, req(headers=[b"Host: x", h]))


def g_many_headers(rnd):
    n = rnd.choice([1000, 2000, 5000, 10000, 50000])
    hs = [b"Host: x"] + [b"X-%d: %d" % (i, i) for i in range(n)]
    d = req(headers=hs)
    return Case("many_headers", "%d headers (%d bytes)" % (n, len(d)), d,
                allow=("error", "closed", "ok") if len(d) < 32768 else ("error", "closed"))


CHUNKED_BODIES = [
    (b"zz\r\nabc\r\n0\r\n\r\n", "size not hex"),
    (b"-1\r\nabc\r\n0\r\n\r\n", "negative size"),
    (b"10000000000000000\r\nabc\r\n0\r\n\r\n", "size 2^64"),
    (b"ffffffffffffffffffffffff\r\nabc\r\n", "size of 24 hex digits"),
    (b"7fffffffffffffff\r\nabc", "size 2^63-1, 3 bytes"),
    (b"5\r\nabc\r\n0\r\n\r\n", "a short chunk"),
    (b"3\r\nabcdefgh\r\n0\r\n\r\n", "a long chunk"),
    (b"3;ext=\x00\r\nabc\r\n0\r\n\r\n", "a NUL in an extension"),
    (b"0x3\r\nabc\r\n0\r\n\r\n", "a 0x size"),
    (b" 3\r\nabc\r\n0\r\n\r\n", "a space before the size"),
    (b"3\nabc\n0\n\n", "LF only"),
    (b"3\r\nabc\r\n", "no last chunk"),
    (b"3\r\nabc\r\n0\r\nX-Trailer no colon\r\n\r\n", "a bad trailer"),
    (b"\r\n\r\n", "no size at all"),
    (b"".join(b"1\r\nx\r\n" for _ in range(5000)) + b"0\r\n\r\n", "5000 one-byte chunks"),
]


def g_bad_chunked(rnd):
    body, bname = rnd.choice(CHUNKED_BODIES)
    m = rnd.choice([b"POST", b"PUT", b"GET"])
    te = rnd.choice([b"Transfer-Encoding: chunked", b"Transfer-Encoding: chunked", b"Transfer-Encoding: gzip, chunked",
                     b"Transfer-Encoding: chunkedX", b"Transfer-Encoding: chunked\r\nContent-Length: 3",
                     b"Transfer-Encoding: chunked\r\nTransfer-Encoding: identity"])
    d = req(m, headers=[b"Host: x", te]) + body
    # wbtop answers from the headers (405 for POST/PUT, the page for GET) without reading the body; a body
    # that does not end leaves the server waiting for it: our side is shut
    incomplete = bname in ("no last chunk", "size of 24 hex digits", "size 2^63-1, 3 bytes")
    allow = ("error", "closed", "ok") if m == b"GET" else ("error", "closed")
    return Case("bad_chunked", "%s, %s, %s" % (m.decode(), te.decode().replace("\r\n", " + "), bname), d,
                allow=allow, shut=incomplete)


def g_bad_length(rnd):
    v = rnd.randrange(8)
    if v == 0:
        return Case("bad_length", "Content-Length -1", req(headers=[b"Host: x", b"Content-Length: -1"]))
    if v == 1:
        return Case("bad_length", "Content-Length 2^64", req(headers=[b"Host: x", b"Content-Length: 18446744073709551616"]))
    if v == 2:
        return Case("bad_length", "Content-Length abc", req(headers=[b"Host: x", b"Content-Length: abc"]))
    if v == 3:
        return Case("bad_length", "two Content-Lengths",
                    req(b"POST", headers=[b"Host: x", b"Content-Length: 3", b"Content-Length: 5"]) + b"abcde")
    if v == 4:
        return Case("bad_length", "a GET with a 5-byte body", req(headers=[b"Host: x", b"Content-Length: 5"]) + b"abcde",
                    allow=("error", "closed", "ok"))
    if v == 5:      # RFC 9112 3.2: a 1.1 request without Host gets 400
        return Case("bad_length", "no Host", req(headers=[]))
    if v == 6:
        return Case("bad_length", "Host twice", req(headers=[b"Host: a", b"Host: b"]))
    return Case("bad_length", "Content-Length 1000000, 10 bytes sent",
                req(b"POST", headers=[b"Host: x", b"Content-Length: 1000000"]) + b"0123456789", shut=True)


def g_cr_no_lf(rnd):
    v = rnd.randrange(8)
    if v == 0:
        return Case("cr_no_lf", "CR-only line ends", b"GET /metrics HTTP/1.1\rHost: x\r\r", shut=True)
    if v == 1:
        return Case("cr_no_lf", "CR inside a value", req(headers=[b"Host: x", b"X-Foo: a\rb"]),
                    allow=("error", "closed", "ok"))    # RFC 9110 5.5: reject, or take it as a space
    if v == 2:
        return Case("cr_no_lf", "CR CR LF", b"GET /metrics HTTP/1.1\r\r\nHost: x\r\r\n\r\r\n")
    if v == 3:
        return Case("cr_no_lf", "a CR in the request line", b"GET /metrics\r HTTP/1.1\r\nHost: x\r\n\r\n")
    if v == 4:     # RFC 9112 2.2: a recipient may take a bare LF as a line end
        return Case("cr_no_lf", "bare LF", b"GET /metrics HTTP/1.1\nHost: x\n\n", allow=("error", "closed", "ok"))
    if v == 5:     # RFC 9112 2.2: a server should ignore an empty line before the request line
        return Case("cr_no_lf", "empty lines first", b"\r\n\r\n" + VALID, allow=("error", "closed", "ok"))
    if v == 6:
        return Case("cr_no_lf", "%d CRs" % 5000, b"\r" * 5000, shut=True)
    return Case("cr_no_lf", "a lone CR as the last line", b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r", shut=True)


PIPE_REQS = [
    (b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n", "GET", 200, "0.0.4"),
    (b"GET /metrics HTTP/1.1\r\nHost: x\r\nAccept: " + OM_ACCEPT.encode() + b"\r\n\r\n", "GET", 200, "om"),
    (b"HEAD /metrics HTTP/1.1\r\nHost: x\r\n\r\n", "HEAD", 200, None),
    (b"GET / HTTP/1.1\r\nHost: x\r\n\r\n", "GET", 200, None),
    (b"GET /nope HTTP/1.1\r\nHost: x\r\n\r\n", "GET", 404, None),
    (b"HEAD /nope HTTP/1.1\r\nHost: x\r\n\r\n", "HEAD", 404, None),
    (b"POST /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n", "POST", 405, None),
]


def g_pipelined(rnd):
    k = rnd.choice([2, 3, 5, 10, 20, 100])
    picks = [rnd.choice(PIPE_REQS) for _ in range(k)]
    tail = rnd.randrange(4)     # 0, 1: nothing; 2: a malformed request; 3: Connection: close on the last
    data = b"".join(p[0] for p in picks)
    name = "%d requests" % k
    if tail == 2:
        data += rnd.choice([b"GARBAGE\r\n\r\n", b"GET /metrics HTTP/1.1\r\nNoColon\r\n\r\n", b"\x00\x01\x02\r\n\r\n"])
        name += " and a malformed one"
    if tail == 3:
        data = data[:-2] + b"Connection: close\r\n\r\n"
        name += ", the last with Connection: close"
    wants = [p[2] for p in picks]
    dialects = [p[3] for p in picks]

    def check(rs):
        # HTTP lets a server answer a prefix and close, saying so in the last answer (Connection: close);
        # libmicrohttpd does that after each answer wbtop queues from the headers alone
        if len(rs) < k and rs and "close" not in rs[-1].headers.get("connection", "").lower():
            return "%d answers of %d, the last without Connection: close" % (len(rs), k)
        for i, (r, w, d) in enumerate(zip(rs, wants, dialects)):
            if r.status != w:
                return "answer %d: %d, want %d" % (i + 1, r.status, w)
            if d:
                bad = page_ok(r.body, d == "om")
                if bad:
                    return "answer %d: %s" % (i + 1, bad)
            if picks[i][1] == "HEAD" and r.body:
                return "answer %d to HEAD with a body" % (i + 1)
            if w == 405 and r.headers.get("allow") != ALLOW_METHODS:
                return "answer %d: 405 with Allow %r" % (i + 1, r.headers.get("allow"))
        if tail == 2 and len(rs) > k and rs[k].status < 400:
            return "the malformed request after them got %d" % rs[k].status
        return None
    return Case("pipelined", name, data, allow=("ok",), methods=[p[1] for p in picks], expect=wants,
                check=check)


def g_half_close(rnd):
    v = rnd.randrange(7)
    if v == 0:     # RFC 9112 9.6: a half-close does not take the answer back; closing without one is also seen
        return Case("half_close", "a whole GET, then our side shut", VALID, allow=("ok", "closed"), shut=True)
    if v == 1:
        return Case("half_close", "half a request line, then shut", b"GET /metr", shut=True)
    if v == 2:
        return Case("half_close", "headers not ended, then shut", b"GET /metrics HTTP/1.1\r\nHost: x\r\n", shut=True)
    if v == 3:
        return Case("half_close", "nothing, then shut", b"", shut=True)
    if v == 4:
        return Case("half_close", "a whole GET, then reset", VALID, rst=True)
    if v == 5:
        return Case("half_close", "20 pipelined GETs, then reset", VALID * 20, rst=True)
    return Case("half_close", "a whole GET, 100 bytes read, then reset", VALID, rst=True, read_some=100)


def g_random_bytes(rnd):
    v = rnd.randrange(5)
    if v == 0:
        d = bytes(rnd.getrandbits(8) for _ in range(rnd.randint(1, 8192)))
        return Case("random_bytes", "%d random bytes" % len(d), d, allow=("error", "closed"))
    if v == 1:
        d = bytes(rnd.randint(32, 126) for _ in range(rnd.randint(1, 4096))) + b"\r\n\r\n"
        return Case("random_bytes", "%d random printable bytes and an empty line" % (len(d) - 4), d)
    if v == 2:
        lines = [bytes(rnd.randint(32, 126) for _ in range(rnd.randint(0, 80))) for _ in range(rnd.randint(1, 40))]
        return Case("random_bytes", "%d random lines" % len(lines), b"\r\n".join(lines) + b"\r\n\r\n")
    if v == 3:
        d = b"GET " + bytes(rnd.randint(33, 126) for _ in range(rnd.randint(1, 200))) + b" HTTP/1.1\r\nHost: x\r\n\r\n"
        return Case("random_bytes", "GET of a random target", d, allow=("error", "closed", "ok"))
    d = bytearray(VALID if rnd.random() < 0.5 else
                  b"GET /metrics HTTP/1.1\r\nHost: x\r\nAccept: " + OM_ACCEPT.encode() + b"\r\n\r\n")
    n = rnd.randint(1, 8)
    for _ in range(n):
        op, i = rnd.randrange(3), rnd.randrange(len(d))
        if op == 0:
            d[i] = rnd.getrandbits(8)
        elif op == 1:
            d.insert(i, rnd.getrandbits(8))
        elif len(d) > 1:
            del d[i]
    # a mutation may still be a request (or one not ended: shut then)
    return Case("random_bytes", "a valid request with %d bytes changed" % n, bytes(d),
                allow=("error", "closed", "ok"), shut=b"\n\r\n" not in d and b"\n\n" not in d)


KINDS = [("bad_method", g_bad_method), ("huge_uri", g_huge_uri), ("nul", g_nul), ("bad_version", g_bad_version),
         ("no_colon", g_no_colon), ("huge_header", g_huge_header), ("many_headers", g_many_headers),
         ("bad_chunked", g_bad_chunked), ("bad_length", g_bad_length), ("cr_no_lf", g_cr_no_lf),
         ("pipelined", g_pipelined), ("half_close", g_half_close), ("random_bytes", g_random_bytes)]


def make_cases(seed, n):
    rnd = random.Random(seed)
    return [KINDS[i % len(KINDS)][1](rnd) for i in range(n)]


# ---- running a case -------------------------------------------------------------

def run_case(port, c, first_wait, shut_wait):
    """(outcome, answers, detail, note, socket left open or None)."""
    s = socket.create_connection((HOST, port), timeout=5)
    send_err = None
    try:
        for d in c.data:
            if d:
                s.sendall(d)
    except OSError as e:
        send_err = e        # the server answered and closed before all was sent: its answer may be there
    if c.rst:
        if c.read_some:
            s.settimeout(2)
            try:
                s.recv(c.read_some)
            except OSError:
                pass
        s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        s.close()
        return "reset", [], "", "", None
    shut = False
    if c.shut or send_err:
        try:
            s.shutdown(socket.SHUT_WR)
        except OSError:
            pass
        shut = True
    buf = b""
    closed = reset = False
    deadline = time.time() + (shut_wait if shut else first_wait)
    want = len(c.expect) if c.expect else 1
    while True:
        left = deadline - time.time()
        if left <= 0:
            if buf:
                break       # an answer that does not end
            if not shut:
                try:
                    s.shutdown(socket.SHUT_WR)
                except OSError:
                    pass
                shut = True
                deadline = time.time() + shut_wait
                continue
            return "open", [], "nothing, and open %.1f s after our side was shut" % shut_wait, "", s
        r, _, _ = select.select([s], [], [], left)
        if not r:
            continue
        try:
            d = s.recv(1 << 16)
        except OSError:
            reset = True
            d = b""
        if not d:
            closed = True
            break
        buf += d
        deadline = time.time() + 3.0    # more of it is coming
        rs, state = parse_responses(buf, c.methods, False)
        if state.startswith("garbage") or len(rs) >= want:
            break
    rs, state = parse_responses(buf, c.methods, closed or reset)
    s.close()
    note = ""
    if state.startswith("garbage"):
        if not rs:
            return "garbage", rs, state, "", None
        # libmicrohttpd 0.9.75 writes some of its own error answers twice, the first without its body
        note = "after answer %d (%d): bytes that are not an answer: %s" % (len(rs), rs[-1].status, state[9:])
        if c.expect is None and rs[0].status >= 400:
            return "error", rs, str(rs[0].status), note, None
        return "garbage", rs, state, note, None
    if not rs:
        if buf:
            if send_err or reset:
                return "closed", rs, "%d bytes of an answer, then reset" % len(buf), "", None
            return "partial", rs, "%d bytes, no whole answer: %r" % (len(buf), buf[:80]), "", None
        return "closed", rs, ("reset" if reset else "closed") + (" while we sent (%s)" % send_err.strerror
                                                                 if send_err else ""), "", None
    if state == "more" and not (send_err or reset):
        return "partial", rs, "an answer cut short after %d whole" % len(rs), "", None
    if c.expect:
        return "ok", rs, "%d of %d answered: %s" % (len(rs), len(c.expect), " ".join(str(r.status) for r in rs)), \
            "", None
    st = rs[0].status
    return ("ok" if 200 <= st < 300 else "error" if st >= 400 else "other"), rs, str(st), note, None


# ---- wbtop --------------------------------------------------------------------

def scrape(port, om=False, timeout=2.0):
    """(status, body) of GET /metrics; raises on a failure to get one."""
    c = http.client.HTTPConnection(HOST, port, timeout=timeout)
    try:
        c.request("GET", "/metrics", headers={"Accept": OM_ACCEPT} if om else {})
        r = c.getresponse()
        return r.status, r.read()
    finally:
        c.close()


SAN_RE = re.compile(r"ERROR: (AddressSanitizer|LeakSanitizer|ThreadSanitizer|MemorySanitizer)|runtime error:|"
                    r"SUMMARY: (Address|Undefined|Leak)")


class Fuzz:
    def __init__(self, a):
        self.a = a
        self.fails = []
        self.health = []        # (wall time, samples, stamp)
        self.health_fails = 0
        self.lock = threading.Lock()

    def fail(self, msg):
        with self.lock:
            self.fails.append(msg)
        log("FAIL: " + msg)

    def healthy(self, what, om=False):
        ok = self.healthy1(what, om)
        if not ok:
            self.health_fails += 1
        return ok

    def healthy1(self, what, om):
        t0 = time.time()
        try:
            status, body = scrape(self.port, om, ANSWER_BY)
        except Exception as e:     # noqa: BLE001
            self.fail("after %s: GET /metrics: %r (%.1f s)%s" % (what, e, time.time() - t0, self.exited()))
            return False
        dt = time.time() - t0
        if status != 200:
            self.fail("after %s: GET /metrics: status %d" % (what, status))
            return False
        bad = page_ok(body, om)
        if bad:
            self.fail("after %s: %s" % (what, bad))
            return False
        n, ts = page_sample(body)
        now = time.time()
        self.health.append((now, n, ts))
        stale = max(ANSWER_BY, 4 * self.a.interval)
        if ts is not None and now - ts > stale and not self.stale_said:
            self.stale_said = True
            self.fail("after %s: the page's sample is %.1f s old (sampling stalled?)" % (what, now - ts))
        if dt > ANSWER_BY:
            self.fail("after %s: GET /metrics took %.1f s" % (what, dt))
        return True

    def exited(self):
        rc = self.p.poll()
        return "" if rc is None else "; wbtop exited with %s" % rc

    # -- the slow connections beside the cases
    def slow(self, kind, results):
        s = socket.create_connection((HOST, self.port), timeout=5)
        t0 = time.time()
        first = {"idle": b"", "request line": b"GET /metrics HTTP/1.1\r\n",
                 "slowloris": b"GET /metrics HTTP/1.1\r\nHost: x\r\nX-Slow: "}[kind]
        if first:
            s.sendall(first)
        sent = 0
        closed_at = None
        how = ""
        while time.time() - t0 < LONG_S:
            if kind == "slowloris" and time.time() - t0 >= sent + 1:
                try:
                    s.sendall(b"a")
                    sent += 1
                except OSError as e:
                    closed_at, how = time.time() - t0, "send: %s" % e.strerror
                    break
            r, _, _ = select.select([s], [], [], 0.05)
            if r:
                try:
                    d = s.recv(4096)
                except OSError as e:
                    d, how = b"", e.strerror
                closed_at = time.time() - t0
                how = how or ("answered %r and closed" % d.split(b"\r\n")[0] if d else "closed")
                break
        s.close()
        results[kind] = (closed_at, how, sent)

    def flood(self):
        """CONNECTION_LIMIT connections trickling a header byte a second: does a scrape get through?"""
        n = self.a.connection_limit
        socks = []
        t0 = time.time()
        for i in range(n):
            try:
                s = socket.create_connection((HOST, self.port), timeout=2)
                s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\nX-Slow: ")
                s.setblocking(False)
                socks.append(s)
            except OSError as e:
                log("fuzz: flood connection %d: %s" % (i, e))
                break
        t_open = time.time()
        got = None
        tries = 0
        last_drip = t_open
        open_left = len(socks)
        while time.time() - t_open < LONG_S:
            if time.time() - last_drip >= 1:
                last_drip = time.time()
                open_left = 0
                for s in socks:
                    if s.fileno() < 0:
                        continue
                    try:
                        s.send(b"a")
                        open_left += 1
                    except OSError:
                        s.close()
            if got is None:
                tries += 1
                try:
                    status, body = scrape(self.port, False, 1.0)
                    if status == 200:
                        got = time.time() - t_open
                except Exception:   # noqa: BLE001 - refused or timed out: the slots are held
                    pass
            else:
                break
        for s in socks:
            s.close()
        return len(socks), t_open - t0, got, open_left, tries

    def run(self):
        a = self.a
        cases = make_cases(a.seed, a.cases)
        if a.only is not None:
            idx = [a.only]
        else:
            idx = list(range(len(cases)))
        if a.list:
            for i in idx:
                c = cases[i]
                log("%4d %-13s %-50s %7d B allow %s%s" % (i, c.kind, c.name[:50], c.size(), "/".join(sorted(c.allow)),
                                                          " shut" if c.shut else " reset" if c.rst else ""))
            return 0
        binary = os.path.abspath(a.binary)
        self.port = free_port()
        tmp = tempfile.mkdtemp(prefix="wbtop-fuzz.")
        err_path = os.path.join(tmp, "wbtop.err")
        env = dict(os.environ)
        env.setdefault("ASAN_OPTIONS", "detect_leaks=1:abort_on_error=0:exitcode=99")
        env.setdefault("UBSAN_OPTIONS", "print_stacktrace=1:halt_on_error=1:exitcode=98")
        args = [binary, "--listen", "%s:%d" % (HOST, self.port), "-d", str(a.interval)]
        log("fuzz: %s (seed %d, %d cases)" % (" ".join(args), a.seed, len(idx)))
        self.stale_said = False
        with open(err_path, "w") as err:
            self.p = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err, env=env)
        t_start = time.time()
        try:
            return self.drive(cases, idx, err_path, t_start)
        finally:
            if self.p.poll() is None:
                self.p.kill()
                self.p.wait()
            try:
                os.unlink(err_path)
                os.rmdir(tmp)
            except OSError:
                pass

    def drive(self, cases, idx, err_path, t_start):
        a = self.a
        end = time.time() + 60
        while True:
            if self.p.poll() is not None:
                log("fuzz: FAIL: wbtop exited with %s before serving" % self.p.returncode)
                return 2
            try:
                if scrape(self.port, False, 1.0)[0] == 200:
                    break
            except OSError:
                pass
            if time.time() > end:
                log("fuzz: FAIL: no 200 from /metrics in 60 s")
                return 2
            time.sleep(0.1)
        self.healthy("start")
        n0 = self.health[0][1]
        t0 = time.time()

        slow = {}
        slow_threads = []
        if a.slow:
            for k in ("idle", "request line", "slowloris"):
                th = threading.Thread(target=self.slow, args=(k, slow), daemon=True)
                th.start()
                slow_threads.append(th)

        outcomes = {}          # kind -> {outcome: count}
        taken = []             # answered 200 where HTTP lets a server take the request
        lenient = {}           # case name -> [case numbers]: answered 200 where HTTP wants an error
        notes = {}             # note -> [case numbers]
        open_socks = []        # (socket, time, case): left open by the server after our side was shut
        t_cases = time.time()
        for i in idx:
            c = cases[i]
            what = "case %d (%s: %s)" % (i, c.kind, c.name)
            try:
                out, rs, detail, note, left = run_case(self.port, c, a.first_wait, a.shut_wait)
            except Exception as e:  # noqa: BLE001
                out, rs, detail, note, left = "exception", [], repr(e), "", None
            if left is not None:
                open_socks.append((left, time.time(), what))
            if out == "ok" and "ok" not in c.allow:
                out = "lenient"
                lenient.setdefault(c.name, []).append(i)
            elif out == "ok" and c.allow != {"ok"}:
                taken.append("%s: %s" % (what, detail))
            if note:
                notes.setdefault(re.sub(r"answer 1 \((\d+)\)", r"an error answer", note)[:150], []).append(i)
            outcomes.setdefault(c.kind, {}).setdefault(out, 0)
            outcomes[c.kind][out] += 1
            if a.verbose:
                log("%4d %-13s %-55s -> %s %s%s" % (i, c.kind, c.name[:55], out, detail[:80], "; " + note[:80] if note else ""))
            ok = (out in c.allow or out == "reset" and c.rst or out == "open" and "closed" in c.allow or
                  out == "lenient" and not a.strict)
            if not ok:
                self.fail("%s: %s (%s), allowed: %s; the bytes begin %r" % (what, out, detail, "/".join(sorted(c.allow)),
                                                                           b"".join(c.data)[:120]))
            elif c.check and out in ("ok", "error", "lenient"):
                why = c.check(rs)
                if why:
                    self.fail("%s: %s; the bytes begin %r" % (what, why, b"".join(c.data)[:120]))
            if not self.healthy(what, om=i % 2 == 1):
                if self.p.poll() is not None:
                    break
        t_cases = time.time() - t_cases

        # what the server left open after our side was shut: closed by the idle timeout?
        lingering = 0
        for s, t, what in open_socks:
            s.settimeout(max(0.1, t + CLOSE_BY - time.time()))
            try:
                s.recv(4096)
                closed = True
            except socket.timeout:
                closed = False
            except OSError:
                closed = True
            if not closed:
                lingering += 1
                self.fail("%s: the connection was still open %.1f s after our side was shut" % (what, CLOSE_BY))
            s.close()

        for th in slow_threads:
            th.join()
        slow_lines = []
        for k in ("idle", "request line", "slowloris"):
            if k not in slow:
                continue
            at, how, sent = slow[k]
            line = "%-13s %s" % (k, "closed at %.1f s (%s)" % (at, how) if at is not None else
                                 "still open at %.0f s" % LONG_S)
            if k == "slowloris":
                line += ", %d header bytes sent one a second" % sent
            slow_lines.append(line)
            if at is None or at > CLOSE_BY:
                self.fail("%s connection: %s; want it closed by %.1f s (idle timeout %.0f s)%s" % (
                    k, "still open after %.0f s" % LONG_S if at is None else "closed only at %.1f s" % at, CLOSE_BY,
                    IDLE_TIMEOUT, ": each byte restarts the idle timeout, so a client sending one a second is "
                    "never cut off" if k == "slowloris" and at is None else ""))
        if a.slow:
            self.healthy("the slow connections")

        flood_line = None
        if a.flood:
            n, t_open, got, open_left, tries = self.flood()
            flood_line = ("%d connections (opened in %.1f s) trickling a byte a second: %s; %d still open at the end"
                          % (n, t_open, "a scrape got through at %.1f s" % got if got is not None else
                             "no scrape got through in %.0f s (%d tries)" % (LONG_S, tries), open_left))
            if got is None or got > CLOSE_BY:
                self.fail("slowloris flood: %s; want a scrape through by %.1f s: the server must cut the slow "
                          "connections, which hold all %d slots" % (flood_line, CLOSE_BY, n))
            self.healthy("the slowloris flood")

        # sampling went on
        elapsed = time.time() - t0
        self.healthy("the end")
        n1 = self.health[-1][1]
        alive = self.p.poll() is None
        if not alive:
            self.fail("wbtop is not running at the end: exit status %s" % self.p.returncode)
        adv = (n1 or 0) - (n0 or 0)
        want = 0.8 * elapsed / a.interval - 2
        if adv < want:
            self.fail("the samples counter advanced by %d in %.1f s at -d %g (want %d or more): sampling stalled"
                      % (adv, elapsed, a.interval, want))
        ages = [t - ts for t, _, ts in self.health if ts is not None]
        rc = None
        if alive:
            self.p.send_signal(signal.SIGTERM)
            try:
                rc = self.p.wait(15)
            except subprocess.TimeoutExpired:
                self.fail("wbtop did not exit within 15 s of SIGTERM")
                self.p.kill()
                self.p.wait()
            if rc not in (0, None):
                self.fail("wbtop's exit status after SIGTERM: %s" % rc)
        with open(err_path, errors="replace") as f:
            err = f.read()
        san = [l for l in err.splitlines() if SAN_RE.search(l)]
        if san:
            self.fail("sanitizer report on wbtop's stderr: %s" % san[0])
        unexpected = [l for l in err.splitlines()
                      if not l.startswith("wbtop: serving ") and not l.startswith("wbtop: kernel writeback loop: ")]

        # ---- summary
        log("")
        log("fuzz: seed %d, %d cases in %.1f s (wbtop %s, -d %g)" % (a.seed, len(idx), t_cases, os.path.basename(
            os.path.dirname(os.path.abspath(a.binary))) + "/" + os.path.basename(a.binary), a.interval))
        names = ["ok", "lenient", "error", "closed", "open", "reset", "partial", "garbage", "other", "exception"]
        log("  %-13s %5s  %s" % ("kind", "cases", "outcomes"))
        for k, _ in KINDS:
            if k in outcomes:
                o = outcomes[k]
                log("  %-13s %5d  %s" % (k, sum(o.values()), ", ".join("%s %d" % (x, o[x]) for x in names if x in o)))
        tot = {}
        for o in outcomes.values():
            for x, v in o.items():
                tot[x] = tot.get(x, 0) + v
        log("  %-13s %5d  %s" % ("all", sum(tot.values()), ", ".join("%s %d" % (x, tot[x]) for x in names if x in tot)))
        if open_socks:
            log("  open: %d times nothing came and the server kept the connection after our side was shut; each was "
                "closed by %.1f s: %s" % (len(open_socks), CLOSE_BY, "yes" if not lingering else "no, %d were not" % lingering))
        if taken:
            log("  ok where HTTP lets a server take the request (a body wbtop never reads, HTTP/1.2, bare LF, ...): %d"
                % len(taken))
            if a.verbose:
                for l in taken:
                    log("    " + l)
        if lenient:
            log("  lenient: 200 to a request HTTP wants refused (libmicrohttpd's parser; a failure with --strict):")
            for name, ii in sorted(lenient.items()):
                log("    %-40s cases %s" % (name[:40], " ".join(map(str, ii[:8])) + (" ..." if len(ii) > 8 else "")))
        if notes:
            log("  notes:")
            for n, ii in sorted(notes.items()):
                log("    %s: cases %s" % (n, " ".join(map(str, ii[:8])) + (" ..." if len(ii) > 8 else "")))
        for l in slow_lines:
            log("  " + l)
        if flood_line:
            log("  flood         " + flood_line)
        log("  health        %d scrapes of /metrics answered 200 with a whole page, %d did not; oldest sample "
            "seen %.1f s" % (len(self.health), self.health_fails,
               max(ages) if ages else float("nan")))
        log("  sampling      counter +%d in %.1f s at -d %g; wbtop %s; exit status %s; sanitizer reports %d"
            % (adv, elapsed, a.interval, "running at the end" if alive else "DEAD", rc, len(san)))
        if unexpected:
            log("  wbtop's stderr has %d other lines; the first:" % len(unexpected))
            for l in unexpected[:30]:
                log("    | " + l)
        log("fuzz: %s (%.1f s in all)" % ("PASS" if not self.fails else "FAIL: %d problems" % len(self.fails),
                                          time.time() - t_start))
        return 1 if self.fails else 0


def on_signal(sig, frame):
    raise SystemExit(128 + sig)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--binary", default=os.environ.get("WBTOP", "wbtop"), help="the wbtop to test ($WBTOP)")
    ap.add_argument("--seed", type=int, default=1, help="the generator's seed (1)")
    ap.add_argument("--cases", type=int, default=300, help="cases (300)")
    ap.add_argument("--interval", type=float, default=0.5, help="wbtop -d (0.5)")
    ap.add_argument("--first-wait", type=float, default=0.3,
                    help="s to wait for an answer before shutting our side (0.3; what it is only moves a case "
                         "between outcomes that are both allowed)")
    ap.add_argument("--shut-wait", type=float, default=0.4,
                    help="s to wait for an answer or the close after shutting our side (0.4); a connection still "
                         "open then is watched for the idle timeout")
    ap.add_argument("--strict", action="store_true",
                    help="a 200 to a request HTTP wants refused (no Host, Host twice, ...) is a failure")
    ap.add_argument("--connection-limit", type=int, default=256, help="wbtop's connection limit (256)")
    ap.add_argument("--no-slow", dest="slow", action="store_false", default=None,
                    help="without the idle and slowloris connections")
    ap.add_argument("--slow", dest="slow", action="store_true", help="with them (the default, but for --only)")
    ap.add_argument("--no-flood", dest="flood", action="store_false", default=None, help="without the slowloris flood")
    ap.add_argument("--flood", dest="flood", action="store_true", help="with it (the default, but for --only)")
    ap.add_argument("--only", type=int, help="run case ONLY alone")
    ap.add_argument("--list", action="store_true", help="print the cases, run nothing")
    ap.add_argument("-v", "--verbose", action="store_true", help="a line per case")
    a = ap.parse_args()
    if a.only is not None and not 0 <= a.only < a.cases:
        ap.error("--only %d: the cases are 0 to %d" % (a.only, a.cases - 1))
    if a.slow is None:
        a.slow = a.only is None
    if a.flood is None:
        a.flood = a.only is None
    for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(s, on_signal)
    return Fuzz(a).run()


if __name__ == "__main__":
    sys.exit(main())
