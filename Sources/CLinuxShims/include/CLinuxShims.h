// Linux calls the Swift Glibc module does not import (it is built without _GNU_SOURCE):
// epoll, eventfd, ppoll, accept4, SO_PEERCRED's struct ucred, sched_setaffinity and pthread_setname_np.
// Imported only by LinuxSystem.
//
// The header deliberately includes no system header beyond <stdint.h>: the types crossing into Swift are
// this file's own, so nothing here depends on how the Clang importer treats packed kernel structs.
// Every function returns -1 and leaves errno on failure, like the call it wraps.
#ifndef HOTSTRINGS_CLINUXSHIMS_H
#define HOTSTRINGS_CLINUXSHIMS_H

#include <stdint.h>

/// The peer of a Unix socket (SO_PEERCRED): process, user and group ids. Returns 0 or -1 with errno.
int hotstrings_peer_credentials(int fd, int32_t *pid, uint32_t *uid, uint32_t *gid);

/// accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC): the new connection, or -1 with errno.
int hotstrings_accept(int fd);

/// sched_setaffinity(0, ...) for the calling thread: the processors set in `mask` (bit n: processor n, for
/// n < 64). Returns 0 or -1 with errno.
int hotstrings_pin_thread(uint64_t mask);

/// pthread_setname_np(pthread_self(), name): names the calling thread (at most 15 bytes, as
/// /proc/self/task/<tid>/comm shows it). Returns 0 or -1 with errno (ERANGE when the name is too long).
int hotstrings_set_thread_name(const char *name);

/// socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC), SO_REUSEADDR, bind to 127.0.0.1:port (0: a port
/// the kernel picks) and listen(backlog): the listening socket, or -1 with errno (the socket closed).
int hotstrings_listen_loopback(uint16_t port, int backlog);
/// A blocking, close-on-exec TCP connection to 127.0.0.1:port (for benchmarks and tools), or -1 with errno.
int hotstrings_connect_loopback(uint16_t port);

/// getsockname's port of an AF_INET socket (host byte order), or -1 with errno.
int hotstrings_local_port(int fd);

/// getrandom(buffer, length, 0), repeated until `length` bytes are written: 0, or -1 with errno.
int hotstrings_random_bytes(void *buffer, uint32_t length);

/// renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_EXCHANGE): the two paths swap their files atomically. 0, or -1
/// with errno (EINVAL where the file system cannot, ENOSYS on a kernel before 3.15).
int hotstrings_rename_exchange(const char *from, const char *to);

/// eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC).
int hotstrings_eventfd(void);

/// Interest and readiness flags, translated to and from EPOLLIN, EPOLLOUT, EPOLLHUP and EPOLLERR.
#define HOTSTRINGS_EVENT_READABLE 0x1u
#define HOTSTRINGS_EVENT_WRITABLE 0x2u
#define HOTSTRINGS_EVENT_HANGUP 0x4u
#define HOTSTRINGS_EVENT_ERROR 0x8u

/// The most events one wait returns (the kernel's records are staged on the stack).
#define HOTSTRINGS_EPOLL_MAXIMUM_EVENTS 4096

/// One ready descriptor from an epoll wait.
struct hotstrings_ready {
    int32_t fd;
    /// HOTSTRINGS_EVENT_* flags.
    uint32_t flags;
};

/// epoll_create1(EPOLL_CLOEXEC).
int hotstrings_epoll_create(void);

/// epoll_ctl(EPOLL_CTL_ADD) for fd, level-triggered, with HOTSTRINGS_EVENT_READABLE/WRITABLE interest.
int hotstrings_epoll_add(int epfd, int fd, uint32_t interest);

/// epoll_ctl(EPOLL_CTL_MOD) for fd with new interest.
int hotstrings_epoll_modify(int epfd, int fd, uint32_t interest);

/// epoll_ctl(EPOLL_CTL_DEL) for fd.
int hotstrings_epoll_remove(int epfd, int fd);

/// epoll_pwait2 with a nanosecond timeout (negative seconds: wait forever). Returns the count of ready
/// descriptors written to `ready` (at most `maximum`, capped at HOTSTRINGS_EPOLL_MAXIMUM_EVENTS), 0 on timeout,
/// or -1 with errno (ENOSYS where the kernel or a seccomp filter lacks the call).
int hotstrings_epoll_pwait2(int epfd, struct hotstrings_ready *ready, int maximum, int64_t seconds,
                            int64_t nanoseconds);

/// epoll_wait with a timeout in milliseconds (-1: wait forever); otherwise like hotstrings_epoll_pwait2.
int hotstrings_epoll_wait(int epfd, struct hotstrings_ready *ready, int maximum, int milliseconds);

/// ppoll(fds, count, timeout, NULL) on an array of `struct pollfd` with a nanosecond timeout (negative
/// seconds: wait forever): the count of ready descriptors, 0 on timeout, or -1 with errno.
int hotstrings_ppoll(void *fds, unsigned long count, int64_t seconds, int64_t nanoseconds);

/// Whether any process has the file open as `fd` (opened read-only) open for writing, asked with a read lease
/// (`fcntl(F_SETLEASE, F_RDLCK)`, refused with EAGAIN while a writer has it open) that is released at once:
/// 1 yes, 0 no, -1 with errno when the kernel cannot tell (not the file's owner without CAP_LEASE, a file system
/// without leases). A writer opening during the instant the lease is held waits for its release, and the lease
/// break is signalled with SIGURG (ignored by default) rather than SIGIO (which would end the process).
int hotstrings_is_open_for_writing(int fd);

// Child processes (spawn.c): fork and exec in C on one long-lived thread, for ChildProcess in LinuxSystem.

/// What to start: a program, its arguments and environment, where its standard descriptors come from, and
/// optionally another user to run it as.
struct hotstrings_spawn_request {
    /// The program's path (no PATH search).
    const char *path;
    /// argv, NULL-terminated; arguments[0] is the program's name.
    char *const *arguments;
    /// envp, NULL-terminated.
    char *const *environment;
    /// The working directory, or NULL for the parent's.
    const char *directory;
    /// The parent's descriptors that become the child's 0, 1 and 2.
    int32_t standard_descriptors[3];
    /// Nonzero: drop supplementary groups, then setgid(group_id), then setuid(user_id), in the child.
    int32_t change_user;
    uint32_t user_id;
    uint32_t group_id;
    /// Set on failure: the call that failed ("fork", "chdir", "setuid", "execve", ...).
    const char *failed_step;
};

/// Starts `request` as a child that is killed (SIGKILL) when this process ends, however it ends: forked on a
/// thread that lives as long as the process, with PR_SET_PDEATHSIG set before exec. Returns 0 with the child's
/// pid and a pidfd for it (close-on-exec), or -1 with errno and `failed_step` (a failure in the child, such as
/// execve's ENOENT, is reported here too). Nothing else in the process may reap the child: wait for it by pid.
int hotstrings_spawn(struct hotstrings_spawn_request *request, int32_t *pid, int32_t *pidfd);

/// pidfd_send_signal(pidfd, signal, NULL, 0): 0, or -1 with errno (ESRCH once the child has been reaped).
int hotstrings_pidfd_send_signal(int pidfd, int signal);

#endif
