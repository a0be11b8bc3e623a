// SPDX-License-Identifier: Apache-2.0
#include "eventlog/coreeventlog.h"

#include "base/bytesdisplay.h"
#include "base/localidentity.h"
#include "eventlog/eventlogmodel.h"
#include "monitor/mastereventtext.h"
#include "widgets/statusstyle.h"

#include <QCoreApplication>
#include <QJsonArray>

namespace lockscope {

void CoreEventLog::setMasterNames(const QStringList& names)
{
    m_masterNames = names;
    m_lastMasterState = QList<int>(names.size(), -1);
}

void CoreEventLog::masterChanged(const MasterSnapshot& snapshot, const MasterSnapshot& before)
{
    const int previous = m_lastMasterState.value(snapshot.index, -1);
    // Retries flip a dead master between "reconnecting" and "down" every few seconds: only the
    // changes a person acts on (up, down, closed) are logged.
    const bool worthLogging = snapshot.state == RedisConnection::State::Up ||
                              snapshot.state == RedisConnection::State::Down ||
                              snapshot.state == RedisConnection::State::Disconnected;
    if (previous != int(snapshot.state) && worthLogging) {
        if (snapshot.index < m_lastMasterState.size())
            m_lastMasterState[snapshot.index] = int(snapshot.state);
        const bool bad = snapshot.state == RedisConnection::State::Down;
        m_events->add(bad ? EventLogModel::Kind::Error : EventLogModel::Kind::Master, snapshot.name,
                      snapshot.error.isEmpty()
                          ? StatusStyle::masterStateText(snapshot.state)
                          : tr("%1: %2").arg(StatusStyle::masterStateText(snapshot.state), snapshot.error));
    }
    if (snapshot.restartedAt.isValid() && snapshot.restartedAt != before.restartedAt)
        m_events->add(EventLogModel::Kind::Error, snapshot.name,
                      tr("restarted: %1").arg(MasterEventText::restarted()));
    if (snapshot.mode != before.mode && snapshot.mode != NotificationMode::Unknown)
        m_events->add(
            EventLogModel::Kind::Master, snapshot.name,
            snapshot.modeReason.isEmpty()
                ? tr("notifications: %1").arg(notificationModeName(snapshot.mode))
                : tr("notifications: %1 (%2)").arg(notificationModeName(snapshot.mode), snapshot.modeReason));
}

void CoreEventLog::keyspaceEvents(const QList<KeyspaceEventRecord>& events, int dropped)
{
    QList<EventLogModel::Entry> entries;
    entries.reserve(events.size() + 1);
    for (const KeyspaceEventRecord& e : events)
        if (!m_keyspaceTaken || !m_keyspaceTaken(e))
            entries << EventLogModel::Entry{e.time, EventLogModel::Kind::Keyspace,
                                            m_masterNames.value(e.master),
                                            tr("%1 %2").arg(escapeBytes(e.event), escapeBytes(e.key))};
    if (dropped > 0)
        entries << EventLogModel::Entry{QDateTime::currentDateTime(), EventLogModel::Kind::Keyspace,
                                        tr("monitor"),
                                        tr("%n more keyspace event(s) not listed", nullptr, dropped)};
    m_events->addAll(entries);
}

QString CoreEventLog::redlockFinished(const RedlockReport& report)
{
    const RedlockOutcome& o = report.outcome;
    QString text = tr("%1: %2 (%3 of %4 masters, %5 needed)")
                       .arg(report.action, writeVerdictName(o.verdict))
                       .arg(o.succeeded)
                       .arg(o.total)
                       .arg(o.needed);
    if (!o.error.message.isEmpty())
        text += QStringLiteral(" — ") + o.error.message;
    if (o.auditError.isError())
        text += QStringLiteral(" — ") + tr("audit log: %1").arg(o.auditError.message);
    m_events->add(o.ok() ? EventLogModel::Kind::Action : EventLogModel::Kind::Error,
                  escapeBytes(report.resource), text);
    return text;
}

void CoreEventLog::forceReleaseFinished(const ForceReleaseReport& report)
{
    QStringList perMaster;
    for (const ForceReleaseMasterResult& r : report.outcome.results)
        perMaster << QStringLiteral("%1: %2").arg(r.master, forceReleaseActionName(r.action));
    m_events->add(
        report.outcome.ok() ? EventLogModel::Kind::Action : EventLogModel::Kind::Error,
        escapeBytes(report.plan.request.resource),
        tr("force-release: %1 (%2)").arg(report.outcome.outcomeText(), perMaster.join(QStringLiteral("; "))));
}

void CoreEventLog::teamWrites(const QList<QJsonObject>& records)
{
    const QString host = LocalIdentity::host();
    const qint64 pid = QCoreApplication::applicationPid();
    for (const QJsonObject& r : records) {
        const QString action = r.value(QStringLiteral("action")).toString();
        if (action != QStringLiteral("force-release") && action != QStringLiteral("enable-events") &&
            action != QStringLiteral("unlock-writes"))
            continue;
        if (r.value(QStringLiteral("host")).toString() == host &&
            r.value(QStringLiteral("pid")).toInteger() == pid)
            continue; // ours
        QStringList perMaster;
        for (const QJsonValue& m : r.value(QStringLiteral("results")).toArray())
            perMaster << QStringLiteral("%1: %2").arg(escapeText(m[QStringLiteral("master")].toString()),
                                                      escapeText(m[QStringLiteral("result")].toString()));
        const QString outcome = escapeText(r.value(QStringLiteral("outcome")).toString());
        // Written by others: every value escaped before it reaches the log.
        m_events->add(EventLogModel::Kind::Action, escapeText(r.value(QStringLiteral("resource")).toString()),
                      tr("%1 by %2 (team audit trail): %3")
                          .arg(escapeText(action), escapeText(r.value(QStringLiteral("writer")).toString()),
                               perMaster.isEmpty()
                                   ? outcome
                                   : tr("%1 (%2)").arg(outcome, perMaster.join(QStringLiteral("; ")))));
    }
}

void CoreEventLog::leaseLost(const QByteArray& resource, const QString& reason)
{
    m_events->add(EventLogModel::Kind::Error, escapeBytes(resource), tr("lock lost: %1").arg(reason));
}

void CoreEventLog::failoverDetected(int master, const PrimaryChange& change, int atRisk)
{
    m_events->add(EventLogModel::Kind::Master, m_masterNames.value(master),
                  tr("failover %1").arg(MasterEventText::failoverDetected(change, atRisk)));
}

void CoreEventLog::failoverReported(const FailoverReport& report)
{
    m_events->add(report.hasHazard() ? EventLogModel::Kind::Error : EventLogModel::Kind::Master,
                  m_masterNames.value(report.master),
                  tr("failover %1 → %2 read through: lost on the new primary: %3; held there under "
                     "another token: %4")
                      .arg(report.change.oldPrimary.toString(), report.change.newPrimary.toString(),
                           MasterEventText::lostLocks(report), MasterEventText::changedTokens(report)));
}

} // namespace lockscope
