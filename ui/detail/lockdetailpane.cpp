// SPDX-License-Identifier: Apache-2.0
#include "detail/lockdetailpane.h"

#include "base/bytesdisplay.h"
#include "base/durationformat.h"
#include "base/monotonicclock.h"
#include "detail/quorumdiagram.h"
#include "widgets/plaintooltip.h"
#include "widgets/pttltext.h"
#include "widgets/readonlyrows.h"
#include "widgets/statusstyle.h"

#include <QHeaderView>
#include <QLabel>
#include <QScrollArea>
#include <QScrollBar>
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
    for (const LockHolder& h : lock.holderList())
        counts << QString::number(h.count);
    return counts.join(QStringLiteral(", "));
}

QString semaphoreHolders(const RecognizedLock& lock)
{
    if (lock.format != LockFormat::Semaphore)
        return QString();
    QStringList ids;
    const QList<LockHolder> holders = lock.holderList();
    for (const LockHolder& h : holders)
        ids << (h.count > 1 ? QStringLiteral("%1×%2").arg(escapeBytes(h.id)).arg(h.count)
                            : escapeBytes(h.id));
    return QStringLiteral("%1: %2").arg(holders.size()).arg(ids.join(QStringLiteral(", ")));
}

} // namespace

LockDetailPane::LockDetailPane(QWidget* parent)
    : QWidget(parent), m_title(new QLabel(this)), m_summary(new QLabel(this)),
      m_validityLabel(new QLabel(this)), m_diagnosis(new QLabel(this)), m_incidents(new QLabel(this)),
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
    // A long key name must not make the pane as wide as itself: it is cut at the pane's edge
    // (and selectable, and whole in the locks table's tooltip).
    m_title->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setWordWrap(true);
    m_validityLabel->setObjectName(QStringLiteral("validity"));
    m_validityLabel->setTextFormat(Qt::PlainText);
    m_validityLabel->setWordWrap(false);
    m_validityLabel->setFont(f);
    // Sentences built from key names and owners: plain text, selectable, wrapped.
    m_diagnosis->setObjectName(QStringLiteral("diagnosis"));
    m_diagnosis->setTextFormat(Qt::PlainText);
    m_diagnosis->setWordWrap(true);
    m_diagnosis->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_diagnosis->hide();
    // Two holders at once: the worst this pane can say of a lock, in the colour the timelines
    // draw the overlap in.
    m_incidents->setObjectName(QStringLiteral("incidents"));
    m_incidents->setTextFormat(Qt::PlainText);
    m_incidents->setWordWrap(true);
    m_incidents->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QPalette overlap = m_incidents->palette();
    overlap.setColor(QPalette::WindowText, StatusStyle::overlapColor());
    m_incidents->setPalette(overlap);
    m_incidents->hide();
    m_table->setHorizontalHeaderLabels({tr("Master"), tr("Token"), tr("PTTL"), tr("Type"), tr("Owner"),
                                        tr("Re-entry"), tr("Semaphore holders"), tr("Error")});
    setUpReadOnlyRows(m_table);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 8);

    auto* split = m_split = new QSplitter(Qt::Horizontal, this);
    split->setObjectName(QStringLiteral("detailSplit"));
    split->addWidget(m_diagram);
    split->addWidget(m_table);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    // Dragged to one side, the diagram would be clipped mid-label rather than shrink.
    split->setCollapsible(0, false);
    split->setCollapsible(1, false);

    // Everything scrolls: the window gives the pane what the locks table leaves, which can be little.
    auto* content = new QWidget(this);
    auto* layout = new QVBoxLayout(content);
    layout->setContentsMargins(4, 4, 4, 4);
    auto* titleRow = new QHBoxLayout;
    titleRow->addWidget(m_title, 1);
    titleRow->addWidget(m_validityLabel);
    layout->addLayout(titleRow);
    layout->addWidget(m_summary);
    layout->addWidget(m_incidents);
    layout->addWidget(m_diagnosis);
    layout->addWidget(split, 1);
    auto* scroll = m_scroll = new QScrollArea(this);
    scroll->setObjectName(QStringLiteral("detailScroll"));
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidgetResizable(true);
    scroll->setWidget(content);
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(scroll);

    m_tick.setInterval(tickMs);
    connect(&m_tick, &QTimer::timeout, this, &LockDetailPane::refreshTimes);
    setView(std::nullopt);
}

QSize LockDetailPane::minimumSizeHint() const
{
    // The title and a line of the summary; the rest scrolls.
    return {200, m_title->sizeHint().height() + fontMetrics().height() + 16};
}

void LockDetailPane::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    // Too narrow for the diagram beside the table (as next to the demo panel): one above the
    // other, the pane scrolling, rather than both squeezed until their texts are cut.
    const int beside = m_diagram->minimumSizeHint().width() + 420;
    const Qt::Orientation wanted = width() >= beside ? Qt::Horizontal : Qt::Vertical;
    if (m_split->orientation() != wanted)
        m_split->setOrientation(wanted);
}

QString LockDetailPane::summaryText(const LockView& v) const
{
    QString summary =
        tr("%1 — %2 · format %3 · owner %4 · token %5")
            .arg(StatusStyle::statusText(v.status), StatusStyle::statusExplanation(v.status),
                 lockFormatName(v.format), v.owner.isEmpty() ? tr("unknown") : v.owner, escapeBytes(v.token));
    if (v.atRisk)
        summary += QLatin1Char('\n') + tr("At risk: %1").arg(v.atRiskReason());
    return summary;
}

void LockDetailPane::showValidity(const LockView& v, qint64 nowMs)
{
    // Counted down like the table's TTL, from the same computation; on a line of its own that
    // never wraps, so a number is never parted from its unit.
    const qint64 left = v.validityAt(nowMs);
    m_validity = formatDuration(left); // empty when it does not expire
    // A legacy SETNX lock past its timestamp has expired (and is stuck), it does not lack an expiry.
    const QString none = v.format == LockFormat::LegacyTimestamp ? tr("validity expired") : tr("no expiry");
    m_validityLabel->setText(left >= 0 ? tr("validity %1").arg(m_validity) : none);
}

void LockDetailPane::refreshTimes()
{
    if (!m_view || !isVisible())
        return;
    const qint64 now = monotonicMs();
    showValidity(*m_view, now);
    for (int i = 0; i < m_view->observations.size() && i < m_table->rowCount(); ++i)
        if (QTableWidgetItem* item = m_table->item(i, PttlColumn))
            item->setText(pttlText(m_view->observations.at(i), now));
    m_diagram->update();
}

void LockDetailPane::fitColumns(const QList<bool>& used)
{
    // Columns this lock has nothing for stay out of the way; the others fit their contents
    // (tokens and owners up to a point: they are in the tooltip whole).
    for (int c : {OwnerColumn, ReentryColumn, SemaphoreColumn, ErrorColumn})
        m_table->setColumnHidden(c, !used.value(c));
    m_table->resizeColumnsToContents();
    const int widest = m_table->fontMetrics().horizontalAdvance(QLatin1Char('m')) * 14;
    for (int c : {TokenColumn, OwnerColumn, SemaphoreColumn})
        m_table->setColumnWidth(c, qMin(m_table->columnWidth(c), widest));
}

void LockDetailPane::setGone(const QByteArray& resource)
{
    setView(std::nullopt);
    m_scroll->verticalScrollBar()->setValue(0); // the message is read from its first line
    m_title->setText(tr("The selected lock is gone (released or expired)."));
    m_summary->setText(
        tr("%1 is no longer on the masters. Select a lock to see it here.").arg(escapeBytes(resource)));
}

void LockDetailPane::setDiagnosis(const QByteArray& resource, const QList<Diagnosis>& diagnoses)
{
    if (!m_view || m_view->resource != resource || diagnoses == m_diagnoses)
        return;
    m_diagnoses = diagnoses;
    QStringList lines;
    for (const Diagnosis& d : diagnoses)
        lines << QStringLiteral("• ") + d.sentence;
    m_diagnosis->setText(lines.join(QLatin1Char('\n')));
    m_diagnosis->setVisible(!lines.isEmpty());
}

void LockDetailPane::setIncidents(const QByteArray& resource, const QStringList& lines)
{
    if (!m_view || m_view->resource != resource)
        return;
    m_incidents->setText(lines.join(QLatin1Char('\n')));
    m_incidents->setVisible(!lines.isEmpty());
}

void LockDetailPane::setView(const std::optional<LockView>& view)
{
    const bool another = !view || !m_view || view->resource != m_view->resource;
    m_view = view;
    if (another) {
        m_diagnoses.clear();
        m_diagnosis->clear();
        m_diagnosis->hide();
        m_incidents->clear();
        m_incidents->hide();
        // Another lock is read from its title, not from where the last one was scrolled to.
        m_scroll->verticalScrollBar()->setValue(0);
        emit viewChanged(view ? view->resource : QByteArray());
    }
    m_diagram->setView(view, m_names);
    if (!view) {
        m_tick.stop();
        m_validity.clear();
        m_validityLabel->clear();
        m_title->setText(tr("No lock selected"));
        m_summary->clear();
        m_table->setRowCount(0);
        fitColumns({});
        return;
    }
    const LockView& v = *view;
    const qint64 now = monotonicMs();
    m_title->setText(escapeBytes(v.resource));
    m_summary->setText(summaryText(v));
    showValidity(v, now);

    m_table->setRowCount(int(v.observations.size()));
    QList<bool> used(ColumnCount, false);
    for (int i = 0; i < v.observations.size(); ++i) {
        const MasterObservation& m = v.observations.at(i);
        const bool present = m.present() && !m.error().isError();
        const QStringList cells{
            tr("M%1").arg(i + 1),
            present ? escapeBytes(m.lock().token) : QString(),
            pttlText(m, now),
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
            used[c] = used[c] || !cells.at(c).isEmpty();
        }
        // The short label in the cell, the master's (password-free) URL in the tooltip.
        m_table->item(i, MasterColumn)
            ->setToolTip(plainToolTip(m_names.value(i, tr("master %1").arg(i + 1))));
        if (present && !m.lock().detail().isEmpty())
            m_table->item(i, OwnerColumn)
                ->setToolTip(plainToolTip(m.lock().owner + QLatin1Char('\n') + m.lock().detail()));
        if (present)
            m_table->item(i, TokenColumn)->setForeground(StatusStyle::tokenColor(m.lock().token, palette()));
    }
    fitColumns(used);
    m_tick.start();
}

} // namespace lockscope
