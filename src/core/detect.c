/*
 * detect.c - the dip detector (contract in detect.h, the rule in doc/dips.md).
 *
 * Each series keeps two windows of its last busy values sorted: the level is a quantile of the
 * short one, the noise the interquartile range of the long one. A group keeps one series a
 * device, found by a hash of its key. It allocates only when the device set grows.
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

/* A series has a level from its third busy value on. */
enum { DIP_LEVEL_MIN = 3 };
/* The noise: the interquartile range of the last 60 busy values, used once 3 are known; until
 * then only a fall past the cap is a dip. Symmetric (a writer alternating 27 and 33 requests an
 * interval has a noise of 3). The noise of steady stretches: a fall past the cap is never
 * learnt (a dip by definition, not noise; three values and one such fall would set a threshold
 * past a smaller fall that follows), and once 20 values are known no value marked as a dip is,
 * or drops in over a quarter of the busy intervals (an erratic writer's) would widen it until
 * none of them was marked. Before 20, a value marked by a still unsettled noise is learnt: a
 * low first estimate would keep out what would raise it. */
enum { DIP_NOISE_LEN = 60, DIP_NOISE_MIN = 3, DIP_NOISE_STEADY = 20 };
/* interquartile range -> a normal's standard deviation */
static const double DIP_QUARTILE_TO_SIGMA = 1.0 / 1.349;
/* Counting noise: a fall of 3 requests or fewer, or of 4 idle floors or less, is none. */
static const double DIP_COUNT_SLACK = 3.0;
static const double DIP_MIN_FALL_FLOORS = 4.0;
/* Pacing: writers held to a rate (pv -L, the kernel's dirty throttling) submit in ticks of up
 * to 0.1 s, so one interval may be short by a tick that lands in the next. Counted only where
 * a tick is at least half of --dip (at 1 s a tenth of the level, at 5 s not). */
static const double DIP_PACE_S = 0.1;
/* The end: idle this long in a row (10 s, at least 2 intervals; 5 when the interval's length is
 * unknown), the workload is over and the series starts again as new. */
static const double DIP_END_S = DIP_END_SECONDS;
enum { DIP_END_MIN = 2, DIP_END_UNKNOWN = 5 };
/* In a group, a device whose mean rate is under a quarter of the busy devices' mean of it is
 * background I/O (a journal, a log) and is not judged. The mean rate, not the level: a device
 * writing in bursts (dm-linear counts XFS's bios of ~10 MiB whole) has a level well above
 * what it moves, and beside it the steady disks it shares a bus with looked like background. */
static const double DIP_SHARE_FRAC = 0.25;
/* A group device absent this many intervals is forgotten. */
enum { DIP_FORGET_AFTER = 16 };

struct dip_stat {
	uint8_t nlevel, next_level, nnoise, next_noise;
	uint8_t idle_run;	/* idle intervals in a row (up to 255) */
	uint8_t nmean;		/* intervals in mean_rate, up to level_n; 0: not begun */
	bool prev_usual;	/* the interval before fell no further than the threshold: a tick
				 * may fall now */
	/* the usual request: the KiB and requests of the busy intervals with a known count, each
	 * interval's share weighted down by 1 - 1/level_n (detect_req_learn) */
	double req_kib, req_n;
	double mean_rate;	/* of the intervals since the workload began, idle ones too: their
				 * mean over the last level_n, weighted exponentially past that */
	double depth;		/* of the last interval, percent (detect_series_depth) */
	uint8_t level_tag[DIP_LEVEL_MAX];
	double level_sorted[DIP_LEVEL_MAX];	/* the last busy values, ascending */
	uint8_t noise_tag[DIP_NOISE_LEN];
	double noise_sorted[DIP_NOISE_LEN];	/* the last busy values, ascending */
};

struct dip_series {
	struct dip_params p;
	struct dip_stat st;
	double pace_frac;	/* a tick as a part of the level; 0: not counted */
	double interval_s;	/* of the intervals fed; 0 unknown */
	unsigned end_after;	/* idle intervals that end the series */
};

struct dip_dev {
	char *key;
	uint64_t id;		/* the caller's id for key when last seen (0: none) */
	unsigned long seen;	/* tick of the last interval the device was present in */
	size_t next;		/* hint: the device that followed this one last time */
	struct dip_stat st;
};

struct dip_group {
	struct dip_params p;
	double pace_frac;
	double interval_s;	/* of the intervals fed; 0 unknown */
	unsigned end_after;
	struct dip_dev *dev;
	size_t ndev, cap_dev;
	unsigned long tick;
	size_t first;		/* hint: the device fed first last time */
	/* scratch for one call, grown with the device set */
	size_t *slot;		/* slot[i]: index in dev[] of input i, SIZE_MAX = no sample */
	double *level;		/* level[i]: of input i, NAN if none */
	double *noise;		/* noise[i]: its own noise if judged, NAN otherwise */
	double *pool;		/* the judged devices' known noises, for their median */
	bool *judged;		/* judged[i]: input i is judged this interval */
	size_t cap_in;
	/* key -> index in dev[], rebuilt when devices are added past half its size or pruned:
	 * a group seeing thousands of new devices at once stays linear */
	struct hashidx index;
};

void detect_params_default(struct dip_params *p)
{
	p->drop_pct = DIP_DEFAULT_DROP_PCT;
	p->idle_floor = DIP_DEFAULT_IDLE_KBPS;
	p->level_q = DIP_DEFAULT_LEVEL_Q;
	p->level_n = DIP_DEFAULT_LEVEL_N;
	p->noise_k = DIP_DEFAULT_NOISE_K;
	p->cap = DIP_DEFAULT_CAP;
}

/* strtod of the whole of [text, stop), errno kept; false unless a finite number. */
static bool detect_number(const char *text, const char *stop, double *out)
{
	int saved_errno = errno;
	char *end;
	errno = 0;
	double v = strtod(text, &end);
	bool ok = end != text && errno == 0 && end == stop && isfinite(v);
	errno = saved_errno;
	*out = v;
	return ok;
}

int detect_params_parse(struct dip_params *p, const char *text)
{
	if (!p || !text)
		return -EINVAL;
	const char *stop = text + strlen(text);
	if (stop > text && stop[-1] == '%')
		stop--;
	double pct;
	if (!detect_number(text, stop, &pct) || !(pct > 0.0 && pct < 100.0))
		return -EINVAL;
	p->drop_pct = pct;
	return 0;
}

int detect_params_parse_model(struct dip_params *p, const char *text)
{
	if (!p || !text || !*text)
		return -EINVAL;
	struct dip_params m = *p;
	for (const char *at = text; *at;) {
		const char *comma = strchr(at, ','), *stop = comma ? comma : at + strlen(at);
		double v;
		if (stop - at < 3 || at[1] != '=' || !detect_number(at + 2, stop, &v))
			return -EINVAL;
		if (at[0] == 'q' && v > 0.0 && v <= 1.0)
			m.level_q = v;
		else if (at[0] == 'n' && v >= DIP_LEVEL_MIN && v <= DIP_LEVEL_MAX && v == floor(v))
			m.level_n = (unsigned)v;
		else if (at[0] == 'k' && v > 0.0 && v <= 100.0)
			m.noise_k = v;
		else if (at[0] == 'c' && v > 0.0 && v <= DIP_CAP_MAX)
			m.cap = v;
		else
			return -EINVAL;
		at = comma ? comma + 1 : stop;
		if (comma && !*at)
			return -EINVAL;
	}
	*p = m;
	return 0;
}

/* Finite and not negative (a NAN fails both comparisons). */
static bool detect_rate_ok(double v)
{
	return v >= 0.0 && v <= DBL_MAX;
}

/* The quantile q of ascending s[0..n), n > 0, interpolated between neighbouring ranks. */
static double detect_quantile(const double *s, size_t n, double q)
{
	double rank = q * (double)(n - 1);
	size_t lo = (size_t)rank;
	return lo + 1 < n ? s[lo] + (rank - (double)lo) * (s[lo + 1] - s[lo]) : s[lo];
}

/* The level: the level_q quantile of the busy window, interpolated between neighbouring ranks;
 * NAN until DIP_LEVEL_MIN busy values are known. An upper quantile of busy intervals only, so
 * that a series off half the time keeps the level it has when it is on. */
static double detect_level(const struct dip_stat *st, const struct dip_params *p)
{
	if (st->nlevel < DIP_LEVEL_MIN)
		return NAN;
	return detect_quantile(st->level_sorted, st->nlevel, p->level_q);
}


/* The noise as a part of the level, as a normal's standard deviation; NAN until known. */
static double detect_noise(const struct dip_stat *st, double level)
{
	if (st->nnoise < DIP_NOISE_MIN)
		return NAN;
	const double *s = st->noise_sorted;
	size_t n = st->nnoise;
	return DIP_QUARTILE_TO_SIGMA * (detect_quantile(s, n, 0.75) - detect_quantile(s, n, 0.25)) / level;
}

/* The fall, as a part of the level, past which an interval dips: --dip, or noise_k sigmas of
 * the noise where that is more, but never more than the cap (nor, while the noise is unknown,
 * less): however erratic a series, a fall past the cap, and so every hole, is a dip. A --dip
 * above the cap wins: the user asked for fewer marks. */
static double detect_threshold(const struct dip_params *p, double noise)
{
	double drop = p->drop_pct / 100.0, t = isnan(noise) ? p->cap : p->noise_k * noise;
	if (t > p->cap)
		t = p->cap;
	return t > drop ? t : drop;
}

/* The length of an interval of interval_s, in the unit a request count is kept in: seconds, or
 * 1 when unknown (every interval then counts alike). */
static double detect_length(double interval_s)
{
	return interval_s > 0.0 && interval_s <= DBL_MAX ? interval_s : 1.0;
}

/* Requests per unit of rate in an interval of interval_s (1 when unknown), at the size of the
 * usual request: a fall is counted in the requests the level is made of. Neither the interval's
 * own count (one large request would make a deep fall look like one) nor another interval's
 * length (after a late sample of 2.8 s, one of 0.2 s holds a request or none). 0 if unknown. */
static double detect_reqs_per_unit(const struct dip_stat *st, double interval_s)
{
	return st->req_n > 0.0 && st->req_kib > 0.0 ?
		detect_length(interval_s) * st->req_n / st->req_kib : 0.0;
}

/* Learn the usual request from a busy interval whose requests are known. */
static void detect_req_learn(struct dip_stat *st, const struct dip_params *p, double interval_s,
			     double value, double reqs)
{
	if (!(reqs > 0.0 && reqs <= DBL_MAX && value > p->idle_floor))
		return;
	double keep = 1.0 - 1.0 / (p->level_n > 1 ? p->level_n : 2);
	st->req_kib = keep * st->req_kib + value * detect_length(interval_s);
	st->req_n = keep * st->req_n + reqs;
}

/* How far one pacing tick of the level may fall: the tick in whole requests when they are
 * known, one more for the interval's edge and half of one for its length; else half a tick
 * more. 0 where ticks do not count. */
static double detect_tick_fall(double pace_frac, double level, double rpu)
{
	if (!(pace_frac > 0.0))
		return 0.0;
	double tick = pace_frac * level;
	return rpu > 0.0 ? (ceil(tick * rpu - 1e-9) + 1.5) / rpu : 1.5 * tick;
}

/* Does value, below level, dip? Beyond the threshold, and not counting noise (a few requests,
 * a few idle floors), nor one pacing tick (one: detect_tick_fall) after an interval where the
 * series usually is (a tick late lands in the next interval; a fall held over two is a drop). */
static bool detect_judge(const struct dip_stat *st, const struct dip_params *p, double level,
			 double value, double rpu, double one, double threshold)
{
	double fall = level - value;
	if (!(fall > threshold * level) || fall <= DIP_MIN_FALL_FLOORS * p->idle_floor)
		return false;
	if (rpu > 0.0 && fall * rpu <= DIP_COUNT_SLACK)
		return false;
	return !(st->prev_usual && fall <= one);
}

/* Learn value after its verdict: every value moves the mean rate; a busy value joins the
 * level's window and, unless it was marked past the cap, or marked at all once the noise rests
 * on DIP_NOISE_STEADY values, the noise's; an idle one counts towards the end. */
static void detect_learn(struct dip_stat *st, const struct dip_params *p, unsigned end_after,
			 double value, bool dip, bool past_cap)
{
	bool busy = value > p->idle_floor && value > 0.0;
	if (st->nmean || busy) {
		st->nmean += st->nmean < p->level_n;
		st->mean_rate += (value - st->mean_rate) / st->nmean;
	}
	if (!busy) {
		st->idle_run += st->idle_run < UINT8_MAX;
		if (st->idle_run >= end_after) {	/* over: the next workload is learnt as new */
			st->nlevel = st->nnoise = st->nmean = 0;
			st->mean_rate = 0.0;
		}
		return;
	}
	st->idle_run = 0;
	if (!dip || (st->nnoise < DIP_NOISE_STEADY && !past_cap))
		sortwin_push(st->noise_sorted, st->noise_tag, DIP_NOISE_LEN, &st->nnoise,
			     &st->next_noise, value);
	if (p->level_n <= SORTWIN_SHORT)
		sortwin_push_short(st->level_sorted, st->level_tag, p->level_n, &st->nlevel,
				   &st->next_level, value);
	else
		sortwin_push(st->level_sorted, st->level_tag, p->level_n, &st->nlevel, &st->next_level,
			     value);
}

/* One interval of one series: the verdict, its depth in st->depth, then the learning. */
static bool detect_stat_feed(struct dip_stat *st, const struct dip_params *p, unsigned end_after,
			     double pace_frac, double interval_s, double level, double noise,
			     bool judged, double value, double reqs)
{
	double rpu = detect_reqs_per_unit(st, interval_s);
	double fall = level - value, threshold = judged ? detect_threshold(p, noise) : NAN;
	double one = detect_tick_fall(pace_frac, level, rpu);
	bool dip = judged && detect_judge(st, p, level, value, rpu, one, threshold);
	st->depth = level > p->idle_floor && level > 0.0 ? (fall > 0.0 ? 100.0 * fall / level : 0.0) : NAN;
	detect_req_learn(st, p, interval_s, value, reqs);
	detect_learn(st, p, end_after, value, dip, dip && fall > p->cap * level);
	/* a fall past the threshold, excused as a tick or not, leaves no excuse for the next */
	st->prev_usual = !dip && !(fall > threshold * level);	/* NAN: usual */
	return dip;
}

/* A no-sample interval: nothing learnt, and the next interval's tick is no excuse. */
static void detect_stat_gap(struct dip_stat *st)
{
	st->depth = NAN;
	st->prev_usual = false;
}

struct dip_series *detect_series_new(const struct dip_params *p)
{
	struct dip_series *s = calloc(1, sizeof *s);
	if (!s)
		return NULL;
	s->p = *p;
	s->st.depth = NAN;
	s->end_after = DIP_END_UNKNOWN;
	return s;
}

void detect_series_free(struct dip_series *s)
{
	free(s);
}

/* A tick as a part of the level for intervals of interval_s: 0 when the length is unknown,
 * or so long that a tick is under half of --dip (at 5 s a fiftieth, inside any noise). */
static double detect_pace_frac(const struct dip_params *p, double interval_s)
{
	if (!(interval_s > 0.0 && interval_s <= DBL_MAX))
		return 0.0;
	double frac = DIP_PACE_S / interval_s;
	return frac >= 0.5 * p->drop_pct / 100.0 ? frac : 0.0;
}

/* Idle intervals that end a series of intervals of interval_s. */
static unsigned detect_end_after(double interval_s)
{
	if (!(interval_s > 0.0 && interval_s <= DBL_MAX))
		return DIP_END_UNKNOWN;
	double n = ceil(DIP_END_S / interval_s - 1e-9);
	return n < DIP_END_MIN ? DIP_END_MIN : n > UINT8_MAX ? UINT8_MAX : (unsigned)n;
}

void detect_series_set_interval(struct dip_series *s, double interval_s)
{
	if (!s)
		return;
	s->pace_frac = detect_pace_frac(&s->p, interval_s);
	s->interval_s = interval_s;
	s->end_after = detect_end_after(interval_s);
}

void detect_group_set_interval(struct dip_group *g, double interval_s)
{
	if (!g)
		return;
	g->pace_frac = detect_pace_frac(&g->p, interval_s);
	g->interval_s = interval_s;
	g->end_after = detect_end_after(interval_s);
}

bool detect_series_feed(struct dip_series *s, double value, bool valid)
{
	return detect_series_feed_reqs(s, value, -1.0, valid);
}

bool detect_series_feed_reqs(struct dip_series *s, double value, double reqs, bool valid)
{
	if (!s)
		return false;
	if (!valid || !detect_rate_ok(value)) {
		detect_stat_gap(&s->st);
		return false;
	}
	double level = detect_level(&s->st, &s->p);
	bool judged = level > s->p.idle_floor;
	return detect_stat_feed(&s->st, &s->p, s->end_after, s->pace_frac, s->interval_s, level,
				judged ? detect_noise(&s->st, level) : NAN, judged, value, reqs);
}

double detect_series_depth(const struct dip_series *s)
{
	return s ? s->st.depth : NAN;
}

struct dip_group *detect_group_new(const struct dip_params *p)
{
	struct dip_group *g = calloc(1, sizeof *g);
	if (!g)
		return NULL;
	g->p = *p;
	g->end_after = DIP_END_UNKNOWN;
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
	free(g->level);
	free(g->noise);
	free(g->pool);
	free(g->judged);
	hashidx_free(&g->index);
	free(g);
}

/* Make the per-call scratch big enough for n inputs; 0 or -ENOMEM. */
static int detect_group_reserve(struct dip_group *g, size_t n)
{
	const struct grow_part in[] = {
		{ (void **)&g->slot, sizeof *g->slot }, { (void **)&g->level, sizeof *g->level },
		{ (void **)&g->noise, sizeof *g->noise },
		{ (void **)&g->pool, sizeof *g->pool }, { (void **)&g->judged, sizeof *g->judged },
	};
	return grow_arrays(in, sizeof in / sizeof in[0], &g->cap_in, n, 8) < 0 ? -ENOMEM : 0;
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
	d->st.depth = NAN;
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


/* Fill slot[] and level[] for this interval's inputs; the sum of the busy devices' mean rates
 * and their count in *busy_sum, *nbusy, the devices present in *present. 0, or -ENOMEM if a
 * new device could not be added. */
static int detect_group_map(struct dip_group *g, const char *const *keys, const uint64_t *ids,
			    const double *values, size_t n, double *busy_sum,
			    size_t *nbusy, size_t *present)
{
	size_t prev = SIZE_MAX;
	for (size_t i = 0; i < n; i++) {
		g->slot[i] = SIZE_MAX;
		g->level[i] = NAN;
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
		(*present)++;
		if (prev == SIZE_MAX)
			g->first = j;
		else
			g->dev[prev].next = j;
		prev = j;
		const struct dip_stat *st = &g->dev[j].st;
		g->level[i] = detect_level(st, &g->p);
		if (g->level[i] > g->p.idle_floor) {
			*busy_sum += st->mean_rate;
			(*nbusy)++;
		}
	}
	return 0;
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
	return detect_group_feed_depth(g, keys, NULL, values, NULL, n, marks, NULL);
}

bool detect_group_feed_ids(struct dip_group *g, const char *const *keys, const uint64_t *ids,
			   const double *values, size_t n, bool *marks)
{
	return detect_group_feed_depth(g, keys, ids, values, NULL, n, marks, NULL);
}

bool detect_group_feed_reqs(struct dip_group *g, const char *const *keys, const uint64_t *ids,
			    const double *values, const double *reqs, size_t n, bool *marks)
{
	return detect_group_feed_depth(g, keys, ids, values, reqs, n, marks, NULL);
}

/* Each device is judged as a series of its own, if its level is a share of the group's. */
bool detect_group_feed_depth(struct dip_group *g, const char *const *keys, const uint64_t *ids,
			     const double *values, const double *reqs, size_t n, bool *marks,
			     double *depth)
{
	if (!g || (n && (!keys || !values || !marks)))
		return false;
	memset(marks, 0, n * sizeof *marks);
	for (size_t i = 0; depth && i < n; i++)
		depth[i] = NAN;
	if (detect_group_reserve(g, n) < 0)
		return false;
	g->tick++;
	double busy_sum = 0.0;
	size_t nbusy = 0, present = 0;
	if (detect_group_map(g, keys, ids, values, n, &busy_sum, &nbusy, &present) < 0)
		return false;
	double share = nbusy ? DIP_SHARE_FRAC * busy_sum / (double)nbusy : 0.0;
	/* each judged device's own noise, and their median: a device is at least as noisy as the
	 * middle of its peers, so that a spread that happens to be narrow over its first few
	 * intervals does not make it look quiet */
	size_t npool = 0;
	for (size_t i = 0; i < n; i++) {
		g->noise[i] = NAN;
		if (g->slot[i] == SIZE_MAX)
			continue;
		const struct dip_stat *st = &g->dev[g->slot[i]].st;
		g->judged[i] = g->level[i] > g->p.idle_floor && st->mean_rate >= share;
		if (g->judged[i]) {
			g->noise[i] = detect_noise(st, g->level[i]);
			if (!isnan(g->noise[i]))
				g->pool[npool++] = g->noise[i];
		}
	}
	double peers = npool ? median_select(g->pool, npool, (npool - 1) / 2) : NAN;
	bool dip = false;
	for (size_t i = 0; i < n; i++) {
		if (g->slot[i] == SIZE_MAX)
			continue;
		struct dip_stat *st = &g->dev[g->slot[i]].st;
		double noise = isnan(g->noise[i]) || g->noise[i] < peers ? peers : g->noise[i];
		marks[i] = detect_stat_feed(st, &g->p, g->end_after, g->pace_frac, g->interval_s,
					    g->level[i], noise, g->judged[i], values[i],
					    reqs ? reqs[i] : -1.0);
		dip |= marks[i];
		if (depth)
			depth[i] = st->depth;
	}
	detect_group_prune(g, present);
	return dip;
}
