// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "config/lockscopeconfig.h"
#include "monitor/lockmonitor.h"
#include "support/redisservergroup.h"
#include "topology/masterset.h"

#include <QTemporaryDir>

#include <functional>
#include <memory>

namespace lockscope::test {

// Real masters, and a monitor of them on the test's thread whose recorder writes `path` (flushed
// every 100 ms), its first scan done: for tests that decide what the monitor sees and when, then
// read what the recorder made of it.
class RecordedMonitor
{
public:
    // `tune` adjusts the monitor's configuration before it starts. False with errorString() set.
    bool start(int masters, const std::function<void(LockScopeConfig&)>& tune = {},
               const RedisServerOptions& servers = {});
    QString errorString() const { return m_error; }
    // Ends the monitor, its recorder with it: everything is written, and the file stays.
    void endMonitor() { m_monitor.reset(); }
    // Ends the monitor, the masters and the recording's folder.
    void stop();

    RedisServerGroup& group() { return *m_group; }
    MasterSet& masters() { return *m_masters; }
    LockMonitor* monitor() { return m_monitor.get(); }
    const QString& path() const { return m_path; }

    // How `token`'s last episode of `resource` ended in the recording (the monitor ended first), as
    // a reader tells it: not the kind of its last event, since a release is dated when the first
    // master let go and the others' letting go is told after it. Or a word in parentheses saying
    // why there is none.
    QString endOf(const QByteArray& resource, const QByteArray& token);

private:
    std::unique_ptr<RedisServerGroup> m_group;
    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_path;
    std::unique_ptr<MasterSet> m_masters;
    std::unique_ptr<LockMonitor> m_monitor;
    QString m_error;
};

} // namespace lockscope::test
