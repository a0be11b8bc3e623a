// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/rediserror.h"
#include "demo/demosentinelgroup.h"
#include "demo/demoserverprogram.h"
#include "monitor/failoverreport.h"
#include "monitor/lockview.h"

#include <QObject>

#include <memory>
#include <optional>

namespace lockscope {

class LockMonitor;
class MasterSet;
class RedisConnection;

// The Sentinel half of the "Failover without a quorum" scenario: a throw-away Sentinel group
// (started only when the scenario runs: five more processes and a few seconds of settling that most
// demo sessions never need), two plain single-instance clients A and B that take `lock:demo:failover`
// with SET NX PX and a token of their own, and a LockMonitor of its own on the group (N = 1, the
// redis-sentinel:// entry) that follows the failover and reports what it did to A's lock.
//
// Each step is asynchronous and records its result here; a failure is kept in error().
class DemoFailover final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DemoFailover)

public:
    static constexpr qint64 ttlMs = 120000;
    static QByteArray resource() { return QByteArrayLiteral("lock:demo:failover"); }

    explicit DemoFailover(QObject* parent = nullptr);
    ~DemoFailover() override;

    // Starts a fresh group (stopping any earlier one), then the monitor and A's connection.
    void start(const QString& redisServer = demoServerProgram());
    // Stops clients, monitor and every process of the group.
    void stop();
    bool isActive() const { return m_group.isStarting() || m_group.isStarted(); }
    // The group is up, the monitor has read the primary through, A is connected.
    bool isReady() const;

    DemoSentinelGroup* group() { return &m_group; }
    const DemoSentinelGroup* group() const { return &m_group; }
    MasterSet* masters() const { return m_masters.get(); }
    LockMonitor* monitor() const { return m_monitor.get(); }
    // The first failure of any step; empty while all is well.
    const QString& error() const { return m_error; }

    void cutReplication();
    bool isReplicationCut() const { return m_replicationCut; }
    // A: SET NX PX on the primary, then WAIT 1 100 (how many replicas have the write).
    void acquireA();
    bool isAcquiredByA() const { return !m_tokenA.isEmpty(); }
    // -1 until WAIT answered.
    qint64 waitAnswer() const { return m_waitAnswer; }
    void killPrimary();
    const std::optional<FailoverReport>& report() const { return m_report; }
    // B: SET NX PX on the primary the failover named.
    void acquireB();
    bool isAcquiredByB() const { return !m_tokenB.isEmpty(); }

    const QByteArray& tokenA() const { return m_tokenA; }
    const QByteArray& tokenB() const { return m_tokenB; }
    // The monitor's current view of the resource (empty when it has none).
    LockView view() const;
    bool viewShows(const QByteArray& token) const;
    // The monitor marked A's lock at risk, in its view or by announcing the failover (latched: the
    // mark goes once B's token is read).
    bool wasMarkedAtRisk() const { return !m_atRiskReason.isEmpty(); }
    const QString& atRiskReason() const { return m_atRiskReason; }
    // The report says A's lock is gone from the new primary (lost, or held there under another token).
    bool reportLostA() const;
    // "A believes it holds it (token …), B holds it (token …)" and the at-risk mark; empty before A.
    QString holdersText() const;

signals:
    void changed();

private:
    void onGroupStarted();
    void setError(const QString& text);
    std::unique_ptr<RedisConnection> clientTo(quint16 port) const;

    DemoSentinelGroup m_group;
    std::unique_ptr<MasterSet> m_masters;
    std::unique_ptr<LockMonitor> m_monitor;
    std::unique_ptr<RedisConnection> m_clientA;
    std::unique_ptr<RedisConnection> m_clientB;
    QString m_error;
    QByteArray m_tokenA;
    QByteArray m_tokenB;
    qint64 m_waitAnswer = -1;
    bool m_replicationCut = false;
    std::optional<FailoverReport> m_report;
    QString m_atRiskReason;
};

} // namespace lockscope
