/*
 * test_figure.c - the figure registry: its rows are consistent, the
 * formulas give iostat's numbers, and the lists of figures in the man page
 * and doc/ name exactly the registry's rows (those lists are written by
 * hand, so this test is what keeps them true).
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/figure.h"

/* The repository root, from this file's path as the compiler saw it. */
static char *fig_read_doc(const char *rel)
{
	char path[512];
	const char *me = __FILE__, *cut = strstr(me, "tests/unit/");
	snprintf(path, sizeof path, "%.*s%s", cut ? (int)(cut - me) : 0, me, rel);
	FILE *f = fopen(path, "r");
	ck_assert_msg(f != NULL, "cannot open %s", path);
	static char buf[1 << 18];
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	return buf;
}

/* The text between the first from and the next to after it (a copy in out). */
static void fig_section(const char *text, const char *from, const char *to, char *out, size_t len)
{
	const char *a = strstr(text, from);
	ck_assert_msg(a != NULL, "no '%s'", from);
	a += strlen(from);
	const char *b = strstr(a, to);
	ck_assert_msg(b != NULL, "no '%s' after '%s'", to, from);
	snprintf(out, len, "%.*s", (int)(b - a), a);
}

static bool fig_has_word(const char *list, const char *w)
{
	size_t n = strlen(w);
	for (const char *p = list; (p = strstr(p, w)); p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
			return true;
	return false;
}

/* The words of s that are one of the titles, in order, each once, joined by
 * spaces. */
static void fig_words(const char *s, const char *const *titles, size_t n, char *out, size_t len)
{
	char copy[4096];
	snprintf(copy, sizeof copy, "%s", s);
	out[0] = '\0';
	for (char *save, *w = strtok_r(copy, " \t\n,\"()`", &save); w; w = strtok_r(NULL, " \t\n,\"()`", &save)) {
		size_t wl = strlen(w);
		while (wl && (w[wl - 1] == '.' || w[wl - 1] == ';'))
			w[--wl] = '\0';
		for (size_t k = 0; k < n; k++)
			if (strcmp(w, titles[k]) == 0 && !fig_has_word(out, w)) {
				size_t have = strlen(out);
				snprintf(out + have, len - have, "%s%s", have ? " " : "", w);
				break;
			}
	}
}

/* Titles of the rows that pass keep, in table order (or screen order). */
static size_t fig_titles(bool (*keep)(const struct fig_dev *), bool screen, const char **out)
{
	const struct fig_dev *cols[64];
	size_t n = 0;
	if (screen) {
		size_t nc = figure_dev_screen_cols(cols, 64);
		for (size_t c = 0; c < nc; c++)
			if (!keep || keep(cols[c]))
				out[n++] = cols[c]->screen.title;
		return n;
	}
	for (size_t k = 0; k < fig_ndev; k++)
		if (keep(&fig_dev_table[k]))
			out[n++] = fig_dev_table[k].title;
	return n;
}

static void fig_join(const char **t, size_t n, char *out, size_t len)
{
	out[0] = '\0';
	for (size_t k = 0; k < n; k++) {
		size_t have = strlen(out);
		snprintf(out + have, len - have, "%s%s", k ? " " : "", t[k]);
	}
}

/* The titles named between from and to in text are exactly t[0..n), in order. */
static void fig_check_list(const char *text, const char *from, const char *to, const char **t, size_t n)
{
	char sec[4096], got[1024], want[1024];
	fig_section(text, from, to, sec, sizeof sec);
	fig_words(sec, t, n, got, sizeof got);
	fig_join(t, n, want, sizeof want);
	ck_assert_str_eq(got, want);
}

static bool fig_in_batch(const struct fig_dev *f) { return f->sinks & FIG_IN_BATCH; }
static bool fig_screen_base(const struct fig_dev *f) { return f->screen.level == 0; }

START_TEST(test_figure_rows)
{
	int hist_rows[FIG_NHIST] = { 0 };
	for (size_t k = 0; k < fig_ndev; k++) {
		const struct fig_dev *f = &fig_dev_table[k];
		ck_assert_msg(f->name && f->title && f->desc && f->unit, "row %zu incomplete", k);
		ck_assert_msg(f->width >= strlen(f->title), "%s: batch width", f->name);
		ck_assert_msg(!f->screen.title || f->screen.width > strlen(f->screen.title),
			      "%s: screen width", f->name);
		ck_assert_msg(!f->screen.title || f->screen.scale > 0, "%s: screen scale", f->name);
		ck_assert_msg(!f->om.name || (f->om.help && f->om.scale > 0 && !strchr(f->om.help, '"')),
			      "%s: OpenMetrics family", f->name);
		if (f->sinks & FIG_IN_HISTORY) {
			ck_assert_msg(f->hist >= 0 && f->hist < FIG_NHIST, "%s: history slot", f->name);
			hist_rows[f->hist]++;
			/* the history is filled from the briefs */
			ck_assert_msg(f->sinks & FIG_IN_BRIEF, "%s: kept but not in the brief", f->name);
			/* and keeps only what is drawn: a slot is 4 bytes of every device-frame */
			bool drawn = f == figure_dev_write_rate();
			for (size_t g = 0; g < fig_ndev_graphs; g++)
				drawn |= f == &fig_dev_table[fig_dev_graphs[g].id];
			ck_assert_msg(drawn, "%s: kept in the history but drawn nowhere", f->name);
		} else {
			ck_assert_msg(f->hist < 0, "%s: a history slot without FIG_IN_HISTORY", f->name);
		}
		for (size_t j = 0; j < k; j++) {
			ck_assert_msg(strcmp(f->name, fig_dev_table[j].name) != 0, "%s twice", f->name);
			ck_assert_msg(!f->screen.title || !fig_dev_table[j].screen.title ||
				      (strcmp(f->screen.title, fig_dev_table[j].screen.title) != 0 &&
				       f->screen.pos != fig_dev_table[j].screen.pos),
				      "%s: screen title or place taken", f->name);
			ck_assert_msg(!f->screen.key || f->screen.key != fig_dev_table[j].screen.key,
				      "%s: sort key taken", f->name);
		}
	}
	for (int k = 0; k < FIG_NHIST; k++)
		ck_assert_msg(hist_rows[k] == 1, "history slot %d: %d rows", k, hist_rows[k]);
	ck_assert_ptr_nonnull(figure_dev_sort_first());
	ck_assert_ptr_nonnull(figure_dev_sort_first()->screen.title);
	/* the system line of batch text: places 1..n, each once */
	size_t in_line = 0;
	for (size_t k = 0; k < fig_nsys; k++)
		if (fig_sys_table[k].batch_pos) {
			in_line++;
			ck_assert_ptr_nonnull(fig_sys_table[k].title);
			for (size_t j = 0; j < k; j++)
				ck_assert_uint_ne(fig_sys_table[j].batch_pos, fig_sys_table[k].batch_pos);
		}
	for (size_t k = 0; k < fig_nsys; k++)
		ck_assert_uint_le(fig_sys_table[k].batch_pos, in_line);
}
END_TEST

START_TEST(test_figure_formulas)
{
	/* wareq-sz as iostat -x: KiB written / writes; 0 without writes */
	struct dev_rates r = { .status = RATE_OK, .w_s = 50, .wkb_s = 6400, .r_s = 150,
			       .r_await_ms = 2, .w_await_ms = 10 };
	const struct fig_dev *wareq = NULL, *await = NULL;
	for (size_t k = 0; k < fig_ndev; k++) {
		if (!strcmp(fig_dev_table[k].name, "wareq_kb"))
			wareq = &fig_dev_table[k];
		if (!strcmp(fig_dev_table[k].name, "await_ms"))
			await = &fig_dev_table[k];
	}
	ck_assert_ptr_nonnull(wareq);
	ck_assert_ptr_nonnull(await);
	ck_assert_double_eq_tol(figure_dev_value(wareq, &r), 128.0, 1e-12);
	ck_assert_double_eq_tol(figure_dev_value(await, &r), (2.0 * 150 + 10.0 * 50) / 200, 1e-12);
	r.w_s = 0;
	r.r_s = 0;
	ck_assert_double_eq(figure_dev_value(wareq, &r), 0.0);
	ck_assert_double_eq(figure_dev_value(await, &r), 0.0);
	/* availability: the status, and the fields a figure needs */
	ck_assert(figure_dev_available(wareq, &r));
	r.status = RATE_FIRST;
	ck_assert(!figure_dev_available(wareq, &r));
	for (size_t k = 0; k < fig_ndev; k++) {
		const struct fig_dev *f = &fig_dev_table[k];
		struct dev_rates d = { .status = RATE_OK };
		ck_assert(figure_dev_available(f, &d) ==
			  !(f->need & (FIG_NEED_DISCARD | FIG_NEED_FLUSH | FIG_NEED_EXTRA)));
		d.has_discard = d.has_flush = true;
		d.x_have = f->need & FIG_NEED_EXTRA ? 1u << f->xkind : 0;
		ck_assert(figure_dev_available(f, &d));
	}
}
END_TEST

/* wbtop.1: the batch device table's list and the screen's base columns. */
START_TEST(test_figure_man_page)
{
	const char *man = fig_read_doc("wbtop.1");
	const char *t[64];
	size_t n = fig_titles(fig_in_batch, false, t);
	fig_check_list(man, "The device table has the columns of", "then the device", t, n);
	n = fig_titles(fig_screen_base, true, t);
	fig_check_list(man, "the iostat \\-x columns", "more columns on wider terminals", t, n);
}
END_TEST

/* doc/screen.md: the base columns, then the optional ones in level order. */
START_TEST(test_figure_screen_doc)
{
	const char *doc = fig_read_doc("doc/screen.md");
	const char *t[64];
	size_t n = fig_titles(fig_screen_base, true, t);
	fig_check_list(doc, "Columns are iostat -x's:", "columns appear only", t, n);

	const struct fig_dev *cols[64];
	size_t nc = figure_dev_screen_cols(cols, 64);
	n = 0;
	for (int level = 1; level < 256; level++)
		for (size_t c = 0; c < nc; c++)
			if (cols[c]->screen.level == level)
				t[n++] = cols[c]->screen.title;
	fig_check_list(doc, "Wider terminals add, in this order,", "The last column", t, n);
}
END_TEST

/* doc/recording.md: a device's block of CSV columns; doc/fleet.md: the
 * OpenMetrics families. */
START_TEST(test_figure_export_docs)
{
	const char *rec = fig_read_doc("doc/recording.md");
	/* the block starts with the device's readable name (not a figure) */
	char sec[4096], want[1024] = "name@KEY,";
	fig_section(rec, "block `", "` (iostat", sec, sizeof sec);
	for (char *p = sec; *p; p++)
		if (*p == '\n')
			*p = ' ';
	for (size_t k = 0; k < fig_ndev; k++)
		if (fig_dev_table[k].sinks & FIG_IN_EXPORT) {
			size_t have = strlen(want);
			snprintf(want + have, sizeof want - have, "%s@KEY,", fig_dev_table[k].name);
		}
	strcat(want, "dip@KEY,cause@KEY,dip_depth_pct@KEY");
	char flat[4096] = "";
	for (const char *p = sec; *p; p++)
		if (*p != ' ')
			strncat(flat, p, 1);
	ck_assert_str_eq(flat, want);

	const char *fleet = fig_read_doc("doc/fleet.md");
	for (size_t k = 0; k < fig_ndev_counter + fig_ndev; k++) {
		const struct fig_om *om = k < fig_ndev_counter ? &fig_dev_counter_table[k].om
							      : &fig_dev_table[k - fig_ndev_counter].om;
		if (!om->name)
			continue;
		char name[128];
		/* "_discards_merged_total": the table abbreviates a row's later names */
		snprintf(name, sizeof name, "%s%s`", om->name + strlen("wbtop_device"),
			 om->type == FIG_OM_COUNTER ? "_total" : "");
		ck_assert_msg(strstr(fleet, name) != NULL, "doc/fleet.md lacks %s", om->name);
	}
}
END_TEST

/* The process figures: one row each, the pane's places taken once, and
 * every -P column explained in doc/processes.md's table. */
START_TEST(test_figure_procs)
{
	const char *doc = fig_read_doc("doc/processes.md");
	char sec[4096];
	fig_section(doc, "| column | meaning |", "Rates need two samples", sec, sizeof sec);
	for (size_t k = 0; k < fig_nproc; k++) {
		const struct fig_proc *f = &fig_proc_table[k];
		ck_assert_msg(f->name && f->title && f->desc && f->get, "row %zu incomplete", k);
		char want[64];
		snprintf(want, sizeof want, "`%s`", f->title);
		ck_assert_msg(strstr(sec, want) != NULL, "doc/processes.md does not explain %s", f->title);
		ck_assert_msg((f->width == 0) == (k == fig_nproc - 1), "%s: only the last column is unpadded",
			      f->name);
		for (size_t j = 0; j < k; j++) {
			ck_assert_msg(strcmp(f->name, fig_proc_table[j].name) != 0, "%s twice", f->name);
			ck_assert_msg(!f->screen.title || !fig_proc_table[j].screen.title ||
				      f->screen.pos != fig_proc_table[j].screen.pos, "%s: pane place taken", f->name);
		}
	}
	/* the pane's columns in their places, the command apart */
	const struct fig_proc *cols[16];
	size_t n = figure_proc_screen_cols(cols, 16), want = 0;
	for (size_t k = 0; k < fig_nproc; k++)
		want += fig_proc_table[k].screen.title != NULL;
	ck_assert_uint_eq(n, want);
	for (size_t c = 1; c < n; c++)
		ck_assert_uint_lt(cols[c - 1]->screen.pos, cols[c]->screen.pos);
	/* the values: a rate needs rates and readable counters */
	struct proc_row r = { .pid = 42, .state = 'D', .status = RATE_OK, .write_kbps = 512, .share_pct = -1,
			      .wait = PROCS_WAIT_UNKNOWN };
	char b[32];
	double v = 0;
	for (size_t k = 0; k < fig_nproc; k++) {
		const struct fig_proc *f = &fig_proc_table[k];
		enum fig_proc_have h = f->get(&r, &v, b, sizeof b);
		if (!strcmp(f->name, "write_kbps"))
			ck_assert(h == FIG_PROC_OK && v == 512);
		if (!strcmp(f->name, "share_pct"))
			ck_assert(h == FIG_PROC_NONE);	/* bo was 0 */
		if (!strcmp(f->name, "throttled"))
			ck_assert(h == FIG_PROC_OK && !strcmp(b, "?"));
	}
	r.io_hidden = true;
	ck_assert(fig_proc_table[2].get(&r, &v, b, sizeof b) == FIG_PROC_HIDDEN);
}
END_TEST

/* Every id names its own row (the enum's name is the row's, upper case), the
 * getter says what the row lacks, and the detail graphs are rows the
 * history keeps. */
START_TEST(test_figure_ids)
{
	static const struct { enum fig_dev_id id; const char *name; } ids[] = {
		{ FIG_DEV_R_S, "r_s" }, { FIG_DEV_W_S, "w_s" }, { FIG_DEV_WKB_S, "wkb_s" },
		{ FIG_DEV_W_AWAIT_MS, "w_await_ms" }, { FIG_DEV_AQU_SZ, "aqu_sz" },
		{ FIG_DEV_F_S, "f_s" }, { FIG_DEV_F_AWAIT_MS, "f_await_ms" }, { FIG_DEV_WAREQ_KB, "wareq_kb" },
		{ FIG_DEV_PAUSES, "pauses" }, { FIG_DEV_AWAIT_MS, "await_ms" },
	};
	ck_assert_uint_eq(fig_ndev, FIG_NDEV);
	for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++)
		ck_assert_str_eq(fig_dev_table[ids[i].id].name, ids[i].name);
	ck_assert_ptr_eq(figure_dev_write_rate(), &fig_dev_table[FIG_DEV_WKB_S]);

	struct dev_rates r = { .status = RATE_OK, .w_s = 12.5, .w_await_ms = 3, .f_s = 7 };
	double v = -1;
	ck_assert(figure_dev_get(FIG_DEV_W_S, &r, &v));
	ck_assert_double_eq(v, 12.5);
	v = -1;
	ck_assert(!figure_dev_get(FIG_DEV_F_S, &r, &v));	/* no flush fields: unknown */
	ck_assert_double_eq(v, -1);
	r.has_flush = true;
	ck_assert(figure_dev_get(FIG_DEV_F_S, &r, &v));
	ck_assert_double_eq(v, 7);
	r.status = RATE_FIRST;
	ck_assert(!figure_dev_get(FIG_DEV_W_S, &r, &v));

	ck_assert_uint_ge(fig_ndev_graphs, 1);
	for (size_t g = 0; g < fig_ndev_graphs; g++) {
		const struct fig_dev *f = &fig_dev_table[fig_dev_graphs[g].id];
		ck_assert(f->sinks & FIG_IN_HISTORY);
		ck_assert_int_ge(f->hist, 0);
	}
	ck_assert_str_eq(figure_dev_key_word(figure_dev_sort_first()), "write MB/s");
	ck_assert_str_eq(figure_dev_key_word(&fig_dev_table[FIG_DEV_UTIL_PCT]), "util");
}
END_TEST

Suite *figure_suite(void)
{
	Suite *s = suite_create("figure");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_figure_rows);
	tcase_add_test(tc, test_figure_formulas);
	tcase_add_test(tc, test_figure_man_page);
	tcase_add_test(tc, test_figure_screen_doc);
	tcase_add_test(tc, test_figure_export_docs);
	tcase_add_test(tc, test_figure_procs);
	tcase_add_test(tc, test_figure_ids);
	suite_add_tcase(s, tc);
	return s;
}
