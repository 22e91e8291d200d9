/*
 * screen_cgroups.h - the memory cgroups' page (screen_cgroups.c).
 */
#ifndef WBTOP_SCREEN_CGROUPS_H
#define WBTOP_SCREEN_CGROUPS_H

#include <stdbool.h>
#include "screen_data.h"

void screen_cgroups_draw(struct screen *s);
bool screen_cgroups_key(struct screen *s, int ch, struct screen_req *req);
void screen_cgroups_free(struct screen *s);

#endif
