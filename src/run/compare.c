/*
 * compare.c - two runs compared device by device, as text or JSON, and what
 * the case-by-case table (compare_sets.c) shares with it: pools of
 * intervals, cells, JSON values.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <regex.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "core/cmpstat.h"
#include "run/compare.h"
#include "run/compare_priv.h"
#include "util/grow.h"
#include "sink/jsonl.h"
#include "core/knob.h"

/* ---- Pooling ---------------------------------------------------------- */

/* Runs are pooled end to end, not averaged run by run: the minimum is then
 * the slowest interval of any repeat, and the cv covers the spread between
 * repeats as well as within them. */
static int compare_pool_add(struct compare_pool *p, const struct series_dev *d)
{
	if (!p->id)
		p->id = d;
	if (!d->n)
		return 0;
	const struct grow_part parts[] = {
		{ (void **)&p->kbps, sizeof *p->kbps }, { (void **)&p->dt_s, sizeof *p->dt_s },
	};
	if (d->n > SIZE_MAX - p->n ||
	    grow_arrays(parts, sizeof parts / sizeof parts[0], &p->cap, p->n + d->n, d->n) < 0)
		return -ENOMEM;
	memcpy(p->kbps + p->n, d->kbps, d->n * sizeof *p->kbps);
	memcpy(p->dt_s + p->n, d->dt_s, d->n * sizeof *p->dt_s);
	p->n += d->n;
	p->ndips += d->ndips;
	return 0;
}

static void compare_pool_done(struct compare_pool *p)
{
	cmpstat_compute(p->kbps, p->dt_s, p->n, p->ndips, &p->st);
}

void compare_pool_free(struct compare_pool *p)
{
	free(p->kbps);
	free(p->dt_s);
}

/* The pool of key over runs v[0..n) (empty for key NULL: a device on the
 * other side only), or of the total. */
static int compare_pool_key(struct compare_pool *p, struct series *const *v, size_t n, const char *key,
			    bool total)
{
	int r = 0;
	for (size_t i = 0; r == 0 && (key || total) && i < n; i++) {
		const struct series_dev *d = total ? &v[i]->total : series_find(v[i], key);
		if (d)
			r = compare_pool_add(p, d);
	}
	compare_pool_done(p);
	return r;
}

/* The total of the devices sel selects over runs v[0..n); of the system
 * (vmstat bo) when sel is NULL. */
int compare_pool_total(struct compare_pool *p, struct series *const *v, size_t n, const regex_t *sel)
{
	if (!sel)
		return compare_pool_key(p, v, n, NULL, true);
	int r = 0;
	for (size_t i = 0; r == 0 && i < n; i++) {
		struct series_dev sum;
		r = series_total_of(v[i], sel, &sum);
		if (r == 0)
			r = compare_pool_add(p, &sum);
		p->id = NULL;	/* sum's names go with it */
		series_dev_clear(&sum);
	}
	compare_pool_done(p);
	return r;
}

/* ---- Text ------------------------------------------------------------- */

int compare_width(FILE *out, int given)
{
	struct winsize ws;
	if (given || !isatty(fileno(out)) || ioctl(fileno(out), TIOCGWINSZ, &ws) < 0 || ws.ws_col == 0)
		return given;
	return ws.ws_col < 60 ? 60 : ws.ws_col;	/* the figure rows need 67; titles get cut */
}

/* One line, cut to o->width columns (at a character boundary). */
void compare_line(FILE *out, const struct compare_opts *o, const char *fmt, ...)
{
	char *buf = NULL;
	va_list ap;
	va_start(ap, fmt);
	int len = vasprintf(&buf, fmt, ap);
	va_end(ap);
	if (len < 0) {
		fputs("(out of memory)\n", out);
		return;
	}
	size_t n = (size_t)len;
	if (o->width > 0 && n > (size_t)o->width) {
		n = (size_t)o->width;
		while (n > 0 && ((unsigned char)buf[n] & 0xc0) == 0x80)
			n--;	/* not inside a UTF-8 sequence */
	}
	fwrite(buf, 1, n, out);
	fputc('\n', out);
	free(buf);
}

const char *compare_num(char *buf, size_t len, const struct cmpstat_field *f, double v)
{
	if (isfinite(v))
		snprintf(buf, len, "%.*f", f->decimals, v * f->scale);
	else
		snprintf(buf, len, "-");
	return buf;
}

const char *compare_change(char *buf, size_t len, double a, double b)
{
	double c = cmpstat_change_pct(a, b);
	if (isfinite(c) && fabs(c) < 0.05)
		c = 0;	/* "+0.0%", never "-0.0%" */
	if (isfinite(c))
		snprintf(buf, len, "%+.1f%%", c);
	else
		snprintf(buf, len, "-");
	return buf;
}

/* A device's rows: each figure on both sides and the change. */
static void compare_text_rows(FILE *out, const struct compare_opts *o, const char *title,
			      const struct cmpstat *a, const struct cmpstat *b)
{
	if (strlen(title) > 30)	/* a long name on a line of its own, the columns below it */
		compare_line(out, o, "%s", title);
	compare_line(out, o, "%-30s %12s %12s %9s", strlen(title) > 30 ? "" : title, "A", "B", "change");
	for (size_t k = 0; k < cmpstat_nfields; k++) {
		const struct cmpstat_field *f = &cmpstat_fields[k];
		char va[32], vb[32], ch[32];
		double x = f->get(a), y = f->get(b);
		compare_line(out, o, "  %-28s %12s %12s %9s", f->title, compare_num(va, sizeof va, f, x),
			     compare_num(vb, sizeof vb, f, y), compare_change(ch, sizeof ch, x, y));
	}
}

/* A knob's value over the runs of a side: one value, or first..last. */
static void compare_knob_text(struct series *const *v, size_t n, int k, char *buf, size_t len)
{
	/* a knob changed during a side's runs (by hand, by a tuning daemon):
	 * its figures mix both settings, so the table says so */
	int64_t lo = v[0]->knob_first[k], hi = lo;
	bool varied = false;
	for (size_t i = 0; i < n; i++) {
		varied |= v[i]->knob_first[k] != lo || v[i]->knob_last[k] != lo;
		hi = v[i]->knob_last[k];
	}
	char x[32], y[32];
	knob_format_value(knob_vm_table[k].kind, lo, x, sizeof x);
	knob_format_value(knob_vm_table[k].kind, hi, y, sizeof y);
	if (lo < 0)
		snprintf(buf, len, "?");
	else if (varied)
		snprintf(buf, len, "%s..%s", x, y);
	else
		snprintf(buf, len, "%s", x);
}

static void compare_side_text(FILE *out, const struct compare_opts *o, char side,
			      struct series *const *v, size_t n)
{
	char runs[32] = "", when[32] = "?";
	if (n > 1)
		snprintf(runs, sizeof runs, " (%zu runs)", n);
	/* when the first run began, local time: which kernel, which boot */
	time_t t = (time_t)(v[0]->start_wall_ns / 1000000000);
	struct tm tm;
	if (localtime_r(&t, &tm))
		strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S", &tm);
	compare_line(out, o, "%c: %s%s  %s  %s%s", side, v[0]->case_name, runs, when, v[0]->path,
		     n > 1 ? " ..." : "");
}

/* What the runs ran (a sweep's are one command: said once). */
static void compare_commands_text(FILE *out, const struct compare_opts *o, const struct series *a,
				  const struct series *b)
{
	if (a->command && b->command && !strcmp(a->command, b->command)) {
		compare_line(out, o, "command: %s", a->command);
		return;
	}
	if (a->command)
		compare_line(out, o, "A ran: %s", a->command);
	if (b->command)
		compare_line(out, o, "B ran: %s", b->command);
}

static void compare_knobs_text(FILE *out, const struct compare_opts *o, struct series *const *a,
			       size_t na, struct series *const *b, size_t nb)
{
	compare_line(out, o, "%-30s %12s %12s", "knobs in force (* differ)", "A", "B");
	for (int k = 0; k < KNOB_VM_COUNT; k++) {
		char x[80], y[80];
		compare_knob_text(a, na, k, x, sizeof x);
		compare_knob_text(b, nb, k, y, sizeof y);
		compare_line(out, o, "%c %-28s %12s %12s", strcmp(x, y) ? '*' : ' ', knob_vm_table[k].name, x, y);
	}
}

/* "loop0 /mnt/a (ext4)", and how it was matched when not by key. */
static void compare_title(char *buf, size_t len, const struct series_dev *d, const char *how)
{
	snprintf(buf, len, "%s%s%s%s%s%s%s", d->label, d->mounts ? " " : "", d->mounts ? d->mounts : "",
		 d->fstype ? " (" : "", d->fstype ? d->fstype : "", d->fstype ? ")" : "", how);
}

/* ---- Matching devices ------------------------------------------------- */

struct compare_match {
	const char *key_a, *key_b;	/* NULL: on that side only */
	const char *how;		/* "" by key, " [same mount]", " [same label]" */
};

/* The distinct device keys of runs v[0..n), first seen first. */
static int compare_keys(struct series *const *v, size_t n, const struct series_dev ***out, size_t *nout)
{
	const struct series_dev **keys = NULL;
	size_t nk = 0;
	for (size_t i = 0; i < n; i++) {
		for (size_t j = 0; j < v[i]->ndev; j++) {
			const struct series_dev *d = &v[i]->dev[j];
			bool seen = false;
			for (size_t k = 0; k < nk && !seen; k++)
				seen = !strcmp(keys[k]->key, d->key);
			if (seen)
				continue;
			const struct series_dev **p = realloc(keys, (nk + 1) * sizeof *p);
			if (!p) {
				free(keys);
				return -ENOMEM;
			}
			keys = p;
			keys[nk++] = d;
		}
	}
	*out = keys;
	*nout = nk;
	return 0;
}

static bool compare_same(const char *x, const char *y)
{
	return x && y && *x && !strcmp(x, y);
}

/* Pair the keys of A with those of B: by key, then by mount point, then
 * by filesystem label where that names one device left over on each side;
 * what is left over is one-sided. */
static int compare_match_keys(const struct series_dev **ka, size_t na, const struct series_dev **kb,
			      size_t nb, struct compare_match **out, size_t *nout)
{
	struct compare_match *m = calloc(na + nb + 1, sizeof *m);
	bool *used = calloc(nb + 1, sizeof *used);
	if (!m || !used) {
		free(m);
		free(used);
		return -ENOMEM;
	}
	size_t n = 0;
	for (size_t i = 0; i < na; i++) {
		m[n] = (struct compare_match){ ka[i]->key, NULL, "" };
		for (size_t j = 0; j < nb && !m[n].key_b; j++)
			if (!used[j] && !strcmp(ka[i]->key, kb[j]->key)) {
				m[n].key_b = kb[j]->key;
				used[j] = true;
			}
		n++;
	}
	/* a second pass, so that a key match is never taken by a mount match; a
	 * mount point (then a label) pairs two devices left over only where it
	 * names one on each side: two left over on a side with the same mount
	 * (a recording of stacks whose members shared a key, a remount between
	 * runs) or label are not guessed at, and stay one-sided */
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < n; i++) {
			if (m[i].key_b)
				continue;
			const char *want = pass == 0 ? ka[i]->mounts : ka[i]->fs_label;
			size_t hits = 0, at = 0;
			for (size_t j = 0; j < nb; j++) {
				const char *got = pass == 0 ? kb[j]->mounts : kb[j]->fs_label;
				if (!used[j] && compare_same(want, got)) {
					hits++;
					at = j;
				}
			}
			size_t mine = 0;
			for (size_t k = 0; k < n; k++) {
				const char *other = pass == 0 ? ka[k]->mounts : ka[k]->fs_label;
				if (!m[k].key_b && compare_same(want, other))
					mine++;
			}
			if (hits != 1 || mine != 1)
				continue;
			m[i].key_b = kb[at]->key;
			m[i].how = pass == 0 ? " [same mount]" : " [same label]";
			used[at] = true;
		}
	}
	for (size_t j = 0; j < nb; j++)
		if (!used[j])
			m[n++] = (struct compare_match){ NULL, kb[j]->key, "" };
	free(used);
	*out = m;
	*nout = n;
	return 0;
}

/* ---- JSON ------------------------------------------------------------- */

void compare_json_num(FILE *out, double v)
{
	/* six significant digits: KiB/s to the KiB up to 1 GiB/s, without the
	 * float noise of %.17g */
	if (isfinite(v))
		fprintf(out, "%.6g", v);
	else
		fputs("null", out);
}

void compare_json_stat(FILE *out, const struct cmpstat *s)
{
	fputc('{', out);
	for (size_t k = 0; k < cmpstat_nfields; k++) {
		fprintf(out, "%s\"%s\":", k ? "," : "", cmpstat_fields[k].name);
		compare_json_num(out, cmpstat_fields[k].get(s));
	}
	fprintf(out, ",\"dips\":%zu}", s->dips);
}

void compare_json_change(FILE *out, const struct cmpstat *a, const struct cmpstat *b)
{
	fputc('{', out);
	for (size_t k = 0; k < cmpstat_nfields; k++) {
		fprintf(out, "%s\"%s\":", k ? "," : "", cmpstat_fields[k].name);
		compare_json_num(out, cmpstat_change_pct(cmpstat_fields[k].get(a), cmpstat_fields[k].get(b)));
	}
	fputc('}', out);
}

static void compare_json_side(FILE *out, struct series *const *v, size_t n)
{
	fputs("{\"case\":", out);
	jsonl_str(out, v[0]->case_name);
	fputs(",\"files\":[", out);
	for (size_t i = 0; i < n; i++) {
		if (i)
			fputc(',', out);
		jsonl_str(out, v[i]->path);
	}
	fputs("],\"command\":", out);
	if (v[0]->command)
		jsonl_str(out, v[0]->command);
	else
		fputs("null", out);
	fputs(",\"knobs\":{", out);
	for (int k = 0; k < KNOB_VM_COUNT; k++) {
		fprintf(out, "%s\"%s\":", k ? "," : "", knob_vm_table[k].name);
		if (v[0]->knob_first[k] < 0)
			fputs("null", out);
		else
			fprintf(out, "%" PRId64, v[0]->knob_first[k]);
	}
	fputs("}}", out);
}

static void compare_json_dev(FILE *out, const struct series_dev *d)
{
	if (!d) {
		fputs("null", out);
		return;
	}
	fputs("{\"key\":", out);
	jsonl_str(out, d->key);
	fputs(",\"label\":", out);
	jsonl_str(out, d->label);
	fputs(",\"mounts\":", out);
	if (d->mounts)
		jsonl_str(out, d->mounts);
	else
		fputs("null", out);
	fputc('}', out);
}

/* ---- Two runs --------------------------------------------------------- */

/* A device no run wrote to (an idle partition, an unused loop device) is
 * only noise in a mail. */
static bool compare_idle(const struct cmpstat *s)
{
	return !(s->mean_kbps > 0) && s->dips == 0;
}

/* The first run's series of key: its names and mount stand for the side. */
static const struct series_dev *compare_dev_of(struct series *const *v, size_t n, const char *key)
{
	for (size_t i = 0; key && i < n; i++) {
		const struct series_dev *d = series_find(v[i], key);
		if (d)
			return d;
	}
	return NULL;
}

static void compare_pair_dev(FILE *out, const struct compare_opts *o, const struct compare_match *m,
			     struct compare_pool *pa, struct compare_pool *pb, bool *first,
			     struct series *const *a, size_t na, struct series *const *b, size_t nb)
{
	const struct series_dev *da = compare_dev_of(a, na, m->key_a), *db = compare_dev_of(b, nb, m->key_b);
	if (o->format == COMPARE_JSON) {
		fprintf(out, "%s{\"a\":", *first ? "" : ",");
		compare_json_dev(out, da);
		fputs(",\"b\":", out);
		compare_json_dev(out, db);
		fprintf(out, ",\"matched_by\":\"%s\",\"stats_a\":", !da || !db ? "none" :
			!m->how[0] ? "key" : strstr(m->how, "mount") ? "mount" : "label");
		compare_json_stat(out, &pa->st);
		fputs(",\"stats_b\":", out);
		compare_json_stat(out, &pb->st);
		fputs(",\"change_pct\":", out);
		compare_json_change(out, &pa->st, &pb->st);
		fputc('}', out);
	} else {
		char title[512];
		compare_title(title, sizeof title, da ? da : db, !da ? " [only in B]" : !db ? " [only in A]" : m->how);
		fputc('\n', out);
		compare_text_rows(out, o, title, &pa->st, &pb->st);
	}
	*first = false;
}

static bool compare_keep(const struct compare_match *m, struct series *const *a, size_t na,
			 struct series *const *b, size_t nb, const regex_t *re)
{
	const struct series_dev *da = compare_dev_of(a, na, m->key_a), *db = compare_dev_of(b, nb, m->key_b);
	return (da && series_dev_selected(da, re)) || (db && series_dev_selected(db, re));
}

int compare_print_pair(FILE *out, struct series *const *a, size_t na, struct series *const *b,
		       size_t nb, const struct compare_opts *o)
{
	regex_t re;
	if (o->devices && regcomp(&re, o->devices, REG_EXTENDED | REG_NOSUB) != 0)
		return -EINVAL;	/* opts_parse checked it */
	const struct series_dev **ka = NULL, **kb = NULL;
	size_t nka = 0, nkb = 0, nm = 0;
	struct compare_match *m = NULL;
	int r = compare_keys(a, na, &ka, &nka);
	if (r == 0)
		r = compare_keys(b, nb, &kb, &nkb);
	if (r == 0)
		r = compare_match_keys(ka, nka, kb, nkb, &m, &nm);
	/* the devices of either side, paired; then a block per pair, then the total */
	bool json = o->format == COMPARE_JSON, first = true;
	if (r == 0 && json) {
		fputs("{\"a\":", out);
		compare_json_side(out, a, na);
		fputs(",\"b\":", out);
		compare_json_side(out, b, nb);
		fputs(",\"devices\":[", out);
	} else if (r == 0) {
		compare_side_text(out, o, 'A', a, na);
		compare_side_text(out, o, 'B', b, nb);
		compare_commands_text(out, o, a[0], b[0]);
		fputc('\n', out);
		compare_knobs_text(out, o, a, na, b, nb);
	}
	for (size_t i = 0; r == 0 && i < nm; i++) {
		if (!compare_keep(&m[i], a, na, b, nb, o->devices ? &re : NULL))
			continue;
		struct compare_pool pa = { 0 }, pb = { 0 };
		r = compare_pool_key(&pa, a, na, m[i].key_a, false);
		if (r == 0)
			r = compare_pool_key(&pb, b, nb, m[i].key_b, false);
		if (r == 0 && !(compare_idle(&pa.st) && compare_idle(&pb.st)))
			compare_pair_dev(out, o, &m[i], &pa, &pb, &first, a, na, b, nb);
		compare_pool_free(&pa);
		compare_pool_free(&pb);
	}
	struct compare_pool ta = { 0 }, tb = { 0 };
	const regex_t *sel = o->devices ? &re : NULL;
	if (r == 0 && (r = compare_pool_total(&ta, a, na, sel)) == 0 &&
	    (r = compare_pool_total(&tb, b, nb, sel)) == 0) {
		if (json) {
			fprintf(out, "],\"total\":{\"of\":\"%s\",\"stats_a\":", sel ? "devices" : "vmstat_bo");
			compare_json_stat(out, &ta.st);
			fputs(",\"stats_b\":", out);
			compare_json_stat(out, &tb.st);
			fputs(",\"change_pct\":", out);
			compare_json_change(out, &ta.st, &tb.st);
			fputs("}}\n", out);
		} else {
			fputc('\n', out);
			compare_text_rows(out, o, sel ? "TOTAL (the devices shown)" : "TOTAL (vmstat bo)",
					  &ta.st, &tb.st);
		}
	}
	compare_pool_free(&ta);
	compare_pool_free(&tb);
	if (o->devices)
		regfree(&re);
	free(ka);
	free(kb);
	free(m);
	if (r == 0 && (fflush(out) == EOF || ferror(out)))
		r = errno ? -errno : -EIO;
	return r;
}
