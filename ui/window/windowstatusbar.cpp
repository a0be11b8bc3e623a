// SPDX-License-Identifier: Apache-2.0
#include "window/windowstatusbar.h"

#include "locks/lockfilterproxy.h"
#include "locks/locktablemodel.h"
#include "masters/mastertablemodel.h"
#include "widgets/plaintooltip.h"
#include "widgets/scanscopetext.h"
#include "widgets/statusstyle.h"
#include "widgets/steadylabel.h"

#include <QLabel>
#include <QProgressBar>
#include <QToolButton>

namespace lockscope {

WindowStatusBar::WindowStatusBar(QWidget* parent)
    : QStatusBar(parent), m_readOnlyBadge(new QLabel(tr(" READ-ONLY "), this)),
      m_incidents(new QToolButton(this)), m_totals(new SteadyLabel(this)), m_mastersUp(new SteadyLabel(this)),
      m_scanScope(new QLabel(this)), m_progressBar(new QProgressBar(this))
{
    m_readOnlyBadge->setToolTip(
        tr("Every write is refused: acquire, extend, release and force-release are disabled."));
    QFont f = m_readOnlyBadge->font();
    f.setBold(true);
    m_readOnlyBadge->setFont(f);
    m_readOnlyBadge->setAutoFillBackground(true);
    m_readOnlyBadge->hide();
    m_scanScope->setObjectName(QStringLiteral("scanScope"));
    // Long pattern lists must not widen the window: the label takes the room there is, the
    // tooltip has all of it.
    m_scanScope->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_progressBar->setMaximumWidth(220);
    m_progressBar->setFormat(tr("scanning %p%"));
    m_progressBar->hide();
    m_incidents->setObjectName(QStringLiteral("incidentsBadge"));
    m_incidents->setAutoRaise(true);
    m_incidents->setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_incidents->hide();
    connect(m_incidents, &QToolButton::clicked, this, &WindowStatusBar::incidentsClicked);
    addWidget(m_readOnlyBadge);
    addWidget(m_incidents);
    addWidget(m_totals);
    addWidget(m_scanScope, 1);
    addPermanentWidget(m_progressBar);
    addPermanentWidget(m_mastersUp);
}

void WindowStatusBar::setStarted(bool readOnly, bool production, bool anythingToScan)
{
    // A production profile is marked whether or not its writes are unlocked: red once they are.
    m_readOnlyBadge->setVisible(readOnly || production);
    m_readOnlyBadge->setText(!production ? tr(" READ-ONLY ")
                             : readOnly  ? tr(" PRODUCTION · READ-ONLY ")
                                         : tr(" PRODUCTION · WRITES UNLOCKED "));
    m_readOnlyBadge->setToolTip(
        readOnly
            ? tr("Every write is refused: acquire, extend, release and force-release are disabled.%1")
                  .arg(production ? tr(" File > Unlock writes allows them for this session.") : QString())
            : tr("Writes on these production masters are unlocked for this session; File > Lock writes "
                 "again ends that."));
    QPalette badge = m_readOnlyBadge->palette();
    badge.setColor(QPalette::Window, readOnly ? StatusStyle::warningColor(palette())
                                              : StatusStyle::statusColor(LockStatus::Stuck, palette()));
    badge.setColor(QPalette::WindowText, palette().color(QPalette::Base));
    m_readOnlyBadge->setPalette(badge);
    m_progressBar->setValue(0);
    m_scanning = anythingToScan;
    m_progressBar->setVisible(m_scanning && m_anyMasterUp);
}

void WindowStatusBar::setScanProgress(int master, qint64 scanned, qint64 total)
{
    m_progress.insert(master, {scanned, total});
    qint64 done = 0;
    qint64 all = 0;
    for (const auto& [s, t] : std::as_const(m_progress)) {
        done += qMin(s, t);
        all += t;
    }
    m_progressBar->setVisible(m_scanning);
    m_progressBar->setValue(all > 0 ? int(done * 100 / all) : 0);
}

void WindowStatusBar::setReview(const QString& text)
{
    m_review = true;
    m_scanning = false;
    m_progressBar->hide();
    m_mastersUp->hide();
    m_totals->hide();
    m_scanScope->setText(text);
    m_scanScope->setToolTip(QString());
}

void WindowStatusBar::setScanFinished()
{
    m_scanning = false;
    m_progressBar->hide();
}

void WindowStatusBar::updateCounts(const LockTableModel& locks, const LockFilterProxy& proxy,
                                   const MasterTableModel& masters, const QList<ScanPattern>& patterns)
{
    if (m_review)
        return;
    const LockTableModel::StatusCounts& c = locks.counts();
    QStringList parts;
    parts << tr("%n lock(s)", nullptr, locks.rowCount());
    for (LockStatus s : {LockStatus::Held, LockStatus::Partial, LockStatus::Contested, LockStatus::Stuck,
                         LockStatus::Unknown})
        parts << QStringLiteral("%1 %2").arg(c[size_t(s)]).arg(StatusStyle::statusText(s));
    if (proxy.rowCount() != locks.rowCount())
        parts << tr("%n shown", nullptr, proxy.rowCount());
    m_totals->setSteadyText(parts.join(QStringLiteral(" · ")));
    m_mastersUp->setSteadyText(tr("%1 of %2 masters up").arg(masters.upCount()).arg(masters.rowCount()));
    // Nothing is scanned while no master is up: the count beside says why, the bar would not move.
    m_anyMasterUp = masters.upCount() > 0;
    m_progressBar->setVisible(m_scanning && m_anyMasterUp);
    QList<MasterSnapshot> snapshots;
    for (int i = 0; i < masters.rowCount(); ++i)
        snapshots << masters.snapshot(i);
    m_scanScope->setText(ScanScopeText::text(patterns, snapshots));
    m_scanScope->setToolTip(
        plainToolTip(m_scanScope->text() + QLatin1Char('\n') + ScanScopeText::toolTip(patterns)));
}

void WindowStatusBar::setIncidents(int alerting, int all)
{
    m_incidents->setVisible(all > 0);
    if (all == 0)
        return;
    m_incidents->setText(alerting > 0 ? tr("Two holders at once: %n", nullptr, alerting)
                                      : tr("Two holders at once: %n possible", nullptr, all));
    QPalette p = m_incidents->palette();
    p.setColor(QPalette::ButtonText,
               alerting > 0 ? StatusStyle::overlapColor() : palette().color(QPalette::WindowText));
    m_incidents->setPalette(p);
    m_incidents->setToolTip(tr("%n time(s) a lock let two holders in at once (probable or proven); %1 in all "
                               "with the possible ones. Click for the Incidents dock.",
                               nullptr, alerting)
                                .arg(all));
}

} // namespace lockscope
