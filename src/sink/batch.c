/*
 * batch.c - batch text output.
 *
 * Per interval: a header and a vmstat-like system line (vmstat's columns,
 * then Dirty, Writeback and the two dirty thresholds in KiB), then an
 * iostat -x like device table.  Both are the figure registry's rows
 * (figure.h), in its order; discard and flush columns appear only when the
 * kernel gives those counters.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sink/batch.h"
#include "core/cause.h"
#include "sink/cgview.h"
#include "core/detect.h"
#include "core/figure.h"
#include "core/ident.h"
#include "sink/sink.h"

#define DIP_MARK " <<<<<"

/* A device that was busy recently: the interval it last was. */
struct batch_seen {
	char name[32];		/* as dev_counters.name */
	unsigned long tick;
};

struct batch {
	FILE *out;
	int time_decimals;	/* of a second in the time column: 0..3 */
	bool time_iso;		/* date and zone too (-t) */
	bool all;
	bool have_regex;
	regex_t regex;
	char *line;		/* one device line: 16 + BATCH_COL_MAX a registry row */
	unsigned long tick;		/* intervals printed */
	struct batch_seen *seen;	/* devices busy within the baseline window */
	size_t nseen, cap_seen;
	const struct snapshot *prev;	/* the interval's first sample, for the cgroup table */
	struct cgview cg;		/* its rows, kept between intervals */
};

/* A device line: the name and at most every registry column, each at most
 * 41 bytes (batch_put_fixed). */
#define BATCH_COL_MAX 42
/* The registry's batch columns at most (a line buffer per column). */
#define BATCH_MAX_COLS 64

struct batch *batch_new(FILE *out, bool all, const char *devices_regex, char *err, size_t errlen)
{
	struct batch *b = calloc(1, sizeof *b);
	if (!b) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	b->out = out;
	b->all = all;
	if (!(b->line = malloc(16 + BATCH_COL_MAX * BATCH_MAX_COLS))) {
		snprintf(err, errlen, "out of memory");
		free(b);
		return NULL;
	}
	if (devices_regex) {
		int rc = regcomp(&b->regex, devices_regex, REG_EXTENDED | REG_NOSUB);
		if (rc != 0) {
			char msg[128];
			regerror(rc, &b->regex, msg, sizeof msg);
			snprintf(err, errlen, "--devices '%s': %s", devices_regex, msg);
			free(b->line);
			free(b);
			return NULL;
		}
		b->have_regex = true;
	}
	return b;
}

void batch_free(struct batch *b)
{
	if (!b)
		return;
	if (b->have_regex)
		regfree(&b->regex);
	free(b->seen);
	free(b->line);
	cgview_free(&b->cg);
	free(b);
}

static bool batch_match(const struct batch *b, const char *s)
{
	return s && regexec(&b->regex, s, 0, NULL, 0) == 0;
}

bool batch_dev_selected(const struct batch *b, const struct dev_counters *d)
{
	if (!b->have_regex)
		return true;
	const struct dev_ident *id = d->ident;
	return batch_match(b, d->name) ||
	       (id && (batch_match(b, id->dm_name) || batch_match(b, id->md_name) ||
		       batch_match(b, id->mounts) || batch_match(b, id->key)));
}

/* The entry of name in b->seen, looked for at hint first (devices come in the same order);
 * NULL if none. */
static struct batch_seen *batch_seen_find(struct batch *b, const char *name, size_t hint)
{
	if (hint < b->nseen && strcmp(b->seen[hint].name, name) == 0)
		return &b->seen[hint];
	for (size_t j = 0; j < b->nseen; j++)
		if (strcmp(b->seen[j].name, name) == 0)
			return &b->seen[j];
	return NULL;
}

/* Was device i busy now or within the detector's level window (a writer paused for a
 * few seconds is the stall itself, not an idle device)? Notes it when busy now; 0 or
 * -ENOMEM. */
static int batch_dev_recent(struct batch *b, const struct dev_counters *d, size_t i, bool busy,
			    bool *recent)
{
	struct batch_seen *e = batch_seen_find(b, d->name, i);
	*recent = e && b->tick - e->tick <= DIP_DEFAULT_LEVEL_N;
	if (!busy)
		return 0;
	if (!e) {
		if (b->nseen == b->cap_seen) {
			size_t cap = b->cap_seen ? 2 * b->cap_seen : 16;
			struct batch_seen *n = realloc(b->seen, cap * sizeof *n);
			if (!n)
				return -ENOMEM;
			b->seen = n;
			b->cap_seen = cap;
		}
		e = &b->seen[b->nseen++];
		snprintf(e->name, sizeof e->name, "%s", d->name);
	}
	e->tick = b->tick;
	*recent = true;
	return 0;
}

static bool batch_dev_shown(struct batch *b, const struct dev_counters *d, size_t i,
			    const struct dev_rates *r, bool dip)
{
	if (!batch_dev_selected(b, d))
		return false;
	bool recent = false;
	if (batch_dev_recent(b, d, i, r->status == RATE_OK && r->active, &recent) < 0)
		recent = true;	/* out of memory: rather one line too many than a stall hidden */
	return b->all || recent || dip;
}

int batch_time_decimals(double interval_s, double slack)
{
	for (int d = 0; d < 3; d++) {
		double scaled = interval_s * (d == 0 ? 1 : d == 1 ? 10 : 100);
		if (round(scaled) >= 1 && fabs(scaled - round(scaled)) <= slack + 1e-9 * scaled)
			return d;
	}
	return 3;
}

void batch_set_time(struct batch *b, int decimals, bool iso)
{
	b->time_decimals = decimals < 0 ? 0 : decimals > 3 ? 3 : decimals;
	b->time_iso = iso;
}

/* "08:51:03", "08:51:03.50", or with -t "2026-12-01T08:51:03.50+0000".
 * Cut, not rounded: a sample at 08:51:03.996 is still in second 03. */
static void batch_time(const struct batch *b, int64_t wall_ns, char *buf, size_t len)
{
	time_t t = (time_t)(wall_ns / 1000000000);
	struct tm tm;
	localtime_r(&t, &tm);
	size_t n = strftime(buf, len, b->time_iso ? "%Y-%m-%dT%H:%M:%S" : "%H:%M:%S", &tm);
	if (b->time_decimals && n < len) {
		static const int64_t div[] = { 1000000000, 100000000, 10000000, 1000000 };
		long frac = (long)((wall_ns % 1000000000) / div[b->time_decimals]);
		n += (size_t)snprintf(buf + n, len - n, ".%0*ld", b->time_decimals, frac);
	}
	if (b->time_iso && n < len)
		strftime(buf + n, len - n, "%z", &tm);
}

/* The system figure at place pos of the line (from 1), NULL past the end. */
static const struct fig_sys *batch_sys_at(unsigned pos)
{
	for (size_t k = 0; k < fig_nsys; k++)
		if (fig_sys_table[k].batch_pos == pos)
			return &fig_sys_table[k];
	return NULL;
}

static void batch_sys_line(const struct batch *b, const struct snapshot *cur, const struct sys_rates *s,
			   bool dip)
{
	FILE *out = b->out;
	char when[48];
	batch_time(b, cur->wall_ns, when, sizeof when);
	int tw = (int)strlen(when) > 8 ? (int)strlen(when) : 8;	/* the time column fits its times */
	fprintf(out, "%-*s", tw, "time");
	const struct fig_sys *f;
	for (unsigned pos = 1; (f = batch_sys_at(pos)); pos++)
		fprintf(out, " %*s", f->width, f->title);
	fprintf(out, "\n%-*s", tw, when);
	/* as vmstat: whole numbers, a rate of a first sample as 0 */
	for (unsigned pos = 1; (f = batch_sys_at(pos)); pos++)
		if (f->type == FIG_U64)
			fprintf(out, " %*" PRIu64, f->width, figure_sys_u64(f, s));
		else
			fprintf(out, " %*.0f", f->width, figure_sys_value(f, s));
	fputs(dip ? DIP_MARK "\n" : "\n", out);
}

/* v right-aligned in width with prec decimals, like "%*.*f", appended at
 * *pos.  Hand-rolled: printf's float conversion costs ~1000 instructions
 * a value, which for 2000 devices x 15 columns would be most of a sample.
 * Rounds half away from zero (printf rounds the exact binary value; the two
 * differ only on exact ties, which rates almost never are). */
static size_t batch_put_fixed(char *buf, size_t pos, int width, int prec, double v)
{
	static const double scale[] = { 1, 10, 100, 1000 };
	char tmp[40];
	char *end = tmp + sizeof tmp, *p = end;
	if (!(v < 1e15 && v > -1e15) || prec < 0 || prec > 3) {
		int n = snprintf(tmp, sizeof tmp, "%.*f", prec, v);
		p = tmp;
		end = tmp + (n < (int)sizeof tmp ? n : (int)sizeof tmp - 1);
	} else {
		bool neg = v < 0;
		uint64_t x = (uint64_t)((neg ? -v : v) * scale[prec] + 0.5);
		/* digits from the right: the decimals, the point, the integer part */
		for (int d = 0; d < prec; d++, x /= 10)
			*--p = (char)('0' + x % 10);
		if (prec)
			*--p = '.';
		do
			*--p = (char)('0' + x % 10);
		while (x /= 10);
		if (neg)
			*--p = '-';
	}
	size_t n = (size_t)(end - p);
	size_t pad = (size_t)width > n ? (size_t)width - n : 0;
	memset(buf + pos, ' ', pad + 1);	/* the separator and the padding */
	pos += pad + 1;
	memcpy(buf + pos, p, n);
	return pos + n;
}

/* "vg-home /home xfs": the readable name after the numbers. */
static void batch_dev_name(FILE *out, const struct dev_counters *d)
{
	const struct dev_ident *id = d->ident;
	if (!id)
		return;
	if (id->dm_name || id->md_name)
		fprintf(out, " %s", id->label_short);
	if (id->mounts)
		fprintf(out, " %s", id->mounts);
	if (id->fstype)
		fprintf(out, " (%s%s%s)", id->fstype, id->fs_label ? " " : "", id->fs_label ? id->fs_label : "");
}

/* The columns this table prints: the registry's batch rows that some
 * device can have (discard and flush columns only when one has them). */
static size_t batch_dev_cols(const struct fig_dev **cols, bool discard, bool flush)
{
	size_t n = 0;
	for (size_t c = 0; c < fig_ndev && n < BATCH_MAX_COLS; c++) {
		const struct fig_dev *col = &fig_dev_table[c];
		if ((col->sinks & FIG_IN_BATCH) && figure_dev_wanted(col, discard, flush))
			cols[n++] = col;
	}
	return n;
}

/* A column of a device without that figure: "-", right-aligned. */
static size_t batch_put_dash(char *line, size_t pos, int width)
{
	line[pos++] = ' ';
	memset(line + pos, ' ', (size_t)width - 1);
	pos += (size_t)width - 1;
	line[pos++] = '-';
	return pos;
}

/* One device's columns after its name into line; returns the length. */
static size_t batch_dev_line(char *line, size_t pos, const struct dev_rates *r,
			     const struct fig_dev *const *cols, size_t ncols)
{
	for (size_t c = 0; c < ncols; c++) {
		const struct fig_dev *col = cols[c];
		if (figure_dev_available(col, r))
			pos = batch_put_fixed(line, pos, col->width, col->prec, figure_dev_value(col, r));
		else
			pos = batch_put_dash(line, pos, col->width);
	}
	return pos;
}

/* The kernel's writeback loop (doc/kernel-loop.md), when the source read
 * it: a table of the rows with FIG_IN_BATCH_LOOP for each shown device that
 * has one of them, then the system's limit and flusher work by reason.
 * Nothing at all otherwise, so text from sources without it stays as it was. */
static void batch_loop(struct batch *b, const struct snapshot *cur, const struct sys_rates *sys,
		       const struct dev_rates *dev, const bool *dev_dip)
{
	FILE *out = b->out;
	bool any = false;
	for (size_t i = 0; i < cur->ndev && !any; i++)
		any = dev[i].status == RATE_OK && dev[i].x_have &&
		      batch_dev_shown(b, &cur->dev[i], i, &dev[i], dev_dip && dev_dip[i]);
	if (any) {
		fprintf(out, "%-12s", "writeback");
		for (size_t c = 0; c < fig_ndev; c++)
			if (fig_dev_table[c].sinks & FIG_IN_BATCH_LOOP)
				fprintf(out, " %*s", fig_dev_table[c].width, fig_dev_table[c].title);
		fputc('\n', out);
	}
	for (size_t i = 0; any && i < cur->ndev; i++) {
		const struct dev_rates *r = &dev[i];
		if (r->status != RATE_OK || !r->x_have ||
		    !batch_dev_shown(b, &cur->dev[i], i, r, dev_dip && dev_dip[i]))
			continue;
		size_t pos = (size_t)snprintf(b->line, 16, "%-12s", cur->dev[i].name);
		for (size_t c = 0; c < fig_ndev; c++) {
			const struct fig_dev *col = &fig_dev_table[c];
			if (!(col->sinks & FIG_IN_BATCH_LOOP))
				continue;
			if (figure_dev_available(col, r)) {
				pos = batch_put_fixed(b->line, pos, col->width, col->prec, figure_dev_value(col, r));
			} else {
				memset(b->line + pos, ' ', col->width);
				pos += col->width;
				b->line[pos++] = '-';
			}
		}
		b->line[pos++] = '\n';
		fwrite(b->line, 1, pos, out);
	}
	if (!sys->x_have)
		return;
	/* "kernel dirty_limit 4096 KiB, background 2680 KiB/s, ...": the flusher's
	 * reasons only when they wrote something */
	fputs("kernel", out);
	const char *sep = " ";
	for (size_t k = 0; k < fig_nsys; k++) {
		const struct fig_sys *f = &fig_sys_table[k];
		if (f->xkind < 0 || !figure_sys_available(f, sys) || (f->rate && !(figure_sys_value(f, sys) > 0)))
			continue;
		fprintf(out, "%s%s %.0f %s", sep, f->title, figure_sys_value(f, sys), f->unit);
		sep = ", ";
	}
	fputc('\n', out);
}

/* The memory cgroups (doc/kernel-loop.md), when the sample has some with
 * writeback state: the registry's fig_cg rows with a batch title, busiest
 * first, idle cgroups only with -a; the path last, as a device's name. */
static void batch_cgroups(struct batch *b, const struct snapshot *cur, double dt_s)
{
	if (!cur->ncg || cgview_build(&b->cg, b->prev, cur, dt_s) < 0 ||
	    !(b->all ? b->cg.n > 0 : cgview_any_busy(&b->cg)))
		return;
	FILE *out = b->out;
	fprintf(out, "%-12s", "cgroup");
	for (size_t c = 0; c < fig_ncg; c++)
		if (fig_cg_table[c].title)
			fprintf(out, " %*s", fig_cg_table[c].width, fig_cg_table[c].title);
	fputs("  path\n", out);
	for (size_t i = 0; i < b->cg.n; i++) {
		const struct cgview_row *r = &b->cg.row[i];
		if (r->idle && !b->all)
			continue;
		size_t pos = (size_t)snprintf(b->line, 16, "%-12" PRIu64, r->ino);
		for (size_t c = 0; c < fig_ncg; c++) {
			const struct fig_cg *f = &fig_cg_table[c];
			if (!f->title)
				continue;
			if (r->have & 1u << c) {
				pos = batch_put_fixed(b->line, pos, f->width, f->prec, r->v[c]);
			} else {
				memset(b->line + pos, ' ', f->width);
				pos += f->width;
				b->line[pos++] = '-';
			}
		}
		fwrite(b->line, 1, pos, out);
		char label[300];
		cgview_label(r, label, sizeof label);
		fprintf(out, "  %s\n", label);
	}
}

/* "# dip NAME: cause, N% below the level" (the depth left out where it is unknown). */
static void batch_dip_line(FILE *out, const char *name, uint8_t cause, double depth)
{
	fprintf(out, "# dip %s: %s", name, cause_name(cause));
	if (isfinite(depth))
		fprintf(out, ", %.0f%% below the level", depth);
	fputc('\n', out);
}

int batch_print(struct batch *b, const struct snapshot *cur, const struct sys_rates *sys,
		const struct dev_rates *dev, const struct batch_marks *m)
{
	FILE *out = b->out;
	bool sys_dip = m->sys_dip;
	const bool *dev_dip = m->dev_dip;
	b->tick++;
	batch_sys_line(b, cur, sys, sys_dip);
	bool discard = false, flush = false;
	for (size_t i = 0; i < cur->ndev; i++) {
		discard |= dev[i].has_discard;
		flush |= dev[i].has_flush;
	}
	const struct fig_dev *cols[BATCH_MAX_COLS];
	size_t ncols = batch_dev_cols(cols, discard, flush);
	fprintf(out, "%-12s", "device");
	for (size_t c = 0; c < ncols; c++)
		fprintf(out, " %*s", cols[c]->width, cols[c]->title);
	fputs("  name\n", out);
	char *line = b->line;
	for (size_t i = 0; i < cur->ndev; i++) {
		const struct dev_counters *d = &cur->dev[i];
		if (!batch_dev_shown(b, d, i, &dev[i], dev_dip && dev_dip[i]))
			continue;
		size_t pos = (size_t)snprintf(line, 16, "%-12s", d->name);
		pos = batch_dev_line(line, pos, &dev[i], cols, ncols);
		fwrite(line, 1, pos, out);
		batch_dev_name(out, d);
		if (dev[i].status == RATE_FIRST)
			fputs(" [new]", out);
		else if (dev[i].status == RATE_RESET)
			fputs(" [reset]", out);
		fputs(dev_dip && dev_dip[i] ? DIP_MARK "\n" : "\n", out);
	}
	/* the causes after the table, so that the marked lines stay as the traces mark them */
	if (sys_dip)
		batch_dip_line(out, "bo", m->sys_cause, m->sys_depth);
	for (size_t i = 0; dev_dip && i < cur->ndev; i++)
		if (dev_dip[i] && batch_dev_selected(b, &cur->dev[i]))
			batch_dip_line(out, cur->dev[i].name, m->dev_cause ? m->dev_cause[i] : DIP_CAUSE_UNKNOWN,
				       m->dev_depth ? m->dev_depth[i] : NAN);
	batch_loop(b, cur, sys, dev, dev_dip);
	batch_cgroups(b, cur, sys->dt_s);
	fputc('\n', out);
	if (fflush(out) == EOF || ferror(out))
		return errno ? -errno : -EIO;
	return 0;
}

int batch_print_event(struct batch *b, const struct wb_event *e)
{
	char when[48];
	batch_time(b, e->wall_ns, when, sizeof when);
	const char *what = e->observed ? "changed outside wbtop" : e->result ? strerror(-e->result) : "ok";
	fprintf(b->out, "# %s knob %s %" PRId64 " -> %" PRId64 ": %s%s%s\n", when, e->knob,
		e->old_value, e->new_value, what, e->note[0] ? ", " : "", e->note);
	if (fflush(b->out) == EOF)
		return errno ? -errno : -EIO;
	return 0;
}

/* ---- the sink ------------------------------------------------------------ */

struct batch_sink {
	struct batch *b;
	const char *out_name;	/* for messages: "standard output" or -o's path */
};

/* Per interval: wbtop's own knob writes (with their reasons) and the
 * changes others made, as comment lines, then the tables. */
static int batch_sink_frame(struct sink *s, const struct frame *f)
{
	struct batch_sink *bs = s->impl;
	if (!f->prev)
		return 0;	/* the baseline: no interval yet (iostat -y) */
	int rc = 0;
	for (size_t i = 0; i < f->nevents && rc == 0; i++)
		rc = batch_print_event(bs->b, &f->events[i]);
	for (size_t i = 0; i < f->nchanges && rc == 0; i++)
		rc = batch_print_event(bs->b, &f->changes[i]);
	bs->b->prev = f->prev;
	const struct batch_marks m = { f->sys_dip, f->sys_cause, f->sys_depth, f->dev_dip,
				       f->dev_cause, f->dev_depth };
	if (rc == 0)
		rc = batch_print(bs->b, f->cur, &f->sys, frame_dev_rates(f), &m);
	if (rc < 0)
		snprintf(s->errmsg, sizeof s->errmsg, "%s: %s", bs->out_name, strerror(-rc));
	return rc;
}

static int batch_sink_close(struct sink *s)
{
	struct batch_sink *bs = s->impl;
	batch_free(bs->b);
	free(bs);
	return 0;
}

/* A write with no interval after it (--restore-on-exit): its line at once. */
static int batch_sink_event(struct sink *s, const struct wb_event *e)
{
	struct batch_sink *bs = s->impl;
	int rc = batch_print_event(bs->b, e);
	if (rc < 0)
		snprintf(s->errmsg, sizeof s->errmsg, "%s: %s", bs->out_name, strerror(-rc));
	return rc;
}

static const struct sink_ops batch_sink_ops = {
	.kind = "text", .frame = batch_sink_frame, .event = batch_sink_event, .close = batch_sink_close,
};

void batch_sink_set_time(struct sink *s, int decimals, bool iso)
{
	struct batch_sink *bs = s->impl;
	batch_set_time(bs->b, decimals, iso);
}

struct sink *batch_sink_new(FILE *out, const char *out_name, bool all, const char *devices_regex,
			    char *err, size_t errlen)
{
	struct batch_sink *bs = calloc(1, sizeof *bs);
	if (!bs) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (!(bs->b = batch_new(out, all, devices_regex, err, errlen))) {
		free(bs);
		return NULL;
	}
	bs->out_name = out_name;
	struct sink *s = sink_new(&batch_sink_ops, bs);
	if (!s)
		snprintf(err, errlen, "out of memory");
	return s;
}
