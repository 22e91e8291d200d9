/*
 * openmetrics.c - one frame as an OpenMetrics (or Prometheus 0.0.4) text
 * exposition, to a stream or to a file replaced atomically (atomic_file.h).
 *
 * Every metric is a row of a table: system figures by offset in struct
 * snapshot, knobs by index in knob.h's table, device figures from the
 * registry (figure.h).  Values are exact decimals from the integer counters
 * (ms / 1000 prints "12.345"), never through a double, so nothing drifts.
 */
#include <errno.h>
#include <stdlib.h>
#include <inttypes.h>
#include <string.h>

#include "util/atomic_file.h"
#include "core/cause.h"
#include "sink/cgview.h"
#include "core/figure.h"
#include "core/ident.h"
#include "core/knob.h"
#include "sink/openmetrics.h"
#include "sink/sink.h"

enum om_type { OM_GAUGE, OM_COUNTER };

struct om_family {
	const char *name;	/* without _total */
	enum om_type type;
	const char *unit;	/* NULL, or the name's last component */
	const char *help;	/* no double quotes: 0.0.4 HELP has no \" */
};

/* ---- value and text output --------------------------------------------- */

/* v * mul / div as an exact decimal; div is 1 or a power of ten. */
static void openmetrics_put_scaled(FILE *out, uint64_t v, uint64_t mul, uint64_t div)
{
	if (div > 1) {
		int digits = 0;
		for (uint64_t d = div; d > 1; d /= 10)
			digits++;
		fprintf(out, "%" PRIu64 ".%0*" PRIu64, v / div, digits, v % div);
	} else if (mul > 1 && v > UINT64_MAX / mul) {
		/* 32 EiB of sectors: out of uint64_t, not of a float */
		fprintf(out, "%.17g", (double)v * (double)mul);
	} else {
		fprintf(out, "%" PRIu64, v * mul);
	}
}

/* Length of the valid UTF-8 sequence at s (1..4), or 0 if it is not one:
 * no overlong forms, no surrogates, nothing above U+10FFFF. */
static size_t openmetrics_utf8_len(const unsigned char *s)
{
	unsigned char c = s[0];
	if (c < 0x80)
		return 1;
	size_t n;
	uint32_t cp, min;
	if ((c & 0xE0) == 0xC0) {
		n = 2, cp = c & 0x1F, min = 0x80;
	} else if ((c & 0xF0) == 0xE0) {
		n = 3, cp = c & 0x0F, min = 0x800;
	} else if ((c & 0xF8) == 0xF0) {
		n = 4, cp = c & 0x07, min = 0x10000;
	} else {
		return 0;
	}
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xC0) != 0x80)	/* also stops at the terminating NUL */
			return 0;
		cp = cp << 6 | (s[i] & 0x3F);
	}
	if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
		return 0;
	return n;
}

void openmetrics_put_label_value(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	while (*p) {
		size_t n = openmetrics_utf8_len(p);
		if (n == 0) {
			fputs("\xEF\xBF\xBD", out);	/* U+FFFD for the stray byte */
			p++;
			continue;
		}
		if (*p == '\\')
			fputs("\\\\", out);
		else if (*p == '"')
			fputs("\\\"", out);
		else if (*p == '\n')
			fputs("\\n", out);
		else
			fwrite(p, 1, n, out);
		p += n;
	}
}

/* HELP text: backslash and newline escaped.  A double quote becomes ' :
 * OpenMetrics wants it escaped, and the 0.0.4 parser rejects \" in HELP. */
static void openmetrics_put_help(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\\\", out);
		else if (*s == '\n')
			fputs("\\n", out);
		else
			fputc(*s == '"' ? '\'' : *s, out);
	}
}

/* HELP, TYPE and UNIT of one family, as the dialect names them. */
static void openmetrics_meta(FILE *out, const struct om_family *fam, const char *help_prefix,
			     enum om_dialect dialect)
{
	const char *suffix = "";
	if (dialect == OM_DIALECT_PROMETHEUS && fam->type == OM_COUNTER)
		suffix = "_total";
	fprintf(out, "# HELP %s%s ", fam->name, suffix);
	if (help_prefix)
		openmetrics_put_help(out, help_prefix);
	openmetrics_put_help(out, fam->help);
	fprintf(out, "\n# TYPE %s%s %s\n", fam->name, suffix,
		fam->type == OM_COUNTER ? "counter" : "gauge");
	if (fam->unit && dialect == OM_DIALECT_OPENMETRICS)
		fprintf(out, "# UNIT %s %s\n", fam->name, fam->unit);
}

void openmetrics_put_meta(FILE *out, const char *name, bool counter, const char *unit, const char *help,
			  enum om_dialect dialect)
{
	const struct om_family fam = { name, counter ? OM_COUNTER : OM_GAUGE, unit, help };
	openmetrics_meta(out, &fam, NULL, dialect);
}

/* The name a sample of fam carries. */
static void openmetrics_sample_name(FILE *out, const struct om_family *fam)
{
	fputs(fam->name, out);
	if (fam->type == OM_COUNTER)
		fputs("_total", out);
}

/* ---- system figures ------------------------------------------------------ */

enum om_scale { OM_X1, OM_KIB, OM_PAGES };	/* times 1, 1024, the page size */

struct om_sys_metric {
	struct om_family fam;
	size_t offset;		/* of a uint64_t in struct snapshot */
	enum om_scale scale;
};

#define OM_SYS(name, type, unit, help, field, scale) \
	{ { name, type, unit, help }, offsetof(struct snapshot, field), scale }
static const struct om_sys_metric om_sys_table[] = {
	OM_SYS("wbtop_dirty_bytes", OM_GAUGE, "bytes",
	       "Dirty in /proc/meminfo: file data in memory waiting to be written back.",
	       sys.dirty_kb, OM_KIB),
	OM_SYS("wbtop_writeback_bytes", OM_GAUGE, "bytes",
	       "Writeback in /proc/meminfo: data being written back now.",
	       sys.writeback_kb, OM_KIB),
	OM_SYS("wbtop_nr_dirty_pages", OM_GAUGE, "pages",
	       "nr_dirty in /proc/vmstat: dirty pages.", sys.nr_dirty_pages, OM_X1),
	OM_SYS("wbtop_nr_writeback_pages", OM_GAUGE, "pages",
	       "nr_writeback in /proc/vmstat: pages under writeback.", sys.nr_writeback_pages, OM_X1),
	OM_SYS("wbtop_dirty_threshold_bytes", OM_GAUGE, "bytes",
	       "nr_dirty_threshold in /proc/vmstat, in bytes: writers are throttled above it.",
	       sys.dirty_thresh_pages, OM_PAGES),
	OM_SYS("wbtop_dirty_background_threshold_bytes", OM_GAUGE, "bytes",
	       "nr_dirty_background_threshold in /proc/vmstat, in bytes: the flushers start above it.",
	       sys.bg_thresh_pages, OM_PAGES),
	OM_SYS("wbtop_dirtied_pages", OM_COUNTER, "pages",
	       "nr_dirtied in /proc/vmstat: pages dirtied since boot.", sys.nr_dirtied_pages, OM_X1),
	OM_SYS("wbtop_written_pages", OM_COUNTER, "pages",
	       "nr_written in /proc/vmstat: pages written back since boot.", sys.nr_written_pages, OM_X1),
	OM_SYS("wbtop_page_size_bytes", OM_GAUGE, "bytes",
	       "Size of the pages the _pages metrics count.", page_size, OM_X1),
};
#define OM_NSYS (sizeof om_sys_table / sizeof om_sys_table[0])

static void openmetrics_write_sys(FILE *out, const struct snapshot *s, enum om_dialect dialect)
{
	for (size_t i = 0; i < OM_NSYS; i++) {
		const struct om_sys_metric *m = &om_sys_table[i];
		uint64_t v;
		memcpy(&v, (const char *)s + m->offset, sizeof v);
		uint64_t mul = m->scale == OM_KIB ? 1024 : m->scale == OM_PAGES ? s->page_size : 1;
		openmetrics_meta(out, &m->fam, NULL, dialect);
		openmetrics_sample_name(out, &m->fam);
		fputc(' ', out);
		openmetrics_put_scaled(out, v, mul, 1);
		fputc('\n', out);
	}
}

/* CLOCK_REALTIME of the sample: samples carry no timestamps (the textfile
 * collector refuses them), so staleness is judged from this gauge. */
static void openmetrics_write_time(FILE *out, int64_t wall_ns, enum om_dialect dialect)
{
	static const struct om_family fam = {
		"wbtop_sample_timestamp_seconds", OM_GAUGE, "seconds",
		"When wbtop took this sample, in seconds since the epoch."
	};
	openmetrics_meta(out, &fam, NULL, dialect);
	uint64_t mag = wall_ns < 0 ? (uint64_t)0 - (uint64_t)wall_ns : (uint64_t)wall_ns;
	fprintf(out, "%s %s", fam.name, wall_ns < 0 ? "-" : "");
	openmetrics_put_scaled(out, mag, 1, 1000000000);
	fputc('\n', out);
}

static void openmetrics_write_sys_dip(FILE *out, bool dip, enum om_dialect dialect)
{
	static const struct om_family fam = {
		"wbtop_write_dip", OM_GAUGE, NULL,
		"1 when the system-wide write rate (vmstat bo) dipped in the last interval; "
		"0 also before wbtop has the history to judge (see wbtop(1), DIPS)."
	};
	openmetrics_meta(out, &fam, NULL, dialect);
	fprintf(out, "%s %d\n", fam.name, dip ? 1 : 0);
}

/* ---- knobs ----------------------------------------------------------------- */

struct om_knob_metric {
	enum knob_vm knob;
	struct om_family fam;	/* help: knob_vm_table's, after the note */
	const char *note;	/* the unit as exported */
	uint64_t div;		/* centiseconds / 100 = seconds */
};

static const struct om_knob_metric om_knob_table[] = {
	{ KNOB_DIRTY_RATIO, { "wbtop_vm_dirty_ratio", OM_GAUGE, NULL, NULL }, "percent", 1 },
	{ KNOB_DIRTY_BG_RATIO, { "wbtop_vm_dirty_background_ratio", OM_GAUGE, NULL, NULL }, "percent", 1 },
	{ KNOB_DIRTY_BYTES, { "wbtop_vm_dirty_bytes", OM_GAUGE, "bytes", NULL }, "bytes", 1 },
	{ KNOB_DIRTY_BG_BYTES, { "wbtop_vm_dirty_background_bytes", OM_GAUGE, "bytes", NULL }, "bytes", 1 },
	{ KNOB_DIRTY_EXPIRE_CS, { "wbtop_vm_dirty_expire_seconds", OM_GAUGE, "seconds", NULL },
	  "centisecs / 100", 100 },
	{ KNOB_DIRTY_WRITEBACK_CS, { "wbtop_vm_dirty_writeback_seconds", OM_GAUGE, "seconds", NULL },
	  "centisecs / 100", 100 },
	{ KNOB_DIRTYTIME_EXPIRE_S, { "wbtop_vm_dirtytime_expire_seconds", OM_GAUGE, "seconds", NULL },
	  "seconds", 1 },
};
_Static_assert(sizeof om_knob_table / sizeof om_knob_table[0] == KNOB_VM_COUNT,
	       "one metric per vm knob");
_Static_assert(SNAP_NKNOBS == KNOB_VM_COUNT, "snapshot knobs are the vm knob table");

static void openmetrics_write_knobs(FILE *out, const struct snapshot *s, enum om_dialect dialect)
{
	for (size_t i = 0; i < KNOB_VM_COUNT; i++) {
		const struct om_knob_metric *m = &om_knob_table[i];
		int64_t v = s->knob[m->knob];
		if (v < 0)
			continue;	/* unreadable (older kernel, no permission): no family */
		const struct knob_def *def = &knob_vm_table[m->knob];
		struct om_family fam = m->fam;
		fam.help = def->help;
		char prefix[96];
		snprintf(prefix, sizeof prefix, "%s (%s): ", def->name, m->note);
		openmetrics_meta(out, &fam, prefix, dialect);
		fprintf(out, "%s ", fam.name);
		openmetrics_put_scaled(out, (uint64_t)v, 1, m->div);
		fputc('\n', out);
	}
}

/* ---- devices ------------------------------------------------------------- */

static void openmetrics_put_label(FILE *out, bool *first, const char *name, const char *value)
{
	if (!value || !*value)
		return;		/* an empty label is the same as none: leave it out */
	fprintf(out, "%s%s=\"", *first ? "{" : ",", name);
	openmetrics_put_label_value(out, value);
	fputc('"', out);
	*first = false;
}

/* {device="sda",key="...",dm_name="...",md_name="...",mounts="..."}, and one more label
 * (name NULL: none). */
static void openmetrics_put_dev_labels_and(FILE *out, const struct dev_counters *d, const char *name,
					   const char *value)
{
	const struct dev_ident *id = d->ident;
	bool first = true;
	openmetrics_put_label(out, &first, "device", d->name);
	if (id) {
		openmetrics_put_label(out, &first, "key", id->key);
		openmetrics_put_label(out, &first, "dm_name", id->dm_name);
		openmetrics_put_label(out, &first, "md_name", id->md_name);
		openmetrics_put_label(out, &first, "mounts", id->mounts);
	}
	if (name)
		openmetrics_put_label(out, &first, name, value);
	if (!first)
		fputc('}', out);
}

static void openmetrics_put_dev_labels(FILE *out, const struct dev_counters *d)
{
	openmetrics_put_dev_labels_and(out, d, NULL, NULL);
}

static bool openmetrics_dev_kept(const struct om_options *o, const struct dev_counters *d)
{
	return !o->keep_dev || o->keep_dev(d, o->keep_arg);
}

static struct om_family openmetrics_family_of(const struct fig_om *m)
{
	return (struct om_family){ m->name, m->type == FIG_OM_COUNTER ? OM_COUNTER : OM_GAUGE, m->unit,
				   m->help };
}

/* The registry's figures of the last interval that have a family (gauges of
 * a rate, wareq-sz): a sample for each device with the figure, none before
 * the second sample. */
static void openmetrics_write_dev_rates(FILE *out, const struct frame *f, const struct om_options *o)
{
	const struct snapshot *s = f->cur;
	const struct dev_rates *r = f->prev ? frame_dev_rates(f) : NULL;
	for (size_t k = 0; k < fig_ndev; k++) {
		const struct fig_dev *fig = &fig_dev_table[k];
		if (!fig->om.name)
			continue;
		struct om_family fam = openmetrics_family_of(&fig->om);
		openmetrics_meta(out, &fam, NULL, o->dialect);
		for (size_t i = 0; r && i < s->ndev; i++) {
			if (!figure_dev_available(fig, &r[i]) || !openmetrics_dev_kept(o, &s->dev[i]))
				continue;
			openmetrics_sample_name(out, &fam);
			openmetrics_put_dev_labels(out, &s->dev[i]);
			fprintf(out, " %.9g\n", figure_dev_value(fig, &r[i]) * fig->om.scale);
		}
	}
}

/* One family at a time, every device inside it: OpenMetrics forbids
 * interleaving the samples of two families. */
static void openmetrics_write_devs(FILE *out, const struct frame *f, const struct om_options *o)
{
	const struct snapshot *s = f->cur;
	for (size_t m = 0; m < fig_ndev_counter; m++) {
		const struct fig_dev_counter *dm = &fig_dev_counter_table[m];
		struct om_family fam = openmetrics_family_of(&dm->om);
		openmetrics_meta(out, &fam, NULL, o->dialect);
		for (size_t i = 0; i < s->ndev; i++) {
			const struct dev_counters *d = &s->dev[i];
			if (d->nfields < dm->min_fields || !openmetrics_dev_kept(o, d))
				continue;
			openmetrics_sample_name(out, &fam);
			openmetrics_put_dev_labels(out, d);
			fputc(' ', out);
			openmetrics_put_scaled(out, d->f[dm->field], dm->mul, dm->div);
			fputc('\n', out);
		}
	}
	openmetrics_write_dev_rates(out, f, o);
	static const struct om_family dip = {
		"wbtop_device_write_dip", OM_GAUGE, NULL,
		"1 when the device's write throughput dipped in the last interval; "
		"0 also before wbtop has the history to judge."
	};
	openmetrics_meta(out, &dip, NULL, o->dialect);
	for (size_t i = 0; i < s->ndev; i++) {
		if (!openmetrics_dev_kept(o, &s->dev[i]))
			continue;
		fputs(dip.name, out);
		openmetrics_put_dev_labels(out, &s->dev[i]);
		fprintf(out, " %d\n", f->dev_dip && f->dev_dip[i] ? 1 : 0);
	}
	static const struct om_family why = {
		"wbtop_device_write_dip_cause", OM_GAUGE, NULL,
		"1, labelled with the cause, for each device whose write throughput dipped in the "
		"last interval (see wbtop(1), DIPS); no sample for the others."
	};
	openmetrics_meta(out, &why, NULL, o->dialect);
	for (size_t i = 0; f->dev_dip && i < s->ndev; i++) {
		if (!f->dev_dip[i] || !openmetrics_dev_kept(o, &s->dev[i]))
			continue;
		fputs(why.name, out);
		openmetrics_put_dev_labels_and(out, &s->dev[i], "cause",
					       cause_name(f->dev_cause ? f->dev_cause[i] : DIP_CAUSE_UNKNOWN));
		fputs(" 1\n", out);
	}
}

/* ---- memory cgroups -------------------------------------------------------- */

/* The registry's cgroup figures that have a family, a sample per cgroup
 * (labels cgroup="path", "ino N" when the sample has no path for it, and
 * ino="N"), when
 * the sample has cgroups: text of samples without them is as it was. */
static void openmetrics_write_cgroups(FILE *out, const struct frame *f, const struct om_options *o)
{
	const struct snapshot *s = f->cur;
	struct cgview v;
	cgview_init(&v);
	if (!s->ncg || !f->prev || cgview_build(&v, f->prev, s, f->sys.dt_s) < 0) {
		cgview_free(&v);
		return;
	}
	for (size_t k = 0; k < fig_ncg; k++) {
		const struct fig_cg *fig = &fig_cg_table[k];
		if (!fig->om.name)
			continue;
		struct om_family fam = openmetrics_family_of(&fig->om);
		openmetrics_meta(out, &fam, NULL, o->dialect);
		for (size_t i = 0; i < v.n; i++) {
			const struct cgview_row *r = &v.row[i];
			if (!(r->have & 1u << k))
				continue;
			char label[300], ino[24];
			if (r->name && r->name->path[0])
				snprintf(label, sizeof label, "%s", r->name->path);
			else
				cgview_label(r, label, sizeof label);
			snprintf(ino, sizeof ino, "%" PRIu64, r->ino);
			openmetrics_sample_name(out, &fam);
			bool first = true;
			openmetrics_put_label(out, &first, "cgroup", label);
			/* a path made again is another cgroup */
			openmetrics_put_label(out, &first, "ino", ino);
			fprintf(out, "} %.9g\n", r->v[k] * fig->om.scale);
		}
	}
	cgview_free(&v);
}

/* ---- the exposition -------------------------------------------------------- */

int openmetrics_write(FILE *out, const struct frame *f, const struct om_options *o)
{
	static const struct om_options defaults = { .dialect = OM_DIALECT_OPENMETRICS };
	if (!o)
		o = &defaults;
	errno = 0;
	openmetrics_write_time(out, f->cur->wall_ns, o->dialect);
	openmetrics_write_sys(out, f->cur, o->dialect);
	openmetrics_write_sys_dip(out, f->sys_dip, o->dialect);
	openmetrics_write_knobs(out, f->cur, o->dialect);
	openmetrics_write_devs(out, f, o);
	openmetrics_write_cgroups(out, f, o);
	if (o->more)
		o->more(out, o->dialect, o->more_arg);
	if (o->dialect == OM_DIALECT_OPENMETRICS)
		fputs("# EOF\n", out);
	if (fflush(out) == EOF || ferror(out))
		return errno ? -errno : -EIO;
	return 0;
}

/* The one line at *p (to its newline, which it includes), advancing *p. */
static size_t openmetrics_line(const char **p, const char *end)
{
	const char *nl = memchr(*p, '\n', (size_t)(end - *p));
	size_t n = nl ? (size_t)(nl - *p) + 1 : (size_t)(end - *p);
	*p += n;
	return n;
}

int openmetrics_to_prometheus(const char *om, size_t len, FILE *out)
{
	const char *p = om, *end = om + len;
	errno = 0;
	while (p < end) {
		const char *line = p;
		size_t n = openmetrics_line(&p, end);
		if ((n >= 7 && memcmp(line, "# UNIT ", 7) == 0) || (n >= 5 && memcmp(line, "# EOF", 5) == 0))
			continue;
		if (n < 7 || memcmp(line, "# HELP ", 7) != 0 || p >= end) {
			fwrite(line, 1, n, out);
			continue;
		}
		/* HELP, then its family's TYPE: a counter's both get _total */
		const char *type = p;
		size_t tn = openmetrics_line(&p, end);
		const char *name = line + 7, *sp = memchr(name, ' ', n - 7);
		size_t nlen = sp ? (size_t)(sp - name) : 0;
		bool counter = nlen && tn == 7 + nlen + 9 && memcmp(type, "# TYPE ", 7) == 0 &&
			       memcmp(type + 7, name, nlen) == 0 && memcmp(type + 7 + nlen, " counter\n", 9) == 0;
		if (!counter) {
			fwrite(line, 1, n, out);
			fwrite(type, 1, tn, out);
			continue;
		}
		fprintf(out, "# HELP %.*s_total", (int)nlen, name);
		fwrite(sp, 1, n - 7 - nlen, out);
		fprintf(out, "# TYPE %.*s_total counter\n", (int)nlen, name);
	}
	if (fflush(out) == EOF || ferror(out))
		return errno ? -errno : -EIO;
	return 0;
}

int openmetrics_write_sample(FILE *out, const struct frame *f)
{
	return openmetrics_write(out, f, NULL);
}

/* ---- the -o file ----------------------------------------------------------- */

struct om_file_arg {
	const struct frame *f;
	const struct om_options *o;
};

static int openmetrics_file_fill(FILE *out, const void *arg)
{
	const struct om_file_arg *a = arg;
	return openmetrics_write(out, a->f, a->o);
}

int openmetrics_write_file(const char *path, const struct frame *f, const struct om_options *o,
			   char *err, size_t errlen)
{
	struct om_file_arg a = { f, o };
	/* node_exporter usually runs as another user: 0666 less the umask,
	 * whatever mode the old file had */
	return atomic_file_write(path, ATOMIC_FILE_FOLLOW_LINK | ATOMIC_FILE_WRITE_SPECIAL, 0666,
				 openmetrics_file_fill, &a, err, errlen);
}

int openmetrics_write_file_atomic(const char *path, const struct frame *f, char *err, size_t errlen)
{
	return openmetrics_write_file(path, f, NULL, err, errlen);
}

/* ---- the sink -------------------------------------------------------------- */

struct om_sink {
	FILE *out;		/* NULL: replace path at every frame */
	const char *out_name;
	struct om_options o;
};

/* Every frame, the first too: counters need no baseline. */
static int openmetrics_sink_frame(struct sink *s, const struct frame *f)
{
	struct om_sink *os = s->impl;
	if (!os->out) {
		int rc = openmetrics_write_file(os->out_name, f, &os->o, s->errmsg, sizeof s->errmsg);
		return rc == -EPIPE ? -EIO : rc;	/* a file, not a reader that left */
	}
	int rc = openmetrics_write(os->out, f, &os->o);
	if (rc < 0)
		snprintf(s->errmsg, sizeof s->errmsg, "%s: %s", os->out_name, strerror(-rc));
	return rc;
}

static int openmetrics_sink_close(struct sink *s)
{
	free(s->impl);
	return 0;
}

static const struct sink_ops om_sink_ops = {
	.kind = "openmetrics", .frame = openmetrics_sink_frame, .close = openmetrics_sink_close,
};

struct sink *openmetrics_sink_new(FILE *out, const char *name, const struct om_options *o)
{
	static const struct om_options defaults = { .dialect = OM_DIALECT_OPENMETRICS };
	struct om_sink *os = calloc(1, sizeof *os);
	if (!os)
		return NULL;
	*os = (struct om_sink){ out, name, o ? *o : defaults };
	return sink_new(&om_sink_ops, os);
}
