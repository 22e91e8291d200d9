/*
 * exporter.c - the newest sample as pages for scrapers (exporter.h).
 *
 * A page is written whole into a memory stream, whose buffer becomes the
 * page, swapped in under a lock held for two pointer moves; a scrape takes
 * a reference (an atomic count) and sends the bytes without the lock, so a
 * slow client holds a page, never the loop.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/snapshot.h"
#include "sink/exporter.h"
#include "sink/sink.h"
#include "sink/tally.h"

struct exporter_pg {
	struct exporter_page pub;	/* first: a page's address is its pg's */
	atomic_int refs;
	char *bytes;			/* the memory stream's own buffer, taken over */
};

struct exporter {
	pthread_mutex_t lock;		/* over cur[] */
	struct exporter_pg *cur[2];	/* by enum om_dialect */
	struct tally *tally;
	struct exporter_options o;
	char note[256];
	uint64_t step;
	const struct snapshot *snap;	/* the sample being written */
};

struct exporter *exporter_new(const struct exporter_options *o)
{
	struct exporter *x = calloc(1, sizeof *x);
	if (!x)
		return NULL;
	x->o = *o;
	if (pthread_mutex_init(&x->lock, NULL) != 0 || !(x->tally = tally_new(o->top_n))) {
		tally_free(x->tally);
		free(x);
		return NULL;
	}
	return x;
}

void exporter_set_trace_note(struct exporter *x, const char *note)
{
	snprintf(x->note, sizeof x->note, "%s", note ? note : "");
}

static void exporter_pg_put(struct exporter_pg *pg)
{
	if (pg && atomic_fetch_sub(&pg->refs, 1) == 1) {
		free(pg->bytes);
		free(pg);
	}
}

void exporter_page_put(const struct exporter_page *p)
{
	exporter_pg_put((struct exporter_pg *)(void *)p);
}

const struct exporter_page *exporter_page_get(struct exporter *x, enum om_dialect d)
{
	pthread_mutex_lock(&x->lock);
	struct exporter_pg *pg = x->cur[d];
	if (pg)
		atomic_fetch_add(&pg->refs, 1);
	pthread_mutex_unlock(&x->lock);
	return pg ? &pg->pub : NULL;
}

void exporter_free(struct exporter *x)
{
	if (!x)
		return;
	exporter_pg_put(x->cur[0]);
	exporter_pg_put(x->cur[1]);
	tally_free(x->tally);
	pthread_mutex_destroy(&x->lock);
	free(x);
}

/* ---- the families of the exporter ---------------------------------------- */

static void exporter_ms(FILE *out, uint64_t ms)
{
	fprintf(out, " %" PRIu64 ".%03" PRIu64 "\n", ms / 1000, ms % 1000);
}

static void exporter_sample(FILE *out, const char *name, const char *label, const char *value)
{
	fprintf(out, "%s_total{%s=\"", name, label);
	openmetrics_put_label_value(out, value);
	fputs("\"}", out);
}

static const struct {
	enum tally_family fam;
	const char *label, *ms_name, *ms_help, *pauses_name, *pauses_help;
} exporter_fams[] = {
	{ TALLY_DEV, "device", "wbtop_device_throttled_seconds",
	  "Time tasks writing to the device were paused in balance_dirty_pages, summed over them, "
	  "since wbtop started (tracefs); the top N devices, then device=other",
	  "wbtop_device_throttle_pauses",
	  "Pauses in balance_dirty_pages of tasks writing to the device since wbtop started" },
	{ TALLY_CG, "cgroup", "wbtop_cgroup_throttled_seconds",
	  "Time tasks of the cgroup's writeback domain were paused in balance_dirty_pages since wbtop "
	  "started; the top N cgroups, then cgroup=other",
	  "wbtop_cgroup_throttle_pauses",
	  "Pauses in balance_dirty_pages in the cgroup's writeback domain since wbtop started" },
	{ TALLY_COMM, "comm", "wbtop_command_throttled_seconds",
	  "Time tasks of this command name were paused in balance_dirty_pages since wbtop started; "
	  "the top N names, then comm=other",
	  "wbtop_command_throttle_pauses",
	  "Pauses in balance_dirty_pages of tasks of this command name since wbtop started" },
};

static void exporter_throttling(FILE *out, const struct exporter *x, enum om_dialect d)
{
	for (size_t k = 0; k < sizeof exporter_fams / sizeof *exporter_fams; k++) {
		const struct tally_row *rows;
		struct tally_row other;
		size_t n = tally_rows(x->tally, exporter_fams[k].fam, &rows, &other);
		openmetrics_put_meta(out, exporter_fams[k].ms_name, true, "seconds", exporter_fams[k].ms_help, d);
		for (size_t i = 0; i <= n; i++) {
			const struct tally_row *r = i < n ? &rows[i] : &other;
			exporter_sample(out, exporter_fams[k].ms_name, exporter_fams[k].label, r->key);
			exporter_ms(out, r->ms);
		}
		openmetrics_put_meta(out, exporter_fams[k].pauses_name, true, NULL,
				     exporter_fams[k].pauses_help, d);
		for (size_t i = 0; i <= n; i++) {
			const struct tally_row *r = i < n ? &rows[i] : &other;
			exporter_sample(out, exporter_fams[k].pauses_name, exporter_fams[k].label, r->key);
			fprintf(out, " %" PRIu64 "\n", r->pauses);
		}
	}
}

/* Flusher bytes by reason and lost events: the trace's own totals since its start. */
static void exporter_trace_totals(FILE *out, const struct snapshot *s, enum om_dialect d)
{
	const struct snap_xval *first = snapshot_find_x(s, SNAP_XSYS, 0), *end = s->x + s->nx;
	bool meta = false;
	for (const struct snap_xval *v = first; v && v < end && v->scope == SNAP_XSYS; v++) {
		const struct snap_xkind *k = snapshot_xkind_find(SNAP_XSYS, v->kind);
		size_t len = k ? strlen(k->name) : 0;
		if (!k || strncmp(k->name, "flush_", 6) != 0 || len < 9 || strcmp(k->name + len - 3, "_kb") != 0)
			continue;
		if (!meta)
			openmetrics_put_meta(out, "wbtop_flusher_written_bytes", true, "bytes",
					     "Pages the flusher threads wrote back, by the reason of the work "
					     "(writeback_written tracepoint), since wbtop started", d);
		meta = true;
		fprintf(out, "wbtop_flusher_written_bytes_total{reason=\"%.*s\"} %" PRIu64 "\n", (int)(len - 9),
			k->name + 6, v->value * 1024);
	}
	const struct snap_xval *lost = snapshot_find_xkind(s, SNAP_XSYS, 0, SNAP_XSYS_TRACE_LOST);
	if (lost) {
		openmetrics_put_meta(out, "wbtop_trace_lost_events", true, NULL,
				     "Trace events the kernel overwrote or dropped before wbtop read "
				     "them, since it started: the throttling counters miss them", d);
		fprintf(out, "wbtop_trace_lost_events_total %" PRIu64 "\n", lost->value);
	}
}

static void exporter_more(FILE *out, enum om_dialect d, const void *arg)
{
	const struct exporter *x = arg;
	bool traced = tally_traced(x->tally);
	openmetrics_put_meta(out, "wbtop_trace_available", false, NULL,
			     "1 when the kernel's writeback trace is read, so that the throttling and "
			     "flusher counters are counts; 0 with the reason when it is not", d);
	fputs("wbtop_trace_available", out);
	if (!traced) {
		fputs("{reason=\"", out);
		openmetrics_put_label_value(out, x->note[0] ? x->note : "no trace values in the sample");
		fputs("\"}", out);
	}
	fprintf(out, " %d\n", traced);
	if (traced) {
		exporter_throttling(out, x, d);
		exporter_trace_totals(out, x->snap, d);
	}
	openmetrics_put_meta(out, "wbtop_exporter_samples", true, NULL,
			     "Samples wbtop took since it started; a scrape reads the newest", d);
	fprintf(out, "wbtop_exporter_samples_total %" PRIu64 "\n", x->step);
}

/* ---- pages ----------------------------------------------------------------- */

/* The page of len bytes at *buf (a memory stream's, NUL-terminated), made the newest of
 * dialect d; the page owns *buf from now on, which is set to NULL. */
static int exporter_swap(struct exporter *x, enum om_dialect d, char **buf, size_t len)
{
	struct exporter_pg *pg = malloc(sizeof *pg);
	if (!pg)
		return -ENOMEM;
	pg->bytes = *buf;
	*buf = NULL;
	pg->pub.data = pg->bytes;
	pg->pub.len = len;
	pg->pub.step = x->step;
	atomic_init(&pg->refs, 1);
	pthread_mutex_lock(&x->lock);
	struct exporter_pg *old = x->cur[d];
	x->cur[d] = pg;
	pthread_mutex_unlock(&x->lock);
	exporter_pg_put(old);
	return 0;
}

/* The sample written once, in OpenMetrics; the 0.0.4 page is that text with its counter
 * families renamed (openmetrics_to_prometheus), which costs a copy, not a second writing. */
static int exporter_write(struct exporter *x, const struct frame *f)
{
	char *om = NULL, *prom = NULL;
	size_t omlen = 0, promlen = 0;
	FILE *out = open_memstream(&om, &omlen);
	if (!out)
		return -ENOMEM;
	struct om_options oo = x->o.om;
	oo.dialect = OM_DIALECT_OPENMETRICS;
	oo.more = exporter_more;
	oo.more_arg = x;
	int rc = openmetrics_write(out, f, &oo);
	if (fclose(out) != 0 && rc == 0)
		rc = -ENOMEM;
	if (rc == 0 && !(out = open_memstream(&prom, &promlen)))
		rc = -ENOMEM;
	if (rc == 0) {
		rc = openmetrics_to_prometheus(om, omlen, out);
		if (fclose(out) != 0 && rc == 0)
			rc = -ENOMEM;
	}
	if (rc == 0)
		rc = exporter_swap(x, OM_DIALECT_OPENMETRICS, &om, omlen);
	if (rc == 0)
		rc = exporter_swap(x, OM_DIALECT_PROMETHEUS, &prom, promlen);
	free(om);
	free(prom);
	return rc;
}

static int exporter_sink_frame(struct sink *s, const struct frame *f)
{
	struct exporter *x = s->impl;
	x->step++;
	x->snap = f->cur;
	int rc = tally_feed(x->tally, f->prev, f->cur);
	if (rc == 0)
		rc = exporter_write(x, f);
	x->snap = NULL;
	if (rc < 0)
		snprintf(s->errmsg, sizeof s->errmsg, "exporter: %s", strerror(-rc));
	return rc;
}

static int exporter_sink_close(struct sink *s)
{
	(void)s;	/* the exporter is its owner's */
	return 0;
}

static const struct sink_ops exporter_sink_ops = {
	.kind = "exporter",
	.frame = exporter_sink_frame,
	.close = exporter_sink_close,
};

struct sink *exporter_sink_new(struct exporter *x)
{
	return sink_new(&exporter_sink_ops, x);
}
