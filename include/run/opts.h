/*
 * opts.h - the command line, parsed once into one struct.
 *
 * opts_parse() validates every option and value before anything runs; a bad
 * one gets a single message naming it and exit status 2.
 */
#ifndef WBTOP_OPTS_H
#define WBTOP_OPTS_H

#include <stdbool.h>
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>

#include "core/detect.h"

enum run_mode {
	MODE_SCREEN,		/* default: the interactive monitor */
	MODE_BATCH,		/* -b */
	MODE_ANNOTATE,		/* --annotate FILE */
	MODE_SET,		/* --set KNOB=VALUE ... */
	MODE_SYSCTL_CONF,	/* --sysctl-conf */
	MODE_EXPORT,		/* -r FILE --export csv|json */
	MODE_COMPARE,		/* --compare A B, --compare A... -- B... */
	MODE_SWEEP,		/* --sweep KNOB=V1,V2 ... -- COMMAND... */
	MODE_PLOT,		/* -r FILE --plot OUT.svg */
	MODE_LISTEN,		/* --listen [ADDR:]PORT: the exporter */
	MODE_HELP,
	MODE_VERSION
};

enum out_format { FMT_TEXT, FMT_JSON, FMT_OPENMETRICS, FMT_CSV };

struct opts {
	enum run_mode mode;
	double delay_s;			/* -d, default 1 */
	bool delay_given;
	long count;			/* -n, 0 = forever */
	bool all_devices;		/* -a: show idle devices too */
	const char *devices_regex;	/* --devices */
	bool no_color;			/* --no-color or NO_COLOR */
	bool quiet;			/* -q */
	bool procs;			/* -P */
	bool no_kernel_trace;		/* --no-kernel-trace: no tracefs or debugfs (doc/kernel-loop.md) */
	enum out_format format;		/* --format */
	bool iso_time;			/* -t: batch times with date and zone */
	const char *output_path;	/* -o */
	const char *record_path;	/* -w */
	int64_t rec_sync_ms;		/* --rec-sync: 0 every sample, -1 at close */
	bool rec_sync_given;
	const char *replay_path;	/* -r */
	const char *begin, *end;	/* --begin/--end (replay) */
	const char *annotate_path;	/* --annotate */
	const char **compare_a, **compare_b;	/* --compare: the two sides (files or directories) */
	size_t ncompare_a, ncompare_b;
	const char *group;		/* --group REGEX: the cases compared */
	int width;			/* --width: text lines at most this wide; 0 no limit */
	const char *case_name;		/* --case NAME: stored in the recording (-w) */
	const char **sweeps;		/* --sweep KNOB=V1,V2,..., nsweeps of them */
	size_t nsweeps;
	long repeat;			/* --repeat: runs per value, default 1 */
	const char *sweep_dir;		/* --sweep-dir (or -w with --sweep) */
	const char *plot_path;		/* --plot OUT.svg */
	char **command;			/* after "--" with --sweep, ncommand words */
	int ncommand;
	struct dip_params dip;		/* --dip */
	bool dip_given;
	const char **sets;		/* --set KNOB=VALUE, nsets of them */
	size_t nsets;
	bool read_only;			/* --read-only */
	bool restore_on_exit;		/* --restore-on-exit */
	double revert_after_s;		/* --revert-after, 0 = off */
	const char *listen;		/* --listen [ADDR:]PORT */
	long listen_top;		/* --listen-top: rows per throttling family, default 10 */
	const char *web_config;		/* --web-config FILE: TLS and basic auth */
};

/* Parse argv into o.  0 to go on; otherwise the exit status to leave with
 * (a message naming the option has been printed to stderr). */
int opts_parse(struct opts *o, int argc, char **argv);
/* Free what opts_parse allocated. */
void opts_free(struct opts *o);
/* The --help text. */
void opts_usage(FILE *out);

#endif
