/*
 * wbprobe.c - a test-only driver of the writeback trace source: prints each
 * interval's sums as "key=value" lines for the end-to-end tests to compare
 * with an independent reader of the same tracepoints and with debugfs.
 *
 *   wbprobe [-d SECONDS] [-n COUNT] [-D] [-C]
 *
 * -D adds each interval's debugfs bdi stats and wb_stats, -C each memory
 * cgroup's dirty and writeback bytes.
 * Stops after COUNT intervals or at SIGINT/SIGTERM/SIGHUP, removing its
 * tracefs instance either way.
 */
#include <errno.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "source/bdistat.h"
#include "source/wbtrace.h"

static volatile sig_atomic_t probe_stop;

static void probe_on_signal(int sig)
{
	(void)sig;
	probe_stop = 1;
}

static void probe_print(const struct wbloop *w, unsigned n, double dt_s)
{
	printf("interval n=%u dt_ms=%.0f events=%llu lost=%llu bad=%llu", n, dt_s * 1000,
	       (unsigned long long)w->events, (unsigned long long)w->lost_events,
	       (unsigned long long)w->bad_events);
	if (w->has_global)
		printf(" dirty_limit_pages=%llu dirty_thresh_pages=%llu bg_thresh_pages=%llu",
		       (unsigned long long)w->dirty_limit_pages,
		       (unsigned long long)w->dirty_thresh_pages,
		       (unsigned long long)w->bg_thresh_pages);
	printf("\n");
	for (size_t i = 0; i < w->ntask; i++) {
		const struct wbloop_task *t = &w->task[i];
		printf("task pid=%d comm=%s paused_ms=%llu pauses=%u decisions=%u ratelimit_kbps=%llu bdi=%s cgroup=%llu\n",
		       (int)t->pid, t->comm[0] ? t->comm : "-", (unsigned long long)t->paused_ms,
		       t->pauses, t->decisions, (unsigned long long)t->task_ratelimit_kbps, t->bdi,
		       (unsigned long long)t->cgroup_ino);
	}
	for (size_t i = 0; i < w->nbdi; i++) {
		const struct wbloop_bdi *b = &w->bdi[i];
		printf("bdi name=%s throttled_ms=%llu pauses=%u written_pages=%llu", b->bdi,
		       (unsigned long long)b->throttled_ms, b->pauses,
		       (unsigned long long)b->written_pages);
		if (b->has_bdp)
			printf(" limit_pages=%llu setpoint_pages=%llu dirty_pages=%llu wb_setpoint_pages=%llu wb_dirty_pages=%llu",
			       (unsigned long long)b->limit_pages, (unsigned long long)b->setpoint_pages,
			       (unsigned long long)b->dirty_pages, (unsigned long long)b->wb_setpoint_pages,
			       (unsigned long long)b->wb_dirty_pages);
		if (b->has_bdp || b->has_bw)
			printf(" dirty_ratelimit_kbps=%llu", (unsigned long long)b->dirty_ratelimit_kbps);
		if (b->has_bw)
			printf(" write_bw_kbps=%llu avg_write_bw_kbps=%llu dirty_rate_kbps=%llu",
			       (unsigned long long)b->write_bw_kbps, (unsigned long long)b->avg_write_bw_kbps,
			       (unsigned long long)b->dirty_rate_kbps);
		printf("\n");
	}
	for (size_t i = 0; i < w->ncg; i++)
		printf("cgroup ino=%llu throttled_ms=%llu pauses=%u written_pages=%llu\n",
		       (unsigned long long)w->cg[i].ino, (unsigned long long)w->cg[i].throttled_ms,
		       w->cg[i].pauses, (unsigned long long)w->cg[i].written_pages);
	for (size_t r = 0; r < WBLOOP_NREASON; r++)
		if (w->written_pages[r])
			printf("written reason=%s pages=%llu\n", w->reason_name[r],
			       (unsigned long long)w->written_pages[r]);
	fflush(stdout);
}

/* t0: when the read began; the tests pair it with their own reads. */
static void probe_print_bdistat(const struct bdistat_sample *s, const struct timespec *t0)
{
	static const char *const names[BDS_NFIELDS] = {
		"writeback_kb", "reclaimable_kb", "bdi_thresh_kb", "dirty_thresh_kb",
		"bg_thresh_kb", "dirtied_kb", "written_kb", "write_bw_kbps",
	};
	struct timespec now;
	clock_gettime(CLOCK_REALTIME, &now);
	for (size_t i = 0; i < s->ndev; i++) {
		printf("debugfs bdi=%u:%u t0=%lld.%09ld t=%lld.%09ld", s->dev[i].major, s->dev[i].minor,
		       (long long)t0->tv_sec, t0->tv_nsec, (long long)now.tv_sec, now.tv_nsec);
		for (int f = 0; f < BDS_NFIELDS; f++)
			if (s->dev[i].have & 1u << f)
				printf(" %s=%llu", names[f], (unsigned long long)s->dev[i].kb[f]);
		/* absent where no domain of the device is active (wbtop shows "-") */
		if (s->dev[i].have & 1u << BDS_WRITE_BW)
			printf(" wb_bw_kbps=%llu", (unsigned long long)bdistat_write_bw_kbps(&s->dev[i]));
		putchar('\n');
	}
	for (size_t i = 0; i < s->nwb; i++) {
		printf("wb bdi=%u:%u cg=%llu", s->wb[i].major, s->wb[i].minor,
		       (unsigned long long)s->wb[i].cg_ino);
		for (int f = 0; f < BDS_NFIELDS; f++)
			if (s->wb[i].have & 1u << f)
				printf(" %s=%llu", names[f], (unsigned long long)s->wb[i].kb[f]);
		printf("\n");
	}
	for (size_t i = 0; i < s->ncg; i++)
		printf("memcg ino=%llu path=%s dirty_bytes=%llu writeback_bytes=%llu\n",
		       (unsigned long long)s->cg[i].ino, s->cg[i].path,
		       (unsigned long long)s->cg[i].dirty_bytes,
		       (unsigned long long)s->cg[i].writeback_bytes);
	fflush(stdout);
}

static double probe_now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	double delay_s = 1.0;
	long count = -1;
	bool debugfs = false, cgroups = false;
	int opt;
	while ((opt = getopt(argc, argv, "d:n:DC")) != -1) {
		char *end;
		if (opt == 'D' || opt == 'C') {
			debugfs |= opt == 'D';
			cgroups |= opt == 'C';
			continue;
		}
		if (opt == 'd' && (delay_s = strtod(optarg, &end)) > 0 && !*end)
			continue;
		if (opt == 'n' && (count = strtol(optarg, &end, 10)) > 0 && !*end)
			continue;
		fprintf(stderr, "usage: wbprobe [-d SECONDS] [-n COUNT] [-D] [-C]\n");
		return 2;
	}
	struct sigaction sa = { .sa_handler = probe_on_signal };
	sigemptyset(&sa.sa_mask);
	int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	for (size_t i = 0; i < 3; i++)
		if (sigaction(sigs[i], &sa, NULL) != 0) {
			perror("wbprobe: sigaction");
			return 1;
		}
	char why[256];
	struct bdistat_reader *bs = NULL;
	if ((debugfs || cgroups) &&
	    bdistat_open(&bs, "/sys/kernel/debug", "/sys/fs/cgroup", why, sizeof why) != 0) {
		fprintf(stderr, "wbprobe: kernel BDI stats unavailable: %s\n", why);
		return 1;
	}
	struct bdistat_sample bsamp;
	bdistat_sample_init(&bsamp);
	struct wbtrace *wt;
	int rc = wbtrace_open(&wt, why, sizeof why);
	if (rc) {
		fprintf(stderr, "wbprobe: kernel writeback trace unavailable: %s\n", why);
		bdistat_close(bs);
		return 1;
	}
	printf("instance %s\n", wbtrace_instance(wt));
	if (wbtrace_note(wt)[0])
		printf("note %s\n", wbtrace_note(wt));
	fflush(stdout);
	struct wbloop w;
	wbloop_init(&w);
	double last = probe_now_s();
	for (unsigned n = 1; !probe_stop && (count < 0 || n <= (unsigned long)count); n++) {
		struct timespec ts = { (time_t)delay_s, (long)((delay_s - (double)(time_t)delay_s) * 1e9) };
		while (!probe_stop && nanosleep(&ts, &ts) != 0 && errno == EINTR)
			;
		rc = wbtrace_read(wt, &w);
		if (rc) {
			fprintf(stderr, "wbprobe: reading the trace: %s\n", strerror(-rc));
			break;
		}
		double now = probe_now_s();
		probe_print(&w, n, now - last);
		last = now;
		if (bs) {
			struct timespec t0;
			clock_gettime(CLOCK_REALTIME, &t0);
			rc = bdistat_read(bs, &bsamp, cgroups);
			if (rc) {
				fprintf(stderr, "wbprobe: reading BDI stats: %s\n", strerror(-rc));
				break;
			}
			probe_print_bdistat(&bsamp, &t0);
		}
	}
	wbloop_free(&w);
	wbtrace_close(wt);
	bdistat_sample_free(&bsamp);
	bdistat_close(bs);
	return rc ? 1 : 0;
}
