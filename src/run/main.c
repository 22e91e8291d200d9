/*
 * main.c - wbtop: parse the command line and hand over to the mode.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>

#include "run/annotate.h"
#include "run/compare.h"
#include "run/knob_cli.h"
#include "run/opts.h"
#include "sink/plot_svg.h"
#include "rec/rec.h"
#include "run/run.h"
#include "run/sweep.h"

#define WBTOP_VERSION "0.1"

static int main_export(const struct opts *o)
{
	char err[512] = "";
	FILE *out = stdout;
	if (o->output_path && !(out = fopen(o->output_path, "we"))) {
		fprintf(stderr, "wbtop: %s: %s\n", o->output_path, strerror(errno));
		return 1;
	}
	enum rec_format fmt = o->format == FMT_JSON ? REC_FMT_JSON : REC_FMT_CSV;
	int rc = rec_export(o->replay_path, fmt, o->begin, o->end, o->dip_given ? &o->dip : NULL, out,
			    err, sizeof err);
	if (out != stdout && fclose(out) == EOF && rc == 0) {
		fprintf(stderr, "wbtop: %s: %s\n", o->output_path, strerror(errno));
		return 1;
	}
	if (rc == -EPIPE)
		return 0;	/* the reader went away */
	if (rc < 0) {
		fprintf(stderr, "wbtop: %s\n", err[0] ? err : strerror(-rc));
		return 1;
	}
	return 0;
}

/* The picture of the recordings of both sides (or of -r FILE). */
static int main_plot(const struct opts *o)
{
	char err[512] = "", **paths = NULL;
	size_t n = 0;
	const char *const replay[] = { o->replay_path };
	int rc = o->mode == MODE_PLOT ? compare_sets_expand(replay, 1, &paths, &n, err, sizeof err)
		 : compare_sets_expand(o->compare_a, o->ncompare_a, &paths, &n, err, sizeof err);
	if (rc == 0 && o->mode != MODE_PLOT)
		rc = compare_sets_expand(o->compare_b, o->ncompare_b, &paths, &n, err, sizeof err);
	if (rc == 0)
		rc = plot_svg_files(o->plot_path, paths, n, o->devices_regex, err, sizeof err);
	for (size_t i = 0; i < n; i++)
		free(paths[i]);
	free(paths);
	if (rc < 0) {
		fprintf(stderr, "wbtop: %s\n", err[0] ? err : strerror(-rc));
		return 1;
	}
	return 0;
}

static int main_compare(const struct opts *o)
{
	char err[512] = "";
	struct compare_opts co = { o->format == FMT_JSON ? COMPARE_JSON : COMPARE_TEXT,
				   compare_width(stdout, o->width), o->group, o->devices_regex };
	int rc = compare_sets_runs(o->compare_a, o->ncompare_a, o->compare_b, o->ncompare_b, &co, stdout,
				   err, sizeof err);
	if (rc == -EPIPE)
		return 0;	/* the reader went away */
	if (rc < 0) {
		fprintf(stderr, "wbtop: %s\n", err[0] ? err : strerror(-rc));
		return 1;
	}
	return o->plot_path ? main_plot(o) : 0;
}

int main(int argc, char **argv)
{
	struct opts o;
	int status = opts_parse(&o, argc, argv);
	if (status) {
		opts_free(&o);
		return status;
	}
	/* A reader that goes away (| head) ends every mode quietly with
	 * status 0: writes then fail with EPIPE instead of killing wbtop. */
	signal(SIGPIPE, SIG_IGN);
	switch (o.mode) {
	case MODE_HELP:
		opts_usage(stdout);
		break;
	case MODE_VERSION:
		printf("wbtop %s\n", WBTOP_VERSION);
		break;
	case MODE_ANNOTATE:
		status = annotate_file(o.annotate_path, stdout, &o.dip);
		break;
	case MODE_SCREEN:
		status = run_screen(&o);
		break;
	case MODE_BATCH:
		status = run_batch(&o);
		break;
	case MODE_SET:
		if (o.read_only) {
			fprintf(stderr, "wbtop: --set and --read-only contradict each other\n");
			status = 2;
			break;
		}
		status = knob_cli_set(o.sets, o.nsets, stdout);
		break;
	case MODE_SYSCTL_CONF:
		status = knob_cli_sysctl_conf(stdout);
		break;
	case MODE_EXPORT:
		status = main_export(&o);
		break;
	case MODE_COMPARE:
		status = main_compare(&o);
		break;
	case MODE_SWEEP:
		status = sweep_run(&o);
		break;
	case MODE_PLOT:
		status = main_plot(&o);
		break;
	case MODE_LISTEN:
		status = run_listen(&o);
		break;
	}
	opts_free(&o);
	return status;
}
