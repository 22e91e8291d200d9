#!/usr/bin/env python3
"""Score the dip marks of a corpus run (tests/dips/corpus.sh) against its labels.

usage: score.py DIR   (DIR holds SCENARIO.json, the export of the scenario's
recording (wbtop -r SCENARIO.db --export json, with --dip N when judged again), and
SCENARIO.labels, lines "KIND DEVICE DEPTH_PCT T_START T_END [T_THROTTLED]" in
wall-clock seconds; KIND is device (one of the scenario's writers: only these
devices are scored, the machine may have others), drop, throttle, knob, rise
or burst)

Drops are of three kinds, each found alike and each with the cause its
injection makes; a mark's cause is the JSON's "cause":
  drop      the writer itself: most of the marked intervals that overlap it
            must say "writers stopped" for a full stop (depth 100, SIGSTOP),
            "writers slowed" for a lower rate (pv -R; the device waited).
  throttle  a buffered writer's device held below it (a blkio limit):
            T_THROTTLED is when the writer was first seen in
            balance_dirty_pages.  Every marked interval from then to the
            end must say "throttled" (the kernel's record of it is exact).
            The intervals before it (dirty data still climbing to the
            limit: the writer was not throttled yet, its device wrote less
            than it was given) must not say the writers stopped or slowed:
            they went on as before.  "throttled" is no error there: the
            scenario polls the writer's stack every 50 ms and misses the
            first pauses, which are short, and the kernel's record has
            them.  "-" (never seen throttled) is a failed injection,
            counted apart and not scored.
  knob      the dirty limits changed from outside (sysctl) at T_START and
            put back at T_END: every marked interval overlapping it must
            say "knob change", the knob holding the device's writeback back
            all along (the writer goes on filling the cache).

An interval is (end - dt_s, end], its end the sample's wall_ns.  A drop is
found when its device is marked in an interval that overlaps it (or ends
within half a second after it).  Steady intervals are those of a device that
overlap no labelled event on it, nor the 1.5 s after one, and are not among
the first 3 (wbtop's warm-up): a mark there is a false mark.  The burst's
device and the system line are also checked for marks in the 12 s after the
burst ended.  The end of a workload is neither: a series' idle intervals in a
stretch that lasts END_S or reaches the end of the run may be marked live
(doc/dips.md, "the end"), and are not scored, as --compare does not count
them.  Exit status 0 when the targets hold, 1 otherwise.
"""
import json, os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lab_score import detect_define  # noqa: E402

WARMUP = 3
AFTER = 1.5
BURST_AFTER = 12.0
# the end of a workload, idle at or under wbtop's idle floor (KiB/s)
END_S = float(detect_define('DIP_END_SECONDS'))
IDLE_KBPS = float(detect_define('DIP_DEFAULT_IDLE_KBPS'))


DROPS = ('drop', 'throttle', 'knob')
WRITERS_CAUSES = ('writers stopped', 'writers slowed')


def load(dirname, scen):
    frames, throttled_at = [], {}
    with open(os.path.join(dirname, scen + '.json')) as f:
        for line in f:
            line = line.strip()
            if line:
                frames.append(json.loads(line))
    labels = []
    with open(os.path.join(dirname, scen + '.labels')) as f:
        for line in f:
            kind, dev, depth, t0, t1, *more = line.split()
            labels.append((kind, dev, float(depth), float(t0), float(t1)))
            if kind == 'throttle':
                throttled_at[(dev, float(t0))] = None if more[0] == '-' else float(more[0])
    return frames, labels, throttled_at
    return frames, labels


def json_causes(frames):
    """Per frame (in order): {device: cause} of its marks."""
    return [{d['name']: d.get('cause') for d in fr.get('devices', []) if d.get('dip')}
            for fr in frames]


def not_ended(ivs):
    """[(start, end, marked)] of [(start, end, marked, idle)], without the end of a workload:
    the idle intervals of a stretch that lasts END_S or reaches the end of the run."""
    out, k = [], 0
    while k < len(ivs):
        if not ivs[k][3]:
            out.append(ivs[k][:3])
            k += 1
            continue
        j = k
        while j < len(ivs) and ivs[j][3]:
            j += 1
        if j < len(ivs) and ivs[j - 1][1] - ivs[k][0] < END_S:
            out.extend(iv[:3] for iv in ivs[k:j])
        k = j
    return out


def intervals(frames):
    """Per device: [(start, end, marked)]; and the system line's; without the end of a
    workload (not_ended)."""
    devs, sysl = {}, []
    for k, fr in enumerate(frames):
        end = fr['wall_ns'] / 1e9
        start = end - fr.get('dt_s', 1.0)
        if k < WARMUP or fr.get('status') != 'ok':
            continue
        bo = fr.get('sys', {}).get('bo_kbps')
        sysl.append((start, end, fr.get('dip', False), bo is not None and bo <= IDLE_KBPS))
        for d in fr.get('devices', []):
            if d.get('status') != 'ok':
                continue
            w = d.get('wkb_s')
            devs.setdefault(d['name'], []).append(
                (start, end, d.get('dip', False), w is not None and w <= IDLE_KBPS))
    return {d: not_ended(v) for d, v in devs.items()}, not_ended(sysl)


def overlaps(a0, a1, b0, b1):
    return min(a1, b1) - max(a0, b0) > 0


def score(dirname, scen):
    frames, labels, throttled_at = load(dirname, scen)
    devs, sysl = intervals(frames)
    mine = {dev for kind, dev, _, _, _ in labels if kind == 'device'}
    devs = {d: v for d, v in devs.items() if d in mine}
    labels = [l for l in labels if l[0] != 'device']
    res = {'drops': [], 'steady': 0, 'false': 0, 'burst_marks': 0, 'causes': 0, 'causes_right': 0,
           'said': {}, 'unthrottled': 0}
    causes = json_causes(frames)
    ends = [(fr['wall_ns'] / 1e9 - fr.get('dt_s', 1.0), fr['wall_ns'] / 1e9) for fr in frames]

    def said(dev, a, b):
        """The causes of dev's marked intervals overlapping (a, b)."""
        return [causes[k][dev] for k, (s, e) in enumerate(ends)
                if overlaps(s, e, a, b) and dev in causes[k]]

    for kind, dev, depth, t0, t1 in labels:
        if kind not in DROPS:
            continue
        found = any(m and overlaps(s, e, t0, t1 + 0.5) for s, e, m in devs.get(dev, []))
        res['drops'].append((depth, t1 - t0, found))
        if not found:
            continue
        if kind == 'drop':
            want = 'writers stopped' if depth >= 100 else 'writers slowed'
            got = said(dev, t0, t1 + 0.5)
            right = 2 * sum(c == want for c in got) >= len(got) > 0
        elif kind == 'knob':
            got = said(dev, t0, t1)
            right = len(got) > 0 and all(c == 'knob change' for c in got)
        else:
            tc = throttled_at[(dev, t0)]
            if tc is None:
                res['unthrottled'] += 1
                continue
            got = said(dev, tc, t1)
            before = [c for k, (s, e) in enumerate(ends) if e <= tc and overlaps(s, e, t0, t1)
                      for c in [causes[k].get(dev)] if c]
            right = (len(got) > 0 and all(c == 'throttled' for c in got) and
                     not any(c in WRITERS_CAUSES for c in before))
            got = [f'before: {c}' for c in before] + got
        for c in got:
            res['said'][(kind, c)] = res['said'].get((kind, c), 0) + 1
        res['causes'] += 1
        res['causes_right'] += right
    for dev, ivs in devs.items():
        evs = [(t0, t1) for _, d, _, t0, t1 in labels if d == dev]
        for s, e, m in ivs:
            if any(overlaps(s, e, t0 - 0.25, t1 + AFTER) for t0, t1 in evs):
                continue
            res['steady'] += 1
            res['false'] += m
    for kind, dev, _, t0, t1 in labels:
        if kind != 'burst':
            continue
        win = (t1, t1 + BURST_AFTER)
        res['burst_marks'] += sum(m for s, e, m in devs.get(dev, []) if overlaps(s, e, *win))
        res['burst_marks'] += sum(m for s, e, m in sysl if overlaps(s, e, *win))
    return res


def frac(found, total):
    return f'{found}/{total}' if total else '-'


def main():
    dirname = sys.argv[1]
    scens = [n[:-7] for n in sorted(os.listdir(dirname)) if n.endswith('.labels')
             and os.path.exists(os.path.join(dirname, n[:-7] + '.json'))
             and os.path.getsize(os.path.join(dirname, n[:-7] + '.json'))]
    ok = True
    tot = {'big': [0, 0], 'mid': [0, 0], 'false': 0, 'steady': 0, 'causes': [0, 0]}
    print(f'{"scenario":10} {"drops>=20%":>10} {"15-20%":>7} {"10-15%":>7} '
          f'{"missed":>6} {"false":>5} {"steady":>6} {"per100":>6}  notes')
    for scen in scens:
        r = score(dirname, scen)
        big = [f for d, ln, f in r['drops'] if d >= 20 and ln >= 1.9]
        mid = [f for d, ln, f in r['drops'] if 15 <= d < 20]
        low = [f for d, ln, f in r['drops'] if d < 15]
        missed = sum(not f for _, _, f in r['drops'])
        per100 = 100.0 * r['false'] / r['steady'] if r['steady'] else 0.0
        notes = []
        if scen == 'erratic':
            allf = [f for _, _, f in r['drops']]
            notes.append(f'erratic found {sum(allf)}/{len(allf)}')
            if allf and sum(allf) < 0.9 * len(allf):
                ok = False
        if scen == 'burst':
            notes.append(f'marks after the burst {r["burst_marks"]}')
            ok &= r['burst_marks'] == 0
        if r['causes']:
            notes.append(f'causes right {r["causes_right"]}/{r["causes"]}')
            tot['causes'][0] += r['causes_right']; tot['causes'][1] += r['causes']
        if any(k != 'drop' for k, _ in r['said']):
            notes.append('said ' + ', '.join(f'{c} {n}' for (k, c), n in sorted(r['said'].items())
                                            if k != 'drop'))
        if r['unthrottled']:
            notes.append(f'never throttled {r["unthrottled"]} (not scored)')
        if scen == 'counting':
            notes.append(f'counting-noise marks {r["false"]}')
            ok &= r['false'] == 0
        print(f'{scen:10} {frac(sum(big), len(big)):>10} {frac(sum(mid), len(mid)):>7} '
              f'{frac(sum(low), len(low)):>7} {missed:>6} {r["false"]:>5} {r["steady"]:>6} '
              f'{per100:>6.2f}  {", ".join(notes)}')
        tot['big'][0] += sum(big); tot['big'][1] += len(big)
        tot['mid'][0] += sum(mid); tot['mid'][1] += len(mid)
        tot['false'] += r['false']; tot['steady'] += r['steady']
    per100 = 100.0 * tot['false'] / tot['steady'] if tot['steady'] else 0.0
    ok &= tot['big'][0] == tot['big'][1]
    ok &= tot['mid'][1] == 0 or tot['mid'][0] >= 0.9 * tot['mid'][1]
    ok &= per100 <= 1.0
    ok &= tot['causes'][1] == 0 or tot['causes'][0] * 10 >= tot['causes'][1] * 9
    print(f'all: drops >= 20% found {frac(*tot["big"])}, 15-20% {frac(*tot["mid"])}, '
          f'false marks {tot["false"]} in {tot["steady"]} steady device-intervals '
          f'({per100:.2f} per 100), causes of found drops right {frac(*tot["causes"])}: '
          f'targets {"met" if ok else "NOT met"}')
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
