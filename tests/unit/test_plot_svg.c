/*
 * test_plot_svg.c - the picture's elements from series made here: a line
 * per device that wrote (idle ones left out) and the total, a dot per dip,
 * a dashed line per knob change with its values, one panel per run, the
 * legend capped with the rest counted, names escaped for XML, and
 * --devices keeping some devices and drawing their own total.
 */
#include <check.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/knob.h"
#include "sink/plot_svg.h"

static void plot_dev(struct series_dev *d, const char *label, double kbps, int dip_at, int n)
{
	memset(d, 0, sizeof *d);
	d->key = strdup(label);
	d->label = strdup(label);
	d->kname = strdup(label);
	d->t_s = calloc((size_t)n, sizeof *d->t_s);
	d->kbps = calloc((size_t)n, sizeof *d->kbps);
	d->dt_s = calloc((size_t)n, sizeof *d->dt_s);
	d->dip = calloc((size_t)n, sizeof *d->dip);
	d->n = d->cap = (size_t)n;
	for (int i = 0; i < n; i++) {
		d->t_s[i] = i + 1;
		d->dt_s[i] = 1;
		d->kbps[i] = i == dip_at ? kbps / 4 : kbps;
		d->dip[i] = i == dip_at;
		d->ndips += d->dip[i];
	}
}

/* A run of ndev devices (the last one idle) writing 1024 KiB/s each for 10 s. */
static struct series *plot_run(const char *name, size_t ndev)
{
	struct series *s = calloc(1, sizeof *s);
	s->case_name = strdup(name);
	s->path = strdup(name);
	s->dev = calloc(ndev, sizeof *s->dev);
	s->ndev = ndev;
	for (size_t i = 0; i < ndev; i++) {
		char label[32];
		snprintf(label, sizeof label, i == 0 ? "a<b>&c" : "dev%zu", i);
		plot_dev(&s->dev[i], label, i + 1 == ndev ? 0 : 1024, i == 0 ? 4 : -1, 10);
	}
	plot_dev(&s->total, "total", 1024.0 * (double)(ndev - 1), 4, 10);
	s->changes = calloc(1, sizeof *s->changes);
	s->changes[0] = (struct series_change){ 5.0, KNOB_DIRTY_RATIO, 40, 10 };
	s->nchanges = 1;
	return s;
}

static size_t plot_count(const char *text, const char *what)
{
	size_t n = 0;
	for (const char *p = text; (p = strstr(p, what)); p += strlen(what))
		n++;
	return n;
}

static char *plot_to_text(struct series **runs, size_t n, const char *devices)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	ck_assert_int_eq(plot_svg_print(f, runs, n, devices), 0);
	fclose(f);
	return buf;
}

START_TEST(test_plot_svg_elements)
{
	struct series *runs[2] = { plot_run("vm.dirty_ratio=40", 4), plot_run("vm.dirty_ratio=10", 13) };
	char *t = plot_to_text(runs, 2, NULL);
	ck_assert_uint_eq(plot_count(t, "<g class=\"run\">"), 2);
	/* 3 devices that wrote, 9 of the 12 that wrote in the second, a total each */
	ck_assert_uint_eq(plot_count(t, "<polyline"), 3 + 9 + 2);
	/* a dip of the first device and of the total in each run; in the second
	 * the first device, slowed by its dip, is not among the 9 that wrote most */
	ck_assert_uint_eq(plot_count(t, "class=\"dip\""), 2 + 1);
	ck_assert_uint_eq(plot_count(t, "class=\"knob\""), 2);
	ck_assert_ptr_nonnull(strstr(t, ">vm.dirty_ratio 40% -&gt; 10%</text>"));
	ck_assert_ptr_nonnull(strstr(t, ">a&lt;b&gt;&amp;c</text>"));
	char *second = strstr(strstr(t, "<g class=\"run\">") + 1, "<g class=\"run\">");
	char *dev3 = strstr(t, ">dev3<");
	ck_assert_msg(dev3 && dev3 > second, "dev3 is idle in the first run only");
	ck_assert_ptr_nonnull(strstr(t, ">and 3 more devices</text>"));	/* 12 wrote, 9 named */
	ck_assert_ptr_nonnull(strstr(t, ">total (vmstat bo)</text>"));
	ck_assert_ptr_nonnull(strstr(t, "stroke=\"" PLOT_SVG_TOTAL "\""));
	free(t);
	t = plot_to_text(runs, 1, "^dev[12]$");
	ck_assert_uint_eq(plot_count(t, "<polyline"), 2 + 1);
	ck_assert_ptr_nonnull(strstr(t, ">total (the devices shown)</text>"));
	/* the scale follows what is drawn: two devices of 1 MiB/s each */
	ck_assert_ptr_nonnull(strstr(t, ">2</text>"));
	ck_assert_ptr_null(strstr(t, ">a&lt;b"));
	free(t);
	for (int i = 0; i < 2; i++)
		series_free(runs[i]);
}
END_TEST

/* A long run: intervals shorter than a pixel are merged, its dip kept. */
START_TEST(test_plot_svg_long_run)
{
	struct series *s = calloc(1, sizeof *s);
	s->case_name = strdup("day");
	plot_dev(&s->total, "total", 2048, 40000, 86400);
	char *t = plot_to_text(&s, 1, NULL);
	const char *pts = strstr(t, "points=\"");
	ck_assert_ptr_nonnull(pts);
	size_t pairs = 0;
	for (const char *p = pts; *p && *p != '/'; p++)
		pairs += *p == ',';
	/* two points a step, at most about one step a pixel of the 710 */
	ck_assert_msg(pairs >= 2 * 500 && pairs <= 2 * 720, "%zu points", pairs);
	ck_assert_uint_eq(plot_count(t, "class=\"dip\""), 1);
	ck_assert_msg(strlen(t) < 100000, "%zu bytes", strlen(t));
	free(t);
	series_free(s);
}
END_TEST

Suite *plot_svg_suite(void);
Suite *plot_svg_suite(void)
{
	Suite *s = suite_create("plot_svg");
	TCase *c = tcase_create("core");
	tcase_add_test(c, test_plot_svg_elements);
	tcase_add_test(c, test_plot_svg_long_run);
	suite_add_tcase(s, c);
	return s;
}
