/*
 * procs_acct.c - a process's own write counters (procs_acct.h): live threads' counters
 * plus exited threads' finals, kept per process, and the taskstats exit records.
 *
 * Kept processes are an array sorted by pid, merged once a sample against the listed
 * ones into a second array, then swapped; early exit records wait in a pending array.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/taskstats.h>

#include "util/grow.h"
#include "source/procs_acct.h"

/* Records waiting in the socket between two samples: a few thousand exits
 * a second of 400-odd bytes each. */
#define PROCS_TS_RCVBUF (8 << 20)
/* A thread not listed by this many reads in a row, and with no exit record,
 * is folded into its process's base (the record may be one drain late). */
#define PROCS_MISSED_MAX 2

struct procs_acct {
	struct procs_acct_task *t, *nt;	/* kept (sorted), and being built */
	size_t nt_n, t_n, cap_t, cap_nt;
	size_t ti;			/* walk: next of t */
	struct procs_acct_task *pend;	/* known only from exit records, sorted at begin */
	size_t npend, cap_pend, pi;
	struct procs_acct_task *gone;	/* left during this sample's walk */
	size_t ngone, cap_gone;
	struct procs_thread *scratch;	/* a thread read */
	size_t cap_scratch;
	int fd;				/* taskstats socket, -1 when not listening */
	uint16_t family;
	uint64_t lost;
	uint32_t seq;
	char buf[16384];
};

/* ---- kept processes ---- */

static void procs_acct_task_free(struct procs_acct_task *e)
{
	free(e->thr);
	e->thr = NULL;
	e->nthr = e->cap_thr = 0;
}

struct procs_acct *procs_acct_new(void)
{
	struct procs_acct *a = calloc(1, sizeof *a);
	if (a)
		a->fd = -1;
	return a;
}

void procs_acct_free(struct procs_acct *a)
{
	if (!a)
		return;
	for (size_t i = 0; i < a->t_n; i++)
		procs_acct_task_free(&a->t[i]);
	for (size_t i = 0; i < a->nt_n; i++)
		procs_acct_task_free(&a->nt[i]);
	for (size_t i = 0; i < a->npend; i++)
		procs_acct_task_free(&a->pend[i]);
	for (size_t i = 0; i < a->ngone; i++)
		procs_acct_task_free(&a->gone[i]);
	free(a->t);
	free(a->nt);
	free(a->pend);
	free(a->gone);
	free(a->scratch);
	if (a->fd >= 0)
		close(a->fd);
	free(a);
}

/* The thread tid of e, or NULL. */
static struct procs_thread *procs_acct_thread(struct procs_acct_task *e, int32_t tid)
{
	size_t lo = 0, hi = e->nthr;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (e->thr[mid].tid == tid)
			return &e->thr[mid];
		if (e->thr[mid].tid < tid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* Insert a thread in tid order; NULL when out of memory. */
static struct procs_thread *procs_acct_add_thread(struct procs_acct_task *e, int32_t tid)
{
	if (grow_array((void **)&e->thr, &e->cap_thr, e->nthr + 1, sizeof *e->thr, 4) < 0)
		return NULL;
	size_t i = e->nthr;
	while (i > 0 && e->thr[i - 1].tid > tid) {
		e->thr[i] = e->thr[i - 1];
		i--;
	}
	e->thr[i] = (struct procs_thread){ .tid = tid };
	e->nthr++;
	return &e->thr[i];
}

static struct procs_acct_task *procs_acct_find(struct procs_acct_task *arr, size_t n, int32_t pid)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (arr[mid].pid == pid)
			return &arr[mid];
		if (arr[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* A thread's record on its process: its final figures replace what was read. */
static void procs_acct_apply(struct procs_acct_task *e, const struct procs_exit *x)
{
	struct procs_thread *th = procs_acct_thread(e, x->tid);
	if (!th && !(th = procs_acct_add_thread(e, x->tid)))
		return;
	th->exited = true;
	if (x->write_bytes > th->write_bytes)
		th->write_bytes = x->write_bytes;
	if (x->cancelled_bytes > th->cancelled_bytes)
		th->cancelled_bytes = x->cancelled_bytes;
	if (!e->comm[0] || !e->seen)
		snprintf(e->comm, sizeof e->comm, "%s", x->comm);
}

void procs_acct_exit(struct procs_acct *a, const struct procs_exit *x)
{
	/* taskstats before version 12 does not say the thread group: a main
	 * thread's pid is its process's */
	int32_t tgid = x->tgid ? x->tgid : x->tid;
	struct procs_acct_task *e = procs_acct_find(a->t, a->t_n, tgid);
	if (e && e->skip)
		return;
	if (!e) {
		if (x->write_bytes == 0 && x->cancelled_bytes == 0)
			return;	/* a process that wrote nothing: no row to make */
		for (size_t i = 0; i < a->npend && !e; i++)
			if (a->pend[i].pid == tgid)
				e = &a->pend[i];
		if (!e) {
			if (grow_array((void **)&a->pend, &a->cap_pend, a->npend + 1, sizeof *a->pend, 16) < 0)
				return;
			e = &a->pend[a->npend++];
			memset(e, 0, sizeof *e);
			e->pid = tgid;
		}
	}
	procs_acct_apply(e, x);
}

static int procs_acct_cmp_pid(const void *p, const void *q)
{
	const struct procs_acct_task *x = p, *y = q;
	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

void procs_acct_begin(struct procs_acct *a)
{
	for (size_t i = 0; i < a->ngone; i++)
		procs_acct_task_free(&a->gone[i]);
	a->ngone = 0;
	a->nt_n = 0;
	a->ti = a->pi = 0;
	if (a->npend > 1)
		qsort(a->pend, a->npend, sizeof *a->pend, procs_acct_cmp_pid);
}

static void procs_acct_sum(struct procs_acct_task *e);

/* e leaves the kept processes (it exited): moved to gone, its threads with it. */
static void procs_acct_leave(struct procs_acct *a, struct procs_acct_task *e)
{
	if (!e->skip)
		procs_acct_sum(e);	/* with the exit records since its last sample */
	bool wrote = e->own_write > e->rep_write || e->own_cancel > e->rep_cancel;
	if (!e->skip && wrote &&
	    grow_array((void **)&a->gone, &a->cap_gone, a->ngone + 1, sizeof *a->gone, 16) == 0) {
		a->gone[a->ngone++] = *e;
		e->thr = NULL;
		e->nthr = e->cap_thr = 0;
		return;
	}
	procs_acct_task_free(e);
}

static void procs_acct_sum(struct procs_acct_task *e)
{
	uint64_t w = e->base_write, c = e->base_cancel;
	for (size_t i = 0; i < e->nthr; i++) {
		w += e->thr[i].write_bytes;
		c += e->thr[i].cancelled_bytes;
	}
	/* never backwards: a thread gone unseen between two reads */
	if (w > e->own_write)
		e->own_write = w;
	if (c > e->own_cancel)
		e->own_cancel = c;
}

/* The threads as read now (a->scratch, n, sorted) into e: each listed keeps the
 * larger of its record and what was read; one not listed folds into the base
 * once it has a record, or has been missed long enough, or at once when no
 * record can come. */
static void procs_acct_merge_threads(struct procs_acct *a, struct procs_acct_task *e, size_t n)
{
	bool records = a->fd >= 0;
	size_t k = 0, out = 0;
	/* pass 1: old threads not listed, in place */
	for (size_t i = 0; i < e->nthr; i++) {
		struct procs_thread *th = &e->thr[i];
		while (k < n && a->scratch[k].tid < th->tid)
			k++;
		bool listed = k < n && a->scratch[k].tid == th->tid;
		if (listed) {
			th->missed = 0;
			if (a->scratch[k].write_bytes > th->write_bytes)
				th->write_bytes = a->scratch[k].write_bytes;
			if (a->scratch[k].cancelled_bytes > th->cancelled_bytes)
				th->cancelled_bytes = a->scratch[k].cancelled_bytes;
		} else if (th->exited || !records || ++th->missed >= PROCS_MISSED_MAX) {
			e->base_write += th->write_bytes;
			e->base_cancel += th->cancelled_bytes;
			continue;
		}
		e->thr[out++] = *th;
	}
	e->nthr = out;
	/* pass 2: threads new in the list */
	for (k = 0; k < n; k++) {
		if (procs_acct_thread(e, a->scratch[k].tid))
			continue;
		struct procs_thread *th = procs_acct_add_thread(e, a->scratch[k].tid);
		if (!th)
			return;
		th->write_bytes = a->scratch[k].write_bytes;
		th->cancelled_bytes = a->scratch[k].cancelled_bytes;
	}
}

/* The next kept entry for pid: from t (if the same process), merged with a
 * pending one; else a new one.  Entries of t and pend below pid leave. */
static struct procs_acct_task *procs_acct_take(struct procs_acct *a, int32_t pid, uint64_t start_tics)
{
	while (a->ti < a->t_n && a->t[a->ti].pid < pid)
		procs_acct_leave(a, &a->t[a->ti++]);
	while (a->pi < a->npend && a->pend[a->pi].pid < pid)
		procs_acct_leave(a, &a->pend[a->pi++]);
	if (grow_array((void **)&a->nt, &a->cap_nt, a->nt_n + 1, sizeof *a->nt, 64) < 0)
		return NULL;
	struct procs_acct_task *e = &a->nt[a->nt_n++];
	memset(e, 0, sizeof *e);
	e->pid = pid;
	e->start_tics = start_tics;
	if (a->ti < a->t_n && a->t[a->ti].pid == pid) {
		struct procs_acct_task *old = &a->t[a->ti++];
		if (old->start_tics == start_tics) {
			*e = *old;
			old->thr = NULL;
		} else {
			procs_acct_leave(a, old);	/* the pid was reused */
		}
	}
	if (a->pi < a->npend && a->pend[a->pi].pid == pid) {
		/* a process new since the last sample with threads already gone */
		struct procs_acct_task *p = &a->pend[a->pi++];
		for (size_t i = 0; i < p->nthr; i++) {
			struct procs_exit x = { .tid = p->thr[i].tid, .tgid = pid,
						.write_bytes = p->thr[i].write_bytes,
						.cancelled_bytes = p->thr[i].cancelled_bytes };
			procs_acct_apply(e, &x);
		}
		procs_acct_task_free(p);
	}
	return e;
}

struct procs_acct_task *procs_acct_update(struct procs_acct *a, struct proc_counters *c, procs_threads_fn read,
					  void *ctx)
{
	struct procs_acct_task *e = procs_acct_take(a, c->pid, c->start_tics);
	if (!e)
		return NULL;
	bool first = !e->seen;
	e->seen = true;
	e->read_bytes = c->read_bytes;
	e->utime_jif = c->utime_jif;
	e->stime_jif = c->stime_jif;
	e->skip = c->kthread || c->io_hidden;
	if (e->skip) {
		/* a kernel thread reaps no children; unreadable counters stay so */
		e->own_write = c->write_bytes;
		e->own_cancel = c->cancelled_write_bytes;
		return e;
	}
	bool moved = first || c->write_bytes != e->tot_write || c->cancelled_write_bytes != e->tot_cancel;
	e->tot_write = c->write_bytes;
	e->tot_cancel = c->cancelled_write_bytes;
	if (moved && (c->write_bytes || c->cancelled_write_bytes) && read) {
		size_t n = 0;
		if (read(ctx, c->pid, &a->scratch, &n, &a->cap_scratch) == 0) {
			procs_acct_merge_threads(a, e, n);
			e->scanned = true;
		}
	}
	if (moved || e->nthr)
		snprintf(e->comm, sizeof e->comm, "%s", c->comm);
	if (e->scanned || e->nthr || e->base_write || e->base_cancel)
		procs_acct_sum(e);
	c->write_bytes = e->own_write;
	c->cancelled_write_bytes = e->own_cancel;
	return e;
}

/* An exited process as the snapshot shows it. */
static void procs_acct_exited(const struct procs_acct_task *e, struct proc_counters *c)
{
	memset(c, 0, sizeof *c);
	c->pid = e->pid;
	snprintf(c->comm, sizeof c->comm, "%s", e->comm);
	c->state = PROCS_STATE_EXITED;
	c->read_bytes = e->read_bytes;
	c->write_bytes = e->own_write;
	c->cancelled_write_bytes = e->own_cancel;
	c->utime_jif = e->utime_jif;
	c->stime_jif = e->stime_jif;
	c->start_tics = e->start_tics;
	c->nwdev = e->nwdev;
	c->wdev_more = e->wdev_more;
	memcpy(c->wdev, e->wdev, sizeof c->wdev);
}

int procs_acct_end(struct procs_acct *a, struct snapshot *out)
{
	while (a->ti < a->t_n)
		procs_acct_leave(a, &a->t[a->ti++]);
	while (a->pi < a->npend)
		procs_acct_leave(a, &a->pend[a->pi++]);
	a->npend = 0;
	/* swap: what was built is kept */
	struct procs_acct_task *tmp = a->t;
	size_t cap = a->cap_t;
	a->t = a->nt;
	a->cap_t = a->cap_nt;
	a->t_n = a->nt_n;
	a->nt = tmp;
	a->cap_nt = cap;
	a->nt_n = 0;
	for (size_t i = 0; i < a->t_n; i++) {
		a->t[i].rep_write = a->t[i].own_write;
		a->t[i].rep_cancel = a->t[i].own_cancel;
	}
	size_t m = a->ngone;
	if (!m)
		return 0;
	qsort(a->gone, a->ngone, sizeof *a->gone, procs_acct_cmp_pid);
	if (snapshot_reserve_procs(out, out->nproc + m) < 0)
		return -ENOMEM;
	/* merge from the back; a pid both exited and listed again (reused
	 * within the interval) keeps the listed process */
	size_t i = out->nproc, j = a->ngone, w = out->nproc + m;
	while (j > 0) {
		const struct procs_acct_task *g = &a->gone[j - 1];
		if (i > 0 && out->proc[i - 1].pid > g->pid) {
			out->proc[--w] = out->proc[--i];
		} else if (i > 0 && out->proc[i - 1].pid == g->pid) {
			j--;	/* dropped */
		} else {
			procs_acct_exited(g, &out->proc[--w]);
			j--;
		}
	}
	/* dropped ones left a gap at the front: close it */
	if (w > i)
		memmove(out->proc + i, out->proc + w, (out->nproc + m - w) * sizeof *out->proc);
	out->nproc = i + (out->nproc + m - w);
	return 0;
}

/* ---- /proc/.../io ---- */

bool procs_acct_parse_io(const char *text, uint64_t *write_bytes, uint64_t *cancelled_bytes)
{
	bool w = false, c = false;
	for (const char *line = text; line && *line;) {
		unsigned long long v;
		if (sscanf(line, "write_bytes: %llu", &v) == 1) {
			*write_bytes = v;
			w = true;
		} else if (sscanf(line, "cancelled_write_bytes: %llu", &v) == 1) {
			*cancelled_bytes = v;
			c = true;
		}
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	return w && c;
}

/* ---- taskstats ---- */

/* One attribute into a request; false when it does not fit. */
static bool procs_acct_ts_put(struct nlmsghdr *n, size_t room, uint16_t type, const void *data, size_t len)
{
	size_t at = NLMSG_ALIGN(n->nlmsg_len), alen = NLA_HDRLEN + len;
	if (at + NLA_ALIGN(alen) > room)
		return false;
	struct nlattr *na = (struct nlattr *)((char *)n + at);
	na->nla_type = type;
	na->nla_len = (uint16_t)alen;
	memcpy((char *)na + NLA_HDRLEN, data, len);
	n->nlmsg_len = (uint32_t)(at + NLA_ALIGN(alen));
	return true;
}

static int procs_acct_ts_send(struct procs_acct *a, uint16_t type, uint8_t cmd, uint8_t version, uint16_t attr,
			      const void *data, size_t len)
{
	union {
		struct nlmsghdr n;
		char b[512];
	} req;
	memset(&req, 0, sizeof req);
	req.n.nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN);
	req.n.nlmsg_type = type;
	req.n.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	req.n.nlmsg_seq = ++a->seq;
	struct genlmsghdr *g = NLMSG_DATA(&req.n);
	g->cmd = cmd;
	g->version = version;
	if (!procs_acct_ts_put(&req.n, sizeof req, attr, data, len))
		return -EINVAL;
	struct sockaddr_nl to = { .nl_family = AF_NETLINK };
	ssize_t sent;
	do
		sent = sendto(a->fd, &req, req.n.nlmsg_len, 0, (struct sockaddr *)&to, sizeof to);
	while (sent < 0 && errno == EINTR);
	if (sent < 0)
		return -errno;
	return 0;
}

/* The answer to the last request: its error (0: acknowledged), and for a
 * family request the family id into *family. */
static int procs_acct_ts_answer(struct procs_acct *a, uint16_t *family)
{
	for (int tries = 0; tries < 16; tries++) {
		ssize_t got = recv(a->fd, a->buf, sizeof a->buf, 0);
		if (got < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		size_t len = (size_t)got;
		for (struct nlmsghdr *n = (struct nlmsghdr *)a->buf; NLMSG_OK(n, len); n = NLMSG_NEXT(n, len)) {
			if (n->nlmsg_seq != a->seq)
				continue;
			if (n->nlmsg_type == NLMSG_ERROR) {
				if (n->nlmsg_len < NLMSG_LENGTH(sizeof(struct nlmsgerr)))
					return -EBADMSG;
				const struct nlmsgerr *err = NLMSG_DATA(n);
				if (err->error != 0 || !family)
					return err->error;
				continue;	/* the ack after the family's answer */
			}
			if (!family || n->nlmsg_type != GENL_ID_CTRL || n->nlmsg_len < NLMSG_LENGTH(GENL_HDRLEN))
				continue;
			size_t alen = n->nlmsg_len - NLMSG_LENGTH(GENL_HDRLEN);
			const struct nlattr *na = (const struct nlattr *)((const char *)NLMSG_DATA(n) + GENL_HDRLEN);
			while (alen >= NLA_HDRLEN && na->nla_len >= NLA_HDRLEN && na->nla_len <= alen) {
				if ((na->nla_type & NLA_TYPE_MASK) == CTRL_ATTR_FAMILY_ID &&
				    na->nla_len >= NLA_HDRLEN + sizeof(uint16_t)) {
					memcpy(family, (const char *)na + NLA_HDRLEN, sizeof *family);
					return 0;
				}
				size_t step = NLA_ALIGN(na->nla_len);
				if (step >= alen)
					break;
				alen -= step;
				na = (const struct nlattr *)((const char *)na + step);
			}
			return -ENOENT;
		}
	}
	return -ETIMEDOUT;
}

/* "0-1" from /sys/devices/system/cpu/possible. */
static int procs_acct_ts_cpus(char *mask, size_t len)
{
	FILE *f = fopen("/sys/devices/system/cpu/possible", "re");
	if (!f)
		return -errno;
	bool ok = fgets(mask, (int)len, f) != NULL;
	fclose(f);
	if (!ok)
		return -EIO;
	mask[strcspn(mask, "\n")] = '\0';
	return mask[0] ? 0 : -EIO;
}

int procs_acct_listen(struct procs_acct *a)
{
	if (a->fd >= 0)
		return 0;
	char mask[256];
	int rc = procs_acct_ts_cpus(mask, sizeof mask);
	if (rc < 0)
		return rc;
	a->fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (a->fd < 0)
		return -errno;
	struct sockaddr_nl me = { .nl_family = AF_NETLINK };
	int size = PROCS_TS_RCVBUF;
	/* root may go past rmem_max; anyone else gets what it allows */
	if (setsockopt(a->fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof size) < 0)
		(void)setsockopt(a->fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof size);
	/* answers to a request must not wait forever */
	struct timeval tv = { .tv_sec = 1 };
	if (bind(a->fd, (struct sockaddr *)&me, sizeof me) < 0 ||
	    setsockopt(a->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv) < 0) {
		rc = -errno;
		goto fail;
	}
	const char name[] = TASKSTATS_GENL_NAME;
	rc = procs_acct_ts_send(a, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 1, CTRL_ATTR_FAMILY_NAME, name, sizeof name);
	if (rc == 0)
		rc = procs_acct_ts_answer(a, &a->family);
	if (rc == 0)
		rc = procs_acct_ts_send(a, a->family, TASKSTATS_CMD_GET, TASKSTATS_GENL_VERSION,
					TASKSTATS_CMD_ATTR_REGISTER_CPUMASK, mask, strlen(mask) + 1);
	if (rc == 0)
		rc = procs_acct_ts_answer(a, NULL);
	if (rc == 0)
		return 0;
fail:
	close(a->fd);
	a->fd = -1;
	return rc < 0 ? rc : -EIO;
}

bool procs_acct_listening(const struct procs_acct *a)
{
	return a && a->fd >= 0;
}

uint64_t procs_acct_lost(const struct procs_acct *a)
{
	return a ? a->lost : 0;
}

/* The stats of one AGGR_PID attribute's payload into *x. */
static bool procs_acct_ts_stats(const char *p, size_t len, struct procs_exit *x)
{
	size_t need = offsetof(struct taskstats, cancelled_write_bytes) + sizeof(uint64_t);
	if (len < need)
		return false;
	uint16_t version;
	memcpy(&version, p + offsetof(struct taskstats, version), sizeof version);
	memcpy(&x->write_bytes, p + offsetof(struct taskstats, write_bytes), sizeof x->write_bytes);
	memcpy(&x->cancelled_bytes, p + offsetof(struct taskstats, cancelled_write_bytes),
	       sizeof x->cancelled_bytes);
	char comm[TS_COMM_LEN];
	memcpy(comm, p + offsetof(struct taskstats, ac_comm), sizeof comm);
	comm[sizeof comm - 1] = '\0';
	snprintf(x->comm, sizeof x->comm, "%s", comm);
	uint32_t tgid = 0;
	if (version >= 12 && len >= offsetof(struct taskstats, ac_tgid) + sizeof tgid)
		memcpy(&tgid, p + offsetof(struct taskstats, ac_tgid), sizeof tgid);
	x->tgid = (int32_t)tgid;
	return true;
}

/* The attributes in [p, p + len): calls back for each (type, payload). */
static const struct nlattr *procs_acct_ts_next(const char **p, size_t *len)
{
	if (*len < NLA_HDRLEN)
		return NULL;
	const struct nlattr *na = (const struct nlattr *)*p;
	if (na->nla_len < NLA_HDRLEN || na->nla_len > *len)
		return NULL;
	size_t step = NLA_ALIGN(na->nla_len);
	*p += step < *len ? step : *len;
	*len -= step < *len ? step : *len;
	return na;
}

size_t procs_acct_parse_exits(const void *buf, size_t len, uint16_t family, struct procs_exit *out, size_t cap)
{
	size_t n = 0;
	for (const struct nlmsghdr *m = buf; NLMSG_OK(m, len) && n < cap; m = NLMSG_NEXT(m, len)) {
		if (m->nlmsg_type != family || m->nlmsg_len < NLMSG_LENGTH(GENL_HDRLEN))
			continue;
		const struct genlmsghdr *g = NLMSG_DATA(m);
		if (g->cmd != TASKSTATS_CMD_NEW)
			continue;
		const char *p = (const char *)g + GENL_HDRLEN;
		size_t left = m->nlmsg_len - NLMSG_LENGTH(GENL_HDRLEN);
		const struct nlattr *na;
		while ((na = procs_acct_ts_next(&p, &left)) && n < cap) {
			if ((na->nla_type & NLA_TYPE_MASK) != TASKSTATS_TYPE_AGGR_PID)
				continue;	/* AGGR_TGID carries no I/O figures */
			const char *q = (const char *)na + NLA_HDRLEN;
			size_t qlen = na->nla_len - NLA_HDRLEN;
			struct procs_exit x = { 0 };
			bool pid = false, stats = false;
			const struct nlattr *nb;
			while ((nb = procs_acct_ts_next(&q, &qlen))) {
				size_t plen = nb->nla_len - NLA_HDRLEN;
				const char *pl = (const char *)nb + NLA_HDRLEN;
				if ((nb->nla_type & NLA_TYPE_MASK) == TASKSTATS_TYPE_PID && plen >= sizeof(uint32_t)) {
					uint32_t v;
					memcpy(&v, pl, sizeof v);
					x.tid = (int32_t)v;
					pid = true;
				} else if ((nb->nla_type & NLA_TYPE_MASK) == TASKSTATS_TYPE_STATS) {
					int32_t tid = x.tid;
					stats = procs_acct_ts_stats(pl, plen, &x);
					x.tid = tid;
				}
			}
			if (pid && stats && x.tid > 0)
				out[n++] = x;
		}
	}
	return n;
}

void procs_acct_drain(struct procs_acct *a)
{
	if (a->fd < 0)
		return;
	struct procs_exit x[16];
	for (;;) {
		ssize_t got = recv(a->fd, a->buf, sizeof a->buf, MSG_DONTWAIT);
		if (got < 0) {
			if (errno == EINTR)
				continue;
			if (errno == ENOBUFS) {	/* the buffer overflowed: records were dropped */
				a->lost++;
				continue;
			}
			return;	/* EAGAIN: all read */
		}
		if (got == 0)
			return;
		size_t n = procs_acct_parse_exits(a->buf, (size_t)got, a->family, x, sizeof x / sizeof x[0]);
		for (size_t i = 0; i < n; i++)
			procs_acct_exit(a, &x[i]);
	}
}
