/*
 * listen_addr.h - the exporter's --listen [ADDR:]PORT: an IPv4 or IPv6
 * address (in brackets with a port: [::1]:9850), 127.0.0.1 when none is
 * given.  Names are not looked up: an exporter binds what it is told.
 */
#ifndef WBTOP_LISTEN_ADDR_H
#define WBTOP_LISTEN_ADDR_H

#include <stddef.h>
#include <sys/socket.h>

/* Parse text into sa.  0, or -EINVAL with why. */
int listen_addr_parse(const char *text, struct sockaddr_storage *sa, char *why, size_t whylen);

#endif
