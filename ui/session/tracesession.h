// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "trace/tracedcommand.h"
#include "trace/tracelimits.h"

#include <QList>
#include <QObject>
#include <QStringList>
#include <QTimer>

#include <memory>

namespace lockscope {

class AuditLog;
class LockTracer;
class MasterSet;

// The window's lock tracer (docs/manual/trace.md), in the core thread beside the monitor: the
// audit record first, then LockTracer; its commands leave in batches (a busy lock's contenders send
// hundreds a second, one queued signal each would flood the window's event loop).
class TraceSession final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TraceSession)

public:
    explicit TraceSession(QObject* parent = nullptr);
    ~TraceSession() override;

    // Empty when tracing began; otherwise why it did not (the audit log, no master to trace on).
    QString start(const MasterSet& masters, const AuditLog& audit, const QStringList& masterNames,
                  const QByteArray& resource, const TraceLimits& limits);
    void stop();
    // The masters it traces, by name.
    const QStringList& tracedMasters() const { return m_traced; }

signals:
    void commands(const QList<lockscope::TracedCommand>& batch);
    void masterFailed(const QString& message);
    // The summary in lines (TraceText::summaryLines).
    void stopped(const lockscope::TraceStop& stop, const QStringList& summary);

private:
    void flush();

    std::unique_ptr<LockTracer> m_tracer;
    QList<TracedCommand> m_batch;
    QTimer m_flushTimer;
    QStringList m_masterNames;
    QStringList m_traced;
    QByteArray m_ownName; // the window's own connections' client name: their reads are not shown
};

} // namespace lockscope
