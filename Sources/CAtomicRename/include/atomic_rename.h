#ifndef DETOUR_ATOMIC_RENAME_H
#define DETOUR_ATOMIC_RENAME_H

/// Atomically swaps two existing paths (Linux renameat2 with RENAME_EXCHANGE).
/// Returns 0 on success, -1 with errno set on failure (EINVAL/ENOSYS where unsupported).
int detour_exchange_paths(const char *first, const char *second);

#endif
