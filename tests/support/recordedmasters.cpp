// SPDX-License-Identifier: Apache-2.0
#include "support/recordedmasters.h"

#include "support/redisserver.h"

namespace lockscope::test {

bool RecordedMasters::start(int count)
{
    RedisServerOptions options;
    options.notifications = true;
    return group.start(count, options);
}

bool RecordedMasters::startRecorder(LockctlProcess& recorder, const QStringList& args) const
{
    return recorder.start(group.lockctlArgs() +
                          QStringList{QStringLiteral("record"), QStringLiteral("--db"), db} + args) &&
           recorder.waitForOutput(QStringLiteral("recording %1 master(s)").arg(group.size()).toUtf8());
}

QString RecordedMasters::url() const
{
    return group.urls(false).first();
}

} // namespace lockscope::test
