// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
#include <QString>

namespace lockscope {

// What we know about a master beyond up/down; filled by the connection's handshake and pings.
struct MasterHealth
{
    double latencyMs = -1;    // last PING round trip; -1 before the first one
    QString version;          // redis_version
    QString role;             // master / slave
    QByteArray runId;         // changes when the server process restarts
    qint64 clockOffsetMs = 0; // server TIME minus our wall clock, at the midpoint of the round trip
    bool clockOffsetKnown = false;

    bool operator==(const MasterHealth&) const = default;
};

} // namespace lockscope
