/*
 * screen_title.h - the top line (screen_title.c).
 */
#ifndef WBTOP_SCREEN_TITLE_H
#define WBTOP_SCREEN_TITLE_H

#include <stdbool.h>
#include "screen_data.h"

void screen_title_draw(struct screen *s);
/* Whether the data is a replayed recording (the replay keys apply). */
bool screen_title_is_replay(const struct screen *s);

#endif
