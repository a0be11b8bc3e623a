// SPDX-License-Identifier: Apache-2.0
#include "session/tracesession.h"

#include "audit/auditlog.h"
#include "connection/redisconnection.h"
#include "topology/masterset.h"
#include "trace/locktracer.h"
#include "trace/tracetext.h"

#include <utility>

namespace lockscope {

namespace {

// How often the traced commands go to the window, in one batch.
constexpr int batchEveryMs = 100;

} // namespace

TraceSession::TraceSession(QObject* parent) : QObject(parent)
{
    m_flushTimer.setInterval(batchEveryMs);
    connect(&m_flushTimer, &QTimer::timeout, this, &TraceSession::flush);
}

TraceSession::~TraceSession() = default;

QString TraceSession::start(const MasterSet& masters, const AuditLog& audit, const QStringList& masterNames,
                            const QByteArray& resource, const TraceLimits& limits)
{
    m_masterNames = masterNames;
    const QList<LockTracer::Target> targets = LockTracer::targetsFor(masters, resource, nullptr);
    if (targets.isEmpty())
        return tr("no master to trace on");
    AuditRecord record = AuditRecord::now(QStringLiteral("trace"), resource);
    for (const LockTracer::Target& t : targets) {
        record.masters << masterNames.value(t.master);
        m_traced << masterNames.value(t.master);
    }
    record.outcome = QStringLiteral("started");
    record.message = QStringLiteral("MONITOR for at most %1 ms, budget %2 KiB/s, from the window")
                         .arg(limits.durationMs)
                         .arg(limits.budgetBytesPerSecond / 1024);
    // A trace shows other clients' commands: one the audit log cannot record does not start.
    if (const RedisError error = audit.append(record); error.isError())
        return tr("its audit record could not be written: %1").arg(error.message);
    m_ownName = masters.size() > 0 ? masters.at(0)->options().clientName : QByteArray();
    m_tracer = std::make_unique<LockTracer>(resource, targets, limits);
    connect(m_tracer.get(), &LockTracer::traced, this, [this](const TracedCommand& c) {
        // The window's own monitor reads the lock on every pass: not what a trace is asked about.
        if ((c.meaning == TraceMeaning::Read || c.meaning == TraceMeaning::Other) && !m_ownName.isEmpty() &&
            c.client.name == m_ownName)
            return;
        m_batch << c;
        if (!m_flushTimer.isActive())
            m_flushTimer.start();
    });
    connect(m_tracer.get(), &LockTracer::masterFailed, this, [this](int master, const RedisError& error) {
        emit masterFailed(m_masterNames.value(master) + QStringLiteral(": ") + error.message);
    });
    connect(m_tracer.get(), &LockTracer::stopped, this, [this](const TraceStop& s) {
        flush();
        m_flushTimer.stop();
        emit stopped(s, TraceText::summaryLines(m_tracer->summary(), m_masterNames));
    });
    m_tracer->start();
    return QString();
}

void TraceSession::stop()
{
    if (m_tracer)
        m_tracer->stop(TraceStop::Reason::Requested, tr("stopped"));
}

void TraceSession::flush()
{
    if (m_batch.isEmpty()) {
        m_flushTimer.stop();
        return;
    }
    emit commands(std::exchange(m_batch, {}));
}

} // namespace lockscope
