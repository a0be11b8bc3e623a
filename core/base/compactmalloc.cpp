#include "base/compactmalloc.h"

#include <cstdlib>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace lockscope {

void useCompactMalloc()
{
#if defined(__GLIBC__)
    if (std::getenv("MALLOC_ARENA_MAX") == nullptr)
        mallopt(M_ARENA_MAX, 2);
    if (std::getenv("MALLOC_MMAP_THRESHOLD_") == nullptr)
        mallopt(M_MMAP_THRESHOLD, 128 * 1024); // glibc's starting value, now kept
#endif
}

} // namespace lockscope
