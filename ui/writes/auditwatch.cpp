// SPDX-License-Identifier: Apache-2.0
#include "writes/auditwatch.h"

#include "writes/teamauditwatch.h"

#include "audit/auditlog.h"

#include <QMessageBox>
#include <QTimer>

namespace lockscope {

AuditWatch::AuditWatch(QWidget* window)
    : QObject(window), m_window(window), m_team(new TeamAuditWatch(this)), m_recheck(new QTimer(this))
{
    m_recheck->setSingleShot(true);
    m_recheck->setInterval(5000);
    connect(m_recheck, &QTimer::timeout, this, &AuditWatch::recheckDue);
    connect(m_team, &TeamAuditWatch::arrived, this, &AuditWatch::teamArrived);
}

void AuditWatch::check(const QString& path, bool allowShared)
{
    const RedisError error = AuditLog(path, allowShared).check();
    m_problem = error.isError() ? error.message : QString();
    // Someone may free space or fix the permissions: look again until it can be written.
    if (!m_problem.isEmpty())
        m_recheck->start();
}

void AuditWatch::showLost(const QString& path, const QString& message)
{
    auto* box = m_window->findChild<QMessageBox*>(QStringLiteral("auditLostDialog"));
    if (!box) {
        box = new QMessageBox(QMessageBox::Critical, tr("Write not recorded in the audit log"), QString(),
                              QMessageBox::Ok, m_window);
        box->setObjectName(QStringLiteral("auditLostDialog"));
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->setText(tr("A write went through on the masters, but its audit line could not be written. "
                        "Free space or fix the audit log (%1) before making further changes.")
                         .arg(path));
    }
    box->setDetailedText(box->detailedText().isEmpty() ? message
                                                       : box->detailedText() + QLatin1Char('\n') + message);
    box->setInformativeText(message);
    box->open();
}

void AuditWatch::followTeam(const std::optional<TeamDatabaseUrl>& url, const QString& password)
{
    m_team->follow(url, password);
}

} // namespace lockscope
