/*
 * detect_bench.c - what the dip detector costs an interval, in steady state.
 *
 * Usage: detect_bench NDEV WARMUP STEPS
 * NDEV devices write about 20 MB/s each, +-5 % (a fixed pseudo-random sequence), each losing
 * half its rate one interval in 97, as one group (the live device table's case), with their
 * request counts, at one-second intervals (the pacing tick counts). The first WARMUP intervals
 * fill the detector's windows (the jitter window holds 60 rises, so a series needs well over
 * 100 intervals to reach its steady state); the STEPS after them go through
 * detect_bench_measured, which callgrind counts alone (--toggle-collect=detect_bench_measured,
 * bench/detect_bench.sh). Prints the marks made, so that a change of the rule is seen next to a
 * change of its cost.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/detect.h"

struct bench_group {
	size_t n;
	char (*names)[16];
	const char **keys;
	uint64_t *ids;
	double *values, *reqs;
	bool *marks;
	uint64_t rng;
};

static int bench_alloc(struct bench_group *b, size_t n)
{
	b->n = n;
	b->rng = 1;
	b->names = calloc(n, sizeof *b->names);
	b->keys = calloc(n, sizeof *b->keys);
	b->ids = calloc(n, sizeof *b->ids);
	b->values = calloc(n, sizeof *b->values);
	b->reqs = calloc(n, sizeof *b->reqs);
	b->marks = calloc(n, sizeof *b->marks);
	if (!b->names || !b->keys || !b->ids || !b->values || !b->reqs || !b->marks)
		return -1;
	for (size_t i = 0; i < n; i++) {
		snprintf(b->names[i], sizeof b->names[i], "dm-%zu", i);
		b->keys[i] = b->names[i];
		b->ids[i] = i + 1;
	}
	return 0;
}

static void bench_free(struct bench_group *b)
{
	free(b->names);
	free(b->keys);
	free(b->ids);
	free(b->values);
	free(b->reqs);
	free(b->marks);
}

/* Interval t's rates (KiB/s) and request counts (512 KiB requests). */
static void bench_interval(struct bench_group *b, unsigned long t)
{
	for (size_t i = 0; i < b->n; i++) {
		b->rng = b->rng * 6364136223846793005ull + 1442695040888963407ull;
		double u = (double)(b->rng >> 11) / 9007199254740992.0;	/* [0, 1) */
		double v = 20000.0 * (1.0 + 0.1 * (u - 0.5));
		if ((i + t) % 97 == 0)
			v *= 0.5;
		b->values[i] = v;
		b->reqs[i] = v / 512.0;
	}
}

static unsigned long bench_marks(const struct bench_group *b)
{
	unsigned long marks = 0;
	for (size_t i = 0; i < b->n; i++)
		marks += b->marks[i];
	return marks;
}

/* The measured intervals go through here: callgrind counts this function alone. */
__attribute__((noinline)) void detect_bench_measured(struct dip_group *g, struct bench_group *b);
__attribute__((noinline)) void detect_bench_measured(struct dip_group *g, struct bench_group *b)
{
	detect_group_feed_reqs(g, b->keys, b->ids, b->values, b->reqs, b->n, b->marks);
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: detect_bench NDEV WARMUP STEPS\n");
		return 2;
	}
	long ndev = strtol(argv[1], NULL, 10), warmup = strtol(argv[2], NULL, 10),
	     steps = strtol(argv[3], NULL, 10);
	if (ndev < 1 || ndev > 1000000 || warmup < 0 || steps < 1) {
		fprintf(stderr, "detect_bench: bad NDEV, WARMUP or STEPS\n");
		return 2;
	}
	struct dip_params p;
	detect_params_default(&p);
	struct dip_group *g = detect_group_new(&p);
	detect_group_set_interval(g, 1.0);	/* as the live table's: one-second intervals */
	struct bench_group b;
	if (!g || bench_alloc(&b, (size_t)ndev) < 0) {
		fprintf(stderr, "detect_bench: out of memory\n");
		return 1;
	}
	unsigned long t = 0, marks = 0;
	for (; t < (unsigned long)warmup; t++) {
		bench_interval(&b, t);
		detect_group_feed_reqs(g, b.keys, b.ids, b.values, b.reqs, b.n, b.marks);
	}
	for (long k = 0; k < steps; k++, t++) {
		bench_interval(&b, t);
		detect_bench_measured(g, &b);
		marks += bench_marks(&b);
	}
	printf("%ld devices, %ld intervals measured after %ld: %lu marks (%.2f per 100 "
	       "device-intervals; one device in 97 halves each interval: 1.03)\n",
	       ndev, steps, warmup, marks, 100.0 * (double)marks / ((double)ndev * (double)steps));
	detect_group_free(g);
	bench_free(&b);
	return 0;
}
