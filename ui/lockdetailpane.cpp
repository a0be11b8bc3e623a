#include "lockdetailpane.h"

#include "bytesdisplay.h"
#include "durationtext.h"
#include "monotonicclock.h"
#include "plaintooltip.h"
#include "quorumdiagram.h"
#include "readonlyrows.h"
#include "statusstyle.h"

#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

namespace lockscope {

namespace {

QString reentry(const RecognizedLock& lock)
{
    if (lock.format != LockFormat::Redisson && lock.format != LockFormat::RedissonReadWrite)
        return QString();
    QStringList counts;
    for (const LockHolder& h : lock.holders)
        counts << QString::number(h.count);
    return counts.join(QStringLiteral(", "));
}

QString semaphoreHolders(const RecognizedLock& lock)
{
    if (lock.format != LockFormat::Semaphore)
        return QString();
    QStringList ids;
    for (const LockHolder& h : lock.holders)
        ids << (h.count > 1 ? QStringLiteral("%1×%2").arg(escapeBytes(h.id)).arg(h.count)
                            : escapeBytes(h.id));
    return QStringLiteral("%1: %2").arg(lock.holders.size()).arg(ids.join(QStringLiteral(", ")));
}

} // namespace

LockDetailPane::LockDetailPane(QWidget* parent)
    : QWidget(parent), m_title(new QLabel(this)), m_summary(new QLabel(this)),
      m_diagram(new QuorumDiagram(this)), m_table(new QTableWidget(0, ColumnCount, this))
{
    // Key names and owners are whatever a lock's writer chose: never taken for rich text.
    m_title->setTextFormat(Qt::PlainText);
    m_summary->setTextFormat(Qt::PlainText);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont f = m_title->font();
    f.setBold(true);
    f.setPointSizeF(f.pointSizeF() * 1.15);
    m_title->setFont(f);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setWordWrap(true);
    m_table->setHorizontalHeaderLabels({tr("Master"), tr("Token"), tr("PTTL"), tr("Type"), tr("Owner"),
                                        tr("Re-entry"), tr("Semaphore holders"), tr("Error")});
    setUpReadOnlyRows(m_table);

    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_diagram);
    split->addWidget(m_table);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_title);
    layout->addWidget(m_summary);
    layout->addWidget(split, 1);
    setView(std::nullopt);
}

void LockDetailPane::setView(const std::optional<LockView>& view)
{
    m_view = view;
    m_diagram->setView(view, m_names);
    if (!view) {
        m_title->setText(tr("No lock selected"));
        m_summary->clear();
        m_table->setRowCount(0);
        return;
    }
    const LockView& v = *view;
    m_title->setText(escapeBytes(v.resource));
    const qint64 left = v.validityAt(monotonicMs());
    QString summary =
        tr("%1 — %2 · format %3 · owner %4 · token %5 · validity %6")
            .arg(StatusStyle::statusText(v.status), StatusStyle::statusExplanation(v.status),
                 lockFormatName(v.format), v.owner.isEmpty() ? tr("unknown") : v.owner, escapeBytes(v.token),
                 left >= 0 ? DurationText::format(left) : tr("no expiry"));
    if (v.atRisk)
        summary += QLatin1Char('\n') + tr("At risk: %1").arg(v.atRiskReason);
    m_summary->setText(summary);

    m_table->setRowCount(int(v.observations.size()));
    for (int i = 0; i < v.observations.size(); ++i) {
        const MasterObservation& m = v.observations.at(i);
        const bool present = m.present() && !m.error().isError();
        const QStringList cells{
            m_names.value(i, tr("master %1").arg(i + 1)),
            present ? escapeBytes(m.lock().token) : QString(),
            present ? (m.pttlMs() >= 0 ? tr("%1 ms").arg(m.pttlMs()) : tr("no expiry")) : QString(),
            present ? escapeBytes(m.type()) : (m.error().isError() ? QString() : tr("absent")),
            present ? m.lock().owner : QString(),
            present ? reentry(m.lock()) : QString(),
            present ? semaphoreHolders(m.lock()) : QString(),
            m.error().isError() ? m.error().message : QString(),
        };
        for (int c = 0; c < cells.size(); ++c) {
            auto* item = m_table->item(i, c);
            if (!item) {
                item = new QTableWidgetItem;
                m_table->setItem(i, c, item);
            }
            item->setText(cells.at(c));
            item->setToolTip(plainToolTip(cells.at(c)));
        }
        if (present && !m.lock().detail.isEmpty())
            m_table->item(i, OwnerColumn)
                ->setToolTip(plainToolTip(m.lock().owner + QLatin1Char('\n') + m.lock().detail));
        if (present)
            m_table->item(i, TokenColumn)->setForeground(StatusStyle::tokenColor(m.lock().token, palette()));
    }
}

} // namespace lockscope
