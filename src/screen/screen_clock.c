/*
 * screen_clock.c - the screen's clock: CLOCK_MONOTONIC in ns, for how
 * long messages stay and rows are held.
 */
#include <time.h>

#include "screen_clock.h"

uint64_t screen_clock_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
