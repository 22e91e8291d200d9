/*
 * rec_bench.c - what recordings cost: bytes per sample and per active
 * device-sample, the time to open a long recording and jump to its middle,
 * and the recorder's work per sample (run under callgrind by rec_bench.sh).
 *
 * The snapshots are synthetic but shaped like busy disks: reads and writes
 * at rates that wander, with noise, request sizes and latencies that vary,
 * flushes, a queue; sizes are measured on the closed file.
 *
 *   rec_bench size NDEV NBUSY NSAMP FILE   record, print the sizes
 *   rec_bench day NDEV FILE                a 24 h, 1 s recording (bulk)
 *   rec_bench seek FILE                    open + seek to the middle, ms
 *   rec_bench append NDEV NSAMP FILE [SYNC_MS]
 *                                          NSAMP appends, one per sample (1 s
 *                                          of sample time apart), with the
 *                                          sync period of --rec-sync; prints
 *                                          the bytes written per sample
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/ident.h"
#include "rec/rec.h"

struct bench_dev {
	double r_iops, w_iops, r_sect, w_sect, r_lat_ms, w_lat_ms, util;
};

static unsigned long bench_seed = 12345;

static double bench_rand(void)	/* uniform [0, 1) */
{
	bench_seed = bench_seed * 6364136223846793005ul + 1442695040888963407ul;
	return (double)(bench_seed >> 11) / (double)(1ul << 53);
}

static double bench_noise(double v, double frac)
{
	return v * (1 - frac + 2 * frac * bench_rand());
}

struct bench {
	size_t ndev, nbusy;
	struct bench_dev *model;
	struct dev_ident *ident;
	char (*keys)[48];
	struct snapshot s;
};

static void bench_init(struct bench *b, size_t ndev, size_t nbusy)
{
	memset(b, 0, sizeof *b);
	b->ndev = ndev;
	b->nbusy = nbusy;
	b->model = calloc(ndev, sizeof *b->model);
	b->ident = calloc(ndev, sizeof *b->ident);
	b->keys = calloc(ndev, sizeof *b->keys);
	snapshot_init(&b->s);
	snapshot_reserve(&b->s, ndev);
	b->s.ndev = ndev;
	b->s.page_size = 4096;
	for (size_t i = 0; i < ndev; i++) {
		struct dev_counters *d = &b->s.dev[i];
		memset(d, 0, sizeof *d);
		d->major = 8 + (uint32_t)(i / 16);
		d->minor = (uint32_t)(i % 16) * 16;
		snprintf(d->name, sizeof d->name, "sd%zu", i);
		d->nfields = 17;
		snprintf(b->keys[i], sizeof b->keys[i], "wwid:naa.5000c500%08zx", i);
		b->ident[i].major = d->major;
		b->ident[i].minor = d->minor;
		b->ident[i].kname = d->name;
		b->ident[i].key = b->keys[i];
		b->ident[i].label_short = d->name;
		b->ident[i].rotational = 1;
		b->ident[i].has_bdi = true;
		d->ident = &b->ident[i];
		for (int f = 0; f < DS_NFIELDS; f++)	/* long-running counters */
			d->f[f] = f == DS_IN_FLIGHT ? 0 : (uint64_t)(bench_rand() * 1e9);
		struct bench_dev *m = &b->model[i];
		m->r_iops = 50 + bench_rand() * 1500;
		m->w_iops = 50 + bench_rand() * 1500;
		m->r_sect = 8 + bench_rand() * 248;
		m->w_sect = 8 + bench_rand() * 504;
		m->r_lat_ms = 0.1 + bench_rand() * 8;
		m->w_lat_ms = 0.1 + bench_rand() * 12;
		m->util = 0.3 + bench_rand() * 0.7;
	}
}

static void bench_free(struct bench *b)
{
	snapshot_free(&b->s);
	free(b->model);
	free(b->ident);
	free(b->keys);
}

/* One second of a busy device: every counter but discards moves. */
static void bench_busy(struct dev_counters *d, struct bench_dev *m)
{
	m->r_iops = bench_noise(m->r_iops, 0.05) + 1;	/* rates wander */
	m->w_iops = bench_noise(m->w_iops, 0.05) + 1;
	uint64_t rd = (uint64_t)bench_noise(m->r_iops, 0.2) + 1;
	uint64_t wr = (uint64_t)bench_noise(m->w_iops, 0.2) + 1;
	uint64_t rd_ms = (uint64_t)(rd * bench_noise(m->r_lat_ms, 0.3)) + 1;
	uint64_t wr_ms = (uint64_t)(wr * bench_noise(m->w_lat_ms, 0.3)) + 1;
	d->f[DS_RD_IOS] += rd;
	d->f[DS_RD_MERGES] += (uint64_t)bench_noise(rd * 0.1, 0.5);
	d->f[DS_RD_SECT] += (uint64_t)(rd * bench_noise(m->r_sect, 0.3));
	d->f[DS_RD_MS] += rd_ms;
	d->f[DS_WR_IOS] += wr;
	d->f[DS_WR_MERGES] += (uint64_t)bench_noise(wr * 0.2, 0.5);
	d->f[DS_WR_SECT] += (uint64_t)(wr * bench_noise(m->w_sect, 0.3));
	d->f[DS_WR_MS] += wr_ms;
	d->f[DS_IN_FLIGHT] = (uint64_t)(bench_rand() * 32);
	d->f[DS_IO_MS] += (uint64_t)(1000 * bench_noise(m->util, 0.1) > 1000 ? 1000 : 1000 * m->util);
	uint64_t fl = (uint64_t)bench_noise(10, 0.5) + 1;
	uint64_t fl_ms = (uint64_t)(fl * bench_noise(1.5, 0.5)) + 1;
	d->f[DS_FL_IOS] += fl;
	d->f[DS_FL_MS] += fl_ms;
	/* the kernel sums the same nanoseconds into the queue time (5.0+);
	 * rounding each to milliseconds differs by a few */
	d->f[DS_QUEUE_MS] += rd_ms + wr_ms + fl_ms + (uint64_t)(bench_rand() * 3);
}

static void bench_step(struct bench *b, int64_t n)
{
	struct snapshot *s = &b->s;
	s->mono_ns = (uint64_t)(1000 + n) * 1000000000ull + (uint64_t)(bench_rand() * 1e6);
	s->wall_ns = 1714550400000000000LL + (int64_t)s->mono_ns;
	s->sys.procs_running = 1 + (uint64_t)(bench_rand() * 8);
	s->sys.procs_blocked = (uint64_t)(bench_rand() * 4);
	s->sys.free_kb = 8000000 + (uint64_t)(bench_rand() * 100000);
	s->sys.dirty_kb = (uint64_t)(bench_rand() * 400000);
	s->sys.writeback_kb = (uint64_t)(bench_rand() * 40000);
	s->sys.pgpgout_kb += 100000 + (uint64_t)(bench_rand() * 50000);
	s->sys.pgpgin_kb += 50000 + (uint64_t)(bench_rand() * 50000);
	s->sys.intr += 20000 + (uint64_t)(bench_rand() * 5000);
	s->sys.ctxt += 40000 + (uint64_t)(bench_rand() * 9000);
	for (int c = 0; c < CPU_NFIELDS; c++)
		s->sys.cpu_jif[c] += (uint64_t)(bench_rand() * 100);
	for (int k = 0; k < SNAP_NKNOBS; k++)
		s->knob[k] = k == 0 ? 20 : k == 1 ? 10 : 0;
	for (size_t i = 0; i < b->nbusy; i++)
		bench_busy(&s->dev[i], &b->model[i]);
}

static long long bench_file_size(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 ? (long long)st.st_size : -1;
}

static struct rec_writer *bench_open(const char *path)
{
	char err[256];
	unlink(path);
	struct rec_writer *w = rec_writer_open(path, err, sizeof err);
	if (!w) {
		fprintf(stderr, "rec_bench: %s\n", err);
		exit(1);
	}
	return w;
}

static void bench_close(struct rec_writer *w)
{
	char err[256];
	if (rec_writer_close(w, err, sizeof err) < 0) {
		fprintf(stderr, "rec_bench: %s\n", err);
		exit(1);
	}
}

/* Record nsamp samples, a transaction per batch of them (the file is the
 * same as with one per sample; only the time to make it differs). */
static void bench_record(struct bench *b, const char *path, int64_t nsamp, int64_t batch)
{
	struct rec_writer *w = bench_open(path);
	struct snapshot *copies = calloc((size_t)batch, sizeof *copies);
	struct rec_sample *v = calloc((size_t)batch, sizeof *v);
	for (int64_t k = 0; k < batch; k++)
		snapshot_init(&copies[k]);
	for (int64_t n = 0; n < nsamp;) {
		int64_t k = 0;
		for (; k < batch && n < nsamp; k++, n++) {
			bench_step(b, n);
			snapshot_copy(&copies[k], &b->s);
			v[k] = (struct rec_sample){ &copies[k], false, NULL, NULL, 0 };
		}
		if (rec_writer_append_list(w, v, (size_t)k) < 0) {
			fprintf(stderr, "rec_bench: %s\n", rec_writer_errmsg(w));
			exit(1);
		}
	}
	bench_close(w);
	for (int64_t k = 0; k < batch; k++)
		snapshot_free(&copies[k]);
	free(copies);
	free(v);
}

static int bench_size(size_t ndev, size_t nbusy, int64_t nsamp, const char *path)
{
	struct bench b;
	bench_init(&b, ndev, nbusy);
	bench_record(&b, path, nsamp, 64);
	long long bytes = bench_file_size(path);
	double per_sample = (double)bytes / (double)nsamp;
	printf("  %5zu devices, %5zu busy, %5lld samples: %9lld bytes, %8.1f bytes/sample",
	       ndev, nbusy, (long long)nsamp, bytes, per_sample);
	if (nbusy)
		printf(", %5.1f bytes/active device-sample\n", per_sample / (double)nbusy);
	else
		printf(", %5.2f bytes/idle device-sample\n", per_sample / (double)ndev);
	bench_free(&b);
	return 0;
}

static int bench_day(size_t ndev, const char *path)
{
	struct bench b;
	bench_init(&b, ndev, ndev);
	bench_record(&b, path, 86400, 3600);
	printf("  24 h at 1 s, %zu busy devices: %.1f MiB\n", ndev, bench_file_size(path) / 1048576.0);
	bench_free(&b);
	return 0;
}

static double bench_ms(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) * 1e3 + (double)(b->tv_nsec - a->tv_nsec) / 1e6;
}

static int bench_seek(const char *path)
{
	char err[256];
	struct timespec t0, t1, t2;
	struct snapshot s;
	snapshot_init(&s);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	struct source *src = rec_replay_open(path, false, err, sizeof err);
	if (!src) {
		fprintf(stderr, "rec_bench: %s\n", err);
		return 1;
	}
	int64_t mid = rec_replay_count(src) / 2;
	if (rec_replay_seek(src, mid) < 0 || source_next(src, &s) != 0) {
		fprintf(stderr, "rec_bench: seek: %s\n", src->errmsg);
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	for (int k = 0; k < 100; k++)	/* then step back, as the screen does */
		if (rec_replay_seek(src, mid - 1 - k) < 0 || source_next(src, &s) != 0)
			return 1;
	clock_gettime(CLOCK_MONOTONIC, &t2);
	printf("  open + jump to the middle (sample %lld, %zu devices): %.1f ms (target < 100 ms);"
	       " a step back: %.2f ms\n", (long long)mid, s.ndev, bench_ms(&t0, &t1),
	       bench_ms(&t1, &t2) / 100);
	source_close(src);
	snapshot_free(&s);
	return 0;
}

/* The live recorder's path: one rec_writer_append (one transaction and a
 * checkpoint) per sample.  callgrind counts inside rec_writer_append. */
/* This process's write counters: wchar (bytes handed to write calls) and
 * write_bytes (bytes it caused to be written to storage). */
static void bench_self_io(unsigned long long *wchar, unsigned long long *wbytes)
{
	char line[128];
	FILE *f = fopen("/proc/self/io", "r");
	*wchar = *wbytes = 0;
	while (f && fgets(line, sizeof line, f)) {
		sscanf(line, "wchar: %llu", wchar);
		sscanf(line, "write_bytes: %llu", wbytes);
	}
	if (f)
		fclose(f);
}

static int bench_append(size_t ndev, int64_t nsamp, const char *path, int64_t sync_ms, bool report)
{
	struct bench b;
	bench_init(&b, ndev, ndev);
	struct rec_writer *w = bench_open(path);
	rec_writer_set_sync(w, sync_ms);
	bool *dips = calloc(ndev, sizeof *dips);
	unsigned long long wc0, wb0, wc1, wb1;
	bench_self_io(&wc0, &wb0);
	for (int64_t n = 0; n < nsamp; n++) {
		bench_step(&b, n);
		dips[n % ndev] = n % 7 == 0;
		if (rec_writer_append(w, &b.s, n % 11 == 0, dips) < 0) {
			fprintf(stderr, "rec_bench: %s\n", rec_writer_errmsg(w));
			return 1;
		}
	}
	bench_self_io(&wc1, &wb1);
	if (report)
		printf("%llu %llu\n", (wc1 - wc0) / (unsigned long long)nsamp,
		       (wb1 - wb0) / (unsigned long long)nsamp);
	bench_close(w);
	free(dips);
	bench_free(&b);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 6 && !strcmp(argv[1], "size"))
		return bench_size(strtoul(argv[2], NULL, 10), strtoul(argv[3], NULL, 10),
				  strtoll(argv[4], NULL, 10), argv[5]);
	if (argc == 4 && !strcmp(argv[1], "day"))
		return bench_day(strtoul(argv[2], NULL, 10), argv[3]);
	if (argc == 3 && !strcmp(argv[1], "seek"))
		return bench_seek(argv[2]);
	if ((argc == 5 || argc == 6) && !strcmp(argv[1], "append"))
		return bench_append(strtoul(argv[2], NULL, 10), strtoll(argv[3], NULL, 10), argv[4],
				    argc == 6 ? strtoll(argv[5], NULL, 10) : 0, argc == 6);
	fprintf(stderr, "usage: rec_bench size NDEV NBUSY NSAMP FILE | day NDEV FILE | seek FILE |"
		" append NDEV NSAMP FILE [SYNC_MS]\n");
	return 2;
}
