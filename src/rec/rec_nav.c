/*
 * rec_nav.c - navigation in a replay for the screen: count, tell and seek
 * by index, find the sample of a wall time, the next or previous dip or
 * knob change, and the --begin/--end limits.
 *
 * An index counts the samples of the replay (within the limit) from 0;
 * moving only sets the position next() delivers, decoding is left to
 * next() (rec_read.c, rec_decode.c).  The marks searched are those
 * rec_marks.c loaded; the time forms are rec_time.c's.  Nothing here
 * prints.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "rec/rec.h"
#include "rec_replay_priv.h"
#include "rec/rec_db.h"

/* ---- Navigation ------------------------------------------------------- */

int64_t rec_replay_count(struct source *src)
{
	struct rec_replay *rp = rec_rp(src);
	if (!rp)
		return -EINVAL;
	int64_t last = rec_rp_last(rp);
	return last >= rp->base ? last - rp->base + 1 : 0;
}

int64_t rec_replay_tell(struct source *src)
{
	struct rec_replay *rp = rec_rp(src);
	return rp ? rp->pos - rp->base : -EINVAL;
}

int rec_replay_seek(struct source *src, int64_t index)
{
	struct rec_replay *rp = rec_rp(src);
	if (!rp)
		return -EINVAL;
	if (index < 0 || index > rec_replay_count(src))
		return -ERANGE;
	rp->pos = rp->base + index;
	return 0;
}

int64_t rec_replay_wall_ns(struct source *src, int64_t index)
{
	struct rec_replay *rp = rec_rp(src);
	if (!rp)
		return -EINVAL;
	int64_t seq = rp->base + index, w;
	int r = rec_rp_int(rp, RS_WALL, &seq, &w);
	return r == 0 ? w : r == 1 ? -ERANGE : r;
}

/* First seq in [lo, hi] with wall_ns >= t (hi + 1 if none); wall time is
 * taken to run forward, as it does but for clock steps. */
static int64_t rec_rp_seq_at(struct rec_replay *rp, int64_t lo, int64_t hi, int64_t t)
{
	hi++;
	while (lo < hi) {
		int64_t mid = lo + (hi - lo) / 2, w;
		int r = rec_rp_int(rp, RS_WALL, &mid, &w);
		if (r < 0)
			return r;
		if (r == 0 && w < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int64_t rec_replay_find_time(struct source *src, int64_t wall_ns)
{
	struct rec_replay *rp = rec_rp(src);
	if (!rp)
		return -EINVAL;
	int64_t s = rec_rp_seq_at(rp, rp->base, rec_rp_last(rp), wall_ns);
	return s < 0 ? s : s - rp->base;
}

/* Nearest seq after (dir > 0) or before s in a sorted seq array, or -1. */
static int64_t rec_rp_nearest(const int64_t *seqs, size_t n, size_t stride, int64_t s, int dir,
			      int64_t floor_seq)
{
	/* Arrays of structs start with their seq: walk them by stride. */
	const char *base = (const char *)seqs;
#define SEQ_AT(i) (*(const int64_t *)(const void *)(base + (i) * stride))
	size_t lo = 0, hi = n;
	int64_t want = dir > 0 ? s + 1 : s;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (SEQ_AT(mid) < want)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (dir > 0) {
		while (lo < n && SEQ_AT(lo) <= floor_seq)
			lo++;
		return lo < n ? SEQ_AT(lo) : -1;
	}
	return lo > 0 && SEQ_AT(lo - 1) > floor_seq ? SEQ_AT(lo - 1) : -1;
#undef SEQ_AT
}

static int64_t rec_rp_better(int64_t a, int64_t b, int dir)
{
	if (a < 0)
		return b;
	if (b < 0)
		return a;
	return (dir > 0) == (a < b) ? a : b;
}

int64_t rec_replay_next_mark(struct source *src, int64_t from, int dir, unsigned kinds)
{
	struct rec_replay *rp = rec_rp(src);
	if (!rp || !dir)
		return -EINVAL;
	int64_t last = rec_rp_last(rp);
	if (rp->follow && last > rp->marks_upto) {
		int r = rec_rp_load_marks(rp);
		if (r < 0)
			return r;
	}
	int64_t s = rp->base + from, best = -1;
	if (kinds & REC_MARK_DIP)
		best = rec_rp_nearest(rp->dips ? &rp->dips[0].seq : NULL, rp->ndips, sizeof *rp->dips, s,
				      dir, INT64_MIN);
	if (kinds & REC_MARK_KNOB) {
		/* Knob rows of the first sample are the starting values, not changes. */
		best = rec_rp_better(best, rec_rp_nearest(rp->knobs ? &rp->knobs[0].seq : NULL, rp->nknobs,
							  sizeof *rp->knobs, s, dir, rp->first_seq), dir);
		best = rec_rp_better(best, rec_rp_nearest(rp->event_seq, rp->nevents, sizeof *rp->event_seq,
							  s, dir, INT64_MIN), dir);
	}
	if (best < rp->base || best > last)
		return -ENOENT;
	return best - rp->base;
}

/* ---- Limits ----------------------------------------------------------- */

int rec_replay_limit(struct source *src, const char *begin, const char *end, char *err,
		     size_t errlen)
{
	struct rec_replay *rp = rec_rp(src);
	if (!rp)
		return -EINVAL;
	int64_t last = rec_rp_last(rp), start_ns, b_ns = INT64_MIN, e_ns = INT64_MAX;
	if (last < rp->base || rec_rp_int(rp, RS_WALL, &rp->base, &start_ns) != 0) {
		rec_db_set_err(err, errlen, "%s: no samples to limit with --begin/--end", rp->path);
		return -ERANGE;
	}
	const char *bad = begin && rec_time_parse(begin, start_ns, &b_ns) < 0 ? begin :
			  end && rec_time_parse(end, start_ns, &e_ns) < 0 ? end : NULL;
	if (bad) {
		rec_db_set_err(err, errlen, "%s '%s': not a time (use HH:MM:SS, 'YYYY-MM-DD HH:MM:SS' or "
			    "seconds since the epoch)", bad == begin ? "--begin" : "--end", bad);
		return -EINVAL;
	}
	/* An end given to the second covers that whole second. */
	if (end && !strchr(end, '.') && e_ns <= INT64_MAX - 999999999)
		e_ns += 999999999;
	int64_t from = begin ? rec_rp_seq_at(rp, rp->base, last, b_ns) : rp->base;
	int64_t to = end && e_ns < INT64_MAX ? rec_rp_seq_at(rp, rp->base, last, e_ns + 1) - 1 : last;
	if (from < 0 || to < -1) {
		rec_db_set_err(err, errlen, "%s", rp->src.errmsg);
		return (int)(from < 0 ? from : to);
	}
	if (from > to) {
		rec_db_set_err(err, errlen, "%s: no samples between %s and %s", rp->path,
			    begin ? begin : "the start", end ? end : "the end");
		return -ERANGE;
	}
	rp->base = rp->pos = from;
	if (!rp->follow || to < last)
		rp->last = to;
	rp->end_ns = e_ns;
	return 0;
}
