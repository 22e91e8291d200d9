#!/usr/bin/env python3
"""Which way wbtop's modules depend on each other (issue 32's layering check).

usage: tools/layers.py [--objs DIR] [--strict]

Every module (a src/LAYER/x.c with its include/LAYER/x.h, or a header alone)
belongs to the layer its folder names; the layers are ranked util < core <
source, rec, sink, screen (one rank: siblings) < run.  Two graphs are read:
  includes  #include "x.h" in src/ and include/ (a module's own header aside);
  symbols   nm of the objects in DIR (default build/obj): the module that
            uses a symbol -> the module that defines it, so a local extern
            declaration cannot get around the includes.
It prints every edge that points up a rank, every edge between siblings,
every circle of modules (a strongly connected set of more than one) in
either graph, and every function (static ones too) whose name does not
start with its file's.  --strict: exit 1 when there is an edge up or a circle (what
make check will ask once the tree is layered); else it only reports.
"""
import os
import re
import subprocess
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
RANK = {"util": 0, "core": 1, "source": 2, "rec": 2, "sink": 2, "screen": 2, "run": 3}


def module_of(path):
    """A file's module and layer: its name (for a private header x_priv.h, x) and
    its folder."""
    base = os.path.splitext(os.path.basename(path))[0]
    if base.endswith("_priv"):
        base = base[: -len("_priv")]
    return base, os.path.basename(os.path.dirname(path))


def include_graph(layer):
    edges = {}
    inc = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
    for d in ("src", "include"):
        for dirpath, _, files in sorted(os.walk(os.path.join(ROOT, d))):
            for f in sorted(files):
                if not f.endswith((".c", ".h")):
                    continue
                a, la = module_of(os.path.join(dirpath, f))
                layer[a] = la
                for line in open(os.path.join(dirpath, f), errors="replace"):
                    m = inc.match(line)
                    if not m:
                        continue
                    if "/" in m.group(1):
                        b, lb = module_of(m.group(1))
                        layer[b] = lb
                    else:		# a private header beside the file
                        b = module_of(m.group(1))[0]
                    if b != a:
                        edges.setdefault(a, set()).add(b)
    return edges


MISNAMED = []


def symbol_graph(objdir, layer):
    defs, uses = {}, {}
    objs = [os.path.join(objdir, l, f) for l in sorted(os.listdir(objdir)) if l in RANK
            for f in sorted(os.listdir(os.path.join(objdir, l))) if f.endswith(".o")
            # an object left from a file that moved or went is not the program's
            and os.path.exists(os.path.join(ROOT, "src", l, f[:-2] + ".c"))]
    for o in objs:
        mod, layer[module_of(o)[0]] = module_of(o)[0], module_of(o)[1]
        out = subprocess.run(["nm", o], capture_output=True, text=True).stdout
        for line in out.splitlines():
            p = line.split()
            if len(p) == 3 and p[1] in "Tt":
                # a function is named after its file (static ones too; gcc's .part/.cold
                # copies are the function's)
                name = p[2].split(".", 1)[0]
                # (the compiler's own: a sanitizer's constructors and destructors)
                if name.startswith("_") or p[2].startswith(("asan.", "ubsan.", "tsan.")):
                    continue
                if name != "main" and name != mod and not name.startswith(mod + "_"):
                    MISNAMED.append((mod, name))
            if len(p) == 3 and p[1] in "TDBRtdbr" and p[1].isupper():
                defs[p[2]] = mod
            elif len(p) == 2 and p[0] == "U":
                uses.setdefault(mod, set()).add(p[1])
    edges = {}
    for a, syms in uses.items():
        for s in syms:
            b = defs.get(s)
            if b and b != a:
                edges.setdefault(a, set()).add(b)
    return edges


def circles(edges):
    """Strongly connected sets of more than one module (Tarjan)."""
    index, low, stack, on, out, n = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = n[0]
        n[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def main():
    args = sys.argv[1:]
    strict = "--strict" in args
    objdir = os.path.join(ROOT, "build", "obj")
    if "--objs" in args:
        objdir = args[args.index("--objs") + 1]
    layer = {}
    graphs = {"includes": include_graph(layer)}
    if os.path.isdir(objdir):
        graphs["symbols"] = symbol_graph(objdir, layer)
    else:
        print("layers: no objects in %s: the symbol graph is not read (make first)" % objdir)
    up = circ = 0
    unplaced = set()
    for gname, edges in graphs.items():
        for a in sorted(edges):
            for b in sorted(edges[a]):
                la, lb = layer.get(a), layer.get(b)
                if la is None or lb is None:
                    unplaced |= {m for m, l in ((a, la), (b, lb)) if l is None}
                    continue
                if RANK[lb] > RANK[la]:
                    up += 1
                    print("%s: up: %s (%s) -> %s (%s)" % (gname, a, la, b, lb))
                elif RANK[lb] == RANK[la] and la != lb:
                    print("%s: across: %s (%s) -> %s (%s)" % (gname, a, la, b, lb))
        for c in circles(edges):
            circ += 1
            print("%s: circle: %s" % (gname, " <-> ".join(c)))
    for m in sorted(unplaced):
        print("layers: %s is in no layer folder" % m)
    for mod, name in sorted(set(MISNAMED)):
        print("names: %s defines %s: a function is named after its file" % (mod, name))
    misnamed = len(set(MISNAMED))
    print("layers: %d edges up, %d circles, %d modules in no layer, %d functions not named after their file"
          % (up, circ, len(unplaced), misnamed))
    sys.exit(1 if strict and (up or circ or unplaced or misnamed) else 0)


if __name__ == "__main__":
    main()
