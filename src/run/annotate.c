/*
 * annotate.c - `wbtop --annotate FILE`: read vmstat and iostat text logs as people attach them
 * (sections of either in any order, mail-quoted or not, text around them), run the dip detector
 * over each section as its kind and print it all back with the dips marked.  Contract in
 * include/run/annotate.h; the rule for sections in doc/annotate.md.
 *
 * A line classifier with just enough state to know its section, the write rate's column and
 * where an iostat report ends.  Text that fits no section passes through, counted in one note.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "run/annotate.h"
#include "util/grow.h"

#define ANNOTATE_MARK " <<<<<"

/* vmstat without a header: r b swpd free buff cache si so bi bo ..., 16 to 18 columns. */
enum { ANNOTATE_VM_BO = 9, ANNOTATE_VM_MIN_COLS = 16, ANNOTATE_VM_MAX_COLS = 18 };
/* iostat device lines without a header (iostat | grep), known by their number of values:
 * which value is the write rate and in what unit.  For -x the unit is checked, since -m
 * prints MB/s in the same place as kB/s: ios/s times the mean request size (always kB or
 * sectors) is the rate in kB/s, whichever unit the rate columns use.  -1: no such column. */
struct annotate_io_layout {
	size_t nvals;
	size_t wr;		/* the write rate */
	double kib;		/* KiB per unit of the rate, unless the check says MB */
	int rd, ios_a, ios_b;	/* the rate columns the check adds up (wr, rd) and their ios/s */
	int req;		/* mean request size of those ios */
	double req_kib;		/* KiB per unit of req: 1, or 0.5 for sectors */
};
static const struct annotate_io_layout annotate_io_layouts[] = {
	/* tps Blk_read/s Blk_wrtn/s Blk_read Blk_wrtn (before sysstat 12, 512-byte blocks) */
	{5, 2, 0.5, -1, -1, -1, -1, 0},
	/* tps kB_read/s kB_wrtn/s kB_dscd/s kB_read kB_wrtn kB_dscd (sysstat 12 -d) */
	{7, 2, 1.0, -1, -1, -1, -1, 0},
	/* -x before sysstat 12: rrqm/s wrqm/s r/s w/s rkB/s wkB/s avgrq-sz(sectors) avgqu-sz
	 * await r_await w_await svctm %util */
	{13, 5, 1.0, 4, 2, 3, 6, 0.5},
	/* -x of sysstat 12 without discard and flush: r/s rkB/s rrqm/s %rrqm r_await rareq-sz
	 * w/s wkB/s wrqm/s %wrqm w_await wareq-sz aqu-sz %util */
	{14, 7, 1.0, -1, 6, -1, 11, 1.0},
	/* -x of sysstat 12.0: r/s w/s rkB/s wkB/s rrqm/s wrqm/s %rrqm %wrqm r_await w_await
	 * aqu-sz rareq-sz wareq-sz svctm %util */
	{15, 3, 1.0, -1, 1, -1, 12, 1.0},
	/* the 14 of sysstat 12 and d/s dkB/s drqm/s %drqm d_await dareq-sz before aqu-sz */
	{20, 7, 1.0, -1, 6, -1, 11, 1.0},
	/* ... and f/s f_await (sysstat 12.3 and later, kernels with flush counters) */
	{22, 7, 1.0, -1, 6, -1, 11, 1.0},
};
#define ANNOTATE_NIO_LAYOUTS (sizeof annotate_io_layouts / sizeof annotate_io_layouts[0])

/* The write-rate columns of iostat headers, and KiB per unit. */
static const struct {
	const char *name;
	double kib;
} annotate_write_cols[] = {
	{"Blk_wrtn/s", 0.5}, {"wsec/s", 0.5}, {"kB_wrtn/s", 1.0},
	{"wkB/s", 1.0}, {"MB_wrtn/s", 1024.0}, {"wMB/s", 1024.0},
};

/* The section a line is in: none yet (text), vmstat's or iostat's. */
enum annotate_kind { ANNOTATE_UNKNOWN, ANNOTATE_VMSTAT, ANNOTATE_IOSTAT };
/* Line terminators, indexed by struct annotate_rec.eol. */
static const char *const annotate_eol_text[] = {"", "\n", "\r\n"};

struct annotate_tok {
	const char *s;
	size_t len;
};

struct annotate_rec {	/* a line held until its report is judged */
	size_t off, len, eol;
	bool device;
};

struct annotate {
	const char *name;
	FILE *out, *err;
	unsigned long lineno;
	enum annotate_kind kind;
	bool fresh;			/* the next sample is the since-boot one of a new run */
	struct dip_series *series;	/* vmstat bo */
	size_t bo_col, vm_cols;		/* vm_cols: numeric columns per header, 0 = no header */
	bool vm_stamp;			/* the header ends in a time zone (vmstat -t) */
	struct dip_group *group;	/* iostat: every device's write rate */
	size_t wr_col, io_cols;		/* io_cols: values per header, 0 = no header */
	double wr_kib;			/* KiB per unit of the write column */
	bool cpu_next;			/* the next line holds avg-cpu values */
	char *first_dev;		/* without headers a report starts at this device */
	bool open;			/* a report is being collected: */
	char *text;			/* its lines, */
	size_t text_len, text_cap;
	struct annotate_rec *rec;
	size_t nrec, cap_rec;
	char *keys;			/* its device names, NUL-separated, */
	size_t keys_len, keys_cap;
	size_t *key_off;		/* and per device: where its name starts, */
	const char **key;		/* the name, */
	double *kibps;			/* its write rate, */
	bool *mark;			/* the detector's verdict */
	size_t ndev, cap_dev;
	struct annotate_tok *tok;	/* the current line's fields */
	size_t ntok, cap_tok;
	unsigned long npassed;		/* lines of other text, passed through */
	unsigned long first_passed;	/* the first of them */
};

__attribute__((format(printf, 2, 3)))
static int annotate_fail(struct annotate *a, const char *fmt, ...)
{
	va_list ap;
	fprintf(a->err, "wbtop: %s:%lu: ", a->name, a->lineno);
	va_start(ap, fmt);
	vfprintf(a->err, fmt, ap);
	va_end(ap);
	fputc('\n', a->err);
	return -1;
}

/* Grow the array *arrp (a pointer to any pointer) to hold need elements; 0 or -ENOMEM. */
static int annotate_grow(void *arrp, size_t *cap, size_t need, size_t elem)
{
	void *arr;
	memcpy(&arr, arrp, sizeof arr);
	int rc = grow_array(&arr, cap, need, elem, 16);
	memcpy(arrp, &arr, sizeof arr);
	return rc;
}

/* The per-device arrays of the open report share cap_dev. */
static int annotate_grow_devs(struct annotate *a, size_t need)
{
	size_t c0 = a->cap_dev, c1 = c0, c2 = c0, c3 = c0;
	if (annotate_grow(&a->key_off, &c0, need, sizeof *a->key_off) < 0 ||
	    annotate_grow(&a->key, &c1, need, sizeof *a->key) < 0 ||
	    annotate_grow(&a->kibps, &c2, need, sizeof *a->kibps) < 0 ||
	    annotate_grow(&a->mark, &c3, need, sizeof *a->mark) < 0)
		return -ENOMEM;
	a->cap_dev = c0;
	return 0;
}

static bool annotate_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static bool annotate_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool annotate_tok_is(const struct annotate_tok *t, const char *word)
{
	return t->len == strlen(word) && memcmp(t->s, word, t->len) == 0;
}

/* Parse a field like 123, 1.23 or 1,23 (any locale); false if it is not one. */
static bool annotate_number(const struct annotate_tok *t, double *out)
{
	double v = 0.0, scale = 1.0;
	bool digits = false, point = false;
	for (size_t i = 0; i < t->len; i++) {
		char c = t->s[i];
		if ((c == '.' || c == ',') && !point) {
			point = true;
		} else if (!annotate_digit(c)) {
			return false;
		} else if (point) {
			scale /= 10.0;
			v += scale * (c - '0');
			digits = true;
		} else {
			v = v * 10.0 + (c - '0');
			digits = true;
		}
	}
	if (!digits || !isfinite(v))
		return false;
	*out = v;
	return true;
}

/* True if fields [from, to) are all numbers; else *bad = the first that is not. */
static bool annotate_numbers(const struct annotate *a, size_t from, size_t to, size_t *bad)
{
	double v;
	for (size_t i = from; i < to; i++)
		if (!annotate_number(&a->tok[i], &v)) {
			*bad = i;
			return false;
		}
	return true;
}

/* Split s into blank-separated fields; 0 or -ENOMEM. */
static int annotate_tokenize(struct annotate *a, const char *s, size_t len)
{
	a->ntok = 0;
	for (size_t i = 0; i < len;) {
		if (annotate_blank(s[i])) {
			i++;
			continue;
		}
		size_t start = i;
		while (i < len && !annotate_blank(s[i]))
			i++;
		if (annotate_grow(&a->tok, &a->cap_tok, a->ntok + 1, sizeof *a->tok) < 0)
			return -ENOMEM;
		a->tok[a->ntok++] = (struct annotate_tok){s + start, i - start};
	}
	return 0;
}

/* Length of s without a trailing mark (blanks, 3 or more '<', blanks), or len if none. */
static size_t annotate_strip_mark(const char *s, size_t len)
{
	size_t end = len, lt;
	while (end && annotate_blank(s[end - 1]))
		end--;
	for (lt = end; lt && s[lt - 1] == '<'; lt--)
		;
	if (end - lt < 3)
		return len;
	while (lt && annotate_blank(s[lt - 1]))
		lt--;
	return lt;
}

static void annotate_write(struct annotate *a, const char *s, size_t len, size_t eol, bool mark)
{
	fwrite(s, 1, len, a->out);
	if (mark)
		fputs(ANNOTATE_MARK, a->out);
	fputs(annotate_eol_text[eol], a->out);
}

/* Print a line now, or hold it while a report is open; 0 or -1 after an error line. */
static int annotate_emit(struct annotate *a, const char *s, size_t len, size_t eol,
			 bool device, bool mark)
{
	if (!a->open) {
		annotate_write(a, s, len, eol, mark);
		return 0;
	}
	if (annotate_grow(&a->rec, &a->cap_rec, a->nrec + 1, sizeof *a->rec) < 0 ||
	    annotate_grow(&a->text, &a->text_cap, a->text_len + len + 1, 1) < 0)
		return annotate_fail(a, "out of memory");
	memcpy(a->text + a->text_len, s, len);
	a->rec[a->nrec++] = (struct annotate_rec){a->text_len, len, eol, device};
	a->text_len += len;
	return 0;
}

/* End the open report: judge its devices (unless it is the since-boot one), print its lines. */
static void annotate_close(struct annotate *a)
{
	bool dip = false;
	if (!a->open)
		return;
	if (a->ndev && a->fresh) {
		a->fresh = false;
	} else if (a->ndev) {
		for (size_t i = 0; i < a->ndev; i++)
			a->key[i] = a->keys + a->key_off[i];
		dip = detect_group_feed(a->group, a->key, a->kibps, a->ndev, a->mark);
	}
	a->open = false;
	for (size_t i = 0; i < a->nrec; i++)
		annotate_write(a, a->text + a->rec[i].off, a->rec[i].len, a->rec[i].eol,
			       dip && a->rec[i].device);
	a->nrec = a->text_len = a->keys_len = a->ndev = 0;
}

/* Enter a section of kind (restart: a new run of the same tool, from its command line): the
 * open report ends, the first sample is the since-boot one, and no header is known yet. */
static void annotate_section(struct annotate *a, enum annotate_kind kind, bool restart)
{
	if (a->kind == kind && !restart)
		return;
	annotate_close(a);
	a->kind = kind;
	a->fresh = true;
	a->vm_cols = 0;
	a->vm_stamp = false;
	a->io_cols = 0;
	a->cpu_next = false;
	free(a->first_dev);
	a->first_dev = NULL;
}

/* A line that is no tool's output: printed as it is, counted for the note at the end. */
static int annotate_pass(struct annotate *a, const char *s, size_t len, size_t eol)
{
	if (a->npassed++ == 0)
		a->first_passed = a->lineno;
	return annotate_emit(a, s, len, eol, false, false);
}

/* Does the current line fit a vmstat sample: the header's columns in a section with one,
 * else the headerless 16 to 18, all numbers? */
static bool annotate_vmstat_fits(const struct annotate *a)
{
	size_t bad, ncols = a->kind == ANNOTATE_VMSTAT ? a->vm_cols : 0;
	if (ncols == 0)
		return a->ntok >= ANNOTATE_VM_MIN_COLS && a->ntok <= ANNOTATE_VM_MAX_COLS &&
		       annotate_numbers(a, 0, a->ntok, &bad);
	return (a->ntok == ncols || (a->ntok > ncols && a->vm_stamp)) &&
	       annotate_numbers(a, 0, ncols, &bad);
}

/* Does the current line fit an iostat device line: a name and numbers, as many as the header
 * in a section with one, else as many as a known layout? */
static bool annotate_iostat_fits(const struct annotate *a)
{
	size_t bad, nvals = a->ntok - 1;
	if (a->ntok < 2 || !annotate_numbers(a, 1, a->ntok, &bad))
		return false;
	if (a->kind == ANNOTATE_IOSTAT && a->io_cols)
		return nvals == a->io_cols;
	for (size_t i = 0; i < ANNOTATE_NIO_LAYOUTS; i++)
		if (annotate_io_layouts[i].nvals == nvals)
			return true;
	return false;
}

/* " r  b  swpd ... bo ...": where bo is and how many numeric columns follow. */
static int annotate_vmstat_header(struct annotate *a)
{
	size_t ncols = 0;
	a->bo_col = SIZE_MAX;
	/* column names are lower case; vmstat -t ends with the time zone's name */
	while (ncols < a->ntok && !(a->tok[ncols].s[0] >= 'A' && a->tok[ncols].s[0] <= 'Z')) {
		if (annotate_tok_is(&a->tok[ncols], "bo"))
			a->bo_col = ncols;
		ncols++;
	}
	if (a->bo_col == SIZE_MAX)
		return annotate_fail(a, "vmstat header without a bo column");
	a->vm_cols = ncols;
	a->vm_stamp = ncols < a->ntok;
	return 0;
}

/* A vmstat sample: judge bo (blocks of 1 KiB per second) unless it is the since-boot line. */
static int annotate_vmstat_sample(struct annotate *a, const char *s, size_t len, size_t eol)
{
	size_t bad, ncols = a->vm_cols;
	double bo_kbps;
	if (ncols == 0) {
		if (a->ntok < ANNOTATE_VM_MIN_COLS || a->ntok > ANNOTATE_VM_MAX_COLS)
			return annotate_fail(a, "vmstat line without a header has %zu columns, "
					     "not %d to %d", a->ntok, ANNOTATE_VM_MIN_COLS,
					     ANNOTATE_VM_MAX_COLS);
		ncols = a->ntok;
		a->bo_col = ANNOTATE_VM_BO;
	}
	if (a->ntok < ncols || (a->ntok > ncols && !a->vm_stamp))
		return annotate_fail(a, "vmstat line has %zu columns, the header has %zu",
				     a->ntok, ncols);
	if (!annotate_numbers(a, 0, ncols, &bad)) /* a vmstat -t timestamp may follow */
		return annotate_fail(a, "vmstat column %zu is not a number", bad + 1);
	annotate_number(&a->tok[a->bo_col], &bo_kbps);
	bool dip = detect_series_feed(a->series, bo_kbps, !a->fresh);
	a->fresh = false;
	return annotate_emit(a, s, len, eol, false, dip);
}

/* "Device: tps Blk_read/s Blk_wrtn/s ...": the write rate's column (from 0, after the device
 * name) and KiB per unit; false for a line without one (not a header wbtop can read). */
static bool annotate_iostat_header(const struct annotate *a, size_t *col, double *kib)
{
	size_t ncols = sizeof annotate_write_cols / sizeof annotate_write_cols[0];
	for (size_t i = 1; i < a->ntok; i++)
		for (size_t c = 0; c < ncols; c++)
			if (annotate_tok_is(&a->tok[i], annotate_write_cols[c].name)) {
				*col = i - 1;
				*kib = annotate_write_cols[c].kib;
				return true;
			}
	return false;
}

/* Is the device of the current line the given NUL-terminated name? */
static bool annotate_dev_is(const struct annotate *a, const char *name)
{
	return name && strlen(name) == a->tok[0].len &&
	       memcmp(name, a->tok[0].s, a->tok[0].len) == 0;
}

/* Open a new report where this device line begins one: a device seen twice in the open
 * report, or (without headers, as with `iostat | grep`) the log's first device again. */
static int annotate_iostat_boundary(struct annotate *a)
{
	bool repeat = a->io_cols == 0 && annotate_dev_is(a, a->first_dev);
	for (size_t i = 0; i < a->ndev && !repeat; i++)
		repeat = annotate_dev_is(a, a->keys + a->key_off[i]);
	if (repeat)
		annotate_close(a);
	if (!a->first_dev && !(a->first_dev = strndup(a->tok[0].s, a->tok[0].len)))
		return annotate_fail(a, "out of memory");
	a->open = true;
	return 0;
}

/* Add the current line's device and write rate (KiB/s) to the open report. */
static int annotate_iostat_add(struct annotate *a, double kbps)
{
	const struct annotate_tok *name = &a->tok[0];
	if (annotate_grow_devs(a, a->ndev + 1) < 0 ||
	    annotate_grow(&a->keys, &a->keys_cap, a->keys_len + name->len + 1, 1) < 0)
		return annotate_fail(a, "out of memory");
	memcpy(a->keys + a->keys_len, name->s, name->len);
	a->keys[a->keys_len + name->len] = '\0';
	a->key_off[a->ndev] = a->keys_len;
	a->kibps[a->ndev++] = kbps;
	a->keys_len += name->len + 1;
	return 0;
}

/* Value i (from 0) of the current device line; 0 for a column the layout lacks. */
static double annotate_io_val(const struct annotate *a, int i)
{
	double v = 0;
	if (i >= 0)
		annotate_number(&a->tok[i + 1], &v);
	return v;
}

/* KiB per unit of the layout's rates: its own, or 1024 when ios/s times the request
 * size says the rates are in MB/s (iostat -m); both agree to the rounding of the log. */
static double annotate_io_unit(const struct annotate *a, const struct annotate_io_layout *lay)
{
	if (lay->req < 0)
		return lay->kib;
	double ios = annotate_io_val(a, lay->ios_a) + annotate_io_val(a, lay->ios_b);
	double rate = annotate_io_val(a, (int)lay->wr) + annotate_io_val(a, lay->rd);
	double kb = ios * annotate_io_val(a, lay->req) * lay->req_kib;
	return rate > 0 && kb > 32 * rate ? 1024.0 : lay->kib;
}

/* A write rate as the detector judges it: at 0.01 MiB/s (10.24 KiB/s), the
 * resolution of iostat -m, so that one log printed in kB/s, in MB/s or in
 * sectors gets the same marks (a value near the threshold would otherwise fall
 * on either side of it by the rounding of its unit).  In hundredths of KiB,
 * exact for the logs' two decimals; halves go up.  See doc/dips.md. */
double annotate_iostat_resolution(double kibps)
{
	if (!(kibps > 0) || kibps > 1e15)
		return kibps > 0 ? kibps : 0.0;
	long long h = llround(kibps * 100.0);
	return (double)((h + 512) / 1024) * 10.24;
}

/* "dm-0 31150.80 0.00 498411.24 0 2482088": one device's rates, held in its report. */
static int annotate_iostat_device(struct annotate *a, const char *s, size_t len, size_t eol)
{
	size_t bad, nvals = a->ntok - 1, col = a->wr_col;
	double kib = a->wr_kib, value;
	if (a->io_cols && nvals != a->io_cols)
		return annotate_fail(a, "device line has %zu values, the header has %zu", nvals,
				     a->io_cols);
	const struct annotate_io_layout *lay = NULL;
	if (!a->io_cols) {
		for (size_t i = 0; i < ANNOTATE_NIO_LAYOUTS && !lay; i++)
			if (annotate_io_layouts[i].nvals == nvals)
				lay = &annotate_io_layouts[i];
		if (!lay)
			return annotate_fail(a, "device line without an iostat header has %zu "
					     "values; the known layouts have 5, 7 (iostat), 13, 14, 15, "
					     "20 or 22 (iostat -x)", nvals);
		col = lay->wr;
	}
	if (!annotate_numbers(a, 1, a->ntok, &bad))
		return annotate_fail(a, "device line value %zu is not a number", bad);
	if (lay)
		kib = annotate_io_unit(a, lay);
	annotate_number(&a->tok[col + 1], &value);
	if (annotate_iostat_boundary(a) < 0 ||
	    annotate_iostat_add(a, annotate_iostat_resolution(value * kib)) < 0)
		return -1;
	return annotate_emit(a, s, len, eol, true, false);
}

/* "Linux <release> (<host>) ..." starts a run, "avg-cpu:" announces a line of CPU figures,
 * "Device..." with a write-rate column starts a report; each enters an iostat section. */
static int annotate_iostat_marker(struct annotate *a, const char *s, size_t len, size_t eol)
{
	char what = a->tok[0].s[0];
	size_t col = 0;
	double kib = 1.0;
	if (what == 'D' && !annotate_iostat_header(a, &col, &kib))
		return annotate_pass(a, s, len, eol);
	annotate_section(a, ANNOTATE_IOSTAT, false);
	annotate_close(a);
	if (what == 'L')
		a->fresh = true;
	a->cpu_next = what == 'a';
	if (what == 'D') {
		a->wr_col = col;
		a->wr_kib = kib;
		a->io_cols = a->ntok - 1;
		a->open = true;
	}
	return annotate_emit(a, s, len, eol, false, false);
}

/* A line whose first field is a number: a vmstat sample, avg-cpu figures in iostat, or text. */
static int annotate_numeric_line(struct annotate *a, const char *s, size_t len, size_t eol)
{
	if (a->kind == ANNOTATE_IOSTAT && a->cpu_next) {
		a->cpu_next = false;
		return annotate_emit(a, s, len, eol, false, false);
	}
	if (!annotate_vmstat_fits(a))
		return annotate_pass(a, s, len, eol);
	annotate_section(a, ANNOTATE_VMSTAT, false);
	return annotate_vmstat_sample(a, s, len, eol);
}

/* A line whose first field is a word: a vmstat header, an iostat banner, header or device,
 * or text. */
static int annotate_word_line(struct annotate *a, const char *s, size_t len, size_t eol)
{
	const struct annotate_tok *t0 = &a->tok[0];
	bool columns = annotate_tok_is(t0, "r") && a->ntok > 1 && annotate_tok_is(&a->tok[1], "b");
	/* "procs ---memory--- ...", or "--procs-- ..." with vmstat -w */
	if (columns || (annotate_tok_is(t0, "procs") && a->ntok > 1 && a->tok[1].s[0] == '-') ||
	    (t0->len > 7 && memcmp(t0->s, "--procs", 7) == 0)) {
		annotate_section(a, ANNOTATE_VMSTAT, false);
		if (columns && annotate_vmstat_header(a) < 0)
			return -1;
		return annotate_emit(a, s, len, eol, false, false);
	}
	/* the banner as iostat prints it: "Linux 6.1.0 (host) ..." */
	bool banner = annotate_tok_is(t0, "Linux") && a->ntok > 2 && a->tok[2].s[0] == '(';
	if (banner || annotate_tok_is(t0, "avg-cpu:") || annotate_tok_is(t0, "Device:") ||
	    annotate_tok_is(t0, "Device"))
		return annotate_iostat_marker(a, s, len, eol);
	if (!annotate_iostat_fits(a))
		return annotate_pass(a, s, len, eol);
	annotate_section(a, ANNOTATE_IOSTAT, false);
	return annotate_iostat_device(a, s, len, eol);
}

/* The interval of the vmstat or iostat command line just tokenized ("$ iostat -x 5 | grep
 * dm-"): the first argument after the command's name that is a plain number, up to a pipe or
 * a ';'; 0 if none (vmstat with no delay, or not a command this knows). The detector then
 * knows how long a pacing tick is (see doc/dips.md). */
static double annotate_command_interval(const struct annotate *a)
{
	bool after_name = false;
	for (size_t i = 0; i < a->ntok; i++) {
		const struct annotate_tok *t = &a->tok[i];
		if (t->s[0] == '|' || t->s[0] == ';' || t->s[0] == '&')
			return 0.0;
		if (!after_name) {
			after_name = (t->len >= 6 && (memcmp(t->s + t->len - 6, "vmstat", 6) == 0 ||
						      memcmp(t->s + t->len - 6, "iostat", 6) == 0));
			continue;
		}
		char buf[32];
		if (t->len >= sizeof buf || !annotate_digit(t->s[0]))
			continue;
		memcpy(buf, t->s, t->len);
		buf[t->len] = '\0';
		char *end;
		double v = strtod(buf, &end);
		if (*end == '\0' && v > 0.0 && v <= 86400.0)
			return v;
	}
	return 0.0;
}

/* The tool a command line runs ("$ iostat 5 | grep dm-"): the first word that names vmstat
 * or iostat; ANNOTATE_UNKNOWN for other commands. */
static enum annotate_kind annotate_command_kind(const struct annotate *a)
{
	for (size_t i = 0; i < a->ntok; i++) {
		const struct annotate_tok *t = &a->tok[i];
		if (t->len >= 6 && memcmp(t->s + t->len - 6, "vmstat", 6) == 0)
			return ANNOTATE_VMSTAT;
		if (t->len >= 6 && memcmp(t->s + t->len - 6, "iostat", 6) == 0)
			return ANNOTATE_IOSTAT;
	}
	return ANNOTATE_UNKNOWN;
}

/* Where a line's text starts after a mail quote ("> ", ">> ", "> > "); 0 if it has none. */
static size_t annotate_unquote(const char *line, size_t len)
{
	size_t q = 0;
	if (len == 0 || line[0] != '>')
		return 0;
	while (q < len && (line[q] == '>' || annotate_blank(line[q])))
		q++;
	return q;
}

/* Classify one line (without its terminator) and act on it; 0 or -1 after an error line.
 * A mail-quoted line is judged as the line it quotes and printed whole. */
static int annotate_line(struct annotate *a, const char *line, size_t len, size_t eol)
{
	if (memchr(line, '\0', len))
		return annotate_fail(a, "binary data (a NUL byte)");
	len = annotate_strip_mark(line, len);
	size_t q = annotate_unquote(line, len);
	if (annotate_tokenize(a, line + q, len - q) < 0)
		return annotate_fail(a, "out of memory");
	if (a->ntok == 0) { /* a blank line ends an iostat report */
		if (a->ndev)
			annotate_close(a);
		return annotate_emit(a, line, len, eol, false, false);
	}
	const struct annotate_tok *t0 = &a->tok[0];
	if (t0->s[0] == '$' || t0->s[0] == '#') {
		/* a shell prompt or a comment; running vmstat or iostat starts a section, a new run */
		enum annotate_kind kind = annotate_command_kind(a);
		if (kind != ANNOTATE_UNKNOWN) {
			annotate_section(a, kind, true);
			double interval = annotate_command_interval(a);
			detect_series_set_interval(a->series, interval);
			detect_group_set_interval(a->group, interval);
		}
		return annotate_emit(a, line, len, eol, false, false);
	}
	/* a timestamp line (iostat -t): digits with '/' or ':' */
	if (annotate_digit(t0->s[0]) && (memchr(t0->s, '/', t0->len) || memchr(t0->s, ':', t0->len)))
		return annotate_emit(a, line, len, eol, false, false);
	if (annotate_digit(t0->s[0]))
		return annotate_numeric_line(a, line, len, eol);
	return annotate_word_line(a, line, len, eol);
}

static void annotate_free(struct annotate *a)
{
	detect_series_free(a->series);
	detect_group_free(a->group);
	free(a->first_dev);
	free(a->text);
	free(a->rec);
	free(a->keys);
	free(a->key_off);
	free(a->key);
	free(a->kibps);
	free(a->mark);
	free(a->tok);
}

int annotate_stream(FILE *in, const char *name, FILE *out, FILE *err,
		    const struct dip_params *p)
{
	struct annotate a = {.name = name, .out = out, .err = err, .fresh = true};
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int rc = 0;
	a.series = detect_series_new(p);
	a.group = detect_group_new(p);
	if (!a.series || !a.group)
		rc = annotate_fail(&a, "out of memory");
	int werr = 0;	/* errno of the first failed write: no point reading on */
	while (rc == 0 && !werr && (n = getline(&line, &cap, in)) >= 0) {
		size_t len = (size_t)n, eol = 0;
		a.lineno++;
		if (len && line[len - 1] == '\n')
			eol = len > 1 && line[len - 2] == '\r' ? 2 : 1;
		rc = annotate_line(&a, line, len - eol, eol);
		if (ferror(out))
			werr = errno ? errno : EIO;
	}
	if (rc == 0 && !werr && ferror(in)) {
		a.lineno++;
		rc = annotate_fail(&a, "read error: %s", strerror(errno));
	}
	if (rc == 0 && !werr)
		annotate_close(&a);
	if (rc == 0 && !werr && a.npassed)
		fprintf(err, "wbtop: %s: %lu line%s neither vmstat nor iostat output, passed through "
			"unmarked (the first: line %lu)\n", name, a.npassed, a.npassed == 1 ? " is" : "s are",
			a.first_passed);
	if (rc == 0 && !werr && (fflush(out) != 0 || ferror(out)))
		werr = errno ? errno : EIO;
	/* the reader went away (| head): quietly, as batch output does */
	if (rc == 0 && werr && werr != EPIPE) {
		fprintf(err, "wbtop: %s: cannot write the annotated log: %s\n", name, strerror(werr));
		rc = -1;
	}
	free(line);
	annotate_free(&a);
	return rc == 0 ? 0 : 1;
}

int annotate_file(const char *path, FILE *out, const struct dip_params *p)
{
	bool is_stdin = strcmp(path, "-") == 0;
	FILE *in = is_stdin ? stdin : fopen(path, "r");
	if (!in) {
		fprintf(stderr, "wbtop: %s: cannot open: %s\n", path, strerror(errno));
		return 1;
	}
	int rc = annotate_stream(in, is_stdin ? "<stdin>" : path, out, stderr, p);
	if (!is_stdin)
		fclose(in);
	return rc;
}
