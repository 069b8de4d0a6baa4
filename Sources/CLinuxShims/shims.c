#define _GNU_SOURCE
#include "CLinuxShims.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <poll.h>
#include <sched.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <netinet/in.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

int hotstrings_peer_credentials(int fd, int32_t *pid, uint32_t *uid, uint32_t *gid) {
    struct ucred credentials;
    socklen_t length = sizeof(credentials);
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) != 0) return -1;
    *pid = credentials.pid;
    *uid = credentials.uid;
    *gid = credentials.gid;
    return 0;
}

int hotstrings_accept(int fd) {
    return accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
}

int hotstrings_listen_loopback(uint16_t port, int backlog) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    int one = 1;
    struct sockaddr_in address = {0};
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) != 0
        || bind(fd, (struct sockaddr *)&address, sizeof(address)) != 0 || listen(fd, backlog) != 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

int hotstrings_connect_loopback(uint16_t port) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    struct sockaddr_in address = {0};
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *)&address, sizeof(address)) != 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

int hotstrings_local_port(int fd) {
    struct sockaddr_in address;
    socklen_t length = sizeof(address);
    if (getsockname(fd, (struct sockaddr *)&address, &length) != 0) return -1;
    return ntohs(address.sin_port);
}

int hotstrings_rename_exchange(const char *from, const char *to) {
    return (int)syscall(SYS_renameat2, AT_FDCWD, from, AT_FDCWD, to, 2 /* RENAME_EXCHANGE */);
}

int hotstrings_random_bytes(void *buffer, uint32_t length) {
    uint32_t done = 0;
    while (done < length) {
        ssize_t count = getrandom((char *)buffer + done, length - done, 0);
        if (count < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        done += (uint32_t)count;
    }
    return 0;
}

int hotstrings_eventfd(void) {
    return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
}

int hotstrings_epoll_create(void) {
    return epoll_create1(EPOLL_CLOEXEC);
}

static int control(int epfd, int operation, int fd, uint32_t interest) {
    struct epoll_event event = {0};
    if (interest & HOTSTRINGS_EVENT_READABLE) event.events |= EPOLLIN;
    if (interest & HOTSTRINGS_EVENT_WRITABLE) event.events |= EPOLLOUT;
    event.data.fd = fd;
    return epoll_ctl(epfd, operation, fd, &event);
}

int hotstrings_epoll_add(int epfd, int fd, uint32_t interest) {
    return control(epfd, EPOLL_CTL_ADD, fd, interest);
}

int hotstrings_epoll_modify(int epfd, int fd, uint32_t interest) {
    return control(epfd, EPOLL_CTL_MOD, fd, interest);
}

int hotstrings_epoll_remove(int epfd, int fd) {
    // Kernels before 2.6.9 required a non-null event even for EPOLL_CTL_DEL.
    struct epoll_event unused = {0};
    return epoll_ctl(epfd, EPOLL_CTL_DEL, fd, &unused);
}

static int clamp(int maximum) {
    if (maximum < 1) return 1;
    return maximum > HOTSTRINGS_EPOLL_MAXIMUM_EVENTS ? HOTSTRINGS_EPOLL_MAXIMUM_EVENTS : maximum;
}

static int translate(const struct epoll_event *events, int count, struct hotstrings_ready *ready) {
    for (int index = 0; index < count; index++) {
        uint32_t flags = 0;
        if (events[index].events & EPOLLIN) flags |= HOTSTRINGS_EVENT_READABLE;
        if (events[index].events & EPOLLOUT) flags |= HOTSTRINGS_EVENT_WRITABLE;
        if (events[index].events & EPOLLHUP) flags |= HOTSTRINGS_EVENT_HANGUP;
        if (events[index].events & EPOLLERR) flags |= HOTSTRINGS_EVENT_ERROR;
        ready[index].fd = events[index].data.fd;
        ready[index].flags = flags;
    }
    return count;
}

int hotstrings_epoll_pwait2(int epfd, struct hotstrings_ready *ready, int maximum, int64_t seconds,
                            int64_t nanoseconds) {
#ifdef SYS_epoll_pwait2
    maximum = clamp(maximum);
    struct epoll_event events[maximum];
    struct timespec timeout = {.tv_sec = (time_t)seconds, .tv_nsec = (long)nanoseconds};
    // The raw system call, so that a C library older than glibc 2.35 (no wrapper) still reaches it.
    long count = syscall(SYS_epoll_pwait2, epfd, events, maximum, seconds < 0 ? NULL : &timeout, NULL, 0);
    if (count < 0) return -1;
    return translate(events, (int)count, ready);
#else
    (void)epfd; (void)ready; (void)maximum; (void)seconds; (void)nanoseconds;
    errno = ENOSYS;
    return -1;
#endif
}

int hotstrings_epoll_wait(int epfd, struct hotstrings_ready *ready, int maximum, int milliseconds) {
    maximum = clamp(maximum);
    struct epoll_event events[maximum];
    int count = epoll_wait(epfd, events, maximum, milliseconds);
    if (count < 0) return -1;
    return translate(events, count, ready);
}

int hotstrings_ppoll(void *fds, unsigned long count, int64_t seconds, int64_t nanoseconds) {
    struct timespec timeout = {.tv_sec = (time_t)seconds, .tv_nsec = (long)nanoseconds};
    return ppoll((struct pollfd *)fds, (nfds_t)count, seconds < 0 ? NULL : &timeout, NULL);
}

int hotstrings_pin_thread(uint64_t mask) {
    cpu_set_t set;
    CPU_ZERO(&set);
    for (int processor = 0; processor < 64; processor++) {
        if (mask & ((uint64_t)1 << processor)) CPU_SET(processor, &set);
    }
    return sched_setaffinity(0, sizeof(set), &set);
}

int hotstrings_is_open_for_writing(int fd) {
    if (fcntl(fd, F_SETSIG, SIGURG) == -1) return -1;
    if (fcntl(fd, F_SETLEASE, F_RDLCK) == 0) {
        fcntl(fd, F_SETLEASE, F_UNLCK);
        return 0;
    }
    if (errno == EAGAIN) return 1;
    return -1;
}
