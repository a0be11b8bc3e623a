// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "connection/connectionoptions.h"
#include "trace/tracedcommand.h"
#include "trace/tracelimits.h"
#include "trace/tracesummary.h"

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include <vector>

namespace lockscope {

class MasterSet;
class MasterTrace;

// Who touches one lock (issue #43): MONITOR on every master the lock's keys live on (on a cluster
// entry, the primary that serves the key's slot), cut down to the lock's keys, each command with its
// meaning and its connection, within TraceLimits. Nothing of another key is stored, shown or logged.
class LockTracer final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LockTracer)

public:
    struct Target
    {
        int master = -1;
        ConnectionOptions options; // the node to trace
    };

    LockTracer(const QByteArray& lockKey, const QList<Target>& targets, TraceLimits limits,
               QObject* parent = nullptr);
    ~LockTracer() override;

    // The lock's key and the helper keys of every format it may have.
    static QByteArrayList keysOf(const QByteArray& lockKey);
    // Where to trace `lockKey` among `masters` (opened): each entry's node now, the primary of a
    // Sentinel group, a cluster's primary for the key's slot. An entry with no node known yet is
    // left out, and named in `unknown`.
    static QList<Target> targetsFor(const MasterSet& masters, const QByteArray& lockKey,
                                    QStringList* unknown);

    void start();
    void stop(TraceStop::Reason reason = TraceStop::Reason::Requested, const QString& message = {});
    bool isRunning() const { return m_running; }
    const TraceSummary& summary() const { return m_summary; }
    qint64 elapsedMs() const { return m_clock.isValid() ? m_clock.elapsed() : 0; }

signals:
    void masterMonitoring(int master);
    void masterFailed(int master, const lockscope::RedisError& error);
    void traced(const lockscope::TracedCommand& command);
    void stopped(const lockscope::TraceStop& stop);

private:
    void check();
    void onMasterFailed(int master, const RedisError& error);

    TraceLimits m_limits;
    std::vector<MasterTrace*> m_traces; // children
    TraceSummary m_summary;
    QTimer m_checkTimer;
    QElapsedTimer m_clock;
    qint64 m_lastCheckMs = 0;
    QList<qint64> m_lastBytes;
    int m_failed = 0;
    bool m_running = false;
};

} // namespace lockscope
