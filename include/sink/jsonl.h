/*
 * jsonl.h - frames as JSON Lines (live --format json, --export json): one
 * object per interval with the system figures, the knobs, every device's
 * figures (figure.h) and the dip marks and knob changes of the interval.
 * doc/recording.md gives the schema.  Writes to a FILE; decides nothing.
 */
#ifndef WBTOP_JSONL_H
#define WBTOP_JSONL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/pipeline.h"

/* The "schema" member of every object. */
#define JSONL_SCHEMA 1

/* Frame f (an interval: f->prev set) as one object on one line.  Its events
 * are the knob writes recorded with the sample, else the changes seen.  0
 * or -errno of the failed write. */
int jsonl_write(FILE *out, const struct frame *f);

/* The JSON Lines sink (sink.h): jsonl_write of each interval, flushed, to out
 * (not owned; out_name names it in messages).  NULL when out of memory. */
struct sink;
struct sink *jsonl_sink_new(FILE *out, const char *out_name);

/* Local time with milliseconds and UTC offset, ISO 8601 ("2024-05-01T08:00:01.000+02:00"):
 * the "time" member, and the CSV export's time column. */
void jsonl_time(int64_t wall_ns, char *buf, size_t len);
/* s as a JSON string (quotes and escapes); NULL as "". */
void jsonl_str(FILE *out, const char *s);

#endif
