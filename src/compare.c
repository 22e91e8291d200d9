/*
 * compare.c - two runs compared device by device, or two sets of runs case
 * by case, as text or JSON.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <regex.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmpstat.h"
#include "compare.h"
#include "knob.h"

/* ---- Pooling ---------------------------------------------------------- */

/* One device (or the total) of a side: its series in every recording of
 * the side, end to end. */
struct compare_pool {
	const struct series_dev *id;	/* the first series: names, mount, label */
	double *kbps, *dt_s;
	size_t n, ndips;
	struct cmpstat st;
};

static int compare_pool_add(struct compare_pool *p, const struct series_dev *d)
{
	if (!p->id)
		p->id = d;
	if (!d->n)
		return 0;
	double *k = realloc(p->kbps, (p->n + d->n) * sizeof *k);
	if (k)
		p->kbps = k;
	double *t = realloc(p->dt_s, (p->n + d->n) * sizeof *t);
	if (t)
		p->dt_s = t;
	if (!k || !t)
		return -ENOMEM;
	memcpy(p->kbps + p->n, d->kbps, d->n * sizeof *k);
	memcpy(p->dt_s + p->n, d->dt_s, d->n * sizeof *t);
	p->n += d->n;
	p->ndips += d->ndips;
	return 0;
}

static void compare_pool_done(struct compare_pool *p)
{
	cmpstat_compute(p->kbps, p->dt_s, p->n, p->ndips, &p->st);
}

static void compare_pool_free(struct compare_pool *p)
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
static int compare_pool_total(struct compare_pool *p, struct series *const *v, size_t n, const regex_t *sel)
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

/* One line, cut to o->width columns (at a character boundary). */
__attribute__((format(printf, 3, 4)))
static void compare_line(FILE *out, const struct compare_opts *o, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	size_t n = strlen(buf);
	if (o->width > 0 && n > (size_t)o->width) {
		n = (size_t)o->width;
		while (n > 0 && ((unsigned char)buf[n] & 0xc0) == 0x80)
			n--;	/* not inside a UTF-8 sequence */
	}
	fprintf(out, "%.*s\n", (int)n, buf);
}

static const char *compare_num(char *buf, size_t len, const struct cmpstat_field *f, double v)
{
	if (isfinite(v))
		snprintf(buf, len, "%.*f", f->decimals, v * f->scale);
	else
		snprintf(buf, len, "-");
	return buf;
}

static const char *compare_change(char *buf, size_t len, double a, double b)
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
	char runs[32] = "";
	if (n > 1)
		snprintf(runs, sizeof runs, " (%zu runs)", n);
	compare_line(out, o, "%c: %s%s  %s%s", side, v[0]->case_name, runs, v[0]->path, n > 1 ? " ..." : "");
	if (v[0]->command)
		compare_line(out, o, "   command: %s", v[0]->command);
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
 * by filesystem label; what is left over is one-sided. */
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
	/* a second pass, so that a key match is never taken by a mount match */
	for (size_t i = 0; i < n; i++) {
		for (int pass = 0; pass < 2 && !m[i].key_b; pass++) {
			for (size_t j = 0; j < nb && !m[i].key_b; j++) {
				bool same = pass == 0 ? compare_same(ka[i]->mounts, kb[j]->mounts)
						      : compare_same(ka[i]->fs_label, kb[j]->fs_label);
				if (!used[j] && same) {
					m[i].key_b = kb[j]->key;
					m[i].how = pass == 0 ? " [same mount]" : " [same label]";
					used[j] = true;
				}
			}
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

static void compare_json_str(FILE *out, const char *s)
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

static void compare_json_num(FILE *out, double v)
{
	if (isfinite(v))
		fprintf(out, "%.6g", v);
	else
		fputs("null", out);
}

static void compare_json_stat(FILE *out, const struct cmpstat *s)
{
	fputc('{', out);
	for (size_t k = 0; k < cmpstat_nfields; k++) {
		fprintf(out, "%s\"%s\":", k ? "," : "", cmpstat_fields[k].name);
		compare_json_num(out, cmpstat_fields[k].get(s));
	}
	fprintf(out, ",\"dips\":%zu}", s->dips);
}

static void compare_json_change(FILE *out, const struct cmpstat *a, const struct cmpstat *b)
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
	compare_json_str(out, v[0]->case_name);
	fputs(",\"files\":[", out);
	for (size_t i = 0; i < n; i++) {
		if (i)
			fputc(',', out);
		compare_json_str(out, v[i]->path);
	}
	fputs("],\"command\":", out);
	if (v[0]->command)
		compare_json_str(out, v[0]->command);
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
	compare_json_str(out, d->key);
	fputs(",\"label\":", out);
	compare_json_str(out, d->label);
	fputs(",\"mounts\":", out);
	if (d->mounts)
		compare_json_str(out, d->mounts);
	else
		fputs("null", out);
	fputc('}', out);
}

/* ---- Two runs --------------------------------------------------------- */

static bool compare_idle(const struct cmpstat *s)
{
	return !(s->mean_kbps > 0) && s->dips == 0;
}

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

/* ---- Finding recordings ----------------------------------------------- */

static int compare_push(char ***paths, size_t *n, char *p)
{
	char **v = p ? realloc(*paths, (*n + 1) * sizeof *v) : NULL;
	if (!v) {
		free(p);
		return -ENOMEM;
	}
	*paths = v;
	v[(*n)++] = p;
	return 0;
}

static int compare_order(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

static bool compare_is_recording_name(const char *name)
{
	size_t n = strlen(name);
	return name[0] != '.' && ((n > 6 && !strcmp(name + n - 6, ".wbrec")) || (n > 3 && !strcmp(name + n - 3, ".db")));
}

static int compare_dir(const char *dir, char ***paths, size_t *n, char *err, size_t errlen)
{
	DIR *d = opendir(dir);
	if (!d) {
		int e = errno;
		snprintf(err, errlen, "%s: %s", dir, strerror(e));
		return -e;
	}
	size_t from = *n;
	int r = 0;
	struct dirent *de;
	while (r == 0 && (de = readdir(d))) {
		if (!compare_is_recording_name(de->d_name))
			continue;
		char *p;
		r = asprintf(&p, "%s/%s", dir, de->d_name) < 0 ? -ENOMEM : compare_push(paths, n, p);
	}
	closedir(d);
	if (r == 0 && *n == from) {
		snprintf(err, errlen, "%s: no recordings (*.wbrec, *.db) in this directory", dir);
		return -ENOENT;
	}
	if (r == 0)
		qsort(*paths + from, *n - from, sizeof **paths, compare_order);
	else
		snprintf(err, errlen, "%s: out of memory", dir);
	return r;
}

int compare_expand(const char *const *args, size_t nargs, char ***paths, size_t *npaths,
		   char *err, size_t errlen)
{
	int r = 0;
	for (size_t i = 0; r == 0 && i < nargs; i++) {
		struct stat st;
		if (stat(args[i], &st) == 0 && S_ISDIR(st.st_mode))
			r = compare_dir(args[i], paths, npaths, err, errlen);
		else if ((r = compare_push(paths, npaths, strdup(args[i]))) < 0)
			snprintf(err, errlen, "out of memory");
	}
	return r;
}

/* ---- Two sets, case by case ------------------------------------------- */

/* The runs of one case on one side. */
struct compare_case {
	const char *name;
	struct series **runs;
	size_t n;
	struct compare_pool total;
};

struct compare_set {
	struct series **runs;
	size_t nruns;
	struct compare_case *cases;
	size_t ncases;
};

static void compare_set_free(struct compare_set *s)
{
	for (size_t i = 0; i < s->nruns; i++)
		series_free(s->runs[i]);
	for (size_t i = 0; i < s->ncases; i++) {
		free(s->cases[i].runs);
		compare_pool_free(&s->cases[i].total);
	}
	free(s->runs);
	free(s->cases);
}

static int compare_case_order(const void *x, const void *y)
{
	return strcmp(((const struct compare_case *)x)->name, ((const struct compare_case *)y)->name);
}

/* Read every recording of paths, and group them by case name (the cases
 * the group pattern keeps). */
static int compare_set_load(struct compare_set *s, char **paths, size_t n, const regex_t *group,
			    const regex_t *sel,
			    char *err, size_t errlen)
{
	memset(s, 0, sizeof *s);
	if (!(s->runs = calloc(n ? n : 1, sizeof *s->runs)) || !(s->cases = calloc(n ? n : 1, sizeof *s->cases)))
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		int r = series_load(paths[i], &s->runs[s->nruns], err, errlen);
		if (r < 0)
			return r;
		struct series *v = s->runs[s->nruns++];
		if (group && regexec(group, v->case_name, 0, NULL, 0) != 0)
			continue;
		struct compare_case *c = NULL;
		for (size_t k = 0; k < s->ncases && !c; k++)
			if (!strcmp(s->cases[k].name, v->case_name))
				c = &s->cases[k];
		if (!c) {
			c = &s->cases[s->ncases++];
			c->name = v->case_name;
		}
		struct series **p = realloc(c->runs, (c->n + 1) * sizeof *p);
		if (!p)
			return -ENOMEM;
		c->runs = p;
		p[c->n++] = v;
	}
	for (size_t k = 0; k < s->ncases; k++)
		if (compare_pool_total(&s->cases[k].total, s->cases[k].runs, s->cases[k].n, sel) < 0)
			return -ENOMEM;
	if (s->ncases)
		qsort(s->cases, s->ncases, sizeof *s->cases, compare_case_order);
	return 0;
}

static const struct compare_case *compare_case_find(const struct compare_set *s, const char *name)
{
	for (size_t k = 0; k < s->ncases; k++)
		if (!strcmp(s->cases[k].name, name))
			return &s->cases[k];
	return NULL;
}

/* mean, min and cv of a case's total, as text cells. */
static void compare_case_cells(char *buf, size_t len, const struct cmpstat *st)
{
	char mean[32], min[32], cv[32];
	compare_num(mean, sizeof mean, &cmpstat_fields[2], st->mean_kbps);
	compare_num(min, sizeof min, &cmpstat_fields[3], st->min_kbps);
	compare_num(cv, sizeof cv, &cmpstat_fields[5], st->cv_pct);
	snprintf(buf, len, "%9s %8s %5s", mean, min, cv);
}

static void compare_sets_text(FILE *out, const struct compare_opts *o, const struct compare_set *a,
			      const struct compare_set *b)
{
	compare_line(out, o, "%24s  %9s %24s", "A", "", "B");
	compare_line(out, o, "------------------------  %9s ------------------------", "");
	compare_line(out, o, "%9s %8s %5s  %9s %9s %8s %5s  %s", "mean MB/s", "min", "cv%", "change",
		     "mean MB/s", "min", "cv%", "case");
	double sum[2] = { 0, 0 };
	for (size_t k = 0; k < a->ncases; k++) {
		const struct compare_case *ca = &a->cases[k], *cb = compare_case_find(b, ca->name);
		if (!cb)
			continue;
		char x[112], y[112], ch[32];
		compare_case_cells(x, sizeof x, &ca->total.st);
		compare_case_cells(y, sizeof y, &cb->total.st);
		compare_change(ch, sizeof ch, ca->total.st.mean_kbps, cb->total.st.mean_kbps);
		compare_line(out, o, "%s  %9s %s  %s", x, ch, y, ca->name);
		sum[0] += isfinite(ca->total.st.mean_kbps) ? ca->total.st.mean_kbps / 1024 : 0;
		sum[1] += isfinite(cb->total.st.mean_kbps) ? cb->total.st.mean_kbps / 1024 : 0;
	}
	char ch[32];
	compare_change(ch, sizeof ch, sum[0], sum[1]);
	compare_line(out, o, "%9.2f %8s %5s  %9s %9.2f %8s %5s  %s", sum[0], "", "", ch, sum[1], "", "",
		     "TOTAL (sum of the means)");
	if (o->devices)
		compare_line(out, o, "(figures of the devices --devices selects, not of vmstat bo)");
	for (int side = 0; side < 2; side++) {
		const struct compare_set *s = side ? b : a, *other = side ? a : b;
		for (size_t k = 0; k < s->ncases; k++) {
			if (compare_case_find(other, s->cases[k].name))
				continue;
			char x[112];
			compare_case_cells(x, sizeof x, &s->cases[k].total.st);
			compare_line(out, o, "only in %c: %s  %s", side ? 'B' : 'A', x, s->cases[k].name);
		}
	}
}

static void compare_sets_json(FILE *out, const struct compare_set *a, const struct compare_set *b)
{
	fputs("{\"cases\":[", out);
	bool first = true;
	double sum[2] = { 0, 0 };
	for (size_t k = 0; k < a->ncases; k++) {
		const struct compare_case *ca = &a->cases[k], *cb = compare_case_find(b, ca->name);
		if (!cb)
			continue;
		fprintf(out, "%s{\"case\":", first ? "" : ",");
		compare_json_str(out, ca->name);
		fprintf(out, ",\"runs_a\":%zu,\"runs_b\":%zu,\"stats_a\":", ca->n, cb->n);
		compare_json_stat(out, &ca->total.st);
		fputs(",\"stats_b\":", out);
		compare_json_stat(out, &cb->total.st);
		fputs(",\"change_pct\":", out);
		compare_json_change(out, &ca->total.st, &cb->total.st);
		fputc('}', out);
		first = false;
		sum[0] += isfinite(ca->total.st.mean_kbps) ? ca->total.st.mean_kbps : 0;
		sum[1] += isfinite(cb->total.st.mean_kbps) ? cb->total.st.mean_kbps : 0;
	}
	fputs("],\"total\":{\"mean_kbps_a\":", out);
	compare_json_num(out, sum[0]);
	fputs(",\"mean_kbps_b\":", out);
	compare_json_num(out, sum[1]);
	fputs(",\"change_pct\":", out);
	compare_json_num(out, cmpstat_change_pct(sum[0], sum[1]));
	fputc('}', out);
	for (int side = 0; side < 2; side++) {
		const struct compare_set *s = side ? b : a, *other = side ? a : b;
		fprintf(out, ",\"only_%c\":[", side ? 'b' : 'a');
		first = true;
		for (size_t k = 0; k < s->ncases; k++) {
			if (compare_case_find(other, s->cases[k].name))
				continue;
			if (!first)
				fputc(',', out);
			compare_json_str(out, s->cases[k].name);
			first = false;
		}
		fputc(']', out);
	}
	fputs("}\n", out);
}

static void compare_free_paths(char **p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(p[i]);
	free(p);
}

static bool compare_is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int compare_runs(const char *const *a, size_t na, const char *const *b, size_t nb,
		 const struct compare_opts *o, FILE *out, char *err, size_t errlen)
{
	char **pa = NULL, **pb = NULL;
	size_t npa = 0, npb = 0;
	regex_t group;
	bool have_group = false;
	struct compare_set sa = { 0 }, sb = { 0 };
	int r = compare_expand(a, na, &pa, &npa, err, errlen);
	if (r == 0)
		r = compare_expand(b, nb, &pb, &npb, err, errlen);
	if (r == 0 && o->group) {
		have_group = regcomp(&group, o->group, REG_EXTENDED | REG_NOSUB) == 0;
		if (!have_group) {
			snprintf(err, errlen, "--group '%s': not a regular expression", o->group);
			r = -EINVAL;
		}
	}
	regex_t sel;
	bool have_sel = false;
	if (r == 0 && o->devices) {
		have_sel = regcomp(&sel, o->devices, REG_EXTENDED | REG_NOSUB) == 0;
		if (!have_sel) {
			snprintf(err, errlen, "--devices '%s': not a regular expression", o->devices);
			r = -EINVAL;
		}
	}
	bool pair = na == 1 && nb == 1 && !compare_is_dir(a[0]) && !compare_is_dir(b[0]);
	if (r == 0)
		r = compare_set_load(&sa, pa, npa, pair || !have_group ? NULL : &group, have_sel ? &sel : NULL,
				     err, errlen);
	if (r == 0)
		r = compare_set_load(&sb, pb, npb, pair || !have_group ? NULL : &group, have_sel ? &sel : NULL,
				     err, errlen);
	if (r == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	if (r == 0 && pair) {
		r = compare_print_pair(out, sa.runs, 1, sb.runs, 1, o);
	} else if (r == 0) {
		if (o->format == COMPARE_JSON)
			compare_sets_json(out, &sa, &sb);
		else
			compare_sets_text(out, o, &sa, &sb);
		if (fflush(out) == EOF || ferror(out))
			r = errno ? -errno : -EIO;
	}
	if (r < 0 && !err[0])
		snprintf(err, errlen, "writing the comparison: %s", strerror(-r));
	if (have_group)
		regfree(&group);
	if (have_sel)
		regfree(&sel);
	compare_set_free(&sa);
	compare_set_free(&sb);
	compare_free_paths(pa, npa);
	compare_free_paths(pb, npb);
	return r;
}
