/*
 * bdistat.c - debugfs bdi stats, wb_stats and memory.stat: parsers and readers.
 *
 * The files are "Key:   value unit" lines (debugfs) or "key value" lines
 * (memory.stat).  The parsers take any bytes: unknown keys are skipped, a
 * value must be digits and fit 64 bits, a line without one is ignored.  The
 * readers walk debugfs bdi/ and the memory cgroup tree once a sample; the
 * buffers they read into grow with the longest file and are kept.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "source/bdistat.h"
#include "source/cgpath.h"
#include "util/grow.h"
#include "util/sysfs.h"
#include "source/wbloop.h"	/* wbloop_bdi_devt: a BDI's name as a device number */

/* One "key<sep> value" line; *end_of_line past its newline. */
struct bdistat_line {
	const char *key;
	size_t keylen;
	bool has_val;
	uint64_t val;
};

/* The kernel writes these a line per key with no leading space, so the
 * key ends at the separator, found with memchr (thousands of lines a sample
 * on a machine with many devices). */
static const char *bdistat_split(const char *p, const char *end, char sep, struct bdistat_line *l)
{
	const char *nl = memchr(p, '\n', (size_t)(end - p));
	const char *eol = nl ? nl : end;
	while (p < eol && (*p == ' ' || *p == '\t'))
		p++;
	l->key = p;
	const char *at = memchr(p, sep, (size_t)(eol - p));
	const char *tab = memchr(p, '\t', (size_t)((at ? at : eol) - p));
	if (sep != ' ') {
		const char *sp = memchr(p, ' ', (size_t)((at ? at : eol) - p));
		if (sp || tab)
			at = NULL;	/* a space inside the key: not a "Key:" line */
	} else if (tab) {
		at = tab;	/* memory.stat: a tab separates as well as a space */
	}
	l->keylen = at ? (size_t)(at - p) : 0;
	p = at ? at + 1 : eol;
	/* values are right-aligned after a run of spaces: 8 at a time */
	for (uint64_t w; eol - p >= 8 && (memcpy(&w, p, 8), w == 0x2020202020202020ull);)
		p += 8;
	while (p < eol && (*p == ' ' || *p == '\t'))
		p++;
	l->has_val = p < eol && *p >= '0' && *p <= '9';
	l->val = 0;
	for (; p < eol && *p >= '0' && *p <= '9'; p++) {
		uint64_t d = (uint64_t)(*p - '0');
		if (l->val > (UINT64_MAX - d) / 10) {
			l->has_val = false;	/* does not fit: not a value we can show */
			break;
		}
		l->val = l->val * 10 + d;
	}
	return nl ? nl + 1 : end;
}

static bool bdistat_is(const struct bdistat_line *l, const char *key)
{
	size_t n = strlen(key);
	return l->keylen == n && memcmp(l->key, key, n) == 0;
}

/* Keys with their lengths: a line is mostly told apart by its length. */
struct bdistat_key {
	const char *name;
	size_t len;
};
#define BDS_KEY(k) { k, sizeof k - 1 }
#define BDS_NOKEY { NULL, 0 }

static const struct bdistat_key bdistat_dev_keys[BDS_NFIELDS] = {
	BDS_KEY("BdiWriteback"), BDS_KEY("BdiReclaimable"), BDS_KEY("BdiDirtyThresh"),
	BDS_KEY("DirtyThresh"), BDS_KEY("BackgroundThresh"), BDS_KEY("BdiDirtied"),
	BDS_KEY("BdiWritten"), BDS_KEY("BdiWriteBandwidth"),
};

static const struct bdistat_key bdistat_wb_keys[BDS_NFIELDS] = {
	BDS_KEY("WbWriteback"), BDS_KEY("WbReclaimable"), BDS_KEY("WbDirtyThresh"), BDS_NOKEY,
	BDS_NOKEY, BDS_KEY("WbDirtied"), BDS_KEY("WbWritten"), BDS_KEY("WbWriteBandwidth"),
};

/* The field of keys[] the line names, or -1. */
static int bdistat_field_of(const struct bdistat_line *l, const struct bdistat_key *keys)
{
	for (int f = 0; f < BDS_NFIELDS; f++)
		if (keys[f].len == l->keylen && keys[f].name &&
		    memcmp(l->key, keys[f].name, l->keylen) == 0)
			return f;
	return -1;
}

int bdistat_parse_stats(const char *text, size_t len, struct bdistat_dev *out)
{
	out->have = 0;
	memset(out->kb, 0, sizeof out->kb);
	for (const char *p = text, *end = text + len; p < end;) {
		struct bdistat_line l;
		p = bdistat_split(p, end, ':', &l);
		int f = l.has_val ? bdistat_field_of(&l, bdistat_dev_keys) : -1;
		if (f >= 0 && !(out->have & 1u << f)) {
			out->kb[f] = l.val;
			out->have |= 1u << f;
		}
	}
	return out->have ? 0 : -EINVAL;
}

int bdistat_parse_wb(const char *text, size_t len, uint32_t major, uint32_t minor,
		     struct bdistat_wb **arr, size_t *n, size_t *cap)
{
	int blocks = 0;
	struct bdistat_wb *cur = NULL;
	for (const char *p = text, *end = text + len; p < end;) {
		struct bdistat_line l;
		p = bdistat_split(p, end, ':', &l);
		if (!l.has_val)
			continue;
		if (bdistat_is(&l, "WbCgIno")) {
			if (grow_array((void **)arr, cap, *n + 1, sizeof **arr, 16))
				return -ENOMEM;
			cur = &(*arr)[(*n)++];
			memset(cur, 0, sizeof *cur);
			cur->major = major;
			cur->minor = minor;
			cur->cg_ino = l.val;
			blocks++;
			continue;
		}
		int f = cur ? bdistat_field_of(&l, bdistat_wb_keys) : -1;
		if (f >= 0 && !(cur->have & 1u << f)) {
			cur->kb[f] = l.val;
			cur->have |= 1u << f;
		}
	}
	return blocks;
}

int bdistat_parse_memstat(const char *text, size_t len, struct bdistat_cg *out)
{
	/* v2 says file_dirty, v1 dirty; a file has one or the other */
	bool dirty = false, wb = false, v2 = false, tdirty = false, twb = false;
	uint64_t dirty_bytes = 0, writeback_bytes = 0, tree_dirty = 0, tree_wb = 0;
	/* every sample reads one per dirty cgroup: stop once the fields wanted are in */
	for (const char *p = text, *end = text + len;
	     p < end && !(dirty && wb && (v2 || (tdirty && twb)));) {
		struct bdistat_line l;
		p = bdistat_split(p, end, ' ', &l);
		if (!l.has_val)
			continue;
		if (!dirty && (bdistat_is(&l, "file_dirty") || bdistat_is(&l, "dirty"))) {
			dirty_bytes = l.val;
			dirty = true;
			v2 = bdistat_is(&l, "file_dirty");
		} else if (!tdirty && bdistat_is(&l, "total_dirty")) {
			tree_dirty = l.val;
			tdirty = true;
		} else if (!twb && bdistat_is(&l, "total_writeback")) {
			tree_wb = l.val;
			twb = true;
		} else if (!wb && (bdistat_is(&l, "file_writeback") ||
				   bdistat_is(&l, "writeback"))) {
			writeback_bytes = l.val;
			wb = true;
		}
	}
	out->dirty_bytes = dirty ? dirty_bytes : 0;
	out->writeback_bytes = dirty ? writeback_bytes : 0;
	/* v2's counts are of the whole subtree; v1 says so in total_* */
	out->has_tree = dirty && (v2 || tdirty);
	out->tree_bytes = !out->has_tree ? 0 : v2 ? out->dirty_bytes + out->writeback_bytes
						 : tree_dirty + tree_wb;
	return dirty ? 0 : -EINVAL;
}

void bdistat_sample_init(struct bdistat_sample *s)
{
	memset(s, 0, sizeof *s);
}

void bdistat_sample_free(struct bdistat_sample *s)
{
	free(s->dev);
	free(s->wb);
	free(s->cg);
	bdistat_sample_init(s);
}

/* A domain's WbWritten at the last reading, to tell one that wrote since. */
struct bdistat_prev {
	uint32_t major, minor;
	uint64_t cg_ino, written_kb;
};

struct bdistat_reader {
	int bdi_fd;			/* debugfs bdi/ */
	int cg_fd;			/* the memory cgroup root, -1 if none */
	bool has_domains;		/* bdi/ * /wb_stats exist */
	bool cg_v2;			/* the memory controller is on cgroup v2 */
	struct bdistat_prev *prev;	/* sorted; the domains of the last reading */
	size_t nprev, cap_prev;
	struct bdistat_prev *next;	/* being filled by this reading */
	size_t nnext, cap_next;
	uint64_t *pw;			/* one device's domains' prev_written_kb */
	size_t cap_pw;
	char *buf;			/* the file being parsed */
	size_t cap_buf;
};

int bdistat_open(struct bdistat_reader **out, const char *debugfs_dir, const char *cgroup_dir,
		 char *why, size_t whylen)
{
	*out = NULL;
	char path[4096];
	snprintf(path, sizeof path, "%s/bdi", debugfs_dir);
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		int err = errno;
		if (err == EACCES || err == EPERM)
			snprintf(why, whylen, "not root: %s is for root only", debugfs_dir);
		else if (err == ENOENT)
			snprintf(why, whylen,
				 "debugfs is not mounted at %s (mount -t debugfs none %s)",
				 debugfs_dir, debugfs_dir);
		else
			snprintf(why, whylen, "cannot open %s: %s", path, strerror(err));
		return -err;
	}
	struct bdistat_reader *r = calloc(1, sizeof *r);
	if (!r) {
		close(fd);
		return -ENOMEM;
	}
	r->bdi_fd = fd;
	bool v2 = false;
	r->cg_fd = cgroup_dir ? cgpath_memory_root(cgroup_dir, &v2) : -1;
	r->cg_v2 = r->cg_fd >= 0 && v2;
	/* per-domain files: by the file, not the kernel version */
	int dup_fd = dup(fd);
	DIR *d = dup_fd < 0 ? NULL : fdopendir(dup_fd);
	struct dirent *e;
	while (d && !r->has_domains && (e = readdir(d))) {
		char name[300];
		uint32_t ma, mi;
		if (!wbloop_bdi_devt(e->d_name, &ma, &mi))
			continue;
		snprintf(name, sizeof name, "%s/wb_stats", e->d_name);
		r->has_domains = faccessat(fd, name, F_OK, 0) == 0;
	}
	if (d)
		closedir(d);
	else if (dup_fd >= 0)
		close(dup_fd);
	*out = r;
	return 0;
}

bool bdistat_has_domains(const struct bdistat_reader *r)
{
	return r->has_domains;
}

bool bdistat_root_only_is_device(const struct bdistat_reader *r)
{
	return !r->cg_v2;
}

static int bdistat_prev_cmp(const void *a, const void *b)
{
	const struct bdistat_prev *x = a, *y = b;
	if (x->major != y->major)
		return x->major < y->major ? -1 : 1;
	if (x->minor != y->minor)
		return x->minor < y->minor ? -1 : 1;
	return (x->cg_ino > y->cg_ino) - (x->cg_ino < y->cg_ino);
}

/* A domain's WbWritten at the last reading of it, UINT64_MAX if none. */
static uint64_t bdistat_prev_written(const struct bdistat_reader *r, const struct bdistat_wb *w)
{
	struct bdistat_prev key = { w->major, w->minor, w->cg_ino, 0 };
	const struct bdistat_prev *p = r->nprev ? bsearch(&key, r->prev, r->nprev, sizeof *r->prev,
							   bdistat_prev_cmp) : NULL;
	return p ? p->written_kb : UINT64_MAX;
}

bool bdistat_wb_active(const struct bdistat_wb *w, uint64_t prev_written_kb)
{
	if (w->kb[BDS_RECLAIMABLE] || w->kb[BDS_WRITEBACK])
		return true;
	return prev_written_kb != UINT64_MAX && (w->have & 1u << BDS_WRITTEN) &&
	       w->kb[BDS_WRITTEN] != prev_written_kb;
}

void bdistat_dev_from_domains(struct bdistat_dev *d, const struct bdistat_wb *wb, size_t n,
			      const uint64_t *prev_written_kb)
{
	static const enum bdistat_field summed[] = { BDS_WRITEBACK, BDS_RECLAIMABLE, BDS_DIRTIED,
						     BDS_WRITTEN };
	static const enum bdistat_field active_only[] = { BDS_BDI_THRESH, BDS_WRITE_BW };
	for (size_t k = 0; k < sizeof summed / sizeof *summed; k++) {
		enum bdistat_field f = summed[k];
		d->kb[f] = 0;
		d->have &= ~(1u << f);
		for (size_t i = 0; i < n; i++)
			if (wb[i].have & 1u << f) {
				d->kb[f] += wb[i].kb[f];
				d->have |= 1u << f;
			}
	}
	for (size_t k = 0; k < sizeof active_only / sizeof *active_only; k++) {
		d->kb[active_only[k]] = 0;
		d->have &= ~(1u << active_only[k]);
	}
	for (size_t i = 0; i < n; i++) {
		if (!bdistat_wb_active(&wb[i], prev_written_kb ? prev_written_kb[i] : UINT64_MAX))
			continue;
		for (size_t k = 0; k < sizeof active_only / sizeof *active_only; k++) {
			enum bdistat_field f = active_only[k];
			if (wb[i].have & 1u << f) {
				d->kb[f] += wb[i].kb[f];
				d->have |= 1u << f;
			}
		}
	}
	d->per_domain = n > 0;
}

void bdistat_close(struct bdistat_reader *r)
{
	if (!r)
		return;
	close(r->bdi_fd);
	if (r->cg_fd >= 0)
		close(r->cg_fd);
	free(r->buf);
	free(r->prev);
	free(r->next);
	free(r->pw);
	free(r);
}

/* The whole of name under dirfd into r->buf; its length or a negative errno. */
static long bdistat_slurp(struct bdistat_reader *r, int dirfd, const char *name)
{
	int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	return sysfs_read_fd(fd, &r->buf, &r->cap_buf);
}

static int bdistat_cmp_dev(const void *a, const void *b)
{
	const struct bdistat_dev *x = a, *y = b;
	if (x->major != y->major)
		return x->major < y->major ? -1 : 1;
	return (x->minor > y->minor) - (x->minor < y->minor);
}

/* One bdi/MAJ:MIN directory into s; a vanished one is skipped. */
static int bdistat_read_dev(struct bdistat_reader *r, struct bdistat_sample *s, const char *name,
			    uint32_t major, uint32_t minor)
{
	int dfd = openat(r->bdi_fd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return errno == ENOENT ? 0 : -errno;
	long len = bdistat_slurp(r, dfd, "stats");
	int rc = 0;
	struct bdistat_dev *dev = NULL;
	if (len >= 0) {
		if (grow_array((void **)&s->dev, &s->cap_dev, s->ndev + 1, sizeof *s->dev, 32)) {
			close(dfd);
			return -ENOMEM;
		}
		struct bdistat_dev *d = &s->dev[s->ndev];
		d->major = major;
		d->minor = minor;
		d->per_domain = false;
		if (bdistat_parse_stats(r->buf, (size_t)len, d) == 0)
			s->ndev++;
		else
			d = NULL;
		dev = d;
	} else if (len == -ENOMEM) {
		rc = -ENOMEM;
	}
	len = rc ? rc : bdistat_slurp(r, dfd, "wb_stats");	/* kernels before 6.11 lack it */
	if (len >= 0) {
		size_t first = s->nwb;
		int n = bdistat_parse_wb(r->buf, (size_t)len, major, minor, &s->wb, &s->nwb,
					 &s->cap_wb);
		rc = n < 0 ? n : 0;
		size_t nd = s->nwb - first;
		if (!rc && grow_array((void **)&r->pw, &r->cap_pw, nd, sizeof *r->pw, 16))
			rc = -ENOMEM;
		if (!rc && grow_array((void **)&r->next, &r->cap_next, r->nnext + nd,
				      sizeof *r->next, 64))
			rc = -ENOMEM;
		for (size_t i = 0; !rc && i < nd; i++) {
			const struct bdistat_wb *w = &s->wb[first + i];
			r->pw[i] = bdistat_prev_written(r, w);
			r->next[r->nnext++] = (struct bdistat_prev){ major, minor, w->cg_ino,
								    w->kb[BDS_WRITTEN] };
		}
		if (!rc && dev)
			bdistat_dev_from_domains(dev, &s->wb[first], nd, r->pw);
	} else if (len == -ENOMEM) {
		rc = -ENOMEM;
	}
	close(dfd);
	return rc;
}

static int bdistat_read_devs(struct bdistat_reader *r, struct bdistat_sample *s,
			     bool (*want)(void *ctx, uint32_t major, uint32_t minor), void *ctx)
{
	int dup_fd = dup(r->bdi_fd);
	if (dup_fd < 0)
		return -errno;
	DIR *d = fdopendir(dup_fd);
	if (!d) {
		int err = errno;
		close(dup_fd);
		return -err;
	}
	rewinddir(d);	/* the dup shares the position the last read left at the end */
	int rc = 0;
	struct dirent *e;
	while (!rc && (e = readdir(d))) {
		uint32_t ma, mi;
		if (wbloop_bdi_devt(e->d_name, &ma, &mi) && (!want || want(ctx, ma, mi)))
			rc = bdistat_read_dev(r, s, e->d_name, ma, mi);
	}
	closedir(d);
	bool sorted = true;
	for (size_t i = 1; i < s->ndev && sorted; i++)
		sorted = bdistat_cmp_dev(&s->dev[i - 1], &s->dev[i]) < 0;
	if (!sorted)
		qsort(s->dev, s->ndev, sizeof *s->dev, bdistat_cmp_dev);
	return rc;
}

/* dfd's memory.stat, then each child directory's, depth first. */
static int bdistat_walk_cg(struct bdistat_reader *r, struct bdistat_sample *s, int dfd,
			   char *path, size_t plen, int depth)
{
	struct stat st;
	long len = bdistat_slurp(r, dfd, "memory.stat");
	if (len == -ENOMEM)
		return -ENOMEM;
	if (len >= 0 && fstat(dfd, &st) == 0) {
		if (grow_array((void **)&s->cg, &s->cap_cg, s->ncg + 1, sizeof *s->cg, 32))
			return -ENOMEM;
		struct bdistat_cg *c = &s->cg[s->ncg];
		c->ino = (uint64_t)st.st_ino;
		snprintf(c->path, sizeof c->path, "%s", plen ? path : "/");
		if (bdistat_parse_memstat(r->buf, (size_t)len, c) == 0)
			s->ncg++;
	}
	if (depth >= 32)
		return 0;	/* deeper than any real hierarchy: stop, do not loop */
	int sub = dup(dfd);
	DIR *d = sub < 0 ? NULL : fdopendir(sub);
	if (!d) {
		if (sub >= 0)
			close(sub);
		return 0;
	}
	rewinddir(d);	/* the dup shares dfd's position, at the end after the last walk */
	int rc = 0;
	struct dirent *e;
	while (!rc && (e = readdir(d))) {
		if (e->d_type != DT_DIR || e->d_name[0] == '.')
			continue;
		int cfd = openat(dfd, e->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (cfd < 0)
			continue;	/* removed since the listing */
		size_t n = strlen(e->d_name);
		if (plen + 1 + n < 4096) {
			path[plen] = '/';
			memcpy(path + plen + 1, e->d_name, n + 1);
			rc = bdistat_walk_cg(r, s, cfd, path, plen + 1 + n, depth + 1);
			path[plen] = '\0';
		}
		close(cfd);
	}
	closedir(d);
	return rc;
}

/* The domains read now replace those of their devices in prev; a device
 * not read this time keeps its old ones. */
static int bdistat_prev_swap(struct bdistat_reader *r)
{
	if (!r->has_domains)
		return 0;
	if (r->nnext > 1)	/* none read (no device, or only fixtures): next may be NULL */
		qsort(r->next, r->nnext, sizeof *r->next, bdistat_prev_cmp);
	size_t keep = r->nnext;
	for (size_t i = 0; i < r->nprev; i++) {
		const struct bdistat_prev *p = &r->prev[i];
		struct bdistat_prev key = { p->major, p->minor, 0, 0 };
		bool read_now = false;
		/* any domain of the same device in next? */
		size_t lo = 0, hi = keep;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			const struct bdistat_prev *n = &r->next[mid];
			if (n->major == key.major && n->minor == key.minor) {
				read_now = true;
				break;
			}
			if (n->major < key.major || (n->major == key.major && n->minor < key.minor))
				lo = mid + 1;
			else
				hi = mid;
		}
		if (read_now)
			continue;
		if (grow_array((void **)&r->next, &r->cap_next, r->nnext + 1, sizeof *r->next, 64))
			return -ENOMEM;
		r->next[r->nnext++] = *p;
	}
	if (r->nnext > keep)
		qsort(r->next, r->nnext, sizeof *r->next, bdistat_prev_cmp);
	struct bdistat_prev *t = r->prev;
	size_t cap = r->cap_prev;
	r->prev = r->next;
	r->cap_prev = r->cap_next;
	r->nprev = r->nnext;
	r->next = t;
	r->cap_next = cap;
	r->nnext = 0;
	return 0;
}

int bdistat_read(struct bdistat_reader *r, struct bdistat_sample *s, bool cgroups)
{
	return bdistat_read_some(r, s, cgroups, NULL, NULL);
}

int bdistat_read_some(struct bdistat_reader *r, struct bdistat_sample *s, bool cgroups,
		      bool (*want)(void *ctx, uint32_t major, uint32_t minor), void *ctx)
{
	s->ndev = s->nwb = s->ncg = 0;
	r->nnext = 0;
	int rc = bdistat_read_devs(r, s, want, ctx);
	if (!rc)
		rc = bdistat_prev_swap(r);
	if (!rc && cgroups && r->cg_fd >= 0) {
		char path[4096] = "";
		rc = bdistat_walk_cg(r, s, r->cg_fd, path, 0, 0);
	}
	return rc;
}

uint64_t bdistat_write_bw_kbps(const struct bdistat_dev *d)
{
	return d->kb[BDS_WRITE_BW];
}

const struct bdistat_dev *bdistat_find(const struct bdistat_sample *s, uint32_t major,
				       uint32_t minor)
{
	size_t lo = 0, hi = s->ndev;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct bdistat_dev *d = &s->dev[mid];
		if (d->major == major && d->minor == minor)
			return d;
		if (d->major < major || (d->major == major && d->minor < minor))
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}
