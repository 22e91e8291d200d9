/*
 * test_rec.c - recordings: the packed counter codec, varints and checksum
 * (table-driven), time parsing, and whole files: snapshots written and
 * replayed bit-exactly with devices coming, going and changing identity,
 * seeking, marks, follow mode, export, and every kind of bad file
 * (not a recording, newer format, truncated, damaged, write errors).
 */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/ident.h"
#include "sink/procs_view.h"
#include "rec/rec.h"
#include "rec/rec_buf.h"
#include "rec/rec_codec.h"
#include "rec/rec_crc.h"
#include "rec/rec_schema.h"

/* ---- Codec, varints, checksum ----------------------------------------- */

START_TEST(test_varint_roundtrip)
{
	static const uint64_t v[] = { 0, 1, 127, 128, 300, 16383, 16384, UINT32_MAX,
				      (uint64_t)1 << 56, UINT64_MAX - 1, UINT64_MAX };
	struct rec_buf b = { 0 };
	for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
		rec_buf_put_varint(&b, v[i]);
	const uint8_t *p = b.p, *end = b.p + b.len;
	for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
		uint64_t x;
		ck_assert(rec_buf_get_varint(&p, end, &x));
		ck_assert_uint_eq(x, v[i]);
	}
	ck_assert_ptr_eq(p, end);
	uint64_t x;
	ck_assert(!rec_buf_get_varint(&p, end, &x));	/* past the end */
	rec_buf_free(&b);
	static const uint8_t cut[] = { 0x80, 0x80 };
	static const uint8_t huge[] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f };
	p = cut;
	ck_assert(!rec_buf_get_varint(&p, cut + sizeof cut, &x));
	p = huge;
	ck_assert(!rec_buf_get_varint(&p, huge + sizeof huge, &x));	/* over 64 bits */
}
END_TEST

START_TEST(test_crc32_known)
{
	ck_assert_uint_eq(rec_crc_bytes(0, "123456789", 9), 0xCBF43926u);
	ck_assert_uint_eq(rec_crc_bytes(0, "", 0), 0);
}
END_TEST

/* A device's counters over time: each row is one sample. */
static const uint64_t codec_rows[][DS_NFIELDS] = {
	{ 0 },
	{ 10, 1, 80, 5, 20, 2, 160, 9, 3, 50, 70, 0, 0, 0, 0, 4, 1 },
	{ 10, 1, 80, 5, 20, 2, 160, 9, 3, 50, 70, 0, 0, 0, 0, 4, 1 },		/* idle */
	{ 25, 1, 200, 9, 40, 3, 320, 19, 0, 80, 99, 0, 0, 0, 0, 8, 2 },		/* in flight down */
	{ 40, 2, 330, 12, 60, 4, 480, 29, 7, 110, 130, 0, 0, 0, 0, 12, 3 },	/* same fields */
	{ 41, 2, 338, 12, 61, 4, 488, 29, 7, 111, 130, 0, 0, 0, 0, 12, 3 },	/* fewer fields */
	{ UINT64_MAX, 2, 338, 12, 61, 4, 488, 29, UINT64_MAX, 111, 130, 1, 1, 1, 1, 12, 3 },
	{ 3, 2, 338, 12, 61, 4, 488, 29, 0, 111, 130, 1, 1, 1, 1, 12, 3 },	/* wrap, reset */
	{ 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 },			/* device reset */
	{ (uint64_t)1 << 40, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 },
	{ ((uint64_t)1 << 40) + 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2 },
	{ ((uint64_t)1 << 40) + 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3 },
};
#define NCODEC (sizeof codec_rows / sizeof codec_rows[0])

START_TEST(test_codec_roundtrip)
{
	struct rec_codec_dev enc, dec;
	rec_codec_reset(&enc, codec_rows[0]);
	rec_codec_reset(&dec, codec_rows[0]);
	struct rec_buf b = { 0 };
	struct rec_bitw w = { .b = &b };
	for (size_t i = 1; i < NCODEC; i++)
		rec_codec_put(&w, &enc, codec_rows[i]);
	rec_codec_flush_bits(&w);
	struct rec_bitr r = { .p = b.p, .end = b.p + b.len };
	for (size_t i = 1; i < NCODEC; i++) {
		ck_assert_msg(rec_codec_get(&r, &dec), "row %zu", i);
		ck_assert_msg(memcmp(dec.prev, codec_rows[i], sizeof dec.prev) == 0, "row %zu", i);
	}
	ck_assert_ptr_eq(r.p, b.p + b.len);
	/* Cut short anywhere: an error, never a wrong value read as right. */
	for (size_t cut = 0; cut < b.len; cut++) {
		struct rec_codec_dev d2;
		rec_codec_reset(&d2, codec_rows[0]);
		struct rec_bitr r2 = { .p = b.p, .end = b.p + cut };
		bool ok = true;
		for (size_t i = 1; i < NCODEC && ok; i++)
			ok = rec_codec_get(&r2, &d2);
		ck_assert_msg(!ok, "decoded all rows from %zu of %zu bytes", cut, b.len);
	}
	rec_buf_free(&b);
}
END_TEST

/* Steady busy devices cost about the information in their deltas; an idle
 * one costs a bit. */
START_TEST(test_codec_sizes)
{
	struct rec_codec_dev st;
	uint64_t f[DS_NFIELDS] = { 0 };
	rec_codec_reset(&st, f);
	struct rec_buf b = { 0 };
	struct rec_bitw w = { .b = &b };
	unsigned seed = 1;
	for (int s = 0; s < 1000; s++) {
		seed = seed * 1103515245 + 12345;
		uint64_t ios = 200 + (seed >> 16) % 50;
		f[DS_WR_IOS] += ios;
		f[DS_WR_SECT] += ios * 256;
		f[DS_WR_MS] += ios * 3;
		f[DS_IO_MS] += 990 + (seed >> 8) % 10;
		f[DS_QUEUE_MS] += ios * 3;
		rec_codec_put(&w, &st, f);
	}
	rec_codec_flush_bits(&w);
	ck_assert_msg(b.len < 1000 * 8, "%zu bytes for 1000 samples of 5 busy fields", b.len);
	size_t busy = b.len;
	for (int s = 0; s < 1000; s++)
		rec_codec_put(&w, &st, f);	/* idle */
	rec_codec_flush_bits(&w);
	ck_assert_uint_le(b.len - busy, 1000 / 8 + 1);
	rec_buf_free(&b);
}
END_TEST

/* ---- Time ------------------------------------------------------------- */

struct time_case {
	const char *text;
	int64_t start_s;	/* the recording's start, UTC */
	int rc;
	int64_t want_s;
};

static const struct time_case time_cases[] = {
	{ "1714550400", 0, 0, 1714550400 },
	{ " 1714550400.5", 0, 0, 1714550400 },	/* fraction checked below */
	{ "2024-05-01 08:00:00", 0, 0, 1714550400 },
	{ "2024-05-01T08:00:00", 0, 0, 1714550400 },
	{ "2024-05-01 08:00", 0, 0, 1714550400 },
	{ "08:00:00", 1714548600, 0, 1714550400 },		/* start 07:30: same day */
	{ "07:30:00", 1714548600, 0, 1714548600 },		/* the start itself */
	{ "07:00:00", 1714548600, 0, 1714550400 - 3600 + 86400 },	/* before: next day */
	{ "7:00:00", 1714548600, 0, 1714550400 - 3600 + 86400 },
	{ "", 0, -EINVAL, 0 },
	{ "abc", 0, -EINVAL, 0 },
	{ "25:00:00", 0, -EINVAL, 0 },
	{ "12:3", 0, -EINVAL, 0 },
	{ "12:30:00 ", 0, -EINVAL, 0 },
	{ "2024-13-01 00:00:00", 0, -EINVAL, 0 },
	{ "2024-05-01", 0, -EINVAL, 0 },
	{ "1714550400x", 0, -EINVAL, 0 },
	{ "99999999999999999999", 0, -EINVAL, 0 },
};

START_TEST(test_time_parse)
{
	setenv("TZ", "UTC", 1);
	tzset();
	const struct time_case *c = &time_cases[_i];
	int64_t ns = -1;
	int rc = rec_time_parse(c->text, c->start_s * 1000000000LL, &ns);
	ck_assert_msg(rc == c->rc, "'%s': rc %d", c->text, rc);
	if (rc == 0)
		ck_assert_msg(ns / 1000000000 == c->want_s, "'%s': %lld", c->text, (long long)ns);
	if (_i == 1)
		ck_assert_int_eq(ns % 1000000000, 500000000);
}
END_TEST

/* ---- Synthetic sessions ----------------------------------------------- */

#define NPOOL 7

/* A pool of devices with identities; samples draw from it. */
struct gen {
	struct dev_ident id[NPOOL];
	struct dev_counters dev[NPOOL];
	unsigned seed;
};

static const char *const gen_names[NPOOL] = { "sda", "sda1", "sdb", "dm-0", "loop0", "nvme0n1", "md0" };

static void gen_init(struct gen *g)
{
	memset(g, 0, sizeof *g);
	g->seed = 42;
	for (int i = 0; i < NPOOL; i++) {
		struct dev_ident *id = &g->id[i];
		struct dev_counters *d = &g->dev[i];
		d->major = i < 3 ? 8 : 250 + (uint32_t)i;
		d->minor = (uint32_t)i * 16;
		snprintf(d->name, sizeof d->name, "%s", gen_names[i]);
		d->nfields = i == 4 ? 11 : i == 5 ? 15 : 17;
		id->major = d->major;
		id->minor = d->minor;
		id->kname = (char *)gen_names[i];
		id->label_short = (char *)(i == 3 ? "vg-home" : gen_names[i]);
		id->key = (char *)(i == 3 ? "dm:vg-home" : i == 1 ? "fs:1111-2222" : i == 2 ? "wwid:naa.5000" : "name:x");
		id->dm_name = (char *)(i == 3 ? "vg-home" : NULL);
		id->dm_uuid = (char *)(i == 3 ? "LVM-abc" : NULL);
		id->mounts = (char *)(i == 1 ? "/" : i == 3 ? "/home /var/home" : NULL);
		id->fstype = (char *)(i == 1 ? "ext4" : NULL);
		id->fs_label = (char *)(i == 1 ? "root \"quoted\", with comma" : NULL);
		id->fs_uuid = (char *)(i == 1 ? "1111-2222" : NULL);
		id->wwid = (char *)(i == 2 ? "naa.5000" : NULL);
		id->serial = (char *)(i == 0 ? "S3R1AL" : NULL);
		id->write_cache = (char *)(i < 3 ? "write back" : NULL);
		id->rotational = i == 2 ? 1 : i == 6 ? -1 : 0;
		id->partition = i == 1;
		id->has_bdi = i != 1;
		for (int k = 0; k < KNOB_BDI_COUNT; k++)
			id->bdi[k] = id->has_bdi ? k * 10 + i : -1;
		d->ident = i == 6 ? NULL : id;	/* md0 recorded without identity */
	}
}

static uint64_t gen_rand(struct gen *g)
{
	g->seed = g->seed * 1103515245 + 12345;
	return g->seed >> 8;
}

/* Sample n of the session: devices vanish and come back, one changes its
 * mounts, one is reset, knobs change. */
static void gen_sample(struct gen *g, int n, struct snapshot *s)
{
	s->mono_ns = 1000000000ull * (uint64_t)(n + 1000) + (uint64_t)(gen_rand(g) % 1000);
	s->wall_ns = 1714550400000000000LL + (int64_t)n * 1000000000LL + (int64_t)(n % 7);
	s->page_size = 4096;
	for (size_t c = 0; c < rec_schema_nsys_cols; c++)
		rec_schema_sys_set(s, c, rec_schema_sys_get(s, c) + gen_rand(g) % (c * 100 + 1));
	s->sys.ctxt = UINT64_MAX - 5 + (uint64_t)n;	/* wraps: stored as a negative integer */
	for (int k = 0; k < SNAP_NKNOBS; k++)
		s->knob[k] = k == 0 ? 20 + (n / 100) : k == 2 ? 0 : -1 + (n > 300 ? k : 0);
	g->id[1].mounts = (char *)(n < 150 ? "/" : "/ /mnt/snap");	/* in place, as mounts refresh */
	s->ndev = 0;
	snapshot_reserve(s, NPOOL);
	for (int i = 0; i < NPOOL; i++) {
		if ((i == 2 && n >= 50 && n < 120) || (i == 5 && n < 30) || (i == 4 && n % 97 > 90))
			continue;
		struct dev_counters *d = &g->dev[i];
		if (i == 0 && n == 200)
			memset(d->f, 0, sizeof d->f);	/* counters reset */
		for (int f = 0; f < d->nfields; f++)
			if (f == DS_IN_FLIGHT)
				d->f[f] = gen_rand(g) % 5;
			else if ((gen_rand(g) & 3) || i == 0)
				d->f[f] += gen_rand(g) % (1u << (f % 24));
		s->dev[s->ndev++] = *d;
	}
}

static char tmp_dir[64];

/* Every test's files go to one directory, removed after the test. */
static void tmp_cleanup(void)
{
	DIR *d = tmp_dir[0] ? opendir(tmp_dir) : NULL;
	struct dirent *e;
	while (d && (e = readdir(d))) {
		char p[sizeof tmp_dir + sizeof e->d_name + 1];
		if (e->d_name[0] == '.')
			continue;
		snprintf(p, sizeof p, "%s/%s", tmp_dir, e->d_name);
		unlink(p);
	}
	if (d) {
		closedir(d);
		rmdir(tmp_dir);
	}
	tmp_dir[0] = '\0';
}

static char *tmp_path(const char *name)
{
	char *dir = tmp_dir;
	if (!dir[0]) {
		snprintf(dir, sizeof tmp_dir, "/tmp/wbtop-rec-XXXXXX");
		ck_assert_ptr_nonnull(mkdtemp(dir));
	}
	char *p = malloc(strlen(dir) + strlen(name) + 2);
	sprintf(p, "%s/%s", dir, name);
	unlink(p);
	return p;
}

static bool str_same(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static void check_ident(const struct dev_ident *a, const struct dev_ident *b)
{
	if (!a || !b) {
		ck_assert_ptr_eq(a, b);
		return;
	}
	ck_assert(str_same(a->kname, b->kname));
	ck_assert(str_same(a->key, b->key));
	ck_assert(str_same(a->label_short, b->label_short));
	ck_assert(str_same(a->dm_name, b->dm_name));
	ck_assert(str_same(a->dm_uuid, b->dm_uuid));
	ck_assert(str_same(a->md_name, b->md_name));
	ck_assert_msg(str_same(a->mounts, b->mounts), "mounts %s / %s", a->mounts, b->mounts);
	ck_assert(str_same(a->fstype, b->fstype));
	ck_assert(str_same(a->fs_label, b->fs_label));
	ck_assert(str_same(a->fs_uuid, b->fs_uuid));
	ck_assert(str_same(a->wwid, b->wwid));
	ck_assert(str_same(a->serial, b->serial));
	ck_assert(str_same(a->write_cache, b->write_cache));
	ck_assert_int_eq(a->rotational, b->rotational);
	ck_assert_int_eq(a->partition, b->partition);
	ck_assert_int_eq(a->has_bdi, b->has_bdi);
	ck_assert_uint_eq(a->major, b->major);
	ck_assert_uint_eq(a->minor, b->minor);
	ck_assert(memcmp(a->bdi, b->bdi, sizeof a->bdi) == 0);
}

static void check_snap(const struct snapshot *a, const struct snapshot *b, int n)
{
	ck_assert_msg(a->mono_ns == b->mono_ns && a->wall_ns == b->wall_ns, "sample %d: time", n);
	ck_assert_uint_eq(a->page_size, b->page_size);
	ck_assert_msg(memcmp(&a->sys, &b->sys, sizeof a->sys) == 0, "sample %d: sys", n);
	ck_assert_msg(memcmp(a->knob, b->knob, sizeof a->knob) == 0, "sample %d: knobs", n);
	ck_assert_msg(a->ndev == b->ndev, "sample %d: %zu vs %zu devices", n, a->ndev, b->ndev);
	for (size_t i = 0; i < a->ndev; i++) {
		const struct dev_counters *x = &a->dev[i], *y = &b->dev[i];
		ck_assert_msg(x->major == y->major && x->minor == y->minor, "sample %d dev %zu", n, i);
		ck_assert_str_eq(x->name, y->name);
		ck_assert_uint_eq(x->nfields, y->nfields);
		ck_assert_msg(memcmp(x->f, y->f, sizeof x->f) == 0, "sample %d dev %s: counters", n, x->name);
		check_ident(x->ident, y->ident);
	}
}

#define NSAMP 600

/* Write the synthetic session (dips on every 10th sample, an event at 77),
 * keeping copies of what was written in want[]. */
static void write_session(const char *path, struct snapshot *want, int nsamp)
{
	char err[256] = "";
	struct rec_writer *w = rec_writer_open(path, err, sizeof err);
	ck_assert_msg(w != NULL, "%s", err);
	struct gen g;
	gen_init(&g);
	struct snapshot s;
	snapshot_init(&s);
	for (int n = 0; n < nsamp; n++) {
		gen_sample(&g, n, &s);
		bool dips[NPOOL] = { false };
		dips[s.ndev - 1] = n % 10 == 5;
		if (n == 77) {
			struct wb_event e = { .wall_ns = s.wall_ns - 1, .old_value = 20, .new_value = 10,
					      .read_back = 10, .result = 0 };
			snprintf(e.knob, sizeof e.knob, "vm.dirty_ratio");
			snprintf(e.note, sizeof e.note, "undo");
			ck_assert_int_eq(rec_writer_event(w, &e), 0);
		}
		ck_assert_int_eq(rec_writer_append(w, &s, n % 10 == 0, dips), 0);
		snapshot_init(&want[n]);
		ck_assert_int_eq(snapshot_copy(&want[n], &s), 0);
		/* the ident of the copy must be the content at that time */
		for (size_t i = 0; i < want[n].ndev; i++)
			if (want[n].dev[i].ident) {
				struct dev_ident *c = calloc(1, sizeof *c);
				rec_schema_ident_copy(c, want[n].dev[i].ident);
				want[n].dev[i].ident = c;
			}
	}
	ck_assert_int_eq(rec_writer_count(w), nsamp);
	ck_assert_int_eq(rec_writer_close(w, err, sizeof err), 0);
	snapshot_free(&s);
}

static void free_session(struct snapshot *want, int nsamp)
{
	for (int n = 0; n < nsamp; n++) {
		for (size_t i = 0; i < want[n].ndev; i++)
			if (want[n].dev[i].ident) {
				rec_schema_ident_clear((struct dev_ident *)want[n].dev[i].ident);
				free((void *)want[n].dev[i].ident);
			}
		snapshot_free(&want[n]);
	}
}

/* A recording whose devices share a key (the pool's sda, loop0 and nvme0n1
 * all say "name:x", as a dm device and its disk said one fs: key before
 * issue 28): replayed, each by its name, and the collision said in one
 * sentence; a recording without one says nothing. */
START_TEST(test_replay_shared_keys_said_once)
{
	char *path = tmp_path("shared.wbrec"), err[256] = "", note[768];
	static struct snapshot want[NSAMP];
	write_session(path, want, NSAMP);
	struct source *src = rec_replay_open(path, false, err, sizeof err);
	ck_assert_msg(src != NULL, "%s", err);
	ck_assert_int_eq(rec_replay_shared_keys(src, note, sizeof note), 1);
	ck_assert_msg(strstr(note, "1 identity key shared by devices of this recording (name:x by "),
		      "%s", note);
	ck_assert_msg(strstr(note, "loop0") && strstr(note, "nvme0n1") && strstr(note, "sda"), "%s", note);
	ck_assert_msg(!strstr(note, "fs:1111-2222") && !strstr(note, "dm:vg-home"), "%s", note);
	ck_assert_msg(strstr(note, "each is listed on its own"), "%s", note);
	source_close(src);
	free_session(want, NSAMP);
	free(path);
}
END_TEST

START_TEST(test_roundtrip_bit_exact)
{
	char *path = tmp_path("rt.wbrec"), err[256] = "";
	static struct snapshot want[NSAMP];
	write_session(path, want, NSAMP);
	struct source *src = rec_replay_open(path, false, err, sizeof err);
	ck_assert_msg(src != NULL, "%s", err);
	ck_assert_str_eq(src->ops->kind, "replay");
	ck_assert(rec_replay_is(src));
	ck_assert_int_eq(rec_replay_count(src), NSAMP);
	struct snapshot got;
	snapshot_init(&got);
	for (int n = 0; n < NSAMP; n++) {
		ck_assert_int_eq(rec_replay_tell(src), n);
		int rc = source_next(src, &got);
		ck_assert_msg(rc == 0, "sample %d: %d %s", n, rc, src->errmsg);
		check_snap(&want[n], &got, n);
		struct source_marks m;
		ck_assert_int_eq(rec_replay_marks(src, &m), 0);
		ck_assert_int_eq(m.sys_dip, n % 10 == 0);
		ck_assert(m.dev_dips != NULL);
		ck_assert_int_eq(m.dev_dips[got.ndev - 1], n % 10 == 5);
		ck_assert_uint_eq(m.nevents, n == 77);
		if (n == 77) {
			ck_assert_str_eq(m.events[0].knob, "vm.dirty_ratio");
			ck_assert_str_eq(m.events[0].note, "undo");
			ck_assert_int_eq(m.events[0].read_back, 10);
		}
	}
	ck_assert_int_eq(source_next(src, &got), 1);
	source_close(src);
	snapshot_free(&got);
	free_session(want, NSAMP);
	free(path);
}
END_TEST

START_TEST(test_seek_and_marks)
{
	char *path = tmp_path("seek.wbrec"), err[256] = "";
	static struct snapshot want[NSAMP];
	write_session(path, want, NSAMP);
	struct source *src = rec_replay_open(path, false, err, sizeof err);
	ck_assert_msg(src != NULL, "%s", err);
	struct snapshot got;
	snapshot_init(&got);
	static const int64_t order[] = { 599, 0, 256, 255, 257, 511, 300, 301, 299, 5, 598, 1 };
	for (size_t k = 0; k < sizeof order / sizeof order[0]; k++) {
		ck_assert_int_eq(rec_replay_seek(src, order[k]), 0);
		ck_assert_int_eq(source_next(src, &got), 0);
		check_snap(&want[order[k]], &got, (int)order[k]);
		ck_assert_int_eq(rec_replay_tell(src), order[k] + 1);
	}
	/* random jumps and runs of steps back, through the state cache */
	unsigned seed = 7;
	for (int k = 0; k < 300; k++) {
		seed = seed * 1103515245 + 12345;
		int64_t t = (int64_t)((seed >> 8) % NSAMP);
		for (int back = 0; back < (k % 3 ? 1 : 40) && t - back >= 0; back++) {
			ck_assert_int_eq(rec_replay_seek(src, t - back), 0);
			ck_assert_int_eq(source_next(src, &got), 0);
			check_snap(&want[t - back], &got, (int)(t - back));
		}
	}
	ck_assert_int_eq(rec_replay_seek(src, NSAMP), 0);
	ck_assert_int_eq(source_next(src, &got), 1);
	ck_assert_int_eq(rec_replay_seek(src, NSAMP + 1), -ERANGE);
	ck_assert_int_eq(rec_replay_seek(src, -1), -ERANGE);
	/* time: wall = start + n s (+ a few ns) */
	int64_t t0 = want[0].wall_ns;
	ck_assert_int_eq(rec_replay_find_time(src, t0), 0);
	ck_assert_int_eq(rec_replay_find_time(src, t0 + 100 * 1000000000LL), 100);
	ck_assert_int_eq(rec_replay_find_time(src, t0 + 100 * 1000000000LL + 500), 101);
	ck_assert_int_eq(rec_replay_find_time(src, t0 + 10000 * 1000000000LL), NSAMP);
	ck_assert_int_eq(rec_replay_wall_ns(src, 3), want[3].wall_ns);
	/* dips: system every 10th, a device at 5 mod 10 */
	ck_assert_int_eq(rec_replay_next_mark(src, 0, 1, REC_MARK_DIP), 5);
	ck_assert_int_eq(rec_replay_next_mark(src, 5, 1, REC_MARK_DIP), 10);
	ck_assert_int_eq(rec_replay_next_mark(src, 10, -1, REC_MARK_DIP), 5);
	ck_assert_int_eq(rec_replay_next_mark(src, 0, -1, REC_MARK_DIP), -ENOENT);
	ck_assert_int_eq(rec_replay_next_mark(src, 595, 1, REC_MARK_DIP), -ENOENT);
	/* knob changes: the event at 77, dirty_ratio at 100, 200, ... */
	ck_assert_int_eq(rec_replay_next_mark(src, 0, 1, REC_MARK_KNOB), 77);
	ck_assert_int_eq(rec_replay_next_mark(src, 77, 1, REC_MARK_KNOB), 100);
	ck_assert_int_eq(rec_replay_next_mark(src, 100, -1, REC_MARK_KNOB), 77);
	ck_assert_int_eq(rec_replay_next_mark(src, 77, -1, REC_MARK_KNOB), -ENOENT);
	ck_assert_int_eq(rec_replay_next_mark(src, 590, 1, REC_MARK_KNOB), -ENOENT);
	/* a limit renumbers from its first sample */
	char lim_err[256] = "";
	char b[32], e[32];
	snprintf(b, sizeof b, "%lld", (long long)(t0 / 1000000000 + 100));
	snprintf(e, sizeof e, "%lld", (long long)(t0 / 1000000000 + 199));	/* the whole second */
	ck_assert_msg(rec_replay_limit(src, b, e, lim_err, sizeof lim_err) == 0, "%s", lim_err);
	ck_assert_int_eq(rec_replay_count(src), 100);
	ck_assert_int_eq(rec_replay_tell(src), 0);
	/* the samples before it come first, as the lead (for the detectors), then its own */
	for (int i = 0; i < 100; i++) {
		ck_assert_int_eq(source_next(src, &got), 0);
		ck_assert_msg(got.lead, "sample %d is not the lead", i);
		ck_assert_int_eq(rec_replay_tell(src), 0);
	}
	ck_assert_int_eq(source_next(src, &got), 0);
	ck_assert(!got.lead);
	check_snap(&want[100], &got, 100);
	ck_assert_int_eq(rec_replay_next_mark(src, 0, 1, REC_MARK_DIP), 5);
	ck_assert_int_eq(rec_replay_seek(src, 99), 0);
	ck_assert_int_eq(source_next(src, &got), 0);
	check_snap(&want[199], &got, 199);
	ck_assert_int_eq(source_next(src, &got), 1);
	ck_assert_int_eq(rec_replay_limit(src, "garbage", NULL, lim_err, sizeof lim_err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(lim_err, "--begin 'garbage'"));
	source_close(src);
	snapshot_free(&got);
	free_session(want, NSAMP);
	free(path);
}
END_TEST

START_TEST(test_devices_table_records_changes)
{
	char *path = tmp_path("devs.wbrec");
	static struct snapshot want[NSAMP];
	write_session(path, want, 300);
	sqlite3 *db;
	ck_assert_int_eq(sqlite3_open(path, &db), SQLITE_OK);
	sqlite3_stmt *st;
	/* sdb vanished at 50 and came back at 120: two rows, the first ended */
	ck_assert_int_eq(sqlite3_prepare_v2(db, "SELECT first_seq, last_seq, vanished, appeared FROM devices"
					    " WHERE name = 'sdb' ORDER BY id", -1, &st, NULL), SQLITE_OK);
	ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
	ck_assert_int_eq(sqlite3_column_int(st, 0), 0);
	ck_assert_int_eq(sqlite3_column_int(st, 1), 49);
	ck_assert_int_eq(sqlite3_column_int(st, 2), 1);
	ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
	ck_assert_int_eq(sqlite3_column_int(st, 0), 120);
	ck_assert_int_eq(sqlite3_column_type(st, 1), SQLITE_NULL);
	ck_assert_int_eq(sqlite3_column_int(st, 3), 1);
	sqlite3_finalize(st);
	/* sda1's mounts changed at 150: a new row that did not "appear" */
	ck_assert_int_eq(sqlite3_prepare_v2(db, "SELECT mounts, appeared, vanished, last_seq FROM devices"
					    " WHERE name = 'sda1' ORDER BY id", -1, &st, NULL), SQLITE_OK);
	ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
	ck_assert_str_eq((const char *)sqlite3_column_text(st, 0), "/");
	ck_assert_int_eq(sqlite3_column_int(st, 2), 0);
	ck_assert_int_eq(sqlite3_column_int(st, 3), 149);
	ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
	ck_assert_str_eq((const char *)sqlite3_column_text(st, 0), "/ /mnt/snap");
	ck_assert_int_eq(sqlite3_column_int(st, 1), 0);
	sqlite3_finalize(st);
	/* plain SQL on the plain tables */
	ck_assert_int_eq(sqlite3_prepare_v2(db, "SELECT count(*) FROM dips WHERE device_id IS NULL", -1, &st,
					    NULL), SQLITE_OK);
	ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
	ck_assert_int_eq(sqlite3_column_int(st, 0), 30);
	sqlite3_finalize(st);
	ck_assert_int_eq(sqlite3_prepare_v2(db, "SELECT value FROM knobs WHERE knob = 'vm.dirty_ratio'"
					    " ORDER BY seq", -1, &st, NULL), SQLITE_OK);
	int want_vals[] = { 20, 21, 22 }, k = 0;
	while (sqlite3_step(st) == SQLITE_ROW)
		ck_assert_int_eq(sqlite3_column_int(st, 0), want_vals[k++]);
	ck_assert_int_eq(k, 3);
	sqlite3_finalize(st);
	sqlite3_close(db);
	/* a closed recording is one file */
	char wal[300];
	snprintf(wal, sizeof wal, "%s-wal", path);
	ck_assert_int_ne(access(wal, F_OK), 0);
	free_session(want, 300);
	free(path);
}
END_TEST

/* ---- Follow ------------------------------------------------------------ */

START_TEST(test_follow_growing_file)
{
	char *path = tmp_path("follow.wbrec"), err[256] = "";
	struct rec_writer *w = rec_writer_open(path, err, sizeof err);
	ck_assert_msg(w != NULL, "%s", err);
	struct gen g;
	gen_init(&g);
	struct snapshot s, got;
	snapshot_init(&s);
	snapshot_init(&got);
	for (int n = 0; n < 3; n++) {
		gen_sample(&g, n, &s);
		ck_assert_int_eq(rec_writer_append(w, &s, false, NULL), 0);
	}
	struct source *src = rec_replay_open(path, true, err, sizeof err);
	ck_assert_msg(src != NULL, "%s", err);
	struct source *still = rec_replay_open(path, false, err, sizeof err);
	ck_assert_msg(still != NULL, "%s", err);
	for (int n = 0; n < 3; n++) {
		ck_assert_int_eq(source_next(src, &got), 0);
		ck_assert_int_eq(source_next(still, &got), 0);
	}
	ck_assert_int_eq(source_next(src, &got), -EAGAIN);
	gen_sample(&g, 3, &s);
	ck_assert_int_eq(rec_writer_append(w, &s, true, NULL), 0);
	ck_assert_int_eq(source_next(src, &got), 0);
	check_snap(&s, &got, 3);
	struct source_marks m;
	ck_assert_int_eq(rec_replay_marks(src, &m), 0);
	ck_assert(m.sys_dip);
	ck_assert_int_eq(source_next(still, &got), 1);	/* not following: ends where it began */
	ck_assert_int_eq(rec_replay_count(src), 4);
	ck_assert_int_eq(rec_writer_close(w, err, sizeof err), 0);
	ck_assert_int_eq(source_next(src, &got), 1);	/* the writer closed the file */
	source_close(src);
	source_close(still);
	snapshot_free(&s);
	snapshot_free(&got);
	free(path);
}
END_TEST

/* ---- Bad files --------------------------------------------------------- */

static void expect_refused(const char *path, const char *why)
{
	char err[512] = "";
	struct source *src = rec_replay_open(path, false, err, sizeof err);
	ck_assert_msg(src == NULL, "%s opened", path);
	ck_assert_msg(strstr(err, path) == err, "error does not name the file: %s", err);
	ck_assert_msg(strstr(err, why) != NULL, "'%s' lacks '%s'", err, why);
}

static void write_file(const char *path, const void *data, size_t n)
{
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(data, 1, n, f), n);
	fclose(f);
}

START_TEST(test_refuses_bad_files)
{
	char *path = tmp_path("bad");
	expect_refused(path, "No such file");
	write_file(path, "", 0);
	expect_refused(path, "empty file");
	write_file(path, "hello, this is text and not a recording at all\n", 48);
	expect_refused(path, "not a wbtop recording");
	char junk[8192];
	for (size_t i = 0; i < sizeof junk; i++)
		junk[i] = (char)(i * 7919 % 251);
	memcpy(junk, "SQLite format 3", 16);	/* a header, then garbage */
	write_file(path, junk, sizeof junk);
	char err[256];
	struct source *src = rec_replay_open(path, false, err, sizeof err);
	ck_assert(src == NULL);
	unlink(path);
	sqlite3 *db;
	ck_assert_int_eq(sqlite3_open(path, &db), SQLITE_OK);
	ck_assert_int_eq(sqlite3_exec(db, "CREATE TABLE t(x); INSERT INTO t VALUES (1)", NULL, NULL, NULL), 0);
	sqlite3_close(db);
	expect_refused(path, "no meta table");
	expect_refused("/tmp", "is a directory");
	free(path);
}
END_TEST

START_TEST(test_refuses_newer_version)
{
	char *path = tmp_path("newer.wbrec");
	static struct snapshot want[NSAMP];
	write_session(path, want, 5);
	sqlite3 *db;
	ck_assert_int_eq(sqlite3_open(path, &db), SQLITE_OK);
	ck_assert_int_eq(sqlite3_exec(db, "PRAGMA user_version = 99", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	expect_refused(path, "newer wbtop (format version 99");
	ck_assert_int_eq(sqlite3_open(path, &db), SQLITE_OK);
	ck_assert_int_eq(sqlite3_exec(db, "PRAGMA user_version = 0", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	expect_refused(path, "format version 0");
	free_session(want, 5);
	free(path);
}
END_TEST

START_TEST(test_refuses_truncated)
{
	char *path = tmp_path("cut.wbrec");
	static struct snapshot want[NSAMP];
	write_session(path, want, NSAMP);
	struct stat st;
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_int_eq(truncate(path, st.st_size / 2), 0);
	expect_refused(path, "truncated");
	ck_assert_int_eq(truncate(path, 50), 0);
	expect_refused(path, "truncated");
	free_session(want, NSAMP);
	free(path);
}
END_TEST

/* Flip one bit of byte off of sample seq's frame. */
static void flip_frame_bit(const char *path, int64_t seq, int off)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	ck_assert_int_eq(sqlite3_open(path, &db), SQLITE_OK);
	ck_assert_int_eq(sqlite3_prepare_v2(db, "SELECT frame_offset FROM samples WHERE seq = ?", -1, &st,
					    NULL), 0);
	sqlite3_bind_int64(st, 1, seq);
	ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
	int64_t at = sqlite3_column_int64(st, 0) + off;
	sqlite3_finalize(st);
	int64_t id = at / REC_CHUNK_BYTES;
	off = (int)(at % REC_CHUNK_BYTES);
	ck_assert_int_eq(sqlite3_prepare_v2(db, "SELECT data FROM frames WHERE id = ?", -1, &st, NULL), 0);
	sqlite3_bind_int64(st, 1, id);
	ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
	int n = sqlite3_column_bytes(st, 0);
	ck_assert_int_gt(n, off);
	unsigned char *buf = malloc((size_t)n);
	memcpy(buf, sqlite3_column_blob(st, 0), (size_t)n);
	sqlite3_finalize(st);
	buf[off] ^= 4;
	ck_assert_int_eq(sqlite3_prepare_v2(db, "UPDATE frames SET data = ? WHERE id = ?", -1, &st, NULL), 0);
	sqlite3_bind_blob(st, 1, buf, n, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, id);
	ck_assert_int_eq(sqlite3_step(st), SQLITE_DONE);
	sqlite3_finalize(st);
	sqlite3_close(db);
	free(buf);
}

/* A changed bit in a frame, or in a counter of the samples table, is caught
 * by the sample checksum: an error naming the sample, never wrong figures. */
START_TEST(test_detects_damage)
{
	char *path = tmp_path("dmg.wbrec"), err[256] = "";
	static struct snapshot want[NSAMP];
	write_session(path, want, 40);
	flip_frame_bit(path, 20, 3);
	struct source *src = rec_replay_open(path, false, err, sizeof err);
	ck_assert_msg(src != NULL, "%s", err);
	struct snapshot got;
	snapshot_init(&got);
	for (int n = 0; n < 20; n++)
		ck_assert_int_eq(source_next(src, &got), 0);
	int rc = source_next(src, &got);
	ck_assert_int_eq(rc, -EBADMSG);
	ck_assert_msg(strstr(src->errmsg, "sample 20") && strstr(src->errmsg, path), "%s", src->errmsg);
	ck_assert_int_eq(rec_replay_seek(src, 30), 0);
	ck_assert_int_eq(source_next(src, &got), -EBADMSG);	/* the keyframe path crosses 20 */
	ck_assert_int_eq(rec_replay_seek(src, 25), 0);
	ck_assert_int_eq(source_next(src, &got), -EBADMSG);
	source_close(src);
	free_session(want, 40);
	unlink(path);
	write_session(path, want, 40);
	sqlite3 *db;
	ck_assert_int_eq(sqlite3_open(path, &db), SQLITE_OK);
	ck_assert_int_eq(sqlite3_exec(db, "UPDATE samples SET dirty_kb = dirty_kb + 1 WHERE seq = 10",
				      NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	src = rec_replay_open(path, false, err, sizeof err);
	ck_assert_msg(src != NULL, "%s", err);
	ck_assert_int_eq(rec_replay_seek(src, 10), 0);
	ck_assert_int_eq(source_next(src, &got), -EBADMSG);
	ck_assert_msg(strstr(src->errmsg, "sample 10: checksum"), "%s", src->errmsg);
	source_close(src);
	snapshot_free(&got);
	free_session(want, 40);
	free(path);
}
END_TEST

/* A copy of the main file taken while a checkpoint was writing: its last
 * pages stale or zero.  It replays a prefix of the session, bit-exact. */
START_TEST(test_unfinished_copy_with_cut_tail)
{
	char *path = tmp_path("live.wbrec"), *copy = tmp_path("copy.wbrec"), err[256] = "";
	struct rec_writer *w = rec_writer_open(path, err, sizeof err);
	ck_assert_msg(w != NULL, "%s", err);
	struct gen g;
	gen_init(&g);
	static struct snapshot want[NSAMP];
	struct snapshot s, got;
	snapshot_init(&s);
	snapshot_init(&got);
	for (int n = 0; n < 400; n++) {
		gen_sample(&g, n, &s);
		ck_assert_int_eq(rec_writer_append(w, &s, false, NULL), 0);
		snapshot_init(&want[n]);
		snapshot_copy(&want[n], &s);
	}
	/* the writer is still open: copy the main file alone, then wipe the
	 * pages a checkpoint writes last (the newest), keeping its length */
	FILE *in = fopen(path, "r"), *out = fopen(copy, "w");
	char buf[4096];
	size_t n, total = 0;
	while ((n = fread(buf, 1, sizeof buf, in)) > 0)
		total += fwrite(buf, 1, n, out);
	fclose(in);
	fclose(out);
	rec_writer_close(w, NULL, 0);
	int fd = open(copy, O_RDWR);
	unsigned char h[100];
	ck_assert_int_eq(pread(fd, h, sizeof h, 0), 100);
	size_t pages = (size_t)h[28] << 24 | (size_t)h[29] << 16 | (size_t)h[30] << 8 | h[31];
	ck_assert_uint_le(pages * 4096, total);	/* the file is never shorter than it says */
	memset(buf, 0, sizeof buf);
	for (size_t p = pages - 3; p < pages; p++)
		ck_assert_int_eq(pwrite(fd, buf, sizeof buf, (off_t)(p * 4096)), 4096);
	close(fd);
	struct source *src = rec_replay_open(copy, false, err, sizeof err);
	ck_assert_msg(src != NULL, "%s", err);
	int64_t count = rec_replay_count(src);
	ck_assert_msg(count > 300 && count < 400, "%lld samples", (long long)count);
	int k = 0, rc;
	while ((rc = source_next(src, &got)) == 0) {
		/* identities are checked elsewhere; here the counters */
		ck_assert_int_eq(got.ndev, want[k].ndev);
		ck_assert(memcmp(&got.sys, &want[k].sys, sizeof got.sys) == 0);
		for (size_t i = 0; i < got.ndev; i++)
			ck_assert(memcmp(got.dev[i].f, want[k].dev[i].f, sizeof got.dev[i].f) == 0);
		k++;
	}
	ck_assert_msg(rc == 1, "%d %s", rc, src->errmsg);
	ck_assert_int_eq(k, count);
	source_close(src);
	for (int i = 0; i < 400; i++)
		snapshot_free(&want[i]);
	snapshot_free(&s);
	snapshot_free(&got);
	free(path);
	free(copy);
}
END_TEST

START_TEST(test_writer_refuses_existing)
{
	char *path = tmp_path("exists.wbrec"), err[256] = "";
	write_file(path, "x", 1);
	ck_assert_ptr_null(rec_writer_open(path, err, sizeof err));
	ck_assert_msg(strstr(err, "file exists"), "%s", err);
	ck_assert_ptr_null(rec_writer_open("/nonexistent-dir/x.wbrec", err, sizeof err));
	ck_assert_msg(strstr(err, "/nonexistent-dir/x.wbrec: No such file"), "%s", err);
	write_file(path, "", 0);	/* an empty file (mktemp) is fine */
	struct rec_writer *w = rec_writer_open(path, err, sizeof err);
	ck_assert_msg(w != NULL, "%s", err);
	ck_assert_int_eq(rec_writer_close(w, err, sizeof err), 0);
	ck_assert_int_eq(rec_writer_close(NULL, NULL, 0), 0);
	free(path);
}
END_TEST

/* A write error (here: the file size limit) stops the writer with a
 * message; what was written before still replays. */
START_TEST(test_write_error_stops_cleanly)
{
	char *path = tmp_path("full.wbrec"), err[256] = "";
	struct rec_writer *w = rec_writer_open(path, err, sizeof err);
	ck_assert_msg(w != NULL, "%s", err);
	signal(SIGXFSZ, SIG_IGN);
	struct rlimit rl = { 256 * 1024, 256 * 1024 };
	ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &rl), 0);
	struct gen g;
	gen_init(&g);
	struct snapshot s;
	snapshot_init(&s);
	int rc = 0, n;
	for (n = 0; n < 100000 && rc == 0; n++) {
		gen_sample(&g, n, &s);
		rc = rec_writer_append(w, &s, false, NULL);
	}
	ck_assert_int_lt(rc, 0);
	int64_t kept = rec_writer_count(w);	/* the failed sample, if it reached the WAL */
	ck_assert_msg(kept == n - 1 || kept == n, "kept %lld of %d", (long long)kept, n);
	ck_assert_msg(strstr(rec_writer_errmsg(w), "recording stopped after") &&
		      strstr(rec_writer_errmsg(w), path), "%s", rec_writer_errmsg(w));
	ck_assert_int_eq(rec_writer_append(w, &s, false, NULL), rc);	/* stays stopped */
	rec_writer_close(w, NULL, 0);
	rl.rlim_cur = rl.rlim_max = RLIM_INFINITY;
	setrlimit(RLIMIT_FSIZE, &rl);
	struct source *src = rec_replay_open(path, false, err, sizeof err);
	ck_assert_msg(src != NULL, "%s", err);
	ck_assert_int_eq(rec_replay_count(src), kept);
	int64_t got_n = 0;
	while ((rc = source_next(src, &s)) == 0)
		got_n++;
	ck_assert_int_eq(rc, 1);
	ck_assert_int_eq(got_n, kept);
	source_close(src);
	snapshot_free(&s);
	free(path);
}
END_TEST

/* ---- Export and compare ------------------------------------------------ */

static char *export_to_string(const char *path, enum rec_format fmt, const char *b, const char *e,
			      int *rc, char *err, size_t errlen)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	*rc = rec_export(path, fmt, b, e, NULL, f, err, errlen);
	fclose(f);
	return buf;
}

static int count_lines(const char *s)
{
	int n = 0;
	for (; *s; s++)
		n += *s == '\n';
	return n;
}

START_TEST(test_export_csv_and_json)
{
	char *path = tmp_path("exp.wbrec"), err[256] = "";
	static struct snapshot want[NSAMP];
	write_session(path, want, 200);
	setenv("TZ", "UTC", 1);
	tzset();
	int rc;
	char *csv = export_to_string(path, REC_FMT_CSV, NULL, NULL, &rc, err, sizeof err);
	ck_assert_msg(rc == 0, "%s", err);
	ck_assert_int_eq(count_lines(csv), 200);	/* header + 199 intervals */
	ck_assert(strncmp(csv, "time,wall_ns,dt_s,status,r,b,", 29) == 0);
	/* one block per stable key, even for the device that came and went;
	 * md0 has no identity: keyed by name */
	ck_assert_ptr_nonnull(strstr(csv, ",w_s@wwid:naa.5000,"));
	ck_assert_ptr_nonnull(strstr(csv, ",wkb_s@dm:vg-home,"));
	ck_assert_ptr_nonnull(strstr(csv, ",dip@name:md0"));
	ck_assert_ptr_nonnull(strstr(csv, "\n2024-05-01T08:00:01.000+00:00,1714550401000000001,"));
	/* knobs that could not be read are empty cells, not -1 */
	ck_assert_ptr_nonnull(strstr(csv, ",20,,0,,,,,"));
	ck_assert_ptr_null(strstr(csv, ",-1,"));
	/* each device block starts with its readable name, quoted as CSV
	 * quotes (the label holds a comma and quotes) */
	ck_assert_ptr_nonnull(strstr(csv, ",name@fs:1111-2222,r_s@fs:1111-2222,"));
	ck_assert_ptr_nonnull(strstr(csv, ",\"sda1 / (ext4 root \"\"quoted\"\", with comma)\","));
	ck_assert_ptr_nonnull(strstr(csv, ",vg-home /home /var/home,"));
	/* the same number of cells on every line (commas in quotes are no separators) */
	int cols = -1;
	for (char *line = csv; *line;) {
		char *nl = strchr(line, '\n');
		int c = 1;
		bool quoted = false;
		for (char *p = line; p < nl; p++) {
			quoted ^= *p == '"';
			c += *p == ',' && !quoted;
		}
		if (cols < 0)
			cols = c;
		ck_assert_int_eq(c, cols);
		line = nl + 1;
	}
	free(csv);
	char *json = export_to_string(path, REC_FMT_JSON, NULL, NULL, &rc, err, sizeof err);
	ck_assert_msg(rc == 0, "%s", err);
	ck_assert_int_eq(count_lines(json), 199);
	ck_assert(strncmp(json, "{\"schema\":1,\"time\":\"2024-05-01T08:00:01.000+00:00\",", 50) == 0);
	ck_assert_ptr_nonnull(strstr(json, "\"key\":\"fs:1111-2222\",\"name\":\"sda1\",\"label\":\"sda1\""));
	ck_assert_ptr_nonnull(strstr(json, "\"knobs\":{\"vm.dirty_ratio\":20,\"vm.dirty_background_ratio\":null,"));
	ck_assert_ptr_null(strstr(json, ":-1"));
	ck_assert_ptr_nonnull(strstr(json, "\"events\":[{\"wall_ns\":"));
	ck_assert_ptr_nonnull(strstr(json, "\"dip\":true"));
	free(json);
	char b[32];
	snprintf(b, sizeof b, "%lld", (long long)(want[0].wall_ns / 1000000000 + 50));
	json = export_to_string(path, REC_FMT_JSON, b, NULL, &rc, err, sizeof err);
	ck_assert_msg(rc == 0, "%s", err);
	ck_assert_int_eq(count_lines(json), 149);
	free(json);
	free(export_to_string("/nonexistent.wbrec", REC_FMT_CSV, NULL, NULL, &rc, err, sizeof err));
	ck_assert_int_lt(rc, 0);
	ck_assert_msg(strstr(err, "/nonexistent.wbrec: "), "%s", err);
	free_session(want, 200);
	free(path);
}
END_TEST

START_TEST(test_save_history)
{
	char *path = tmp_path("hist.wbrec"), err[256] = "";
	struct gen g;
	gen_init(&g);
	static struct snapshot snaps[50];
	struct rec_sample v[50];
	for (int n = 0; n < 50; n++) {
		snapshot_init(&snaps[n]);
		gen_sample(&g, n, &snaps[n]);
		v[n] = (struct rec_sample){ &snaps[n], n == 3, NULL, NULL, 0 };
	}
	ck_assert_msg(rec_writer_save(path, v, 50, err, sizeof err) == 0, "%s", err);
	struct source *src = rec_replay_open(path, false, err, sizeof err);
	ck_assert_msg(src != NULL, "%s", err);
	ck_assert_int_eq(rec_replay_count(src), 50);
	source_close(src);
	ck_assert_int_lt(rec_writer_save(path, v, 50, err, sizeof err), 0);	/* exists now */
	for (int n = 0; n < 50; n++)
		snapshot_free(&snaps[n]);
	free(path);
}
END_TEST

/* ---- Processes --------------------------------------------------------- */

/* Processes of sample n (none at n == 3): 60 user writers (pids 100..159,
 * pid 100 + k writing (k + 1) pages a sample; 159 exits at n == 2), kswapd0
 * (50), a flush worker (60), an idle kworker (61), a task in D state that
 * writes nothing (70), a user task calling itself kswapd (80) and one that
 * wrote 1 GB before the recording and nothing since (81). */
static void fake_procs_sample(struct snapshot *s, int n)
{
	s->nproc = 0;
	if (n == 3)
		return;
	ck_assert_int_eq(snapshot_reserve_procs(s, 70), 0);
	static const struct { int32_t pid; const char *comm; char state; bool kthread; } fixed[] = {
		{ 50, "kswapd0", 'S', true }, { 60, "kworker/u8:2+flush-7:0", 'R', true },
		{ 61, "kworker/0:1", 'I', true }, { 70, "sync", 'D', false },
		{ 80, "kswapd-imposter", 'S', false }, { 81, "olddb", 'S', false },
	};
	for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) {
		struct proc_counters *p = &s->proc[s->nproc++];
		memset(p, 0, sizeof *p);
		p->pid = fixed[i].pid;
		snprintf(p->comm, sizeof p->comm, "%s", fixed[i].comm);
		p->state = fixed[i].state;
		p->kthread = fixed[i].kthread;
		p->utime_jif = 3;
		p->stime_jif = 10 + (uint64_t)n * (p->pid == 60 ? 5 : 0);
		if (p->pid == 60) {
			p->flush_major = 7;
		} else if (p->pid == 70) {
			snprintf(p->wchan, sizeof p->wchan, "wb_wait_for_completion");
		} else if (p->pid == 81) {
			p->write_bytes = 1000000000;
			p->io_hidden = false;
		} else if (p->pid == 61) {
			p->io_hidden = true;
		}
	}
	for (int k = 0; k < 60; k++) {
		if (k == 59 && n == 2)
			continue;
		struct proc_counters *p = &s->proc[s->nproc++];
		memset(p, 0, sizeof *p);
		p->pid = 100 + k;
		snprintf(p->comm, sizeof p->comm, "dd%d", k);
		p->state = k == 58 ? 'D' : 'R';
		p->read_bytes = (uint64_t)k;
		p->write_bytes = (uint64_t)(k + 1) * 4096 * (uint64_t)(n + 1);
		p->cancelled_write_bytes = k == 10 ? UINT64_MAX : 0;	/* stored as a negative integer */
		p->utime_jif = (uint64_t)n;
	}
}

/* Whether pid is among the stored processes of sample n, worked out by hand
 * for fake_procs_sample with procs_rank's rule (the pane's and -P's): the 32
 * it ranks first in the interval that ends at n or, for samples 0 and 4
 * (no processes before them), in the interval that starts there.  Two
 * kernel threads (kswapd 50, the running flush worker 60; the idle kworker
 * is neither), then 30 writers by rate: 159 down to 130, and 129 once 159
 * has exited.  The task in D state that writes nothing (70) ranks below
 * them all, as the pane ranks it; 81 wrote nothing since the first sample. */
static bool procs_expected(int32_t pid, int n)
{
	if (n == 3)
		return false;
	if (pid == 50 || pid == 60)
		return true;
	return pid >= (n == 2 ? 129 : 130) && pid <= 159;
}

START_TEST(test_procs_roundtrip)
{
	char *path = tmp_path("procs.wbrec"), err[256] = "";
	enum { NS = 6 };
	static struct snapshot want[NS];
	struct rec_writer *w = rec_writer_open(path, err, sizeof err);
	ck_assert_msg(w != NULL, "%s", err);
	struct gen g;
	gen_init(&g);
	for (int n = 0; n < NS; n++) {
		snapshot_init(&want[n]);
		gen_sample(&g, n, &want[n]);
		fake_procs_sample(&want[n], n);
		ck_assert_int_eq(rec_writer_append(w, &want[n], false, NULL), 0);
	}
	ck_assert_int_eq(rec_writer_close(w, err, sizeof err), 0);

	struct source *src = rec_replay_open(path, false, err, sizeof err);
	ck_assert_msg(src != NULL, "%s", err);
	static struct snapshot got[NS];
	for (int n = 0; n < NS; n++) {
		snapshot_init(&got[n]);
		ck_assert_int_eq(source_next(src, &got[n]), 0);
		size_t k = 0;
		for (size_t i = 0; i < want[n].nproc; i++) {
			const struct proc_counters *x = &want[n].proc[i];
			if (!procs_expected(x->pid, n))
				continue;
			ck_assert_msg(k < got[n].nproc, "sample %d: pid %d missing", n, x->pid);
			const struct proc_counters *y = &got[n].proc[k++];
			ck_assert_msg(x->pid == y->pid, "sample %d: pid %d, replayed %d", n, x->pid, y->pid);
			ck_assert_msg(memcmp(x, y, sizeof *x) == 0, "sample %d: pid %d differs", n, x->pid);
		}
		ck_assert_msg(k == got[n].nproc, "sample %d: %zu stored, %zu expected", n, got[n].nproc, k);
		ck_assert_uint_le(got[n].nproc, REC_PROCS_MAX);
		ck_assert_uint_eq(got[n].nproc, n == 3 ? 0 : REC_PROCS_MAX);
	}
	/* The recorder keeps what the pane shows: where the previous sample's
	 * processes were stored whole (the first interval, and the first after a
	 * sample without processes), the replayed rows are the live ones. */
	static const int same[] = { 1, 5 };
	for (size_t c = 0; c < sizeof same / sizeof same[0]; c++) {
		int n = same[c];
		struct proc_row live[REC_PROCS_MAX], replayed[REC_PROCS_MAX];
		size_t nl = procs_rank(&want[n - 1], &want[n], 1.0, live, REC_PROCS_MAX, NULL);
		size_t nr = procs_rank(&got[n - 1], &got[n], 1.0, replayed, REC_PROCS_MAX, NULL);
		ck_assert_uint_eq(nr, nl);
		for (size_t i = 0; i < nl; i++) {
			ck_assert_int_eq(replayed[i].pid, live[i].pid);
			ck_assert_int_eq(replayed[i].status, RATE_OK);
			ck_assert_double_eq(replayed[i].write_kbps, live[i].write_kbps);
			ck_assert_double_eq(replayed[i].cpu_pct, live[i].cpu_pct);
		}
	}

	ck_assert_int_eq(source_next(src, &got[0]), 1);
	/* Seeking back delivers the same processes. */
	ck_assert_int_eq(rec_replay_seek(src, 1), 0);
	ck_assert_int_eq(source_next(src, &got[0]), 0);
	ck_assert_uint_eq(got[0].nproc, got[1].nproc);
	ck_assert(memcmp(got[0].proc, got[1].proc, got[1].nproc * sizeof *got[1].proc) == 0);
	source_close(src);

	/* The process view works on the replay as live: dd58 (pid 158) wrote
	 * 59 pages in the second between samples 1 and 2. */
	struct proc_row rows[PROCS_BATCH_ROWS];
	struct procs_summary sum;
	size_t nrows = procs_rank(&got[1], &got[2], 1.0, rows, PROCS_BATCH_ROWS, &sum);
	bool seen = false;
	for (size_t i = 0; i < nrows; i++)
		if (rows[i].pid == 158) {
			seen = true;
			ck_assert_int_eq(rows[i].status, RATE_OK);
			ck_assert_double_eq_tol(rows[i].write_kbps, 59 * 4.0, 1e-9);
		}
	ck_assert(seen);

	/* Plain SQL sees them too. */
	sqlite3 *db;
	ck_assert_int_eq(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	sqlite3_stmt *st;
	ck_assert_int_eq(sqlite3_prepare_v2(db, "SELECT count(*), sum(state = 'D') FROM procs"
					    " WHERE seq = 1", -1, &st, NULL), SQLITE_OK);
	ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
	ck_assert_int_eq(sqlite3_column_int(st, 0), REC_PROCS_MAX);
	ck_assert_int_eq(sqlite3_column_int(st, 1), 1);	/* 158: the writer in D state */
	sqlite3_finalize(st);
	sqlite3_close(db);
	for (int n = 0; n < NS; n++) {
		snapshot_free(&want[n]);
		snapshot_free(&got[n]);
	}
	free(path);
}
END_TEST

/* A file written before the procs table existed replays without processes. */
START_TEST(test_procs_table_absent)
{
	char *path = tmp_path("noprocs.wbrec"), err[256] = "";
	struct rec_writer *w = rec_writer_open(path, err, sizeof err);
	ck_assert_msg(w != NULL, "%s", err);
	struct gen g;
	gen_init(&g);
	struct snapshot s, got;
	snapshot_init(&s);
	snapshot_init(&got);
	for (int n = 0; n < 5; n++) {
		gen_sample(&g, n, &s);
		fake_procs_sample(&s, n);
		ck_assert_int_eq(rec_writer_append(w, &s, false, NULL), 0);
	}
	ck_assert_int_eq(rec_writer_close(w, err, sizeof err), 0);
	sqlite3 *db;
	ck_assert_int_eq(sqlite3_open(path, &db), SQLITE_OK);
	ck_assert_int_eq(sqlite3_exec(db, "DROP TABLE procs", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	struct source *src = rec_replay_open(path, false, err, sizeof err);
	ck_assert_msg(src != NULL, "%s", err);
	got.nproc = 1;
	for (int n = 0; n < 5; n++) {
		ck_assert_int_eq(source_next(src, &got), 0);
		ck_assert_uint_eq(got.nproc, 0);
	}
	source_close(src);
	snapshot_free(&s);
	snapshot_free(&got);
	free(path);
}
END_TEST

/* Values beside the fixed blocks go to the extras table and come back
 * bit-exact, with a device's, a task's, a value of a kind the build lacks
 * (skipped) and one of a device not in the sample (skipped). */
START_TEST(test_extras_roundtrip)
{
	char *path = tmp_path("extras.wbrec"), err[256] = "";
	enum { NS = 4 };
	struct rec_writer *w = rec_writer_open(path, err, sizeof err);
	ck_assert_msg(w != NULL, "%s", err);
	struct gen g;
	gen_init(&g);
	static struct snapshot want[NS];
	for (int n = 0; n < NS; n++) {
		snapshot_init(&want[n]);
		gen_sample(&g, n, &want[n]);
		const struct dev_counters *d = &want[n].dev[n % want[n].ndev];
		uint64_t obj = snapshot_xobj_dev(d->major, d->minor);
		ck_assert_int_eq(snapshot_add_x(&want[n], SNAP_XDEV, SNAP_XDEV_WB_BW_KBPS, obj, 1000u + (unsigned)n), 0);
		ck_assert_int_eq(snapshot_add_x(&want[n], SNAP_XDEV, SNAP_XDEV_WB_DIRTY_KB, obj, UINT64_MAX - (unsigned)n), 0);
		if (n != 2)	/* a sample without the task's value */
			ck_assert_int_eq(snapshot_add_x(&want[n], SNAP_XTASK, SNAP_XTASK_THROTTLED_MS, 4242,
							40u * (unsigned)n), 0);
		ck_assert_int_eq(snapshot_add_x(&want[n], SNAP_XDEV, SNAP_NXDEV, obj, 1), -EINVAL);
		snapshot_sort_x(&want[n]);
		ck_assert_int_eq(rec_writer_append(w, &want[n], false, NULL), 0);
	}
	ck_assert_int_eq(rec_writer_close(w, err, sizeof err), 0);
	sqlite3 *db;
	ck_assert_int_eq(sqlite3_open(path, &db), SQLITE_OK);
	ck_assert_int_eq(sqlite3_exec(db, "INSERT INTO extras VALUES (1, 7, 'from_a_newer_wbtop', 5);"
				      " INSERT INTO extras VALUES (1, 99999999999, 'wb_thresh_kb', 5)",
				      NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);

	struct source *src = rec_replay_open(path, false, err, sizeof err);
	ck_assert_msg(src != NULL, "%s", err);
	struct snapshot got;
	snapshot_init(&got);
	for (int n = 0; n < NS; n++) {
		ck_assert_int_eq(source_next(src, &got), 0);
		ck_assert_uint_eq(got.nx, want[n].nx);
		ck_assert(memcmp(got.x, want[n].x, got.nx * sizeof *got.x) == 0);
	}
	/* seeking back delivers the same values */
	ck_assert_int_eq(rec_replay_seek(src, 1), 0);
	ck_assert_int_eq(source_next(src, &got), 0);
	ck_assert_uint_eq(got.nx, want[1].nx);
	ck_assert(memcmp(got.x, want[1].x, got.nx * sizeof *got.x) == 0);
	source_close(src);
	snapshot_free(&got);
	for (int n = 0; n < NS; n++)
		snapshot_free(&want[n]);
	free(path);
}
END_TEST

/* Recordings written before the extras table (the seeds of the fuzz
 * target were) replay as before, without values beside the fixed blocks. */
START_TEST(test_extras_old_recording)
{
	char path[512];
	const char *me = __FILE__, *cut = strstr(me, "tests/unit/");
	snprintf(path, sizeof path, "%.*stests/fuzz/seeds/rec/live-20.wbrec", cut ? (int)(cut - me) : 0, me);
	char err[256] = "";
	struct source *src = rec_replay_open(path, false, err, sizeof err);
	ck_assert_msg(src != NULL, "%s", err);
	struct snapshot got;
	snapshot_init(&got);
	int n = 0, rc;
	while ((rc = source_next(src, &got)) == 0) {
		ck_assert_uint_eq(got.nx, 0);
		ck_assert_uint_eq(got.ncg, 0);	/* no cgroups table either */
		ck_assert_uint_gt(got.ndev, 0);
		n++;
	}
	ck_assert_int_eq(rc, 1);
	ck_assert_int_eq(n, 21);
	source_close(src);
	snapshot_free(&got);
}
END_TEST

/* Cgroups' names go to the cgroups table with their values and come back
 * (path, gone); a file without that table (an older wbtop's) replays the
 * values, its cgroups known by inode number only. */
START_TEST(test_cgroups_roundtrip)
{
	char *path = tmp_path("cgroups.wbrec"), err[256] = "";
	enum { NS = 3 };
	struct rec_writer *w = rec_writer_open(path, err, sizeof err);
	ck_assert_msg(w != NULL, "%s", err);
	struct gen g;
	gen_init(&g);
	static struct snapshot want[NS];
	for (int n = 0; n < NS; n++) {
		snapshot_init(&want[n]);
		gen_sample(&g, n, &want[n]);
		ck_assert_int_eq(snapshot_add_x(&want[n], SNAP_XCG, SNAP_XCG_FILE_DIRTY_KB, 9590, 100u * (unsigned)n), 0);
		ck_assert_int_eq(snapshot_add_x(&want[n], SNAP_XCG, SNAP_XCG_TASK_THROTTLED_MS, 1, 7u * (unsigned)n), 0);
		ck_assert_int_eq(snapshot_add_cg(&want[n], 9590, "/batch/fast, \"quoted\"", n == 2), 0);
		ck_assert_int_eq(snapshot_add_cg(&want[n], 1, "/", false), 0);
		snapshot_sort_x(&want[n]);
		ck_assert_uint_eq(want[n].ncg, 2);
		ck_assert_int_eq(rec_writer_append(w, &want[n], false, NULL), 0);
	}
	ck_assert_int_eq(rec_writer_close(w, err, sizeof err), 0);
	struct source *src = rec_replay_open(path, false, err, sizeof err);
	ck_assert_msg(src != NULL, "%s", err);
	struct snapshot got;
	snapshot_init(&got);
	for (int n = 0; n < NS; n++) {
		ck_assert_int_eq(source_next(src, &got), 0);
		ck_assert_uint_eq(got.nx, want[n].nx);
		ck_assert_uint_eq(got.ncg, 2);
		const struct snap_cgroup *c = snapshot_find_cg(&got, 9590);
		ck_assert_ptr_nonnull(c);
		ck_assert_str_eq(c->path, "/batch/fast, \"quoted\"");
		ck_assert(c->gone == (n == 2));
		ck_assert_str_eq(snapshot_find_cg(&got, 1)->path, "/");
		ck_assert_ptr_null(snapshot_find_cg(&got, 2));
	}
	source_close(src);
	sqlite3 *db;
	ck_assert_int_eq(sqlite3_open(path, &db), SQLITE_OK);
	ck_assert_int_eq(sqlite3_exec(db, "DROP TABLE cgroups", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	src = rec_replay_open(path, false, err, sizeof err);
	ck_assert_msg(src != NULL, "%s", err);
	for (int n = 0; n < NS; n++) {
		ck_assert_int_eq(source_next(src, &got), 0);
		ck_assert_uint_eq(got.nx, want[n].nx);
		ck_assert_uint_eq(got.ncg, 0);
	}
	source_close(src);
	snapshot_free(&got);
	for (int n = 0; n < NS; n++)
		snapshot_free(&want[n]);
	free(path);
}
END_TEST

Suite *rec_suite(void)
{
	Suite *s = suite_create("rec");
	TCase *c = tcase_create("codec");
	tcase_add_test(c, test_varint_roundtrip);
	tcase_add_test(c, test_crc32_known);
	tcase_add_test(c, test_codec_roundtrip);
	tcase_add_test(c, test_codec_sizes);
	tcase_add_loop_test(c, test_time_parse, 0, sizeof time_cases / sizeof time_cases[0]);
	suite_add_tcase(s, c);
	c = tcase_create("files");
	tcase_set_timeout(c, 60);
	tcase_add_checked_fixture(c, NULL, tmp_cleanup);
	tcase_add_test(c, test_roundtrip_bit_exact);
	tcase_add_test(c, test_replay_shared_keys_said_once);
	tcase_add_test(c, test_seek_and_marks);
	tcase_add_test(c, test_devices_table_records_changes);
	tcase_add_test(c, test_follow_growing_file);
	tcase_add_test(c, test_refuses_bad_files);
	tcase_add_test(c, test_refuses_newer_version);
	tcase_add_test(c, test_refuses_truncated);
	tcase_add_test(c, test_detects_damage);
	tcase_add_test(c, test_unfinished_copy_with_cut_tail);
	tcase_add_test(c, test_writer_refuses_existing);
	tcase_add_test(c, test_write_error_stops_cleanly);
	tcase_add_test(c, test_export_csv_and_json);
	tcase_add_test(c, test_save_history);
	tcase_add_test(c, test_procs_roundtrip);
	tcase_add_test(c, test_procs_table_absent);
	tcase_add_test(c, test_extras_roundtrip);
	tcase_add_test(c, test_extras_old_recording);
	tcase_add_test(c, test_cgroups_roundtrip);
	suite_add_tcase(s, c);
	return s;
}
