// SPDX-License-Identifier: Apache-2.0
#include "trace/locktracer.h"

#include "base/durationformat.h"
#include "formats/auxiliaryformats.h"
#include "topology/clusterentry.h"
#include "topology/clusterkeyslot.h"
#include "topology/clustertopology.h"
#include "topology/masterset.h"
#include "trace/mastertrace.h"

namespace lockscope {

namespace {

constexpr int checkEveryMs = 1000;

QString rateText(qint64 bytesPerSecond)
{
    if (bytesPerSecond >= 1024 * 1024)
        return QStringLiteral("%1 MiB/s").arg(double(bytesPerSecond) / (1024 * 1024), 0, 'f', 1);
    return QStringLiteral("%1 KiB/s").arg(double(bytesPerSecond) / 1024, 0, 'f', 1);
}

} // namespace

LockTracer::LockTracer(const QByteArray& lockKey, const QList<Target>& targets, TraceLimits limits,
                       QObject* parent)
    : QObject(parent), m_limits(limits)
{
    const QByteArrayList keys = keysOf(lockKey);
    for (const Target& t : targets) {
        auto* trace = new MasterTrace(t.master, t.options, lockKey, keys, this);
        connect(trace, &MasterTrace::monitoring, this, &LockTracer::masterMonitoring);
        connect(trace, &MasterTrace::failed, this, &LockTracer::onMasterFailed);
        connect(trace, &MasterTrace::traced, this, [this](const TracedCommand& command) {
            m_summary.add(command);
            emit traced(command);
        });
        m_traces.push_back(trace);
    }
    m_checkTimer.setInterval(checkEveryMs);
    connect(&m_checkTimer, &QTimer::timeout, this, &LockTracer::check);
}

LockTracer::~LockTracer()
{
    // Nothing more is heard from them: what they still hold back goes with them.
    for (MasterTrace* t : m_traces) {
        disconnect(t, nullptr, this, nullptr);
        t->stop();
    }
}

QByteArrayList LockTracer::keysOf(const QByteArray& lockKey)
{
    return QByteArrayList{lockKey} + recognition::auxiliaryKeysOf(lockKey);
}

QList<LockTracer::Target> LockTracer::targetsFor(const MasterSet& masters, const QByteArray& lockKey,
                                                 QStringList* unknown)
{
    QList<Target> out;
    for (int i = 0; i < masters.size(); ++i) {
        const RedisConnection* c = masters.at(i);
        if (masters.isCluster(i)) {
            const ClusterTopology* topology = masters.cluster(i)->topology();
            const NodeAddress primary = topology->slotMap().primaryFor(ClusterKeySlot::of(lockKey));
            if (primary.isValid())
                out << Target{i, topology->optionsFor(primary)};
            else if (unknown)
                *unknown << c->name();
            continue;
        }
        // A Sentinel entry's connection is pointed at its primary (retarget); until one is known
        // it is held down and there is nothing to trace.
        if (masters.isSentinel(i) && !masters.primaryAddress(i).isValid()) {
            if (unknown)
                *unknown << c->name();
            continue;
        }
        out << Target{i, c->options()};
    }
    return out;
}

void LockTracer::start()
{
    if (m_running)
        return;
    m_running = true;
    m_clock.start();
    m_lastCheckMs = 0;
    m_lastBytes = QList<qint64>(qsizetype(m_traces.size()), 0);
    m_checkTimer.start();
    if (m_traces.empty()) {
        stop(TraceStop::Reason::NoMaster, QStringLiteral("no master to trace"));
        return;
    }
    for (MasterTrace* t : m_traces)
        t->start();
}

void LockTracer::stop(TraceStop::Reason reason, const QString& message)
{
    if (!m_running)
        return;
    m_running = false;
    m_checkTimer.stop();
    for (MasterTrace* t : m_traces)
        t->stop();
    emit stopped(TraceStop{reason, message});
}

void LockTracer::onMasterFailed(int master, const RedisError& error)
{
    emit masterFailed(master, error);
    if (++m_failed == int(m_traces.size()))
        stop(TraceStop::Reason::NoMaster,
             QStringLiteral("no master is traced any more (the last: %1)").arg(error.toString()));
}

void LockTracer::check()
{
    const qint64 nowMs = m_clock.elapsed();
    const qint64 spanMs = qMax<qint64>(1, nowMs - m_lastCheckMs);
    m_lastCheckMs = nowMs;
    for (std::size_t i = 0; i < m_traces.size(); ++i) {
        const MasterTrace* t = m_traces[i];
        const MonitorStream::Counts& counts = t->counts();
        const qint64 rate = (counts.bytes - m_lastBytes[qsizetype(i)]) * 1000 / spanMs;
        m_lastBytes[qsizetype(i)] = counts.bytes;
        if (!t->isMonitoring())
            continue;
        if (rate > m_limits.budgetBytesPerSecond) {
            stop(TraceStop::Reason::Budget,
                 QStringLiteral("%1 sent %2 of MONITOR output, over the trace's budget of %3: stopped so "
                                "that tracing costs it no more (a busier master needs a larger --budget)")
                     .arg(t->name(), rateText(rate), rateText(m_limits.budgetBytesPerSecond)));
            return;
        }
        if (counts.lagUs() > m_limits.maxLagMs * 1000) {
            stop(TraceStop::Reason::FellBehind,
                 QStringLiteral("the tracer fell %1 behind %2's commands: stopped before the master's "
                                "output buffer for it grows")
                     .arg(formatDuration(counts.lagUs() / 1000), t->name()));
            return;
        }
    }
    if (nowMs >= m_limits.durationMs)
        stop(TraceStop::Reason::Duration,
             QStringLiteral("traced for %1").arg(formatDuration(m_limits.durationMs)));
}

} // namespace lockscope
