#ifndef DETOUR_FILE_SYSTEM_H
#define DETOUR_FILE_SYSTEM_H

/// Atomically swaps two existing paths (Linux renameat2 with RENAME_EXCHANGE).
/// Returns 0 on success, -1 with errno set on failure (EINVAL/ENOSYS where unsupported).
int detour_exchange_paths(const char *first, const char *second);

/// Removes a folder and everything below it without following symbolic links.
/// Returns 0 on success, -1 with errno set on failure.
int detour_remove_tree(const char *path);

/// Lists every file below `root` as the build reads it (symbolic links followed), one line
/// each: "<size> <modification time in ns> <path below root>\n", folders left out; a file
/// that cannot be examined is listed with size -1. Returns a malloc'd text the caller frees,
/// its length in `length`, or NULL with errno set when `root` cannot be walked.
char *detour_list_files(const char *root, unsigned long *length);

#endif
