/*
 * knob_cli.h - the knob modes that run without the screen: --set
 * KNOB=VALUE, all or nothing (every assignment validated before any is
 * written; a failed write or read-back rolls back the earlier ones, through
 * control.h), and --sysctl-conf (the vm writeback sysctls as an
 * /etc/sysctl.d snippet).  KNOB: vm.dirty_ratio, dirty_ratio or
 * bdi:DEV:FILE (doc/knobs.md).  Views: they print (results to out, errors
 * to stderr) and return the exit status; they do not exit.
 */
#ifndef WBTOP_KNOB_CLI_H
#define WBTOP_KNOB_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Where device names are resolved for bdi:DEV:FILE. */
#define KNOB_CLI_CLASS_BLOCK	"/sys/class/block"	/* NAME/dev holds MAJ:MIN */
#define KNOB_CLI_SYS_BLOCK	"/sys/block"		/* dm-N/dm/name holds the dm name */

/* Apply n "KNOB=VALUE" assignments, all or nothing, printing "old -> new"
 * per knob to out.  Exit status: 0 done; 2 invalid input (nothing written);
 * 1 could not write (no permission, or a write failed and was rolled back). */
int knob_cli_set(const char **assignments, size_t n, FILE *out);

struct control;
/* The same, through c, for a session that then monitors (-b or the screen
 * with --set): every write is one of c's events, its note why ("--set").
 * Results go to out unless it is NULL (the caller shows c's events). */
int knob_cli_apply_sets(struct control *c, const char **assignments, size_t n, const char *why,
			FILE *out);
struct control_ref;

/* Parse and validate n "KNOB=VALUE" assignments exactly as --set does,
 * writing nothing; messages name opt ("--sweep").  refs[i] and values[i]
 * get what each names.  Exit status: 0 valid, 2 invalid, 1 out of memory. */
int knob_cli_validate(struct control *c, const char *opt, const char **assignments, size_t n,
		      struct control_ref *refs, int64_t *values);

/* Print the vm writeback sysctls in force as an /etc/sysctl.d snippet.
 * Exit status: 0, or 1 if a knob could not be read. */
int knob_cli_sysctl_conf(FILE *out);

#endif
