// SPDX-License-Identifier: Apache-2.0
#include "support/recordevents.h"

#include <bit>

namespace lockscope::test {

RecordEvent lockEvent(qint64 ms, RecordEvent::Kind kind, const QByteArray& resource, const QByteArray& token,
                      quint64 holders, qint64 ttlMs)
{
    RecordEvent e;
    e.timeMs = ms;
    e.kind = kind;
    e.resource = resource;
    e.token = token;
    e.holders = holders;
    e.holding = std::popcount(holders);
    e.ttlMs = ttlMs;
    return e;
}

RecordEvent masterEvent(qint64 ms, RecordEvent::Kind kind, int master, const QString& detail)
{
    RecordEvent e;
    e.timeMs = ms;
    e.kind = kind;
    e.master = master;
    e.detail = detail;
    return e;
}

} // namespace lockscope::test
