// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
#include <QString>

#include <optional>

namespace lockscope {

// One reading of a lock's time left: the longest PTTL among the masters holding its token.
struct TtlReading
{
    qint64 atMs = 0;  // wall clock, ms since the epoch
    qint64 ttlMs = 0; // time left then

    bool operator==(const TtlReading&) const = default;
};

// What is known of the current holder's past: the facts the diagnosis needs beyond the live view.
// Filled today by LockStoryTracker from what this process saw; the recording can fill it from
// what was recorded before (first seen, extensions), so a lock stuck since before the window
// opened is explained just as well. All times are wall-clock ms since the epoch; -1: unknown.
struct LockStory
{
    QByteArray token;        // the holder this story is about; other tokens have other stories
    qint64 firstSeenMs = -1; // the token was first seen holding the lock
    int extensions = 0;      // times its TTL went up (as seen: renewals between two reads count once)
    qint64 firstExtensionMs = -1;
    qint64 lastExtensionMs = -1;
    qint64 lastExtensionTtlMs = -1; // the TTL read just after the last extension
    qint64 leaseMs = -1;            // the longest TTL read for this token: the lease it sets
    // The latest reading: what the TTL counts down from now. Only the latest: nothing told more
    // from older ones, and the window keeps a story for each of up to a million locks.
    std::optional<TtlReading> lastReading;
    // The owner's connection, as last matched in CLIENT LIST ("'name' 127.0.0.1:5000 on M1"),
    // and when: a match that disappears means the owner's client went away.
    QString ownerClient;
    qint64 ownerClientSeenMs = -1;

    bool isKnown() const { return firstSeenMs >= 0; }
    bool operator==(const LockStory&) const = default;
};

} // namespace lockscope
