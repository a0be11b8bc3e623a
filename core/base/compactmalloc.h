// SPDX-License-Identifier: Apache-2.0
#pragma once

namespace lockscope {

// Caps glibc's malloc at three arenas, unless MALLOC_ARENA_MAX says otherwise. Call it first in
// main(), before any thread starts.
//
// glibc gives each thread that allocates an arena of its own, up to 8 per core. The window's
// threads hand what they allocate to each other (a scan worker reads keys, the monitor's thread
// keeps them, the GUI thread frees old views), and each arena keeps the holes left behind for
// itself: with a million locks the window's peak RSS was 1,504 MiB with glibc's defaults and
// 1,455 / 1,476 MiB with two arenas (ui-bench --million), the time to show them unchanged.
//
// Three, not two: the GUI thread's arena (glibc's main one) is shared with the workers that glibc
// hands it in turn, and every malloc or free of the GUI thread waits while one of them holds it (a
// table's paint spent 13 of its 21 samples waiting for that lock). Over 100k locks on five masters
// (ui-bench.sh, --scan-rate max; eight runs each) the first view took 1.20x the bare loop on average
// against 1.26x, the peak 226 MiB against 224; at a million locks (two runs each) 1,189 and 1,185 MiB
// against 1,432 and 1,177.
//
// Tried and left out: a fixed mmap threshold of 128 KiB (glibc raises it with every large block
// freed). In one A/B it took the peak at 1M locks 65 MiB lower, but later runs without it came
// within 20 MiB of that, and it made the first view of 100k locks on five masters 3 s slower
// (17.7 / 18.6 s against 14.5 / 15.4 s): the scans' large buffers were then mapped and unmapped
// page by page. Another allocator in glibc's place: Debian's jemalloc 5.3 (LD_PRELOAD, 100k locks
// on five masters as above, alternating with glibc's): peak 265 and 275 MiB with its defaults
// against 223 and 218, and 234 to 240 MiB tuned (MALLOC_CONF dirty_decay_ms:0,muzzy_decay_ms:0;
// narenas:2 or 1 with dirty_decay_ms:200, background_thread:true), the first view no faster.
void useCompactMalloc();

// The cap useCompactMalloc() sets.
inline constexpr int compactMallocArenas = 3;

} // namespace lockscope
