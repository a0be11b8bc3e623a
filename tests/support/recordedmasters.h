// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "support/lockctlprocess.h"
#include "support/redisservergroup.h"

#include <QStringList>
#include <QTemporaryDir>

namespace lockscope::test {

// Masters for a test that records them (`lockctl record`, `trace --record`, `serve --record`):
// keyspace notifications on, so that the server tells a delete from an expiry, and the recording in
// a folder of the test's own.
struct RecordedMasters
{
    bool start(int count);
    const QString& errorString() const { return group.errorString(); }
    // `lockctl record --db db ARGS` on the masters, once it says it records them all.
    bool startRecorder(LockctlProcess& recorder, const QStringList& args = {}) const;
    // The first master's URL.
    QString url() const;

    RedisServerGroup group;
    QTemporaryDir dir;
    const QString db = dir.filePath(QStringLiteral("recording.sqlite"));
};

} // namespace lockscope::test
