#ifndef DETOUR_MEMORY_TUNING_H
#define DETOUR_MEMORY_TUNING_H

#include <stddef.h>

/// Has glibc's malloc serve every block of at least `bytes` from its own mapping, returned to
/// the system when freed, instead of raising that threshold to the largest block freed so far
/// (its default), after which large pages and index files are carved from the heap and their
/// space is kept. Returns 1 where it took effect, 0 elsewhere.
int detour_map_large_blocks(size_t bytes);

/// Grows glibc's main heap by `bytes` at once and asks the kernel to back it with huge pages
/// (where transparent huge pages are enabled for `madvise`): a short run that builds a model of
/// megabytes then takes a few faults of 2 MiB rather than thousands of 4 KiB.
/// Returns 1 where it took effect, 0 elsewhere.
int detour_heap_in_huge_pages(size_t bytes);

#endif
