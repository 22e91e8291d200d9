/*
 * screen_keys.h - keys (screen_keys.c).
 */
#ifndef WBTOP_SCREEN_KEYS_H
#define WBTOP_SCREEN_KEYS_H

#include <stdbool.h>
#include "screen_data.h"

/* One pending key: false when none is waiting (screen_key()). */
bool screen_keys_read(struct screen *s, struct screen_req *req);

#endif
