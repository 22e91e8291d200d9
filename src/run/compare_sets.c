/*
 * compare_sets.c - two sets of recordings compared case by case: finding
 * the recordings of a side, grouping them by case name, one line per case
 * with a TOTAL line, and choosing between this and the device table.
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/cmpstat.h"
#include "run/compare.h"
#include "run/compare_priv.h"
#include "sink/jsonl.h"

/* ---- Finding recordings ----------------------------------------------- */

static int compare_sets_push(char ***paths, size_t *n, char *p)
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

static int compare_sets_order(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

/* What a directory's recordings are called: wbtop's own .wbrec and the .db
 * of the examples; hidden files (an editor's, a copy in progress) are not. */
static bool compare_sets_is_recording_name(const char *name)
{
	size_t n = strlen(name);
	return name[0] != '.' && ((n > 6 && !strcmp(name + n - 6, ".wbrec")) || (n > 3 && !strcmp(name + n - 3, ".db")));
}

/* A directory's recordings, by name: readdir's order is the file system's,
 * and a table should not change with it. */
static int compare_sets_dir(const char *dir, char ***paths, size_t *n, char *err, size_t errlen)
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
		if (!compare_sets_is_recording_name(de->d_name))
			continue;
		char *p;
		r = asprintf(&p, "%s/%s", dir, de->d_name) < 0 ? -ENOMEM : compare_sets_push(paths, n, p);
	}
	closedir(d);
	if (r == 0 && *n == from) {
		snprintf(err, errlen, "%s: no recordings (*.wbrec, *.db) in this directory", dir);
		return -ENOENT;
	}
	if (r == 0)
		qsort(*paths + from, *n - from, sizeof **paths, compare_sets_order);
	else
		snprintf(err, errlen, "%s: out of memory", dir);
	return r;
}

int compare_sets_expand(const char *const *args, size_t nargs, char ***paths, size_t *npaths,
			char *err, size_t errlen)
{
	int r = 0;
	for (size_t i = 0; r == 0 && i < nargs; i++) {
		struct stat st;
		if (stat(args[i], &st) == 0 && S_ISDIR(st.st_mode))
			r = compare_sets_dir(args[i], paths, npaths, err, errlen);
		else if ((r = compare_sets_push(paths, npaths, strdup(args[i]))) < 0)
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

static void compare_sets_free(struct compare_set *s)
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

static int compare_sets_case_order(const void *x, const void *y)
{
	return strcmp(((const struct compare_case *)x)->name, ((const struct compare_case *)y)->name);
}

/* Read every recording of paths, and group them by case name (the cases
 * the group pattern keeps). */
static int compare_sets_load(struct compare_set *s, char **paths, size_t n, const regex_t *group,
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
		/* a case's runs pooled: a sweep's repeats are one case */
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
		qsort(s->cases, s->ncases, sizeof *s->cases, compare_sets_case_order);
	return 0;
}

static const struct compare_case *compare_sets_case_find(const struct compare_set *s, const char *name)
{
	for (size_t k = 0; k < s->ncases; k++)
		if (!strcmp(s->cases[k].name, name))
			return &s->cases[k];
	return NULL;
}

/* mean, min and cv of a case's total, as text cells. */
static void compare_sets_case_cells(char *buf, size_t len, const struct cmpstat *st)
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
	/* the TOTAL adds up the cases on both sides only: a case missing on one
	 * side would otherwise pass for a change */
	double sum[2] = { 0, 0 };
	for (size_t k = 0; k < a->ncases; k++) {
		const struct compare_case *ca = &a->cases[k], *cb = compare_sets_case_find(b, ca->name);
		if (!cb)
			continue;
		char x[112], y[112], ch[32];
		compare_sets_case_cells(x, sizeof x, &ca->total.st);
		compare_sets_case_cells(y, sizeof y, &cb->total.st);
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
			if (compare_sets_case_find(other, s->cases[k].name))
				continue;
			char x[112];
			compare_sets_case_cells(x, sizeof x, &s->cases[k].total.st);
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
		const struct compare_case *ca = &a->cases[k], *cb = compare_sets_case_find(b, ca->name);
		if (!cb)
			continue;
		fprintf(out, "%s{\"case\":", first ? "" : ",");
		jsonl_str(out, ca->name);
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
			if (compare_sets_case_find(other, s->cases[k].name))
				continue;
			if (!first)
				fputc(',', out);
			jsonl_str(out, s->cases[k].name);
			first = false;
		}
		fputc(']', out);
	}
	fputs("}\n", out);
}

static void compare_sets_free_paths(char **p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(p[i]);
	free(p);
}

static bool compare_sets_is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int compare_sets_runs(const char *const *a, size_t na, const char *const *b, size_t nb,
		      const struct compare_opts *o, FILE *out, char *err, size_t errlen)
{
	char **pa = NULL, **pb = NULL;
	size_t npa = 0, npb = 0;
	regex_t group;
	bool have_group = false;
	struct compare_set sa = { 0 }, sb = { 0 };
	int r = compare_sets_expand(a, na, &pa, &npa, err, errlen);
	if (r == 0)
		r = compare_sets_expand(b, nb, &pb, &npb, err, errlen);
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
	/* one recording a side: the device table; a directory is a set even
	 * when it holds one recording, so a script gets one shape per call */
	bool pair = na == 1 && nb == 1 && !compare_sets_is_dir(a[0]) && !compare_sets_is_dir(b[0]);
	if (r == 0)
		r = compare_sets_load(&sa, pa, npa, pair || !have_group ? NULL : &group, have_sel ? &sel : NULL,
				      err, errlen);
	if (r == 0)
		r = compare_sets_load(&sb, pb, npb, pair || !have_group ? NULL : &group, have_sel ? &sel : NULL,
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
	compare_sets_free(&sa);
	compare_sets_free(&sb);
	compare_sets_free_paths(pa, npa);
	compare_sets_free_paths(pb, npb);
	return r;
}
