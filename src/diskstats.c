/*
 * diskstats.c - one pass over /proc/diskstats text, no allocation in steady
 * state.  Line format (Documentation/admin-guide/iostats.rst):
 *   major minor name  f1 .. f4 (partitions of kernels < 2.6.25)
 *   major minor name  f1 .. f11 | f1 .. f15 (4.18+) | f1 .. f17 (5.5+)
 */
#include <errno.h>
#include <string.h>

#include "diskstats.h"

struct ds_cursor {
	const char *p, *end;
};

static void ds_skip_blanks(struct ds_cursor *c)
{
	while (c->p < c->end && (*c->p == ' ' || *c->p == '\t'))
		c->p++;
}

/* The careful way, for the rare number of 20 digits: it may overflow. */
static bool ds_uint_checked(const char *p, const char *stop, uint64_t *out)
{
	uint64_t v = 0;
	for (; p < stop; p++) {
		unsigned digit = (unsigned)(*p - '0');
		if (v > (UINT64_MAX - digit) / 10)
			return false;
		v = v * 10 + digit;
	}
	*out = v;
	return true;
}

/* An unsigned decimal; false if there is none, or it overflows.  This is
 * the hot loop of a sample (17 numbers a device), so it leans on the text
 * ending in a NUL (a non-digit) instead of testing the end every digit,
 * and tests for overflow once per number: 19 digits always fit. */
static bool ds_uint(struct ds_cursor *c, uint64_t *out)
{
	const char *p = c->p;	/* a local: stores through c would be reloaded */
	while (*p == ' ' || *p == '\t')
		p++;
	const char *start = p;
	uint64_t v = 0;
	while ((unsigned)(*p - '0') <= 9)
		v = v * 10 + (unsigned)(*p++ - '0');
	c->p = p;
	if (p - start > 19 && (p - start > 20 || !ds_uint_checked(start, p, &v)))
		return false;
	*out = v;
	return p > start;
}

static bool ds_name(struct ds_cursor *c, char *name, size_t cap)
{
	ds_skip_blanks(c);
	size_t n = 0;
	while (c->p < c->end && *c->p != ' ' && *c->p != '\t' && *c->p != '\n') {
		if (n + 1 >= cap)
			return false;
		name[n++] = *c->p++;
	}
	name[n] = '\0';
	return n > 0;
}

static void ds_next_line(struct ds_cursor *c)
{
	const char *nl = memchr(c->p, '\n', (size_t)(c->end - c->p));
	c->p = nl ? nl + 1 : c->end;
}

/* Parse one line into d; false if malformed. */
static bool ds_line(struct ds_cursor *c, struct dev_counters *d)
{
	uint64_t major, minor;
	if (!ds_uint(c, &major) || !ds_uint(c, &minor) || major > UINT32_MAX || minor > UINT32_MAX)
		return false;
	if (!ds_name(c, d->name, sizeof d->name))
		return false;
	d->major = (uint32_t)major;
	d->minor = (uint32_t)minor;
	int n = 0;
	uint64_t v;
	while (n < DS_NFIELDS && ds_uint(c, &v))
		d->f[n++] = v;
	ds_skip_blanks(c);
	if (c->p < c->end && *c->p != '\n')
		return false;	/* junk, or more fields than we know: a later kernel? */
	if (n == 4) {
		/* Old partition format: reads, read sectors, writes, write sectors. */
		uint64_t rd = d->f[0], rs = d->f[1], wr = d->f[2], ws = d->f[3];
		memset(d->f, 0, sizeof d->f);
		d->f[DS_RD_IOS] = rd;
		d->f[DS_RD_SECT] = rs;
		d->f[DS_WR_IOS] = wr;
		d->f[DS_WR_SECT] = ws;
	} else if (n != 11 && n != 15 && n != 17) {
		return false;
	}
	for (int i = n == 4 ? DS_NFIELDS : n; i < DS_NFIELDS; i++)
		d->f[i] = 0;
	d->nfields = (uint8_t)n;
	d->ident = NULL;
	return true;
}

int diskstats_parse(const char *text, size_t len, struct snapshot *s, size_t *bad)
{
	struct ds_cursor c = { text, text + len };
	size_t nbad = 0;
	s->ndev = 0;
	while (c.p < c.end) {
		struct ds_cursor probe = c;
		ds_skip_blanks(&probe);
		if (probe.p >= c.end || *probe.p == '\n') {	/* blank line */
			ds_next_line(&c);
			continue;
		}
		if (s->ndev == s->cap_dev && snapshot_reserve(s, s->ndev + 1) < 0)
			return -ENOMEM;
		if (ds_line(&c, &s->dev[s->ndev]))
			s->ndev++;
		else
			nbad++;
		ds_next_line(&c);
	}
	snapshot_sort_devs(s);
	if (bad)
		*bad = nbad;
	return 0;
}
