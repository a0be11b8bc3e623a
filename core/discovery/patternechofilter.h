// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
#include <QByteArrayList>

namespace lockscope {

// Keyspace events arrive once per subscribed pattern that matches the key: with the default
// patterns a change of lock:x comes on __keyspace@0__:lock:* and again on __keyspace@0__:*lock*.
// Redis sends one event's copies to a client back to back, one per matching pattern (pubsub
// publish walks the patterns within one command), so a message that repeats the previous one's
// channel and payload on a pattern not yet seen for it is a copy; on a pattern already seen it is
// the next event of the same kind.
class PatternEchoFilter final
{
public:
    // Whether this message is an event of its own (false: another pattern's copy of the last one).
    bool isNewEvent(const QByteArray& pattern, const QByteArray& channel, const QByteArray& payload);

private:
    QByteArray m_channel;
    QByteArray m_payload;
    QByteArrayList m_patterns; // those that delivered the current event
};

} // namespace lockscope
