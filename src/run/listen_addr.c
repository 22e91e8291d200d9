/*
 * listen_addr.c - --listen's [ADDR:]PORT (listen_addr.h).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "run/listen_addr.h"

int listen_addr_parse(const char *text, struct sockaddr_storage *sa, char *why, size_t whylen)
{
	char host[64] = "127.0.0.1";
	const char *port = text, *colon = strrchr(text, ':');
	if (colon) {
		size_t n = (size_t)(colon - text);
		if (text[0] == '[' && n >= 2 && text[n - 1] == ']') {	/* [::1]:9850 */
			text++;
			n -= 2;
		}
		if (n == 0 || n >= sizeof host) {
			snprintf(why, whylen, "not an address: give [ADDR:]PORT, e.g. 127.0.0.1:9850 or [::1]:9850");
			return -EINVAL;
		}
		memcpy(host, text, n);
		host[n] = '\0';
		port = colon + 1;
	}
	char *end;
	errno = 0;
	long p = strtol(port, &end, 10);
	if (end == port || *end || errno || p < 1 || p > 65535) {
		snprintf(why, whylen, "not a port: a number from 1 to 65535");
		return -EINVAL;
	}
	memset(sa, 0, sizeof *sa);
	struct sockaddr_in *v4 = (struct sockaddr_in *)sa;
	struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)sa;
	if (inet_pton(AF_INET, host, &v4->sin_addr) == 1) {
		v4->sin_family = AF_INET;
		v4->sin_port = htons((uint16_t)p);
	} else if (inet_pton(AF_INET6, host, &v6->sin6_addr) == 1) {
		v6->sin6_family = AF_INET6;
		v6->sin6_port = htons((uint16_t)p);
	} else {
		snprintf(why, whylen, "'%s' is not an IPv4 or IPv6 address (names are not looked up)", host);
		return -EINVAL;
	}
	return 0;
}
