/*
 * snapring.c - the last samples as raw snapshots, for saving the screen's
 * history to a recording.
 *
 * Slots are indexed modulo max_samples from head (the oldest); the slot
 * array itself grows only as far as it is used, so a short session costs
 * little.  Memory is counted in allocated device rows (every slot's
 * cap_dev): that is what the ring really holds, and dropping the oldest
 * samples frees theirs.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/grow.h"
#include "core/ident.h"
#include "sink/sink.h"
#include "sink/snapring.h"

struct snapring_slot {
	struct snapshot snap;	/* devices only: nproc stays 0.  While lent, dev is the lender's */
	/* A sample lent (snapring_push_lent): the lender's snapshot, whose devices the slot
	 * reads until the lender refills it; NULL once the slot owns its devices. */
	const struct snapshot *lent;
	struct dev_counters *spare;	/* while lent: the slot's own array, the lender's at refill */
	size_t cap_spare;
	const struct dev_ident **ident;	/* while lent: each device's identity, the ring's copy */
	size_t cap_ident;
	bool sys_dip;
	bool have_dips, have_causes;
	uint8_t sys_cause;
	bool *dips;
	uint8_t *causes;	/* each mark's cause (enum dip_cause), with have_causes */
	size_t cap_dips;
};

/* The ring's copy of the identity of one major:minor, newest first. */
struct snapring_id {
	uint32_t major, minor;
	const struct dev_ident *copy;
};

/* Device i of the last sample pushed: the identity it carried (and that identity's key
 * serial, unique in the process: a pointer alone may be reused after a free) and the ring's
 * copy of it.  The same identity at the same place next time needs no lookup. */
struct snapring_hint {
	const struct dev_ident *src;
	uint64_t serial;
	const struct dev_ident *copy;
};

struct snapring {
	size_t max, max_rows;
	struct snapring_slot *slot;
	size_t nslot;		/* slots allocated (<= max) */
	size_t head, len;
	size_t rows;		/* device rows allocated in all slots */
	bool capped;
	struct ident_table *ids;	/* made at the first device with an identity */
	struct snapring_id *map;	/* sorted by major:minor */
	size_t nmap, cap_map;
	struct snapring_hint *hint;	/* per device of the last push: its identity and copy */
	size_t nhint, cap_hint;
};

struct snapring *snapring_new(size_t max_samples, size_t max_dev_rows)
{
	if (max_samples < 1)
		return NULL;
	struct snapring *r = calloc(1, sizeof *r);
	if (!r)
		return NULL;
	r->max = max_samples;
	r->max_rows = max_dev_rows;
	return r;
}

/* Device rows a slot stands for: its own array's, or while lent the larger of its spare and
 * the lent sample (what it will own once the lender refills). */
static size_t snapring_slot_rows(const struct snapring_slot *sl)
{
	if (!sl->lent)
		return sl->snap.cap_dev;
	return sl->cap_spare > sl->snap.ndev ? sl->cap_spare : sl->snap.ndev;
}

static void snapring_slot_release(struct snapring *r, struct snapring_slot *sl)
{
	r->rows -= snapring_slot_rows(sl);
	if (sl->lent) {	/* the devices are the lender's */
		sl->snap.dev = sl->spare;
		sl->snap.cap_dev = sl->cap_spare;
		sl->lent = NULL;
	}
	sl->spare = NULL;
	sl->cap_spare = 0;
	snapshot_free(&sl->snap);
	free(sl->ident);
	sl->ident = NULL;
	sl->cap_ident = 0;
	free(sl->dips);
	free(sl->causes);
	sl->dips = NULL;
	sl->causes = NULL;
	sl->cap_dips = 0;
}

void snapring_clear(struct snapring *r)
{
	for (size_t i = 0; i < r->nslot; i++)
		snapring_slot_release(r, &r->slot[i]);
	r->head = r->len = 0;
	r->capped = false;
	/* Nothing points at the copies any more. */
	ident_table_free(r->ids);
	r->ids = NULL;
	r->nmap = 0;
	r->nhint = 0;
}

void snapring_free(struct snapring *r)
{
	if (!r)
		return;
	snapring_clear(r);
	free(r->slot);
	free(r->map);
	free(r->hint);
	free(r);
}

/* ---- identities ---- */

static int snapring_str_cmp(const char *a, const char *b)
{
	if (!a || !b)
		return a == b ? 0 : a ? 1 : -1;
	return strcmp(a, b);
}

/* Index of the first map entry not below major:minor. */
static size_t snapring_map_find(const struct snapring *r, uint32_t major, uint32_t minor)
{
	size_t lo = 0, hi = r->nmap;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct snapring_id *m = &r->map[mid];
		if (m->major < major || (m->major == major && m->minor < minor))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The ring's copy of id: the one made before if the device is still the
 * same (same kernel name and stable key), else a new one.  Older copies
 * stay, for the samples that point at them.  NULL on allocation failure. */
static const struct dev_ident *snapring_ident(struct snapring *r, const struct dev_ident *id)
{
	size_t i = snapring_map_find(r, id->major, id->minor);
	bool have = i < r->nmap && r->map[i].major == id->major && r->map[i].minor == id->minor;
	if (have && snapring_str_cmp(r->map[i].copy->kname, id->kname) == 0 &&
	    snapring_str_cmp(r->map[i].copy->key, id->key) == 0)
		return r->map[i].copy;
	if (!r->ids && !(r->ids = ident_table_new()))
		return NULL;
	if (!have && grow_array((void **)&r->map, &r->cap_map, r->nmap + 1, sizeof *r->map, 64) < 0)
		return NULL;
	const struct dev_ident *copy = ident_table_add(r->ids, id);
	if (!copy)
		return NULL;
	if (!have) {
		memmove(&r->map[i + 1], &r->map[i], (r->nmap - i) * sizeof *r->map);
		r->nmap++;
	}
	r->map[i] = (struct snapring_id){ id->major, id->minor, copy };
	return copy;
}

/* ---- samples ---- */

static struct snapring_slot *snapring_slot_at(const struct snapring *r, size_t pos)
{
	return &r->slot[(r->head + pos) % r->max];
}

static void snapring_drop_oldest(struct snapring *r, bool free_it)
{
	if (free_it)
		snapring_slot_release(r, snapring_slot_at(r, 0));
	r->head = (r->head + 1) % r->max;
	r->len--;
}

/* Make slot index k exist. */
static int snapring_grow_slots(struct snapring *r, size_t k)
{
	if (k < r->nslot)
		return 0;
	size_t n = r->nslot ? r->nslot * 2 : 64;
	while (n <= k)
		n *= 2;
	if (n > r->max)
		n = r->max;
	struct snapring_slot *sl = realloc(r->slot, n * sizeof *sl);
	if (!sl)
		return -ENOMEM;
	memset(&sl[r->nslot], 0, (n - r->nslot) * sizeof *sl);
	for (size_t i = r->nslot; i < n; i++)
		snapshot_init(&sl[i].snap);
	r->slot = sl;
	r->nslot = n;
	return 0;
}

/* Drop the oldest samples (and their memory) while the ring holds more rows than allowed,
 * keeping at least keep of them. */
static void snapring_trim(struct snapring *r, size_t keep)
{
	while (r->rows > r->max_rows && r->len > keep) {
		snapring_drop_oldest(r, true);
		r->capped = true;
	}
}

/* A reused slot that was still lent (a ring of one or two samples) takes its own array back. */
static void snapring_slot_unlend(struct snapring *r, struct snapring_slot *sl)
{
	if (!sl->lent)
		return;
	r->rows -= snapring_slot_rows(sl);
	sl->snap.dev = sl->spare;
	sl->snap.cap_dev = sl->cap_spare;
	sl->spare = NULL;
	sl->cap_spare = 0;
	sl->lent = NULL;
	r->rows += sl->snap.cap_dev;
}

/* Room for ndev marks in slot sl. */
static int snapring_room_marks(struct snapring_slot *sl, size_t ndev)
{
	if (ndev <= sl->cap_dips)
		return 0;
	bool *d = realloc(sl->dips, ndev * sizeof *d);
	if (d)
		sl->dips = d;
	uint8_t *c = d ? realloc(sl->causes, ndev * sizeof *c) : NULL;
	if (!c)
		return -ENOMEM;
	sl->causes = c;
	sl->cap_dips = ndev;
	return 0;
}

/* Room for ndev rows in slot sl, dropping the oldest samples (and their
 * memory) while the ring would hold more rows than allowed. */
static int snapring_make_room(struct snapring *r, struct snapring_slot *sl, size_t ndev)
{
	size_t had = sl->snap.cap_dev;
	if (ndev > had) {
		/* Exactly ndev rows (not the snapshot's doubling): with many
		 * devices every slot's slack would cost samples. */
		struct dev_counters *d = realloc(sl->snap.dev, ndev * sizeof *d);
		if (!d)
			return -ENOMEM;
		sl->snap.dev = d;
		sl->snap.cap_dev = ndev;
		r->rows += ndev - had;
	}
	snapring_trim(r, 0);
	return snapring_room_marks(sl, ndev);
}

/* Copy s into the slot: every field but the arrays, which stay the slot's own (so fields
 * added to struct snapshot later are copied too), and the values beside the devices (a
 * saved history keeps them); the devices are the caller's to copy or borrow. */
static int snapring_copy_fields(struct snapring_slot *sl, const struct snapshot *s)
{
	struct snapshot keep = sl->snap;
	sl->snap = *s;
	sl->snap.dev = keep.dev;
	sl->snap.cap_dev = keep.cap_dev;
	sl->snap.ndev = 0;
	sl->snap.proc = keep.proc;
	sl->snap.cap_proc = keep.cap_proc;
	sl->snap.nproc = 0;
	sl->snap.x = keep.x;
	sl->snap.cap_x = keep.cap_x;
	sl->snap.nx = 0;
	sl->snap.cg = keep.cg;
	sl->snap.cap_cg = keep.cap_cg;
	sl->snap.ncg = 0;
	sl->snap.comm = keep.comm;	/* the screen's history has no use for the task names */
	sl->snap.cap_comm = keep.cap_comm;
	sl->snap.ncomm = 0;
	if (s->ncg > sl->snap.cap_cg) {
		struct snap_cgroup *cg = realloc(sl->snap.cg, s->ncg * sizeof *cg);
		if (!cg)
			return -ENOMEM;
		sl->snap.cg = cg;
		sl->snap.cap_cg = s->ncg;
	}
	if (s->ncg)
		memcpy(sl->snap.cg, s->cg, s->ncg * sizeof *s->cg);
	sl->snap.ncg = s->ncg;
	if (s->nx > sl->snap.cap_x) {
		struct snap_xval *x = realloc(sl->snap.x, s->nx * sizeof *x);
		if (!x)
			return -ENOMEM;
		sl->snap.x = x;
		sl->snap.cap_x = s->nx;
	}
	if (s->nx)
		memcpy(sl->snap.x, s->x, s->nx * sizeof *s->x);
	sl->snap.nx = s->nx;
	return 0;
}

/* The ring's copy of the identity of each of s's devices into out[] (s->ndev entries). The
 * copies made for the last sample are taken again for a device at the same place with the
 * same identity. */
static int snapring_copy_idents(struct snapring *r, const struct snapshot *s,
				const struct dev_ident **out)
{
	if (s->ndev > r->cap_hint) {
		struct snapring_hint *h = realloc(r->hint, s->ndev * sizeof *h);
		if (!h)
			return -ENOMEM;
		r->hint = h;
		r->cap_hint = s->ndev;
	}
	size_t nhint = r->nhint;
	r->nhint = 0;	/* until the loop has made them all again */
	for (size_t i = 0; i < s->ndev; i++) {
		const struct dev_ident *id = s->dev[i].ident;
		struct snapring_hint *h = &r->hint[i];
		if (!id) {
			*h = (struct snapring_hint){ NULL, 0, NULL };
			out[i] = NULL;
			continue;
		}
		/* a serial is new whenever an identity is made again (a minor reused renames it):
		 * the same one says the same name; without one (0) the name is compared */
		if (i >= nhint || h->src != id || h->serial != id->key_serial ||
		    (!id->key_serial && snapring_str_cmp(h->copy->kname, id->kname) != 0)) {
			const struct dev_ident *copy = snapring_ident(r, id);
			if (!copy)
				return -ENOMEM;
			*h = (struct snapring_hint){ id, id->key_serial, copy };
		}
		out[i] = h->copy;
	}
	r->nhint = s->ndev;
	return 0;
}

/* Room for n identities in the slot's list. */
static int snapring_room_idents(struct snapring_slot *sl, size_t n)
{
	if (n <= sl->cap_ident)
		return 0;
	const struct dev_ident **id = realloc(sl->ident, n * sizeof *id);
	if (!id)
		return -ENOMEM;
	sl->ident = id;
	sl->cap_ident = n;
	return 0;
}

/* Copy the devices of s into the slot, each with the ring's copy of its identity. */
static int snapring_copy_devs(struct snapring *r, struct snapring_slot *sl, const struct snapshot *s)
{
	if (s->ndev)
		memcpy(sl->snap.dev, s->dev, s->ndev * sizeof *s->dev);
	sl->snap.ndev = s->ndev;
	if (snapring_room_idents(sl, s->ndev) < 0 || snapring_copy_idents(r, s, sl->ident) < 0)
		return -ENOMEM;
	for (size_t i = 0; i < s->ndev; i++)
		sl->snap.dev[i].ident = sl->ident[i];
	return 0;
}

/* The slot for the next sample: the oldest one's when the ring is full. */
static struct snapring_slot *snapring_next_slot(struct snapring *r)
{
	if (r->len == r->max)
		snapring_drop_oldest(r, false);	/* its slot is the one written next */
	size_t k = (r->head + r->len) % r->max;
	if (snapring_grow_slots(r, k) < 0)
		return NULL;
	struct snapring_slot *sl = &r->slot[k];
	snapring_slot_unlend(r, sl);
	return sl;
}

/* The marks of v into the slot, and the slot counted as the newest sample. */
static void snapring_keep_marks(struct snapring *r, struct snapring_slot *sl,
				const struct rec_sample *v)
{
	size_t n = v->snap->ndev;
	sl->sys_dip = v->sys_dip;
	sl->sys_cause = v->sys_cause;
	sl->have_dips = v->dev_dips != NULL;
	sl->have_causes = v->dev_causes != NULL;
	if (v->dev_dips && n)
		memcpy(sl->dips, v->dev_dips, n * sizeof *sl->dips);
	if (v->dev_causes && n)
		memcpy(sl->causes, v->dev_causes, n * sizeof *sl->causes);
	r->len++;
}

/* The slot for s into *out: 0, -E2BIG for a sample of more devices than the ring may hold,
 * or -ENOMEM. */
static int snapring_slot_for(struct snapring *r, const struct snapshot *s,
			     struct snapring_slot **out)
{
	if (s->ndev > r->max_rows)
		return -E2BIG;
	*out = snapring_next_slot(r);
	return *out ? 0 : -ENOMEM;
}

int snapring_push(struct snapring *r, const struct rec_sample *v)
{
	const struct snapshot *s = v->snap;
	struct snapring_slot *sl;
	int rc = snapring_slot_for(r, s, &sl);
	if (rc < 0)
		return rc;
	rc = snapring_make_room(r, sl, s->ndev);
	if (rc == 0)
		rc = snapring_copy_fields(sl, s);
	if (rc == 0)
		rc = snapring_copy_devs(r, sl, s);
	if (rc < 0) {
		sl->snap.ndev = 0;
		return rc;
	}
	snapring_keep_marks(r, sl, v);
	return 0;
}

int snapring_push_lent(struct snapring *r, const struct rec_sample *v)
{
	const struct snapshot *s = v->snap;
	struct snapring_slot *sl;
	int rc = snapring_slot_for(r, s, &sl);
	if (rc < 0)
		return rc;
	/* the slot's own array waits as the spare the lender gets back */
	sl->spare = sl->snap.dev;
	sl->cap_spare = sl->snap.cap_dev;
	sl->snap.dev = NULL;
	sl->snap.cap_dev = 0;
	sl->snap.ndev = s->ndev;
	sl->lent = s;
	r->rows += snapring_slot_rows(sl) - sl->cap_spare;
	snapring_trim(r, 0);
	rc = snapring_room_marks(sl, s->ndev);
	if (rc == 0)
		rc = snapring_copy_fields(sl, s);
	if (rc == 0)
		rc = snapring_room_idents(sl, s->ndev);
	if (rc == 0)
		rc = snapring_copy_idents(r, s, sl->ident);
	if (rc < 0) {
		sl->snap.ndev = s->ndev;	/* as its rows were counted */
		snapring_slot_unlend(r, sl);
		sl->snap.ndev = 0;
		return rc;
	}
	sl->snap.dev = s->dev;	/* read, never written, until the lender refills s */
	sl->snap.ndev = s->ndev;
	snapring_keep_marks(r, sl, v);
	return 0;
}

/* The slot that s is lent to: one of the newest, since the lender refills within two. */
static struct snapring_slot *snapring_lent_slot(struct snapring *r, const struct snapshot *s)
{
	for (size_t age = 0; age < r->len; age++) {
		struct snapring_slot *sl = snapring_slot_at(r, r->len - 1 - age);
		if (sl->lent == s)
			return sl;
	}
	return NULL;
}

void snapring_refill(void *ring, struct snapshot *s)
{
	struct snapring *r = ring;
	struct snapring_slot *sl = snapring_lent_slot(r, s);
	if (!sl)
		return;
	size_t n = sl->snap.ndev;
	r->rows -= snapring_slot_rows(sl);
	struct dev_counters *mine = s->dev;
	size_t cap = s->cap_dev;
	/* the lender fills the array it gets back: as large as the one taken, so that it does
	 * not grow it again from nothing while the ring fills (no copy: its bytes are garbage) */
	if (sl->cap_spare < cap) {
		struct dev_counters *room = malloc(cap * sizeof *room);
		if (room) {
			free(sl->spare);
			sl->spare = room;
			sl->cap_spare = cap;
		}
	}
	s->dev = sl->spare;
	s->cap_dev = sl->cap_spare;
	s->ndev = 0;	/* what the array holds is no sample */
	sl->spare = NULL;
	sl->cap_spare = 0;
	sl->lent = NULL;
	/* the lender's array doubles as it grows: slack that large would cost samples, cut it */
	if (n && cap - n > n / 4) {
		struct dev_counters *cut = realloc(mine, n * sizeof *mine);
		if (cut) {
			mine = cut;
			cap = n;
		}
	}
	sl->snap.dev = mine;
	sl->snap.cap_dev = cap;
	r->rows += cap;
	for (size_t i = 0; i < n; i++)
		mine[i].ident = sl->ident[i];
	snapring_trim(r, 1);
}

size_t snapring_len(const struct snapring *r)
{
	return r->len;
}

bool snapring_capped(const struct snapring *r)
{
	return r->capped;
}

const struct snapshot *snapring_get(const struct snapring *r, size_t age)
{
	if (age >= r->len)
		return NULL;
	return &snapring_slot_at(r, r->len - 1 - age)->snap;
}

size_t snapring_samples(const struct snapring *r, struct rec_sample *out)
{
	for (size_t i = 0; i < r->len; i++) {
		const struct snapring_slot *sl = snapring_slot_at(r, i);
		out[i] = (struct rec_sample){ &sl->snap, sl->sys_dip, sl->have_dips ? sl->dips : NULL,
					      sl->have_causes ? sl->causes : NULL, sl->sys_cause };
	}
	return r->len;
}

/* ---- the sink ------------------------------------------------------------ */

/* A full ring or a huge sample only means less to save: not an error. */
static int snapring_sink_frame(struct sink *s, const struct frame *f)
{
	struct rec_sample v = rec_sample_of(f);
	snapring_push(s->impl, &v);
	return 0;
}

static int snapring_sink_frame_lent(struct sink *s, const struct frame *f)
{
	struct rec_sample v = rec_sample_of(f);
	snapring_push_lent(s->impl, &v);
	return 0;
}

static const struct sink_ops snapring_sink_ops = {
	.kind = "save-history", .frame = snapring_sink_frame, .close = sink_keep_close,
};

static const struct sink_ops snapring_sink_lent_ops = {
	.kind = "save-history", .frame = snapring_sink_frame_lent, .close = sink_keep_close,
};

struct sink *snapring_sink_new(struct snapring *r, bool lent)
{
	return sink_new(lent ? &snapring_sink_lent_ops : &snapring_sink_ops, r);
}
