#define _GNU_SOURCE
#include "file_system.h"
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

/// The listing being made by detour_list_files: nftw's callback has no argument of its own.
static _Thread_local struct {
    char *text;
    size_t length, capacity, rootLength;
} listing;

static int list_entry(const char *path, const struct stat *info, int type, struct FTW *walk) {
    (void)walk;
    if (type == FTW_D || type == FTW_DP || type == FTW_DNR) return 0;
    const char *relative = path + listing.rootLength;
    while (*relative == '/') relative++;
    long long size = (type == FTW_F) ? (long long)info->st_size : -1;
    long long mtime = (type == FTW_F) ? (long long)info->st_mtim.tv_sec * 1000000000LL + info->st_mtim.tv_nsec : 0;
    size_t needed = listing.length + strlen(relative) + 64;
    if (needed > listing.capacity) {
        size_t capacity = listing.capacity * 2 > needed ? listing.capacity * 2 : needed;
        char *grown = realloc(listing.text, capacity);
        if (grown == NULL) return -1;
        listing.text = grown;
        listing.capacity = capacity;
    }
    listing.length += (size_t)snprintf(listing.text + listing.length, listing.capacity - listing.length, "%lld %lld %s\n", size, mtime, relative);
    return 0;
}

char *detour_list_files(const char *root, unsigned long *length) {
    listing.text = NULL;
    listing.length = listing.capacity = 0;
    listing.rootLength = strlen(root);
    // No FTW_PHYS: a linked file or folder is listed as what it points to, as the build reads it.
    if (nftw(root, list_entry, 32, 0) != 0) {
        free(listing.text);
        listing.text = NULL;
        return NULL;
    }
    *length = listing.length;
    if (listing.text == NULL) listing.text = calloc(1, 1);
    return listing.text;
}
