/*
 * test_derive.c - rates from counters: vmstat and iostat -x formulas,
 * counter resets, 32-bit millisecond wraps, devices coming and going, dt = 0.
 */
#include <check.h>
#include <stddef.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/cause.h"
#include "core/control.h"
#include "core/derive.h"
#include "core/knob.h"
#include "core/snapshot.h"
#include "core/figure.h"

#define S_NS 1000000000ull

static struct dev_counters dev(uint32_t major, uint32_t minor, const char *name)
{
	struct dev_counters d;
	memset(&d, 0, sizeof d);
	d.major = major;
	d.minor = minor;
	snprintf(d.name, sizeof d.name, "%s", name);
	d.nfields = 17;
	return d;
}

START_TEST(test_dev_iostat_formulas)
{
	struct dev_counters a = dev(8, 0, "sda"), b = a;
	b.f[DS_RD_IOS] = 100;	b.f[DS_RD_SECT] = 2000;	b.f[DS_RD_MS] = 300;	b.f[DS_RD_MERGES] = 10;
	b.f[DS_WR_IOS] = 400;	b.f[DS_WR_SECT] = 8192;	b.f[DS_WR_MS] = 800;	b.f[DS_WR_MERGES] = 40;
	b.f[DS_IO_MS] = 500;	b.f[DS_QUEUE_MS] = 1500;
	b.f[DS_DC_IOS] = 4;	b.f[DS_DC_SECT] = 64;	b.f[DS_DC_MS] = 8;
	b.f[DS_FL_IOS] = 20;	b.f[DS_FL_MS] = 10;
	struct dev_rates r;
	derive_dev(&a, &b, 2.0, &r);
	ck_assert_int_eq(r.status, RATE_OK);
	ck_assert_double_eq_tol(r.r_s, 50.0, 1e-9);
	ck_assert_double_eq_tol(r.w_s, 200.0, 1e-9);
	ck_assert_double_eq_tol(r.rkb_s, 500.0, 1e-9);	/* 2000 sectors = 1000 KiB over 2 s */
	ck_assert_double_eq_tol(r.wkb_s, 2048.0, 1e-9);
	ck_assert_double_eq_tol(r.rrqm_s, 5.0, 1e-9);
	ck_assert_double_eq_tol(r.wrqm_s, 20.0, 1e-9);
	ck_assert_double_eq_tol(r.r_await_ms, 3.0, 1e-9);
	ck_assert_double_eq_tol(r.w_await_ms, 2.0, 1e-9);
	ck_assert_double_eq_tol(r.aqu_sz, 0.75, 1e-9);	/* 1500 ms queued in 2000 ms */
	ck_assert_double_eq_tol(r.util_pct, 25.0, 1e-9);	/* 500 ms busy in 2000 ms */
	ck_assert_double_eq_tol(r.d_s, 2.0, 1e-9);
	ck_assert_double_eq_tol(r.dkb_s, 16.0, 1e-9);
	ck_assert_double_eq_tol(r.d_await_ms, 2.0, 1e-9);
	ck_assert_double_eq_tol(r.f_s, 10.0, 1e-9);
	ck_assert_double_eq_tol(r.f_await_ms, 0.5, 1e-9);
	ck_assert(r.has_discard && r.has_flush && r.active);
}
END_TEST

START_TEST(test_dev_util_capped)
{
	struct dev_counters a = dev(8, 0, "sda"), b = a;
	b.f[DS_IO_MS] = 1500;	/* more busy time than elapsed: iostat caps at 100 */
	struct dev_rates r;
	derive_dev(&a, &b, 1.0, &r);
	ck_assert_double_eq_tol(r.util_pct, 100.0, 1e-9);
}
END_TEST

START_TEST(test_dev_reset_is_not_a_huge_rate)
{
	struct dev_counters a = dev(8, 0, "sda"), b = a;
	a.f[DS_WR_SECT] = 1000000;
	b.f[DS_WR_SECT] = 10;
	struct dev_rates r;
	derive_dev(&a, &b, 1.0, &r);
	ck_assert_int_eq(r.status, RATE_RESET);
	ck_assert_double_eq(r.wkb_s, 0.0);
	ck_assert(!r.active);
}
END_TEST

START_TEST(test_dev_ms_field_wraps_at_32_bits)
{
	/* The kernel prints the time fields as unsigned int milliseconds. */
	struct dev_counters a = dev(8, 0, "sda"), b = a;
	a.f[DS_IO_MS] = 4294967000ull;
	b.f[DS_IO_MS] = 204;	/* 296 + 204 = 500 ms later */
	b.f[DS_WR_IOS] = 1;
	struct dev_rates r;
	derive_dev(&a, &b, 1.0, &r);
	ck_assert_int_eq(r.status, RATE_OK);
	ck_assert_double_eq_tol(r.util_pct, 50.0, 1e-9);
}
END_TEST

/* Each field going backwards on its own: a reset, except a time field
 * from a 32-bit value (a wrap) and the in-flight gauge (it may fall). */
START_TEST(test_dev_each_field_backwards)
{
	for (int f = 0; f < DS_NFIELDS; f++) {
		struct dev_counters a = dev(8, 0, "sda"), b = a;
		for (int g = 0; g < DS_NFIELDS; g++)
			a.f[g] = b.f[g] = 1000 + (uint64_t)g;
		a.f[f] = 5000;
		b.f[f] = 4000;
		struct dev_rates r;
		derive_dev(&a, &b, 1.0, &r);
		bool ms = f == DS_RD_MS || f == DS_WR_MS || f == DS_IO_MS || f == DS_QUEUE_MS ||
			  f == DS_DC_MS || f == DS_FL_MS;
		ck_assert_msg(r.status == (ms || f == DS_IN_FLIGHT ? RATE_OK : RATE_RESET),
			      "field %d: status %d", f, (int)r.status);
		if (f == DS_IO_MS)	/* 2^32 - 5000 + 4000 ms: capped */
			ck_assert_double_eq(r.util_pct, 100.0);
		if (f == DS_IN_FLIGHT)
			ck_assert(r.active);
	}
}
END_TEST

/* Counters above 2^63 still give rates (the slow path); a step of 2^63 or
 * more in one interval is no real counter's: a reset, not a huge rate. */
START_TEST(test_dev_huge_counters)
{
	struct dev_counters a = dev(8, 0, "sda"), b = a;
	a.f[DS_WR_SECT] = (1ull << 63) + 10;
	b.f[DS_WR_SECT] = (1ull << 63) + 2058;
	b.f[DS_WR_IOS] = 1;
	b.f[DS_IN_FLIGHT] = 3;
	struct dev_rates r;
	derive_dev(&a, &b, 1.0, &r);
	ck_assert_int_eq(r.status, RATE_OK);
	ck_assert_double_eq(r.wkb_s, 1024.0);
	a.f[DS_WR_SECT] = 10;
	b.f[DS_WR_SECT] = (1ull << 63) + 10;
	derive_dev(&a, &b, 1.0, &r);
	ck_assert_int_eq(r.status, RATE_RESET);
	b.f[DS_WR_SECT] = 20;
	b.f[DS_IN_FLIGHT] = UINT64_MAX;
	derive_dev(&a, &b, 1.0, &r);
	ck_assert_int_eq(r.status, RATE_RESET);
}
END_TEST

START_TEST(test_dev_replaced_device_is_first)
{
	struct dev_counters a = dev(7, 0, "loop0"), b = dev(7, 0, "other");
	struct dev_rates r;
	derive_dev(&a, &b, 1.0, &r);
	ck_assert_int_eq(r.status, RATE_FIRST);
	derive_dev(NULL, &b, 1.0, &r);
	ck_assert_int_eq(r.status, RATE_FIRST);
}
END_TEST

START_TEST(test_dev_zero_dt)
{
	struct dev_counters a = dev(8, 0, "sda"), b = a;
	b.f[DS_WR_IOS] = 5;
	struct dev_rates r;
	derive_dev(&a, &b, 0.0, &r);
	ck_assert_int_eq(r.status, RATE_NODATA);
	ck_assert_double_eq(r.w_s, 0.0);
}
END_TEST

START_TEST(test_dev_old_kernel_fields)
{
	struct dev_counters a = dev(8, 0, "sda"), b = a;
	a.nfields = b.nfields = 11;
	b.f[DS_WR_IOS] = 5;
	struct dev_rates r;
	derive_dev(&a, &b, 1.0, &r);
	ck_assert(!r.has_discard && !r.has_flush);
	a.nfields = b.nfields = 15;
	derive_dev(&a, &b, 1.0, &r);
	ck_assert(r.has_discard && !r.has_flush);
}
END_TEST

static void snap_with(struct snapshot *s, uint64_t t_ns, struct dev_counters *devs, size_t n)
{
	snapshot_init(s);
	s->mono_ns = t_ns;
	s->page_size = 4096;
	snapshot_reserve(s, n);
	memcpy(s->dev, devs, n * sizeof *devs);
	s->ndev = n;
}

START_TEST(test_devs_come_and_go)
{
	struct dev_counters p[3] = { dev(7, 0, "loop0"), dev(8, 0, "sda"), dev(8, 16, "sdb") };
	struct dev_counters c[3] = { dev(8, 0, "sda"), dev(8, 32, "sdc"), dev(253, 0, "dm-0") };
	p[1].f[DS_WR_SECT] = 100;
	c[0].f[DS_WR_SECT] = 300;
	struct snapshot prev, cur;
	snap_with(&prev, 10 * S_NS, p, 3);
	snap_with(&cur, 11 * S_NS, c, 3);
	struct dev_rates r[3];
	derive_devs(&prev, &cur, r);
	ck_assert_int_eq(r[0].status, RATE_OK);
	ck_assert_double_eq_tol(r[0].wkb_s, 100.0, 1e-9);
	ck_assert_int_eq(r[1].status, RATE_FIRST);	/* sdc is new */
	ck_assert_int_eq(r[2].status, RATE_FIRST);	/* dm-0 is new */
	snapshot_free(&prev);
	snapshot_free(&cur);
}
END_TEST

START_TEST(test_sys_vmstat_formulas)
{
	struct snapshot a, b;
	snapshot_init(&a);
	snapshot_init(&b);
	a.page_size = b.page_size = 4096;
	a.mono_ns = 100 * S_NS;
	b.mono_ns = 105 * S_NS;	/* vmstat 5 */
	b.sys.pgpgout_kb = 3752260;	/* 750452 KiB/s, the trace's second line */
	b.sys.pgpgin_kb = 30;
	b.sys.pswpin_pages = 10;	/* 40 KiB over 5 s */
	b.sys.intr = 10300;
	b.sys.ctxt = 35765;
	b.sys.cpu_jif[CPU_USER] = 4;	b.sys.cpu_jif[CPU_NICE] = 1;
	b.sys.cpu_jif[CPU_SYSTEM] = 50;	b.sys.cpu_jif[CPU_IRQ] = 2;	b.sys.cpu_jif[CPU_SOFTIRQ] = 1;
	b.sys.cpu_jif[CPU_IDLE] = 13;	b.sys.cpu_jif[CPU_IOWAIT] = 29;	b.sys.cpu_jif[CPU_STEAL] = 0;
	b.sys.free_kb = 91300;
	b.sys.dirty_thresh_pages = 1000;
	b.sys.nr_dirtied_pages = 500;
	struct sys_rates r;
	ck_assert_int_eq(derive_sys(&a, &b, &r), RATE_OK);
	ck_assert_double_eq_tol(r.dt_s, 5.0, 1e-9);
	ck_assert_double_eq_tol(r.bo_kbps, 750452.0, 1e-6);
	ck_assert_double_eq_tol(r.bi_kbps, 6.0, 1e-9);
	ck_assert_double_eq_tol(r.si_kbps, 8.0, 1e-9);
	ck_assert_double_eq_tol(r.in_ps, 2060.0, 1e-9);
	ck_assert_double_eq_tol(r.cs_ps, 7153.0, 1e-9);
	ck_assert_double_eq_tol(r.us, 5.0, 1e-9);	/* (4+1)/100 */
	ck_assert_double_eq_tol(r.sy, 53.0, 1e-9);	/* (50+2+1)/100 */
	ck_assert_double_eq_tol(r.id, 13.0, 1e-9);
	ck_assert_double_eq_tol(r.wa, 29.0, 1e-9);
	ck_assert_uint_eq(r.free_kb, 91300);
	ck_assert_uint_eq(r.dirty_thresh_kb, 4000);
	ck_assert_double_eq_tol(r.dirtied_kbps, 400.0, 1e-9);
}
END_TEST

START_TEST(test_sys_first_and_nodata)
{
	struct snapshot a, b;
	snapshot_init(&a);
	snapshot_init(&b);
	a.mono_ns = b.mono_ns = 5 * S_NS;
	struct sys_rates r;
	ck_assert_int_eq(derive_sys(NULL, &b, &r), RATE_FIRST);
	ck_assert_int_eq(derive_sys(&a, &b, &r), RATE_NODATA);
	b.mono_ns = 6 * S_NS;
	a.sys.ctxt = 100;	/* counter went backwards */
	ck_assert_int_eq(derive_sys(&a, &b, &r), RATE_RESET);
	ck_assert_double_eq(r.cs_ps, 0.0);
}
END_TEST

START_TEST(test_sys_no_ticks_is_idle)
{
	struct snapshot a, b;
	snapshot_init(&a);
	snapshot_init(&b);
	a.mono_ns = 1;
	b.mono_ns = 2;
	struct sys_rates r;
	derive_sys(&a, &b, &r);
	ck_assert_double_eq_tol(r.id, 100.0, 1e-9);
	ck_assert_double_eq_tol(r.us, 0.0, 1e-9);
}
END_TEST

/* A random pair of samples of one device into p and c (named already) from the generator *x:
 * every field grown by up to 4095, and by the kind returned (0..15), kind 1 one field (at)
 * going backwards, kind 2 the write milliseconds wrapping at 32 bits; the other kinds are the
 * caller's to give a meaning. */
static unsigned random_pair(uint64_t *x, unsigned at, struct dev_counters *p,
			    struct dev_counters *c)
{
	*x = *x * 6364136223846793005ull + 1442695040888963407ull;
	unsigned kind = (unsigned)(*x >> 60);
	for (int f = 0; f < DS_NFIELDS; f++) {
		p->f[f] = (*x >> (f % 40)) & 0xffffff;
		c->f[f] = p->f[f] + ((*x >> (f + 3)) & 0xfff);
	}
	if (kind == 1)
		c->f[at % DS_NFIELDS] = p->f[at % DS_NFIELDS] - 1;	/* backwards */
	if (kind == 2) {
		p->f[DS_WR_MS] = UINT32_MAX - 5;	/* a 32-bit wrap */
		c->f[DS_WR_MS] = 10;
	}
	return kind;
}

/* What the pipeline derives of every device each step (the pairing and the write rate) is
 * what derive_devs gives: the same status and, bit for bit, the same write rate, over devices
 * coming, going, renamed, reset (each field backwards), wrapping their 32-bit milliseconds,
 * with huge counters and idle; and with dt = 0. */
START_TEST(test_write_rate_is_derive_devs)
{
	enum { N = 600 };
	static struct dev_counters pa[N], ca[N];
	static struct dev_rates full[N];
	static const struct dev_counters *pair[N];
	uint64_t x = 7;
	size_t np = 0, nc = 0;
	for (uint32_t minor = 0; minor < N; minor++) {
		struct dev_counters p = dev(7, minor, "loop"), c = p;
		unsigned kind = random_pair(&x, minor, &p, &c);
		if (kind == 3)
			c.f[DS_WR_SECT] = p.f[DS_WR_SECT] + (1ull << 62);	/* huge */
		if (kind == 4)
			p.f[DS_WR_SECT] = (1ull << 63) + 5;	/* a value past 2^63 */
		if (kind == 5)
			snprintf(c.name, sizeof c.name, "other");	/* the minor reused */
		if (kind == 6)
			memcpy(c.f, p.f, sizeof c.f);	/* idle */
		if (kind != 7)
			pa[np++] = p;	/* kind 7: new in cur */
		if (kind != 8)
			ca[nc++] = c;	/* kind 8: gone from cur */
	}
	struct snapshot ps = { .dev = pa, .ndev = np, .mono_ns = 5 * S_NS };
	struct snapshot cs = { .dev = ca, .ndev = nc, .mono_ns = 7 * S_NS };
	for (int zero_dt = 0; zero_dt < 2; zero_dt++) {
		if (zero_dt)
			cs.mono_ns = ps.mono_ns;
		derive_devs(&ps, &cs, full);
		derive_pair_devs(&ps, &cs, pair);
		double dt = derive_dt_s(&ps, &cs);
		int bad = -1;
		size_t nok = 0;
		for (size_t i = 0; i < nc && bad < 0; i++) {
			double w;
			enum rate_status st = derive_dev_write(pair[i], &ca[i], dt, &w, NULL);
			if (st != full[i].status || (st == RATE_OK && memcmp(&w, &full[i].wkb_s, sizeof w)))
				bad = (int)i;
			/* the brief: its status, activity and every figure it is for (FIG_IN_BRIEF) */
			struct dev_rates b;
			derive_dev_brief(pair[i], &ca[i], dt, &b);
			if (b.status != full[i].status || b.active != full[i].active)
				bad = (int)i;
			/* the brief and the write rate in one pass: the same numbers as both */
			struct dev_rates bw;
			memset(&bw, 0x5a, sizeof bw);
			double wi, wi_want;
			enum rate_status sw = derive_dev_brief_write(pair[i], &ca[i], dt, &bw, &wi);
			derive_dev_write(pair[i], &ca[i], dt, &w, &wi_want);
			memcpy(bw.x, b.x, sizeof bw.x);	/* left as it was: x_have is 0 */
			if (sw != st || memcmp(&bw.wkb_s, &w, sizeof w) || memcmp(&wi, &wi_want, sizeof wi) ||
			    bw.x_have || bw.status != b.status || bw.active != b.active ||
			    bw.has_discard != b.has_discard || bw.has_flush != b.has_flush ||
			    memcmp(&bw.r_s, &b.r_s, offsetof(struct dev_rates, has_discard) -
				   offsetof(struct dev_rates, r_s)))
				bad = (int)i;
			for (size_t k = 0; k < fig_ndev && bad < 0; k++) {
				const struct fig_dev *row = &fig_dev_table[k];
				if (!(row->sinks & FIG_IN_BRIEF))
					continue;
				double vb = figure_dev_value(row, &b), vf = figure_dev_value(row, &full[i]);
				if (st == RATE_OK && memcmp(&vb, &vf, sizeof vb))
					bad = (int)i;
			}
			nok += st == RATE_OK;
		}
		ck_assert_msg(bad < 0, "device %d differs", bad);
		ck_assert(zero_dt ? nok == 0 : nok > N / 2);
	}
	/* no previous sample: every device is new */
	derive_pair_devs(NULL, &cs, pair);
	for (size_t i = 0; i < nc; i++)
		ck_assert_ptr_null(pair[i]);
}
END_TEST

/* Two samples whose source numbered their device lists the same are paired place by place;
 * without a number (0), with two numbers, or with as many devices not, they are paired by
 * major:minor, as before. */
START_TEST(test_pair_by_devs_serial)
{
	struct dev_counters pa[4], ca[4];
	for (uint32_t k = 0; k < 4; k++) {
		pa[k] = dev(8, k, "sd");
		ca[k] = dev(8, k, "sd");
	}
	struct snapshot ps = { .dev = pa, .ndev = 4, .devs_serial = 7 };
	struct snapshot cs = { .dev = ca, .ndev = 4, .devs_serial = 7 };
	const struct dev_counters *pair[4];
	ck_assert(snapshot_same_devs(&ps, &cs));
	derive_pair_devs(&ps, &cs, pair);
	for (size_t i = 0; i < 4; i++)
		ck_assert_ptr_eq(pair[i], &pa[i]);
	/* another list (8:1 gone, 8:9 new): the numbers differ, the pairing is by major:minor */
	ca[1] = dev(8, 2, "sd");
	ca[2] = dev(8, 3, "sd");
	ca[3] = dev(8, 9, "sd");
	cs.devs_serial = 8;
	ck_assert(!snapshot_same_devs(&ps, &cs));
	derive_pair_devs(&ps, &cs, pair);
	ck_assert_ptr_eq(pair[0], &pa[0]);
	ck_assert_ptr_eq(pair[1], &pa[2]);
	ck_assert_ptr_eq(pair[2], &pa[3]);
	ck_assert_ptr_null(pair[3]);
	/* not numbered: the same */
	ps.devs_serial = cs.devs_serial = 0;
	ck_assert(!snapshot_same_devs(&ps, &cs));
	derive_pair_devs(&ps, &cs, pair);
	ck_assert_ptr_eq(pair[1], &pa[2]);
	ck_assert_ptr_null(pair[3]);
	/* one number but fewer devices (no source does that): still not place by place */
	ps.devs_serial = cs.devs_serial = 9;
	cs.ndev = 3;
	ck_assert(!snapshot_same_devs(&ps, &cs));
	ck_assert(!snapshot_same_devs(NULL, &cs));
}
END_TEST

/* Whether a and b have the same figures of derive_dev_cause's, bit for bit. */
static bool cause_figures_eq(const struct dev_rates *a, const struct dev_rates *b)
{
	const double *va[] = { &a->w_s, &a->wkb_s, &a->w_await_ms, &a->aqu_sz, &a->f_s,
			       &a->f_await_ms };
	const double *vb[] = { &b->w_s, &b->wkb_s, &b->w_await_ms, &b->aqu_sz, &b->f_s,
			       &b->f_await_ms };
	if (a->status != b->status || a->has_flush != b->has_flush ||
	    a->has_discard != b->has_discard || a->x_have != b->x_have)
		return false;
	for (size_t i = 0; a->status == RATE_OK && i < sizeof va / sizeof va[0]; i++)
		if (memcmp(va[i], vb[i], sizeof *va[i]) != 0)
			return false;
	return true;
}

/* derive_dev_cause_ok over counters at and above 2^63, each of its six fields backwards, and a
 * wrapped time field: what derive_dev_cause gives (the wide way, a field at a time). */
START_TEST(test_cause_ok_wide_counters)
{
	static const int fields[] = { DS_WR_IOS, DS_WR_SECT, DS_WR_MS, DS_QUEUE_MS, DS_FL_IOS,
				      DS_FL_MS, DS_RD_IOS };
	for (size_t k = 0; k < sizeof fields / sizeof fields[0]; k++) {
		for (int how = 0; how < 3; how++) {
			struct dev_counters p = dev(8, 0, "sda"), c = p;
			for (int f = 0; f < DS_NFIELDS; f++) {
				p.f[f] = 1000 + (uint64_t)f;
				c.f[f] = p.f[f] + 10 * (uint64_t)(f + 1);
			}
			int f = fields[k];
			if (how == 0) {
				p.f[f] = (1ull << 63) + 5;	/* huge, still a step of 10 */
				c.f[f] = p.f[f] + 10;
			} else if (how == 1) {
				c.f[f] = p.f[f] - 1;	/* backwards */
			} else {
				p.f[f] = UINT32_MAX - 2;	/* a time wraps, a count resets */
				c.f[f] = 4;
			}
			struct dev_rates cause, ok;
			derive_dev_cause(&p, &c, 1.5, &cause);
			derive_dev_cause_ok(&p, &c, 1.5, &ok);
			/* a field the six do not read: known rates are the caller's word */
			if (f != DS_RD_IOS || how == 0)
				ck_assert_msg(cause_figures_eq(&ok, &cause), "field %d how %d", f,
					      how);
		}
	}
}
END_TEST

/* derive_xwalk_x answers what derive_x answers, for each kind of each scope, over sorted
 * snapshots whose objects have some of the values, gauges and counters, counters that went
 * backwards or are new since (from 0 when the source ran before), asked in order (each object,
 * and objects with no values between them) and now and then out of order. */
START_TEST(test_xwalk_is_derive_x)
{
	uint64_t x = 77;
	unsigned found = 0;
	for (int t = 0; t < 60; t++) {
		struct snapshot a, b;
		snapshot_init(&a);
		snapshot_init(&b);
		a.mono_ns = S_NS;
		b.mono_ns = 3 * S_NS;
		for (int scope = 0; scope < SNAP_NXSCOPE; scope++) {
			static const unsigned nkinds[SNAP_NXSCOPE] = { SNAP_NXDEV, SNAP_NXTASK,
								       SNAP_NXSYS, SNAP_NXCG };
			for (uint64_t obj = 0; obj < 12; obj++) {
				for (unsigned k = 0; k < nkinds[scope]; k++) {
					x = x * 6364136223846793005ull + 1442695040888963407ull;
					unsigned r = (unsigned)(x >> 59);
					uint64_t o = scope == SNAP_XSYS ? 0 : obj * 3 + (t % 3);
					uint64_t v = (x >> 20) & 0xffff, vb = v + (r & 1 ? 0 : 900);
					int rb = r % 4 ? snapshot_add_x(&b, scope, k, o, vb) : 0;
					int ra = r % 3 ? snapshot_add_x(&a, scope, k, o, v) : 0;
					ck_assert(ra == 0 && rb == 0);
				}
			}
		}
		snapshot_sort_x(&a);
		snapshot_sort_x(&b);
		for (int scope = 0; scope < SNAP_NXSCOPE; scope++) {
			/* up to kinds that do not exist; now and then an object asked again after
			 * a later one; now and then no previous sample */
			const struct snapshot *pa = t % 5 ? &a : NULL;
			for (unsigned k = 0; k < 14; k++) {
				struct derive_xwalk w;
				derive_xwalk_init(&w, &b, scope, k);
				for (uint64_t q = 0; q < 40; q++) {
					uint64_t o = q % 17 == 16 ? q / 3 : q;
					double vw = -7.0, vx = -7.0;
					bool hw = derive_xwalk_x(&w, pa, &b, o, 2.0, &vw);
					bool hx = derive_x(pa, &b, scope, o, k, 2.0, &vx);
					ck_assert_msg(hw == hx && memcmp(&vw, &vx, sizeof vw) == 0,
						      "t %d scope %d kind %u obj %llu", t, scope, k,
						      (unsigned long long)o);
					found += hx;
				}
			}
		}
		snapshot_free(&a);
		snapshot_free(&b);
	}
	ck_assert_uint_gt(found, 5000);
}
END_TEST

/* What the pipeline learns a device's usual figures from (derive_dev_cause) is derive_dev's,
 * bit for bit, in every figure a cause is judged by: the status, flush and discard support
 * (old kernels have neither), and w_s, wkb_s, aqu_sz, w_await_ms, f_s, f_await_ms read through the
 * registry as the cause's evidence reads them; over random counters, resets, wraps, idle
 * devices, a first sample and dt = 0. */
START_TEST(test_cause_figures_are_derive_dev)
{
	static const enum fig_dev_id ids[] = { FIG_DEV_W_S, FIG_DEV_WKB_S, FIG_DEV_AQU_SZ,
					       FIG_DEV_W_AWAIT_MS, FIG_DEV_F_S, FIG_DEV_F_AWAIT_MS };
	uint64_t x = 11;
	unsigned nok = 0;
	for (int k = 0; k < 3000; k++) {
		struct dev_counters p = dev(8, 0, "sda"), c = p;
		unsigned kind = random_pair(&x, (unsigned)k, &p, &c);
		if (kind == 3)
			memcpy(c.f, p.f, sizeof c.f);	/* idle */
		if (kind == 4)
			p.nfields = c.nfields = 11;	/* no discards, no flushes */
		if (kind == 5)
			p.nfields = c.nfields = 15;	/* no flushes */
		double dt = kind == 6 ? 0.0 : 0.25 + (double)(x >> 58);
		struct dev_rates full, cause;
		memset(&cause, 0x5a, sizeof cause);	/* what it leaves is not read */
		derive_dev(kind == 7 ? NULL : &p, &c, dt, &full);
		derive_dev_cause(kind == 7 ? NULL : &p, &c, dt, &cause);
		ck_assert_int_eq(cause.status, full.status);
		/* and for a device known to have rates, without the test of every counter: the
		 * same figures; given one without, what derive_dev_cause gives whenever one of
		 * the six it reads says so */
		struct dev_rates ok;
		memset(&ok, 0x5a, sizeof ok);
		derive_dev_cause_ok(kind == 7 ? NULL : &p, &c, dt, &ok);
		if (full.status == RATE_OK || ok.status != RATE_OK)
			ck_assert_msg(cause_figures_eq(&ok, &cause), "case %d kind %u: known rates",
				      k, kind);
		ck_assert(cause.has_flush == full.has_flush && cause.has_discard == full.has_discard);
		ck_assert_uint_eq(cause.x_have, full.x_have);
		for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
			double vf = -1.0, vc = -1.0;
			bool hf = figure_dev_get(ids[i], &full, &vf), hc = figure_dev_get(ids[i], &cause, &vc);
			ck_assert_msg(hf == hc && memcmp(&vf, &vc, sizeof vf) == 0,
				      "case %d kind %u figure %zu: %g against %g", k, kind, i, vc, vf);
		}
		/* and whatever the cause's evidence reads, now or after a change of it */
		struct dip_evidence ef, ec;
		memset(&ef, 0, sizeof ef);	/* the padding too, for the memcmp */
		memset(&ec, 0, sizeof ec);
		cause_evidence_init(&ef);
		cause_evidence_init(&ec);
		cause_evidence_dev(&ef, &full);
		cause_evidence_dev(&ec, &cause);
		ck_assert_msg(memcmp(&ef, &ec, sizeof ef) == 0, "case %d kind %u: evidence differs", k, kind);
		nok += full.status == RATE_OK;
	}
	ck_assert_uint_gt(nok, 2000);
}
END_TEST

/* Values beside the diskstats block: gauges as read, counters as rates,
 * nothing for a device without the value, a reset or a first sample, and the
 * registry's availability follows. */
START_TEST(test_dev_extras)
{
	struct snapshot a, b;
	snapshot_init(&a);
	snapshot_init(&b);
	ck_assert_int_eq(snapshot_reserve(&a, 3), 0);
	ck_assert_int_eq(snapshot_reserve(&b, 3), 0);
	a.mono_ns = 1000000000ull;
	b.mono_ns = 3000000000ull;	/* 2 s later */
	a.dev[0] = dev(8, 0, "sda");
	a.dev[1] = dev(8, 16, "sdb");
	a.dev[2] = dev(9, 0, "md0");
	a.ndev = 3;
	for (size_t i = 0; i < 3; i++)
		a.dev[i].f[DS_WR_IOS] = 10;
	ck_assert_int_eq(snapshot_copy(&b, &a), 0);
	b.mono_ns = 3000000000ull;
	for (size_t i = 0; i < 3; i++)
		b.dev[i].f[DS_WR_IOS] = 30;
	uint64_t sda = snapshot_xobj_dev(8, 0), md0 = snapshot_xobj_dev(9, 0);
	/* added out of order, one twice: sorted and kept once */
	ck_assert_int_eq(snapshot_add_x(&b, SNAP_XDEV, SNAP_XDEV_WB_BW_KBPS, md0, 5000), 0);
	ck_assert_int_eq(snapshot_add_x(&b, SNAP_XDEV, SNAP_XDEV_WB_DIRTY_KB, sda, 640), 0);
	ck_assert_int_eq(snapshot_add_x(&b, SNAP_XDEV, SNAP_XDEV_WB_DIRTY_KB, sda, 640), 0);
	ck_assert_int_eq(snapshot_add_x(&b, SNAP_XTASK, SNAP_XTASK_THROTTLED_MS, 77, 900), 0);
	ck_assert_int_eq(snapshot_add_x(&a, SNAP_XTASK, SNAP_XTASK_THROTTLED_MS, 77, 100), 0);
	ck_assert_int_eq(snapshot_add_x(&a, SNAP_XTASK, SNAP_XTASK_THROTTLED_MS, 78, 100), 0);
	ck_assert_int_eq(snapshot_add_x(&b, SNAP_XTASK, SNAP_XTASK_THROTTLED_MS, 78, 50), 0);
	ck_assert_int_eq(snapshot_add_x(&b, SNAP_XTASK, SNAP_XTASK_THROTTLED_MS, 79, 50), 0);
	ck_assert_int_eq(snapshot_add_x(&b, SNAP_XSYS, SNAP_NXSYS, 0, 1), -EINVAL);	/* no such kind */
	snapshot_sort_x(&a);
	snapshot_sort_x(&b);
	ck_assert_uint_eq(b.nx, 5);
	ck_assert_ptr_eq(snapshot_find_x(&b, SNAP_XDEV, snapshot_xobj_dev(8, 16)), NULL);

	struct dev_rates r[3];
	derive_devs(&a, &b, r);
	ck_assert_uint_eq(r[0].x_have, 1u << SNAP_XDEV_WB_DIRTY_KB);
	ck_assert_double_eq(r[0].x[SNAP_XDEV_WB_DIRTY_KB], 640);
	ck_assert_uint_eq(r[1].x_have, 0);
	ck_assert_uint_eq(r[2].x_have, 1u << SNAP_XDEV_WB_BW_KBPS);
	ck_assert_double_eq(r[2].x[SNAP_XDEV_WB_BW_KBPS], 5000);
	/* a counter: a rate from two samples; none after a reset, for a task new in
	 * cur, without a previous sample or when no time passed */
	double v;
	ck_assert(derive_x(&a, &b, SNAP_XTASK, 77, SNAP_XTASK_THROTTLED_MS, 2.0, &v));
	ck_assert_double_eq_tol(v, 400.0, 1e-9);	/* ms throttled per second */
	ck_assert(!derive_x(&a, &b, SNAP_XTASK, 78, SNAP_XTASK_THROTTLED_MS, 2.0, &v));
	ck_assert(!derive_x(&a, &b, SNAP_XTASK, 79, SNAP_XTASK_THROTTLED_MS, 2.0, &v));
	ck_assert(!derive_x(NULL, &b, SNAP_XTASK, 77, SNAP_XTASK_THROTTLED_MS, 2.0, &v));
	ck_assert(!derive_x(&a, &b, SNAP_XTASK, 77, SNAP_XTASK_THROTTLED_MS, 0.0, &v));
	/* a gauge needs no previous sample */
	ck_assert(derive_x(NULL, &b, SNAP_XDEV, md0, SNAP_XDEV_WB_BW_KBPS, 0.0, &v));
	/* a first sample has no rates, so no values either */
	derive_devs(NULL, &b, r);
	ck_assert_uint_eq(r[0].x_have | r[2].x_have, 0);

	/* a registry row for such a value (as issue 15's rows are written) */
	derive_devs(&a, &b, r);
	struct fig_dev row = { .name = "wb_bw_kbps", .need = FIG_NEED_EXTRA, .xkind = SNAP_XDEV_WB_BW_KBPS };
	ck_assert(!figure_dev_available(&row, &r[0]));
	ck_assert(figure_dev_available(&row, &r[2]));
	ck_assert_double_eq(figure_dev_value(&row, &r[2]), 5000);
	snapshot_free(&a);
	snapshot_free(&b);
}
END_TEST

/* Changes seen between samples: a write of wbtop's explains its knob and
 * the ratio/bytes partner it zeroed; what is left is someone else's. */
START_TEST(test_knob_changes_unexplained)
{
	struct snapshot a, b;
	memset(&a, 0, sizeof a);
	memset(&b, 0, sizeof b);
	for (int k = 0; k < KNOB_VM_COUNT; k++)
		a.knob[k] = b.knob[k] = 10;
	b.knob[KNOB_DIRTY_RATIO] = 0;		/* zeroed by wbtop's dirty_bytes write */
	b.knob[KNOB_DIRTY_BYTES] = 1 << 28;
	b.knob[KNOB_DIRTY_EXPIRE_CS] = 500;	/* someone else's */
	b.wall_ns = 7;
	struct wb_event seen[SNAP_NKNOBS];
	size_t n = control_rules_changes(&a, &b, seen, SNAP_NKNOBS);
	ck_assert_uint_eq(n, 3);
	for (size_t i = 0; i < n; i++) {
		ck_assert(seen[i].observed);
		ck_assert_int_eq(seen[i].wall_ns, 7);
	}
	struct wb_event own = { .knob = "vm.dirty_bytes", .new_value = 1 << 28 };
	n = control_rules_unexplained(seen, n, &own, 1);
	ck_assert_uint_eq(n, 1);
	ck_assert_str_eq(seen[0].knob, "vm.dirty_expire_centisecs");
	ck_assert_int_eq(seen[0].old_value, 10);
	ck_assert_int_eq(seen[0].new_value, 500);
	/* nothing of wbtop's: every change is kept; an observed one explains nothing */
	n = control_rules_changes(&a, &b, seen, SNAP_NKNOBS);
	ck_assert_uint_eq(control_rules_unexplained(seen, n, NULL, 0), 3);
	struct wb_event other = seen[2];
	ck_assert_uint_eq(control_rules_unexplained(seen, n, &other, 1), 3);
	/* no previous sample: no change */
	ck_assert_uint_eq(control_rules_changes(NULL, &b, seen, SNAP_NKNOBS), 0);
}
END_TEST

Suite *derive_suite(void)
{
	Suite *s = suite_create("derive");
	TCase *tc = tcase_create("rates");
	tcase_add_test(tc, test_dev_iostat_formulas);
	tcase_add_test(tc, test_dev_util_capped);
	tcase_add_test(tc, test_dev_reset_is_not_a_huge_rate);
	tcase_add_test(tc, test_dev_ms_field_wraps_at_32_bits);
	tcase_add_test(tc, test_dev_each_field_backwards);
	tcase_add_test(tc, test_dev_huge_counters);
	tcase_add_test(tc, test_dev_replaced_device_is_first);
	tcase_add_test(tc, test_dev_zero_dt);
	tcase_add_test(tc, test_dev_old_kernel_fields);
	tcase_add_test(tc, test_devs_come_and_go);
	tcase_add_test(tc, test_write_rate_is_derive_devs);
	tcase_add_test(tc, test_pair_by_devs_serial);
	tcase_add_test(tc, test_sys_vmstat_formulas);
	tcase_add_test(tc, test_sys_first_and_nodata);
	tcase_add_test(tc, test_sys_no_ticks_is_idle);
	tcase_add_test(tc, test_dev_extras);
	tcase_add_test(tc, test_cause_figures_are_derive_dev);
	tcase_add_test(tc, test_cause_ok_wide_counters);
	tcase_add_test(tc, test_xwalk_is_derive_x);
	tcase_add_test(tc, test_knob_changes_unexplained);
	suite_add_tcase(s, tc);
	return s;
}
