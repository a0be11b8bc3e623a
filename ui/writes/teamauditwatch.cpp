// SPDX-License-Identifier: Apache-2.0
#include "writes/teamauditwatch.h"

#include "audit/teamauditfeed.h"

namespace lockscope {

TeamAuditWatch::TeamAuditWatch(QObject* parent) : QObject(parent)
{
    m_thread.setObjectName(QStringLiteral("lockscope-team-audit"));
}

TeamAuditWatch::~TeamAuditWatch()
{
    stop();
}

void TeamAuditWatch::stop()
{
    if (!m_feed)
        return;
    // The feed's connection closes on its own thread; a connection to a server that does not
    // answer is left to the driver's connect timeout (the URL's, 5 s by default).
    QMetaObject::invokeMethod(
        m_feed,
        [feed = m_feed] {
            feed->stop();
            feed->moveToThread(nullptr);
        },
        Qt::BlockingQueuedConnection);
    m_thread.quit();
    m_thread.wait();
    delete m_feed;
    m_feed = nullptr;
}

void TeamAuditWatch::follow(const std::optional<TeamDatabaseUrl>& url, const QString& password)
{
    stop();
    m_records.clear();
    m_problem.clear();
    m_name = url ? url->toString() : QString();
    if (url) {
        m_feed = new TeamAuditFeed(*url, password);
        m_feed->moveToThread(&m_thread);
        connect(m_feed, &TeamAuditFeed::records, this,
                [this](const QList<QJsonObject>& records, bool earlier) {
                    m_records += records;
                    if (m_records.size() > maxRecords)
                        m_records.remove(0, m_records.size() - maxRecords);
                    emit changed();
                    if (!earlier)
                        emit arrived(records);
                });
        connect(m_feed, &TeamAuditFeed::problem, this, [this](const QString& problem) {
            m_problem = problem;
            emit changed();
        });
        m_thread.start();
        QMetaObject::invokeMethod(m_feed, &TeamAuditFeed::start, Qt::QueuedConnection);
    }
    emit changed();
}

} // namespace lockscope
