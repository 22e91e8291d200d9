/*
 * rec_marks.c - the replay's marks: knob values, dips and knob-change
 * events, read into memory from their tables (again as a followed
 * recording grows), sorted by seq, and looked up per sample: the knob
 * values in force, the marks of the sample delivered, the nearest mark.
 * Not the decoding of counters (rec_decode.c).  Nothing here prints.
 */
#include <errno.h>
#include <sqlite3.h>
#include <string.h>

#include "core/cause.h"
#include "core/knob.h"
#include "rec/rec.h"
#include "util/grow.h"
#include "rec_marks_priv.h"
#include "rec_reader_priv.h"
#include "rec/rec_db.h"

/* ---- Marks ------------------------------------------------------------ */

#define REC_DIP_SEQ(a, i) ((a)[i].seq)
#define REC_KNOB_SEQ(a, i) ((a)[i].seq)
#define REC_EVENT_SEQ(a, i) ((a)[i])

static int rec_marks_load_knobs(struct rec_replay *rp)
{
	sqlite3_stmt *st = rp->st[RS_KNOBS];
	sqlite3_bind_int64(st, 1, rp->rowid[0]);
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		rp->rowid[0] = sqlite3_column_int64(st, 0);
		const char *name = (const char *)sqlite3_column_text(st, 2);
		int k = name ? knob_vm_find(name) : -1;
		if (k < 0 || k >= SNAP_NKNOBS)
			continue;	/* a knob this build does not know */
		if (grow_array((void **)&rp->knobs, &rp->cap_knobs, rp->nknobs + 1, sizeof *rp->knobs, 64) < 0) {
			rc = SQLITE_NOMEM;
			break;
		}
		rp->knobs[rp->nknobs++] = (struct rec_knobrow){
			sqlite3_column_int64(st, 1), k, sqlite3_column_int64(st, 3) };
	}
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : rc;
}

static int rec_marks_load_dips(struct rec_replay *rp)
{
	sqlite3_stmt *st = rp->st[RS_DIPS];
	sqlite3_bind_int64(st, 1, rp->rowid[1]);
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		rp->rowid[1] = sqlite3_column_int64(st, 0);
		if (grow_array((void **)&rp->dips, &rp->cap_dips, rp->ndips + 1, sizeof *rp->dips, 64) < 0) {
			rc = SQLITE_NOMEM;
			break;
		}
		const char *cause = (const char *)sqlite3_column_text(st, 3);
		rp->dips[rp->ndips++] = (struct rec_diprow){
			sqlite3_column_int64(st, 1), sqlite3_column_int64(st, 2),
			(uint8_t)cause_by_name(cause) };
	}
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : rc;
}

static int rec_marks_load_events(struct rec_replay *rp)
{
	sqlite3_stmt *st = rp->st[RS_EVENTS];
	sqlite3_bind_int64(st, 1, rp->rowid[2]);
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		rp->rowid[2] = sqlite3_column_int64(st, 0);
		size_t n = rp->nevents + 1, cap = rp->cap_events;
		if (grow_array((void **)&rp->events, &cap, n, sizeof *rp->events, 64) < 0 ||
		    grow_array((void **)&rp->event_seq, &rp->cap_events, n, sizeof *rp->event_seq, 64) < 0) {
			rc = SQLITE_NOMEM;
			break;
		}
		struct wb_event *e = &rp->events[rp->nevents];
		memset(e, 0, sizeof *e);
		rp->event_seq[rp->nevents++] = sqlite3_column_int64(st, 1);
		e->wall_ns = sqlite3_column_int64(st, 2);
		rec_reader_text(e->knob, sizeof e->knob, st, 3);
		e->old_value = sqlite3_column_int64(st, 4);
		e->new_value = sqlite3_column_int64(st, 5);
		e->read_back = sqlite3_column_int64(st, 6);
		e->result = sqlite3_column_int(st, 7);
		rec_reader_text(e->note, sizeof e->note, st, 8);
	}
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : rc;
}

/* The seq of the last row of a seq-sorted mark array, or fallback. */
#define REC_TAIL_SEQ(arr, n, getseq, fallback) ((n) ? getseq(arr, (n) - 1) : (fallback))

/* A mark table whose tail is cut: the samples after the last mark read
 * may lack marks, so the replay ends before them (never a sample shown
 * without the knob change or dip it had). */
static void rec_marks_clamp(struct rec_replay *rp, int64_t last_mark_seq)
{
	if (last_mark_seq - 1 < rp->last)
		rp->last = last_mark_seq - 1;
}

/* Read the marks written since the last call; they are complete up to
 * the newest sample seen before reading them (a sample and its marks are
 * one transaction). */
int rec_marks_load(struct rec_replay *rp)
{
	int64_t upto = rp->last;
	if (rp->follow) {
		int r = rec_reader_int(rp, RS_MAX, NULL, &upto);
		if (r < 0)
			return rec_reader_fail(rp, r, "damaged or unreadable (%s)", sqlite3_errmsg(rp->db));
	}
	int rc[3] = { rec_marks_load_knobs(rp), rec_marks_load_dips(rp), rec_marks_load_events(rp) };
	int64_t tail[3] = {
		REC_TAIL_SEQ(rp->knobs, rp->nknobs, REC_KNOB_SEQ, rp->first_seq),
		REC_TAIL_SEQ(rp->dips, rp->ndips, REC_DIP_SEQ, rp->first_seq),
		REC_TAIL_SEQ(rp->event_seq, rp->nevents, REC_EVENT_SEQ, rp->first_seq),
	};
	for (int k = 0; k < 3; k++) {
		if (rc[k] == SQLITE_OK)
			continue;
		if (!rp->tolerant || (rc[k] & 0xff) != SQLITE_CORRUPT)
			return rec_reader_fail(rp, rec_db_errno(rc[k]), "reading marks: %s",
					       sqlite3_errstr(rc[k]));
		rec_marks_clamp(rp, tail[k]);
	}
	rp->marks_upto = upto;
	return 0;
}

/* First index in a seq-sorted array whose seq is >= seq. */
#define REC_LOWER_BOUND(arr, n, getseq, seq, out) do { \
		size_t lo_ = 0, hi_ = (n); \
		while (lo_ < hi_) { \
			size_t mid_ = lo_ + (hi_ - lo_) / 2; \
			if ((getseq(arr, mid_)) < (seq)) \
				lo_ = mid_ + 1; \
			else \
				hi_ = mid_; \
		} \
		(out) = lo_; \
	} while (0)

/* Knob values in force at sample seq (rows fold forward, in seq order). */
void rec_marks_knobs_at(struct rec_replay *rp, int64_t seq, int64_t knob[SNAP_NKNOBS])
{
	if (seq < rp->knob_seq) {
		for (int k = 0; k < SNAP_NKNOBS; k++)
			rp->knob_cur[k] = -1;
		rp->knob_next = 0;
	}
	while (rp->knob_next < rp->nknobs && rp->knobs[rp->knob_next].seq <= seq) {
		rp->knob_cur[rp->knobs[rp->knob_next].knob] = rp->knobs[rp->knob_next].value;
		rp->knob_next++;
	}
	rp->knob_seq = seq;
	memcpy(knob, rp->knob_cur, sizeof rp->knob_cur);
}

/* Nearest seq after (dir > 0) or before s in a sorted seq array, or -1. */
static int64_t rec_marks_nearest_in(const int64_t *seqs, size_t n, size_t stride, int64_t s,
				    int dir, int64_t floor_seq)
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

static int64_t rec_marks_better(int64_t a, int64_t b, int dir)
{
	if (a < 0)
		return b;
	if (b < 0)
		return a;
	return (dir > 0) == (a < b) ? a : b;
}

/* The nearest seq after (dir > 0) or before (dir < 0) s with a mark of
 * one of kinds (enum rec_mark_kind), or -1. */
int64_t rec_marks_nearest(struct rec_replay *rp, int64_t s, int dir, unsigned kinds)
{
	int64_t best = -1;
	if (kinds & REC_MARK_DIP)
		best = rec_marks_nearest_in(rp->dips ? &rp->dips[0].seq : NULL, rp->ndips,
					    sizeof *rp->dips, s, dir, INT64_MIN);
	if (kinds & REC_MARK_KNOB) {
		/* Knob rows of the first sample are the starting values, not changes. */
		best = rec_marks_better(best, rec_marks_nearest_in(rp->knobs ? &rp->knobs[0].seq : NULL,
								   rp->nknobs, sizeof *rp->knobs, s, dir,
								   rp->first_seq), dir);
		best = rec_marks_better(best, rec_marks_nearest_in(rp->event_seq, rp->nevents,
								   sizeof *rp->event_seq, s, dir, INT64_MIN),
					dir);
	}
	return best;
}

/* ---- The marks of a sample -------------------------------------------- */

int rec_marks_of(struct rec_replay *rp, struct source_marks *out)
{
	memset(out, 0, sizeof *out);
	if (rp->delivered < 0)
		return -ENOENT;
	int64_t s = rp->delivered;
	size_t i;
	REC_LOWER_BOUND(rp->dips, rp->ndips, REC_DIP_SEQ, s, i);
	if (rp->ndelivered) {
		memset(rp->dev_dips, 0, rp->ndelivered * sizeof *rp->dev_dips);
		memset(rp->dev_causes, 0, rp->ndelivered * sizeof *rp->dev_causes);
	}
	for (; i < rp->ndips && rp->dips[i].seq == s; i++) {
		if (rp->dips[i].dev == 0) {
			out->sys_dip = true;
			out->sys_cause = rp->dips[i].cause;
		}
		for (size_t d = 0; d < rp->ndelivered; d++)
			if (rp->dev_ids[d] == rp->dips[i].dev) {
				rp->dev_dips[d] = true;
				rp->dev_causes[d] = rp->dips[i].cause;
			}
	}
	out->dev_dips = rp->ndelivered ? rp->dev_dips : NULL;
	out->dev_causes = rp->ndelivered && rp->has_causes ? rp->dev_causes : NULL;
	REC_LOWER_BOUND(rp->event_seq, rp->nevents, REC_EVENT_SEQ, s, i);
	size_t j = i;
	while (j < rp->nevents && rp->event_seq[j] == s)
		j++;
	out->events = j > i ? &rp->events[i] : NULL;
	out->nevents = j - i;
	return 0;
}
