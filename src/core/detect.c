/*
 * detect.c - the dip detector (contract in detect.h; the rule and its reasons in doc/dips.md).
 *
 * Per series: a sustained level (upper quartile of a short window, capped by a slower median),
 * a jitter from the rises between quiet intervals, and a threshold from both; a group adds its
 * peers' jitter and its total.  Windows stay sorted (sortwin.h), so a median is a lookup.
 * Not: I/O, a clock, printing or look-ahead; it allocates only when the device set grows.
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/detect.h"
#include "util/grow.h"
#include "util/hashidx.h"
#include "util/median.h"
#include "util/sortwin.h"

/* Level: the upper quartile of the last 11 valid intervals. Drops may fill 8 of them and the
 * level is still the one before them. */
enum { DIP_BASE_LEN = DIP_BASELINE_INTERVALS };
_Static_assert((int)DIP_BASE_LEN <= (int)SORTWIN_SHORT, "the baseline window is pushed inline");
/* The slow window: the level of every 4th interval, the last 11 of them (44 intervals). Its
 * median is what the series has sustained; a burst shorter than about 20 intervals does not
 * move it. */
enum { DIP_SLOW_LEN = 11, DIP_SLOW_EVERY = 4 };
_Static_assert((int)DIP_SLOW_LEN <= (int)SORTWIN_SHORT, "the slow window is pushed inline");
/* Jitter: from the changes between the last 60 pairs of quiet intervals; fewer make a noisy
 * device look quiet now and then, by chance. */
enum { DIP_JITTER_LEN = 60 };
/* The first verdict on the third value after two changes (the fourth value of a run, counting
 * the unjudged since-boot one in a log): the first samples teach, they are not judged. */
enum { DIP_MIN_LEVELS = 3, DIP_MIN_RESIDS = 2 };
/* A group member whose jitter is known from fewer changes (half the jitter window) is judged
 * by twice its own unless it looks like its peers'. */
enum { DIP_PEER_RESIDS = 15 };
/* ... or that has been seen for this many intervals (a device whose rises are mostly a pacing
 * tick coming back, which do not teach, knows few rises however long it has run). */
enum { DIP_PEER_SEEN = 30 };
/* Until a series has taught this many rises, the spread of its recent values stands in for
 * (or raises) its jitter ... */
enum { DIP_SPREAD_UNTIL = 6 };
/* ... but when its pacing ticks are known, for its first this many values only. Such a series
 * teaches no rise that is a tick coming back or a climb out of a fall (detect_stat_learn), so a
 * writer that flickers by a tick and drops every few seconds has taught few rises however long
 * it runs, and its spread, a tick wide and pulled down by the drops themselves (its median
 * falls with them), would judge it for good: a writer falling by a third for three seconds at a
 * time went unmarked for half a minute. By then its rises and its peers' know its jitter. */
enum { DIP_SPREAD_SEEN_PACED = 20 };
/* The interval after a dip is recovery, not noise: it does not teach the jitter. */
enum { DIP_SETTLE = 2 };
/* The others in a group may have taken up what the dipping devices lost (a shared limit): then
 * no device teaches the jitter. Only when that loss is at least this part of the others'
 * traffic, or the total dipped; a smaller dip silences just the devices that dipped, or in a
 * group of thousands, where some device dips in most intervals, the rest would never learn
 * their jitter again. */
static const double DIP_TRADE_FRAC = 0.02;
/* Held back that long in a row (the baseline window), the group learns again. One interval
 * cannot tell devices trading bandwidth from a group whose noise suddenly grew (a quarter of
 * the devices falling by 10 % looks the same), and held back for good such a group never
 * learns its new noise: every interval it marks a quarter of its devices. A trade that lasts
 * longer is the new normal anyway: by then the baseline is the level after it. */
enum { DIP_HOLD_MAX = DIP_BASE_LEN };
/* A device absent this many intervals is forgotten (its baseline would be stale anyway). */
enum { DIP_FORGET_AFTER = DIP_BASE_LEN };

static const double DIP_JITTER_SIGMAS = 3.0;	/* a dip stands 3 sigma out of the noise */
/* An upper quartile stands 0.674 sigma above the centre of symmetric (normal) jitter: the
 * threshold is a fall from the centre, so the fall from the level must be that much more. */
static const double DIP_LEVEL_SIGMAS = 0.674;
static const double DIP_STOP_FRAC = 0.05;	/* under 5% of the baseline: stopped, not a dip */
static const double DIP_QUARTILE_TO_SIGMA = 1.4826;	/* upper quartile - median -> sigma */
/* median |x - y| of two independent normal values -> their standard deviation: 1.4826 / sqrt 2
 * (the group total's residuals, which are not changes) */
static const double DIP_MAD_TO_SIGMA = 1.0483;
/* The 90th percentile of the rises x - y >= 0 of two independent normal values -> their
 * standard deviation: 1 / (1.6449 * sqrt 2). A high quantile, not the median: writers held to
 * a rate by a limiter are exact most intervals and a block or two off now and then, and the
 * median of such changes is 0 -- the flicker would be marked -- while the 90th percentile is
 * the flicker. */
static const double DIP_RISE_Q90_TO_SIGMA = 0.4299;
/* The quantile, as tenths (detect_rise_rank) */
enum { DIP_RISE_QUANTILE_TENTHS = 9 };
/* In a lone series the interval after a dip is marked too while it is still below the level
 * by 0.6 of the threshold: a recovery that is not yet one. */
static const double DIP_AFTER_FRAC = 0.6;
/* Two intervals in a row below the level by this part of the threshold are a dip (the second
 * of them): a drop that is held, not jitter. */
static const double DIP_HELD_FRAC = 0.6;
/* Counting noise: an interval's count of requests is off by a request or two (one split by
 * the interval's edge, a writer's burst), so a fall of 3 requests or fewer from the level is
 * not a dip. */
static const double DIP_COUNT_SLACK = 3.0;
/* ... and a fall that the interval before made up for in advance is not one either: its
 * excess over the level between half and twice this one's shortfall. */
static const double DIP_MADE_UP_RATIO = 2.0;
/* Pacing: writers held to a rate submit in ticks (pv -L tops its budget up ten times a
 * second, and the kernel's dirty throttling pauses a writer for up to 200 ms), so a tick's
 * work lands now in one interval, now in the next: a single interval short by no more than
 * one tick of the level (detect_tick_fall) is not a dip. At 1 s that is a tenth of the level; at
 * 5 s a fiftieth, under half of --dip, and ticks are not counted (detect_pace_frac). A drop that
 * is held (two intervals) is judged without it: a tick that moved arrives in the next one. */
static const double DIP_PACE_S = 0.1;

/* The smallest fall that is a dip, in idle floors (256 KiB/s by default): below it a "drop" is
 * a journal commit more or less. */
static const double DIP_MIN_FALL_FLOORS = 4.0;
static const double DIP_SHARE_FRAC = 0.25;	/* under 1/4 of an even share: background I/O */
static const double DIP_PEER_FACTOR = 2.0;	/* a young device twice as noisy is not a peer */

/* Only magnitudes of residuals are ever used, so that window keeps |residual|.
 * A window keeps its values sorted, each with the (mod 256) number of its
 * arrival, instead of a second copy in arrival order: the oldest is found
 * by its tag.  Half the memory of a ring plus a sorted copy (a device
 * costs about 650 bytes here; thousands of devices are real), for a scan of
 * at most 60 one-byte tags per push.  The windows are far shorter than
 * 256, so a tag is never shared. */
/* In the order an interval reads them: the counts and the baseline window first (with the
 * group's per-device fields before them, the first three cache lines of a device), the long
 * jitter window after. */
struct dip_stat {
	uint8_t nlevel, next_level, nresid, next_resid;	/* next_*: the tag the next value gets */
	uint8_t nslow, next_slow, slow_wait;	/* slow_wait: values until the next slow push */
	uint8_t ticked, after_tick;	/* this interval's fall was a pacing tick (detect_tick_fall);
					 * the one before was */
	uint8_t nseen;			/* values learnt, up to 255 */
	uint8_t level_tag[SORTWIN_SHORT];	/* DIP_BASE_LEN used: sortwin_push_short reads all */
	double level_sorted[DIP_BASE_LEN];	/* recent valid values, ascending */
	double reqs_per_unit;			/* requests an interval per unit of rate, last
						 * known; 0: never known */
	uint8_t slow_tag[SORTWIN_SHORT];
	double slow_sorted[DIP_SLOW_LEN];	/* levels of every DIP_SLOW_EVERY-th value */
	double last;				/* the value before (nlevel > 0) */
	uint8_t resid_tag[DIP_JITTER_LEN];
	double resid_sorted[DIP_JITTER_LEN];	/* rises from the value before / the recent upper
						 * quartile, of quiet intervals, ascending */
};

struct dip_series {
	struct dip_params p;
	struct dip_stat st;
	double pace_frac;	/* a pacing tick as a part of the level (detect_pace_frac); 0: ticks do
				 * not matter (the interval's length unknown, or long) */
	unsigned settle_left;	/* intervals that may not teach the jitter yet */
};

struct dip_dev {
	char *key;
	uint64_t id;		/* the caller's id for key when last seen (0: none) */
	unsigned long seen;	/* tick of the last interval the device was present in */
	size_t next;		/* hint: the device that followed this one last time */
	uint8_t settle_left;	/* intervals after its own dip that may not teach its jitter */
	struct dip_stat st;
};

struct dip_group {
	struct dip_params p;
	double pace_frac;	/* as dip_series' */
	struct dip_dev *dev;
	size_t ndev, cap_dev;
	struct dip_stat total;	/* only its residuals: the total's baseline is the sum of the
				 * present devices' baselines, so devices coming and going do
				 * not look like drops */
	unsigned settle_left;
	unsigned held;		/* intervals in a row the others may have taken up a loss */
	unsigned long tick;
	size_t first;		/* hint: the device fed first last time */
	/* scratch for one call, grown with the device set */
	size_t *slot;		/* slot[i]: index in dev[] of input i, SIZE_MAX = no sample */
	double *base;		/* base[i]: level of input i, NAN if none */
	double *up;		/* up[i]: its recent upper quartile, NAN if none */
	bool *part;		/* part[i]: input i is judged this interval */
	double *rpu;		/* rpu[i]: requests per unit of rate of input i, 0 unknown */
	double *own;		/* own[i]: input i's own jitter (detect_stat_sigma), if judged */
	double *pool;		/* the judged devices' own jitters, for their median */
	size_t cap_in, cap_pool;
	/* key -> index in dev[] (hashidx.h), rebuilt when devices are added
	 * past half its size or pruned.  Without it a group seeing thousands
	 * of new devices at once would compare every key with every other
	 * (quadratic). */
	struct hashidx index;
};

void detect_params_default(struct dip_params *p)
{
	p->drop_pct = DIP_DEFAULT_DROP_PCT;
	p->idle_floor = DIP_DEFAULT_IDLE_KBPS;
}

int detect_params_parse(struct dip_params *p, const char *text)
{
	if (!p || !text)
		return -EINVAL;
	int saved_errno = errno;
	char *end;
	errno = 0;
	double pct = strtod(text, &end);
	bool bad = end == text || errno != 0;
	errno = saved_errno;
	if (!bad && *end == '%')
		end++;
	/* written negated so that NaN fails too */
	if (bad || *end != '\0' || !(pct > 0.0 && pct < 100.0))
		return -EINVAL;
	p->drop_pct = pct;
	return 0;
}

/* fmax() as the detector uses it (the larger, a NAN argument skipped), inline: libm's is a
 * call, several per device per interval. */
static double detect_max(double a, double b)
{
	if (isnan(a))
		return b;
	return isnan(b) || a >= b ? a : b;
}

/* Finite and not negative (a NAN fails both comparisons). */
static bool detect_rate_ok(double v)
{
	return v >= 0.0 && v <= DBL_MAX;
}

/* A baseline to fall from: known, above the idle floor (and above zero, whatever the floor). */
static bool detect_busy(const struct dip_params *p, double base)
{
	return base > p->idle_floor && base > 0.0;	/* false for NAN */
}

/* Median of ascending s[0..n), n > 0: the same value median_of gives, read off. */
static double detect_sorted_median(const double *s, size_t n)
{
	return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2.0;
}

/* The upper quartile of the recent values (nlevel > 0), interpolated between neighbouring
 * ranks: where a series sits when it is not dipping. Its rank, 3/4 of (n - 1), in quarters:
 * integer arithmetic, as it is read for every device in every interval. */
static inline double detect_stat_upper(const struct dip_stat *st)
{
	const double *s = st->level_sorted;
	size_t q = 3 * ((size_t)st->nlevel - 1), lo = q / 4;
	return q % 4 ? s[lo] + 0.25 * (double)(q % 4) * (s[lo + 1] - s[lo]) : s[lo];
}

/* The level the series sustains, NAN before the first value: the recent upper quartile, but no
 * higher than the median of the slow window's levels (after a burst the recent values are
 * high for a while; what the series sustained is the level before it). Changes are learnt
 * against it from the second value on; verdicts wait for detect_stat_ready. */
static double detect_stat_baseline(const struct dip_stat *st, double *upper)
{
	if (!st->nlevel)
		return *upper = NAN;
	double up = *upper = detect_stat_upper(st);
	if (st->nslow) {
		double slow = detect_sorted_median(st->slow_sorted, st->nslow);
		if (slow < up)
			up = slow;
	}
	return up;
}

static bool detect_stat_ready(const struct dip_stat *st)
{
	return st->nlevel >= DIP_MIN_LEVELS;
}

/* The rank of the jitter's quantile among n >= 2 sorted rises. */
static size_t detect_rise_rank(size_t n)
{
	/* 0.9 (n - 1) rounded, in integers (read for every device every interval; the same
	 * ranks as the floating-point product for every window length up to 255) */
	_Static_assert(DIP_JITTER_LEN <= 255, "the integer rank is checked up to 255");
	size_t r = (DIP_RISE_QUANTILE_TENTHS * (n - 1) + 5) / 10;
	return r + 1 < n ? r : n - 2;	/* never the largest: one wild sample is no jitter */
}

/* The jitter, from the rises of quiet intervals (detect_stat_learn): a high quantile of them, as
 * a normal's standard deviation. Drops, however often they come, only ever fall, and the climb
 * out of a marked one is recovery: neither teaches it (the climb out of a drop that was not
 * marked does, as any rise; doc/dips.md says what that costs). NAN if too few. */
static double detect_stat_sigma(const struct dip_stat *st)
{
	if (st->nresid < DIP_MIN_RESIDS)
		return NAN;
	size_t k = detect_rise_rank(st->nresid);
	return DIP_RISE_Q90_TO_SIGMA * st->resid_sorted[k];
}

/* The group total's jitter, from its |residuals| against the sum of the levels. */
static double detect_total_sigma(const struct dip_stat *st)
{
	return st->nresid < DIP_MIN_RESIDS ? NAN :
	       DIP_MAD_TO_SIGMA * detect_sorted_median(st->resid_sorted, st->nresid);
}


/* The jitter a series is judged by: sigma (from its changes, or its peers'), and while the
 * changes are fewer than half the jitter window, at least what the spread of the recent
 * values' upper half says (upper quartile minus median, as a normal's): a handful of changes
 * that happen to be small must not make a series that is plainly spread look quiet. Drops
 * widen that spread a little, but a drop deep enough to matter stands out of it all the same;
 * on a full estimate it is not used, as eleven values are too few for it to be steady. */
static double detect_spread_sigma(const struct dip_stat *st, double sigma, double up)
{
	double mid = detect_sorted_median(st->level_sorted, st->nlevel);
	double spread = up > 0.0 ? DIP_QUARTILE_TO_SIGMA * (up - mid) / up : 0.0;
	return isnan(sigma) || spread > sigma ? spread : sigma;
}

/* Inline, the spread apart: a full estimate (the usual case) is one comparison. paced: the
 * series' pacing ticks are known (detect_pace_frac > 0). */
static inline double detect_judged_sigma(const struct dip_stat *st, double sigma, double up, bool lone,
					 bool paced)
{
	if (st->nresid >= DIP_SPREAD_UNTIL || st->nlevel < DIP_MIN_LEVELS || (!lone && isnan(sigma)))
		return sigma;
	if (paced && st->nseen >= DIP_SPREAD_SEEN_PACED && !isnan(sigma))
		return sigma;
	return detect_spread_sigma(st, sigma, up);
}

static void detect_stat_push_resid(struct dip_stat *st, double resid)
{
	sortwin_push(st->resid_sorted, st->resid_tag, DIP_JITTER_LEN, &st->nresid, &st->next_resid,
			fabs(resid));
}

/* A group member's jitter: the larger of its own and its peers' (pooled), so that two or three
 * changes that happen to be small do not make a device look quiet. A member with fewer than
 * DIP_PEER_RESIDS changes, seen for fewer than DIP_PEER_SEEN intervals, whose jitter so far
 * does not look like its peers' (more than twice the pooled jitter: a disk that flushes in
 * bursts) is judged by twice its own until that is better known: not judging it at all left
 * a writer whose pacing flickers blind to a drop by half. NAN: not judged (no jitter known). */
static double detect_member_sigma(const struct dip_stat *st, const struct dip_params *p, double own,
				  double pooled)
{
	if (st->nresid < DIP_MIN_RESIDS)
		return pooled;	/* its own not known yet: its peers' stands in (NAN if none) */
	/* Peers that are exact (writers held to a rate, 40 MiB/s every second) have a jitter of
	 * next to nothing, and any device that flickered once would be plainly noisier than
	 * they: their jitter counts as at least the one whose threshold is --dip's anyway
	 * (3 sigma = drop), over the factor, so that a device is made to wait only when its own
	 * jitter would raise its threshold. */
	double peers_floor = p->drop_pct / 100.0 / (DIP_JITTER_SIGMAS * DIP_PEER_FACTOR);
	double peers = pooled > peers_floor ? pooled : peers_floor;	/* NAN: the floor */
	bool young = st->nresid < DIP_PEER_RESIDS && st->nseen < DIP_PEER_SEEN;
	if (young && !(own <= DIP_PEER_FACTOR * peers))
		return DIP_PEER_FACTOR * own;
	return detect_max(own, pooled); /* a NAN pooled is skipped */
}

/* Requests an interval per unit of rate: from this interval's count when it is known (reqs
 * >= 0) and the rate is not zero, else the last known; 0 if never known. */
static double detect_reqs_per_unit(const struct dip_stat *st, double value, double reqs)
{
	return reqs >= 0.0 && reqs <= DBL_MAX && value > 0.0 ? reqs / value : st->reqs_per_unit;
}

/* The threshold as a part of the level: max(--dip percent, noise_frac of 3 sigma) + 0.674
 * sigma; NAN with sigma (then no fall passes it). */
static double detect_threshold(const struct dip_params *p, double sigma, double noise_frac)
{
	double drop = p->drop_pct / 100.0, noise = noise_frac * DIP_JITTER_SIGMAS * sigma;
	return (drop >= noise ? drop : noise) + DIP_LEVEL_SIGMAS * sigma;
}

/* Is value below the level base by more than frac of the threshold (noise_frac of the noise
 * in it; sigma NAN: no), by more than DIP_COUNT_SLACK requests (rpu requests per unit; 0:
 * unknown, not checked) and by more than the smallest fall? */
static bool detect_drop_exceeds_noise(const struct dip_params *p, double base, double value,
				      double sigma, double rpu, double frac, double noise_frac)
{
	double fall = base - value;
	return fall / base > frac * detect_threshold(p, sigma, noise_frac) &&
	       fall > DIP_MIN_FALL_FLOORS * p->idle_floor &&
	       !(rpu > 0.0 && fall * rpu <= DIP_COUNT_SLACK);
}

static bool detect_drop_exceeds(const struct dip_params *p, double base, double value, double sigma,
				double rpu, double frac)
{
	return detect_drop_exceeds_noise(p, base, value, sigma, rpu, frac, 1.0);
}

/* Where a paced series usually is, for a level base and a pacing tick: the median of its
 * recent values, as long as that is within a tick below base (the level, an upper quartile,
 * is raised by ticks coming back and by bandwidth taken over for a while; the median is not),
 * else base. Values more than two ticks below base are left out of that median: they are
 * drops, not where the series is, and a drop or a stop a few seconds ago would otherwise pull
 * it down by a tick and hide the next drop behind it. */
static double detect_usual(const struct dip_stat *st, double base, double tick)
{
	size_t from = 0;
	while (from < st->nlevel && st->level_sorted[from] < base - 2.0 * tick)
		from++;
	if (from == st->nlevel)
		return base;
	double mid = detect_sorted_median(st->level_sorted + from, st->nlevel - from);
	return mid < base && mid >= base - tick ? mid : base;
}

/* A drop held: this interval and the one before (which was not marked: the climb out of a
 * dip is judged as recovery) both below the level by DIP_HELD_FRAC of the threshold. Jitter
 * that reaches that far down does so for one interval and is made up for in the next (a
 * limiter's flicker, a block or two off); a writer held lower stays there. No look-ahead:
 * the first interval of such a drop is marked only if it alone is deep enough. When the
 * pacing ticks are known the two are judged as a pair, against where the series usually is:
 * each more than half a tick below it, their mean by that threshold. A held drop's tick lands
 * now in one of its intervals, now in the other, so that each alone may miss the threshold
 * by a tick; and where ticks come back often the level is a tick above the usual, so that
 * two intervals at the usual would pass it. */
static inline bool detect_interval_sustained(const struct dip_stat *st, const struct dip_params *p,
					     double base, double value, double sigma, double rpu,
					     double pace_frac)
{
	if (!st->nlevel)
		return false;
	if (!(pace_frac > 0.0))
		return detect_drop_exceeds_noise(p, base, st->last, sigma, 0.0, 1.0, DIP_HELD_FRAC) &&
		       detect_drop_exceeds_noise(p, base, value, sigma, rpu, 1.0, DIP_HELD_FRAC);
	if (st->last >= base)	/* the usual is no higher than the level: nothing held (the usual case) */
		return false;
	double tick = pace_frac * base;
	double usual = detect_usual(st, base, tick);
	double pair = 0.5 * (st->last + value);
	/* each below the usual by half a tick, or by the held threshold where that is less (under
	 * a second a tick is a fifth of the level or more, and a held drop is no tick) */
	double below = usual * detect_threshold(p, sigma, DIP_HELD_FRAC);
	if (below > 0.5 * tick)
		below = 0.5 * tick;
	return usual - st->last > below && usual - value > below &&
	       detect_drop_exceeds_noise(p, usual, pair, sigma, rpu, 1.0, DIP_HELD_FRAC);
}

/* How far value is short of where the series usually is, in pacing ticks of the level:
 * DIP_TICK_OFF ticks do not matter (pace_frac 0: the interval's length unknown, or so long
 * that a tick is under half of --dip), DIP_TICK_HALF no more than half a tick, DIP_TICK_ONE
 * up to a tick, DIP_TICK_MORE further. A tick is pace_frac of base; when the requests are
 * known (rpu requests per unit, 0 unknown) it is counted in whole requests, and one more for
 * the interval's edge (a request split by it) and half of one for the interval's length;
 * when they are not (the system line), as half a tick more. Where the series usually is: the
 * median of its recent values, as long as that is within a tick of the level base (the
 * level, an upper quartile, is raised by ticks coming back and by bandwidth taken over for a
 * while, the median is not); if it is further below, drops fill the recent values, and it is
 * the level. */
enum dip_tick { DIP_TICK_OFF, DIP_TICK_HALF, DIP_TICK_ONE, DIP_TICK_MORE };

static inline enum dip_tick detect_tick_fall(const struct dip_stat *st, double base, double value,
					     double rpu, double pace_frac)
{
	if (!(pace_frac > 0.0) || !st->nlevel)
		return DIP_TICK_OFF;
	double tick = pace_frac * base;
	if (value >= base - 0.5 * tick)	/* the usual case, and no lower where it usually is */
		return DIP_TICK_HALF;
	double fall = detect_usual(st, base, tick) - value;
	if (fall <= 0.5 * tick)
		return DIP_TICK_HALF;
	double one = rpu > 0.0 ? (ceil(tick * rpu - 1e-9) + 1.5) / rpu : 1.5 * tick;
	return fall <= one ? DIP_TICK_ONE : DIP_TICK_MORE;
}

/* Does value dip below the level base, and not only as counting noise made up for in
 * advance? A writer that completed a few blocks too many in the interval before (a rate
 * limiter catching up) completes about as many too few in this one: when the interval before
 * was above the level by between half and twice this one's shortfall, the two together are
 * at the level, and this is not a dip. (A wild sample far above, followed by a drop, is not
 * such a pair.) Nor is a single interval short by a pacing tick: that tick arrives in the next
 * one, and the climb it makes there is no jitter (st->ticked: detect_stat_learn leaves it out);
 * a tick's fall held for two intervals is a drop. */
static inline bool detect_interval_dips(struct dip_stat *st, const struct dip_params *p,
					double base, double value, double sigma, double rpu,
					double frac, bool after_dip, double pace_frac)
{
	/* at or above the level (a quarter of intervals at least): no fall, no tick, no dip */
	if (value >= base) {
		st->ticked = 0;
		return false;
	}
	enum dip_tick fall = after_dip ? DIP_TICK_OFF :
				    detect_tick_fall(st, base, value, rpu, pace_frac);
	bool within = fall == DIP_TICK_HALF || fall == DIP_TICK_ONE;
	if (within || !detect_drop_exceeds(p, base, value, sigma, rpu, frac)) {	/* a tick: no test */
		bool held = !after_dip && detect_interval_sustained(st, p, base, value, sigma, rpu, pace_frac);
		/* the climb out of it does not teach: a tick coming back, or a drop missed */
		st->ticked = (fall == DIP_TICK_ONE || fall == DIP_TICK_MORE) && !held;
		return held;
	}
	if (!st->nlevel)
		return true;
	double shortfall = base - value, excess = st->last - base;
	return !(excess >= shortfall / DIP_MADE_UP_RATIO && excess <= shortfall * DIP_MADE_UP_RATIO);
}

/* Has a series (or a whole group) with this baseline stopped? At the idle floor, or under 5%
 * of its baseline (what is left is log writes and the last flush), the writers are gone: the
 * end of a run, and no I/O is not a dip. Without look-ahead a stall to nothing looks the same;
 * it is left unmarked rather than marking the end of every run. */
static bool detect_stopped(const struct dip_params *p, double base, double value)
{
	return value <= p->idle_floor || value < DIP_STOP_FRAC * base;
}

/* Record value; its rise from the value before teaches the jitter unless the interval is a
 * dip or recovery. Every DIP_SLOW_EVERY-th value from the third on, the recent upper quartile
 * joins the slow window. */
static inline __attribute__((always_inline)) void
detect_stat_learn(struct dip_stat *st, const struct dip_params *p, double value, double base,
		  double up, bool quiet, double rpu, bool first_either)
{
	/* relative to the recent upper quartile, not to the level, which lags a series that has
	 * just risen (after a burst it would teach a minute of huge residuals); a level too low
	 * for any dip teaches nothing: a disk idling at a constant few hundred KiB/s would make
	 * its noise look like none once it gets busy */
	bool teach = !quiet && !st->after_tick && detect_busy(p, base) &&
		     up > DIP_MIN_FALL_FLOORS * p->idle_floor;
	/* the climb out of a pacing tick is the tick coming back, twice the tick's own
	 * deviation: taught, a limiter's flicker would raise the jitter above real drops */
	st->after_tick = st->ticked;
	st->ticked = 0;
	/* only a rise (or no change): drops, however often they come, fall, and the climb out of
	 * a marked one is recovery (quiet). The first two changes teach either way (first_either),
	 * so that the first verdicts have a jitter to go by (a writer alternating 27 and 33 MB/s
	 * from the start is not dipping at its first 27), unless the series is a group member
	 * whose pacing ticks are known: then a tick's fall is no dip anyway, its peers stand in
	 * for its jitter until it knows two rises, and a start that was off by a tick or two
	 * would hide its drops for a minute. */
	if (teach && (value >= st->last || (first_either && st->nresid < DIP_MIN_RESIDS)))
		detect_stat_push_resid(st, (value - st->last) / up);
	st->last = value;
	st->nseen += st->nseen < UINT8_MAX;
	sortwin_push_short(st->level_sorted, st->level_tag, DIP_BASE_LEN, &st->nlevel, &st->next_level,
			value);
	st->reqs_per_unit = rpu;
	if (st->nlevel < DIP_MIN_LEVELS)
		return;
	if (st->slow_wait) {
		st->slow_wait--;
		return;
	}
	sortwin_push_short(st->slow_sorted, st->slow_tag, DIP_SLOW_LEN, &st->nslow, &st->next_slow,
			   detect_stat_upper(st));
	st->slow_wait = DIP_SLOW_EVERY - 1;
}

static unsigned detect_settle_next(unsigned left, bool dip)
{
	return dip ? DIP_SETTLE : (left ? left - 1 : 0);
}

struct dip_series *detect_series_new(const struct dip_params *p)
{
	struct dip_series *s = calloc(1, sizeof *s);
	if (s)
		s->p = *p;
	return s;
}

void detect_series_free(struct dip_series *s)
{
	free(s);
}

/* A tick as a part of the level for intervals of interval_s: 0 when the length is unknown,
 * or so long that a tick is under half of --dip (at 5 s, vmstat 5, a fiftieth: smaller than
 * most series' jitter, and a fall of it no more than their noise). */
static double detect_pace_frac(const struct dip_params *p, double interval_s)
{
	if (!(interval_s > 0.0 && interval_s <= DBL_MAX))
		return 0.0;
	double frac = DIP_PACE_S / interval_s;
	return frac >= 0.5 * p->drop_pct / 100.0 ? frac : 0.0;
}

void detect_series_set_interval(struct dip_series *s, double interval_s)
{
	if (s)
		s->pace_frac = detect_pace_frac(&s->p, interval_s);
}

void detect_group_set_interval(struct dip_group *g, double interval_s)
{
	if (g)
		g->pace_frac = detect_pace_frac(&g->p, interval_s);
}

bool detect_series_feed(struct dip_series *s, double value, bool valid)
{
	return detect_series_feed_reqs(s, value, -1.0, valid);
}

bool detect_series_feed_reqs(struct dip_series *s, double value, double reqs, bool valid)
{
	if (!s || !valid || !detect_rate_ok(value))
		return false;
	double up;
	double base = detect_stat_baseline(&s->st, &up);
	double spread_to = base < up ? base : up;
	double sigma = detect_judged_sigma(&s->st, detect_stat_sigma(&s->st), spread_to, true, s->pace_frac > 0.0);
	double rpu = detect_reqs_per_unit(&s->st, value, reqs);
	double frac = s->settle_left == DIP_SETTLE ? DIP_AFTER_FRAC : 1.0;
	bool dip = detect_stat_ready(&s->st) && detect_busy(&s->p, base) &&
		   !detect_stopped(&s->p, base, value) &&
		   detect_interval_dips(&s->st, &s->p, base, value, sigma, rpu, frac,
					s->settle_left == DIP_SETTLE, s->pace_frac);
	detect_stat_learn(&s->st, &s->p, value, base, up, dip || s->settle_left > 0, rpu, true);
	s->settle_left = detect_settle_next(s->settle_left, dip);
	return dip;
}

struct dip_group *detect_group_new(const struct dip_params *p)
{
	struct dip_group *g = calloc(1, sizeof *g);
	if (g)
		g->p = *p;
	return g;
}

void detect_group_free(struct dip_group *g)
{
	if (!g)
		return;
	for (size_t j = 0; j < g->ndev; j++)
		free(g->dev[j].key);
	free(g->dev);
	free(g->slot);
	free(g->base);
	free(g->up);
	free(g->part);
	free(g->rpu);
	free(g->pool);
	free(g->own);
	hashidx_free(&g->index);
	free(g);
}

/* Make the per-call scratch big enough for n inputs; 0 or -ENOMEM. */
static int detect_group_reserve(struct dip_group *g, size_t n)
{
	const struct grow_part in[] = {
		{ (void **)&g->slot, sizeof *g->slot }, { (void **)&g->base, sizeof *g->base },
		{ (void **)&g->up, sizeof *g->up }, { (void **)&g->part, sizeof *g->part },
		{ (void **)&g->rpu, sizeof *g->rpu },
	};
	const struct grow_part pool[] = {
		{ (void **)&g->pool, sizeof *g->pool }, { (void **)&g->own, sizeof *g->own },
	};
	if (grow_arrays(in, sizeof in / sizeof in[0], &g->cap_in, n, 8) < 0 ||
	    grow_arrays(pool, sizeof pool / sizeof pool[0], &g->cap_pool, n, 8) < 0)
		return -ENOMEM;
	return 0;
}

static void detect_hash_put(struct dip_group *g, size_t j)
{
	hashidx_put(&g->index, hashidx_str(g->dev[j].key), j);
}

/* Rebuild the index for the current dev[], with room for cap_dev devices
 * at most half full.  0 or -ENOMEM (then the index is dropped and finds
 * fall back to a linear search). */
static int detect_hash_rebuild(struct dip_group *g)
{
	if (hashidx_reset(&g->index, g->cap_dev, 16) < 0)
		return -ENOMEM;
	for (size_t j = 0; j < g->ndev; j++)
		detect_hash_put(g, j);
	return 0;
}

/* Index of key in dev[], SIZE_MAX if unknown. The hint (the device that followed the previous
 * input last time) is right whenever devices come in the same order, which keeps a group of
 * thousands of devices linear; otherwise the hash index answers. */
static size_t detect_group_find(const struct dip_group *g, const char *key, uint64_t id, size_t hint)
{
	if (hint < g->ndev && ((id && g->dev[hint].id == id) || strcmp(g->dev[hint].key, key) == 0))
		return hint;
	if (!g->index.cap) {
		for (size_t j = 0; j < g->ndev; j++)
			if (strcmp(g->dev[j].key, key) == 0)
				return j;
		return SIZE_MAX;
	}
	size_t at = hashidx_start(&g->index, hashidx_str(key)), j;
	while ((j = hashidx_next(&g->index, &at)) != SIZE_MAX)
		if (strcmp(g->dev[j].key, key) == 0)
			return j;
	return SIZE_MAX;
}

/* Start tracking key; its index, or SIZE_MAX if out of memory. */
static size_t detect_group_add(struct dip_group *g, const char *key)
{
	if (grow_array((void **)&g->dev, &g->cap_dev, g->ndev + 1, sizeof *g->dev, 8) < 0)
		return SIZE_MAX;
	struct dip_dev *d = &g->dev[g->ndev];
	memset(d, 0, sizeof *d);
	d->next = SIZE_MAX;
	d->key = strdup(key);
	if (!d->key)
		return SIZE_MAX;
	size_t j = g->ndev++;
	if (g->index.cap < 2 * g->cap_dev)
		detect_hash_rebuild(g);	/* grown: rebuild (it includes j) */
	else
		detect_hash_put(g, j);
	return j;
}

/* What one interval's passes over the group find out. */
struct dip_tally {
	size_t present;		/* devices with a sample */
	size_t nbusy;		/* with a busy baseline, judged if their share is big enough */
	double busy_sum;	/* of those baselines */
	size_t npart;		/* judged */
	double sum_base, sum_value;	/* of the judged devices */
	double sum_reqs;	/* their requests this interval, NAN if one is unknown */
	bool total_dipped;	/* the judged devices' total dipped */
	double lost, marked_base;	/* of the devices marked: baseline minus value, baseline */
};

/* Fill slot[] for this interval's inputs, and base[] and part[] (a baseline that is known and
 * busy; the share test comes in detect_group_participants); 0, or -ENOMEM if a new device could
 * not be added. One pass: each device's state is read while it is at hand. */
static int detect_group_map(struct dip_group *g, const char *const *keys, const uint64_t *ids,
			    const double *values, const double *reqs, size_t n, struct dip_tally *t)
{
	size_t prev = SIZE_MAX;
	for (size_t i = 0; i < n; i++) {
		g->slot[i] = SIZE_MAX;
		g->base[i] = g->up[i] = NAN;
		g->part[i] = false;
		if (!keys[i] || !detect_rate_ok(values[i]))
			continue;
		size_t hint = prev == SIZE_MAX ? g->first : g->dev[prev].next;
		uint64_t id = ids ? ids[i] : 0;
		size_t j = detect_group_find(g, keys[i], id, hint);
		if (j == SIZE_MAX && (j = detect_group_add(g, keys[i])) == SIZE_MAX)
			return -ENOMEM;
		g->dev[j].id = id;
		if (g->dev[j].seen == g->tick) /* the same key twice: keep the first */
			continue;
		g->dev[j].seen = g->tick;
		g->slot[i] = j;
		t->present++;
		if (prev == SIZE_MAX)
			g->first = j;
		else
			g->dev[prev].next = j;
		prev = j;
		const struct dip_stat *st = &g->dev[j].st;
		g->base[i] = detect_stat_baseline(st, &g->up[i]);
		g->rpu[i] = detect_reqs_per_unit(st, values[i], reqs ? reqs[i] : -1.0);
		g->part[i] = detect_stat_ready(st) && detect_busy(&g->p, g->base[i]);
		if (g->part[i]) {
			t->busy_sum += g->base[i];
			t->nbusy++;
		}
	}
	return 0;
}

/* Narrow part[] to the devices judged: busy, and at least a quarter of an even share of the
 * group's traffic (an idle or background device is not). Tallies them. */
static void detect_group_participants(struct dip_group *g, const double *values, size_t n,
				      struct dip_tally *t)
{
	double min_base = t->nbusy ? DIP_SHARE_FRAC * t->busy_sum / (double)t->nbusy : 0.0;
	for (size_t i = 0; i < n; i++) {
		g->part[i] = g->part[i] && g->base[i] >= min_base;
		if (g->part[i]) {
			t->sum_base += g->base[i];
			t->sum_value += values[i];
			t->sum_reqs += g->rpu[i] > 0.0 ? g->rpu[i] * values[i] : NAN;
			t->npart++;
		}
	}
}

/* Jitter pooled over the judged devices: the median of their own (own[i] for each), so that a
 * device noisier than the rest (a disk that flushes in bursts, written by the journal and by
 * wbtop's own recording) does not raise every other device's floor, while two or three
 * changes that happen to be small on one device do not make it look quiet. One value a
 * device: its cost grows with the group only by a selection. NAN if none is known. */
static double detect_group_pooled_sigma(struct dip_group *g, size_t n)
{
	size_t len = 0;
	for (size_t i = 0; i < n; i++) {
		if (!g->part[i])
			continue;
		double own = detect_stat_sigma(&g->dev[g->slot[i]].st);
		g->own[i] = own;
		if (!isnan(own))
			g->pool[len++] = own;
	}
	return len ? median_select(g->pool, len, (len - 1) / 2) : NAN;
}

/* Judge each participant and the total; writes marks[], returns the interval's verdict. */
static bool detect_group_judge(struct dip_group *g, const double *values, size_t n,
			       struct dip_tally *t, bool *marks)
{
	double sum_base = t->sum_base, sum_value = t->sum_value;
	/* one device stopping while the others write is a dip for it (a paused writer); the
	 * whole group stopping is the end of the run */
	if (!t->npart || detect_stopped(&g->p, sum_base, sum_value))
		return false;
	double pooled = detect_group_pooled_sigma(g, n);
	double indep_var = 0.0; /* of the total, were the devices independent; NAN if unknown */
	bool dip = false;
	for (size_t i = 0; i < n; i++) {
		if (!g->part[i])
			continue;
		struct dip_dev *d = &g->dev[g->slot[i]];
		double sigma = detect_judged_sigma(&d->st, detect_member_sigma(&d->st, &g->p, g->own[i], pooled),
						   g->base[i] < g->up[i] ? g->base[i] : g->up[i], false,
						   g->pace_frac > 0.0);
		marks[i] = detect_interval_dips(&d->st, &g->p, g->base[i], values[i], sigma, g->rpu[i],
						1.0, d->settle_left == DIP_SETTLE, g->pace_frac);
		if (marks[i]) {
			dip = true;
			t->lost += g->base[i] - values[i];
			t->marked_base += g->base[i];
		}
		indep_var += (g->base[i] * sigma) * (g->base[i] * sigma);
	}
	/* The total's jitter: the larger of its own (under a shared limit devices trade and the
	 * total is quiet) and what independent devices would give, so that a total that looked
	 * quiet before a noisy device joined cannot make that device's swings a dip of the group.
	 * While a member's jitter is unknown, so is the total's. */
	double sigma_total = detect_max(detect_total_sigma(&g->total), sqrt(indep_var) / sum_base);
	double rpu_total = isnan(t->sum_reqs) || !(sum_value > 0.0) ? 0.0 : t->sum_reqs / sum_value;
	t->total_dipped = !isnan(indep_var) &&
			  detect_drop_exceeds(&g->p, sum_base, sum_value, sigma_total, rpu_total, 1.0);
	return dip || t->total_dipped;
}

/* Teach every present device, and the total, this interval's values. A device learns its
 * residual unless the group is quiet (a dip the others may have taken up, or the interval
 * after one) or the device itself dipped now or in the interval before. */
static void detect_group_learn(struct dip_group *g, const double *values, size_t n,
			       const bool *marks, bool group_quiet, const struct dip_tally *t)
{
	for (size_t i = 0; i < n; i++) {
		if (g->slot[i] == SIZE_MAX)
			continue;
		struct dip_dev *d = &g->dev[g->slot[i]];
		detect_stat_learn(&d->st, &g->p, values[i], g->base[i], g->up[i],
				  group_quiet || marks[i] || d->settle_left > 0, g->rpu[i],
				  !(g->pace_frac > 0.0));
		d->settle_left = (uint8_t)detect_settle_next(d->settle_left, marks[i]);
	}
	/* against the sum of the present devices' levels: churn is not a residual */
	if (!group_quiet && detect_busy(&g->p, t->sum_base))
		detect_stat_push_resid(&g->total, (t->sum_value - t->sum_base) / t->sum_base);
}

/* Forget devices absent for a while, so that a churning device set does not grow forever.
 * Nothing to look for when every known device was present (the usual interval). */
static void detect_group_prune(struct dip_group *g, size_t present)
{
	if (present == g->ndev)
		return;
	bool pruned = false;
	for (size_t j = 0; j < g->ndev;) {
		if (g->tick - g->dev[j].seen > DIP_FORGET_AFTER) {
			free(g->dev[j].key);
			g->dev[j] = g->dev[--g->ndev];
			pruned = true;
		} else {
			j++;
		}
	}
	if (pruned && g->index.cap)
		detect_hash_rebuild(g);	/* indices moved */
}

bool detect_group_feed(struct dip_group *g, const char *const *keys, const double *values,
		       size_t n, bool *marks)
{
	return detect_group_feed_ids(g, keys, NULL, values, n, marks);
}

bool detect_group_feed_ids(struct dip_group *g, const char *const *keys, const uint64_t *ids,
			   const double *values, size_t n, bool *marks)
{
	return detect_group_feed_reqs(g, keys, ids, values, NULL, n, marks);
}

bool detect_group_feed_reqs(struct dip_group *g, const char *const *keys, const uint64_t *ids,
			    const double *values, const double *reqs, size_t n, bool *marks)
{
	struct dip_tally t = { 0 };
	if (!g || (n && (!keys || !values || !marks)))
		return false;
	memset(marks, 0, n * sizeof *marks);
	if (detect_group_reserve(g, n) < 0)
		return false;
	g->tick++;
	if (detect_group_map(g, keys, ids, values, reqs, n, &t) < 0)
		return false;
	detect_group_participants(g, values, n, &t);
	bool dip = detect_group_judge(g, values, n, &t, marks);
	/* when the others may have taken up what the dipping devices lost, the devices that
	 * rose did so for the same reason: no device's residual is plain noise then, nor in the
	 * recovery interval after */
	bool shared = t.total_dipped || t.lost > DIP_TRADE_FRAC * (t.sum_base - t.marked_base);
	g->held = shared ? g->held + 1 : 0;
	bool hold = (shared || g->settle_left > 0) && g->held <= DIP_HOLD_MAX;
	detect_group_learn(g, values, n, marks, hold, &t);
	g->settle_left = detect_settle_next(g->settle_left, shared);
	detect_group_prune(g, t.present);
	return dip;
}
