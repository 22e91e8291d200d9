/*
 * rec_export.c - a recording as CSV or JSON Lines, read through the replay
 * source and derived with derive.h, so the figures are the ones the screen
 * and batch mode showed.  The columns are the figure registry's rows
 * (figure.h); CSV has one row per interval and one block per stable device
 * key (doc/recording.md, "Export").  Not the batch text (batch.c) nor
 * comparing recordings (compare.c).
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/cause.h"
#include "sink/cgview.h"
#include "core/figure.h"
#include "util/grow.h"
#include "core/ident.h"
#include "sink/jsonl.h"
#include "core/knob.h"
#include "core/pipeline.h"
#include "rec/rec.h"
#include "rec/rec_db.h"
#include "rec/rec_idmap.h"
#include "sink/sink.h"

/* ---- Columns: the figure registry's (figure.h) -------------------------- */

/* Whether figure f is a column of the exports. */
static bool rec_export_is_column(const struct fig_dev *f)
{
	return f->sinks & FIG_IN_EXPORT;
}

/* ---- Small writers ---------------------------------------------------- */

/* A CSV cell, quoted when it holds a separator, quote or line break. */
static void rec_export_csv_str(FILE *out, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

static void rec_export_csv_num(FILE *out, double v)
{
	if (isfinite(v))
		fprintf(out, "%.3f", v);
}

static int rec_export_out_status(FILE *out)
{
	if (fflush(out) != 0 || ferror(out))
		return errno ? -errno : -EIO;
	return 0;
}

/* ---- CSV -------------------------------------------------------------- */

/* "vg-home /home /srv (xfs data)": the name, the mount points, the filesystem. */
static const char *rec_export_dev_readable(const struct dev_counters *d, char *buf, size_t len)
{
	const struct dev_ident *id = d->ident;
	char name[sizeof d->name + 1];
	snprintf(name, sizeof name, "%.*s", (int)strnlen(d->name, sizeof d->name), d->name);
	int n = snprintf(buf, len, "%s", id && id->label_short ? id->label_short : name);
	if (id && id->mounts && n >= 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, " %s", id->mounts);
	if (id && id->fstype && n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, " (%s%s%s)", id->fstype, id->fs_label ? " " : "",
			 id->fs_label ? id->fs_label : "");
	return buf;
}

/* The CSV's device columns: one block per stable key. */
struct rec_csv {
	char **keys;		/* sorted; one block of columns each */
	size_t nkeys;
	struct rec_idmap col_of_id;	/* devices.id -> block */
	size_t *dev_of_col;	/* per sample: block -> device index; SIZE_MAX absent */
	char **cgkeys;		/* the recording's cgroups by path, sorted; a block each */
	size_t ncgkeys;
	size_t *cg_of_col;	/* per sample: block -> row of cg; SIZE_MAX absent */
	struct cgview cg;	/* the sample's cgroup rows */
};

static void rec_export_csv_free(struct rec_csv *c)
{
	for (size_t i = 0; i < c->nkeys; i++)
		free(c->keys[i]);
	free(c->keys);
	rec_idmap_free(&c->col_of_id);
	free(c->dev_of_col);
	for (size_t i = 0; i < c->ncgkeys; i++)
		free(c->cgkeys[i]);
	free(c->cgkeys);
	free(c->cg_of_col);
	cgview_free(&c->cg);
}

static int rec_export_cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Rows of the devices table as (id, key, name, major, minor, first, last). */
struct rec_devrow {
	int64_t id, first, last;
	uint32_t major, minor;
	char *key;
};

/* The column key of each devices row: its stable key, with the kernel name
 * added when two different devices held the same key at the same time
 * (cloned filesystems share a UUID). */
static int rec_export_csv_keys(sqlite3 *db, struct rec_devrow **out, size_t *nout)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(db, "SELECT id, coalesce(key, 'name:' || name), name, major, minor,"
				    " first_seq, coalesce(last_seq, 9223372036854775807) FROM devices"
				    " ORDER BY id", -1, &st, NULL);
	struct rec_devrow *rows = NULL;
	size_t n = 0, cap = 0;
	while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		rc = SQLITE_OK;
		if (grow_array((void **)&rows, &cap, n + 1, sizeof *rows, 64) < 0) {
			rc = SQLITE_NOMEM;
			break;
		}
		struct rec_devrow *r = &rows[n];
		r->id = sqlite3_column_int64(st, 0);
		r->major = (uint32_t)sqlite3_column_int64(st, 3);
		r->minor = (uint32_t)sqlite3_column_int64(st, 4);
		r->first = sqlite3_column_int64(st, 5);
		r->last = sqlite3_column_int64(st, 6);
		const char *key = (const char *)sqlite3_column_text(st, 1);
		const char *name = (const char *)sqlite3_column_text(st, 2);
		bool clash = false;
		for (size_t j = 0; j < n && !clash; j++)
			clash = !strcmp(rows[j].key, key ? key : "") && r->first <= rows[j].last &&
				rows[j].first <= r->last && (rows[j].major != r->major || rows[j].minor != r->minor);
		if (asprintf(&r->key, clash ? "%s#%s" : "%s", key ? key : "", name ? name : "") < 0) {
			rc = SQLITE_NOMEM;
			break;
		}
		n++;
	}
	sqlite3_finalize(st);
	*out = rows;
	*nout = n;
	/* A damaged tail (a copy taken mid-write): the devices of the samples
	 * that replay were read; the replay reports real damage itself. */
	return rc == SQLITE_DONE || (rc & 0xff) == SQLITE_CORRUPT ? 0 : rec_db_errno(rc);
}

/* The column key of a cgroup: its path, "ino N" when the sample had none. */
static void rec_export_csv_cg_key(const char *path, uint64_t ino, char *buf, size_t len)
{
	if (path && path[0])
		snprintf(buf, len, "cg:%s", path);
	else
		snprintf(buf, len, "cg:ino %" PRIu64, ino);
}

/* The cgroups of the recording, a block of columns each (by path: a path
 * made again shares its column); none in a file without the cgroups table. */
static int rec_export_csv_cgroups(struct rec_csv *c, sqlite3 *db)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db, "SELECT DISTINCT path, ino FROM cgroups", -1, &st, NULL) != SQLITE_OK)
		return 0;	/* written before the table */
	size_t cap = 0;
	int rc, r = 0;
	while (r == 0 && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		char key[300];
		rec_export_csv_cg_key((const char *)sqlite3_column_text(st, 0),
				      (uint64_t)sqlite3_column_int64(st, 1), key, sizeof key);
		bool seen = false;
		for (size_t k = 0; k < c->ncgkeys && !seen; k++)
			seen = !strcmp(c->cgkeys[k], key);
		if (seen)
			continue;
		if (grow_array((void **)&c->cgkeys, &cap, c->ncgkeys + 1, sizeof *c->cgkeys, 16) < 0 ||
		    !(c->cgkeys[c->ncgkeys] = strdup(key)))
			r = -ENOMEM;
		else
			c->ncgkeys++;
	}
	sqlite3_finalize(st);
	if (r == 0 && c->ncgkeys) {
		qsort(c->cgkeys, c->ncgkeys, sizeof *c->cgkeys, rec_export_cmp_str);
		if (!(c->cg_of_col = calloc(c->ncgkeys, sizeof *c->cg_of_col)))
			r = -ENOMEM;
	}
	return r;
}

static int rec_export_csv_setup(struct rec_csv *c, sqlite3 *db)
{
	struct rec_devrow *rows;
	size_t n;
	memset(c, 0, sizeof *c);
	int r = rec_export_csv_keys(db, &rows, &n);
	if (r == 0 && n) {
		c->keys = calloc(n, sizeof *c->keys);
		c->dev_of_col = calloc(n, sizeof *c->dev_of_col);
		r = c->keys && c->dev_of_col ? 0 : -ENOMEM;
	}
	for (size_t i = 0; r == 0 && i < n; i++) {
		bool seen = false;
		for (size_t k = 0; k < c->nkeys && !seen; k++)
			seen = !strcmp(c->keys[k], rows[i].key);
		if (!seen && !(c->keys[c->nkeys++] = strdup(rows[i].key)))
			r = -ENOMEM;
	}
	if (r == 0 && c->nkeys)
		qsort(c->keys, c->nkeys, sizeof *c->keys, rec_export_cmp_str);
	for (size_t i = 0; r == 0 && i < n; i++) {
		char **k = bsearch(&rows[i].key, c->keys, c->nkeys, sizeof *c->keys, rec_export_cmp_str);
		if (k)
			r = rec_idmap_put(&c->col_of_id, rows[i].id, (size_t)(k - c->keys));
	}
	for (size_t i = 0; i < n; i++)
		free(rows[i].key);
	free(rows);
	return r == 0 ? rec_export_csv_cgroups(c, db) : r;
}

static void rec_export_csv_header(FILE *out, const struct rec_csv *c)
{
	fputs("time,wall_ns,dt_s,status", out);
	for (size_t k = 0; k < fig_nsys; k++)
		fprintf(out, ",%s", fig_sys_table[k].name);
	for (int k = 0; k < SNAP_NKNOBS; k++)
		fprintf(out, ",%s", knob_vm_table[k].name);
	fputs(",dip,events,dip_cause,dip_depth_pct", out);
	for (size_t b = 0; b < c->nkeys; b++) {
		char col[512];
		/* the readable name beside the key: a UUID says nothing to a reader */
		snprintf(col, sizeof col, "name@%s", c->keys[b]);
		fputc(',', out);
		rec_export_csv_str(out, col);
		for (size_t k = 0; k < fig_ndev; k++) {
			if (!rec_export_is_column(&fig_dev_table[k]))
				continue;
			snprintf(col, sizeof col, "%s@%s", fig_dev_table[k].name, c->keys[b]);
			fputc(',', out);
			rec_export_csv_str(out, col);
		}
		snprintf(col, sizeof col, "dip@%s", c->keys[b]);
		fputc(',', out);
		rec_export_csv_str(out, col);
		snprintf(col, sizeof col, "cause@%s", c->keys[b]);
		fputc(',', out);
		rec_export_csv_str(out, col);
		snprintf(col, sizeof col, "dip_depth_pct@%s", c->keys[b]);
		fputc(',', out);
		rec_export_csv_str(out, col);
	}
	for (size_t b = 0; b < c->ncgkeys; b++)
		for (size_t k = 0; k < fig_ncg; k++) {
			char col[512];
			snprintf(col, sizeof col, "%s@%s", fig_cg_table[k].name, c->cgkeys[b]);
			fputc(',', out);
			rec_export_csv_str(out, col);
		}
	fputc('\n', out);
}

/* The cgroups' blocks of one interval (empty cells where a cgroup is absent). */
static void rec_export_csv_cg_cells(FILE *out, struct rec_csv *c, const struct snapshot *prev,
				    const struct snapshot *cur, double dt_s)
{
	if (!c->ncgkeys)
		return;
	for (size_t b = 0; b < c->ncgkeys; b++)
		c->cg_of_col[b] = SIZE_MAX;
	if (cur->ncg && cgview_build(&c->cg, prev, cur, dt_s) == 0)
		for (size_t i = 0; i < c->cg.n; i++) {
			char key[300], *kp = key;
			const struct cgview_row *r = &c->cg.row[i];
			rec_export_csv_cg_key(r->name ? r->name->path : NULL, r->ino, key, sizeof key);
			char **k = bsearch(&kp, c->cgkeys, c->ncgkeys, sizeof *c->cgkeys, rec_export_cmp_str);
			if (k)
				c->cg_of_col[k - c->cgkeys] = i;
		}
	for (size_t b = 0; b < c->ncgkeys; b++)
		for (size_t k = 0; k < fig_ncg; k++) {
			size_t i = c->cg_of_col[b];
			fputc(',', out);
			if (i != SIZE_MAX && (c->cg.row[i].have & 1u << k))
				rec_export_csv_num(out, c->cg.row[i].v[k]);
		}
}

static void rec_export_csv_sys(FILE *out, const struct sys_rates *sys)
{
	for (size_t k = 0; k < fig_nsys; k++) {
		const struct fig_sys *f = &fig_sys_table[k];
		fputc(',', out);
		if (f->type == FIG_U64)
			fprintf(out, "%" PRIu64, figure_sys_u64(f, sys));
		else if (figure_sys_available(f, sys))
			rec_export_csv_num(out, figure_sys_value(f, sys));
	}
}

static void rec_export_csv_row(FILE *out, struct rec_csv *c, const struct snapshot *cur,
			       const struct sys_rates *sys, const struct dev_rates *dev,
			       const struct source_marks *m, double sys_depth, const double *dev_depth,
			       const int64_t *ids)
{
	char t[48];
	jsonl_time(cur->wall_ns, t, sizeof t);
	fprintf(out, "%s,%" PRId64 ",", t, cur->wall_ns);
	rec_export_csv_num(out, sys->dt_s);
	fprintf(out, ",%s", derive_status_name(sys->status));
	rec_export_csv_sys(out, sys);
	for (int k = 0; k < SNAP_NKNOBS; k++) {
		if (cur->knob[k] < 0)
			fputc(',', out);	/* unreadable: an empty cell, as any unknown */
		else
			fprintf(out, ",%" PRId64, cur->knob[k]);
	}
	fprintf(out, ",%d,%zu,", m->sys_dip, m->nevents);
	if (m->sys_dip)	/* a mark's cause and depth; empty without one */
		rec_export_csv_str(out, cause_name(m->sys_cause));
	fputc(',', out);
	if (m->sys_dip)
		rec_export_csv_num(out, sys_depth);
	for (size_t b = 0; b < c->nkeys; b++)
		c->dev_of_col[b] = SIZE_MAX;
	for (size_t i = 0; ids && i < cur->ndev; i++) {
		size_t col = rec_idmap_get(&c->col_of_id, ids[i]);
		if (col != SIZE_MAX)
			c->dev_of_col[col] = i;
	}
	for (size_t b = 0; b < c->nkeys; b++) {
		size_t i = c->dev_of_col[b];
		fputc(',', out);
		if (i != SIZE_MAX) {
			char name[512];
			rec_export_csv_str(out, rec_export_dev_readable(&cur->dev[i], name, sizeof name));
		}
		for (size_t k = 0; k < fig_ndev; k++) {
			const struct fig_dev *f = &fig_dev_table[k];
			if (!rec_export_is_column(f))
				continue;
			fputc(',', out);
			if (i != SIZE_MAX && figure_dev_available(f, &dev[i]))
				rec_export_csv_num(out, figure_dev_value(f, &dev[i]));
		}
		fputc(',', out);
		bool dip = i != SIZE_MAX && m->dev_dips && m->dev_dips[i];
		if (i != SIZE_MAX)
			fputc(dip ? '1' : '0', out);
		fputc(',', out);
		if (dip)
			rec_export_csv_str(out, cause_name(m->dev_causes ? m->dev_causes[i] : 0));
		fputc(',', out);
		if (dip && dev_depth)
			rec_export_csv_num(out, dev_depth[i]);
	}
}

/* ---- Walking a recording ---------------------------------------------- */

/* One pass over a replay through the pipeline: each interval with its rates
 * and marks (the recorded ones, or the detector's when dip is given: the
 * rule every sink follows, pipeline.h). */
struct rec_walk {
	struct source *src;
	struct pipeline *pipe;
	const struct frame *f;		/* the interval; its cur, rates and sys */
	const struct dev_rates *rates;
};

static int rec_export_walk_open(struct rec_walk *w, const char *path, const char *begin,
				const char *end, const struct dip_params *dip, char *err,
				size_t errlen)
{
	memset(w, 0, sizeof *w);
	if (!(w->src = rec_replay_open(path, false, err, errlen)))
		return -EINVAL;
	struct dip_params def;
	detect_params_default(&def);
	w->pipe = pipeline_new(w->src, dip ? dip : &def, pipeline_marks_rule(dip != NULL));
	if (!w->pipe) {
		rec_db_set_err(err, errlen, "out of memory");
		return -ENOMEM;
	}
	if (begin || end)
		return rec_replay_limit(w->src, begin, end, err, errlen);
	return 0;
}

static void rec_export_walk_close(struct rec_walk *w)
{
	pipeline_free(w->pipe);
	source_close(w->src);
}

/* ---- The CSV sink ------------------------------------------------------ */

struct rec_csv_sink {
	struct rec_csv csv;
	FILE *out;
	struct source *src;	/* the replay: its devices rows place the columns */
};

static int rec_export_csv_sink_frame(struct sink *s, const struct frame *f)
{
	struct rec_csv_sink *cs = s->impl;
	if (!f->prev)
		return 0;	/* the baseline: no interval yet */
	/* the knob writes recorded with the sample and the changes others made */
	struct source_marks m = { f->sys_dip, f->dev_dip, NULL, f->nevents + f->nchanges,
				  f->dev_cause, f->sys_cause };
	rec_export_csv_row(cs->out, &cs->csv, f->cur, &f->sys, frame_dev_rates(f), &m, f->sys_depth,
			   f->dev_depth, rec_replay_dev_ids(cs->src));
	rec_export_csv_cg_cells(cs->out, &cs->csv, f->prev, f->cur, f->sys.dt_s);
	fputc('\n', cs->out);
	if (!ferror(cs->out))
		return 0;
	snprintf(s->errmsg, sizeof s->errmsg, "writing the export: %s", strerror(errno ? errno : EIO));
	return errno ? -errno : -EIO;
}

static int rec_export_csv_sink_close(struct sink *s)
{
	struct rec_csv_sink *cs = s->impl;
	rec_export_csv_free(&cs->csv);
	free(cs);
	return 0;
}

static const struct sink_ops rec_export_csv_sink_ops = {
	.kind = "csv", .frame = rec_export_csv_sink_frame, .close = rec_export_csv_sink_close,
};

/* The CSV sink of the replay src of path: its header is written now (the
 * columns are every device of the recording). */
static struct sink *rec_export_csv_sink_new(const char *path, struct source *src, FILE *out,
					    char *err, size_t errlen)
{
	struct rec_csv_sink *cs = calloc(1, sizeof *cs);
	if (!cs) {
		rec_db_set_err(err, errlen, "out of memory");
		return NULL;
	}
	cs->out = out;
	cs->src = src;
	struct sqlite3 *db = NULL;
	bool unfinished;
	int r = rec_db_open_read(path, false, &db, &unfinished, err, errlen);
	if (r == 0 && (r = rec_export_csv_setup(&cs->csv, db)) < 0)
		rec_db_set_err(err, errlen, "%s: reading the devices table: %s", path, strerror(-r));
	sqlite3_close(db);
	if (r < 0) {
		rec_export_csv_free(&cs->csv);
		free(cs);
		return NULL;
	}
	rec_export_csv_header(out, &cs->csv);
	struct sink *s = sink_new(&rec_export_csv_sink_ops, cs);
	if (!s)
		rec_db_set_err(err, errlen, "out of memory");
	return s;
}

int rec_export(const char *path, enum rec_format fmt, const char *begin, const char *end,
	       const struct dip_params *dip, FILE *out, char *err, size_t errlen)
{
	struct rec_walk w;
	struct sink *sink = NULL;
	int r = rec_export_walk_open(&w, path, begin, end, dip, err, errlen);
	if (r == 0) {
		sink = fmt == REC_FMT_JSON ? jsonl_sink_new(out, "writing the export")
					   : rec_export_csv_sink_new(path, w.src, out, err, errlen);
		if (!sink) {
			r = -ENOMEM;
			if (fmt == REC_FMT_JSON)
				rec_db_set_err(err, errlen, "out of memory");
		}
	}
	const struct frame *f;
	while (r == 0 && (r = pipeline_step(w.pipe, &f)) == 0)
		if ((r = sink_frame(sink, f)) < 0)
			rec_db_set_err(err, errlen, "%s", sink->errmsg);
	if (r == 1)
		r = 0;
	else if (r < 0 && !(err && err[0]))
		rec_db_set_err(err, errlen, "%s", w.src ? w.src->errmsg : strerror(-r));
	int o = rec_export_out_status(out);
	if (r == 0 && o < 0) {
		r = o;
		rec_db_set_err(err, errlen, "writing the export: %s", strerror(-o));
	}
	sink_close(sink, NULL, 0);
	rec_export_walk_close(&w);
	return r;
}
