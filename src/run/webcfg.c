/*
 * webcfg.c - the exporter's web configuration file (webcfg.h).  A line
 * parser for the two-level subset, not a YAML library: a file wbtop does not
 * understand is refused, never half read.
 */
#include <crypt.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <microhttpd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/webcfg.h"
#include "util/grow.h"
#include "util/sysfs.h"

static int webcfg_fail(char *err, size_t errlen, const char *path, int line, int rc, const char *why)
{
	if (line)
		snprintf(err, errlen, "%s:%d: %s", path, line, why);
	else
		snprintf(err, errlen, "%s: %s", path, why);
	return rc;
}

/* The whole of a PEM file, or NULL with errno. */
static char *webcfg_slurp(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	char *buf = NULL;
	size_t cap = 0;
	long n = sysfs_read_fd(fd, &buf, &cap);	/* closes fd */
	if (n <= 0 || n > (1L << 20)) {	/* a certificate chain is a few KiB */
		free(buf);
		errno = n < 0 ? (int)-n : n == 0 ? ENODATA : EFBIG;
		return NULL;
	}
	return buf;
}

/* s without surrounding blanks and one pair of quotes, in place. */
static char *webcfg_value(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	size_t n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	if (n >= 2 && (s[0] == '"' || s[0] == '\'') && s[n - 1] == s[0]) {
		s[n - 1] = '\0';
		s++;
	}
	return s;
}

static int webcfg_pem(const char *path, int line, const char *file, char **out, char *err, size_t errlen)
{
	char why[300];
	if (!(*out = webcfg_slurp(file))) {
		snprintf(why, sizeof why, "%s: %s", file, strerror(errno));
		return webcfg_fail(err, errlen, path, line, -EINVAL, why);
	}
	return 0;
}

static int webcfg_user(struct webcfg *w, size_t *cap, const char *name, const char *hash)
{
	if (grow_array((void **)&w->user, cap, w->nuser + 1, sizeof *w->user, 4) < 0)
		return -ENOMEM;
	struct webcfg_user *u = &w->user[w->nuser++];
	memset(u, 0, sizeof *u);
	snprintf(u->name, sizeof u->name, "%s", name);
	snprintf(u->hash, sizeof u->hash, "%s", hash);
	return 0;
}

int webcfg_load(const char *path, struct webcfg *w, char *err, size_t errlen)
{
	memset(w, 0, sizeof *w);
	FILE *f = fopen(path, "re");
	if (!f)
		return webcfg_fail(err, errlen, path, 0, -errno, strerror(errno));
	enum { NONE, TLS, USERS } section = NONE;
	char line[1024], cert[512] = "", key[512] = "";
	size_t cap = 0;
	int n = 0, rc = 0;
	while (rc == 0 && fgets(line, sizeof line, f)) {
		n++;
		char *hash = strchr(line, '#');
		if (hash && (hash == line || isspace((unsigned char)hash[-1])))
			*hash = '\0';	/* a comment (a bcrypt hash has no " #") */
		char *p = line;
		while (*p == ' ')
			p++;
		if (!*webcfg_value(p))
			continue;
		bool indented = p != line;
		char *colon = strchr(p, ':');
		if (!colon) {
			rc = webcfg_fail(err, errlen, path, n, -EINVAL, "not 'key: value'");
			break;
		}
		*colon = '\0';
		char *k = webcfg_value(p), *v = webcfg_value(colon + 1);
		if (!indented) {
			section = strcmp(k, "tls_server_config") == 0 ? TLS :
				  strcmp(k, "basic_auth_users") == 0 ? USERS : NONE;
			if (section == NONE || *v)
				rc = webcfg_fail(err, errlen, path, n, -EINVAL,
						 "wbtop takes tls_server_config (cert_file, key_file) and "
						 "basic_auth_users (NAME: bcrypt hash), nothing else");
		} else if (section == TLS && (strcmp(k, "cert_file") == 0 || strcmp(k, "key_file") == 0)) {
			snprintf(k[0] == 'c' ? cert : key, sizeof cert, "%s", v);
		} else if (section == USERS && *k && strncmp(v, "$2", 2) == 0) {
			if (webcfg_user(w, &cap, k, v) < 0)
				rc = webcfg_fail(err, errlen, path, n, -ENOMEM, "out of memory");
		} else {
			rc = webcfg_fail(err, errlen, path, n, -EINVAL,
					 section == USERS ? "a user's password must be a bcrypt hash ($2y$...)" :
					 "not a setting wbtop knows here (cert_file, key_file)");
		}
	}
	fclose(f);
	if (rc == 0 && (cert[0] || key[0])) {
		if (!cert[0] || !key[0])
			rc = webcfg_fail(err, errlen, path, 0, -EINVAL, "tls_server_config needs cert_file and key_file");
		else if ((rc = webcfg_pem(path, 0, cert, &w->cert_pem, err, errlen)) == 0 &&
			 (rc = webcfg_pem(path, 0, key, &w->key_pem, err, errlen)) == 0)
			w->tls = true;
	}
	if (rc < 0)
		webcfg_free(w);
	return rc;
}

void webcfg_free(struct webcfg *w)
{
	free(w->cert_pem);
	free(w->key_pem);
	free(w->user);
	memset(w, 0, sizeof *w);
}

/* Equal strings, in a time that does not depend on where they differ. */
static bool webcfg_same(const char *a, const char *b)
{
	size_t na = strlen(a), nb = strlen(b);
	unsigned char d = na != nb;
	for (size_t i = 0; i < na && i < nb; i++)
		d |= (unsigned char)(a[i] ^ b[i]);
	return d == 0;
}

bool webcfg_allowed(struct webcfg *w, struct MHD_Connection *c)
{
	if (!w->nuser)
		return true;
	char *pass = NULL, *name = MHD_basic_auth_get_username_password(c, &pass);
	bool ok = false;
	for (size_t i = 0; name && pass && i < w->nuser && !ok; i++) {
		struct webcfg_user *u = &w->user[i];
		if (strcmp(u->name, name) != 0)
			continue;
		if (u->ok[0] && webcfg_same(u->ok, pass)) {
			ok = true;	/* bcrypt costs tens of ms: not at every scrape */
			break;
		}
		struct crypt_data cd;
		memset(&cd, 0, sizeof cd);
		const char *h = crypt_r(pass, u->hash, &cd);
		ok = h && h[0] != '*' && webcfg_same(h, u->hash);
		if (ok && strlen(pass) < sizeof u->ok)
			snprintf(u->ok, sizeof u->ok, "%s", pass);
	}
	MHD_free(name);
	MHD_free(pass);
	return ok;
}

int webcfg_deny(const struct webcfg *w, struct MHD_Connection *c)
{
	(void)w;
	static const char body[] = "unauthorized\n";
	struct MHD_Response *r = MHD_create_response_from_buffer(sizeof body - 1, (void *)(uintptr_t)body,
								MHD_RESPMEM_PERSISTENT);
	if (!r)
		return MHD_NO;
	int rc = MHD_queue_basic_auth_fail_response(c, "wbtop", r);
	MHD_destroy_response(r);
	return rc;
}
