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

/* An unsigned decimal; false if there is none, or it overflows.  Leans on
 * the NUL after the text instead of testing the end every digit, and tests
 * for overflow once per number: 19 digits always fit. */
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

/* How many of the 8 bytes in x (first byte lowest) lead with decimal
 * digits: a byte b is a digit when b - '0' does not borrow and b + 0x46
 * does not reach 0x80.  Borrows and carries only travel upwards, past the
 * first non-digit, so the count is exact. */
static unsigned ds_swar_ndigits(uint64_t x)
{
	uint64_t nondigit = ((x - 0x3030303030303030ull) | (x + 0x4646464646464646ull)) &
			    0x8080808080808080ull;
	return nondigit ? (unsigned)__builtin_ctzll(nondigit) >> 3 : 8;
}

/* The value of the n (1..8) leading digits of x: shifted so the digits are
 * the high bytes (zeros lead), then three multiplies that combine digit
 * pairs, quads and the octet (the well-known SWAR decimal parse). */
static uint64_t ds_swar_value(uint64_t x, unsigned n)
{
	x = (x - 0x3030303030303030ull) << (8 * (8 - n));
	x = x * 10 + (x >> 8);
	return (((x & 0x000000FF000000FFull) * (100 + (1000000ull << 32))) +
		(((x >> 16) & 0x000000FF000000FFull) * (1 + (10000ull << 32)))) >> 32;
}

static const uint64_t ds_pow10[9] = {
	1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000
};

/* One number at p: 8 digits at a time while 8 bytes can be read, byte by
 * byte in the last 8 bytes of the text (the NUL after it stops the loop).
 * Sets *end past the digits; the count of digits is *end - p. */
static uint64_t ds_number(const char *p, const char *text_end, const char **end)
{
	uint64_t v = 0;
	while (text_end - p >= 8) {
		uint64_t x;
		memcpy(&x, p, sizeof x);
		unsigned n = ds_swar_ndigits(x);
		if (n == 0)
			break;
		v = v * ds_pow10[n] + ds_swar_value(x, n);
		p += n;
		if (n < 8) {
			*end = p;
			return v;
		}
	}
	unsigned digit;
	while ((digit = (unsigned)(*p - '0')) <= 9) {
		v = v * 10 + digit;
		p++;
	}
	*end = p;
	return v;
}

/* The stat fields of a line, into f[]; returns how many, or -1 for a
 * number that overflows.  This is the hot loop of a sample (17 numbers a
 * device are most of the instructions a sample takes). */
static int ds_fields(struct ds_cursor *c, uint64_t *f)
{
	const char *p = c->p;
	int n = 0;
	while (n < DS_NFIELDS) {
		while (*p == ' ' || *p == '\t')
			p++;
		if ((unsigned)(*p - '0') > 9)
			break;
		const char *start = p;
		uint64_t v = ds_number(p, c->end, &p);
		/* 19 digits always fit in 64 bits; 20 may not: check the slow way */
		if (p - start > 19 && (p - start > 20 || !ds_uint_checked(start, p, &v))) {
			c->p = start;
			return -1;
		}
		f[n++] = v;
	}
	c->p = p;
	return n;
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
	int n = ds_fields(c, d->f);
	if (n < 0)
		return false;
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
