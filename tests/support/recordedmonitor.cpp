// SPDX-License-Identifier: Apache-2.0
#include "support/recordedmonitor.h"

#include "record/recorder.h"
#include "record/recorderoptions.h"
#include "record/recordingreader.h"
#include "support/quickconfig.h"
#include "support/timebound.h"

#include <QSignalSpy>

namespace lockscope::test {

bool RecordedMonitor::start(int masters, const std::function<void(LockScopeConfig&)>& tune,
                            const RedisServerOptions& servers)
{
    m_group = std::make_unique<RedisServerGroup>();
    if (!m_group->start(masters, servers)) {
        m_error = m_group->errorString();
        return false;
    }
    m_dir = std::make_unique<QTemporaryDir>();
    m_path = m_dir->filePath(QStringLiteral("recording.sqlite"));
    LockScopeConfig config = quickConfig(*m_group);
    if (tune)
        tune(config);
    m_masters = std::make_unique<MasterSet>(config.masters);
    m_monitor = std::make_unique<LockMonitor>(m_masters.get(), config);
    m_monitor->setCoalesceMs(0); // every change, as `lockctl record` keeps them
    RecorderOptions options;
    options.path = m_path;
    options.flushIntervalMs = 100;
    Recorder::record(m_monitor.get(), options);
    QSignalSpy scanned(m_monitor.get(), &LockMonitor::initialScanFinished);
    m_masters->open();
    m_monitor->start();
    if (!scanned.wait(int(upperBoundMs(30000)))) {
        m_error = QStringLiteral("the first scan did not finish");
        return false;
    }
    return true;
}

void RecordedMonitor::stop()
{
    m_monitor.reset();
    m_masters.reset();
    m_dir.reset();
    m_group.reset();
}

QString RecordedMonitor::endOf(const QByteArray& resource, const QByteArray& token)
{
    endMonitor();
    RecordingReader reader;
    if (reader.open(m_path).isError())
        return QStringLiteral("(no recording)");
    const Result<ResourceHistory> history = reader.history(resource);
    if (!history)
        return QStringLiteral("(no history)");
    QString last = QStringLiteral("(none)");
    for (const Episode& episode : history->episodes)
        if (episode.token == token)
            last = episodeEndName(episode.ended);
    return last;
}

} // namespace lockscope::test
