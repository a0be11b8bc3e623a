// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "connection/connectionoptions.h"
#include "support/redisserver.h"
#include "support/redisservergroup.h"

#include <QByteArrayList>
#include <QProcess>
#include <QStringList>

#include <memory>

// tst_uifaultmatrix's fixture: three masters, two healthy and one with a fault, and what every
// client of the core must say about that fault.
namespace lockscope::test {

enum class Fault
{
    Killed,
    Paused,
    Restarted,
    Slowed,
    RefusedAtStart,
    TlsPortWithPlainTcp,
    ClosesMidReply,
    OutOfMemory,
    ReadOnlyReplica,
    NoPermission,
};

class HalfReplyPeer;

// One row's cluster: two healthy masters and the faulty third.
class FaultCluster
{
public:
    enum class Start
    {
        Healthy, // the faults that strike a running master wait for strike()
        Struck,  // struck at once
    };
    // The cluster of the running test row's "fault" column, started. The faults that strike a
    // running master strike when told; the others are there from the start.
    explicit FaultCluster(Start when);
    ~FaultCluster();
    FaultCluster(const FaultCluster&) = delete;
    FaultCluster& operator=(const FaultCluster&) = delete;

    // Whether its servers started; why not, when not.
    bool started() const { return m_problem.isEmpty(); }
    const QString& problem() const { return m_problem; }
    Fault fault() const { return m_fault; }

    void strike();

    // Whether the master can come back, and bringing it back.
    bool canRecover() const;
    void recover();
    // Whether the fault takes the master away (as opposed to refusing some commands).
    bool takesMasterAway() const;
    // Words one of which the third master's error must contain.
    QStringList reasonWords() const;

    QStringList masterArgs();
    QList<ConnectionOptions> connectionOptions(int timeoutMs);
    // The third master's name as every message shows it (no password).
    QString thirdName() const { return RedisUrl::parse(m_thirdUrl)->toString(); }

    // Every master's keyspace as one fingerprint: keys, types and values (TTLs left out).
    QByteArray fingerprint(int master);
    // The two healthy masters' fingerprints: a fault on the third must leave them as they were.
    QByteArrayList healthyFingerprints() { return {fingerprint(0), fingerprint(1)}; }
    RedisServer& healthy(int i) { return m_healthy.at(i); }

private:
    bool start(QString* why);
    // Whether the sleeping master has stopped answering: a PING on a new connection (refused with
    // NOAUTH while it is awake, which is an answer too) gets no reply within 300 ms.
    bool waitUntilAsleep() const;

    Fault m_fault;
    RedisServerGroup m_healthy;
    std::unique_ptr<RedisServer> m_third;
    std::unique_ptr<RedisServer> m_source; // the replica's master
    std::unique_ptr<HalfReplyPeer> m_peer; // the third master when it closes mid-reply
    std::unique_ptr<QProcess> m_sleeper;
    int m_sleepS = 5; // how long DEBUG SLEEP keeps the third master away
    QString m_thirdUrl;
    QString m_problem;
};

// Whether `text` contains one of `words`, in any case.
bool mentionsAny(const QString& text, const QStringList& words);

} // namespace lockscope::test
