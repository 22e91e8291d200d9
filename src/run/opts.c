/*
 * opts.c - command-line parsing and validation.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <regex.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/socket.h>

#include "run/opts.h"
#include "run/listen_addr.h"
#include "rec/rec.h"

enum long_only {
	OPT_DEVICES = 256, OPT_NO_COLOR, OPT_NO_KTRACE, OPT_FORMAT, OPT_BEGIN, OPT_END, OPT_ANNOTATE,
	OPT_COMPARE, OPT_DIP, OPT_DIP_MODEL, OPT_SET, OPT_SYSCTL_CONF, OPT_READ_ONLY, OPT_RESTORE,
	OPT_REVERT_AFTER, OPT_EXPORT, OPT_REC_SYNC, OPT_GROUP, OPT_WIDTH, OPT_CASE, OPT_SWEEP,
	OPT_REPEAT, OPT_SWEEP_DIR, OPT_PLOT, OPT_LISTEN, OPT_LISTEN_TOP, OPT_WEB_CONFIG
};

static const struct option opts_long[] = {
	{ "batch", no_argument, NULL, 'b' },
	{ "delay", required_argument, NULL, 'd' },
	{ "count", required_argument, NULL, 'n' },
	{ "all", no_argument, NULL, 'a' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "processes", no_argument, NULL, 'P' },
	{ "output", required_argument, NULL, 'o' },
	{ "write", required_argument, NULL, 'w' },
	{ "read", required_argument, NULL, 'r' },
	{ "devices", required_argument, NULL, OPT_DEVICES },
	{ "no-color", no_argument, NULL, OPT_NO_COLOR },
	{ "no-kernel-trace", no_argument, NULL, OPT_NO_KTRACE },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "begin", required_argument, NULL, OPT_BEGIN },
	{ "end", required_argument, NULL, OPT_END },
	{ "annotate", required_argument, NULL, OPT_ANNOTATE },
	{ "compare", required_argument, NULL, OPT_COMPARE },
	{ "dip", required_argument, NULL, OPT_DIP },
	{ "dip-model", required_argument, NULL, OPT_DIP_MODEL },
	{ "set", required_argument, NULL, OPT_SET },
	{ "sysctl-conf", no_argument, NULL, OPT_SYSCTL_CONF },
	{ "read-only", no_argument, NULL, OPT_READ_ONLY },
	{ "restore-on-exit", no_argument, NULL, OPT_RESTORE },
	{ "revert-after", required_argument, NULL, OPT_REVERT_AFTER },
	{ "export", required_argument, NULL, OPT_EXPORT },
	{ "iso", no_argument, NULL, 't' },
	{ "rec-sync", required_argument, NULL, OPT_REC_SYNC },
	{ "group", required_argument, NULL, OPT_GROUP },
	{ "width", required_argument, NULL, OPT_WIDTH },
	{ "case", required_argument, NULL, OPT_CASE },
	{ "sweep", required_argument, NULL, OPT_SWEEP },
	{ "repeat", required_argument, NULL, OPT_REPEAT },
	{ "sweep-dir", required_argument, NULL, OPT_SWEEP_DIR },
	{ "plot", required_argument, NULL, OPT_PLOT },
	{ "listen", required_argument, NULL, OPT_LISTEN },
	{ "listen-top", required_argument, NULL, OPT_LISTEN_TOP },
	{ "web-config", required_argument, NULL, OPT_WEB_CONFIG },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

void opts_usage(FILE *out)
{
	fputs("Usage: wbtop [options]\n"
	      "A top-like monitor for Linux writeback: dirty data, per-device write\n"
	      "throughput and its dips, and the knobs that steer them.\n"
	      "\n"
	      "  -d, --delay SECONDS      sampling interval (default 1; fractions allowed)\n"
	      "  -n, --count COUNT        stop after COUNT intervals\n"
	      "  -b, --batch              print text instead of the screen\n"
	      "  -a, --all                show idle devices too\n"
	      "      --devices REGEX      only devices whose name, dm/md name or mount matches\n"
	      "      --dip PERCENT        dip sensitivity (see wbtop(1), DIPS)\n"
	      "      --dip-model q=Q,n=N,k=K,c=C  the dip rule's parameters (doc/dips.md)\n"
	      "      --format FMT         batch output: text (default), json, openmetrics\n"
	      "  -t, --iso                batch text: date and zone in the time (ISO 8601)\n"
	      "  -o, --output FILE        write batch output to FILE\n"
	      "  -q, --quiet              print nothing (with -w: record only)\n"
	      "  -P, --processes          the processes writing (batch; on the screen: the pane open)\n"
	      "      --no-color           no colours on the screen (also NO_COLOR)\n"
	      "      --no-kernel-trace    do not read the kernel's writeback loop (tracefs, debugfs)\n"
	      "  -w, --write FILE         record the session to FILE (SQLite)\n"
	      "      --rec-sync WHEN      make the recording durable every WHEN seconds\n"
	      "                           (default 5), 'sample' or 'close'\n"
	      "  -r, --read FILE          replay a recording\n"
	      "      --begin TIME         replay from TIME\n"
	      "      --end TIME           replay up to TIME\n"
	      "      --export FMT         with -r: export as csv or json\n"
	      "      --compare A B        compare two recordings (or two directories of them)\n"
	      "      --compare A... -- B...  compare two sets of recordings case by case\n"
	      "      --group REGEX        with --compare: only the cases whose name matches\n"
	      "      --width COLUMNS      compare tables at most COLUMNS wide (e.g. 80)\n"
	      "      --case NAME          with -w: the case name compare matches runs by\n"
	      "      --sweep KNOB=V1,V2   run COMMAND (after --) once per value, recorded and\n"
	      "                           compared; repeat for the cross product of knobs\n"
	      "      --repeat N           with --sweep: N runs per value\n"
	      "      --sweep-dir DIR      with --sweep: where the runs are recorded\n"
	      "      --plot OUT.svg       with -r, --compare or --sweep: throughput over time\n"
	      "      --annotate FILE      mark dips in a vmstat/iostat text log ('-' = stdin)\n"
	      "      --listen [ADDR:]PORT serve the figures to Prometheus over HTTP (the exporter;\n"
	      "                           127.0.0.1 unless ADDR is given; doc/exporter.md)\n"
	      "      --listen-top N       with --listen: throttling rows per family (default 10)\n"
	      "      --web-config FILE    with --listen: TLS and basic auth (doc/exporter.md)\n"
	      "      --set KNOB=VALUE     set a writeback knob (repeatable; all or nothing);\n"
	      "                           with -b, -d, -n or -w: first, then monitor\n"
	      "      --sysctl-conf        print the writeback knobs as a sysctl.d snippet\n"
	      "      --read-only          never write a knob\n"
	      "      --restore-on-exit    put changed knobs back when wbtop exits\n"
	      "      --revert-after SECS  revert a knob change not confirmed within SECS\n"
	      "  -h, --help               this help\n"
	      "  -V, --version            version\n", out);
}

static int opts_bad(const char *opt, const char *value, const char *why)
{
	fprintf(stderr, "wbtop: %s '%s': %s\n", opt, value, why);
	return 2;
}

/* A positive number of seconds, fractions allowed, at most a day. */
static int opts_seconds(const char *opt, const char *text, double *out)
{
	char *end;
	errno = 0;
	double v = strtod(text, &end);
	if (end == text || *end || errno || !isfinite(v))
		return opts_bad(opt, text, "not a number of seconds");
	if (v < 0.01 || v > 86400)
		return opts_bad(opt, text, "must be between 0.01 and 86400 seconds");
	*out = v;
	return 0;
}

/* --rec-sync: "sample" (0), "close" (-1) or seconds, whole milliseconds. */
static int opts_rec_sync(const char *text, int64_t *out_ms)
{
	if (strcmp(text, "sample") == 0) {
		*out_ms = 0;
		return 0;
	}
	if (strcmp(text, "close") == 0) {
		*out_ms = -1;
		return 0;
	}
	double s;
	if (opts_seconds("--rec-sync", text, &s))
		return 2;
	*out_ms = (int64_t)(s * 1000 + 0.5);
	return 0;
}

static int opts_count(const char *text, long *out)
{
	char *end;
	errno = 0;
	long v = strtol(text, &end, 10);
	if (end == text || *end || errno || v <= 0)
		return opts_bad("-n", text, "not a positive whole number");
	*out = v;
	return 0;
}

static int opts_format(const char *opt, const char *text, enum out_format *out)
{
	static const struct { const char *name; enum out_format fmt; } names[] = {
		{ "text", FMT_TEXT }, { "json", FMT_JSON }, { "openmetrics", FMT_OPENMETRICS },
		{ "csv", FMT_CSV },
	};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strcmp(text, names[i].name) == 0) {
			*out = names[i].fmt;
			return 0;
		}
	return opts_bad(opt, text, "unknown format");
}

/* Append text to a list of strings. */
static int opts_push(const char *opt, const char ***list, size_t *n, const char *text)
{
	const char **s = realloc(*list, (*n + 1) * sizeof *s);
	if (!s)
		return opts_bad(opt, text, "out of memory");
	*list = s;
	s[(*n)++] = text;
	return 0;
}

/* --compare A [A...]: the recordings that follow, up to the next option or
 * the end of the options; without "--" later, two of them are A and B. */
static int opts_compare(struct opts *o, int argc, char **argv)
{
	o->mode = MODE_COMPARE;
	int rc = opts_push("--compare", &o->compare_a, &o->ncompare_a, optarg);
	while (rc == 0 && optind < argc && argv[optind][0] != '-')
		rc = opts_push("--compare", &o->compare_a, &o->ncompare_a, argv[optind++]);
	return rc;
}

static int opts_number(const char *opt, const char *text, long lo, long hi, long *out)
{
	char *end, why[64];
	errno = 0;
	long v = strtol(text, &end, 10);
	snprintf(why, sizeof why, "not a whole number from %ld to %ld", lo, hi);
	if (end == text || *end || errno || v < lo || v > hi)
		return opts_bad(opt, text, why);
	*out = v;
	return 0;
}

static int opts_add_set(struct opts *o, const char *text)
{
	if (!strchr(text, '='))
		return opts_bad("--set", text, "expected KNOB=VALUE");
	const char **s = realloc(o->sets, (o->nsets + 1) * sizeof *s);
	if (!s)
		return opts_bad("--set", text, "out of memory");
	o->sets = s;
	o->sets[o->nsets++] = text;
	return 0;
}

static int opts_one(struct opts *o, int c, int argc, char **argv)
{
	switch (c) {
	case 'b': o->mode = o->mode == MODE_SCREEN ? MODE_BATCH : o->mode; return 0;
	case 'd': o->delay_given = true; return opts_seconds("-d", optarg, &o->delay_s);
	case 'n': return opts_count(optarg, &o->count);
	case 'a': o->all_devices = true; return 0;
	case 'q': o->quiet = true; return 0;
	case 'P': o->procs = true; return 0;
	case 'o': o->output_path = optarg; return 0;
	case 'w': o->record_path = optarg; return 0;
	case 'r': o->replay_path = optarg; return 0;
	case OPT_DEVICES: o->devices_regex = optarg; return 0;
	case OPT_NO_COLOR: o->no_color = true; return 0;
	case OPT_NO_KTRACE: o->no_kernel_trace = true; return 0;
	case OPT_FORMAT: return opts_format("--format", optarg, &o->format);
	case OPT_BEGIN: o->begin = optarg; return 0;
	case OPT_END: o->end = optarg; return 0;
	case OPT_ANNOTATE: o->mode = MODE_ANNOTATE; o->annotate_path = optarg; return 0;
	case OPT_COMPARE: return opts_compare(o, argc, argv);
	case OPT_GROUP: o->group = optarg; return 0;
	case OPT_WIDTH: {
		long w;
		int rc = opts_number("--width", optarg, 60, 1000, &w);
		o->width = (int)w;
		return rc;
	}
	case OPT_CASE: o->case_name = optarg; return 0;
	case OPT_SWEEP:
		if (!strchr(optarg, '='))
			return opts_bad("--sweep", optarg, "expected KNOB=VALUE1,VALUE2,...");
		o->mode = MODE_SWEEP;
		return opts_push("--sweep", &o->sweeps, &o->nsweeps, optarg);
	case OPT_REPEAT: return opts_number("--repeat", optarg, 1, 1000, &o->repeat);
	case OPT_SWEEP_DIR: o->sweep_dir = optarg; return 0;
	case OPT_PLOT: o->plot_path = optarg; return 0;
	case OPT_LISTEN: o->mode = MODE_LISTEN; o->listen = optarg; return 0;
	case OPT_LISTEN_TOP: return opts_number("--listen-top", optarg, 1, 1000, &o->listen_top);
	case OPT_WEB_CONFIG: o->web_config = optarg; return 0;
	case OPT_DIP:
		if (detect_params_parse(&o->dip, optarg) < 0)
			return opts_bad("--dip", optarg, "not a percentage between 0 and 100");
		o->dip_given = true;
		return 0;
	case OPT_DIP_MODEL:
		if (detect_params_parse_model(&o->dip, optarg) < 0)
			return opts_bad("--dip-model", optarg,
					"not q=QUANTILE,n=INTERVALS,k=SIGMAS,c=CAP "
					"(0<q<=1, 3<=n<=32, k>0, 0<c<=1/3)");
		o->dip_given = true;
		return 0;
	case OPT_SET: return opts_add_set(o, optarg);
	case OPT_SYSCTL_CONF: o->mode = MODE_SYSCTL_CONF; return 0;
	case OPT_READ_ONLY: o->read_only = true; return 0;
	case OPT_RESTORE: o->restore_on_exit = true; return 0;
	case OPT_REVERT_AFTER: return opts_seconds("--revert-after", optarg, &o->revert_after_s);
	case OPT_REC_SYNC: o->rec_sync_given = true; return opts_rec_sync(optarg, &o->rec_sync_ms);
	case OPT_EXPORT: o->mode = MODE_EXPORT; return opts_format("--export", optarg, &o->format);
	case 't': o->iso_time = true; return 0;
	case 'h': o->mode = MODE_HELP; return 0;
	case 'V': o->mode = MODE_VERSION; return 0;
	default: return 2;	/* getopt printed the message */
	}
}

/* --set alone changes knobs and exits, as sysctl -w does; with -b or an
 * option of a monitoring session the session starts with them written.
 * What reads the past (a replay, an export, a log) never writes the host. */
static int opts_check_sets(struct opts *o)
{
	static const struct { const char *opt, *why; } past[] = {
		[MODE_ANNOTATE] = { "--annotate", "annotating a log never writes the host's knobs" },
		[MODE_EXPORT] = { "--export", "a recording's export never writes the host's knobs" },
		[MODE_COMPARE] = { "--compare", "comparing recordings never writes the host's knobs" },
		[MODE_SYSCTL_CONF] = { "--sysctl-conf", "run --set first, then --sysctl-conf" },
		[MODE_SWEEP] = { "--sweep", "a sweep sets each run's knobs itself (a fixed one: "
						"--sweep KNOB=VALUE)" },
		[MODE_PLOT] = { "--plot", "drawing recordings never writes the host's knobs" },
	};
	const char *with = NULL, *why = NULL;
	if ((size_t)o->mode < sizeof past / sizeof past[0] && past[o->mode].opt) {
		with = past[o->mode].opt;
		why = past[o->mode].why;
	} else if (o->replay_path) {
		with = "-r";
		why = "a replay never writes the host's knobs";
	}
	if (with) {
		fprintf(stderr, "wbtop: --set and %s contradict each other: %s\n", with, why);
		return 2;
	}
	if (o->read_only) {
		fprintf(stderr, "wbtop: --set and --read-only contradict each other\n");
		return 2;
	}
	bool session = o->mode == MODE_BATCH || o->delay_given || o->count || o->record_path ||
		       o->procs || o->restore_on_exit || o->revert_after_s > 0;
	if (o->mode == MODE_SCREEN && !session)
		o->mode = MODE_SET;
	return 0;
}

/* What follows "--" (n words at w; dashdash: there was one). */
static int opts_operands(struct opts *o, int n, char **w, bool dashdash)
{
	if (o->mode == MODE_SWEEP) {
		if (n == 0) {
			fprintf(stderr, "wbtop: --sweep needs the command to run after --: "
				"wbtop --sweep KNOB=V1,V2 -- COMMAND...\n");
			return 2;
		}
		o->command = w;
		o->ncommand = n;
		return 0;
	}
	if (o->mode == MODE_COMPARE) {
		if (dashdash) {
			for (int i = 0; i < n; i++)
				if (opts_push("--compare", &o->compare_b, &o->ncompare_b, w[i]))
					return 2;
		} else if (o->ncompare_a == 2) {
			o->compare_b = malloc(sizeof *o->compare_b);
			if (!o->compare_b)
				return opts_bad("--compare", o->compare_a[1], "out of memory");
			o->compare_b[0] = o->compare_a[1];
			o->ncompare_b = 1;
			o->ncompare_a = 1;
		}
		if (!o->ncompare_a || !o->ncompare_b || (!dashdash && o->ncompare_a != 1)) {
			fprintf(stderr, "wbtop: --compare needs two sides: --compare A B, or "
				"--compare A... -- B...\n");
			return 2;
		}
		return 0;
	}
	if (n > 0) {	/* a bare "--" ends the options, as getopt has it */
		fprintf(stderr, "wbtop: unexpected argument '%s' (see wbtop --help)\n", w[0]);
		return 2;
	}
	return 0;
}

/* The options of compare, sweep and plot, and what they go with. */
static int opts_check_runs(struct opts *o)
{
	static const struct { const char *opt; enum run_mode need; const char *with; } only[] = {
		{ "--group", MODE_COMPARE, "--compare" },
		{ "--repeat", MODE_SWEEP, "--sweep" },
		{ "--sweep-dir", MODE_SWEEP, "--sweep" },
	};
	const bool given[] = { o->group != NULL, o->repeat != 0, o->sweep_dir != NULL };
	for (size_t i = 0; i < sizeof only / sizeof only[0]; i++) {
		if (given[i] && o->mode != only[i].need) {
			fprintf(stderr, "wbtop: %s goes with %s\n", only[i].opt, only[i].with);
			return 2;
		}
	}
	if (o->width && o->mode != MODE_COMPARE && o->mode != MODE_SWEEP) {
		fprintf(stderr, "wbtop: --width is for the tables of --compare and --sweep\n");
		return 2;
	}
	if (o->case_name && (!o->record_path || o->mode == MODE_SWEEP)) {
		fprintf(stderr, "wbtop: --case names a recording: use it with -w FILE (a sweep names its own)\n");
		return 2;
	}
	const char *const res[][2] = { { "--group", o->group }, { "--devices", o->devices_regex } };
	for (size_t i = 0; i < 2; i++) {
		regex_t re;
		if (res[i][1] && regcomp(&re, res[i][1], REG_EXTENDED | REG_NOSUB) != 0)
			return opts_bad(res[i][0], res[i][1], "not a regular expression");
		if (res[i][1])
			regfree(&re);
	}
	if (o->mode == MODE_SWEEP) {
		if (o->replay_path) {
			fprintf(stderr, "wbtop: --sweep runs a command live; it cannot replay (-r)\n");
			return 2;
		}
		if (o->read_only) {
			fprintf(stderr, "wbtop: --sweep sets knobs; it contradicts --read-only\n");
			return 2;
		}
		if (o->sweep_dir && o->record_path) {
			fprintf(stderr, "wbtop: --sweep: give the directory once (-w DIR or --sweep-dir DIR)\n");
			return 2;
		}
		if (o->count) {
			fprintf(stderr, "wbtop: --sweep: a run lasts as long as its command; -n does not apply\n");
			return 2;
		}
		if (o->format != FMT_TEXT && o->format != FMT_JSON) {
			fprintf(stderr, "wbtop: --sweep prints its comparison as text or json (--format)\n");
			return 2;
		}
		if (!o->sweep_dir)
			o->sweep_dir = o->record_path;
		o->record_path = NULL;
		if (!o->repeat)
			o->repeat = 1;
	}
	if (o->mode == MODE_COMPARE && o->format != FMT_TEXT && o->format != FMT_JSON) {
		fprintf(stderr, "wbtop: --compare prints text or json (--format)\n");
		return 2;
	}
	if (o->plot_path && o->mode != MODE_COMPARE && o->mode != MODE_SWEEP) {
		if (!o->replay_path || (o->mode != MODE_SCREEN && o->mode != MODE_BATCH)) {
			fprintf(stderr, "wbtop: --plot draws recordings: use it with -r FILE, --compare or --sweep\n");
			return 2;
		}
		o->mode = MODE_PLOT;
	}
	return 0;
}

/* --listen: the address, and what does not go with a headless exporter. */
static int opts_check_listen(struct opts *o)
{
	if (o->mode != MODE_LISTEN) {
		if (o->listen_top || o->web_config) {
			fprintf(stderr, "wbtop: %s goes with --listen\n", o->listen_top ? "--listen-top" : "--web-config");
			return 2;
		}
		return 0;
	}
	struct sockaddr_storage sa;
	char why[160];
	if (listen_addr_parse(o->listen, &sa, why, sizeof why) < 0)
		return opts_bad("--listen", o->listen, why);
	const char *with = o->replay_path ? "-r" : o->record_path ? "-w" : o->output_path ? "-o" :
			   o->nsets ? "--set" : o->format != FMT_TEXT ? "--format" : o->procs ? "-P" :
			   o->quiet ? "-q" : NULL;
	if (with) {
		fprintf(stderr, "wbtop: --listen serves the live figures over HTTP; %s does not go with it\n", with);
		return 2;
	}
	if (!o->listen_top)
		o->listen_top = 10;
	return 0;
}

int opts_parse(struct opts *o, int argc, char **argv)
{
	memset(o, 0, sizeof *o);
	o->delay_s = 1.0;
	o->format = FMT_TEXT;
	o->rec_sync_ms = REC_SYNC_DEFAULT_MS;
	detect_params_default(&o->dip);
	const char *nc = getenv("NO_COLOR");
	o->no_color = nc && *nc;
	opterr = 1;
	/* Options end at "--": after it come the command of --sweep or the
	 * second side of --compare, which getopt must not read as options. */
	int nopt = 1;
	while (nopt < argc && strcmp(argv[nopt], "--") != 0)
		nopt++;
	int c;
	while ((c = getopt_long(nopt, argv, "bd:n:aqPo:w:r:thV", opts_long, NULL)) != -1) {
		int rc = opts_one(o, c, nopt, argv);
		if (rc)
			return rc;
	}
	if (optind < nopt) {
		fprintf(stderr, "wbtop: unexpected argument '%s' (see wbtop --help)\n", argv[optind]);
		return 2;
	}
	int rc = opts_operands(o, argc - nopt - (nopt < argc), argv + nopt + (nopt < argc), nopt < argc);
	if (rc)
		return rc;
	if ((rc = opts_check_runs(o)) != 0)
		return rc;
	if (o->mode != MODE_EXPORT && o->format == FMT_CSV) {
		fprintf(stderr, "wbtop: --format 'csv': batch output is text, json or openmetrics "
			"(CSV is an export: -r FILE --export csv)\n");
		return 2;
	}
	if ((o->begin || o->end) && !o->replay_path) {
		fprintf(stderr, "wbtop: --begin and --end choose part of a recording: use them with -r FILE\n");
		return 2;
	}
	if (o->mode == MODE_EXPORT && !o->replay_path) {
		fprintf(stderr, "wbtop: --export needs a recording: -r FILE --export csv|json\n");
		return 2;
	}
	if (o->mode == MODE_EXPORT && o->format != FMT_CSV && o->format != FMT_JSON) {
		fprintf(stderr, "wbtop: --export: only csv and json are supported\n");
		return 2;
	}
	if (o->nsets && opts_check_sets(o))
		return 2;
	if (o->rec_sync_given && !o->record_path) {
		fprintf(stderr, "wbtop: --rec-sync says how a recording is written: use it with -w FILE\n");
		return 2;
	}
	if ((rc = opts_check_listen(o)) != 0)
		return rc;
	if (o->replay_path && o->record_path) {
		fprintf(stderr, "wbtop: -r and -w together: replay and record one at a time\n");
		return 2;
	}
	return 0;
}

void opts_free(struct opts *o)
{
	free(o->compare_a);
	free(o->compare_b);
	free(o->sweeps);
	o->compare_a = o->compare_b = o->sweeps = NULL;
	free(o->sets);
	o->sets = NULL;
	o->nsets = 0;
}
