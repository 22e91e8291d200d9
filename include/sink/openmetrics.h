/*
 * openmetrics.h - one sample as an OpenMetrics text exposition, for
 * Prometheus (node_exporter's textfile collector, the Pushgateway) and
 * anything that scrapes the text format: the writeback figures
 * node_exporter leaves out, the vm knobs, every device's raw counters with
 * its identity, the interval's dip marks; rates are left to the engine.
 * Not a server or a daemon; it prints nothing but the exposition and never
 * exits: 0 or a negative errno.  Every metric: doc/fleet.md.
 */
#ifndef WBTOP_OPENMETRICS_H
#define WBTOP_OPENMETRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/pipeline.h"
#include "core/snapshot.h"

/* Which text format.  OpenMetrics 1.0 names a counter family without its
 * _total suffix (TYPE x counter, sample x_total) and ends with "# EOF";
 * the older Prometheus 0.0.4 text format, which node_exporter's textfile
 * collector and promtool parse, names the family after the sample (TYPE
 * x_total counter) and has no UNIT lines.  Both parse either; only the
 * matching one keeps counters typed and documented. */
enum om_dialect {
	OM_DIALECT_OPENMETRICS,		/* --format openmetrics */
	OM_DIALECT_PROMETHEUS		/* Prometheus text 0.0.4 */
};

/* How to write; NULL options mean OpenMetrics, every device. */
struct om_options {
	enum om_dialect dialect;
	/* Devices to export: NULL keeps every device (idle ones too, so a
	 * series does not vanish while its device is quiet). */
	bool (*keep_dev)(const struct dev_counters *d, const void *arg);
	const void *keep_arg;
	/* More families after the sample's, before "# EOF" (NULL: none): the
	 * exporter's counters since its start (exporter.h). */
	void (*more)(FILE *out, enum om_dialect dialect, const void *arg);
	const void *more_arg;
};

/* One family's HELP, TYPE and (OpenMetrics) UNIT lines, as the dialect names
 * them: name is the family's without _total, counter says which kind, unit
 * is NULL or the name's last component, help has no double quote. */
void openmetrics_put_meta(FILE *out, const char *name, bool counter, const char *unit, const char *help,
			  enum om_dialect dialect);

/* Write frame f as one complete exposition (ending "# EOF") to out and
 * flush it.  0, or -errno of the failed write (-EPIPE: the reader left). */
int openmetrics_write_sample(FILE *out, const struct frame *f);

/* The Prometheus 0.0.4 text of an OpenMetrics exposition that openmetrics_write made (len
 * bytes at om), to out: without UNIT lines and "# EOF", a counter family's HELP and TYPE
 * named with _total; the samples as they are.  The same text openmetrics_write gives in
 * OM_DIALECT_PROMETHEUS, at the cost of a copy (the exporter writes each sample once).
 * 0, or -errno of the failed write. */
int openmetrics_to_prometheus(const char *om, size_t len, FILE *out);

/* openmetrics_write_sample with options (o may be NULL). */
int openmetrics_write(FILE *out, const struct frame *f, const struct om_options *o);

/* Replace the file at path with the exposition of f, atomically: a
 * temporary file in the same directory (".NAME.XXXXXX", which the textfile
 * collector's *.prom pattern skips), fsync, rename over path, fsync of the
 * directory.  A reader sees the old file or the new one, never a part.
 * The file gets mode 0666 less the umask.  Through a symbolic link the file
 * it names is replaced (the link stays); a FIFO or a device (/dev/stdout)
 * is simply written to.  0, or -errno with "PATH: reason" in err; on
 * failure path is untouched and no temporary file is left. */
int openmetrics_write_file_atomic(const char *path, const struct frame *f, char *err, size_t errlen);

/* openmetrics_write_file_atomic with options (o may be NULL). */
int openmetrics_write_file(const char *path, const struct frame *f, const struct om_options *o,
			   char *err, size_t errlen);

/* The OpenMetrics sink (sink.h): every frame (the first too: counters need
 * no baseline) as one exposition, written to out, or with out NULL
 * replacing the file name at every frame (openmetrics_write_file).  name names the
 * output in messages; o is copied (NULL: OpenMetrics, every device; its
 * keep_arg must outlive the sink).  NULL when out of memory. */
struct sink;
struct sink *openmetrics_sink_new(FILE *out, const char *name, const struct om_options *o);

/* Append s to out as a label value: backslash, double quote and newline
 * escaped, invalid UTF-8 bytes replaced by U+FFFD (Prometheus rejects
 * label values that are not UTF-8).  Exposed for the unit tests. */
void openmetrics_put_label_value(FILE *out, const char *s);

#endif
