/*
 * diskstats.c - one pass over /proc/diskstats text, no allocation in steady
 * state.  Line format (Documentation/admin-guide/iostats.rst):
 *   major minor name  f1 .. f4 (partitions of kernels < 2.6.25)
 *   major minor name  f1 .. f11 | f1 .. f15 (4.18+) | f1 .. f17 (5.5+)
 */
#include <errno.h>
#include <string.h>

#include "source/diskstats.h"

struct ds_cursor {
	const char *p, *end;
};

static void diskstats_skip_blanks(struct ds_cursor *c)
{
	while (c->p < c->end && (*c->p == ' ' || *c->p == '\t'))
		c->p++;
}

/* The careful way, for the rare number of 20 digits: it may overflow. */
static bool diskstats_uint_checked(const char *p, const char *stop, uint64_t *out)
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
static bool diskstats_uint(struct ds_cursor *c, uint64_t *out)
{
	const char *p = c->p;	/* a local: stores through c would be reloaded */
	while (*p == ' ' || *p == '\t')
		p++;
	const char *start = p;
	uint64_t v = 0;
	while ((unsigned)(*p - '0') <= 9)
		v = v * 10 + (unsigned)(*p++ - '0');
	c->p = p;
	if (p - start > 19 && (p - start > 20 || !diskstats_uint_checked(start, p, &v)))
		return false;
	*out = v;
	return p > start;
}

/* How many of the 8 bytes in x (first byte lowest) lead with decimal
 * digits: a byte b is a digit when b - '0' does not borrow and b + 0x46
 * does not reach 0x80.  Borrows and carries only travel upwards, past the
 * first non-digit, so the count is exact. */
static unsigned diskstats_swar_ndigits(uint64_t x)
{
	uint64_t nondigit = ((x - 0x3030303030303030ull) | (x + 0x4646464646464646ull)) &
			    0x8080808080808080ull;
	return nondigit ? (unsigned)__builtin_ctzll(nondigit) >> 3 : 8;
}

/* The value of the n (1..8) leading digits of x: shifted so the digits are
 * the high bytes (zeros lead), then three multiplies that combine digit
 * pairs, quads and the octet (the well-known SWAR decimal parse). */
static uint64_t diskstats_swar_value(uint64_t x, unsigned n)
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
static uint64_t diskstats_number(const char *p, const char *text_end, const char **end)
{
	uint64_t v = 0;
	while (text_end - p >= 8) {
		uint64_t x;
		memcpy(&x, p, sizeof x);
		unsigned n = diskstats_swar_ndigits(x);
		if (n == 0)
			break;
		v = v * ds_pow10[n] + diskstats_swar_value(x, n);
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
static int diskstats_fields(struct ds_cursor *c, uint64_t *f)
{
	const char *p = c->p;
	int n = 0;
	while (n < DS_NFIELDS) {
		while (*p == ' ' || *p == '\t')
			p++;
		if ((unsigned)(*p - '0') > 9)
			break;
		const char *start = p;
		uint64_t v = diskstats_number(p, c->end, &p);
		/* 19 digits always fit in 64 bits; 20 may not: check the slow way */
		if (p - start > 19 && (p - start > 20 || !diskstats_uint_checked(start, p, &v))) {
			c->p = start;
			return -1;
		}
		f[n++] = v;
	}
	c->p = p;
	return n;
}

static bool diskstats_name(struct ds_cursor *c, char *name, size_t cap)
{
	diskstats_skip_blanks(c);
	size_t n = 0;
	while (c->p < c->end && *c->p != ' ' && *c->p != '\t' && *c->p != '\n') {
		if (n + 1 >= cap)
			return false;
		name[n++] = *c->p++;
	}
	memset(name + n, 0, cap - n);	/* zero-padded: names compare a word at a time */
	return n > 0;
}

static void diskstats_next_line(struct ds_cursor *c)
{
	const char *nl = memchr(c->p, '\n', (size_t)(c->end - c->p));
	c->p = nl ? nl + 1 : c->end;
}

/* The fields of a parsed line put in place: the old 4-field partition
 * format spread out, fields the kernel did not give zeroed.  False for a
 * field count no kernel prints. */
static bool diskstats_finish(struct dev_counters *d, int n)
{
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

/* Parse one line into d; false if malformed. */
static bool diskstats_line(struct ds_cursor *c, struct dev_counters *d)
{
	uint64_t major, minor;
	if (!diskstats_uint(c, &major) || !diskstats_uint(c, &minor) || major > UINT32_MAX || minor > UINT32_MAX)
		return false;
	if (!diskstats_name(c, d->name, sizeof d->name))
		return false;
	d->major = (uint32_t)major;
	d->minor = (uint32_t)minor;
	int n = diskstats_fields(c, d->f);
	if (n < 0)
		return false;
	diskstats_skip_blanks(c);
	if (c->p < c->end && *c->p != '\n')
		return false;	/* junk, or more fields than we know: a later kernel? */
	return diskstats_finish(d, n);
}

/*
 * The fast path.  The kernel prints each line as "%4u %7u %s" and the
 * fields with one space between them (block/genhd.c, diskstats_show), so a
 * line it wrote can be read 8 bytes at a time: the spaces before a number
 * skipped in one step, a number of up to 8 digits converted in one, the
 * name copied a word at a time.  Anything else it does not expect (a tab,
 * two spaces between fields, a number of 16 digits or more, a trailing
 * space, a line near the end of the text) sends the line to the careful
 * parser above, which takes any spacing; both give the same result on
 * every line the fast path accepts (tests/fuzz/fuzz_diskstats.c compares
 * them).  Little-endian only: the first byte in memory is the lowest.
 */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
enum { DS_FAST = 1 };
#else
enum { DS_FAST = 0 };
#endif

/* A line takes the fast path only with this many bytes of text from its
 * start: then no 8-byte read can pass the end.  The most it reads is 7
 * spaces, two numbers of 15 digits and their spaces, 32 bytes of name and
 * 17 fields of 15 digits and a space, each read 16 bytes ahead: under 400. */
enum { DS_FAST_SPAN = 512 };

static const uint64_t DS_ONES = 0x0101010101010101ull;
static const uint64_t DS_HIGHS = 0x8080808080808080ull;

static uint64_t diskstats_load8(const char *p)
{
	uint64_t x;
	memcpy(&x, p, sizeof x);
	return x;
}

/* High bit set in each byte of x that is not a space.  (b & 0x7f) + 0x7f
 * reaches 0x80 for any nonzero low bits and never carries out of its byte,
 * so the test is exact for every byte. */
static uint64_t diskstats_nonspace(uint64_t x)
{
	uint64_t m = x ^ (DS_ONES * ' ');
	return (((m & ~DS_HIGHS) + ~DS_HIGHS) | m) & DS_HIGHS;
}

/* High bit set in each byte of x at or below ' ' (space, tab, newline,
 * NUL): where a name ends.  (b & 0x7f) + 0x5f reaches 0x80 exactly when
 * the low bits are above 0x20, again without a carry between bytes. */
static uint64_t diskstats_name_end(uint64_t x)
{
	return ~(((x & ~DS_HIGHS) + DS_ONES * 0x5f) | x) & DS_HIGHS;
}

/* Index of the first byte whose high bit is set in mask (nonzero). */
static unsigned diskstats_first(uint64_t mask)
{
	return (unsigned)__builtin_ctzll(mask) >> 3;
}

/* Skip the spaces at *pp (at most 7); false if there are 8. */
static bool diskstats_fast_spaces(const char **pp)
{
	uint64_t ns = diskstats_nonspace(diskstats_load8(*pp));
	if (!ns)
		return false;
	*pp += diskstats_first(ns);
	return true;
}

/* The name at *pp and the space after it, into name[32] zero-padded. */
static bool diskstats_fast_name(const char **pp, char name[32])
{
	uint64_t w[4] = { 0, 0, 0, 0 };
	size_t len = 0;
	for (size_t i = 0; i < 4; i++) {
		uint64_t x = diskstats_load8(*pp + 8 * i);
		uint64_t e = diskstats_name_end(x);
		if (e) {
			unsigned k = diskstats_first(e);
			w[i] = k ? x & (~0ull >> (64 - 8 * k)) : 0;
			len = 8 * i + k;
			break;
		}
		w[i] = x;
	}
	/* an empty name, or none in 32 bytes (no room for its NUL): len is 0 */
	if (len == 0 || (*pp)[len] != ' ')
		return false;
	memcpy(name, w, sizeof w);
	*pp += len + 1;
	return true;
}

/*
 * The constants of the field loop, in registers.  Left to itself the
 * compiler loads each 64-bit constant afresh where it is used (a movabs is
 * cheap for the CPU but an instruction) and turns multiplies into chains of
 * shifts and adds: five extra instructions a field.  An empty asm that
 * "changes" each one makes it an unknown value held in a register.
 */
struct ds_k {
	uint64_t zeros, above9, highs, pairs, quads, octet, x2561;
};

static const struct ds_k ds_k_consts = {
	.zeros = 0x3030303030303030ull,		/* '0' in every byte */
	.above9 = 0x4646464646464646ull,	/* '9' + 0x46 = 0x7f */
	.highs = 0x8080808080808080ull,
	.pairs = 0x00FF00FF00FF00FFull,
	.quads = 0x0000FFFF0000FFFFull,
	.octet = 10000 * (1ull << 32) + 1,
	.x2561 = 10 * 256 + 1,
};

static inline __attribute__((always_inline)) void diskstats_k_init(struct ds_k *k)
{
	*k = ds_k_consts;
	__asm__("" : "+r"(k->zeros), "+r"(k->above9), "+r"(k->highs), "+r"(k->pairs),
		"+r"(k->quads), "+r"(k->octet), "+r"(k->x2561));
}

/* The value of 8 decimal digits, one per byte of d (each 0..9, the first
 * in the lowest byte): digit pairs, then quads, then the octet, each a
 * multiply that adds a lane to ten (100, 10000) times its neighbour into
 * lanes that cannot carry into each other (at most 99, 9999 and 99999999
 * in lanes of 16, 32 and 64 bits). */
static inline __attribute__((always_inline)) uint64_t diskstats_k_swar8(const struct ds_k *k, uint64_t d)
{
	d = (d * k->x2561) >> 8;
	d = ((d & k->pairs) * (100 * 65536 + 1)) >> 16;
	return ((d & k->quads) * k->octet) >> 32;
}

/* diskstats_field's rarer half: x held 8 digits.  The rest (up to 7 more) are
 * in the next 8 bytes; 16 or more digits set *bad. */
static inline __attribute__((always_inline)) uint64_t diskstats_long_field(const struct ds_k *k,
								   const char **pp, uint64_t x,
								   uint64_t *bad)
{
	const char *p = *pp;
	uint64_t v = diskstats_k_swar8(k, x - k->zeros);
	if ((unsigned)(p[8] - '0') > 9) {	/* exactly 8 digits: common for counters */
		*pp = p + 8;
		return v;
	}
	uint64_t y = diskstats_load8(p + 8);
	uint64_t nd = ((y - k->zeros) | (y + k->above9)) & k->highs;
	if (!nd) {
		*bad |= 1;
		*pp = p + 16;
		return 0;
	}
	unsigned bit = (unsigned)__builtin_ctzll(nd);
	if (bit > 7)
		v = v * ds_pow10[bit >> 3] + diskstats_k_swar8(k, (y - k->zeros) << (71 - bit));
	*pp = p + 8 + (bit >> 3);
	return v;
}

/* A number of up to 15 digits at *pp, without a branch when it has fewer
 * than 8; *pp moves past it.  No digit at all sets *bad (and the value is
 * garbage, the line handed over).  nd has the high bit set in each byte
 * that is not a digit: b - '0' borrows below '0', b + 0x46 reaches 0x80
 * above '9'; both only carry upwards, past the first non-digit, so the
 * lowest one is always right.  With n digits that one is bit 8n + 7, and
 * shifted left by 64 - 8n the digits are the top bytes, zeros before them. */
static inline __attribute__((always_inline)) uint64_t diskstats_field(const struct ds_k *k,
							      const char **pp, uint64_t *bad)
{
	const char *p = *pp;
	uint64_t x = diskstats_load8(p);
	uint64_t d = x - k->zeros;
	uint64_t nd = (d | (x + k->above9)) & k->highs;
	*bad |= nd & 0x80;
	if (__builtin_expect(!nd, 0))
		return diskstats_long_field(k, pp, x, bad);
	unsigned bit = (unsigned)__builtin_ctzll(nd);
	*pp = p + (bit >> 3);
	return diskstats_k_swar8(k, d << ((71 - bit) & 63));
}

/* The 17 fields of a kernel 5.5+ line, unrolled: no count to keep, no
 * branch per separator (each must be a space, the last a newline; any
 * other byte sets a bit of bad).  p is past the name; the start of the
 * next line, or NULL (and d->f garbage) if the line is not such a line. */
static __attribute__((noinline)) const char *diskstats_fields17(const char *p, struct dev_counters *d)
{
	struct ds_k k;
	diskstats_k_init(&k);
	uint64_t bad = 0;
#pragma GCC unroll 17
	for (int i = 0; i < DS_NFIELDS; i++) {
		d->f[i] = diskstats_field(&k, &p, &bad);
		bad |= (unsigned char)*p++ ^ (unsigned)(i == DS_NFIELDS - 1 ? '\n' : ' ');
	}
	return bad ? NULL : p;
}

/* Where the devices' order stands (diskstats_parse_with): the last major:minor, and whether every one so
 * far came after the one before. */
struct ds_order_seen {
	uint64_t last;
	bool in_order;
};

/* Major:minor as one number that sorts as the pair does. */
static uint64_t diskstats_order(const struct dev_counters *d)
{
	return (uint64_t)d->major << 32 | d->minor;
}

static void diskstats_order_note(struct ds_order_seen *o, const struct dev_counters *d, bool first)
{
	uint64_t order = diskstats_order(d);
	o->in_order &= first || order > o->last;
	o->last = order;
}

/*
 * The 17 fields again, with AVX2 where the CPU has it (chosen once, at run
 * time: the build stays plain x86-64).  Two steps instead of one loop:
 *
 * 1. Where the fields are.  32 bytes at a time, two bit masks: the spaces,
 *    and the bytes that are a digit or a space.  The first byte that is
 *    neither ends the line's fields (it must be the newline); the spaces
 *    before it end the first 16.  Finding a field is then a tzcnt.
 * 2. What they are worth, two fields per instruction.  Each field is
 *    loaded as the 16 bytes that end with it, the bytes before it masked
 *    to zero, so every field is a 16-digit number with leading zeros; then
 *    digit pairs, quads and octets are combined by multiply-adds (maddubs,
 *    madd, packus, madd) and the two octets by one 32x32 multiply.
 *
 * Fields of 1 to 16 digits, one space between them, a newline after the
 * 17th: anything else returns NULL and the line goes the scalar way.  Reads
 * 16 bytes before p (the caller makes sure there are) and at most 256
 * after it.
 */
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

/* loadu(ds_keep_last + n) keeps the last n of 16 bytes: 0x00 then 0xff.  Long enough for
 * any n & 31, so that a field found too long (and rejected later) reads inside it. */
static const uint8_t ds_keep_last[48] = {
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
};

enum { DS_SIMD_WORDS = 4 };	/* of 64 bytes: 256 bytes of fields at most */

#define DS_AVX2 __attribute__((target("avx2,bmi,bmi2,popcnt")))

/* The field ending at byte end of p (exclusive), len (1..16) digits long,
 * as 16 digit values (0..9) with zeros before: the low half of a ymm. */
static inline __attribute__((always_inline)) DS_AVX2 __m128i
diskstats_simd_digits(const char *p, unsigned end, unsigned len)
{
	__m128i x = _mm_loadu_si128((const __m128i *)(const void *)(p + end - 16));
	__m128i keep = _mm_loadu_si128((const __m128i *)(const void *)(ds_keep_last + (len & 31)));
	return _mm_and_si128(_mm_sub_epi8(x, _mm_set1_epi8('0')), keep);
}

/* Two 16-digit fields (one per 128-bit lane) to their values, stored at out[0], out[1]. */
static inline __attribute__((always_inline)) DS_AVX2 void
diskstats_simd_convert2(__m128i a, __m128i b, uint64_t *out)
{
	__m256i t = _mm256_inserti128_si256(_mm256_castsi128_si256(a), b, 1);
	t = _mm256_maddubs_epi16(t, _mm256_set1_epi16(1 << 8 | 10));	/* pairs: 10 a + b */
	t = _mm256_madd_epi16(t, _mm256_set1_epi32(1 << 16 | 100));	/* quads */
	t = _mm256_packus_epi32(t, t);
	t = _mm256_madd_epi16(t, _mm256_set1_epi32(1 << 16 | 10000));	/* octets: hi, lo */
	__m256i v = _mm256_add_epi64(_mm256_mul_epu32(t, _mm256_set1_epi64x(100000000)),
				     _mm256_srli_epi64(t, 32));
	v = _mm256_permute4x64_epi64(v, 0 | 2 << 2);
	_mm_storeu_si128((__m128i *)(void *)out, _mm256_castsi256_si128(v));
}

/* Walking the separators of a line's fields. */
struct ds_simd_walk {
	uint64_t bits;		/* separators not yet taken in the current word */
	unsigned word;		/* which 64-byte word */
	unsigned start;		/* where the next field starts */
	unsigned bad;		/* 16 or more: a field was empty or over 16 digits */
};

/* The next field's digits into *digits; false if there are no more separators. */
static inline __attribute__((always_inline)) DS_AVX2 bool
diskstats_simd_next(struct ds_simd_walk *wk, const char *p, const uint64_t *space, unsigned nword,
		    __m128i *digits)
{
	while (__builtin_expect(!wk->bits, 0)) {
		if (++wk->word > nword)
			return false;
		wk->bits = space[wk->word];
	}
	unsigned end = 64 * wk->word + (unsigned)__builtin_ctzll(wk->bits);
	wk->bits &= wk->bits - 1;
	unsigned len = end - wk->start;
	wk->bad |= len - 1;	/* 0 wraps, 17 or more is 16 or more */
	*digits = diskstats_simd_digits(p, end, len);
	wk->start = end + 1;
	return true;
}

static inline __attribute__((always_inline)) DS_AVX2 const char *
diskstats_fields17_simd(const char *p, struct dev_counters *d)
{
	uint64_t space[DS_SIMD_WORDS];
	const __m256i sp = _mm256_set1_epi8(' '), zero = _mm256_set1_epi8('0'),
		      nine = _mm256_set1_epi8(9);
	unsigned end_all = 0;	/* where the fields end: the first byte neither digit nor space */
	unsigned w;
	for (w = 0; w < DS_SIMD_WORDS; w++) {
		uint64_t is_space = 0, other = 0;
		for (unsigned h = 0; h < 2; h++) {
			__m256i x = _mm256_loadu_si256((const __m256i *)(const void *)(p + 64 * w + 32 * h));
			__m256i is_sp = _mm256_cmpeq_epi8(x, sp);
			__m256i t = _mm256_sub_epi8(x, zero);
			__m256i is_digit = _mm256_cmpeq_epi8(_mm256_min_epu8(t, nine), t);
			is_space |= (uint64_t)(uint32_t)_mm256_movemask_epi8(is_sp) << 32 * h;
			other |= (uint64_t)(uint32_t)~_mm256_movemask_epi8(_mm256_or_si256(is_sp, is_digit))
				 << 32 * h;
		}
		space[w] = is_space;
		if (other) {
			end_all = 64 * w + (unsigned)__builtin_ctzll(other);
			/* the end is the 17th separator: taken as one below, the spaces after it dropped */
			uint64_t at = 1ull << (end_all % 64);
			space[w] = (is_space & (at - 1)) | at;
			break;
		}
	}
	if (w == DS_SIMD_WORDS || p[end_all] != '\n')
		return NULL;
	/* field by field: its end is the next separator, its length checked, its digits loaded */
	struct ds_simd_walk walk = { .bits = space[0] };
	__m128i digits[DS_NFIELDS];
#pragma GCC unroll 17
	for (int i = 0; i < DS_NFIELDS; i++)
		if (!diskstats_simd_next(&walk, p, space, w, &digits[i]))
			return NULL;	/* fewer than 17 fields */
	if (walk.bad >> 4 || walk.start != end_all + 1)
		return NULL;	/* empty or long fields, or spaces after the 17th */
#pragma GCC unroll 8
	for (int i = 0; i + 1 < DS_NFIELDS; i += 2)
		diskstats_simd_convert2(digits[i], digits[i + 1], &d->f[i]);
	uint64_t last[2];
	diskstats_simd_convert2(digits[DS_NFIELDS - 1], digits[DS_NFIELDS - 1], last);
	d->f[DS_NFIELDS - 1] = last[0];
	return p + end_all + 1;
}

/* diskstats_fields17_simd for a caller without AVX2 (diskstats_fast_line): a call of its own. */
static DS_AVX2 __attribute__((noinline)) const char *diskstats_fields17_simd_call(const char *p,
										  struct dev_counters *d)
{
	return diskstats_fields17_simd(p, d);
}

/* loadu(ds_keep_first + 32 - n) keeps the first n of 32 bytes: 0xff then 0x00 */
static const uint8_t ds_keep_first[64] = {
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
};

/* Do the set bits of v (below 1 << n) run from some bit up to bit n - 1, at least one? */
static inline unsigned diskstats_top_run(unsigned v, unsigned n)
{
	return v + (v & -v) == 1u << n;
}

/* The start of a line exactly as the kernel prints it for a major below 10000 and a minor
 * below 10^7, "%4u %7u %s ", into d; the start of the fields, or NULL for the scalar way.
 * The two numbers are converted together: one shuffle puts each in a lane of 8 digits.
 * Reads 45 bytes. */
static DS_AVX2 const char *diskstats_head_simd(const char *q, struct dev_counters *d)
{
	__m128i x = _mm_loadu_si128((const __m128i *)(const void *)q);
	__m128i t = _mm_sub_epi8(x, _mm_set1_epi8('0'));
	__m128i is_digit = _mm_cmpeq_epi8(_mm_min_epu8(t, _mm_set1_epi8(9)), t);
	unsigned digit = (unsigned)_mm_movemask_epi8(is_digit);
	unsigned space = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x, _mm_set1_epi8(' ')));
	if (((digit | space) & 0x1fff) != 0x1fff || (space & 0x1010) != 0x1010 ||
	    !diskstats_top_run(digit & 0xf, 4) || !diskstats_top_run(digit >> 5 & 0x7f, 7))
		return NULL;
	/* major to bytes 4-7, minor to 9-15, zeros elsewhere (a shuffle index with the top bit) */
	const __m128i lanes = _mm_setr_epi8(-1, -1, -1, -1, 0, 1, 2, 3, -1, 5, 6, 7, 8, 9, 10, 11);
	__m128i v = _mm_shuffle_epi8(_mm_and_si128(t, is_digit), lanes);
	v = _mm_maddubs_epi16(v, _mm_set1_epi16(1 << 8 | 10));
	v = _mm_madd_epi16(v, _mm_set1_epi32(1 << 16 | 100));
	v = _mm_packus_epi32(v, v);
	v = _mm_madd_epi16(v, _mm_set1_epi32(1 << 16 | 10000));
	uint64_t both = (uint64_t)_mm_cvtsi128_si64(v);
	/* the name: up to the first byte at or below ' ', which must be a space; 1 to 31 bytes */
	const char *name = q + 13;
	__m256i y = _mm256_loadu_si256((const __m256i *)(const void *)name);
	__m256i low = _mm256_cmpeq_epi8(_mm256_min_epu8(y, _mm256_set1_epi8(' ')), y);
	unsigned len = (unsigned)__builtin_ctz((unsigned)_mm256_movemask_epi8(low) | 1u << 31);
	if (len == 0 || name[len] != ' ')
		return NULL;
	__m256i keep = _mm256_loadu_si256((const __m256i *)(const void *)(ds_keep_first + 32 - len));
	_mm256_storeu_si256((__m256i *)(void *)d->name, _mm256_and_si256(y, keep));
	d->major = (uint32_t)both;
	d->minor = (uint32_t)(both >> 32);
	return name + len + 1;
}

/* The lines from p on into s (after its devices), as long as each parses the fastest way and
 * DS_FAST_SPAN bytes are left: the start of the first line that does not, for the caller's
 * other ways; NULL when out of memory.  One call for thousands of lines, each the same as
 * diskstats_fast_line's SIMD path (its constants set up once, no call a line). */
static DS_AVX2 const char *diskstats_simd_lines(const char *text, const char *p, const char *end,
						struct snapshot *s, struct ds_order_seen *o)
{
	while (end - p >= DS_FAST_SPAN) {
		if (s->ndev == s->cap_dev && snapshot_reserve(s, s->ndev + 1) < 0)
			return NULL;
		struct dev_counters *d = &s->dev[s->ndev];
		const char *fields = diskstats_head_simd(p, d);
		/* the fields' pass reads 16 bytes before them */
		const char *next = fields && fields - text >= 16 ? diskstats_fields17_simd(fields, d) : NULL;
		if (!next)
			break;
		d->nfields = DS_NFIELDS;
		d->ident = NULL;
		diskstats_order_note(o, d, s->ndev == 0);
		s->ndev++;
		p = next;
	}
	return p;
}

static bool diskstats_simd_usable(void)
{
	static int usable = -1;
	if (usable < 0) {
		__builtin_cpu_init();
		usable = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") &&
			 __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("popcnt");
	}
	return usable;
}
#else
static const char *diskstats_fields17_simd_call(const char *p, struct dev_counters *d)
{
	(void)p;
	(void)d;
	return NULL;
}
static const char *diskstats_head_simd(const char *q, struct dev_counters *d)
{
	(void)q;
	(void)d;
	return NULL;
}
static const char *diskstats_simd_lines(const char *text, const char *p, const char *end,
					struct snapshot *s, struct ds_order_seen *o)
{
	(void)text;
	(void)end;
	(void)s;
	(void)o;
	return p;
}
static bool diskstats_simd_usable(void)
{
	return false;
}
#endif

/* One line the way the kernel writes it, into d; the start of the next
 * line, or NULL for the careful parser to take it. */
/* "major minor name " the scalar way, into d; the start of the fields or NULL. */
static const char *diskstats_fast_head(const char *p, struct dev_counters *d)
{
	/* outside the unrolled loop the constants stay constants: there the
	 * compiler's own choice of registers is the better one */
	const struct ds_k k = ds_k_consts;
	uint64_t bad = 0, major, minor;
	if (!diskstats_fast_spaces(&p) || (major = diskstats_field(&k, &p, &bad), bad) || *p != ' ' ||
	    !diskstats_fast_spaces(&p) || (minor = diskstats_field(&k, &p, &bad), bad) || *p != ' ' ||
	    !diskstats_fast_spaces(&p) || !diskstats_fast_name(&p, d->name) ||
	    major > UINT32_MAX || minor > UINT32_MAX)
		return NULL;
	d->major = (uint32_t)major;
	d->minor = (uint32_t)minor;
	return p;
}

static const char *diskstats_fast_line(const char *text, const char *p, struct dev_counters *d,
				       bool simd)
{
	const char *fields = simd ? diskstats_head_simd(p, d) : NULL;
	p = fields ? fields : diskstats_fast_head(p, d);
	if (!p)
		return NULL;
	const struct ds_k k = ds_k_consts;
	uint64_t bad = 0;
	/* the SIMD pass reads 16 bytes before the fields: there are, but for a first line of a
	 * shape no kernel prints */
	const char *next = simd && p - text >= 16 ? diskstats_fields17_simd_call(p, d) : diskstats_fields17(p, d);
	if (next) {
		d->nfields = DS_NFIELDS;
		d->ident = NULL;
		return next;
	}
	/* fewer fields (an older kernel), or something to hand over */
	size_t n = 0;
	char sep;
	do {
		d->f[n] = diskstats_field(&k, &p, &bad);
		if (bad)
			return NULL;
		sep = *p++;
		n++;
	} while (sep == ' ' && n < DS_NFIELDS);
	if (sep != '\n')
		return NULL;	/* a stray byte, or more fields than we know */
	return diskstats_finish(d, (int)n) ? p : NULL;
}

/* One line, however spaced: blank lines skipped, malformed ones counted. */
static int diskstats_careful_line(struct ds_cursor *c, struct snapshot *s, size_t *nbad)
{
	struct ds_cursor probe = *c;
	diskstats_skip_blanks(&probe);
	if (probe.p < c->end && *probe.p != '\n') {
		if (s->ndev == s->cap_dev && snapshot_reserve(s, s->ndev + 1) < 0)
			return -ENOMEM;
		if (diskstats_line(c, &s->dev[s->ndev]))
			s->ndev++;
		else
			(*nbad)++;
	}
	diskstats_next_line(c);
	return 0;
}

/* A device listed twice (a read torn by a rewrite, or a long /proc/diskstats whose device list
 * changed between two read() calls) is kept once, the first in sorted order, and the other
 * counted as a bad line: every consumer keys on major:minor, and two devices holding one
 * minor would share one identity (which the vanishing one's release would then free). */
static void diskstats_drop_duplicates(struct snapshot *s, size_t *nbad)
{
	size_t out = 0;
	for (size_t i = 0; i < s->ndev; i++) {
		if (out && s->dev[out - 1].major == s->dev[i].major &&
		    s->dev[out - 1].minor == s->dev[i].minor) {
			(*nbad)++;
			continue;
		}
		if (out != i)
			s->dev[out] = s->dev[i];
		out++;
	}
	s->ndev = out;
}

static int diskstats_parse_with(const char *text, size_t len, struct snapshot *s, size_t *bad,
				enum diskstats_way way)
{
	bool fast = way != DISKSTATS_CAREFUL;
	bool simd = way == DISKSTATS_FASTEST && diskstats_simd_usable();
	struct ds_cursor c = { text, text + len };
	size_t nbad = 0;
	/* the kernel lists devices in major:minor order, as a rule: then there is nothing to
	 * sort and no duplicate to look for, which each line's order tells */
	struct ds_order_seen order = { 0, true };
	s->ndev = 0;
	while (c.p < c.end) {
		if (simd && DS_FAST && !(c.p = diskstats_simd_lines(text, c.p, c.end, s, &order)))
			return -ENOMEM;
		if (c.p == c.end)
			break;
		size_t had = s->ndev;
		if (fast && DS_FAST && c.end - c.p >= DS_FAST_SPAN) {
			if (s->ndev == s->cap_dev && snapshot_reserve(s, s->ndev + 1) < 0)
				return -ENOMEM;
			const char *next = diskstats_fast_line(text, c.p, &s->dev[s->ndev], simd);
			if (next) {
				s->ndev++;
				c.p = next;
			}
		}
		if (s->ndev == had && diskstats_careful_line(&c, s, &nbad) < 0)
			return -ENOMEM;
		if (s->ndev > had)
			diskstats_order_note(&order, &s->dev[had], had == 0);
	}
	if (!order.in_order) {
		snapshot_sort_devs(s);
		diskstats_drop_duplicates(s, &nbad);
	}
	if (bad)
		*bad = nbad;
	return 0;
}

int diskstats_parse(const char *text, size_t len, struct snapshot *s, size_t *bad)
{
	return diskstats_parse_with(text, len, s, bad, DISKSTATS_FASTEST);
}

int diskstats_parse_careful(const char *text, size_t len, struct snapshot *s, size_t *bad)
{
	return diskstats_parse_with(text, len, s, bad, DISKSTATS_CAREFUL);
}

int diskstats_parse_way(const char *text, size_t len, struct snapshot *s, size_t *bad,
			enum diskstats_way way)
{
	return diskstats_parse_with(text, len, s, bad, way);
}
