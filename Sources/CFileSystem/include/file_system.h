#ifndef DETOUR_FILE_SYSTEM_H
#define DETOUR_FILE_SYSTEM_H

/// Atomically swaps two existing paths (Linux renameat2 with RENAME_EXCHANGE).
/// Returns 0 on success, -1 with errno set on failure (EINVAL/ENOSYS where unsupported).
int detour_exchange_paths(const char *first, const char *second);

/// Removes a folder and everything below it without following symbolic links.
/// Returns 0 on success, -1 with errno set on failure.
int detour_remove_tree(const char *path);

#endif
