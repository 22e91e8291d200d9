/*
 * screen_term.h - the terminal in and out of curses (screen_term.c).
 */
#ifndef WBTOP_SCREEN_TERM_H
#define WBTOP_SCREEN_TERM_H

#include <stdbool.h>
#include <stddef.h>
#include "screen_data.h"

/* Curses on stdin/stdout, s->term and s->utf8 set; false with err saying why. */
bool screen_term_open(struct screen *s, char *err, size_t errlen);
/* The terminal as it was; nothing if it was never opened. */
void screen_term_close(struct screen *s);

#endif
