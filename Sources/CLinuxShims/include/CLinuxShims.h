// Linux calls the Swift Glibc module does not import (it is built without _GNU_SOURCE):
// epoll, eventfd, ppoll, accept4 and SO_PEERCRED's struct ucred. Imported only by LinuxSystem.
#ifndef HOTSTRINGS_CLINUXSHIMS_H
#define HOTSTRINGS_CLINUXSHIMS_H

#include <stdint.h>

/// The peer of a Unix socket (SO_PEERCRED): process, user and group ids. Returns 0 or -1 with errno.
int hotstrings_peer_credentials(int fd, int32_t *pid, uint32_t *uid, uint32_t *gid);

#endif
