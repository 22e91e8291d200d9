#!/usr/bin/env python3
"""om_check.py - a strict checker of OpenMetrics 1.0 text, for wbtop's tests.

It parses an exposition the way the OpenMetrics specification writes it
(ABNF of the text format: one space between tokens, no blank lines, only
HELP/TYPE/UNIT/EOF comments, families not interleaved, suffixes per type,
UNIT a suffix of the name, escapes \\\\ \\" \\n only, no duplicate series,
"# EOF" last) and adds what wbtop promises on top:

  - every family has HELP and TYPE before its samples;
  - node_exporter's textfile collector can read it: no sample timestamps,
    no exemplars, only counter and gauge types, no \\" in HELP (the
    Prometheus 0.0.4 parser it uses rejects those);
  - counters are never negative or NaN.

Usage:
  om_check.py [--stream] [--count N] FILE|-     check; exit 0 if valid
  om_check.py --get NAME [LABEL=VALUE ...] FILE  print the value of the one
                                                 matching sample (last exposition)
  om_check.py --dump FILE                        the samples of the last exposition
                                                 as JSON lines
--stream accepts several expositions one after another (each ending in
"# EOF"), as wbtop -b --format openmetrics prints them; --count N requires
exactly N of them.  Errors: "om_check: FILE:LINE: reason", exit 1.
"""
import json
import math
import re
import sys

NAME_RE = re.compile(r"[a-zA-Z_:][a-zA-Z0-9_:]*")
LABEL_RE = re.compile(r"[a-zA-Z_][a-zA-Z0-9_]*")
NUMBER_RE = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$")
SPECIAL = {"nan", "+inf", "-inf", "+infinity", "-infinity", "inf", "infinity"}

# Sample-name suffixes each type allows (OpenMetrics 1.0).
SUFFIXES = {
    "counter": ("_total", "_created"),
    "gauge": ("",),
    "unknown": ("",),
    "stateset": ("",),
    "info": ("_info",),
    "summary": ("", "_count", "_sum", "_created"),
    "histogram": ("_bucket", "_count", "_sum", "_created"),
    "gaugehistogram": ("_bucket", "_gcount", "_gsum"),
}
RESERVED = ("_total", "_created", "_count", "_sum", "_bucket", "_gcount", "_gsum", "_info")
TEXTFILE_TYPES = ("counter", "gauge")


class Bad(Exception):
    pass


def unescape(s, what, allow_dq=True):
    """Undo OpenMetrics escapes; raise Bad on anything else."""
    out = []
    i = 0
    while i < len(s):
        c = s[i]
        if c == "\\":
            if i + 1 >= len(s):
                raise Bad(f"{what}: backslash at the end")
            e = s[i + 1]
            if e == "n":
                out.append("\n")
            elif e == "\\":
                out.append("\\")
            elif e == '"' and allow_dq:
                out.append('"')
            else:
                raise Bad(f"{what}: invalid escape \\{e}")
            i += 2
            continue
        if c == "\n":
            raise Bad(f"{what}: raw newline")
        if c == '"':
            raise Bad(f"{what}: unescaped double quote")
        out.append(c)
        i += 1
    return "".join(out)


def parse_number(text, what):
    if text.lower() in SPECIAL:
        return float(text.lower().replace("infinity", "inf"))
    if not NUMBER_RE.match(text):
        raise Bad(f"{what}: not a number: {text!r}")
    return float(text)


def parse_labels(s, pos):
    """Labels from s[pos] == '{'; returns (dict, position after '}')."""
    labels = {}
    pos += 1
    if s.startswith("}", pos):
        return labels, pos + 1
    while True:
        m = LABEL_RE.match(s, pos)
        if not m:
            raise Bad(f"bad label name at column {pos + 1}")
        name = m.group(0)
        if name.startswith("__"):
            raise Bad(f"label name {name} is reserved")
        if name in labels:
            raise Bad(f"label {name} twice")
        pos = m.end()
        if not s.startswith('="', pos):
            raise Bad(f"label {name}: expected =\" at column {pos + 1}")
        pos += 2
        end = pos
        while end < len(s) and s[end] != '"':
            end += 2 if s[end] == "\\" else 1
        if end >= len(s):
            raise Bad(f"label {name}: no closing quote")
        labels[name] = unescape(s[pos:end], f"label {name}")
        pos = end + 1
        if s.startswith("}", pos):
            return labels, pos + 1
        if not s.startswith(",", pos) or s.startswith(",}", pos):
            raise Bad(f"expected , or }} after label {name}")
        pos += 1


class Family:
    def __init__(self, name):
        self.name = name
        self.help = None
        self.type = None
        self.unit = None
        self.samples = []
        self.series = set()


class Exposition:
    """One exposition, fed line by line."""

    def __init__(self):
        self.families = []
        self.seen = set()
        self.cur = None
        self.done = False

    def family(self, name):
        if self.cur is not None and self.cur.name == name:
            return self.cur
        if name in self.seen:
            raise Bad(f"family {name} appears again after other families (interleaved)")
        self.seen.add(name)
        self.cur = Family(name)
        self.families.append(self.cur)
        return self.cur

    def meta(self, line):
        parts = line.split(" ", 3)
        if len(parts) < 4 or parts[0] != "#":
            raise Bad(f"malformed comment: {line!r}")
        kind, name, text = parts[1], parts[2], parts[3]
        if not NAME_RE.fullmatch(name):
            raise Bad(f"bad metric name {name!r}")
        fam = self.family(name)
        if fam.samples:
            raise Bad(f"{kind} for {name} after its samples")
        if kind == "HELP":
            if fam.help is not None:
                raise Bad(f"second HELP for {name}")
            fam.help = unescape(text, f"HELP {name}")
            if '\\"' in text:
                raise Bad(f"HELP {name}: \\\" (the Prometheus 0.0.4 parser rejects it)")
        elif kind == "TYPE":
            if fam.type is not None:
                raise Bad(f"second TYPE for {name}")
            if text not in SUFFIXES:
                raise Bad(f"TYPE {name}: unknown type {text!r}")
            if text not in TEXTFILE_TYPES:
                raise Bad(f"TYPE {name}: {text} is not readable by node_exporter's textfile collector")
            if text != "counter" and name.endswith(RESERVED):
                raise Bad(f"{text} {name} ends in a reserved suffix")
            fam.type = text
        elif kind == "UNIT":
            if fam.unit is not None:
                raise Bad(f"second UNIT for {name}")
            if not re.fullmatch(r"[a-zA-Z0-9_:]+", text):
                raise Bad(f"UNIT {name}: bad unit {text!r}")
            if not name.endswith("_" + text):
                raise Bad(f"UNIT {name}: the name does not end in _{text}")
            fam.unit = text
        else:
            raise Bad(f"unknown comment {kind!r} (OpenMetrics has no free comments)")

    def sample(self, line):
        m = NAME_RE.match(line)
        if not m:
            raise Bad(f"bad sample line {line!r}")
        name = m.group(0)
        pos = m.end()
        fam = self.cur
        if fam is not None and fam.type == "counter" and name == fam.name:
            raise Bad(f"counter {name}: its sample must be named {name}_total "
                      f"(TYPE names the family without _total)")
        if fam is None or not any(name == fam.name + s for s in SUFFIXES.get(fam.type or "unknown", ("",))):
            raise Bad(f"sample {name} does not belong to the family before it "
                      f"({fam.name if fam else 'none'}): every family needs HELP and TYPE")
        if fam.type is None or fam.help is None:
            raise Bad(f"family {fam.name} has no {'TYPE' if fam.type is None else 'HELP'}")
        labels = {}
        if line.startswith("{", pos):
            labels, pos = parse_labels(line, pos)
        if not line.startswith(" ", pos):
            raise Bad(f"{name}: expected one space before the value")
        rest = line[pos + 1:]
        if " #" in rest or rest.startswith("#"):
            raise Bad(f"{name}: exemplars are not allowed here")
        fields = rest.split(" ")
        if any(f == "" for f in fields):
            raise Bad(f"{name}: extra spaces")
        if len(fields) > 1:
            raise Bad(f"{name}: sample timestamps are refused by node_exporter's textfile collector")
        value = parse_number(fields[0], name)
        if fam.type == "counter" and (math.isnan(value) or value < 0):
            raise Bad(f"{name}: counter value {fields[0]} is negative or NaN")
        key = (name, tuple(sorted(labels.items())))
        if key in fam.series:
            raise Bad(f"{name}{labels}: the same series twice")
        fam.series.add(key)
        fam.samples.append({"name": name, "labels": labels, "value": value})

    def feed(self, line):
        if self.done:
            raise Bad("text after # EOF")
        if line == "":
            raise Bad("blank line")
        if line != line.strip(" \t"):
            raise Bad("leading or trailing blanks")
        if line == "# EOF":
            self.done = True
        elif line.startswith("#"):
            self.meta(line)
        else:
            self.sample(line)

    def check_names(self):
        """No family's sample names may collide with another's."""
        owner = {}
        for fam in self.families:
            for s in SUFFIXES[fam.type]:
                n = fam.name + s
                if n in owner and owner[n] != fam.name:
                    raise Bad(f"sample name {n} clashes between {owner[n]} and {fam.name}")
                owner[n] = fam.name


def check(text, name, stream):
    """Parse text; return the list of expositions.  Raises SystemExit on error."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        die(name, 0, "not valid UTF-8")
    if not text:
        die(name, 0, "empty input")
    if not text.endswith("\n"):
        die(name, text.count("\n") + 1, "no newline at the end")
    expos = [Exposition()]
    for n, line in enumerate(text[:-1].split("\n"), 1):
        if expos[-1].done:
            if not stream:
                die(name, n, "text after # EOF")
            expos.append(Exposition())
        try:
            expos[-1].feed(line)
            if expos[-1].done:
                expos[-1].check_names()
        except Bad as e:
            die(name, n, str(e))
    if not expos[-1].done:
        die(name, text.count("\n"), "no # EOF at the end")
    return expos


def die(name, line, why):
    print(f"om_check: {name}:{line}: {why}", file=sys.stderr)
    sys.exit(1)


def main(argv):
    stream, count, get, dump = False, None, None, False
    args = argv[1:]
    while args and args[0].startswith("--"):
        opt = args.pop(0)
        if opt == "--stream":
            stream = True
        elif opt == "--count":
            count = int(args.pop(0))
            stream = True
        elif opt == "--get":
            get = [args.pop(0)]
            while len(args) > 1 and "=" in args[0]:
                get.append(args.pop(0))
        elif opt == "--dump":
            dump = True
        else:
            print(__doc__, file=sys.stderr)
            return 2
    if len(args) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    path = args[0]
    try:
        raw = sys.stdin.buffer.read() if path == "-" else open(path, "rb").read()
    except OSError as e:
        die(path, 0, e.strerror)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        die(path, raw[:e.start].count(b"\n") + 1, "not valid UTF-8")
    expos = check(text, path, stream)
    if count is not None and len(expos) != count:
        die(path, 0, f"{len(expos)} expositions, expected {count}")
    last = expos[-1]
    if get:
        want = dict(kv.split("=", 1) for kv in get[1:])
        hits = [s for f in last.families for s in f.samples
                if s["name"] == get[0] and all(s["labels"].get(k) == v for k, v in want.items())]
        if len(hits) != 1:
            die(path, 0, f"--get {' '.join(get)}: {len(hits)} samples match, expected 1")
        v = hits[0]["value"]
        print(int(v) if v == int(v) and abs(v) < 2**53 else repr(v))
    elif dump:
        for f in last.families:
            for s in f.samples:
                print(json.dumps(dict(s, type=f.type, unit=f.unit), sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
