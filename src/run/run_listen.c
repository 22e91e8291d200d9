/*
 * run_listen.c - wbtop --listen: the exporter.  Headless and long-running,
 * it samples on its own clock with the kernel's writeback trace kept open
 * (so the throttling figures count from the start), and serves the newest
 * sample over HTTP: GET or HEAD /metrics in the Prometheus text format
 * (0.0.4), or in OpenMetrics when the scraper's Accept header asks for it,
 * and a short page at /.  The server is libmicrohttpd's, in its own thread:
 * a scrape takes the page of the moment (exporter.h) and never waits for
 * the loop, and a slow or hostile client never holds the loop up.
 *
 * libmicrohttpd's timeout is an idle one: a client sending a header byte a
 * second is never idle, and 256 of them would hold every connection.  So
 * each connection also has a deadline (RUN_LISTEN_REQUEST_S to send a whole
 * request, RUN_LISTEN_SEND_S to take its answer), kept by a thread of ours
 * that shuts an overdue connection's socket; the server then closes it.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>
#include <inttypes.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "core/pipeline.h"
#include "core/source.h"
#include "run/feed.h"
#include "run/listen_addr.h"
#include "run/run.h"
#include "run/webcfg.h"
#include "sink/batch.h"
#include "sink/exporter.h"
#include "sink/sink.h"
#include "util/ticker.h"

/* Connections at once: the load test's 50 scrapers and room beside them. */
#define RUN_LISTEN_CONNECTIONS 256
/* Seconds a connection may stay idle (a slow client is cut off). */
#define RUN_LISTEN_TIMEOUT_S 10
/* Bytes of a request's headers: a scrape's are a few hundred. */
#define RUN_LISTEN_MEMORY (32 * 1024)
/* Seconds from a connection's start (or its last answer's end) to a whole request, and
 * from a request to the end of its answer (a page of 2000 devices is a few MB). */
#define RUN_LISTEN_REQUEST_S 10
#define RUN_LISTEN_SEND_S 60

/* A connection the deadline thread watches; the server's socket context. */
struct run_listen_conn {
	int fd;
	uint64_t since_ns;	/* its start, or when the last request was done or began */
	bool answering;		/* a request is being answered: RUN_LISTEN_SEND_S from since */
	bool cut;		/* shut down already */
	struct run_listen_conn *prev, *next;
};

struct run_listen {
	const struct opts *o;
	struct source *src;
	struct pipeline *pipe;
	struct batch *sel;		/* --devices */
	struct exporter *x;
	struct feed *feed;
	struct MHD_Daemon *d;
	struct webcfg web;
	pthread_mutex_t lock;		/* over conns */
	struct run_listen_conn *conns;
	pthread_t reaper;
	bool reaper_on;
	atomic_bool stop;		/* the reaper ends */
};

/* The server's thread: a connection starts, or closes (before its socket is closed). */
static void run_listen_notify(void *cls, struct MHD_Connection *c, void **ctx,
			      enum MHD_ConnectionNotificationCode toe)
{
	struct run_listen *l = cls;
	pthread_mutex_lock(&l->lock);
	if (toe == MHD_CONNECTION_NOTIFY_STARTED) {
		const union MHD_ConnectionInfo *ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
		struct run_listen_conn *k = ci ? calloc(1, sizeof *k) : NULL;
		if (k) {	/* without memory it is not watched: the idle timeout still holds */
			k->fd = ci->connect_fd;
			k->since_ns = ticker_now_ns();
			k->next = l->conns;
			if (l->conns)
				l->conns->prev = k;
			l->conns = k;
		}
		*ctx = k;
	} else if (*ctx) {
		struct run_listen_conn *k = *ctx;
		if (k->prev)
			k->prev->next = k->next;
		else
			l->conns = k->next;
		if (k->next)
			k->next->prev = k->prev;
		free(k);
		*ctx = NULL;
	}
	pthread_mutex_unlock(&l->lock);
}

/* A request of connection c began to be answered (answering) or is done. */
static void run_listen_mark(struct run_listen *l, struct MHD_Connection *c, bool answering)
{
	const union MHD_ConnectionInfo *ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
	pthread_mutex_lock(&l->lock);
	struct run_listen_conn *k = ci ? ci->socket_context : NULL;
	if (k) {
		k->answering = answering;
		k->since_ns = ticker_now_ns();
	}
	pthread_mutex_unlock(&l->lock);
}

static void run_listen_completed(void *cls, struct MHD_Connection *c, void **con_cls,
				 enum MHD_RequestTerminationCode toe)
{
	(void)con_cls;
	(void)toe;
	run_listen_mark(cls, c, false);	/* the next request's clock starts now */
}

/* The deadline thread: every quarter second, shut the sockets of overdue connections. */
static void *run_listen_reaper(void *arg)
{
	struct run_listen *l = arg;
	const struct timespec quarter = { 0, 250000000 };
	while (!l->stop) {
		nanosleep(&quarter, NULL);
		/* now is read under the lock, after every stamp set under it: read before, a
		 * connection started in between was centuries old, and was cut unanswered (one
		 * scrape in about 10000 in make bench) */
		pthread_mutex_lock(&l->lock);
		uint64_t now = ticker_now_ns();
		for (struct run_listen_conn *k = l->conns; k; k = k->next) {
			uint64_t limit = (uint64_t)(k->answering ? RUN_LISTEN_SEND_S : RUN_LISTEN_REQUEST_S) * 1000000000ull;
			if (!k->cut && ticker_elapsed_ns(now, k->since_ns) > limit) {
				shutdown(k->fd, SHUT_RDWR);
				k->cut = true;
			}
		}
		pthread_mutex_unlock(&l->lock);
	}
	return NULL;
}

/* ---- HTTP ------------------------------------------------------------------ */

static void run_listen_page_free(void *cls)
{
	exporter_page_put(cls);
}

static enum MHD_Result run_listen_queue(struct MHD_Connection *c, unsigned status, struct MHD_Response *r,
					const char *type)
{
	if (!r)
		return MHD_NO;	/* out of memory: the connection is closed */
	if (type)
		MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	enum MHD_Result rc = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return rc;
}

static enum MHD_Result run_listen_text(struct MHD_Connection *c, unsigned status, const char *text,
				       const char *allow)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(strlen(text), (void *)(uintptr_t)text,
								MHD_RESPMEM_PERSISTENT);
	if (r && allow)
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, allow);
	return run_listen_queue(c, status, r, "text/plain; charset=utf-8");
}

/* Whether the Accept header asks for OpenMetrics (as Prometheus does first). */
static bool run_listen_wants_om(struct MHD_Connection *c)
{
	const char *accept = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT);
	return accept && strstr(accept, "application/openmetrics-text") != NULL;
}

static enum MHD_Result run_listen_metrics(struct run_listen *l, struct MHD_Connection *c)
{
	enum om_dialect d = run_listen_wants_om(c) ? OM_DIALECT_OPENMETRICS : OM_DIALECT_PROMETHEUS;
	const struct exporter_page *p = exporter_page_get(l->x, d);
	if (!p)
		return run_listen_text(c, MHD_HTTP_SERVICE_UNAVAILABLE, "no sample yet: try again in a moment\n",
				       NULL);
	struct MHD_Response *r = MHD_create_response_from_buffer_with_free_callback_cls(
		p->len, (void *)(uintptr_t)p->data, run_listen_page_free, (void *)(uintptr_t)p);
	if (!r) {
		exporter_page_put(p);
		return MHD_NO;
	}
	return run_listen_queue(c, MHD_HTTP_OK, r,
				d == OM_DIALECT_OPENMETRICS ?
				"application/openmetrics-text; version=1.0.0; charset=utf-8" :
				"text/plain; version=0.0.4; charset=utf-8");
}

static const char run_listen_landing[] =
	"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>wbtop exporter</title></head>\n"
	"<body><h1>wbtop exporter</h1>\n"
	"<p>Linux writeback figures and the kernel's throttling counters since wbtop started: "
	"<a href=\"/metrics\">/metrics</a>.</p>\n"
	"<p>See wbtop(1) and doc/exporter.md.</p>\n</body></html>\n";

static enum MHD_Result run_listen_answer(void *cls, struct MHD_Connection *c, const char *url,
					 const char *method, const char *version, const char *upload_data,
					 size_t *upload_size, void **con_cls)
{
	struct run_listen *l = cls;
	(void)version;
	(void)upload_data;
	(void)upload_size;
	(void)con_cls;
	/* Answered on the first call, with the connection closed after it: answering on the
	 * second would keep it alive for the next scrape, but under 50 scrapers that lost one
	 * request in about 100000 (closed without an answer) and this never did. */
	run_listen_mark(l, c, true);
	bool get = strcmp(method, MHD_HTTP_METHOD_GET) == 0 || strcmp(method, MHD_HTTP_METHOD_HEAD) == 0;
	bool metrics = strcmp(url, "/metrics") == 0, landing = strcmp(url, "/") == 0;
	if (!metrics && !landing)
		return run_listen_text(c, MHD_HTTP_NOT_FOUND, "not found: the metrics are at /metrics\n", NULL);
	if (!get)
		return run_listen_text(c, MHD_HTTP_METHOD_NOT_ALLOWED, "method not allowed: GET or HEAD\n",
				       "GET, HEAD");
	if (!webcfg_allowed(&l->web, c))
		return webcfg_deny(&l->web, c);
	if (metrics)
		return run_listen_metrics(l, c);
	struct MHD_Response *r = MHD_create_response_from_buffer(sizeof run_listen_landing - 1,
								(void *)(uintptr_t)run_listen_landing,
								MHD_RESPMEM_PERSISTENT);
	return run_listen_queue(c, MHD_HTTP_OK, r, "text/html; charset=utf-8");
}

static void run_listen_log(void *cls, const char *fmt, va_list ap)
{
	(void)cls;
	(void)fmt;
	(void)ap;	/* a client's errors are the client's: nothing on stderr per request */
}

static int run_listen_start(struct run_listen *l, const struct sockaddr_storage *sa)
{
	unsigned flags = MHD_USE_AUTO_INTERNAL_THREAD | MHD_USE_ERROR_LOG;
	if (sa->ss_family == AF_INET6)
		flags |= MHD_USE_IPv6;
	if (l->web.tls)
		flags |= MHD_USE_TLS;
	uint16_t port = sa->ss_family == AF_INET6 ? ntohs(((const struct sockaddr_in6 *)sa)->sin6_port)
						  : ntohs(((const struct sockaddr_in *)sa)->sin_port);
	l->d = MHD_start_daemon(flags, port, NULL, NULL, run_listen_answer, l,
				MHD_OPTION_SOCK_ADDR, sa,
				MHD_OPTION_CONNECTION_LIMIT, (unsigned)RUN_LISTEN_CONNECTIONS,
				MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)RUN_LISTEN_TIMEOUT_S,
				MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)RUN_LISTEN_MEMORY,
				MHD_OPTION_EXTERNAL_LOGGER, run_listen_log, NULL,
				MHD_OPTION_NOTIFY_CONNECTION, run_listen_notify, l,
				MHD_OPTION_NOTIFY_COMPLETED, run_listen_completed, l,
				MHD_OPTION_STRICT_FOR_CLIENT, 1,
				MHD_OPTION_HTTPS_MEM_KEY, l->web.tls ? l->web.key_pem : NULL,
				MHD_OPTION_HTTPS_MEM_CERT, l->web.tls ? l->web.cert_pem : NULL,
				MHD_OPTION_END);
	if (!l->d) {
		int e = errno;
		fprintf(stderr, "wbtop: --listen %s: cannot listen: %s\n", l->o->listen,
			e ? strerror(e) : "the HTTP server did not start");
		return 1;
	}
	int e = pthread_create(&l->reaper, NULL, run_listen_reaper, l);
	if (e) {
		fprintf(stderr, "wbtop: --listen: cannot start a thread: %s\n", strerror(e));
		return 1;
	}
	l->reaper_on = true;
	return 0;
}

/* ---- the loop ---------------------------------------------------------------- */

static bool run_listen_keep(const struct dev_counters *d, const void *arg)
{
	return batch_dev_selected(arg, d);
}

static int run_listen_open(struct run_listen *l, const struct opts *o)
{
	char err[256] = "", note[256] = "";
	struct sockaddr_storage sa;
	if (listen_addr_parse(o->listen, &sa, err, sizeof err) < 0) {
		fprintf(stderr, "wbtop: --listen '%s': %s\n", o->listen, err);
		return 2;
	}
	if (o->web_config && webcfg_load(o->web_config, &l->web, err, sizeof err) < 0) {
		fprintf(stderr, "wbtop: %s\n", err);
		return 2;
	}
	/* the listener before the source: a port in use ends wbtop before a tracefs instance is made */
	if (o->devices_regex && !(l->sel = batch_new(stdout, true, o->devices_regex, err, sizeof err))) {
		fprintf(stderr, "wbtop: %s\n", err);
		return 2;
	}
	struct exporter_options xo = { .top_n = (size_t)o->listen_top,
				       .om = { .keep_dev = l->sel ? run_listen_keep : NULL, .keep_arg = l->sel } };
	if (!(l->x = exporter_new(&xo))) {
		fprintf(stderr, "wbtop: out of memory\n");
		return 1;
	}
	int status = run_listen_start(l, &sa);
	if (status)
		return status;
	if (!(l->src = source_live_open(err, sizeof err))) {
		fprintf(stderr, "wbtop: %s\n", err);
		return 1;
	}
	if (o->no_kernel_trace)
		snprintf(note, sizeof note, "--no-kernel-trace");
	else
		(void)source_kernel_loop(l->src, true, note, sizeof note);
	if (note[0])
		fprintf(stderr, "wbtop: kernel writeback loop: %s\n", note);
	exporter_set_trace_note(l->x, note);
	struct sink *s = NULL;
	if (!(l->pipe = pipeline_new(l->src, &o->dip, pipeline_marks_rule(o->dip_given))) ||
	    !(l->feed = feed_new(l->pipe, NULL)) || !(s = exporter_sink_new(l->x)) ||
	    feed_add(l->feed, s, FEED_OUTPUT) < 0) {
		fprintf(stderr, "wbtop: out of memory\n");
		return 1;
	}
	return 0;
}

static void run_listen_close(struct run_listen *l)
{
	if (l->d)
		MHD_stop_daemon(l->d);	/* first: no scrape is served after this */
	if (l->reaper_on) {
		l->stop = true;
		pthread_join(l->reaper, NULL);
	}
	pthread_mutex_destroy(&l->lock);
	feed_free(l->feed);
	exporter_free(l->x);
	batch_free(l->sel);
	pipeline_free(l->pipe);
	source_close(l->src);
	webcfg_free(&l->web);
}

int run_listen(const struct opts *o)
{
	struct run_listen l;
	memset(&l, 0, sizeof l);
	l.o = o;
	pthread_mutex_init(&l.lock, NULL);
	ticker_install_signals();
	int status = run_listen_open(&l, o);
	if (status) {
		run_listen_close(&l);
		return status;
	}
	fprintf(stderr, "wbtop: serving http%s://%s/metrics every %gs\n", l.web.tls ? "s" : "", o->listen,
		o->delay_s);
	uint64_t step_ns = (uint64_t)(o->delay_s * 1e9), start_ns = ticker_now_ns();
	long taken = 0;
	while (!ticker_stop_signal() && (o->count == 0 || taken < o->count + 1)) {
		const struct frame *f;
		int rc = feed_step(l.feed, &f);
		struct feed_failure e;
		while (feed_failed(l.feed, &e))
			fprintf(stderr, "wbtop: %s\n", e.msg);	/* out of memory for a page: the last one stays */
		if (rc < 0) {
			fprintf(stderr, "wbtop: %s\n", l.src->errmsg[0] ? l.src->errmsg : strerror(-rc));
			status = 1;
			break;
		}
		taken++;
		if (!ticker_sleep_until(ticker_next_deadline(start_ns, step_ns, ticker_now_ns())))
			break;
	}
	run_listen_close(&l);
	return status;
}
