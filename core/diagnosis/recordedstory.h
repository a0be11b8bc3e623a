// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "diagnosis/diagnosis.h"
#include "diagnosis/lockstory.h"
#include "record/resourcehistory.h"

namespace lockscope {

// The recording's side of a lock's story: what the flight recorder saw of the current holder, which
// may be long before this process started (a lock stuck since 03:12, looked at at 03:40). Pure.
namespace RecordedStory {

// The story of the holder of the open (last) episode: first seen, extensions (as the episode
// counts them), first and last extension with the TTL read then, the lease (longest TTL
// recorded) and the latest TTL reading. Unknown when the last episode has ended.
LockStory fromHistory(const ResourceHistory& history);
// The recorded story completed by the live tracker's, for the same token: the earlier first
// sighting, the later last extension, the longer lease, the newer reading. Extensions the
// live tracker saw after the recording's last one are added; others were likely recorded too
// (a recorder running beside this process), so the larger count is kept. Another token: live.
LockStory merge(const LockStory& recorded, const LockStory& live);
// The last moment the recording watched (its last session's last heartbeat or end); -1: none.
qint64 watchedUntilMs(const ResourceHistory& history);
// What the recording alone says of the open episode, as of min(context.nowMs, watchedUntilMs):
// no expiry (no TTL ever recorded for its holder), held-too-long, not-renewed (the TTL left is
// the last reading counted down).
QList<Diagnosis> diagnose(const ResourceHistory& history, const DiagnosisContext& context);

} // namespace RecordedStory

} // namespace lockscope
