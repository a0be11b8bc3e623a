// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>

namespace lockscope {

// Keyspace events that tell how a key ended (when notifications are on, better than the clock).
inline bool isExpiryEvent(const QByteArray& event)
{
    return event == "expired" || event == "evicted";
}

inline bool isDeleteEvent(const QByteArray& event)
{
    return event == "del" || event == "unlink" || event == "hdel" || event == "zrem" || event == "srem";
}

} // namespace lockscope
