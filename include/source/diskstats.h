/*
 * diskstats.h - a linear parser of /proc/diskstats text.
 *
 * Why not libproc2's diskstats interface: in procps-ng 4.0.2 it has no
 * discard or flush fields and its cost grows with the square of the number
 * of devices (each line is matched against every known device), which is
 * 20 ms per sample at 4000 devices.  One pass over the text is linear and
 * keeps every field the running kernel prints.  See doc/design.md.
 */
#ifndef WBTOP_DISKSTATS_H
#define WBTOP_DISKSTATS_H

#include <stdbool.h>
#include <stddef.h>

#include "core/snapshot.h"

/* Parse len bytes of diskstats text, which must be followed by a NUL
 * (text[len] == '\0': the parser uses it as a sentinel), into s->dev (replacing what is there,
 * growing the array when needed; ident pointers are cleared).  Lines that
 * are not well formed are skipped and counted in *bad (may be NULL).
 * Returns 0 or -ENOMEM.  Devices end up sorted by major:minor, each once (a
 * second line for one major:minor counts as bad); names are zero-padded to
 * their 32 bytes. */
int diskstats_parse(const char *text, size_t len, struct snapshot *s, size_t *bad);

/* The same without the fast path for lines as the kernel writes them:
 * every line through the parser that takes any spacing.  The reference the
 * fuzzer and the tests hold diskstats_parse to; same contract. */
int diskstats_parse_careful(const char *text, size_t len, struct snapshot *s, size_t *bad);

/* Which of the parser's ways to take; all three give the same result on any text.  FASTEST
 * is diskstats_parse: SIMD where the CPU has it (AVX2), else the scalar fast path, the
 * careful parser for any line these do not take.  The tests and the fuzzer hold each to
 * the careful one. */
enum diskstats_way {
	DISKSTATS_FASTEST,
	DISKSTATS_SCALAR,	/* the fast path without SIMD */
	DISKSTATS_CAREFUL	/* every line the careful way */
};
int diskstats_parse_way(const char *text, size_t len, struct snapshot *s, size_t *bad,
			enum diskstats_way way);

#endif
