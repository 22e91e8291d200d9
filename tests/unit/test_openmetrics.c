/*
 * test_openmetrics.c - the OpenMetrics writer: every figure in base units
 * and exact, counters as counters with _total, label escaping (quotes,
 * backslashes, newlines, invalid UTF-8), knobs that could not be read left
 * out, old 4-field partitions, both dialects, write errors, and the atomic
 * file replacement (content, mode, no temporary file left, error wording).
 */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/ident.h"
#include "sink/openmetrics.h"

/* A sample with three devices: a whole disk with an identity, a dm device
 * whose names need escaping, and an old-style partition without one. */
struct fixture {
	struct snapshot snap;
	struct dev_counters dev[3];
	struct dev_ident id_sda, id_dm;
	bool dips[3];
	struct frame frame;
};

static void fixture_init(struct fixture *x)
{
	memset(x, 0, sizeof *x);
	struct snapshot *s = &x->snap;
	s->wall_ns = 1700000000123456789LL;
	s->page_size = 4096;
	s->sys.dirty_kb = 1234;
	s->sys.writeback_kb = 5;
	s->sys.nr_dirty_pages = 308;
	s->sys.nr_writeback_pages = 1;
	s->sys.dirty_thresh_pages = 100000;
	s->sys.bg_thresh_pages = 50000;
	s->sys.nr_dirtied_pages = 999;
	s->sys.nr_written_pages = 888;
	int64_t knobs[SNAP_NKNOBS] = { 20, 10, 0, 0, 3000, 505, 43200 };
	memcpy(s->knob, knobs, sizeof knobs);

	x->id_sda.kname = (char *)"sda";
	x->id_sda.key = (char *)"wwid:naa.5000";
	x->id_sda.mounts = (char *)"/ /boot";
	x->id_dm.kname = (char *)"dm-0";
	x->id_dm.key = (char *)"dm:we\"ird\\vg";
	x->id_dm.dm_name = (char *)"we\"ird\\vg\nx";
	x->id_dm.mounts = (char *)"/mnt/caf\xc3\xa9/\xff";

	struct dev_counters *d = x->dev;
	d[0].major = 8, d[0].minor = 0, d[0].nfields = 17, d[0].ident = &x->id_sda;
	strcpy(d[0].name, "sda");
	for (int f = 0; f < DS_NFIELDS; f++)
		d[0].f[f] = 100 + (uint64_t)f;
	d[0].f[DS_WR_SECT] = 2048;
	d[0].f[DS_WR_MS] = 1234;
	d[0].f[DS_IO_MS] = 5;
	d[1].major = 253, d[1].minor = 0, d[1].nfields = 11, d[1].ident = &x->id_dm;
	strcpy(d[1].name, "dm-0");
	d[1].f[DS_WR_SECT] = 1ULL << 60;	/* * 512 is past uint64_t */
	d[2].major = 8, d[2].minor = 1, d[2].nfields = 4;
	strcpy(d[2].name, "sda1");
	d[2].f[DS_RD_IOS] = 7, d[2].f[DS_RD_SECT] = 8, d[2].f[DS_WR_IOS] = 9, d[2].f[DS_WR_SECT] = 10;
	s->ndev = 3;
	s->cap_dev = 3;
	s->dev = d;

	x->dips[1] = true;
	x->frame.cur = s;
	x->frame.dev_dip = x->dips;
	x->frame.sys_dip = true;
}

/* Run the writer into a string (free it). */
static char *render(const struct frame *f, const struct om_options *o)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(out);
	ck_assert_int_eq(openmetrics_write(out, f, o), 0);
	fclose(out);
	return buf;
}

static bool has_line(const char *text, const char *line)
{
	size_t n = strlen(line);
	for (const char *p = text; (p = strstr(p, line)); p++)
		if ((p == text || p[-1] == '\n') && p[n] == '\n')
			return true;
	return false;
}

/* Lines that must be in the OpenMetrics exposition of the fixture. */
static const char *const om_present[] = {
	"wbtop_sample_timestamp_seconds 1700000000.123456789",
	"# TYPE wbtop_dirty_bytes gauge",
	"# UNIT wbtop_dirty_bytes bytes",
	"wbtop_dirty_bytes 1263616",				/* 1234 KiB */
	"wbtop_writeback_bytes 5120",
	"wbtop_nr_dirty_pages 308",
	"wbtop_nr_writeback_pages 1",
	"wbtop_dirty_threshold_bytes 409600000",		/* pages * 4096 */
	"wbtop_dirty_background_threshold_bytes 204800000",
	"# TYPE wbtop_dirtied_pages counter",
	"wbtop_dirtied_pages_total 999",
	"wbtop_written_pages_total 888",
	"wbtop_page_size_bytes 4096",
	"wbtop_write_dip 1",
	"wbtop_vm_dirty_ratio 20",
	"wbtop_vm_dirty_background_ratio 10",
	"wbtop_vm_dirty_bytes 0",
	"# UNIT wbtop_vm_dirty_expire_seconds seconds",
	"wbtop_vm_dirty_expire_seconds 30.00",		/* 3000 cs */
	"wbtop_vm_dirty_writeback_seconds 5.05",
	"wbtop_vm_dirtytime_expire_seconds 43200",
	"# HELP wbtop_vm_dirty_ratio vm.dirty_ratio (percent): hard limit: writers are throttled above this share of available memory",
	"# TYPE wbtop_device_written_bytes counter",
	"# UNIT wbtop_device_written_bytes bytes",
	"wbtop_device_written_bytes_total{device=\"sda\",key=\"wwid:naa.5000\",mounts=\"/ /boot\"} 1048576",
	"wbtop_device_write_time_seconds_total{device=\"sda\",key=\"wwid:naa.5000\",mounts=\"/ /boot\"} 1.234",
	"wbtop_device_io_time_seconds_total{device=\"sda\",key=\"wwid:naa.5000\",mounts=\"/ /boot\"} 0.005",
	"wbtop_device_ios_in_flight{device=\"sda\",key=\"wwid:naa.5000\",mounts=\"/ /boot\"} 108",
	"wbtop_device_flushes_completed_total{device=\"sda\",key=\"wwid:naa.5000\",mounts=\"/ /boot\"} 115",
	"wbtop_device_written_bytes_total{device=\"dm-0\",key=\"dm:we\\\"ird\\\\vg\",dm_name=\"we\\\"ird\\\\vg\\nx\","
	"mounts=\"/mnt/caf\xc3\xa9/\xef\xbf\xbd\"} 5.9029581035870565e+20",
	"wbtop_device_reads_completed_total{device=\"sda1\"} 7",
	"wbtop_device_read_bytes_total{device=\"sda1\"} 4096",
	"wbtop_device_writes_completed_total{device=\"sda1\"} 9",
	"wbtop_device_written_bytes_total{device=\"sda1\"} 5120",
	"wbtop_device_write_dip{device=\"sda\",key=\"wwid:naa.5000\",mounts=\"/ /boot\"} 0",
	"wbtop_device_write_dip{device=\"sda1\"} 0",
};

/* Text that must not be anywhere in it. */
static const char *const om_absent[] = {
	"wbtop_device_reads_merged_total{device=\"sda1\"}",	/* 4-field line: no merges */
	"wbtop_device_discards_completed_total{device=\"dm-0\"",	/* 11 fields: no discards */
	"wbtop_device_flushes_completed_total{device=\"dm-0\"",
	"wbtop_device_written_bytes_total{device=\"sda\"} ",	/* identity labels not dropped */
	"dm_name=\"\"",						/* absent names are left out */
	"\n\n",							/* OpenMetrics has no blank lines */
	"# TYPE wbtop_device_written_bytes_total",		/* OpenMetrics names the family */
};

START_TEST(test_om_present)
{
	struct fixture x;
	fixture_init(&x);
	char *text = render(&x.frame, NULL);
	ck_assert_msg(has_line(text, om_present[_i]), "missing line: %s\n--- output:\n%s", om_present[_i], text);
	free(text);
}
END_TEST

START_TEST(test_om_absent)
{
	struct fixture x;
	fixture_init(&x);
	char *text = render(&x.frame, NULL);
	ck_assert_msg(!strstr(text, om_absent[_i]), "unexpected: %s", om_absent[_i]);
	free(text);
}
END_TEST

/* The dm device's dip mark is on its own line, with its escaped labels. */
START_TEST(test_om_device_dip)
{
	struct fixture x;
	fixture_init(&x);
	char *text = render(&x.frame, NULL);
	const char *p = strstr(text, "wbtop_device_write_dip{device=\"dm-0\"");
	ck_assert_ptr_nonnull(p);
	const char *nl = strchr(p, '\n');
	ck_assert(nl && nl - p > 2 && memcmp(nl - 2, " 1", 2) == 0);
	free(text);
}
END_TEST

/* Structure: one # EOF, last; metadata of a family before its samples and
 * once; no sample name outside its family; no double quote in HELP. */
START_TEST(test_om_structure)
{
	struct fixture x;
	fixture_init(&x);
	char *text = render(&x.frame, NULL);
	size_t len = strlen(text);
	ck_assert(len > 6 && strcmp(text + len - 6, "# EOF\n") == 0);
	ck_assert_ptr_eq(strstr(text, "# EOF"), text + len - 6);
	char family[128] = "";
	char *save = NULL;
	int ntype = 0;
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char name[128];
		if (sscanf(line, "# TYPE %127s", name) == 1) {
			ck_assert_msg(strcmp(name, family) != 0, "TYPE twice: %s", name);
			snprintf(family, sizeof family, "%s", name);
			ntype++;
		} else if (strncmp(line, "# HELP ", 7) == 0) {
			ck_assert_msg(!strchr(line, '"'), "double quote in HELP: %s", line);
		} else if (line[0] != '#') {
			size_t n = strlen(family);
			ck_assert_msg(strncmp(line, family, n) == 0 &&
				      (line[n] == ' ' || line[n] == '{' || strncmp(line + n, "_total", 6) == 0),
				      "sample outside its family %s: %s", family, line);
		}
	}
	ck_assert_int_ge(ntype, 20);
	free(text);
}
END_TEST

START_TEST(test_om_unreadable_knob_left_out)
{
	struct fixture x;
	fixture_init(&x);
	x.snap.knob[KNOB_DIRTY_BYTES] = -1;
	char *text = render(&x.frame, NULL);
	ck_assert_ptr_null(strstr(text, "wbtop_vm_dirty_bytes"));
	ck_assert(has_line(text, "wbtop_vm_dirty_background_bytes 0"));
	free(text);
}
END_TEST

/* The first sample of a run: no previous one, no dip marks yet. */
START_TEST(test_om_first_sample)
{
	struct fixture x;
	fixture_init(&x);
	x.frame.dev_dip = NULL;
	x.frame.sys_dip = false;
	x.frame.prev = NULL;
	char *text = render(&x.frame, NULL);
	ck_assert(has_line(text, "wbtop_write_dip 0"));
	ck_assert(has_line(text, "wbtop_device_write_dip{device=\"sda1\"} 0"));
	ck_assert(has_line(text, "wbtop_device_written_bytes_total{device=\"sda1\"} 5120"));
	free(text);
}
END_TEST

static bool keep_sda1(const struct dev_counters *d, const void *arg)
{
	return strcmp(d->name, arg) == 0;
}

START_TEST(test_om_keep_dev)
{
	struct fixture x;
	fixture_init(&x);
	struct om_options o = { .dialect = OM_DIALECT_OPENMETRICS, .keep_dev = keep_sda1, .keep_arg = "sda1" };
	char *text = render(&x.frame, &o);
	ck_assert(has_line(text, "wbtop_device_written_bytes_total{device=\"sda1\"} 5120"));
	ck_assert_ptr_null(strstr(text, "device=\"sda\""));
	ck_assert_ptr_null(strstr(text, "device=\"dm-0\""));
	free(text);
}
END_TEST

/* Prometheus 0.0.4: counter families named with _total, no UNIT, no EOF. */
START_TEST(test_om_prometheus_dialect)
{
	struct fixture x;
	fixture_init(&x);
	struct om_options o = { .dialect = OM_DIALECT_PROMETHEUS };
	char *text = render(&x.frame, &o);
	ck_assert(has_line(text, "# TYPE wbtop_device_written_bytes_total counter"));
	ck_assert(has_line(text, "# TYPE wbtop_dirtied_pages_total counter"));
	ck_assert(has_line(text, "# TYPE wbtop_dirty_bytes gauge"));
	ck_assert(has_line(text, "wbtop_dirtied_pages_total 999"));
	ck_assert_ptr_null(strstr(text, "# UNIT"));
	ck_assert_ptr_null(strstr(text, "# EOF"));
	free(text);
}
END_TEST

/* The exporter writes each sample once: the 0.0.4 text it makes from the OpenMetrics one is
 * byte for byte what the writer gives in that dialect (the fixture's counters, gauges with
 * units, knobs, devices and a help text with a double quote). */
START_TEST(test_om_to_prometheus)
{
	struct fixture x;
	fixture_init(&x);
	struct om_options om = { .dialect = OM_DIALECT_OPENMETRICS }, prom = { .dialect = OM_DIALECT_PROMETHEUS };
	char *a = render(&x.frame, &om), *want = render(&x.frame, &prom), *got = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&got, &len);
	ck_assert_ptr_nonnull(out);
	ck_assert_int_eq(openmetrics_to_prometheus(a, strlen(a), out), 0);
	fclose(out);
	ck_assert_str_eq(got, want);
	free(a);
	free(want);
	free(got);
}
END_TEST

static const struct {
	const char *in, *out;
} label_cases[] = {
	{ "plain", "plain" },
	{ "", "" },
	{ "a\"b", "a\\\"b" },
	{ "a\\b", "a\\\\b" },
	{ "a\nb", "a\\nb" },
	{ "tab\there", "tab\there" },			/* allowed as is */
	{ "caf\xc3\xa9", "caf\xc3\xa9" },			/* valid 2-byte */
	{ "\xf0\x9f\x98\x80", "\xf0\x9f\x98\x80" },	/* valid 4-byte */
	{ "x\xff", "x\xef\xbf\xbd" },			/* stray byte */
	{ "\xc3", "\xef\xbf\xbd" },			/* truncated at the end */
	{ "\xc3(", "\xef\xbf\xbd(" },			/* bad continuation */
	{ "\xc0\xaf", "\xef\xbf\xbd\xef\xbf\xbd" },	/* overlong '/' */
	{ "\xed\xa0\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd" },	/* surrogate */
	{ "\xf4\x90\x80\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd" },	/* > U+10FFFF */
};

START_TEST(test_om_label_escape)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	openmetrics_put_label_value(out, label_cases[_i].in);
	fclose(out);
	ck_assert_str_eq(buf, label_cases[_i].out);
	free(buf);
}
END_TEST

START_TEST(test_om_write_error)
{
	struct fixture x;
	fixture_init(&x);
	FILE *full = fopen("/dev/full", "w");
	if (!full)
		return;		/* no /dev/full in this sandbox */
	ck_assert_int_eq(openmetrics_write_sample(full, &x.frame), -ENOSPC);
	fclose(full);
}
END_TEST

static int count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	ck_assert_ptr_nonnull(d);
	int n = 0;
	struct dirent *e;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			n++;
	closedir(d);
	return n;
}

START_TEST(test_om_file_atomic)
{
	struct fixture x;
	fixture_init(&x);
	char dir[] = "/tmp/wbtop-om-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	char path[256], err[512] = "";
	snprintf(path, sizeof path, "%s/wbtop.prom", dir);
	mode_t old = umask(022);
	ck_assert_int_eq(openmetrics_write_file_atomic(path, &x.frame, err, sizeof err), 0);
	x.snap.sys.dirty_kb = 1;	/* a second write replaces the first */
	ck_assert_int_eq(openmetrics_write_file_atomic(path, &x.frame, err, sizeof err), 0);
	umask(old);

	struct stat st;
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_int_eq(st.st_mode & 0777, 0644);
	ck_assert_int_eq(count_entries(dir), 1);	/* no temporary file left */
	FILE *in = fopen(path, "r");
	ck_assert_ptr_nonnull(in);
	char *got = calloc(1, (size_t)st.st_size + 1);
	ck_assert_uint_eq(fread(got, 1, (size_t)st.st_size, in), (size_t)st.st_size);
	fclose(in);
	char *want = render(&x.frame, NULL);
	ck_assert_str_eq(got, want);
	ck_assert(has_line(got, "wbtop_dirty_bytes 1024"));
	free(got);
	free(want);
	unlink(path);
	rmdir(dir);
}
END_TEST

START_TEST(test_om_file_errors)
{
	struct fixture x;
	fixture_init(&x);
	char dir[] = "/tmp/wbtop-om-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	char path[256], err[512] = "";

	snprintf(path, sizeof path, "%s/missing/wbtop.prom", dir);
	ck_assert_int_eq(openmetrics_write_file_atomic(path, &x.frame, err, sizeof err), -ENOENT);
	ck_assert_msg(strncmp(err, path, strlen(path)) == 0 && strstr(err, ": No such file"), "err: %s", err);

	/* the target is a directory: rename fails, the temporary file goes */
	snprintf(path, sizeof path, "%s/adir", dir);
	ck_assert_int_eq(mkdir(path, 0755), 0);
	ck_assert_int_lt(openmetrics_write_file_atomic(path, &x.frame, err, sizeof err), 0);
	ck_assert_msg(strncmp(err, path, strlen(path)) == 0, "err: %s", err);
	ck_assert_int_eq(count_entries(dir), 1);
	rmdir(path);
	rmdir(dir);
}
END_TEST

/* A symlink keeps pointing at the replaced file; a device is written to. */
START_TEST(test_om_file_symlink_and_device)
{
	struct fixture x;
	fixture_init(&x);
	char dir[] = "/tmp/wbtop-om-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	char target[256], link[256], err[512] = "";
	snprintf(target, sizeof target, "%s/real.prom", dir);
	snprintf(link, sizeof link, "%s/link.prom", dir);
	ck_assert_int_eq(symlink("real.prom", link), 0);
	ck_assert_int_eq(openmetrics_write_file_atomic(link, &x.frame, err, sizeof err), 0);
	struct stat st;
	ck_assert_int_eq(lstat(link, &st), 0);
	ck_assert(S_ISLNK(st.st_mode));
	ck_assert_int_eq(stat(target, &st), 0);
	ck_assert(S_ISREG(st.st_mode) && st.st_size > 1000);
	ck_assert_int_eq(count_entries(dir), 2);

	ck_assert_int_eq(openmetrics_write_file_atomic("/dev/null", &x.frame, err, sizeof err), 0);
	ck_assert_int_eq(stat("/dev/null", &st), 0);
	ck_assert(S_ISCHR(st.st_mode));
	unlink(link);
	unlink(target);
	rmdir(dir);
}
END_TEST

Suite *openmetrics_suite(void)
{
	Suite *s = suite_create("openmetrics");
	TCase *tc = tcase_create("core");
	tcase_add_loop_test(tc, test_om_present, 0, (int)(sizeof om_present / sizeof om_present[0]));
	tcase_add_loop_test(tc, test_om_absent, 0, (int)(sizeof om_absent / sizeof om_absent[0]));
	tcase_add_test(tc, test_om_device_dip);
	tcase_add_test(tc, test_om_structure);
	tcase_add_test(tc, test_om_unreadable_knob_left_out);
	tcase_add_test(tc, test_om_first_sample);
	tcase_add_test(tc, test_om_keep_dev);
	tcase_add_test(tc, test_om_prometheus_dialect);
	tcase_add_loop_test(tc, test_om_label_escape, 0, (int)(sizeof label_cases / sizeof label_cases[0]));
	tcase_add_test(tc, test_om_write_error);
	tcase_add_test(tc, test_om_to_prometheus);
	tcase_add_test(tc, test_om_file_atomic);
	tcase_add_test(tc, test_om_file_errors);
	tcase_add_test(tc, test_om_file_symlink_and_device);
	suite_add_tcase(s, tc);
	return s;
}
