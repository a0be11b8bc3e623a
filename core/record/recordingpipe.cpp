// SPDX-License-Identifier: Apache-2.0
#include "record/recordingpipe.h"

#include <QDateTime>

namespace lockscope {

RecordingPipe::RecordingPipe(RecordingSink* sink, std::shared_ptr<RecordingSink::Counters> counters,
                             QObject* owner)
    : m_counters(std::move(counters)), m_sink(sink)
{
    m_flushTimer.setParent(owner);
    QObject::connect(&m_flushTimer, &QTimer::timeout, &m_flushTimer, [this] { flush(); });
    m_thread.setObjectName(QStringLiteral("recording writer"));
}

RecordingPipe::~RecordingPipe()
{
    if (!m_started) {
        delete m_sink; // never started: still ours
        return;
    }
    flush();
    // Queued behind the last batch: the session ends after everything observed is in the file.
    QThread* thread = &m_thread;
    RecordingSink* sink = m_sink;
    QMetaObject::invokeMethod(
        sink,
        [sink, thread] {
            sink->finish();
            delete sink;
            thread->quit();
        },
        Qt::QueuedConnection);
    m_thread.wait();
}

void RecordingPipe::start(const QStringList& masters, int flushIntervalMs)
{
    Q_ASSERT(!m_started);
    m_started = true;
    m_sink->moveToThread(&m_thread);
    m_thread.start(QThread::LowPriority);
    QMetaObject::invokeMethod(
        m_sink, [sink = m_sink, masters] { sink->start(masters); }, Qt::QueuedConnection);
    m_flushTimer.start(qMax(10, flushIntervalMs));
}

void RecordingPipe::flush()
{
    if (m_pending.isEmpty() || !m_started)
        return;
    m_counters->backlog += m_pending.size();
    const qsizetype handed = m_pending.size();
    QMetaObject::invokeMethod(
        m_sink, [sink = m_sink, events = std::move(m_pending)] { sink->write(events); },
        Qt::QueuedConnection);
    // Room for as many as last time: a list grown by doubling to a thousand events was a dozen
    // reallocations, each moving every event, and a heap consolidation per large block.
    m_pending = {};
    m_pending.reserve(handed);
}

void RecordingPipe::pruneNow()
{
    if (m_started)
        QMetaObject::invokeMethod(m_sink, &RecordingSink::pruneNow, Qt::QueuedConnection);
}

void RecordingPipe::push(RecordEvent event)
{
    if (event.timeMs == 0)
        event.timeMs = QDateTime::currentMSecsSinceEpoch();
    m_pending << std::move(event);
    // Handed over in batches of at most 4096 (650 kB): the list keeps room for as many as the last
    // batch, and a window's first 100k locks left room for 20000 (3.2 MB) at 20000 a batch.
    if (m_pending.size() >= 4096)
        flush();
}

} // namespace lockscope
