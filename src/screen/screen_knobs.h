/*
 * screen_knobs.h - the knob panel (screen_knobs.c).
 */
#ifndef WBTOP_SCREEN_KNOBS_H
#define WBTOP_SCREEN_KNOBS_H

#include <stdbool.h>
#include "screen_data.h"

void screen_knobs_draw(struct screen *s);
bool screen_knobs_key(struct screen *s, int ch, struct screen_req *req);
/* The panel's list, copied (screen_set_knobs()). */
void screen_knobs_set(struct screen *s, const struct screen_knobs *k);
/* control's verdict on the value being typed (screen_set_preview()). */
void screen_knobs_set_preview(struct screen *s, int rc, const char *text);
void screen_knobs_free(struct screen *s);

#endif
