/*
 * rec_time.c - the times --begin and --end accept: "HH:MM:SS" (the first
 * such local time at or after the recording's start), "YYYY-MM-DD
 * HH:MM:SS" (local) or seconds since the epoch, into wall-clock ns.
 * Text to number but for the local time zone; no file.  Limiting a replay
 * with the result is rec_replay_limit (rec_replay.c).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "rec/rec.h"

/* ---- Time ------------------------------------------------------------- */

/* Exactly ndig digits at *p. */
static bool rec_time_take_digits(const char **p, int ndig, int *v)
{
	int x = 0;
	for (int i = 0; i < ndig; i++) {
		if ((*p)[i] < '0' || (*p)[i] > '9')
			return false;
		x = x * 10 + ((*p)[i] - '0');
	}
	*p += ndig;
	*v = x;
	return true;
}

static bool rec_time_take_char(const char **p, char c)
{
	if (**p != c)
		return false;
	(*p)++;
	return true;
}

/* "HH:MM:SS" or "HH:MM" at *p into tm. */
static bool rec_time_take_clock(const char **p, struct tm *tm)
{
	const char *q = *p;
	int h, m, s = 0;
	bool one = q[1] == ':';
	if (!rec_time_take_digits(&q, one ? 1 : 2, &h) || !rec_time_take_char(&q, ':') ||
	    !rec_time_take_digits(&q, 2, &m))
		return false;
	if (rec_time_take_char(&q, ':') && !rec_time_take_digits(&q, 2, &s))
		return false;
	if (h > 23 || m > 59 || s > 60)
		return false;
	tm->tm_hour = h;
	tm->tm_min = m;
	tm->tm_sec = s;
	*p = q;
	return true;
}

static bool rec_time_parse_epoch(const char *t, int64_t *out_ns)
{
	int64_t sec = 0, frac = 0, scale = 1000000000;
	const char *p = t;
	if (!*p)
		return false;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (sec > (INT64_MAX / 1000000000 - 10) / 10)
			return false;
		sec = sec * 10 + (*p - '0');
	}
	if (p == t)
		return false;
	if (*p == '.') {
		for (p++; *p >= '0' && *p <= '9'; p++)
			if (scale > 1) {
				scale /= 10;
				frac += (*p - '0') * scale;
			}
	}
	if (*p)
		return false;
	*out_ns = sec * 1000000000 + frac;
	return true;
}

int rec_time_parse(const char *text, int64_t start_wall_ns, int64_t *out_ns)
{
	if (!text)
		return -EINVAL;
	while (*text == ' ')
		text++;
	if (!strchr(text, ':') && !strchr(text, '-'))
		return rec_time_parse_epoch(text, out_ns) ? 0 : -EINVAL;
	struct tm tm;
	time_t start_s = (time_t)(start_wall_ns / 1000000000);
	if (!localtime_r(&start_s, &tm))
		return -EINVAL;
	const char *p = text;
	bool dated = strchr(text, '-') != NULL;
	if (dated) {
		int y, mo, d;
		if (!rec_time_take_digits(&p, 4, &y) || !rec_time_take_char(&p, '-') ||
		    !rec_time_take_digits(&p, 2, &mo) || !rec_time_take_char(&p, '-') ||
		    !rec_time_take_digits(&p, 2, &d) || (*p != ' ' && *p != 'T') || mo < 1 || mo > 12 ||
		    d < 1 || d > 31)
			return -EINVAL;
		p++;
		tm.tm_year = y - 1900;
		tm.tm_mon = mo - 1;
		tm.tm_mday = d;
	}
	if (!rec_time_take_clock(&p, &tm) || *p)
		return -EINVAL;
	tm.tm_isdst = -1;
	time_t t = mktime(&tm);
	if (t == (time_t)-1)
		return -EINVAL;
	if (!dated && t < start_s) {	/* a clock time before the start: the next day */
		tm.tm_mday++;
		tm.tm_isdst = -1;
		t = mktime(&tm);
	}
	*out_ns = (int64_t)t * 1000000000;
	return 0;
}
