/*
 * compare_priv.h - what the two compare tables share (compare.c: device by
 * device; compare_sets.c: case by case), and nobody else needs.
 */
#ifndef WBTOP_COMPARE_PRIV_H
#define WBTOP_COMPARE_PRIV_H

#include <regex.h>
#include <stdio.h>

#include "core/cmpstat.h"
#include "run/compare.h"
#include "rec/series.h"

/* One device (or the total) of a side: its series in every recording of
 * the side, end to end. */
struct compare_pool {
	const struct series_dev *id;	/* the first series: names, mount, label */
	double *kbps, *dt_s;
	size_t n, cap, ndips;		/* cap: of kbps and dt_s */
	struct cmpstat st;
};

/* The total over runs v[0..n) into p (zeroed by the caller): of the
 * devices sel selects, or of the system (vmstat bo) when sel is NULL.
 * 0 or -ENOMEM. */
int compare_pool_total(struct compare_pool *p, struct series *const *v, size_t n, const regex_t *sel);
void compare_pool_free(struct compare_pool *p);

/* One text line, cut to o->width columns. */
void compare_line(FILE *out, const struct compare_opts *o, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A figure as its text cell ("-" when unknown); returns buf. */
const char *compare_num(char *buf, size_t len, const struct cmpstat_field *f, double v);
/* The change from a to b as "+12.5%" or "-"; returns buf. */
const char *compare_change(char *buf, size_t len, double a, double b);

void compare_json_num(FILE *out, double v);		/* null when not finite */
void compare_json_stat(FILE *out, const struct cmpstat *s);
void compare_json_change(FILE *out, const struct cmpstat *a, const struct cmpstat *b);

#endif
