// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "config/lockscopeconfig.h"
#include "connection/redisconnection.h"
#include "discovery/entryscanner.h"
#include "discovery/notificationmode.h"
#include "discovery/observationbatch.h"

#include <QHash>
#include <QObject>

#include <functional>
#include <memory>

class QThread;

namespace lockscope {

class KeyPool;
class ObservationSink;
class ScanThread;
class ScanWorker;

// Keeps one master's set of matching keys current, for a monitor. The work (SCAN passes, keyspace
// events, key reads, reply parsing) runs in a ScanWorker on a scan thread over connections of its
// own, so that N masters are scanned by N threads; this object stays in the monitor's thread,
// follows the master connection (the worker reopens with its options whenever it comes up), hands
// the worker's batches to the sink, and mirrors its state for callers in this thread.
class MasterScanner final : public EntryScanner
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MasterScanner)

public:
    // `keyPool`: shared by the scanners of masters that hold the same keys (ScanKeyTable).
    MasterScanner(int index, RedisConnection* connection, MonitorSettings settings, ObservationSink* sink,
                  std::shared_ptr<KeyPool> keyPool = {}, QObject* parent = nullptr);
    // Stops the worker (its connections are closed when this returns); the thread is joined once
    // no other master uses it.
    ~MasterScanner() override;

    void start() override;
    void requestPass() override;
    void anchorEvents() override;
    void enableNotifications(std::function<void(const RedisError&)> done) override;

    bool isScanning() const override { return m_scanning; }
    qint64 knownKeys() const override { return m_knownCount; }

    // For tests and diagnostics: where the worker runs, and the worker itself (to be touched only
    // from that thread).
    QThread* workerThread() const;
    ScanWorker* worker() const { return m_worker; }

private:
    void onMasterState(RedisConnection::State state);
    void onObserved(const ObservationBatchPtr& batch);
    void onPassFinished(qint64 knownKeys);
    void onKeyspaceEvents(const QByteArrayList& keys, const QByteArrayList& events,
                          const QList<qint64>& ranAfterMs, qint64 skipped);
    template <typename F> void post(F&& call);

    RedisConnection* m_connection;
    ObservationSink* m_sink;
    std::shared_ptr<ScanThread> m_thread;
    ScanWorker* m_worker; // lives in m_thread; deleted there
    // Bumped at every master connection change; the worker's state signals of an older one are stale.
    quint64 m_generation = 0;
    bool m_scanning = false;
    qint64 m_knownCount = 0;
};

} // namespace lockscope
