/*
 * main.c - wbtop: parse the command line and hand over to the mode.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>

#include "annotate.h"
#include "knob_cli.h"
#include "opts.h"
#include "rec.h"
#include "run.h"

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
	int rc = rec_export(o->replay_path, fmt, o->begin, o->end, out, err, sizeof err);
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

static int main_compare(const struct opts *o)
{
	char err[512] = "";
	int rc = rec_compare(o->compare_a, o->compare_b, stdout, err, sizeof err);
	if (rc == -EPIPE || (rc == 0 && fflush(stdout) == EOF && errno == EPIPE))
		return 0;	/* the reader went away */
	if (rc < 0) {
		fprintf(stderr, "wbtop: %s\n", err[0] ? err : strerror(-rc));
		return 1;
	}
	return 0;
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
	}
	opts_free(&o);
	return status;
}
