#pragma once

namespace lockscope {

// Sets glibc's malloc up for a process that keeps a million small objects while large buffers come
// and go (the window at 1M locks): two arenas, and blocks of 128 KiB or more always mapped on
// their own, so that they go back to the system when freed. Each environment variable the user
// sets (MALLOC_ARENA_MAX, MALLOC_MMAP_THRESHOLD_) wins over its setting. Call it first in main(),
// before any thread starts.
//
// - glibc gives each thread that allocates an arena of its own, up to 8 per core. The window's
//   threads hand what they allocate to each other (a scan worker reads keys, the monitor's thread
//   keeps them, the GUI thread frees old views), and each arena keeps the holes left for itself.
// - glibc raises its mmap threshold each time a mapped block is freed, up to 32 MiB: after the
//   first burst, a flood's socket reads, batches and tables of a few MiB each came from the heap,
//   and the holes they left between locks that stay were never given back.
//
// ui-bench --million (peak RSS, two runs each): 1,504 MiB with glibc's defaults, 1,455 with two
// arenas; then, with every other change of that session, 1,321 / 1,357 MiB against 1,273 / 1,255
// with the fixed threshold too. The time to show the million locks did not change.
void useCompactMalloc();

} // namespace lockscope
