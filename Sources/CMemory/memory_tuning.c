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

#if defined(__GLIBC__)
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>
#endif

int detour_heap_in_huge_pages(size_t bytes) {
#if defined(__GLIBC__) && defined(MADV_HUGEPAGE)
    const uintptr_t huge = 2u << 20;
    /* The main heap grown once by `bytes` and kept: later blocks, large ones too, come from the
       advised range, and the first free at its top does not give it back. */
    if (mallopt(M_MMAP_THRESHOLD, (int)bytes) == 0 || mallopt(M_TRIM_THRESHOLD, (int)(2 * bytes)) == 0 ||
        mallopt(M_TOP_PAD, (int)bytes) == 0) {
        return 0;
    }
    /* Larger than what is left at the top of the small heap a process starts with, so that
       the heap grows now. */
    void *block = malloc(huge);
    if (block == NULL) return 0;
    uintptr_t start = ((uintptr_t)block + huge - 1) & ~(huge - 1);
    uintptr_t end = (uintptr_t)sbrk(0) & ~(huge - 1);
    int advised = end > start && madvise((void *)start, end - start, MADV_HUGEPAGE) == 0;
    free(block);
    return advised;
#else
    (void)bytes;
    return 0;
#endif
}
