/*
 * test_annotate.c - `wbtop --annotate`: vmstat and iostat logs with and without headers,
 * repeated headers, avg-cpu blocks, grepped device lines, old and new column layouts; byte-exact
 * output with marks stripped and added; since-boot reports; one clear error per bad input.
 *
 * Each case is written as the expected output; the input is the same text without " <<<<<".
 */
#include <check.h>
#include <fcntl.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run/annotate.h"

Suite *annotate_suite(void);

struct annotate_test_result {
	int rc;
	char *out, *err;
};

/* Run annotate_stream over text (len bytes) with default params. */
static struct annotate_test_result annotate_test_run(const char *text, size_t len)
{
	struct annotate_test_result r = {0, NULL, NULL};
	size_t out_len, err_len;
	char *copy = malloc(len + 1);
	ck_assert_ptr_nonnull(copy);
	memcpy(copy, text, len);
	FILE *in = len ? fmemopen(copy, len, "r") : fopen("/dev/null", "r");
	FILE *out = open_memstream(&r.out, &out_len);
	FILE *err = open_memstream(&r.err, &err_len);
	ck_assert(in && out && err);
	struct dip_params p;
	detect_params_default(&p);
	r.rc = annotate_stream(in, "log", out, err, &p);
	fclose(in);
	fclose(out);
	fclose(err);
	free(copy);
	return r;
}

static void annotate_test_free(struct annotate_test_result *r)
{
	free(r->out);
	free(r->err);
}

/* The input for an expected output: every " <<<<<" removed. */
static char *annotate_test_unmark(const char *expected)
{
	char *in = strdup(expected), *m;
	ck_assert_ptr_nonnull(in);
	while ((m = strstr(in, " <<<<<")))
		memmove(m, m + 6, strlen(m + 6) + 1);
	return in;
}

/* Annotating expected-without-marks must give expected, byte for byte, and succeed. */
static void annotate_test_expect(const char *expected)
{
	char *in = annotate_test_unmark(expected);
	struct annotate_test_result r = annotate_test_run(in, strlen(in));
	ck_assert_msg(r.rc == 0, "rc %d: %s", r.rc, r.err);
	ck_assert_str_eq(r.out, expected);
	ck_assert_str_eq(r.err, "");
	annotate_test_free(&r);
	free(in);
}

/* The start of the 2.6.18 vmstat trace, hand marks included. */
static const char annotate_seed_vmstat[] =
		"$ vmstat 5\n"
		"procs -----------memory---------- ---swap-- -----io---- -system-- ----cpu----\n"
		"r b swpd free buff cache si so bi bo in cs us sy id wa\n"
		"2 4 0 1807512 200 14052784 0 0 4 1638 76 41 0 1 99 0\n"
		"7 2 0 91300 40 15726136 0 0 6 750452 2060 7153 1 53 13 33\n"
		"3 3 0 89144 40 15719372 0 0 0 765470 2028 8306 0 57 16 27\n"
		"3 3 0 90620 40 15737432 0 0 8 734020 2231 8449 1 55 16 28\n"
		"1 4 0 93400 40 15732968 0 0 0 754329 2200 8208 0 55 15 30\n"
		"1 4 0 94684 24 15737896 0 0 5 743548 2227 8862 1 56 14 29\n"
		"2 1 0 87684 8 15828324 0 0 0 669015 2071 8571 0 46 27 27 <<<<<\n"
		"3 3 0 91028 8 15735904 0 0 2 754430 2099 8252 1 46 30 24\n"
		"2 4 0 89868 8 15778236 0 0 0 707134 2174 9668 0 47 24 29\n"
		"procs -----------memory---------- ---swap-- -----io---- -system-- ----cpu----\n"
		"r b swpd free buff cache si so bi bo in cs us sy id wa\n"
		"2 8 0 88980 8 15740856 0 0 0 762258 2275 7690 1 54 15 30\n"
		"3 7 0 92736 8 15734196 0 0 5 747985 2248 7365 0 56 17 26\n"
		"3 5 0 87772 8 15829824 0 0 4 650377 2404 18220 0 49 16 35 <<<<<\n";

START_TEST(test_vmstat_seed_excerpt)
{
	annotate_test_expect(annotate_seed_vmstat);
}
END_TEST

/* Marks already present are stripped (with the blanks before them); the rest of every line,
 * CRLF endings and a last line without a newline are kept. */
START_TEST(test_marks_stripped_bytes_kept)
{
	static const char in[] =
		"r b swpd free buff cache si so bi bo in cs us sy id wa\r\n"
		"1 0 0 9 9 9 0 0 0 1000 1 1 1 1 97 1 <<<<<\r\n"
		"1 0 0 9 9 9 0 0 0 1010 1 1 1 1 97 1\t<<<\r\n"
		"1 0 0 9 9 9 0 0 0 1000 1 1 1 1 97 1   \r\n"
		"1  0 0 9 9 9 0 0 0 990 1 1 1 1 97 1\r\n"
		"1 0 0 9 9 9 0 0 0 1000 1 1 1 1 97 1\r\n"
		"1 0 0 9 9 9 0 0 0 600 1 1 1 1 97 1 <<<<<<<<<<";
	static const char want[] =
		"r b swpd free buff cache si so bi bo in cs us sy id wa\r\n"
		"1 0 0 9 9 9 0 0 0 1000 1 1 1 1 97 1\r\n"
		"1 0 0 9 9 9 0 0 0 1010 1 1 1 1 97 1\r\n"
		"1 0 0 9 9 9 0 0 0 1000 1 1 1 1 97 1   \r\n"
		"1  0 0 9 9 9 0 0 0 990 1 1 1 1 97 1\r\n"
		"1 0 0 9 9 9 0 0 0 1000 1 1 1 1 97 1\r\n"
		"1 0 0 9 9 9 0 0 0 600 1 1 1 1 97 1 <<<<<";
	struct annotate_test_result r = annotate_test_run(in, sizeof in - 1);
	ck_assert_int_eq(r.rc, 0);
	ck_assert_str_eq(r.out, want);
	annotate_test_free(&r);
}
END_TEST

/* The first sample of each run is the since-boot average: never judged, never a baseline.
 * Without headers the vmstat layout is the standard one (bo is the 10th column). */
START_TEST(test_vmstat_headerless_and_new_run)
{
	annotate_test_expect(
		" 1  0      0 812344  51200 912344    0    0    12 99999  210  340  2  3 94  1  0  0\n"
		" 2  1      0 801220  51200 921002    0    0     0 24410 1210 2340  1  9 70 20  0  0\n"
		" 2  1      0 799104  51200 923448    0    0     0 24102 1190 2301  1  9 71 19  0  0\n"
		" 1  1      0 797340  51200 925100    0    0     0 23890 1201 2298  1  8 71 20  0  0\n"
		" 1  1      0 796002  51200 926730    0    0     0 24655 1222 2355  1  9 70 20  0  0\n"
		" 1  1      0 796002  51200 926730    0    0     0 24255 1222 2355  1  9 70 20  0  0\n"
		" 0  1      0 795888  51200 926901    0    0     0 12004  310  402  0  1 79 20  0  0 <<<<<\n"
		"$ vmstat 1\n"
		" 1  0      0 812344  51200 912344    0    0    12   400  210  340  2  3 94  1  0  0\n");
}
END_TEST

/* The interval on the command line tells the detector how long a pacing tick is: at
 * `vmstat 1` a writer held to 40 MiB/s whose one tick (and a little) landed a second late
 * (35226, then 46694 KiB/s) is not dipping; with no interval given, or at `vmstat 5` (a tick is
 * a fiftieth of the level there), that fall of 14 % is a dip. */
static char *annotate_test_paced_log(const char *command)
{
	static const int bo[] = {40960, 40960, 40960, 40960, 40960, 40960, 40960, 40960, 35226,
				 46694, 40960, 40960};
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	ck_assert_ptr_nonnull(f);
	fprintf(f, "%s\n", command);
	for (size_t i = 0; i < sizeof bo / sizeof bo[0]; i++)
		fprintf(f, " 1  1      0 796002  51200 926730    0    0     0 %5d 1222 2355  1  9 70 20"
			   "  0  0\n", bo[i]);
	fclose(f);
	return text;
}

START_TEST(test_command_interval_sets_the_tick)
{
	static const struct { const char *command; bool marked; } cases[] = {
		{"$ vmstat 1", false}, {"$ vmstat -n 1 60", false}, {"$ vmstat", true},
		{"$ vmstat 5", true}, {"$ vmstat | tee 1", true},
	};
	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		char *in = annotate_test_paced_log(cases[c].command);
		struct annotate_test_result r = annotate_test_run(in, strlen(in));
		ck_assert_int_eq(r.rc, 0);
		const char *line = strstr(r.out, " 35226 ");
		ck_assert_ptr_nonnull(line);
		bool marked = strstr(line, "<<<<<") && strstr(line, "<<<<<") < strchr(line, '\n');
		ck_assert_msg(marked == cases[c].marked, "%s: the late tick %s", cases[c].command,
			      marked ? "marked" : "not marked");
		annotate_test_free(&r);
		free(in);
	}
}
END_TEST

/* vmstat -t: a timestamp after the numbers, a time zone name in the header. */
START_TEST(test_vmstat_timestamps)
{
	annotate_test_expect(
		"procs -----------memory---------- ---swap-- -----io---- -system-- -------cpu------- "
		"-----timestamp-----\n"
		" r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa st gu"
		"                 UTC\n"
		" 1  0 0 812344 51200 912344 0 0 12  4051 210 340 2 3 94 1 0 0 2024-01-02 10:00:00\n"
		" 2  1 0 801220 51200 921002 0 0 0  24410 1210 2340 1 9 70 20 0 0 2024-01-02 10:00:01\n"
		" 2  1 0 799104 51200 923448 0 0 0  24102 1190 2301 1 9 71 19 0 0 2024-01-02 10:00:02\n"
		" 1  1 0 797340 51200 925100 0 0 0  23890 1201 2298 1 8 71 20 0 0 2024-01-02 10:00:03\n"
		" 1  1 0 797340 51200 925100 0 0 0  24190 1201 2298 1 8 71 20 0 0 2024-01-02 10:00:04\n"
		" 1  1 0 797340 51200 925100 0 0 0  14190 1201 2298 1 8 71 20 0 0 2024-01-02 10:00:05 "
		"<<<<<\n");
}
END_TEST

/* `iostat 5 | grep dm-` (the 2.6.18 trace): an interval starts at the first device; all its
 * lines are marked when it dips; the since-boot report is not judged. */
static const char annotate_seed_iostat[] =
		"$ iostat 5 |grep dm-\n"
		"dm-0 226.47 3.28 6213.88 11668 22084021\n"
		"dm-1 216.82 3.29 5681.85 11692 20193189\n"
		"dm-2 230.18 3.29 5762.51 11692 20479829\n"
		"dm-0 31150.80 0.00 498411.24 0 2482088\n"
		"dm-1 29964.66 0.00 479434.54 0 2387584\n"
		"dm-2 32157.23 0.00 514515.66 0 2562288\n"
		"dm-0 31355.53 0.00 501688.53 0 2493392\n"
		"dm-1 30267.40 0.00 484276.86 0 2406856\n"
		"dm-2 32690.14 0.00 523042.25 0 2599520\n"
		"dm-0 30640.85 0.00 490329.18 0 2436936\n"
		"dm-1 31119.32 0.00 497986.32 0 2474992\n"
		"dm-2 31146.88 0.00 498401.61 0 2477056\n"
		"dm-0 11263.65 0.00 361658.43 0 1801059 <<<<<\n"
		"dm-1 23827.51 0.00 543884.94 0 2708547 <<<<<\n"
		"dm-2 15443.37 0.00 376792.57 0 1876427 <<<<<\n"
		"dm-0 24433.06 0.00 488340.73 0 2422170\n"
		"dm-1 30285.08 0.00 542182.26 0 2689224\n"
		"dm-2 14798.59 0.00 469650.00 0 2329464\n"
		/* hand-marked (dm-2 12 % below its level): its 26 % fall two intervals before, past
		 * the cap, is a dip and no part of its noise, so --dip judges this one */
		"dm-0 23780.96 0.00 566244.49 0 2825560 <<<<<\n"
		"dm-1 31165.93 0.00 560659.12 0 2797689 <<<<<\n"
		"dm-2 12451.50 0.00 440997.60 0 2200578 <<<<<\n";

START_TEST(test_iostat_grepped_seed_excerpt)
{
	annotate_test_expect(annotate_seed_iostat);
}
END_TEST

/* A full sysstat 12 log: banner, avg-cpu blocks, kB_wrtn/s with discard columns, an idle disk.
 * Only device lines are marked. */
#define ANNOTATE_TEST_CPU                                                                      \
	"avg-cpu:  %user   %nice %system %iowait  %steal   %idle\n"                          \
	"           0.50    0.00    2.00   20.00    0.00   77.50\n\n"
#define ANNOTATE_TEST_HDR                                                                      \
	"Device             tps    kB_read/s    kB_wrtn/s    kB_dscd/s    kB_read    kB_wrtn" \
	"    kB_dscd\n"
#define ANNOTATE_TEST_REPORT(sdb, mark)                                                        \
	ANNOTATE_TEST_CPU ANNOTATE_TEST_HDR                                                    \
	"sda               1.00         0.00        12.00         0.00          0         12" \
	"          0" mark "\n"                                                                \
	"sdb             190.00         0.00     " sdb "         0.00          0      24000" \
	"          0" mark "\n\n"

START_TEST(test_iostat_full_new_layout)
{
	annotate_test_expect(
		"Linux 6.1.0-18-amd64 (host) \t01/02/2024 \t_x86_64_\t(4 CPU)\n\n"
		ANNOTATE_TEST_REPORT("99000.00", "") ANNOTATE_TEST_REPORT("24010.00", "")
		ANNOTATE_TEST_REPORT("24500.00", "") ANNOTATE_TEST_REPORT("23880.00", "")
		ANNOTATE_TEST_REPORT("24210.00", "") ANNOTATE_TEST_REPORT("18000.00", " <<<<<")
		ANNOTATE_TEST_REPORT("24400.00", ""));
}
END_TEST

/* iostat -x (wkB/s) and the old Blk_wrtn/s layout with "Device:" headers. */
START_TEST(test_iostat_x_and_old_layouts)
{
	annotate_test_expect(
		"Device            r/s     rkB/s   w/s     wkB/s  %util\n"
		"nvme0n1          0.10      2.00  5.00    300.00   0.20\n\n"
		"Device            r/s     rkB/s   w/s     wkB/s  %util\n"
		"nvme0n1          0.00      0.00  200.00  25100.00 40.00\n\n"
		"Device            r/s     rkB/s   w/s     wkB/s  %util\n"
		"nvme0n1          0.00      0.00  200.00  24800.00 40.00\n\n"
		"Device            r/s     rkB/s   w/s     wkB/s  %util\n"
		"nvme0n1          0.00      0.00  200.00  25300.00 40.00\n\n"
		"Device            r/s     rkB/s   w/s     wkB/s  %util\n"
		"nvme0n1          0.00      0.00  200.00  24900.00 40.00\n\n"
		"Device            r/s     rkB/s   w/s     wkB/s  %util\n"
		"nvme0n1          0.00      0.00  200.00  12000.00 40.00 <<<<<\n\n");
	annotate_test_expect(
		"Device:            tps   Blk_read/s   Blk_wrtn/s   Blk_read   Blk_wrtn\n"
		"sda              12.00        80.00      1200.00     100000    2000000\n\n"
		"Device:            tps   Blk_read/s   Blk_wrtn/s   Blk_read   Blk_wrtn\n"
		"sda             700.00         0.00     98000,00          0      98000\n\n"
		"Device:            tps   Blk_read/s   Blk_wrtn/s   Blk_read   Blk_wrtn\n"
		"sda             700.00         0.00     99500.00          0      99500\n\n"
		"Device:            tps   Blk_read/s   Blk_wrtn/s   Blk_read   Blk_wrtn\n"
		"sda             700.00         0.00     97800.00          0      97800\n\n"
		"Device:            tps   Blk_read/s   Blk_wrtn/s   Blk_read   Blk_wrtn\n"
		"sda             700.00         0.00     98800.00          0      98800\n\n"
		"Device:            tps   Blk_read/s   Blk_wrtn/s   Blk_read   Blk_wrtn\n"
		"sda             700.00         0.00     60000.00          0      60000 <<<<<\n\n");
}
END_TEST

/* iostat -x device lines without a header (iostat -dx 1 | grep loop1), known by their number
 * of values.  The 22-value ones are real output of sysstat 12.6.1 on a loop device written at
 * 8 MiB/s (O_DIRECT, pv -L) slowed to 1 MiB/s for 1.5 s: iostat -dx, -dxk and -dxm run side by
 * side.  The older layouts carry the same figures in the columns and order of their sysstat
 * (this sysstat always prints discard and flush): 20 (no flush), 14 (neither), 15 (sysstat
 * 12.0) and 13 (sysstat 11; avgrq-sz in sectors).  Every layout and unit marks the same two
 * reports: -m's MB/s are read as such, not as KiB/s below the idle floor. */
static const char annotate_test_io_dx[] =
	"loop1            1.57     21.98     0.00   0.04    1.84    14.01   78.17  32245.60     3.25   3.99   15.96   412.49    0.02  13887.86     0.00   0.00    0.03 655770.93    0.39    1.79    1.25  11.43\n"
	"loop1            0.00      0.00     0.00   0.00    0.00     0.00  128.00   8192.00     0.00   0.00    0.05    64.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00    0.00    0.01   0.40\n"
	"loop1            0.00      0.00     0.00   0.00    0.00     0.00  128.00   8192.00     0.00   0.00    0.06    64.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00    0.00    0.01   1.20\n"
	"loop1            0.00      0.00     0.00   0.00    0.00     0.00  128.00   8192.00     0.00   0.00    0.07    64.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00    0.00    0.01   0.00\n"
	"loop1            0.00      0.00     0.00   0.00    0.00     0.00  128.00   8192.00     0.00   0.00    0.05    64.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00    0.00    0.01   0.40\n"
	"loop1            0.00      0.00     0.00   0.00    0.00     0.00  130.00   8205.00    11.00   7.80    0.06    63.12    0.00      0.00     0.00   0.00    0.00     0.00    2.00    0.50    0.01   0.00\n"
	"loop1           13.00     68.00     0.00   0.00    0.08     5.23  128.00   8192.00     0.00   0.00    0.33    64.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00    0.00    0.04   4.80\n"
	"loop1            0.00      0.00     0.00   0.00    0.00     0.00   28.00   1051.00    16.00  36.36    0.18    37.54    0.00      0.00     0.00   0.00    0.00     0.00    3.00    0.00    0.01   0.80 <<<<<\n"
	"loop1            0.00      0.00     0.00   0.00    0.00     0.00   72.00   4608.00     0.00   0.00    0.11    64.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00    0.00    0.01   0.80 <<<<<\n"
	"loop1            0.00      0.00     0.00   0.00    0.00     0.00  128.00   8192.00     0.00   0.00    0.05    64.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00    0.00    0.01   0.40\n"
	"loop1            0.00      0.00     0.00   0.00    0.00     0.00  128.00   8192.00     0.00   0.00    0.06    64.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00    0.00    0.01   0.40\n"
	"loop1            0.00      0.00     0.00   0.00    0.00     0.00  128.00   8192.00     0.00   0.00    0.08    64.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00    0.00    0.01   0.80\n"
	;
static const char annotate_test_io_dxk[] =
	"loop1            1.57     21.98     0.00   0.04    1.84    14.01   78.17  32245.38     3.25   3.99   15.96   412.49    0.02  13887.76     0.00   0.00    0.03 655770.93    0.39    1.79    1.25  11.43\n"
	"loop1            0.00      0.00     0.00   0.00    0.00     0.00  128.00   8192.00     0.00   0.00    0.05    64.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00    0.00    0.01   0.40\n"
	"loop1            0.00      0.00     0.00   0.00    0.00     0.00  128.00   8192.00     0.00   0.00    0.06    64.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00    0.00    0.01   1.20\n"
	"loop1            0.00      0.00     0.00   0.00    0.00     0.00  128.00   8192.00     0.00   0.00    0.07    64.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00    0.00    0.01   0.00\n"
	"loop1            0.00      0.00     0.00   0.00    0.00     0.00  128.00   8192.00     0.00   0.00    0.05    64.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00    0.00    0.01   0.40\n"
	"loop1            0.00      0.00     0.00   0.00    0.00     0.00  130.00   8205.00    11.00   7.80    0.06    63.12    0.00      0.00     0.00   0.00    0.00     0.00    2.00    0.50    0.01   0.00\n"
	"loop1           13.00     68.00     0.00   0.00    0.08     5.23  128.00   8192.00     0.00   0.00    0.33    64.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00    0.00    0.04   4.80\n"
	"loop1            0.00      0.00     0.00   0.00    0.00     0.00   28.00   1051.00    16.00  36.36    0.18    37.54    0.00      0.00     0.00   0.00    0.00     0.00    3.00    0.00    0.01   0.80 <<<<<\n"
	"loop1            0.00      0.00     0.00   0.00    0.00     0.00   72.00   4608.00     0.00   0.00    0.11    64.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00    0.00    0.01   0.80 <<<<<\n"
	"loop1            0.00      0.00     0.00   0.00    0.00     0.00  128.00   8192.00     0.00   0.00    0.05    64.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00    0.00    0.01   0.40\n"
	"loop1            0.00      0.00     0.00   0.00    0.00     0.00  128.00   8192.00     0.00   0.00    0.06    64.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00    0.00    0.01   0.40\n"
	"loop1            0.00      0.00     0.00   0.00    0.00     0.00  128.00   8192.00     0.00   0.00    0.08    64.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00    0.00    0.01   0.80\n"
	;
static const char annotate_test_io_dxm[] =
	"loop1            1.57      0.02     0.00   0.04    1.84    14.01   78.17     31.49     3.25   3.99   15.96   412.49    0.02     13.56     0.00   0.00    0.03 655770.93    0.39    1.79    1.25  11.43\n"
	"loop1            0.00      0.00     0.00   0.00    0.00     0.00  128.00      8.00     0.00   0.00    0.05    64.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00    0.00    0.01   0.40\n"
	"loop1            0.00      0.00     0.00   0.00    0.00     0.00  128.00      8.00     0.00   0.00    0.06    64.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00    0.00    0.01   1.20\n"
	"loop1            0.00      0.00     0.00   0.00    0.00     0.00  128.00      8.00     0.00   0.00    0.07    64.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00    0.00    0.01   0.00\n"
	"loop1            0.00      0.00     0.00   0.00    0.00     0.00  128.00      8.00     0.00   0.00    0.05    64.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00    0.00    0.01   0.40\n"
	"loop1            0.00      0.00     0.00   0.00    0.00     0.00  128.71      7.93    10.89   7.80    0.06    63.12    0.00      0.00     0.00   0.00    0.00     0.00    1.98    0.50    0.01   0.00\n"
	"loop1           13.00      0.07     0.00   0.00    0.08     5.23  128.00      8.00     0.00   0.00    0.33    64.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00    0.00    0.04   4.80\n"
	"loop1            0.00      0.00     0.00   0.00    0.00     0.00   28.00      1.03    16.00  36.36    0.18    37.54    0.00      0.00     0.00   0.00    0.00     0.00    3.00    0.00    0.01   0.80 <<<<<\n"
	"loop1            0.00      0.00     0.00   0.00    0.00     0.00   72.00      4.50     0.00   0.00    0.11    64.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00    0.00    0.01   0.80 <<<<<\n"
	"loop1            0.00      0.00     0.00   0.00    0.00     0.00  128.00      8.00     0.00   0.00    0.05    64.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00    0.00    0.01   0.40\n"
	"loop1            0.00      0.00     0.00   0.00    0.00     0.00  128.00      8.00     0.00   0.00    0.06    64.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00    0.00    0.01   0.40\n"
	"loop1            0.00      0.00     0.00   0.00    0.00     0.00  128.00      8.00     0.00   0.00    0.08    64.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00    0.00    0.01   0.80\n"
	;
static const char annotate_test_io_20k[] =
	"loop1 1.57 21.98 0.00 0.04 1.84 14.01 78.17 32245.38 3.25 3.99 15.96 412.49 0.02 13887.76 0.00 0.00 0.03 655770.93 1.25 11.43\n"
	"loop1 0.00 0.00 0.00 0.00 0.00 0.00 128.00 8192.00 0.00 0.00 0.05 64.00 0.00 0.00 0.00 0.00 0.00 0.00 0.01 0.40\n"
	"loop1 0.00 0.00 0.00 0.00 0.00 0.00 128.00 8192.00 0.00 0.00 0.06 64.00 0.00 0.00 0.00 0.00 0.00 0.00 0.01 1.20\n"
	"loop1 0.00 0.00 0.00 0.00 0.00 0.00 128.00 8192.00 0.00 0.00 0.07 64.00 0.00 0.00 0.00 0.00 0.00 0.00 0.01 0.00\n"
	"loop1 0.00 0.00 0.00 0.00 0.00 0.00 128.00 8192.00 0.00 0.00 0.05 64.00 0.00 0.00 0.00 0.00 0.00 0.00 0.01 0.40\n"
	"loop1 0.00 0.00 0.00 0.00 0.00 0.00 130.00 8205.00 11.00 7.80 0.06 63.12 0.00 0.00 0.00 0.00 0.00 0.00 0.01 0.00\n"
	"loop1 13.00 68.00 0.00 0.00 0.08 5.23 128.00 8192.00 0.00 0.00 0.33 64.00 0.00 0.00 0.00 0.00 0.00 0.00 0.04 4.80\n"
	"loop1 0.00 0.00 0.00 0.00 0.00 0.00 28.00 1051.00 16.00 36.36 0.18 37.54 0.00 0.00 0.00 0.00 0.00 0.00 0.01 0.80 <<<<<\n"
	"loop1 0.00 0.00 0.00 0.00 0.00 0.00 72.00 4608.00 0.00 0.00 0.11 64.00 0.00 0.00 0.00 0.00 0.00 0.00 0.01 0.80 <<<<<\n"
	"loop1 0.00 0.00 0.00 0.00 0.00 0.00 128.00 8192.00 0.00 0.00 0.05 64.00 0.00 0.00 0.00 0.00 0.00 0.00 0.01 0.40\n"
	"loop1 0.00 0.00 0.00 0.00 0.00 0.00 128.00 8192.00 0.00 0.00 0.06 64.00 0.00 0.00 0.00 0.00 0.00 0.00 0.01 0.40\n"
	"loop1 0.00 0.00 0.00 0.00 0.00 0.00 128.00 8192.00 0.00 0.00 0.08 64.00 0.00 0.00 0.00 0.00 0.00 0.00 0.01 0.80\n"
	;
static const char annotate_test_io_20m[] =
	"loop1 1.57 0.02 0.00 0.04 1.84 14.01 78.17 31.49 3.25 3.99 15.96 412.49 0.02 13.56 0.00 0.00 0.03 655770.93 1.25 11.43\n"
	"loop1 0.00 0.00 0.00 0.00 0.00 0.00 128.00 8.00 0.00 0.00 0.05 64.00 0.00 0.00 0.00 0.00 0.00 0.00 0.01 0.40\n"
	"loop1 0.00 0.00 0.00 0.00 0.00 0.00 128.00 8.00 0.00 0.00 0.06 64.00 0.00 0.00 0.00 0.00 0.00 0.00 0.01 1.20\n"
	"loop1 0.00 0.00 0.00 0.00 0.00 0.00 128.00 8.00 0.00 0.00 0.07 64.00 0.00 0.00 0.00 0.00 0.00 0.00 0.01 0.00\n"
	"loop1 0.00 0.00 0.00 0.00 0.00 0.00 128.00 8.00 0.00 0.00 0.05 64.00 0.00 0.00 0.00 0.00 0.00 0.00 0.01 0.40\n"
	"loop1 0.00 0.00 0.00 0.00 0.00 0.00 128.71 7.93 10.89 7.80 0.06 63.12 0.00 0.00 0.00 0.00 0.00 0.00 0.01 0.00\n"
	"loop1 13.00 0.07 0.00 0.00 0.08 5.23 128.00 8.00 0.00 0.00 0.33 64.00 0.00 0.00 0.00 0.00 0.00 0.00 0.04 4.80\n"
	"loop1 0.00 0.00 0.00 0.00 0.00 0.00 28.00 1.03 16.00 36.36 0.18 37.54 0.00 0.00 0.00 0.00 0.00 0.00 0.01 0.80 <<<<<\n"
	"loop1 0.00 0.00 0.00 0.00 0.00 0.00 72.00 4.50 0.00 0.00 0.11 64.00 0.00 0.00 0.00 0.00 0.00 0.00 0.01 0.80 <<<<<\n"
	"loop1 0.00 0.00 0.00 0.00 0.00 0.00 128.00 8.00 0.00 0.00 0.05 64.00 0.00 0.00 0.00 0.00 0.00 0.00 0.01 0.40\n"
	"loop1 0.00 0.00 0.00 0.00 0.00 0.00 128.00 8.00 0.00 0.00 0.06 64.00 0.00 0.00 0.00 0.00 0.00 0.00 0.01 0.40\n"
	"loop1 0.00 0.00 0.00 0.00 0.00 0.00 128.00 8.00 0.00 0.00 0.08 64.00 0.00 0.00 0.00 0.00 0.00 0.00 0.01 0.80\n"
	;
static const char annotate_test_io_14k[] =
	"loop1 1.57 21.98 0.00 0.04 1.84 14.01 78.17 32245.38 3.25 3.99 15.96 412.49 1.25 11.43\n"
	"loop1 0.00 0.00 0.00 0.00 0.00 0.00 128.00 8192.00 0.00 0.00 0.05 64.00 0.01 0.40\n"
	"loop1 0.00 0.00 0.00 0.00 0.00 0.00 128.00 8192.00 0.00 0.00 0.06 64.00 0.01 1.20\n"
	"loop1 0.00 0.00 0.00 0.00 0.00 0.00 128.00 8192.00 0.00 0.00 0.07 64.00 0.01 0.00\n"
	"loop1 0.00 0.00 0.00 0.00 0.00 0.00 128.00 8192.00 0.00 0.00 0.05 64.00 0.01 0.40\n"
	"loop1 0.00 0.00 0.00 0.00 0.00 0.00 130.00 8205.00 11.00 7.80 0.06 63.12 0.01 0.00\n"
	"loop1 13.00 68.00 0.00 0.00 0.08 5.23 128.00 8192.00 0.00 0.00 0.33 64.00 0.04 4.80\n"
	"loop1 0.00 0.00 0.00 0.00 0.00 0.00 28.00 1051.00 16.00 36.36 0.18 37.54 0.01 0.80 <<<<<\n"
	"loop1 0.00 0.00 0.00 0.00 0.00 0.00 72.00 4608.00 0.00 0.00 0.11 64.00 0.01 0.80 <<<<<\n"
	"loop1 0.00 0.00 0.00 0.00 0.00 0.00 128.00 8192.00 0.00 0.00 0.05 64.00 0.01 0.40\n"
	"loop1 0.00 0.00 0.00 0.00 0.00 0.00 128.00 8192.00 0.00 0.00 0.06 64.00 0.01 0.40\n"
	"loop1 0.00 0.00 0.00 0.00 0.00 0.00 128.00 8192.00 0.00 0.00 0.08 64.00 0.01 0.80\n"
	;
static const char annotate_test_io_14m[] =
	"loop1 1.57 0.02 0.00 0.04 1.84 14.01 78.17 31.49 3.25 3.99 15.96 412.49 1.25 11.43\n"
	"loop1 0.00 0.00 0.00 0.00 0.00 0.00 128.00 8.00 0.00 0.00 0.05 64.00 0.01 0.40\n"
	"loop1 0.00 0.00 0.00 0.00 0.00 0.00 128.00 8.00 0.00 0.00 0.06 64.00 0.01 1.20\n"
	"loop1 0.00 0.00 0.00 0.00 0.00 0.00 128.00 8.00 0.00 0.00 0.07 64.00 0.01 0.00\n"
	"loop1 0.00 0.00 0.00 0.00 0.00 0.00 128.00 8.00 0.00 0.00 0.05 64.00 0.01 0.40\n"
	"loop1 0.00 0.00 0.00 0.00 0.00 0.00 128.71 7.93 10.89 7.80 0.06 63.12 0.01 0.00\n"
	"loop1 13.00 0.07 0.00 0.00 0.08 5.23 128.00 8.00 0.00 0.00 0.33 64.00 0.04 4.80\n"
	"loop1 0.00 0.00 0.00 0.00 0.00 0.00 28.00 1.03 16.00 36.36 0.18 37.54 0.01 0.80 <<<<<\n"
	"loop1 0.00 0.00 0.00 0.00 0.00 0.00 72.00 4.50 0.00 0.00 0.11 64.00 0.01 0.80 <<<<<\n"
	"loop1 0.00 0.00 0.00 0.00 0.00 0.00 128.00 8.00 0.00 0.00 0.05 64.00 0.01 0.40\n"
	"loop1 0.00 0.00 0.00 0.00 0.00 0.00 128.00 8.00 0.00 0.00 0.06 64.00 0.01 0.40\n"
	"loop1 0.00 0.00 0.00 0.00 0.00 0.00 128.00 8.00 0.00 0.00 0.08 64.00 0.01 0.80\n"
	;
static const char annotate_test_io_15k[] =
	"loop1 1.57 78.17 21.98 32245.38 0.00 3.25 0.04 3.99 1.84 15.96 1.25 14.01 412.49 0.00 11.43\n"
	"loop1 0.00 128.00 0.00 8192.00 0.00 0.00 0.00 0.00 0.00 0.05 0.01 0.00 64.00 0.00 0.40\n"
	"loop1 0.00 128.00 0.00 8192.00 0.00 0.00 0.00 0.00 0.00 0.06 0.01 0.00 64.00 0.00 1.20\n"
	"loop1 0.00 128.00 0.00 8192.00 0.00 0.00 0.00 0.00 0.00 0.07 0.01 0.00 64.00 0.00 0.00\n"
	"loop1 0.00 128.00 0.00 8192.00 0.00 0.00 0.00 0.00 0.00 0.05 0.01 0.00 64.00 0.00 0.40\n"
	"loop1 0.00 130.00 0.00 8205.00 0.00 11.00 0.00 7.80 0.00 0.06 0.01 0.00 63.12 0.00 0.00\n"
	"loop1 13.00 128.00 68.00 8192.00 0.00 0.00 0.00 0.00 0.08 0.33 0.04 5.23 64.00 0.00 4.80\n"
	"loop1 0.00 28.00 0.00 1051.00 0.00 16.00 0.00 36.36 0.00 0.18 0.01 0.00 37.54 0.00 0.80 <<<<<\n"
	"loop1 0.00 72.00 0.00 4608.00 0.00 0.00 0.00 0.00 0.00 0.11 0.01 0.00 64.00 0.00 0.80 <<<<<\n"
	"loop1 0.00 128.00 0.00 8192.00 0.00 0.00 0.00 0.00 0.00 0.05 0.01 0.00 64.00 0.00 0.40\n"
	"loop1 0.00 128.00 0.00 8192.00 0.00 0.00 0.00 0.00 0.00 0.06 0.01 0.00 64.00 0.00 0.40\n"
	"loop1 0.00 128.00 0.00 8192.00 0.00 0.00 0.00 0.00 0.00 0.08 0.01 0.00 64.00 0.00 0.80\n"
	;
static const char annotate_test_io_15m[] =
	"loop1 1.57 78.17 0.02 31.49 0.00 3.25 0.04 3.99 1.84 15.96 1.25 14.01 412.49 0.00 11.43\n"
	"loop1 0.00 128.00 0.00 8.00 0.00 0.00 0.00 0.00 0.00 0.05 0.01 0.00 64.00 0.00 0.40\n"
	"loop1 0.00 128.00 0.00 8.00 0.00 0.00 0.00 0.00 0.00 0.06 0.01 0.00 64.00 0.00 1.20\n"
	"loop1 0.00 128.00 0.00 8.00 0.00 0.00 0.00 0.00 0.00 0.07 0.01 0.00 64.00 0.00 0.00\n"
	"loop1 0.00 128.00 0.00 8.00 0.00 0.00 0.00 0.00 0.00 0.05 0.01 0.00 64.00 0.00 0.40\n"
	"loop1 0.00 128.71 0.00 7.93 0.00 10.89 0.00 7.80 0.00 0.06 0.01 0.00 63.12 0.00 0.00\n"
	"loop1 13.00 128.00 0.07 8.00 0.00 0.00 0.00 0.00 0.08 0.33 0.04 5.23 64.00 0.00 4.80\n"
	"loop1 0.00 28.00 0.00 1.03 0.00 16.00 0.00 36.36 0.00 0.18 0.01 0.00 37.54 0.00 0.80 <<<<<\n"
	"loop1 0.00 72.00 0.00 4.50 0.00 0.00 0.00 0.00 0.00 0.11 0.01 0.00 64.00 0.00 0.80 <<<<<\n"
	"loop1 0.00 128.00 0.00 8.00 0.00 0.00 0.00 0.00 0.00 0.05 0.01 0.00 64.00 0.00 0.40\n"
	"loop1 0.00 128.00 0.00 8.00 0.00 0.00 0.00 0.00 0.00 0.06 0.01 0.00 64.00 0.00 0.40\n"
	"loop1 0.00 128.00 0.00 8.00 0.00 0.00 0.00 0.00 0.00 0.08 0.01 0.00 64.00 0.00 0.80\n"
	;
static const char annotate_test_io_13k[] =
	"loop1 0.00 3.25 1.57 78.17 21.98 32245.38 809.29 1.25 15.68 1.84 15.96 0.00 11.43\n"
	"loop1 0.00 0.00 0.00 128.00 0.00 8192.00 128.00 0.01 0.05 0.00 0.05 0.00 0.40\n"
	"loop1 0.00 0.00 0.00 128.00 0.00 8192.00 128.00 0.01 0.06 0.00 0.06 0.00 1.20\n"
	"loop1 0.00 0.00 0.00 128.00 0.00 8192.00 128.00 0.01 0.07 0.00 0.07 0.00 0.00\n"
	"loop1 0.00 0.00 0.00 128.00 0.00 8192.00 128.00 0.01 0.05 0.00 0.05 0.00 0.40\n"
	"loop1 0.00 11.00 0.00 130.00 0.00 8205.00 126.24 0.01 0.06 0.00 0.06 0.00 0.00\n"
	"loop1 0.00 0.00 13.00 128.00 68.00 8192.00 117.16 0.04 0.31 0.08 0.33 0.00 4.80\n"
	"loop1 0.00 16.00 0.00 28.00 0.00 1051.00 75.08 0.01 0.18 0.00 0.18 0.00 0.80 <<<<<\n"
	"loop1 0.00 0.00 0.00 72.00 0.00 4608.00 128.00 0.01 0.11 0.00 0.11 0.00 0.80 <<<<<\n"
	"loop1 0.00 0.00 0.00 128.00 0.00 8192.00 128.00 0.01 0.05 0.00 0.05 0.00 0.40\n"
	"loop1 0.00 0.00 0.00 128.00 0.00 8192.00 128.00 0.01 0.06 0.00 0.06 0.00 0.40\n"
	"loop1 0.00 0.00 0.00 128.00 0.00 8192.00 128.00 0.01 0.08 0.00 0.08 0.00 0.80\n"
	;
static const char annotate_test_io_13m[] =
	"loop1 0.00 3.25 1.57 78.17 0.02 31.49 809.29 1.25 15.68 1.84 15.96 0.00 11.43\n"
	"loop1 0.00 0.00 0.00 128.00 0.00 8.00 128.00 0.01 0.05 0.00 0.05 0.00 0.40\n"
	"loop1 0.00 0.00 0.00 128.00 0.00 8.00 128.00 0.01 0.06 0.00 0.06 0.00 1.20\n"
	"loop1 0.00 0.00 0.00 128.00 0.00 8.00 128.00 0.01 0.07 0.00 0.07 0.00 0.00\n"
	"loop1 0.00 0.00 0.00 128.00 0.00 8.00 128.00 0.01 0.05 0.00 0.05 0.00 0.40\n"
	"loop1 0.00 10.89 0.00 128.71 0.00 7.93 126.24 0.01 0.06 0.00 0.06 0.00 0.00\n"
	"loop1 0.00 0.00 13.00 128.00 0.07 8.00 117.16 0.04 0.31 0.08 0.33 0.00 4.80\n"
	"loop1 0.00 16.00 0.00 28.00 0.00 1.03 75.08 0.01 0.18 0.00 0.18 0.00 0.80 <<<<<\n"
	"loop1 0.00 0.00 0.00 72.00 0.00 4.50 128.00 0.01 0.11 0.00 0.11 0.00 0.80 <<<<<\n"
	"loop1 0.00 0.00 0.00 128.00 0.00 8.00 128.00 0.01 0.05 0.00 0.05 0.00 0.40\n"
	"loop1 0.00 0.00 0.00 128.00 0.00 8.00 128.00 0.01 0.06 0.00 0.06 0.00 0.40\n"
	"loop1 0.00 0.00 0.00 128.00 0.00 8.00 128.00 0.01 0.08 0.00 0.08 0.00 0.80\n"
	;

static const char *const annotate_test_io_layouts[] = {
	annotate_test_io_dx, annotate_test_io_dxk, annotate_test_io_dxm,
	annotate_test_io_20k, annotate_test_io_20m, annotate_test_io_14k, annotate_test_io_14m,
	annotate_test_io_15k, annotate_test_io_15m, annotate_test_io_13k, annotate_test_io_13m,
};

START_TEST(test_iostat_x_grepped_layouts)
{
	annotate_test_expect(annotate_test_io_layouts[_i]);
}
END_TEST

START_TEST(test_empty_and_blank_input)
{
	annotate_test_expect("");
	annotate_test_expect("\n\n");
}
END_TEST

/* Input wbtop cannot go on with: status 1 and exactly one line "wbtop: log:LINE: ..." naming
 * the line, however much was read before it. */
START_TEST(test_errors_name_the_line)
{
	struct annotate_test_result r = annotate_test_run("r b x\n", 6);
	ck_assert_int_eq(r.rc, 1);
	ck_assert_str_eq(r.err, "wbtop: log:1: vmstat header without a bo column\n");
	annotate_test_free(&r);
	r = annotate_test_run("\na\0b\n", 5);
	ck_assert_int_eq(r.rc, 1);
	ck_assert_str_eq(r.err, "wbtop: log:2: binary data (a NUL byte)\n");
	annotate_test_free(&r);
}
END_TEST

/* Lines that fit no section (text, a broken or foreign line) come back as they were, unmarked,
 * and one note counts them and names the first. */
START_TEST(test_text_passes_through)
{
	static const struct {
		const char *in;
		unsigned long n, first;
	} cases[] = {
		{"hello world\n", 1, 1},
		{"procs ---\nr b bo\n1 2 x\n", 1, 3},
		{"r b swpd free buff cache si so bi bo in cs us sy id wa\n1 2 3\n", 1, 2},
		{"1 2 3\n", 1, 1},
		{"dm-0 1 2 3\n", 1, 1},
		{"Device: tps foo\nsda 1 2\n", 2, 1},
		{"Device: tps Blk_wrtn/s\nsda 1\n", 1, 2},
		{"Device: tps Blk_wrtn/s\n\nsda 1 -2\n", 1, 3},
		{"Linux is a kernel\nprocs are tasks\n", 2, 1},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct annotate_test_result r = annotate_test_run(cases[i].in, strlen(cases[i].in));
		char want[200];
		snprintf(want, sizeof want, "wbtop: log: %lu line%s neither vmstat nor iostat output, "
			 "passed through unmarked (the first: line %lu)\n", cases[i].n,
			 cases[i].n == 1 ? " is" : "s are", cases[i].first);
		ck_assert_msg(r.rc == 0, "case %zu: rc %d", i, r.rc);
		ck_assert_str_eq(r.out, cases[i].in);
		ck_assert_msg(strcmp(r.err, want) == 0, "case %zu: %s", i, r.err);
		annotate_test_free(&r);
	}
}
END_TEST

/* Sections of either tool follow each other in any order, by their command line or header:
 * no line of one is "in" the other's log. */
START_TEST(test_sections_switch)
{
	annotate_test_expect("dm-0 1 2 3 4 5\n1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n");
	annotate_test_expect("r b swpd free buff cache si so bi bo in cs us sy id wa\n"
			     "Linux 6.1 (h) \t01/02/2024\n");
	annotate_test_expect("Linux 6.1 (h)\nprocs -----\n");
}
END_TEST

/* A log as the thread attached it: a vmstat section and an iostat section in one file, with
 * a mail's text around them, in either order.  Each section gets the marks it gets alone;
 * the text comes back unmarked, counted in the note. */
static void annotate_test_mixed(const char *first, const char *second, unsigned long ntext)
{
	static const char head[] = "Subject: Re: XFS write regression\n\nHere are the files:\n\n";
	static const char mid[] = "\nand the other one, in the same run:\n\n";
	static const char tail[] = "\n-- \nthanks\n";
	size_t n = strlen(head) + strlen(first) + strlen(mid) + strlen(second) + strlen(tail) + 1;
	char *want = malloc(n);
	ck_assert_ptr_nonnull(want);
	snprintf(want, n, "%s%s%s%s%s", head, first, mid, second, tail);
	char *in = annotate_test_unmark(want);
	struct annotate_test_result r = annotate_test_run(in, strlen(in));
	char note[200];
	snprintf(note, sizeof note, "wbtop: log: %lu lines are neither vmstat nor iostat output, "
		 "passed through unmarked (the first: line 1)\n", ntext);
	ck_assert_msg(r.rc == 0, "rc %d: %s", r.rc, r.err);
	ck_assert_str_eq(r.out, want);
	ck_assert_str_eq(r.err, note);
	annotate_test_free(&r);
	free(in);
	free(want);
}

START_TEST(test_mixed_sections_as_attached)
{
	/* Subject, "Here are ...", "and the other ...", "-- ", "thanks" */
	annotate_test_mixed(annotate_seed_vmstat, annotate_seed_iostat, 5);
	annotate_test_mixed(annotate_seed_iostat, annotate_seed_vmstat, 5);
}
END_TEST

/* Mail-quoted lines ("> ", "> > ") are judged as the lines they quote: the same marks, at the
 * end of the quoted line. */
static char *annotate_test_quote(const char *text, const char *prefix)
{
	size_t n = strlen(text) * 2 + 64 * strlen(prefix) + 1, len = 0;
	char *out = malloc(n);
	ck_assert_ptr_nonnull(out);
	for (const char *line = text; *line;) {
		const char *nl = strchr(line, '\n');
		size_t l = nl ? (size_t)(nl - line) + 1 : strlen(line);
		ck_assert(len + strlen(prefix) + l < n);
		len += (size_t)snprintf(out + len, n - len, "%s%.*s", prefix, (int)l, line);
		line += l;
	}
	return out;
}

START_TEST(test_mail_quoted)
{
	const char *const prefixes[] = {"> ", ">", "> > ", ">> "};
	for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++) {
		char *v = annotate_test_quote(annotate_seed_vmstat, prefixes[i]);
		char *io = annotate_test_quote(annotate_seed_iostat, prefixes[i]);
		annotate_test_expect(v);
		annotate_test_expect(io);
		free(v);
		free(io);
	}
}
END_TEST

/* annotate_file: a missing file is one error line and status 1; a real file works. */
START_TEST(test_annotate_file)
{
	char path[] = "/tmp/wbtop-annotate-XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	static const char log[] = "dm-0 226.47 3.28 6213.88 11668 22084021\n";
	ck_assert_int_eq(write(fd, log, sizeof log - 1), (ssize_t)(sizeof log - 1));
	close(fd);
	struct dip_params p;
	detect_params_default(&p);
	char *buf;
	size_t len;
	FILE *out = open_memstream(&buf, &len);
	ck_assert_int_eq(annotate_file(path, out, &p), 0);
	fclose(out);
	ck_assert_str_eq(buf, log);
	free(buf);
	unlink(path);
	int saved = dup(STDERR_FILENO), null = open("/dev/null", O_WRONLY);
	dup2(null, STDERR_FILENO);
	int rc = annotate_file(path, stdout, &p);
	dup2(saved, STDERR_FILENO);
	close(saved);
	close(null);
	ck_assert_int_eq(rc, 1);
}
END_TEST

/* One log in kB/s and the same in MB/s (iostat -dxk and -dxm of the same counts) get the same
 * marks, also where a value falls within the rounding of MB/s of the threshold: a steady
 * 7488 kB/s and then a drop of every depth from none to a half, by 1.37 kB/s steps.  The MB/s
 * log is the kB/s one at two decimals of MiB, halves up, as iostat -m prints it. */
static char *annotate_test_io_units(double drop_kb, bool mb)
{
	static const double steady[] = { 7488.00, 7510.42, 7466.71, 7491.13, 7502.88, 7479.37 };
	size_t cap = 4096, len = 0;
	char *log = malloc(cap);
	ck_assert_ptr_nonnull(log);
	for (size_t i = 0; i <= sizeof steady / sizeof steady[0]; i++) {
		double kb = i < sizeof steady / sizeof steady[0] ? steady[i] : drop_kb;
		long long h = llround(kb * 100.0);	/* the kB/s log's own two decimals */
		char val[32];
		if (mb)
			snprintf(val, sizeof val, "%.2f", (double)((h + 512) / 1024) / 100.0);
		else
			snprintf(val, sizeof val, "%.2f", (double)h / 100.0);
		len += (size_t)snprintf(log + len, cap - len,
					"Device            r/s     r%s/s   w/s     w%s/s  %%util\n"
					"sdb              0.00      0.00  117.00  %s 40.00\n\n",
					mb ? "MB" : "kB", mb ? "MB" : "kB", val);
		ck_assert_uint_lt(len, cap);
	}
	return log;
}

START_TEST(test_iostat_kb_and_mb_marked_alike)
{
	int marked = 0;
	for (double drop = 7488.0; drop > 4800.0; drop -= 2.93) {
		char *kb = annotate_test_io_units(drop, false), *mb = annotate_test_io_units(drop, true);
		struct annotate_test_result rk = annotate_test_run(kb, strlen(kb));
		struct annotate_test_result rm = annotate_test_run(mb, strlen(mb));
		ck_assert_int_eq(rk.rc, 0);
		ck_assert_int_eq(rm.rc, 0);
		bool mark_k = strstr(rk.out, "<<<<<") != NULL, mark_m = strstr(rm.out, "<<<<<") != NULL;
		ck_assert_msg(mark_k == mark_m, "a drop to %.2f kB/s: marked in kB/s %d, in MB/s %d",
			      drop, mark_k, mark_m);
		marked += mark_k;
		annotate_test_free(&rk);
		annotate_test_free(&rm);
		free(kb);
		free(mb);
	}
	ck_assert_int_gt(marked, 50);	/* the deeper drops are marked: the loop crossed the rule */
	ck_assert_double_eq_tol(annotate_iostat_resolution(7488.0), 7485.44, 1e-9);
	ck_assert_double_eq_tol(annotate_iostat_resolution(7490.56), 7495.68, 1e-9);	/* a half: up */
	ck_assert_double_eq(annotate_iostat_resolution(0.0), 0.0);
}
END_TEST

Suite *annotate_suite(void)
{
	Suite *s = suite_create("annotate");
	TCase *tc = tcase_create("vmstat");
	tcase_add_test(tc, test_vmstat_seed_excerpt);
	tcase_add_test(tc, test_marks_stripped_bytes_kept);
	tcase_add_test(tc, test_vmstat_headerless_and_new_run);
	tcase_add_test(tc, test_vmstat_timestamps);
	suite_add_tcase(s, tc);
	tc = tcase_create("iostat");
	tcase_add_test(tc, test_iostat_grepped_seed_excerpt);
	tcase_add_test(tc, test_iostat_full_new_layout);
	tcase_add_test(tc, test_iostat_x_and_old_layouts);
	tcase_add_test(tc, test_iostat_kb_and_mb_marked_alike);
	tcase_add_loop_test(tc, test_iostat_x_grepped_layouts, 0,
			    (int)(sizeof annotate_test_io_layouts / sizeof annotate_test_io_layouts[0]));
	suite_add_tcase(s, tc);
	tc = tcase_create("errors");
	tcase_add_test(tc, test_empty_and_blank_input);
	tcase_add_test(tc, test_errors_name_the_line);
	tcase_add_test(tc, test_text_passes_through);
	tcase_add_test(tc, test_sections_switch);
	tcase_add_test(tc, test_mixed_sections_as_attached);
	tcase_add_test(tc, test_mail_quoted);
	tcase_add_test(tc, test_annotate_file);
	tcase_add_test(tc, test_command_interval_sets_the_tick);
	suite_add_tcase(s, tc);
	return s;
}
