// SPDX-License-Identifier: Apache-2.0
#include "record/teamrecordingfeed.h"

#include "audit/teamlistener.h"
#include "record/teameventtable.h"

#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

namespace lockscope {

TeamRecordingFeed::TeamRecordingFeed(TeamDatabaseUrl url, QString password, QObject* parent)
    : QObject(parent),
      m_listener(new TeamListener(std::move(url), std::move(password),
                                  QString::fromLatin1(TeamEventTable::notificationChannel), this))
{
    connect(m_listener, &TeamListener::problem, this, &TeamRecordingFeed::problem);
    connect(m_listener, &TeamListener::listening, this, [this] { fetchNew(true); });
    connect(m_listener, &TeamListener::notified, this, [this] { fetchNew(false); });
}

TeamRecordingFeed::~TeamRecordingFeed() = default;

std::unique_ptr<TeamRecordingFeed> TeamRecordingFeed::of(const QString& recording, const QString& password)
{
    const Result<TeamDatabaseUrl> url = TeamDatabaseUrl::parse(recording);
    if (!isTeamDatabase(recording) || !url)
        return nullptr;
    return std::make_unique<TeamRecordingFeed>(*url, password);
}

bool TeamRecordingFeed::isTeamDatabase(const QString& recording)
{
    return TeamDatabaseUrl::isPostgresUrl(recording);
}

void TeamRecordingFeed::start()
{
    m_listener->start();
}

void TeamRecordingFeed::stop()
{
    m_listener->stop();
}

bool TeamRecordingFeed::readNewestId(TeamDatabase& db, qint64* id)
{
    QSqlQuery q(db.db());
    if (q.exec(QStringLiteral("SELECT coalesce(max(id), 0) FROM lockscope.events")) && q.next()) {
        *id = q.value(0).toLongLong();
        return true;
    }
    m_listener->failed(db.error(QStringLiteral("cannot read the recording"), q.lastError()).message);
    return false;
}

void TeamRecordingFeed::fetchNew(bool all)
{
    TeamDatabase* db = m_listener->database();
    if (!db)
        return;
    if (all) {
        // (Again) from the newest event: what came before is read by whoever reads it all now.
        if (readNewestId(*db, &m_lastId))
            emit committed({}, true, true);
        return;
    }
    QSqlQuery q(db->db());
    q.setForwardOnly(true);
    // One row per resource however many events it has (a master event's resource is NULL).
    q.prepare(
        QStringLiteral("SELECT r.name, max(e.id) FROM lockscope.events e LEFT JOIN lockscope.resources r "
                       "ON r.id = e.resource WHERE e.id > ? GROUP BY r.name LIMIT ?"));
    q.addBindValue(m_lastId);
    q.addBindValue(maxResourcesTold + 1);
    if (!q.exec())
        return m_listener->failed(
            db->error(QStringLiteral("cannot read the recording"), q.lastError()).message);
    QByteArrayList resources;
    bool masters = false;
    qint64 last = m_lastId;
    while (q.next()) {
        last = qMax(last, q.value(1).toLongLong());
        if (q.value(0).isNull())
            masters = true;
        else
            resources << q.value(0).toByteArray();
    }
    if (last == m_lastId) {
        // No new event: a recorder's session began or ended (what is shown may end there now).
        emit committed({}, true, false);
        return;
    }
    const bool tooMany = resources.size() > maxResourcesTold;
    if (tooMany) {
        // The ids past the ones read are told next time in full, so read the newest id now.
        if (!readNewestId(*db, &last))
            return;
        resources.clear();
    }
    m_lastId = last;
    emit committed(resources, masters, tooMany);
}

} // namespace lockscope
