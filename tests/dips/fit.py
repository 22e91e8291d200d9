#!/usr/bin/env python3
"""Fit the dip rule's four parameters on the training part of the lab corpus.

usage: fit.py WBTOP CORPUS SPLIT

The grid: the level's quantile q, its window n (busy intervals), the noise sigmas k and the
cap c, at most a third (doc/dips.md). Each point judges the training recordings again
(lab_score.py) and is kept if its false marks stay within the target, 1 per 100 steady
device-intervals; of those, the one with the best recall of dips, then the fewest false marks,
then the nearest to the middle of the grid. The held-out part is scored once, with the chosen
point, after the choice (when the split's held-out recordings exist).
Prints the grid's best points and the choice; the defaults in include/core/detect.h are
set from it by hand (DIP_DEFAULT_LEVEL_Q, _N, NOISE_K, CAP).
"""
import itertools
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lab_score  # noqa: E402

# finer in q about 0.6, where the two fits before chose, and without the far ends they never
# came near (q 0.8-0.9, n 8-12, k 2.5 and 5: git log has those grids)
QS = (0.5, 0.55, 0.575, 0.6, 0.65, 0.7)
NS = (16, 24, 32)
KS = (2.0, 3.0, 4.0)
CS = (1.0 / 3.0, 0.3, 0.25)
# per 100 steady device-intervals of the training part: the target itself. A margin (half of
# it, the last fit's) left no point on the five training corpora within reach of the recall
# target (0.939 at best), so it chose a rule that misses it by construction.
FALSE_MAX = 1.0


def main():
    wbtop, corpus, split = sys.argv[1:4]
    rows = []
    for q, n, k, c in itertools.product(QS, NS, KS, CS):
        model = "q=%g,n=%d,k=%g,c=%.9g" % (q, n, k, c)
        _per, tot = lab_score.run(wbtop, corpus, model, split, "train", missing_ok=True)
        t = tot["train"]
        recall = t["found"] / t["dips"] if t["dips"] else 0.0
        fpr = 100.0 * t["false"] / t["steady"] if t["steady"] else 0.0
        centre = (abs(QS.index(q) - 3) + abs(NS.index(n) - 1) + abs(KS.index(k) - 1) +
                  abs(CS.index(c) - 1))
        rows.append((fpr <= FALSE_MAX, recall, -fpr, -centre, model, t))
        print("%-30s recall %.3f  false/100 %.2f" % (model, recall, fpr), flush=True)
    rows.sort(key=lambda r: r[:4], reverse=True)
    print("\nbest on the training part:")
    for r in rows[:8]:
        print("  %-30s recall %.3f  false/100 %.2f%s" % (r[4], r[1], -r[2], "" if r[0] else "  (over %g/100)" % FALSE_MAX))
    best = rows[0][4]
    print("\nchosen: %s" % best)
    if lab_score.unrecorded(lab_score.read_split(split), lab_score.scenarios(corpus)):
        print("the held-out part is not recorded yet: not scored")
        return
    per, tot = lab_score.run(wbtop, corpus, best, split, "held")
    print(lab_score.HEAD)
    for _p, s in per:
        print(lab_score.line(s))
    if "held" in tot:
        print(lab_score.line(tot["held"]))


if __name__ == "__main__":
    main()
