#pragma once

namespace lockscope {

// Caps glibc's malloc at two arenas, unless MALLOC_ARENA_MAX says otherwise. Call it first in
// main(), before any thread starts.
//
// glibc gives each thread that allocates its own arena, up to 8 per core. The window's threads hand
// what they allocate to each other (a scan worker reads keys, the monitor's thread keeps them, the
// GUI thread frees old views), and each arena keeps the holes left behind for itself: with a
// million locks the window's peak RSS was 1,504 MiB with the default and 1,455 MiB with two
// arenas (ui-bench --million, two runs each), the time to show them unchanged.
void useFewMallocArenas();

} // namespace lockscope
