/*
 * webcfg.h - the exporter's web configuration file (--web-config FILE): TLS
 * and basic auth for a listener beyond loopback, in the subset of the
 * Prometheus exporter-toolkit's file that wbtop takes:
 *
 *     tls_server_config:
 *       cert_file: /etc/wbtop/cert.pem
 *       key_file: /etc/wbtop/key.pem
 *     basic_auth_users:
 *       prometheus: $2y$10$...      (a bcrypt hash, as htpasswd -B makes)
 *
 * Anything else is refused with the file and line named.  TLS itself and the
 * basic auth exchange are libmicrohttpd's (with GnuTLS); the hashes are
 * checked with crypt(3).
 */
#ifndef WBTOP_WEBCFG_H
#define WBTOP_WEBCFG_H

#include <stdbool.h>
#include <stddef.h>

struct MHD_Connection;

struct webcfg_user {
	char name[64];
	char hash[128];
	char ok[128];		/* the password last found to match, "" none */
};

struct webcfg {
	bool tls;
	char *cert_pem, *key_pem;	/* the files' contents */
	struct webcfg_user *user;
	size_t nuser;
};

/* Read path into w (zeroed first).  0, or -errno with "PATH:LINE: why" in err. */
int webcfg_load(const char *path, struct webcfg *w, char *err, size_t errlen);
void webcfg_free(struct webcfg *w);

/* Whether the request may be answered: no users configured, or its basic auth
 * names one with the right password.  Called from the server's one thread. */
bool webcfg_allowed(struct webcfg *w, struct MHD_Connection *c);
/* Queue the 401 that asks for credentials; MHD_YES or MHD_NO. */
int webcfg_deny(const struct webcfg *w, struct MHD_Connection *c);

#endif
