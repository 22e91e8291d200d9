/*
 * detect.h - the dip detector: decides, one interval at a time, whether write throughput dipped.
 *
 * Pure: rates in, a mark and a depth per interval out, by the rule of doc/dips.md (a level, a
 * noise, counting noise and pacing ticks, a cap). No I/O, clock or look-ahead, so live, replay
 * and --annotate mark alike. Units are the caller's (only idle_floor is absolute).
 */
#ifndef WBTOP_DETECT_H
#define WBTOP_DETECT_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

/* Default of --dip: the smallest drop, in percent of the level, that is a dip. */
#define DIP_DEFAULT_DROP_PCT 10.0
/* Default idle floor, for rates in KiB/s (vmstat bo, iostat, wbtop's own): at or below
 * 64 KiB/s a disk shows journal commits, not a workload. */
#define DIP_DEFAULT_IDLE_KBPS 64.0
/* The model's defaults, fitted on the lab corpus' training part (tests/dips/fit.py,
 * doc/dips.md): the level is the LEVEL_Q quantile of the last LEVEL_N busy intervals, and a
 * fall beyond NOISE_K noise sigmas (and --dip) is a dip, or beyond the CAP, however noisy
 * the series. */
#define DIP_DEFAULT_LEVEL_Q 0.525
#define DIP_DEFAULT_LEVEL_N 20
#define DIP_DEFAULT_NOISE_K 2.0
#define DIP_DEFAULT_CAP 0.25
/* The highest cap --dip-model takes: a fall of more than a third is always a dip. */
#define DIP_CAP_MAX (1.0 / 3.0)
/* A series idle this long in a row has ended: its workload is over (doc/dips.md). */
#define DIP_END_SECONDS 10.0
/* The longest level window --dip-model takes. */
#define DIP_LEVEL_MAX 32

struct dip_params {
	double drop_pct;   /* the user's --dip PERCENT */
	double idle_floor; /* rates <= this are idle, in the unit fed; 0 = only zero */
	double level_q;    /* the level's quantile of the busy window, in (0, 1] */
	unsigned level_n;  /* the busy window, 3..DIP_LEVEL_MAX */
	double noise_k;    /* noise sigmas a dip stands out of, > 0 */
	double cap;        /* the most the noise may raise the threshold to, a part of the
			    * level in (0, DIP_CAP_MAX]; a --dip above it still holds */
};

/* Fill p with the defaults above. */
void detect_params_default(struct dip_params *p);

/* Parse --dip ("10", "7.5" or "7.5%"); 0, or -EINVAL unless a number in (0, 100), p unchanged. */
int detect_params_parse(struct dip_params *p, const char *text);

/* Parse --dip-model "q=0.6,n=16,k=3,c=0.3" (any of the four, any order); 0, or -EINVAL if a
 * name or value is bad, p unchanged. */
int detect_params_parse_model(struct dip_params *p, const char *text);

/* Streaming detector for ONE series (e.g. vmstat bo per second). */
struct dip_series;

/* A new detector with a copy of *p; NULL if out of memory. */
struct dip_series *detect_series_new(const struct dip_params *p);

/* Free s; NULL is a no-op. */
void detect_series_free(struct dip_series *s);

/* Feed the next interval's value (a rate >= 0). valid=false (first line, since-boot, a gap), a
 * negative or a non-finite value is "no sample" and never marks. True when the interval dips. */
bool detect_series_feed(struct dip_series *s, double value, bool valid);

/* The same, with reqs, the requests the interval completed (negative: unknown): a fall of a
 * few requests is counting noise, not a dip. */
bool detect_series_feed_reqs(struct dip_series *s, double value, double reqs, bool valid);

/* The last interval's fall below the level, in percent of the level (0 when at or above it);
 * NAN when it had no level (no sample, warming up, idle, ended). */
double detect_series_depth(const struct dip_series *s);

/* The length in seconds of the intervals fed from now on (0 or not finite: unknown). It sets
 * the pacing tick (a tenth of a second of the level) and how long an idle series takes to end. */
void detect_series_set_interval(struct dip_series *s, double interval_s);

/* Devices fed together each interval, keyed by a stable string each; they come and go. */
struct dip_group;

/* A new, empty group with a copy of *p; NULL if out of memory. */
struct dip_group *detect_group_new(const struct dip_params *p);

/* Free g and every device it tracks; NULL is a no-op. */
void detect_group_free(struct dip_group *g);

/* keys[i], values[i], for n devices present this interval; writes marks[i]; true if some device
 * dipped (the way the hand-marked iostat trace marks a whole interval). A key given twice, or a
 * negative or non-finite value, is no sample. Out of memory: nothing judged, all false. */
bool detect_group_feed(struct dip_group *g, const char *const *keys, const double *values,
		       size_t n, bool *marks);

/* The same, with ids[i] (0: none) naming keys[i] for good (as dev_ident's key_serial), so that
 * a known device is found without comparing keys. ids may be NULL. */
bool detect_group_feed_ids(struct dip_group *g, const char *const *keys, const uint64_t *ids,
			   const double *values, size_t n, bool *marks);

/* The same, with reqs[i] (negative: unknown; reqs may be NULL). */
bool detect_group_feed_reqs(struct dip_group *g, const char *const *keys, const uint64_t *ids,
			    const double *values, const double *reqs, size_t n, bool *marks);

/* The same, and depth[i] as detect_series_depth for each input (depth may be NULL). */
bool detect_group_feed_depth(struct dip_group *g, const char *const *keys, const uint64_t *ids,
			     const double *values, const double *reqs, size_t n, bool *marks,
			     double *depth);

/* As detect_series_set_interval, for the group's devices. */
void detect_group_set_interval(struct dip_group *g, double interval_s);

#endif
