// SPDX-License-Identifier: Apache-2.0
#include "audit/teamauditfeed.h"

#include "audit/teamauditlog.h"
#include "audit/teamauditreader.h"
#include "audit/teamlistener.h"

#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

namespace lockscope {

namespace {

// The newest records read at start.
constexpr int initialRecords = 5000;
// How far below the newest id sent a record may still commit (ids are taken before commit).
constexpr qint64 reorderWindow = 256;

} // namespace

TeamAuditFeed::TeamAuditFeed(TeamDatabaseUrl url, QString password, QObject* parent)
    : QObject(parent),
      m_listener(new TeamListener(std::move(url), std::move(password),
                                  QString::fromLatin1(TeamAuditLog::notificationChannel), this))
{
    connect(m_listener, &TeamListener::problem, this, &TeamAuditFeed::problem);
    connect(m_listener, &TeamListener::listening, this, &TeamAuditFeed::fetchNew);
    connect(m_listener, &TeamListener::notified, this, &TeamAuditFeed::fetchNew);
}

TeamAuditFeed::~TeamAuditFeed() = default;

void TeamAuditFeed::start()
{
    m_listener->start();
}

void TeamAuditFeed::stop()
{
    m_listener->stop();
}

void TeamAuditFeed::fetchNew()
{
    TeamDatabase* db = m_listener->database();
    if (!db)
        return;
    QSqlQuery q(db->db());
    q.setForwardOnly(true);
    const bool earlier = m_lastId < 0;
    if (earlier) {
        // The newest records, then every one after them.
        q.prepare(
            QStringLiteral("SELECT id, writer, record FROM (SELECT id, writer, record FROM lockscope.audit "
                           "ORDER BY id DESC LIMIT ?) newest ORDER BY id"));
        q.addBindValue(initialRecords);
    } else {
        // Rows commit out of their ids' order when several programs write at once: a row numbered
        // below the newest one sent may still come. The last reorderWindow ids are read again and
        // the ones already sent skipped.
        q.prepare(QStringLiteral("SELECT id, writer, record FROM lockscope.audit WHERE id > ? ORDER BY id"));
        q.addBindValue(m_lastId - reorderWindow);
    }
    if (!q.exec())
        return m_listener->failed(
            db->error(QStringLiteral("cannot read the audit records"), q.lastError()).message);
    QList<QJsonObject> out;
    qint64 last = qMax<qint64>(m_lastId, 0);
    while (q.next()) {
        const qint64 id = q.value(0).toLongLong();
        if (m_sent.contains(id))
            continue;
        m_sent.insert(id);
        last = qMax(last, id);
        out << TeamAuditReader::recordOf(q.value(1).toString(), q.value(2).toString());
    }
    m_lastId = last;
    m_sent.removeIf([this](qint64 id) { return id <= m_lastId - reorderWindow; });
    if (!out.isEmpty())
        emit records(out, earlier);
}

} // namespace lockscope
