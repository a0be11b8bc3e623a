// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "monitor/failoverreport.h"
#include "session/forcereleasereport.h"
#include "session/keyspaceeventrecord.h"
#include "session/mastersnapshot.h"
#include "session/redlockreport.h"

#include <QJsonObject>
#include <QObject>
#include <QStringList>

#include <functional>

namespace lockscope {

class EventLogModel;

// What the core reports, in the event log's words: masters coming and going, keyspace events,
// the window's own writes and their verdicts, failovers. Server bytes are escaped here.
class CoreEventLog final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CoreEventLog)

public:
    CoreEventLog(EventLogModel* events, QObject* parent) : QObject(parent), m_events(events) {}

    // Keyspace events `taken` returns true for are accounted for elsewhere and not listed one by
    // one (the demo summarises its own simulated clients' events).
    void setKeyspaceEventFilter(std::function<bool(const KeyspaceEventRecord&)> taken)
    {
        m_keyspaceTaken = std::move(taken);
    }
    // A core started with these masters (index = master).
    void setMasterNames(const QStringList& names);
    // `before` is the master's previous snapshot (a default one the first time).
    void masterChanged(const MasterSnapshot& snapshot, const MasterSnapshot& before);
    void keyspaceEvents(const QList<KeyspaceEventRecord>& events, int dropped);
    // Logs the verdict and returns the line (the status bar shows it too).
    QString redlockFinished(const RedlockReport& report);
    void forceReleaseFinished(const ForceReleaseReport& report);
    // New records of the team's audit trail (--team-db): another process's force-release,
    // keyspace-events change or production unlock, as it is committed (this window's own writes are
    // logged as they finish).
    void teamWrites(const QList<QJsonObject>& records);
    void leaseLost(const QByteArray& resource, const QString& reason);
    void failoverDetected(int master, const PrimaryChange& change, int atRisk);
    void failoverReported(const FailoverReport& report);

private:
    EventLogModel* m_events;
    QStringList m_masterNames;
    QList<int> m_lastMasterState; // int(RedisConnection::State) last logged per master, -1 for none
    std::function<bool(const KeyspaceEventRecord&)> m_keyspaceTaken;
};

} // namespace lockscope
