// SPDX-License-Identifier: Apache-2.0
#include "record/recordingsink.h"

#include "base/localidentity.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSqlQuery>
#include <QVariant>

#include <limits>
#include <utility>

namespace lockscope {

RecordingSink::RecordingSink(const RecorderOptions& options, std::shared_ptr<Counters> counters)
    : m_counters(std::move(counters)), m_audit(options.auditLogPath),
      m_heartbeatMs(qMax(50, options.auditPollMs)), m_pruneIntervalMs(qMax(100, options.pruneIntervalMs))
{
    m_heartbeat.setParent(this);
    m_pruneTimer.setParent(this);
}

bool RecordingSink::quietWriteDue() const
{
    return QDateTime::currentMSecsSinceEpoch() - m_lastCommitMs >= 1000;
}

void RecordingSink::sessionBegan()
{
    m_lastCommitMs = QDateTime::currentMSecsSinceEpoch();
    m_audit.skipToEnd();
    connect(&m_heartbeat, &QTimer::timeout, this, &RecordingSink::heartbeat);
    m_heartbeat.start(m_heartbeatMs);
    connect(&m_pruneTimer, &QTimer::timeout, this, &RecordingSink::pruneNow);
    m_pruneTimer.start(m_pruneIntervalMs);
    emit opened({});
    pruneNow();
}

void RecordingSink::heartbeat()
{
    if (!isOpen())
        return;
    RecordEventList audited = m_audit.poll();
    if (!audited.isEmpty()) {
        m_counters->backlog += audited.size();
        write(audited);
    } else if (quietWriteDue()) {
        // A quiet second still moves the session's end: where it stops is where nobody watched.
        write({});
    }
}

void RecordingSink::stopTimers()
{
    m_heartbeat.stop();
    m_pruneTimer.stop();
}

void RecordingSink::tellCommitted(const RecordEventList& events, CommittedBatch& batch, qint64 session,
                                  int masters)
{
    m_counters->written += events.size();
    if (events.isEmpty())
        return;
    batch.events = events;
    batch.session = session;
    batch.masters = masters;
    emit committed(std::exchange(batch, {}));
}

void RecordingSink::endSession(QSqlDatabase& db, qint64 session)
{
    QSqlQuery q(db);
    q.prepare(QStringLiteral("UPDATE sessions SET last = ?, ended = ? WHERE id = ?"));
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    q.addBindValue(now);
    q.addBindValue(now);
    q.addBindValue(session);
    q.exec();
}

QString RecordingSink::recorderName()
{
    return QStringLiteral("%1@%2/%3:%4")
        .arg(LocalIdentity::user(), LocalIdentity::host(),
             QFileInfo(QCoreApplication::applicationFilePath()).fileName())
        .arg(LocalIdentity::pid());
}

QString RecordingSink::mastersJson(const QStringList& masterNames)
{
    return QString::fromUtf8(
        QJsonDocument(QJsonArray::fromStringList(masterNames)).toJson(QJsonDocument::Compact));
}

QString RecordingSink::storedText(const QString& text)
{
    constexpr qsizetype maxStoredTextChars = 512;
    if (text.size() <= maxStoredTextChars)
        return text;
    qsizetype n = maxStoredTextChars;
    if (text.at(n - 1).isHighSurrogate())
        --n; // never half a character
    return text.left(n) + QStringLiteral("…");
}

QString RecordingSink::idsRunOut(const char* table, qint64 largest, qsizetype wanted)
{
    if (largest <= std::numeric_limits<qint64>::max() - qint64(wanted))
        return {};
    return QStringLiteral("the recording's %1 ids run out (its largest is %2): the store is damaged; "
                          "record into another one")
        .arg(QLatin1String(table))
        .arg(largest);
}

} // namespace lockscope
