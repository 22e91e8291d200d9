/*
 * screen_help.h - the help page (screen_help.c).
 */
#ifndef WBTOP_SCREEN_HELP_H
#define WBTOP_SCREEN_HELP_H

#include <stdbool.h>
#include "screen_data.h"

void screen_help_draw(struct screen *s);
/* Whether the help page goes on below the screen. */
bool screen_help_more(const struct screen *s);
/* Scroll keys scroll the page (true); any other key leaves it (false). */
bool screen_help_key(struct screen *s, int ch);

#endif
