/*
 * vmstat_text.h - the named counters of a /proc/vmstat text ("name value" a line).
 *
 * What a sample needs of /proc/vmstat is ten counters of its two hundred lines; a
 * general reader that hashes every line's name each read costs more than the rest of
 * a small machine's sample.  This one compares each line's name with the few asked
 * for.  Pure: it reads no file.
 */
#ifndef WBTOP_VMSTAT_TEXT_H
#define WBTOP_VMSTAT_TEXT_H

#include <stddef.h>
#include <stdint.h>

/* The values of the n counters names[] in text (len bytes) into out[]: a counter the text
 * does not have is 0, a line that is not "name value" is passed over, a name given twice
 * keeps its last value, and a value is read as strtoul reads it.  The names are kept as
 * given; returns how many of them the text had.  text ends with a NUL at len (a value
 * that is not plain digits is left to strtoul). */
size_t vmstat_text_values(const char *text, size_t len, const char *const *names, size_t n,
			  uint64_t *out);

#endif
