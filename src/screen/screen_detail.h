/*
 * screen_detail.h - a device's page (screen_detail.c).
 */
#ifndef WBTOP_SCREEN_DETAIL_H
#define WBTOP_SCREEN_DETAIL_H

#include <stdbool.h>
#include "screen_data.h"

void screen_detail_draw(struct screen *s);
bool screen_detail_key(struct screen *s, int ch, struct screen_req *req);

#endif
