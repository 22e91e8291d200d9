/*
 * test_sink.c - the sink interface: the outputs skip the baseline frame and
 * write each interval, OpenMetrics exports the baseline too, a failed write
 * comes back as -errno with a message naming the output, and a NULL sink
 * is a no-op.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sink/batch.h"
#include "sink/jsonl.h"
#include "sink/openmetrics.h"
#include "core/pipeline.h"
#include "sink/sink.h"

/* Two devices writing 1 MiB a second, one sample a second. */
static int two_next(struct source *src, struct snapshot *out)
{
	int *step = src->impl;
	int k = (*step)++;
	if (k >= 3)
		return 1;
	if (snapshot_reserve(out, 2) < 0)
		return -ENOMEM;
	out->ndev = 2;
	out->mono_ns = (uint64_t)(k + 1) * 1000000000u;
	out->wall_ns = 1714550400000000000LL + k * 1000000000LL;
	for (uint32_t i = 0; i < 2; i++) {
		struct dev_counters *d = &out->dev[i];
		memset(d, 0, sizeof *d);
		d->major = 8;
		d->minor = 16 * i;
		d->nfields = 17;
		snprintf(d->name, sizeof d->name, "sd%c", 'a' + (int)i);
		d->f[DS_WR_IOS] = (uint64_t)k * 256;
		d->f[DS_WR_SECT] = (uint64_t)k * 2048;
	}
	return 0;
}

static void two_close(struct source *src)
{
	(void)src;
}

static const struct source_ops two_ops = { .kind = "two", .next = two_next, .close = two_close };

/* What each frame of the source makes the sink write, frame by frame. */
static void run_sink(struct sink *(*make)(FILE *out), char out[3][16384])
{
	int step = 0;
	struct source src = { &two_ops, &step, "" };
	struct dip_params dp;
	detect_params_default(&dp);
	struct pipeline *p = pipeline_new(&src, &dp, PIPELINE_MARKS_RECORDED);
	ck_assert_ptr_nonnull(p);
	char *buf = NULL;
	size_t len = 0, had = 0;
	FILE *f = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(f);
	struct sink *s = make(f);
	ck_assert_ptr_nonnull(s);
	const struct frame *fr;
	for (int k = 0; k < 3; k++) {
		ck_assert_int_eq(pipeline_step(p, &fr), 0);
		ck_assert_int_eq(sink_frame(s, fr), 0);
		fflush(f);
		snprintf(out[k], 16384, "%.*s", (int)(len - had), buf + had);
		had = len;
	}
	ck_assert_int_eq(sink_close(s, NULL, 0), 0);
	fclose(f);
	free(buf);
	pipeline_free(p);
}

static struct sink *make_text(FILE *out)
{
	char err[128];
	return batch_sink_new(out, "the test", false, NULL, err, sizeof err);
}

static struct sink *make_json(FILE *out)
{
	return jsonl_sink_new(out, "the test");
}

static struct sink *make_om(FILE *out)
{
	return openmetrics_sink_new(out, "the test", NULL);
}

START_TEST(test_outputs_skip_the_baseline)
{
	static char out[3][16384];
	run_sink(make_text, out);
	ck_assert_str_eq(out[0], "");
	ck_assert_ptr_nonnull(strstr(out[1], "\nsda "));
	ck_assert_ptr_nonnull(strstr(out[2], "wareq-sz"));
	run_sink(make_json, out);
	ck_assert_str_eq(out[0], "");
	ck_assert_int_eq(strncmp(out[1], "{\"schema\":1,", 12), 0);
	ck_assert_ptr_nonnull(strstr(out[1], "\"wareq_kb\":4.000"));	/* 1024 KiB / 256 writes */
	ck_assert_ptr_eq(strchr(out[1], '\n'), out[1] + strlen(out[1]) - 1);	/* one line */
	/* counters need no baseline: OpenMetrics exports every frame */
	run_sink(make_om, out);
	for (int k = 0; k < 3; k++)
		ck_assert_msg(strlen(out[k]) > 6 && !strcmp(out[k] + strlen(out[k]) - 6, "# EOF\n"),
			      "frame %d", k);
	ck_assert_ptr_null(strstr(out[0], "wbtop_device_write_request_size_bytes{"));
	ck_assert_ptr_nonnull(strstr(out[1], "wbtop_device_write_request_size_bytes{device=\"sda\"} 4096\n"));
}
END_TEST

START_TEST(test_failed_write_names_the_output)
{
	FILE *full = fopen("/dev/full", "w");
	if (!full)
		return;	/* no /dev/full in this sandbox: nothing to test with */
	setvbuf(full, NULL, _IOFBF, 1 << 16);
	int step = 0;
	struct source src = { &two_ops, &step, "" };
	struct dip_params dp;
	detect_params_default(&dp);
	struct pipeline *p = pipeline_new(&src, &dp, PIPELINE_MARKS_RECORDED);
	struct sink *s = jsonl_sink_new(full, "/dev/full");
	const struct frame *f;
	ck_assert_int_eq(pipeline_step(p, &f), 0);
	ck_assert_int_eq(sink_frame(s, f), 0);	/* the baseline: nothing written */
	ck_assert_int_eq(pipeline_step(p, &f), 0);
	ck_assert_int_eq(sink_frame(s, f), -ENOSPC);
	ck_assert_str_eq(s->errmsg, "/dev/full: No space left on device");
	ck_assert_int_eq(sink_close(s, NULL, 0), 0);
	fclose(full);
	pipeline_free(p);
	/* no sink: nothing to do */
	ck_assert_int_eq(sink_frame(NULL, f), 0);
	ck_assert_int_eq(sink_event(NULL, NULL), 0);
	ck_assert_int_eq(sink_close(NULL, NULL, 0), 0);
}
END_TEST

Suite *sink_suite(void)
{
	Suite *s = suite_create("sink");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_outputs_skip_the_baseline);
	tcase_add_test(tc, test_failed_write_names_the_output);
	suite_add_tcase(s, tc);
	return s;
}
