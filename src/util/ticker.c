/*
 * ticker.c - monotonic deadlines and stop signals.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <time.h>

#include "util/ticker.h"

static volatile sig_atomic_t ticker_stop;

static void ticker_on_signal(int sig)
{
	ticker_stop = sig;
}

void ticker_install_signals(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = ticker_on_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0;	/* no SA_RESTART: a signal must end the sleep */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

int ticker_stop_signal(void)
{
	return ticker_stop;
}

uint64_t ticker_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t ticker_elapsed_ns(uint64_t now_ns, uint64_t then_ns)
{
	return now_ns > then_ns ? now_ns - then_ns : 0;
}

bool ticker_sleep_until(uint64_t deadline_ns)
{
	struct timespec ts = {
		.tv_sec = (time_t)(deadline_ns / 1000000000u),
		.tv_nsec = (long)(deadline_ns % 1000000000u),
	};
	while (!ticker_stop) {
		int rc = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		if (rc == 0)
			return !ticker_stop;
		if (rc != EINTR)
			return !ticker_stop;
	}
	return false;
}

uint64_t ticker_next_deadline(uint64_t start_ns, uint64_t step_ns, uint64_t now_ns)
{
	if (now_ns < start_ns)
		return start_ns;
	uint64_t k = (now_ns - start_ns) / step_ns + 1;
	return start_ns + k * step_ns;
}
