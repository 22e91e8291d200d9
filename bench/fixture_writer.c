/*
 * fixture_writer.c - keeps a fixture /proc/diskstats busy for make bench.
 *
 * usage: fixture_writer FILE NDEV PERIOD_US
 *
 * Rewrites FILE in place every PERIOD_US microseconds with NDEV devices
 * (253:i, dm-i) whose counters are all proportional to the time since it
 * started: every reader, whatever its interval and however slow (under
 * callgrind), sees every device busy at a steady rate.  The text is the one
 * bench/sample_cost.py's fixture_text(k) makes for step k; lines keep their
 * length, so a reader never sees a torn line.  Runs until killed.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

/* Digits of each field (as FIELD_DIGITS in sample_cost.py). */
static const int digits[17] = { 7, 5, 10, 8, 7, 5, 10, 8, 1, 8, 9, 5, 3, 8, 5, 6, 6 };

static uint64_t now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

static size_t fixture_text(char *buf, size_t cap, int ndev, uint64_t k)
{
	size_t len = 0;
	for (int i = 0; i < ndev; i++) {
		uint64_t w = k * (uint64_t)(100 + i % 7);
		uint64_t step[17] = { k * 3, k, k * 24, k * 2, w, k, w * 8, w * 2, 0,
				      k * 40, w * 3, 0, 0, 0, 0, k, k };
		len += (size_t)snprintf(buf + len, cap - len, "%4d %7d dm-%d", 253, i, i);
		for (int f = 0; f < 17; f++) {
			uint64_t base = 1;
			for (int d = 1; d < digits[f]; d++)
				base *= 10;
			uint64_t v = digits[f] > 1 ? base + step[f] : 0;
			len += (size_t)snprintf(buf + len, cap - len, " %llu", (unsigned long long)v);
		}
		buf[len++] = '\n';
	}
	return len;
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: fixture_writer FILE NDEV PERIOD_US\n");
		return 2;
	}
	int ndev = atoi(argv[2]);
	long period = atol(argv[3]);
	size_t cap = (size_t)ndev * 256 + 1;
	char *buf = malloc(cap);
	int fd = open(argv[1], O_WRONLY | O_CLOEXEC);
	if (!buf || fd < 0 || ndev <= 0 || period <= 0) {
		perror(argv[1]);
		return 1;
	}
	uint64_t start = now_us();
	for (;;) {
		uint64_t k = 1 + (now_us() - start) / (uint64_t)period;
		size_t len = fixture_text(buf, cap, ndev, k);
		if (pwrite(fd, buf, len, 0) != (ssize_t)len) {
			perror(argv[1]);
			return 1;
		}
		usleep((useconds_t)period);
	}
}
