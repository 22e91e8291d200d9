/*
 * screen_clock.h - the screen's clock (screen_clock.c).
 */
#ifndef WBTOP_SCREEN_CLOCK_H
#define WBTOP_SCREEN_CLOCK_H

#include <stdint.h>

/* CLOCK_MONOTONIC in ns, for how long messages stay and rows are held. */
uint64_t screen_clock_now_ns(void);

#endif
