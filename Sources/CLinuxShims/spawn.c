#define _GNU_SOURCE
#include "CLinuxShims.h"
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

// Older C library headers lack these; the numbers are the same on every Linux architecture since 5.3.
#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1U << 2)
#endif
#ifndef SYS_pidfd_send_signal
#define SYS_pidfd_send_signal 424
#endif
#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_close_range
#define SYS_close_range 436
#endif

// Child processes are forked here, in C, so that nothing Swift runs between fork and exec: the child of a
// multithreaded process may only make async-signal-safe calls, and Swift code may allocate or take locks another
// thread held at the moment of the fork. Foundation's Process is not used: on this toolchain (6.3.1) it reads past
// a dirent in findMaximumOpenFromProcSelfFD and crashes about one run in five of a suite that starts children.
//
// Every fork happens on one thread that lives as long as the process ("hotstrings-spawn"). The child asks the
// kernel for SIGKILL when its parent dies (PR_SET_PDEATHSIG), and the kernel means the *thread* that forked it:
// a child forked by a Dispatch or Swift Testing worker would be killed when that worker ends, long before the
// test process does. A thread that never ends makes "parent" mean the process.

/// The steps a child reports when one fails (the index is what it writes to the error pipe).
static const char *const steps[] = {"dup", "dup2", "chdir", "setgroups", "setgid", "setuid", "prctl", "execve"};
enum { STEP_DUP, STEP_DUP2, STEP_CHDIR, STEP_SETGROUPS, STEP_SETGID, STEP_SETUID, STEP_PRCTL, STEP_EXECVE };

struct child_failure {
    int32_t step;
    int32_t error;
};

/// Reports a failed step to the parent and ends the child without running atexit handlers or flushing stdio.
static void fail(int error_fd, int step) {
    struct child_failure failure = {.step = step, .error = errno};
    ssize_t written;
    do {
        written = write(error_fd, &failure, sizeof(failure));
    } while (written == -1 && errno == EINTR);
    _exit(127);
}

/// Runs in the forked child: only async-signal-safe calls and raw system calls.
static void run_child(const struct hotstrings_spawn_request *request, int error_fd, pid_t parent) {
    // Dispositions and the mask are inherited through exec: a test process that blocks SIGTERM or ignores
    // SIGPIPE must not hand that to its children.
    for (int number = 1; number < NSIG; number++) {
        if (number != SIGKILL && number != SIGSTOP) signal(number, SIG_DFL);
    }
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);

    // Standard descriptors: first moved above 2, so that one given as 0, 1 or 2 is not overwritten by another.
    int moved[3];
    for (int index = 0; index < 3; index++) {
        moved[index] = fcntl(request->standard_descriptors[index], F_DUPFD_CLOEXEC, 3);
        if (moved[index] == -1) fail(error_fd, STEP_DUP);
    }
    for (int index = 0; index < 3; index++) {
        if (dup2(moved[index], index) == -1) fail(error_fd, STEP_DUP2);
    }
    // Nothing else reaches the new program, even descriptors another thread opened without O_CLOEXEC.
    // (Kernels before 5.11 refuse the flag; the descriptors this file opens are close-on-exec anyway.)
    syscall(SYS_close_range, 3U, ~0U, CLOSE_RANGE_CLOEXEC);

    if (request->directory != NULL && chdir(request->directory) == -1) fail(error_fd, STEP_CHDIR);
    if (request->change_user) {
        // Raw system calls: glibc's wrappers would try to change every thread's credentials, and the child has
        // one thread. Groups first, user last: after setuid the rights to change the others are gone.
        if (syscall(SYS_setgroups, 0, NULL) == -1) fail(error_fd, STEP_SETGROUPS);
        if (syscall(SYS_setgid, request->group_id) == -1) fail(error_fd, STEP_SETGID);
        if (syscall(SYS_setuid, request->user_id) == -1) fail(error_fd, STEP_SETUID);
    }
    // After the user change, which clears the death signal.
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) == -1) fail(error_fd, STEP_PRCTL);
    // The parent may have died before prctl: the child was then reparented and no signal will ever come.
    if (getppid() != parent) _exit(127);
    execve(request->path, request->arguments, request->environment);
    fail(error_fd, STEP_EXECVE);
}

/// Forks and execs `request` on the calling thread; the spawner thread's job.
static int spawn_now(struct hotstrings_spawn_request *request, int32_t *pid, int32_t *pidfd) {
    int error_pipe[2];
    if (pipe2(error_pipe, O_CLOEXEC) == -1) {
        request->failed_step = "pipe2";
        return -1;
    }
    pid_t parent = getpid();
    pid_t child = fork();
    if (child == -1) {
        int error = errno;
        close(error_pipe[0]);
        close(error_pipe[1]);
        request->failed_step = "fork";
        errno = error;
        return -1;
    }
    if (child == 0) {
        close(error_pipe[0]);
        run_child(request, error_pipe[1], parent);
    }
    close(error_pipe[1]);
    // End of file: execve succeeded and closed the pipe's last writer. A record: the step that failed.
    struct child_failure failure;
    ssize_t count;
    do {
        count = read(error_pipe[0], &failure, sizeof(failure));
    } while (count == -1 && errno == EINTR);
    close(error_pipe[0]);
    if (count != 0) {
        int status;
        while (waitpid(child, &status, 0) == -1 && errno == EINTR) {}
        if (count == (ssize_t)sizeof(failure) && failure.step >= 0 && failure.step <= STEP_EXECVE) {
            request->failed_step = steps[failure.step];
            errno = failure.error;
        } else {
            request->failed_step = "read";
            errno = count == -1 ? errno : EIO;
        }
        return -1;
    }
    // Nobody else reaps our children, so the pid names this child until it is waited for: no race here.
    int descriptor = (int)syscall(SYS_pidfd_open, child, 0);
    if (descriptor == -1) {
        int error = errno;
        kill(child, SIGKILL);
        int status;
        while (waitpid(child, &status, 0) == -1 && errno == EINTR) {}
        request->failed_step = "pidfd_open";
        errno = error;
        return -1;
    }
    fcntl(descriptor, F_SETFD, FD_CLOEXEC);
    *pid = child;
    *pidfd = descriptor;
    return 0;
}

/// One request at a time travels from a caller to the spawner thread and back.
struct job {
    struct hotstrings_spawn_request *request;
    int32_t *pid;
    int32_t *pidfd;
    int result;
    int error;
    int done;
};

static pthread_mutex_t callers = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t posted = PTHREAD_COND_INITIALIZER;
static pthread_cond_t finished = PTHREAD_COND_INITIALIZER;
static struct job *pending;
static pthread_once_t started = PTHREAD_ONCE_INIT;
static int start_error;

static void *spawner(void *unused) {
    (void)unused;
    pthread_setname_np(pthread_self(), "hotstrings-spawn");
    pthread_mutex_lock(&lock);
    for (;;) {
        while (pending == NULL) pthread_cond_wait(&posted, &lock);
        struct job *job = pending;
        pending = NULL;
        pthread_mutex_unlock(&lock);
        job->result = spawn_now(job->request, job->pid, job->pidfd);
        job->error = errno;
        pthread_mutex_lock(&lock);
        job->done = 1;
        pthread_cond_broadcast(&finished);
    }
    return NULL;
}

static void start_spawner(void) {
    // All signals blocked: signals sent to the process are handled by the threads that expect them, not here.
    sigset_t all, previous;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &previous);
    pthread_t thread;
    start_error = pthread_create(&thread, NULL, spawner, NULL);
    if (start_error == 0) pthread_detach(thread);
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
}

int hotstrings_spawn(struct hotstrings_spawn_request *request, int32_t *pid, int32_t *pidfd) {
    pthread_once(&started, start_spawner);
    if (start_error != 0) {
        request->failed_step = "pthread_create";
        errno = start_error;
        return -1;
    }
    struct job job = {.request = request, .pid = pid, .pidfd = pidfd};
    pthread_mutex_lock(&callers);
    pthread_mutex_lock(&lock);
    pending = &job;
    pthread_cond_signal(&posted);
    while (!job.done) pthread_cond_wait(&finished, &lock);
    pthread_mutex_unlock(&lock);
    pthread_mutex_unlock(&callers);
    errno = job.error;
    return job.result;
}

int hotstrings_pidfd_send_signal(int pidfd, int signal) {
    return (int)syscall(SYS_pidfd_send_signal, pidfd, signal, NULL, 0);
}
