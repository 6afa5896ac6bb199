#define _GNU_SOURCE
#include "file_system.h"
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

int detour_exchange_paths(const char *first, const char *second) {
#if defined(__linux__) && defined(SYS_renameat2)
    return (int)syscall(SYS_renameat2, AT_FDCWD, first, AT_FDCWD, second, 2 /* RENAME_EXCHANGE */);
#else
    errno = ENOSYS;
    return -1;
#endif
}

static int remove_entry(const char *path, const struct stat *info, int type, struct FTW *walk) {
    (void)info; (void)type; (void)walk;
    return remove(path);
}

int detour_remove_tree(const char *path) {
    // Depth-first so folders are empty when their turn comes; FTW_PHYS never follows links.
    return nftw(path, remove_entry, 32, FTW_DEPTH | FTW_PHYS);
}
