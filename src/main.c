/*
 * main.c - wbtop: parse the command line and hand over to the mode.
 */
#include <stdio.h>
#include <stdlib.h>

#include "annotate.h"
#include "knob_cli.h"
#include "opts.h"
#include "run.h"

#define WBTOP_VERSION "0.1"

int main(int argc, char **argv)
{
	struct opts o;
	int status = opts_parse(&o, argc, argv);
	if (status) {
		opts_free(&o);
		return status;
	}
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
	default:
		fprintf(stderr, "wbtop: this mode is not built yet\n");
		status = 2;
		break;
	}
	opts_free(&o);
	return status;
}
