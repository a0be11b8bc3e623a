// SPDX-License-Identifier: Apache-2.0
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
        mallopt(M_ARENA_MAX, compactMallocArenas);
#endif
}

} // namespace lockscope
