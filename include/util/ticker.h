/*
 * ticker.h - the loop's clock and its stop signals.
 *
 * Intervals are kept on absolute CLOCK_MONOTONIC deadlines, so a slow
 * sample does not push every later one back (drift), and SIGINT/SIGTERM
 * end a sleep at once so the loop can close files cleanly.
 */
#ifndef WBTOP_TICKER_H
#define WBTOP_TICKER_H

#include <stdbool.h>
#include <stdint.h>

/* SIGINT and SIGTERM set the stop flag; SIGPIPE is ignored (writes then
 * fail with EPIPE, which the sinks report). */
void ticker_install_signals(void);
/* The signal that asked to stop, or 0. */
int ticker_stop_signal(void);
uint64_t ticker_now_ns(void);
/* Nanoseconds from then to now, 0 when then is the later: a stamp another thread took after
 * now was read is no age (the difference would wrap to centuries). */
uint64_t ticker_elapsed_ns(uint64_t now_ns, uint64_t then_ns);
/* Sleep until deadline (monotonic ns).  false if a stop signal came. */
bool ticker_sleep_until(uint64_t deadline_ns);
/* The first deadline start + k*step after now (skipping missed ones). */
uint64_t ticker_next_deadline(uint64_t start_ns, uint64_t step_ns, uint64_t now_ns);

#endif
