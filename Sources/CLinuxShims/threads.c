#define _GNU_SOURCE
#include "CLinuxShims.h"
#include <errno.h>
#include <pthread.h>

int hotstrings_set_thread_name(const char *name) {
    // pthread_setname_np returns an error number instead of setting errno; turn it into the -1/errno convention.
    int result = pthread_setname_np(pthread_self(), name);
    if (result != 0) {
        errno = result;
        return -1;
    }
    return 0;
}
