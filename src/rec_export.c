/*
 * rec_export.c - a recording as CSV or JSON Lines.
 *
 * Both read the recording through the replay source and derive rates with
 * derive.h, so exported figures are the ones the screen and batch mode
 * showed.  The columns are the figure registry's rows (figure.h): the JSON
 * object of an interval and the CSV header are built from the same rows,
 * and doc/recording.md lists them.  CSV is wide: one row per interval and one
 * block of columns per stable device key, present for the whole file even
 * when the device comes and goes (empty cells while it is absent).
 *
 * Not here: the batch text format (batch.c), the screen, and comparing
 * recordings (compare.c).
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "figure.h"
#include "ident.h"
#include "knob.h"
#include "rec.h"
#include "rec_schema.h"

/* ---- Columns: the figure registry's (figure.h) -------------------------- */

static const char *const rec_status_names[] = {
	[RATE_OK] = "ok", [RATE_FIRST] = "first", [RATE_RESET] = "reset", [RATE_NODATA] = "nodata",
};

static const char *rec_status_name(enum rate_status s)
{
	return (unsigned)s < sizeof rec_status_names / sizeof rec_status_names[0] ? rec_status_names[s] : "?";
}

static void rec_dev_name(const struct dev_counters *d, char *buf, size_t len)
{
	snprintf(buf, len, "%.*s", (int)strnlen(d->name, sizeof d->name), d->name);
}

/* Whether figure f is a column of the exports. */
static bool rec_dev_exported(const struct fig_dev *f)
{
	return f->sinks & FIG_IN_EXPORT;
}

/* ---- Small writers ---------------------------------------------------- */

/* Local time with milliseconds and UTC offset, ISO 8601. */
static void rec_fmt_time(int64_t wall_ns, char *buf, size_t len)
{
	time_t t = (time_t)(wall_ns / 1000000000);
	long ms = (long)((wall_ns % 1000000000) / 1000000);
	if (ms < 0) {
		t--;
		ms += 1000;
	}
	struct tm tm;
	char date[32], zone[8];
	if (!localtime_r(&t, &tm)) {
		snprintf(buf, len, "?");
		return;
	}
	strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%S", &tm);
	strftime(zone, sizeof zone, "%z", &tm);	/* +hhmm -> +hh:mm */
	snprintf(buf, len, "%s.%03ld%.3s:%.2s", date, ms, zone, zone[0] ? zone + 3 : "00");
}

static void rec_json_str(FILE *out, const char *s)
{
	fputc('"', out);
	for (const unsigned char *p = (const unsigned char *)s; p && *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(out, "\\%c", *p);
		else if (*p < 0x20)
			fprintf(out, "\\u%04x", *p);
		else
			fputc(*p, out);
	}
	fputc('"', out);
}

static void rec_json_num(FILE *out, double v)
{
	if (isfinite(v))
		fprintf(out, "%.3f", v);
	else
		fputs("null", out);
}

/* A CSV cell, quoted when it holds a separator, quote or line break. */
static void rec_csv_str(FILE *out, const char *s)
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

static void rec_csv_num(FILE *out, double v)
{
	if (isfinite(v))
		fprintf(out, "%.3f", v);
}

static int rec_out_status(FILE *out)
{
	if (fflush(out) != 0 || ferror(out))
		return errno ? -errno : -EIO;
	return 0;
}

/* ---- JSON ------------------------------------------------------------- */

static void rec_json_sys(FILE *out, const struct sys_rates *sys)
{
	fputs("\"sys\":{", out);
	for (size_t k = 0; k < fig_nsys; k++) {
		const struct fig_sys *f = &fig_sys_table[k];
		fprintf(out, "%s\"%s\":", k ? "," : "", f->name);
		if (f->type == FIG_U64)
			fprintf(out, "%" PRIu64, fig_sys_u64(f, sys));
		else if (f->rate && sys->status != RATE_OK)
			fputs("null", out);
		else
			rec_json_num(out, fig_sys_value(f, sys));
	}
	fputc('}', out);
}

static void rec_json_dev(FILE *out, const struct dev_counters *d, const struct dev_rates *r, bool dip)
{
	char kbuf[IDENT_KEY_MAX], name[sizeof d->name + 1];
	rec_dev_name(d, name, sizeof name);
	fputs("{\"key\":", out);
	rec_json_str(out, ident_dev_key(d, kbuf, sizeof kbuf));
	fputs(",\"name\":", out);
	rec_json_str(out, name);
	fputs(",\"label\":", out);
	rec_json_str(out, d->ident && d->ident->label_short ? d->ident->label_short : name);
	fprintf(out, ",\"status\":\"%s\"", rec_status_name(r->status));
	for (size_t k = 0; k < fig_ndev; k++) {
		const struct fig_dev *f = &fig_dev_table[k];
		if (!rec_dev_exported(f))
			continue;
		fprintf(out, ",\"%s\":", f->name);
		if (fig_dev_available(f, r))
			rec_json_num(out, fig_dev_value(f, r));
		else
			fputs("null", out);
	}
	fprintf(out, ",\"dip\":%s}", dip ? "true" : "false");
}

static void rec_json_events(FILE *out, const struct rec_marks *m)
{
	fputs(",\"events\":[", out);
	for (size_t i = 0; m && i < m->nevents; i++) {
		const struct wb_event *e = &m->events[i];
		fprintf(out, "%s{\"wall_ns\":%" PRId64 ",\"knob\":", i ? "," : "", e->wall_ns);
		rec_json_str(out, e->knob);
		fprintf(out, ",\"old\":%" PRId64 ",\"new\":%" PRId64 ",\"read_back\":%" PRId64
			",\"result\":%d,\"note\":", e->old_value, e->new_value, e->read_back, e->result);
		rec_json_str(out, e->note);
		fputc('}', out);
	}
	fputc(']', out);
}

int rec_json_sample(FILE *out, const struct snapshot *cur, const struct sys_rates *sys,
		    const struct dev_rates *dev, const struct rec_marks *marks)
{
	char t[48];
	rec_fmt_time(cur->wall_ns, t, sizeof t);
	fprintf(out, "{\"schema\":%d,\"time\":\"%s\",\"wall_ns\":%" PRId64 ",\"dt_s\":",
		REC_SCHEMA_VERSION, t, cur->wall_ns);
	rec_json_num(out, sys->dt_s);
	fprintf(out, ",\"status\":\"%s\",", rec_status_name(sys->status));
	rec_json_sys(out, sys);
	fputs(",\"knobs\":{", out);
	for (int k = 0; k < SNAP_NKNOBS; k++) {
		/* an unreadable knob (an older kernel, a file gone) is unknown, not -1 */
		fprintf(out, "%s\"%s\":", k ? "," : "", knob_vm_table[k].name);
		if (cur->knob[k] < 0)
			fputs("null", out);
		else
			fprintf(out, "%" PRId64, cur->knob[k]);
	}
	fprintf(out, "},\"dip\":%s,\"devices\":[", marks && marks->sys_dip ? "true" : "false");
	for (size_t i = 0; i < cur->ndev; i++) {
		if (i)
			fputc(',', out);
		rec_json_dev(out, &cur->dev[i], &dev[i], marks && marks->dev_dips && marks->dev_dips[i]);
	}
	fputc(']', out);
	rec_json_events(out, marks);
	fputs("}\n", out);
	return ferror(out) ? (errno ? -errno : -EIO) : 0;
}

/* ---- CSV -------------------------------------------------------------- */

/* The CSV's device columns: one block per stable key. */
struct rec_csv {
	char **keys;		/* sorted; one block of columns each */
	size_t nkeys;
	struct rec_idmap col_of_id;	/* devices.id -> block */
	size_t *dev_of_col;	/* per sample: block -> device index; SIZE_MAX absent */
};

static void rec_csv_free(struct rec_csv *c)
{
	for (size_t i = 0; i < c->nkeys; i++)
		free(c->keys[i]);
	free(c->keys);
	rec_idmap_free(&c->col_of_id);
	free(c->dev_of_col);
}

static int rec_cmp_str(const void *a, const void *b)
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
static int rec_csv_keys(sqlite3 *db, struct rec_devrow **out, size_t *nout)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(db, "SELECT id, coalesce(key, 'name:' || name), name, major, minor,"
				    " first_seq, coalesce(last_seq, 9223372036854775807) FROM devices"
				    " ORDER BY id", -1, &st, NULL);
	struct rec_devrow *rows = NULL;
	size_t n = 0, cap = 0;
	while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		rc = SQLITE_OK;
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			struct rec_devrow *r = realloc(rows, cap * sizeof *r);
			if (!r) {
				rc = SQLITE_NOMEM;
				break;
			}
			rows = r;
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
	return rc == SQLITE_DONE || (rc & 0xff) == SQLITE_CORRUPT ? 0 : rec_sqlite_errno(rc);
}

static int rec_csv_setup(struct rec_csv *c, sqlite3 *db)
{
	struct rec_devrow *rows;
	size_t n;
	memset(c, 0, sizeof *c);
	int r = rec_csv_keys(db, &rows, &n);
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
		qsort(c->keys, c->nkeys, sizeof *c->keys, rec_cmp_str);
	for (size_t i = 0; r == 0 && i < n; i++) {
		char **k = bsearch(&rows[i].key, c->keys, c->nkeys, sizeof *c->keys, rec_cmp_str);
		if (k)
			r = rec_idmap_put(&c->col_of_id, rows[i].id, (size_t)(k - c->keys));
	}
	for (size_t i = 0; i < n; i++)
		free(rows[i].key);
	free(rows);
	return r;
}

static void rec_csv_header(FILE *out, const struct rec_csv *c)
{
	fputs("time,wall_ns,dt_s,status", out);
	for (size_t k = 0; k < fig_nsys; k++)
		fprintf(out, ",%s", fig_sys_table[k].name);
	for (int k = 0; k < SNAP_NKNOBS; k++)
		fprintf(out, ",%s", knob_vm_table[k].name);
	fputs(",dip,events", out);
	for (size_t b = 0; b < c->nkeys; b++) {
		char col[512];
		for (size_t k = 0; k < fig_ndev; k++) {
			if (!rec_dev_exported(&fig_dev_table[k]))
				continue;
			snprintf(col, sizeof col, "%s@%s", fig_dev_table[k].name, c->keys[b]);
			fputc(',', out);
			rec_csv_str(out, col);
		}
		snprintf(col, sizeof col, "dip@%s", c->keys[b]);
		fputc(',', out);
		rec_csv_str(out, col);
	}
	fputc('\n', out);
}

static void rec_csv_sys(FILE *out, const struct sys_rates *sys)
{
	for (size_t k = 0; k < fig_nsys; k++) {
		const struct fig_sys *f = &fig_sys_table[k];
		fputc(',', out);
		if (f->type == FIG_U64)
			fprintf(out, "%" PRIu64, fig_sys_u64(f, sys));
		else if (!f->rate || sys->status == RATE_OK)
			rec_csv_num(out, fig_sys_value(f, sys));
	}
}

static void rec_csv_row(FILE *out, struct rec_csv *c, const struct snapshot *cur,
			const struct sys_rates *sys, const struct dev_rates *dev,
			const struct rec_marks *m, const int64_t *ids)
{
	char t[48];
	rec_fmt_time(cur->wall_ns, t, sizeof t);
	fprintf(out, "%s,%" PRId64 ",", t, cur->wall_ns);
	rec_csv_num(out, sys->dt_s);
	fprintf(out, ",%s", rec_status_name(sys->status));
	rec_csv_sys(out, sys);
	for (int k = 0; k < SNAP_NKNOBS; k++) {
		if (cur->knob[k] < 0)
			fputc(',', out);	/* unreadable: an empty cell, as any unknown */
		else
			fprintf(out, ",%" PRId64, cur->knob[k]);
	}
	fprintf(out, ",%d,%zu", m->sys_dip, m->nevents);
	for (size_t b = 0; b < c->nkeys; b++)
		c->dev_of_col[b] = SIZE_MAX;
	for (size_t i = 0; ids && i < cur->ndev; i++) {
		size_t col = rec_idmap_get(&c->col_of_id, ids[i]);
		if (col != SIZE_MAX)
			c->dev_of_col[col] = i;
	}
	for (size_t b = 0; b < c->nkeys; b++) {
		size_t i = c->dev_of_col[b];
		for (size_t k = 0; k < fig_ndev; k++) {
			const struct fig_dev *f = &fig_dev_table[k];
			if (!rec_dev_exported(f))
				continue;
			fputc(',', out);
			if (i != SIZE_MAX && fig_dev_available(f, &dev[i]))
				rec_csv_num(out, fig_dev_value(f, &dev[i]));
		}
		fputc(',', out);
		if (i != SIZE_MAX)
			fputc(m->dev_dips && m->dev_dips[i] ? '1' : '0', out);
	}
	fputc('\n', out);
}

/* ---- Walking a recording ---------------------------------------------- */

/* One pass over a replay: each interval with its rates and marks. */
struct rec_walk {
	struct source *src;
	struct snapshot snap[2];
	int cur;
	bool have_prev;
	struct dev_rates *rates;
	size_t cap;
	struct sys_rates sys;
	struct rec_marks marks;
	struct wb_event events[SNAP_NKNOBS];
};

static int rec_walk_open(struct rec_walk *w, const char *path, const char *begin, const char *end,
			 char *err, size_t errlen)
{
	memset(w, 0, sizeof *w);
	snapshot_init(&w->snap[0]);
	snapshot_init(&w->snap[1]);
	if (!(w->src = rec_replay_open(path, false, err, errlen)))
		return -EINVAL;
	if (begin || end)
		return rec_replay_limit(w->src, begin, end, err, errlen);
	return 0;
}

static void rec_walk_close(struct rec_walk *w)
{
	source_close(w->src);
	snapshot_free(&w->snap[0]);
	snapshot_free(&w->snap[1]);
	free(w->rates);
}

/* The next interval: 0 (w->snap[w->cur] and the rates set), 1 at the end,
 * or -errno with the reason in err.  The first sample is only a baseline. */
static int rec_walk_next(struct rec_walk *w, char *err, size_t errlen)
{
	for (;;) {
		int next = w->have_prev ? 1 - w->cur : w->cur;
		struct snapshot *s = &w->snap[next];
		int r = source_next(w->src, s);
		if (r != 0) {
			if (r < 0)
				rec_set_err(err, errlen, "%s", w->src->errmsg);
			return r;
		}
		if (s->ndev > w->cap) {
			struct dev_rates *d = realloc(w->rates, s->ndev * sizeof *d);
			if (!d) {
				rec_set_err(err, errlen, "out of memory");
				return -ENOMEM;
			}
			w->rates = d;
			w->cap = s->ndev;
		}
		bool had_prev = w->have_prev;
		if (had_prev) {
			derive_sys(&w->snap[w->cur], s, &w->sys);
			derive_devs(&w->snap[w->cur], s, w->rates);
		}
		w->cur = next;
		w->have_prev = true;
		if (!had_prev)
			continue;
		r = rec_replay_marks(w->src, &w->marks);
		/* Knob changes made outside wbtop have no event row: derive them
		 * from the knob values, as live batch output does. */
		if (r == 0 && !w->marks.nevents) {
			w->marks.nevents = derive_knob_changes(&w->snap[1 - w->cur], s, w->events,
							       SNAP_NKNOBS);
			w->marks.events = w->marks.nevents ? w->events : NULL;
		}
		return r;
	}
}

int rec_export(const char *path, enum rec_format fmt, const char *begin, const char *end,
	       FILE *out, char *err, size_t errlen)
{
	struct rec_walk w;
	struct rec_csv csv;
	memset(&csv, 0, sizeof csv);
	int r = rec_walk_open(&w, path, begin, end, err, errlen);
	if (r == 0 && fmt == REC_FMT_CSV) {
		struct sqlite3 *db = NULL;
		bool unfinished;
		r = rec_db_open_read(path, false, &db, &unfinished, err, errlen);
		if (r == 0 && (r = rec_csv_setup(&csv, db)) < 0)
			rec_set_err(err, errlen, "%s: reading the devices table: %s", path, strerror(-r));
		sqlite3_close(db);
		if (r == 0)
			rec_csv_header(out, &csv);
	}
	while (r == 0 && (r = rec_walk_next(&w, err, errlen)) == 0) {
		const struct snapshot *cur = &w.snap[w.cur];
		if (fmt == REC_FMT_JSON)
			r = rec_json_sample(out, cur, &w.sys, w.rates, &w.marks);
		else
			rec_csv_row(out, &csv, cur, &w.sys, w.rates, &w.marks, rec_replay_dev_ids(w.src));
		if (r == 0 && ferror(out))
			r = -EIO;
	}
	if (r == 1)
		r = 0;
	int o = rec_out_status(out);
	if (r == 0 && o < 0) {
		r = o;
		rec_set_err(err, errlen, "writing the export: %s", strerror(-o));
	}
	rec_csv_free(&csv);
	rec_walk_close(&w);
	return r;
}
