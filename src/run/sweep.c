/*
 * sweep.c - the knob experiment: set, run, record, restore, compare.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "run/compare.h"
#include "core/control.h"
#include "run/knob_cli.h"
#include "core/pipeline.h"
#include "sink/plot_svg.h"
#include "rec/rec.h"
#include "rec/series.h"
#include "core/source.h"
#include "run/sweep.h"
#include "util/ticker.h"

/* One combination of values: the assignments it makes, its case name. */
struct sweep_case {
	char **sets;			/* "vm.dirty_ratio=10", one per swept knob */
	struct control_ref *refs;
	int64_t *values;
	char *name;			/* the sets joined by ',' */
};

struct sweep {
	const struct opts *o;
	struct control *ctl;
	struct sweep_case *cases;
	size_t ncases, nknobs;
	char *dir;
	char **paths;			/* ncases * repeat recordings, case-major */
	size_t npaths, ndone;
	char *command;			/* the command as one line, for the recordings */
	struct source *src;
	struct pipeline *pipe;
};

static void sweep_free(struct sweep *s)
{
	for (size_t i = 0; i < s->ncases; i++) {
		for (size_t k = 0; s->cases[i].sets && k < s->nknobs; k++)
			free(s->cases[i].sets[k]);
		free(s->cases[i].sets);
		free(s->cases[i].refs);
		free(s->cases[i].values);
		free(s->cases[i].name);
	}
	free(s->cases);
	for (size_t i = 0; i < s->npaths; i++)
		free(s->paths[i]);
	free(s->paths);
	free(s->dir);
	free(s->command);
	pipeline_free(s->pipe);
	source_close(s->src);
	control_free(s->ctl);
}

/* ---- The cases -------------------------------------------------------- */

/* How many values "KNOB=V1,V2,..." gives; 0 if one of them is empty. */
static size_t sweep_nvalues(const char *spec)
{
	const char *v = strchr(spec, '=') + 1;
	size_t n = 1;
	for (const char *p = v; *p; p++)
		n += *p == ',';
	bool empty = !*v || v[strlen(v) - 1] == ',' || strstr(v, ",,") || *v == ',';
	return empty ? 0 : n;
}

/* Value number i of spec, as "KNOB=VALUE" (malloc'd). */
static char *sweep_value(const char *spec, size_t i)
{
	const char *eq = strchr(spec, '='), *v = eq + 1;
	for (; i; i--)
		v = strchr(v, ',') + 1;
	size_t len = strcspn(v, ",");
	char *out;
	return asprintf(&out, "%.*s=%.*s", (int)(eq - spec), spec, (int)len, v) < 0 ? NULL : out;
}

/* Every combination of the swept values, the first knob varying slowest. */
static int sweep_cases(struct sweep *s)
{
	const struct opts *o = s->o;
	size_t total = 1;
	for (size_t k = 0; k < o->nsweeps; k++) {
		size_t n = sweep_nvalues(o->sweeps[k]);
		if (!n) {
			fprintf(stderr, "wbtop: --sweep '%s': an empty value (expected KNOB=V1,V2,...)\n",
				o->sweeps[k]);
			return 2;
		}
		total *= n;
		if (total > 10000) {
			fprintf(stderr, "wbtop: --sweep: more than 10000 combinations\n");
			return 2;
		}
	}
	if (total * (size_t)o->repeat < 2) {
		fprintf(stderr, "wbtop: --sweep '%s': one run compares with nothing: give two values "
			"or more (or --repeat 2)\n", o->sweeps[0]);
		return 2;
	}
	s->nknobs = o->nsweeps;
	if (!(s->cases = calloc(total, sizeof *s->cases)))
		return 1;
	for (size_t i = 0; i < total; i++) {
		struct sweep_case *c = &s->cases[s->ncases++];
		c->sets = calloc(s->nknobs, sizeof *c->sets);
		c->refs = calloc(s->nknobs, sizeof *c->refs);
		c->values = calloc(s->nknobs, sizeof *c->values);
		if (!c->sets || !c->refs || !c->values)
			return 1;
		size_t rest = i;
		for (size_t k = s->nknobs; k-- > 0;) {
			size_t n = sweep_nvalues(o->sweeps[k]);
			if (!(c->sets[k] = sweep_value(o->sweeps[k], rest % n)))
				return 1;
			rest /= n;
		}
	}
	return 0;
}

/* Validate each case as --set would, and name it with the knobs' own
 * names ("dirty_ratio=10" becomes "vm.dirty_ratio=10"). */
static int sweep_validate(struct sweep *s)
{
	for (size_t i = 0; i < s->ncases; i++) {
		struct sweep_case *c = &s->cases[i];
		int st = knob_cli_validate(s->ctl, "--sweep", (const char **)c->sets, s->nknobs, c->refs,
					   c->values);
		if (st)
			return st;
		size_t len = 1;
		for (size_t k = 0; k < s->nknobs; k++)
			len += strlen(c->sets[k]) + 100;
		if (!(c->name = malloc(len)))
			return 1;
		c->name[0] = '\0';
		for (size_t k = 0; k < s->nknobs; k++) {
			char name[96];
			control_name(s->ctl, &c->refs[k], name, sizeof name);
			snprintf(c->name + strlen(c->name), len - strlen(c->name), "%s%s=%s", k ? "," : "", name,
				 strchr(c->sets[k], '=') + 1);
		}
		if (strchr(c->name, '/')) {
			fprintf(stderr, "wbtop: --sweep '%s': a case name cannot hold '/'\n", c->name);
			return 2;
		}
	}
	return 0;
}

/* ---- Where the runs go ------------------------------------------------ */

static int sweep_dir(struct sweep *s)
{
	if (s->o->sweep_dir) {
		s->dir = strdup(s->o->sweep_dir);
	} else {
		char stamp[32];
		time_t now = time(NULL);
		struct tm tm;
		strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", localtime_r(&now, &tm));
		if (asprintf(&s->dir, "wbtop-sweep-%s", stamp) < 0)
			s->dir = NULL;
	}
	if (!s->dir)
		return 1;
	if (mkdir(s->dir, 0755) < 0 && errno != EEXIST) {
		fprintf(stderr, "wbtop: --sweep-dir %s: %s\n", s->dir, strerror(errno));
		return 2;
	}
	struct stat st;
	if (stat(s->dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "wbtop: --sweep-dir %s: not a directory\n", s->dir);
		return 2;
	}
	size_t n = s->ncases * (size_t)s->o->repeat;
	if (!(s->paths = calloc(n, sizeof *s->paths)))
		return 1;
	for (size_t i = 0; i < s->ncases; i++) {
		for (long rep = 1; rep <= s->o->repeat; rep++) {
			char *p;
			int rc = s->o->repeat > 1 ? asprintf(&p, "%s/%s,run=%ld.wbrec", s->dir, s->cases[i].name, rep)
						  : asprintf(&p, "%s/%s.wbrec", s->dir, s->cases[i].name);
			if (rc < 0)
				return 1;
			s->paths[s->npaths++] = p;
			if (access(p, F_OK) == 0) {
				fprintf(stderr, "wbtop: --sweep: %s exists (wbtop does not overwrite "
					"recordings): choose another --sweep-dir\n", p);
				return 2;
			}
		}
	}
	return 0;
}

/* The command as one line: words with blanks or quotes single-quoted. */
static char *sweep_command_line(char **argv, int argc)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	for (int i = 0; i < argc; i++) {
		const char *w = argv[i];
		if (i)
			fputc(' ', f);
		if (*w && !w[strcspn(w, " \t\n'\"\\$&;|<>()*?`!#~")]) {
			fputs(w, f);
			continue;
		}
		fputc('\'', f);
		for (; *w; w++)
			fputs(*w == '\'' ? "'\\''" : (char[]){ *w, 0 }, f);
		fputc('\'', f);
	}
	return fclose(f) == 0 ? buf : (free(buf), NULL);
}

/* ---- One run ---------------------------------------------------------- */

/* Each run starts from the knobs as found, then sets its own. */
static int sweep_set_knobs(struct sweep *s, const struct sweep_case *c)
{
	int rc = control_revert_all(s->ctl);
	if (rc < 0) {
		fprintf(stderr, "wbtop: --sweep: cannot put the knobs back before the run: %s\n", strerror(-rc));
		return rc;
	}
	for (size_t k = 0; k < s->nknobs; k++) {
		rc = control_apply(s->ctl, &c->refs[k], c->values[k], NULL);
		if (rc < 0) {
			fprintf(stderr, "wbtop: --sweep '%s': %s\n", c->sets[k],
				rc == -EIO ? "the kernel did not keep it" : strerror(-rc));
			return rc;
		}
	}
	return 0;
}

/* The child's side of sweep_spawn: never returns. */
static void sweep_exec(const struct opts *o)
{
	/* its own group, so that a signal reaches every process of it; stdout
	 * is the table's, for the mail, so the command's output goes to stderr;
	 * and a group not in the foreground must not read the tty */
	int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (setpgid(0, 0) < 0 || null < 0 || dup2(null, STDIN_FILENO) < 0 ||
	    dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
		fprintf(stderr, "wbtop: --sweep: setting up the command: %s\n", strerror(errno));
		_exit(126);
	}
	signal(SIGPIPE, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	execvp(o->command[0], o->command);
	fprintf(stderr, "wbtop: --sweep: %s: %s\n", o->command[0], strerror(errno));
	_exit(127);
}

static pid_t sweep_spawn(const struct opts *o)
{
	pid_t pid = fork();
	if (pid == 0)
		sweep_exec(o);
	/* also here, whichever of the two runs first; EACCES: the child has
	 * exec'd, so it made its group itself */
	if (pid > 0 && setpgid(pid, pid) < 0 && errno != EACCES) {
		int e = errno;
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		errno = e;
		return -1;
	}
	return pid;
}

/* Stop the command's process group: sig, then SIGKILL after 2 s. */
static void sweep_stop(pid_t pid, int sig)
{
	/* ESRCH: the group is gone already; waitpid below reaps the leader */
	if (kill(-pid, sig) < 0 && errno != ESRCH)
		kill(pid, sig);
	for (int i = 0; i < 200; i++) {
		if (waitpid(pid, NULL, WNOHANG) == pid)
			return;
		nanosleep(&(struct timespec){ 0, 10000000 }, NULL);
	}
	if (kill(-pid, SIGKILL) < 0 && errno != ESRCH)
		kill(pid, SIGKILL);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
}

/* One sample into the run's recording; -1 (reported) if either fails. */
static int sweep_step(struct sweep *s, struct rec_writer *w)
{
	const struct frame *f;
	int rc = pipeline_step(s->pipe, &f);
	if (rc != 0) {
		fprintf(stderr, "wbtop: %s\n", s->src->errmsg[0] ? s->src->errmsg : "the live source ended");
		return -1;
	}
	struct rec_sample one = rec_sample_of(f);
	if (rec_writer_append_list(w, &one, 1) == 0)
		return 0;
	fprintf(stderr, "wbtop: %s\n", rec_writer_errmsg(w));	/* it names the file */
	return -1;
}

static void sweep_meta_run(struct rec_writer *w, struct sweep *s, const struct sweep_case *c, long rep)
{
	char run[24], *sets = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&sets, &len);
	for (size_t k = 0; f && k < s->nknobs; k++)
		fprintf(f, "%s%s", k ? " " : "", c->sets[k]);
	if (f)
		fclose(f);
	snprintf(run, sizeof run, "%ld", rep);
	rec_writer_set_meta(w, "case", c->name);
	rec_writer_set_meta(w, "run", run);
	rec_writer_set_meta(w, "command", s->command);
	rec_writer_set_meta(w, "sweep", sets ? sets : "");
	free(sets);
}

/* What the run came to, in the recording. */
static void sweep_meta_end(struct rec_writer *w, int wstatus, uint64_t start_ns, bool interrupted)
{
	char status[32], secs[32];
	if (interrupted)
		snprintf(status, sizeof status, "interrupted");
	else if (WIFEXITED(wstatus))
		snprintf(status, sizeof status, "%d", WEXITSTATUS(wstatus));
	else
		snprintf(status, sizeof status, "signal %d", WIFSIGNALED(wstatus) ? WTERMSIG(wstatus) : 0);
	snprintf(secs, sizeof secs, "%.3f", (double)(ticker_now_ns() - start_ns) / 1e9);
	rec_writer_set_meta(w, "exit_status", status);
	rec_writer_set_meta(w, "wall_s", secs);
}

/* One run: 0 done, 1 failed (reported), 128 + signal interrupted. */
static int sweep_one(struct sweep *s, const struct sweep_case *c, long rep, const char *path)
{
	char err[512] = "";
	if (sweep_set_knobs(s, c) < 0)
		return 1;
	struct rec_writer *w = rec_writer_open(path, err, sizeof err);
	if (!w) {
		fprintf(stderr, "wbtop: %s\n", err);
		return 1;
	}
	sweep_meta_run(w, s, c, rep);
	pipeline_restart(s->pipe);
	uint64_t step_ns = (uint64_t)(s->o->delay_s * 1e9), start_ns = ticker_now_ns();
	int status = sweep_step(s, w) < 0 ? 1 : 0;	/* the baseline, before the command */
	pid_t pid = status ? -1 : sweep_spawn(s->o);
	if (!status && pid < 0) {
		fprintf(stderr, "wbtop: --sweep: cannot start the command: %s\n", strerror(errno));
		status = 1;
	}
	int wstatus = 0;
	bool exited = false;
	while (!status && !exited) {
		if (!ticker_sleep_until(ticker_next_deadline(start_ns, step_ns, ticker_now_ns()))) {
			status = 128 + ticker_stop_signal();
			break;
		}
		pid_t done = waitpid(pid, &wstatus, WNOHANG);
		exited = done == pid || (done < 0 && errno == ECHILD);	/* gone: no status to wait for */
		if (sweep_step(s, w) < 0)
			status = 1;	/* the last sample is taken after the command ended */
	}
	if (pid > 0 && !exited)
		sweep_stop(pid, status > 128 ? status - 128 : SIGTERM);
	sweep_meta_end(w, wstatus, start_ns, status > 128);
	if (rec_writer_close(w, err, sizeof err) < 0 && !status) {
		fprintf(stderr, "wbtop: %s\n", err);
		status = 1;
	}
	if (!status && !(WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0)) {
		fprintf(stderr, "wbtop: --sweep: case %s: the command %s %d; stopping\n", c->name,
			WIFEXITED(wstatus) ? "exited with status" : "was killed by signal",
			WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : WTERMSIG(wstatus));
		status = 1;
	}
	return status;
}

/* ---- Restoring and comparing ------------------------------------------ */

static int sweep_restore(struct sweep *s)
{
	size_t from = control_nevents(s->ctl);
	int rc = control_revert_all(s->ctl);
	char line[512];
	for (size_t i = from; i < control_nevents(s->ctl); i++)
		fprintf(stderr, "wbtop: restored %s\n", control_rules_format_event(control_event(s->ctl, i), line, sizeof line));
	if (rc < 0) {
		fprintf(stderr, "wbtop: --sweep: RESTORING THE KNOBS FAILED (%s): see the lines above "
			"for what the kernel holds now\n", strerror(-rc));
		return 1;
	}
	return 0;
}

/* The first case against each other one, repeats pooled. */
static int sweep_compare(struct sweep *s)
{
	struct series **runs = calloc(s->ndone ? s->ndone : 1, sizeof *runs);
	char err[512] = "";
	int status = runs ? 0 : 1;
	size_t nread = 0;
	for (; !status && nread < s->ndone; nread++) {
		if (series_load(s->paths[nread], &runs[nread], err, sizeof err) < 0) {
			fprintf(stderr, "wbtop: %s\n", err);
			status = 1;
			break;
		}
	}
	size_t rep = (size_t)s->o->repeat;
	struct compare_opts co = { s->o->format == FMT_JSON ? COMPARE_JSON : COMPARE_TEXT,
				   compare_width(stdout, s->o->width), NULL, s->o->devices_regex };
	for (size_t i = 1; !status && i < s->ncases; i++) {
		if (co.format == COMPARE_TEXT && i > 1)
			fputs("\n\n", stdout);
		if (compare_print_pair(stdout, runs, rep, runs + i * rep, rep, &co) < 0)
			status = 1;
	}
	if (!status && s->ncases == 1 && compare_print_pair(stdout, runs, 1, runs + 1, rep - 1, &co) < 0)
		status = 1;
	if (!status && s->o->plot_path && plot_svg_write(s->o->plot_path, runs, s->ndone, s->o->devices_regex, err, sizeof err) < 0) {
		fprintf(stderr, "wbtop: %s\n", err);
		status = 1;
	}
	for (size_t i = 0; i < nread; i++)
		series_free(runs[i]);
	free(runs);
	return status;
}

static int sweep_prepare(struct sweep *s)
{
	int st = sweep_cases(s);
	if (st)
		return st;
	struct control_config cfg = { .log_syslog = true };
	if (!(s->ctl = control_new(&cfg)))
		return 1;
	const char *reason;
	if (!control_can_write(s->ctl, &reason)) {
		fprintf(stderr, "wbtop: --sweep: cannot change knobs: %s; nothing run\n", reason);
		return 1;
	}
	if ((st = sweep_validate(s)) != 0 || (st = sweep_dir(s)) != 0)
		return st;
	if (!(s->command = sweep_command_line(s->o->command, s->o->ncommand)))
		return 1;
	char err[256];
	if (!(s->src = source_live_open(err, sizeof err))) {
		fprintf(stderr, "wbtop: %s\n", err);
		return 1;
	}
	/* -P: each run's recording keeps the processes writing, as -w does */
	int rc = s->o->procs ? source_sample_procs(s->src, true) : 0;
	if (rc < 0) {
		fprintf(stderr, "wbtop: -P: cannot sample processes: %s\n", strerror(-rc));
		return 1;
	}
	return (s->pipe = pipeline_new(s->src, &s->o->dip, pipeline_marks_rule(s->o->dip_given))) ? 0 : 1;
}

int sweep_run(const struct opts *o)
{
	struct sweep s = { .o = o };
	ticker_install_signals();
	int status = sweep_prepare(&s);
	if (status) {
		if (status == 1 && !s.ctl)
			fprintf(stderr, "wbtop: --sweep: out of memory\n");
		sweep_free(&s);
		return status;
	}
	size_t total = s.ncases * (size_t)o->repeat;
	for (size_t i = 0; !status && i < total; i++) {
		if (ticker_stop_signal()) {	/* between runs: start no other */
			status = 128 + ticker_stop_signal();
			break;
		}
		const struct sweep_case *c = &s.cases[i / (size_t)o->repeat];
		fprintf(stderr, "wbtop: sweep run %zu/%zu: %s -> %s\n", i + 1, total, c->name, s.paths[i]);
		status = sweep_one(&s, c, (long)(i % (size_t)o->repeat) + 1, s.paths[i]);
		if (!status)
			s.ndone++;
		if (!status && i + 1 < total)
			sync();	/* the next run starts without this one's dirty data */
	}
	if (sweep_restore(&s) && !status)
		status = 1;
	if (!status)
		status = sweep_compare(&s);
	sweep_free(&s);
	return status;
}
