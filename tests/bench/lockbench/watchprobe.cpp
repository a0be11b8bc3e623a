// SPDX-License-Identifier: Apache-2.0
#include "bench/lockbench/watchprobe.h"

#include "base/monotonicclock.h"
#include "diagnosis/incidentwatch.h"

#include <QMetaObject>

using namespace lockscope;

namespace lockbench {

template <typename F> auto WatchProbe::onItsThread(F f)
{
    decltype(f()) out{};
    QMetaObject::invokeMethod(
        m_watch, [&] { out = f(); }, Qt::BlockingQueuedConnection);
    return out;
}

WatchProbe::WatchProbe(const QString& recordingPath, const RecordingSink* writer)
    : m_watch(new IncidentWatch(recordingPath))
{
    m_watch->moveToThread(&m_thread);
    QObject::connect(&m_thread, &QThread::finished, m_watch, &QObject::deleteLater);
    m_watch->follow(writer);
    m_thread.start(QThread::LowPriority); // as lockctl serve starts it
    m_cpuStartNs = onItsThread([] { return threadCpuNs(); });
}

WatchProbe::~WatchProbe()
{
    m_thread.quit();
    m_thread.wait();
}

qint64 WatchProbe::cpuNs()
{
    return onItsThread([] { return threadCpuNs(); }) - m_cpuStartNs;
}

qsizetype WatchProbe::pending()
{
    return onItsThread([this] { return m_watch->pending(); });
}

qint64 WatchProbe::unchecked()
{
    return onItsThread([this] { return m_watch->unchecked(); });
}

qsizetype WatchProbe::incidents()
{
    return onItsThread([this] { return m_watch->incidents().size(); });
}

qint64 WatchProbe::reads()
{
    return onItsThread([this] { return m_watch->reads(); });
}

} // namespace lockbench
