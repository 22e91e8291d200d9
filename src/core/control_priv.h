/*
 * control_priv.h - the helpers control.c (the knob files) borrows from
 * control_rules.c (the pure rules): message building, value formatting and
 * the three views of a BDI limit.
 *
 * Private to the control module: nothing outside control.c and
 * control_rules.c includes it; everyone else uses control.h.  All of it is
 * pure (no files, no clock).
 */
#ifndef WBTOP_CONTROL_PRIV_H
#define WBTOP_CONTROL_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/knob.h"

/* Append printf text to buf (always terminated, silently cut when full). */
void control_rules_cat(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Append text to buf as one more clause of a message: "; " before it
 * unless buf is empty. */
void control_rules_clause(char *buf, size_t len, const char *text);

/* v in def's unit, for people (knob_format_value of def's kind).  Returns buf. */
const char *control_rules_fmt(const struct knob_def *def, int64_t v, char *buf, size_t len);

/* Whether BDI knob index is a view of the min or the max limit; if so the
 * enum knob_bdi indexes of that limit's three views (per cent, millionths,
 * bytes) into *ratio, *fine and *bytes. */
bool control_rules_bdi_group(int index, int *ratio, int *fine, int *bytes);

/* A BDI limit in millionths from whichever of its views bdi[] knows (fine
 * first, else ratio); -1 if neither. */
int64_t control_rules_bdi_fine(const int64_t bdi[KNOB_BDI_COUNT], int ratio, int fine);

#endif
