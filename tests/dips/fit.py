#!/usr/bin/env python3
"""Fit the dip rule's three parameters on the training part of the lab corpus.

usage: fit.py WBTOP CORPUS SPLIT

The grid: the level's quantile q, its window n (busy intervals), the noise sigmas k
(doc/dips.md). Each point judges the training recordings again (lab_score.py) and is kept
if its false marks stay within half a mark per 100 steady device-intervals (half the target of
1: a margin for runs it has not seen, where a point at the target's edge marks more); of
those, the one with the best recall of dips, then the fewest false marks, then the nearest to
the middle of the grid. The held-out part is scored once, with the chosen point, after the choice.
Prints the grid's best points and the choice; the defaults in include/core/detect.h are
set from it by hand (DIP_DEFAULT_LEVEL_Q, _N, NOISE_K).
"""
import itertools
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lab_score  # noqa: E402

QS = (0.5, 0.6, 0.7, 0.8, 0.9)
NS = (8, 12, 16, 24, 32)
KS = (2.0, 2.5, 3.0, 4.0, 5.0)
FALSE_MAX = 0.5     # per 100 steady device-intervals of the training part


def main():
    wbtop, corpus, split = sys.argv[1:4]
    rows = []
    for q, n, k in itertools.product(QS, NS, KS):
        model = "q=%g,n=%d,k=%g" % (q, n, k)
        _per, tot = lab_score.run(wbtop, corpus, model, split, "train")
        t = tot["train"]
        recall = t["found"] / t["dips"] if t["dips"] else 0.0
        fpr = 100.0 * t["false"] / t["steady"] if t["steady"] else 0.0
        centre = abs(QS.index(q) - 2) + abs(NS.index(n) - 2) + abs(KS.index(k) - 2)
        rows.append((fpr <= FALSE_MAX, recall, -fpr, -centre, model, t))
        print("%-18s recall %.3f  false/100 %.2f" % (model, recall, fpr), flush=True)
    rows.sort(key=lambda r: r[:4], reverse=True)
    print("\nbest on the training part:")
    for r in rows[:8]:
        print("  %-18s recall %.3f  false/100 %.2f%s" % (r[4], r[1], -r[2], "" if r[0] else "  (over %g/100)" % FALSE_MAX))
    best = rows[0][4]
    print("\nchosen: %s" % best)
    per, tot = lab_score.run(wbtop, corpus, best, split, "held")
    print(lab_score.HEAD)
    for _p, s in per:
        print(lab_score.line(s))
    if "held" in tot:
        print(lab_score.line(tot["held"]))


if __name__ == "__main__":
    main()
