// SPDX-License-Identifier: Apache-2.0
#include "discovery/masterscanner.h"

#include "base/threadpriority.h"
#include "discovery/observationsink.h"
#include "discovery/scanthread.h"
#include "discovery/scanworker.h"

namespace lockscope {

MasterScanner::MasterScanner(int index, RedisConnection* connection, MonitorSettings settings,
                             ObservationSink* sink, std::shared_ptr<KeyPool> keyPool, QObject* parent)
    : EntryScanner(index, parent), m_connection(connection), m_sink(sink), m_thread(ScanThread::acquire()),
      m_worker(new ScanWorker(index, std::move(settings), std::move(keyPool)))
{
    qRegisterMetaType<ObservationBatchPtr>();
    qRegisterMetaType<NotificationMode>();
    m_worker->moveToThread(m_thread->thread());
    // A thread that yields the CPU to the GUI (the core thread) must not get its scanning done by
    // threads that do not: the worker's thread is lowered at least as far as ours. Not further: 3
    // steps lower, the monitor kept up with five workers, and the window's first view cost 8-11 %
    // more CPU for 2-6 MiB less at its peak (ScanWorker's bound on keys on their way says the same).
    post([nice = ThreadPriority::currentNice()] { ThreadPriority::lowerTo(nice); });

    connect(m_worker, &ScanWorker::modeChanged, this,
            [this](quint64 generation, NotificationMode mode, const QString& reason) {
                if (generation == m_generation)
                    setMode(mode, reason);
            });
    connect(m_worker, &ScanWorker::scanningChanged, this, [this](quint64 generation, bool scanning) {
        if (generation == m_generation)
            m_scanning = scanning;
    });
    connect(m_worker, &ScanWorker::scanProgress, this,
            [this](qint64 scanned, qint64 total) { emit scanProgress(m_index, scanned, total); });
    connect(m_worker, &ScanWorker::observed, this, &MasterScanner::onObserved);
    connect(m_worker, &ScanWorker::passFinished, this, &MasterScanner::onPassFinished);
    connect(m_worker, &ScanWorker::keyspaceEvents, this, &MasterScanner::onKeyspaceEvents);
    connect(m_connection, &RedisConnection::stateChanged, this,
            [this](RedisConnection::State state) { onMasterState(state); });
}

MasterScanner::~MasterScanner()
{
    // Blocking: once this returns, no socket of ours is open and no timer of the worker can fire.
    // The worker never waits on this thread, so this cannot deadlock.
    QMetaObject::invokeMethod(
        m_worker,
        [w = m_worker] {
            w->shutdown();
            w->deleteLater();
        },
        Qt::BlockingQueuedConnection);
    // Releasing the last reference to the thread joins it; its pending deferred deletions run first.
    m_thread.reset();
}

template <typename F> void MasterScanner::post(F&& call)
{
    QMetaObject::invokeMethod(m_worker, std::forward<F>(call), Qt::QueuedConnection);
}

QThread* MasterScanner::workerThread() const
{
    return m_thread->thread();
}

void MasterScanner::start()
{
    const RedisConnection::State state = m_connection->state();
    if (state == RedisConnection::State::Up) {
        onMasterState(state);
    } else if (const RedisUrl& url = m_connection->options().url;
               state == RedisConnection::State::Connecting &&
               (!url.host().isEmpty() || !url.socketPath().isEmpty())) {
        // Saves a handshake's wait before the first pass (a Sentinel entry has no address yet).
        post([w = m_worker, options = m_connection->options()] { w->prepare(options); });
    }
}

void MasterScanner::onMasterState(RedisConnection::State state)
{
    if (state == RedisConnection::State::Up) {
        ++m_generation;
        // The options of now: a retargeted master connection takes the worker to its new server.
        post([w = m_worker, g = m_generation, options = m_connection->options(),
              runId = m_connection->health().runId] { w->follow(g, options, runId); });
    } else if (state == RedisConnection::State::Down || state == RedisConnection::State::Disconnected) {
        ++m_generation;
        m_scanning = false;
        const QString reason = m_connection->lastError().message;
        setMode(NotificationMode::Unknown, reason);
        post([w = m_worker, g = m_generation, reason] { w->masterDown(g, reason); });
    }
}

void MasterScanner::requestPass()
{
    if (!m_connection->isUp())
        return;
    post([w = m_worker] { w->requestPass(); });
}

void MasterScanner::enableNotifications(std::function<void(const RedisError&)> done)
{
    // Over the master connection: it is the one whose state the caller sees, and CONFIG SET is rare.
    m_connection->send({"CONFIG", "GET", "notify-keyspace-events"}, this, [this, done](const RedisResult& r) {
        if (const RedisError e = r.anyError(m_connection->name()); e.isError()) {
            done(e);
            return;
        }
        const QByteArray flags = r.reply.elements.size() == 2 ? r.reply.elements[1].string : QByteArray();
        m_connection->send({"CONFIG", "SET", "notify-keyspace-events", notificationFlagsWithNeeded(flags)},
                           this, [this, done](const RedisResult& set) {
                               const RedisError e = set.anyError(m_connection->name());
                               if (!e.isError())
                                   post([w = m_worker] { w->detectMode(); });
                               done(e);
                           });
    });
}

void MasterScanner::onObserved(const ObservationBatchPtr& batch)
{
    // The worker let go of the batch when it emitted it: the observations are ours to move.
    ObservationBatch& b = *batch;
    const bool hashed = b.hashes.size() == b.keys.size();
    for (qsizetype i = 0; i < b.keys.size(); ++i) {
        const HashedKey key = hashed ? HashedKey(b.keys.at(i), b.hashes.at(i)) : HashedKey(b.keys.at(i));
        switch (b.steps.at(i)) {
        case ObservationBatch::Step::Observe:
            m_sink->keyObserved(m_index, key, std::move(b.observations[i]));
            break;
        case ObservationBatch::Step::Remove:
            m_sink->keyRemoved(m_index, key);
            break;
        case ObservationBatch::Step::Skip:
            break;
        }
    }
    m_knownCount = b.knownKeys;
    // Taken in: the worker may read on (it holds its pass while too many keys are on their way).
    post([w = m_worker, n = b.keys.size()] { w->delivered(n); });
}

void MasterScanner::onPassFinished(qint64 knownKeys)
{
    // Queued behind the pass's batches, so all of them are in the sink now.
    m_knownCount = knownKeys;
    m_scanning = false;
    ++m_completedPasses;
    emit passFinished(m_index);
    // Taken in: the worker may start its next pass (one pass in flight per master, however slow
    // this thread is).
    post([w = m_worker] { w->passDelivered(); });
}

void MasterScanner::anchorEvents()
{
    post([w = m_worker] { w->anchorEvents(); });
}

void MasterScanner::onKeyspaceEvents(const QByteArrayList& keys, const QByteArrayList& events,
                                     const QList<qint64>& ranAfterMs, qint64 skipped)
{
    for (qsizetype i = 0; i < keys.size() && i < events.size(); ++i)
        emit keyspaceEvent(m_index, keys.at(i), events.at(i), ranAfterMs.value(i, -1));
    if (skipped > 0)
        emit keyspaceEventsSkipped(m_index, skipped);
}

} // namespace lockscope
