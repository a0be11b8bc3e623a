// SPDX-License-Identifier: Apache-2.0
#include "writes/teamauditwatch.h"

#include "audit/teamauditfeed.h"

namespace lockscope {

namespace {

// Records kept for the dialog, the newest: a team's whole trail is the database's to keep.
constexpr int maxRecords = 5000;

} // namespace

TeamAuditWatch::TeamAuditWatch(QObject* parent)
    : QObject(parent), m_feed(QStringLiteral("lockscope-team-audit"))
{}

TeamAuditWatch::~TeamAuditWatch() = default;

void TeamAuditWatch::follow(const std::optional<TeamDatabaseUrl>& url, const QString& password)
{
    m_feed.stop();
    m_records.clear();
    m_problem.clear();
    m_name = url ? url->toString() : QString();
    if (url) {
        auto* feed = new TeamAuditFeed(*url, password);
        connect(feed, &TeamAuditFeed::records, this, [this](const QList<QJsonObject>& records, bool earlier) {
            m_records += records;
            if (m_records.size() > maxRecords)
                m_records.remove(0, m_records.size() - maxRecords);
            emit changed();
            if (!earlier)
                emit arrived(records);
        });
        connect(feed, &TeamAuditFeed::problem, this, [this](const QString& problem) {
            m_problem = problem;
            emit changed();
        });
        m_feed.run(feed);
    }
    emit changed();
}

} // namespace lockscope
