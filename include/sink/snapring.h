/*
 * snapring.h - the last samples as raw snapshots, kept in memory so the screen
 * can save what it showed to a recording after the fact ("save history").
 *
 * Bounded by samples and by device rows (it keeps fewer samples rather than
 * grow, and says so); it owns copies of the identities.  Reads no file, no
 * clock, no curses; rec.h writes what it returns.
 */
#ifndef WBTOP_SNAPRING_H
#define WBTOP_SNAPRING_H

#include <stdbool.h>
#include <stddef.h>

#include "rec/rec.h"
#include "core/snapshot.h"

struct snapring;

/* A ring of up to max_samples samples (>= 1) holding at most max_dev_rows
 * device rows in all.  NULL on allocation failure. */
struct snapring *snapring_new(size_t max_samples, size_t max_dev_rows);
/* Free everything; NULL is a no-op. */
void snapring_free(struct snapring *r);
/* Forget every sample (after a jump in a replay). */
void snapring_clear(struct snapring *r);

/* Keep a copy of v's sample (devices, system counters, knobs, times) with
 * its marks and their causes (each NULL or v->snap->ndev entries); the
 * oldest samples make room.  0, or -ENOMEM (the ring then holds the samples
 * before it).  A sample with more devices than max_dev_rows is not kept:
 * -E2BIG. */
int snapring_push(struct snapring *r, const struct rec_sample *v);

/* Keep v's sample as snapring_push() does, but without copying its devices: the ring reads
 * them where they are until the lender is about to fill v->snap again and calls
 * snapring_refill() with it, which takes the snapshot's device array for the ring and leaves
 * another (the ring's oldest, or none) in its place.  v->snap must not change before that
 * call (a pipeline's snapshots, pipeline_on_refill).  At thousands of devices this saves a
 * copy of every device of every sample.  Same returns as snapring_push(). */
int snapring_push_lent(struct snapring *r, const struct rec_sample *v);
/* s is about to be filled again (a pipeline_refill_fn, pipeline.h; ring is the snapring):
 * if a sample of it is lent to the ring, the ring takes its devices now.  s is left with
 * no devices, and an array to fill. */
void snapring_refill(void *ring, struct snapshot *s);

/* The ring as a sink (sink.h): every frame pushed with its marks, lent (snapring_push_lent)
 * when lent is true: then the frames' maker must call snapring_refill() before it fills a
 * frame's snapshot again.  r is not owned.  NULL when out of memory. */
struct sink;
struct sink *snapring_sink_new(struct snapring *r, bool lent);

/* Samples held. */
size_t snapring_len(const struct snapring *r);
/* Whether samples were dropped for memory (max_dev_rows), not for age,
 * since the last clear: the ring then holds fewer than max_samples. */
bool snapring_capped(const struct snapring *r);
/* Sample age (0 = newest); NULL if age >= snapring_len(). */
const struct snapshot *snapring_get(const struct snapring *r, size_t age);

/* The samples oldest first as a list for rec_writer_save(): out must have room
 * for snapring_len() entries; returns how many were written.  The entries
 * point into the ring: valid until the next push, clear or free. */
size_t snapring_samples(const struct snapring *r, struct rec_sample *out);

#endif
