/*
 * screen_status.h - the status line (screen_status.c).
 */
#ifndef WBTOP_SCREEN_STATUS_H
#define WBTOP_SCREEN_STATUS_H

#include "screen_data.h"

void screen_status_draw(struct screen *s);

#endif
