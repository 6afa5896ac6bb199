#ifndef DETOUR_MEMORY_TUNING_H
#define DETOUR_MEMORY_TUNING_H

#include <stddef.h>

/// Has glibc's malloc serve every block of at least `bytes` from its own mapping, returned to
/// the system when freed, instead of raising that threshold to the largest block freed so far
/// (its default), after which large pages and index files are carved from the heap and their
/// space is kept. Returns 1 where it took effect, 0 elsewhere.
int detour_map_large_blocks(size_t bytes);

#endif
