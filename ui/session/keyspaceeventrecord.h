// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
#include <QDateTime>
#include <QMetaType>

namespace lockscope {

// One keyspace notification as it reached the core, stamped on arrival.
struct KeyspaceEventRecord
{
    QDateTime time;
    int master = 0;
    QByteArray key;
    QByteArray event;
};

} // namespace lockscope

Q_DECLARE_METATYPE(lockscope::KeyspaceEventRecord)
