#include "memory_tuning.h"
#include <stdlib.h> /* defines __GLIBC__ on glibc */

#if defined(__GLIBC__)
#include <malloc.h>
#endif

int detour_map_large_blocks(size_t bytes) {
#if defined(__GLIBC__)
    return mallopt(M_MMAP_THRESHOLD, (int)bytes);
#else
    (void)bytes;
    return 0;
#endif
}
