#!/usr/bin/env python3
"""Fit the dip rule's four parameters on the training part of the lab corpus.

usage: fit.py WBTOP CORPUS SPLIT

The grid: the level's quantile q, its window n (busy intervals), the noise sigmas k and the
cap c, at most a third (doc/dips.md). Each point judges the training recordings again
(lab_score.py) and is kept if its false marks stay within the target, 1 per 100 steady
device-intervals, on every training corpus (each bus, each loop corpus): a held-out part is
one corpus, and the training part's total met the target while its slow buses did not (bus12
and bus28 at 2.25 and 1.49 beside a total of 0.24 at the defaults of 9e75cd5); of those, the
one with the best recall of dips, then the fewest false marks, then the nearest to the middle
of the grid. Prints the grid's best points: the first of them whose unit tests pass (the
rule's bounds the corpus does not hold: a burst's end, drops in 30 % of the intervals; the
best point of this fit's first run, q=0.55 n=16, failed both) becomes the default, set by
hand in include/core/detect.h (DIP_DEFAULT_LEVEL_Q, _N, NOISE_K, CAP). The held-out part is scored
once, after that default is committed, never here.
"""
import itertools
import multiprocessing
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lab_score  # noqa: E402

# finer in q between 0.5 and 0.6, where the fits chose, n = 20 between 16 (whose best points
# fail the unit tests) and 24, and without the far ends no fit came near
# (q 0.8-0.9, n 8-12, k 2.5 and 5: git log has those grids)
QS = (0.5, 0.525, 0.55, 0.575, 0.6, 0.65, 0.7)
NS = (16, 20, 24, 32)
KS = (2.0, 3.0, 4.0)
CS = (1.0 / 3.0, 0.3, 0.25)
# per 100 steady device-intervals of the training part: the target itself. A margin (half of
# it, the last fit's) left no point on the five training corpora within reach of the recall
# target (0.939 at best), so it chose a rule that misses it by construction.
FALSE_MAX = 1.0


def per100(t):
    return lab_score.false_per100(t) or 0.0


def point(args):
    """One point of the grid, judged on the training part: (model, total, worst corpus)."""
    wbtop, corpus, split, model = args
    _per, tot = lab_score.run(wbtop, corpus, model, split, "train", missing_ok=True)
    worst = max((per100(t), k[1]) for k, t in tot.items() if isinstance(k, tuple))
    return model, tot["train"], worst


def main():
    wbtop, corpus, split = sys.argv[1:4]
    rows = []
    grid = list(itertools.product(QS, NS, KS, CS))
    models = ["q=%g,n=%d,k=%g,c=%.9g" % p for p in grid]
    # two at a time: the machines have two cores, and each point is wbtop's replays alone
    with multiprocessing.Pool(2) as pool:
        results = pool.map(point, [(wbtop, corpus, split, m) for m in models])
    for (q, n, k, c), (model, t, worst) in zip(grid, results):
        recall = t["found"] / t["dips"] if t["dips"] else 0.0
        fpr = per100(t)
        centre = (abs(QS.index(q) - 3) + abs(NS.index(n) - 1) + abs(KS.index(k) - 1) +
                  abs(CS.index(c) - 1))
        rows.append((worst[0] <= FALSE_MAX, recall, -fpr, -centre, model, t, worst))
        print("%-30s recall %.3f  false/100 %.2f  worst %.2f (%s)" % (model, recall, fpr, worst[0],
                                                                     worst[1]), flush=True)
    rows.sort(key=lambda r: r[:4], reverse=True)
    print("\nbest on the training part:")
    for r in rows[:12]:
        print("  %-30s recall %.3f  false/100 %.2f  worst %.2f (%s)%s" % (
            r[4], r[1], -r[2], r[6][0], r[6][1], "" if r[0] else "  (over %g/100)" % FALSE_MAX))
    print("\nthe first of these whose unit tests pass (make unit: the rule's bounds on bursts, on")
    print("drops in 30 % of the intervals, ...) is the default; the held-out part is scored after")
    print("it is committed (lab_score.py --split), never here")


if __name__ == "__main__":
    main()
