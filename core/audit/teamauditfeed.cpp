// SPDX-License-Identifier: Apache-2.0
#include "audit/teamauditfeed.h"

#include "audit/teamauditlog.h"
#include "audit/teamauditreader.h"

#include <QSqlDriver>
#include <QSqlError>
#include <QSqlQuery>
#include <QTimer>
#include <QVariant>

namespace lockscope {

TeamAuditFeed::TeamAuditFeed(TeamDatabaseUrl url, QString password, QObject* parent)
    : QObject(parent), m_url(std::move(url)), m_password(std::move(password)), m_retry(new QTimer(this)),
      m_ping(new QTimer(this))
{
    m_retry->setSingleShot(true);
    m_retry->setInterval(retryMs);
    connect(m_retry, &QTimer::timeout, this, &TeamAuditFeed::connectAndListen);
    // A listening connection hears nothing when the server goes away: one round trip now and then
    // tells, and the retry listens again and reads what was missed.
    m_ping->setInterval(retryMs);
    connect(m_ping, &QTimer::timeout, this, [this] {
        if (!m_db || m_retry->isActive())
            return;
        // The driver closes a connection whose socket it found shut: that is a loss too.
        if (!m_db->isOpen())
            return failed(QStringLiteral("team database %1: connection lost").arg(m_url.toString()));
        QSqlQuery q(m_db->db());
        if (!q.exec(QStringLiteral("SELECT 1")))
            failed(m_db->error(QStringLiteral("connection lost"), q.lastError()).message);
    });
}

TeamAuditFeed::~TeamAuditFeed() = default;

void TeamAuditFeed::start()
{
    connectAndListen();
}

void TeamAuditFeed::stop()
{
    m_retry->stop();
    m_ping->stop();
    m_db.reset();
}

void TeamAuditFeed::failed(const QString& message)
{
    // The connection is replaced when the retry connects again, not here: a read that failed in
    // the handler of the driver's own notification signal must not delete the driver under it.
    emit problem(message);
    m_ping->stop();
    m_retry->start();
}

void TeamAuditFeed::connectAndListen()
{
    m_db = std::make_unique<TeamDatabase>();
    if (const RedisError e = m_db->open(m_url, m_password); e.isError())
        return failed(e.message);
    QSqlDriver* driver = m_db->db().driver();
    // Subscribed before the first read: a record committed in between is told, not lost.
    if (!driver->subscribeToNotification(QString::fromLatin1(TeamAuditLog::notificationChannel)))
        return failed(
            m_db->error(QStringLiteral("cannot listen for new records"), driver->lastError()).message);
    connect(driver, &QSqlDriver::notification, this, [this](const QString& name) {
        if (name == QLatin1String(TeamAuditLog::notificationChannel))
            fetchNew();
    });
    emit problem(QString());
    m_ping->start();
    fetchNew();
}

void TeamAuditFeed::fetchNew()
{
    if (!m_db || !m_db->isOpen() || m_retry->isActive())
        return;
    QSqlQuery q(m_db->db());
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
        return failed(m_db->error(QStringLiteral("cannot read the audit records"), q.lastError()).message);
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
