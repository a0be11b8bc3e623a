// SPDX-License-Identifier: Apache-2.0
#include "audit/teamlistener.h"

#include <QSqlDriver>
#include <QSqlError>
#include <QSqlQuery>
#include <QTimer>

namespace lockscope {

TeamListener::TeamListener(TeamDatabaseUrl url, QString password, QString channel, QObject* parent)
    : QObject(parent), m_url(std::move(url)), m_password(std::move(password)), m_channel(std::move(channel)),
      m_retry(new QTimer(this)), m_ping(new QTimer(this))
{
    m_retry->setSingleShot(true);
    m_retry->setInterval(retryMs);
    connect(m_retry, &QTimer::timeout, this, &TeamListener::connectAndListen);
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

TeamListener::~TeamListener() = default;

void TeamListener::start()
{
    connectAndListen();
}

void TeamListener::stop()
{
    m_retry->stop();
    m_ping->stop();
    m_db.reset();
}

TeamDatabase* TeamListener::database()
{
    return m_db && m_db->isOpen() && !m_retry->isActive() ? m_db.get() : nullptr;
}

void TeamListener::failed(const QString& message)
{
    // The connection is replaced when the retry connects again, not here: a read that failed in
    // the handler of the driver's own notification signal must not delete the driver under it.
    emit problem(message);
    m_ping->stop();
    m_retry->start();
}

void TeamListener::connectAndListen()
{
    m_db = std::make_unique<TeamDatabase>();
    if (const RedisError e = m_db->open(m_url, m_password); e.isError())
        return failed(e.message);
    QSqlDriver* driver = m_db->db().driver();
    // Subscribed before the first read: what is committed in between is told, not lost.
    if (!driver->subscribeToNotification(m_channel))
        return failed(
            m_db->error(QStringLiteral("cannot listen on %1").arg(m_channel), driver->lastError()).message);
    connect(driver, &QSqlDriver::notification, this, [this](const QString& name) {
        if (name == m_channel)
            emit notified();
    });
    emit problem(QString());
    m_ping->start();
    emit listening();
}

} // namespace lockscope
