// SPDX-License-Identifier: Apache-2.0
#include "locks/locktablemodel.h"

#include "base/bytesdisplay.h"
#include "base/durationformat.h"
#include "base/monotonicclock.h"
#include "widgets/plaintooltip.h"
#include "widgets/statusstyle.h"

#include <QGuiApplication>

#include <algorithm>
#include <limits>

namespace lockscope {

namespace {

// The expiry instant on the monotonic clock: it orders like the time left, but does not change as
// time passes (time left clamps at zero, which would let expired rows drift out of order).
qint64 ttlKey(const LockView& view)
{
    return view.validityMs < 0 ? std::numeric_limits<qint64>::max() : view.computedAtMs + view.validityMs;
}

int presentCount(const LockView& view)
{
    int n = 0;
    for (const MasterObservation& m : view.observations)
        n += m.present() && !m.error().isError() ? 1 : 0;
    return n;
}

// Runs of consecutive numbers in a sorted list, as [first, last] pairs.
QList<QPair<int, int>> runsOf(const QList<int>& sorted)
{
    QList<QPair<int, int>> runs;
    for (int row : sorted) {
        if (!runs.isEmpty() && runs.last().second + 1 == row)
            runs.last().second = row;
        else
            runs.append({row, row});
    }
    return runs;
}

} // namespace

LockTableModel::LockTableModel(QObject* parent) : QAbstractTableModel(parent) {}

LockTableModel::~LockTableModel() = default;

void LockTableModel::reserve(qsizetype rows)
{
    m_byResource.reserve(rows);
    m_rows.reserve(size_t(rows));
    m_names.reserve(size_t(rows));
}

int LockTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int LockTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

int LockTableModel::rowOf(const QByteArray& resource) const
{
    const Row* r = m_byResource.value(HashedKey(resource));
    return r ? r->row : -1;
}

const LockView* LockTableModel::find(const QByteArray& resource) const
{
    const Row* r = m_byResource.value(HashedKey(resource));
    return r ? &r->view.view() : nullptr;
}

void LockTableModel::count(const LockView& view, int delta)
{
    m_counts[size_t(view.status)] += delta;
}

void LockTableModel::setPinned(const QByteArray& resource)
{
    if (resource == m_pinned)
        return;
    const QByteArray before = std::exchange(m_pinned, resource);
    if (std::exchange(m_pinnedGone, false)) {
        // Kept only for the pin: it goes now (counted back first, as removal uncounts it).
        if (const Row* r = m_byResource.value(HashedKey(before)))
            count(r->view, +1);
        removeResources({before});
        emit countsChanged();
    }
    emit pinnedChanged();
    for (const QByteArray& r : {before, resource})
        if (const int row = rowOf(r); row >= 0)
            emit dataChanged(index(row, 0), index(row, ColumnCount - 1));
}

void LockTableModel::removeAll()
{
    LockBatch clear;
    for (int r = 0; r < rowCount(); ++r)
        clear.removed << viewAt(r).resource;
    if (!clear.isEmpty())
        apply(clear);
}

void LockTableModel::apply(const LockBatch& incoming)
{
    if (incoming.isEmpty())
        return;
    const LockBatch* use = &incoming;
    LockBatch kept;
    if (!m_pinned.isEmpty()) {
        const HashedKey key(m_pinned);
        if (Row* r = m_byResource.value(key); r && !m_pinnedGone && incoming.removed.contains(m_pinned)) {
            kept = incoming;
            kept.removed.removeAll(m_pinned);
            use = &kept;
            count(r->view, -1);
            m_pinnedGone = true;
            emit dataChanged(index(r->row, 0), index(r->row, ColumnCount - 1));
        } else if (r && m_pinnedGone) {
            if (incoming.hasView(m_pinned)) {
                count(r->view, +1); // back on the masters: the update below counts it as usual
                m_pinnedGone = false;
            }
        }
    }
    const LockBatch& batch = *use;
    removeResources(batch.removed);

    QList<SharedLockView> fresh;
    QList<QPair<int, const SharedLockView*>> updates;
    for (const QList<SharedLockView>* list : {&batch.added, &batch.changed}) {
        for (const SharedLockView& v : *list) {
            if (const Row* r = m_byResource.value(v->key()))
                updates.append({r->row, &v});
            else
                fresh << v; // a change for a row we never saw: show it rather than drop it
        }
    }
    if (!updates.isEmpty()) {
        std::sort(updates.begin(), updates.end(),
                  [](const auto& a, const auto& b) { return a.first < b.first; });
        QList<int> rows;
        rows.reserve(updates.size());
        for (const auto& u : std::as_const(updates))
            rows << u.first;
        const QList<QPair<int, int>> runs = runsOf(rows);
        // One covering range only when most rows changed: a range that merely spans scattered
        // changes would make a sorting proxy re-check every row in between.
        const bool oneRange = rows.size() * 2 > rowCount();
        // Every dataChanged leaves the model with nothing changed that was not announced: a proxy
        // re-sorting one range must not meet rows whose news is still to come.
        qsizetype next = 0;
        for (const auto& [first, last] : runs) {
            for (; next < updates.size() && updates.at(next).first <= last; ++next) {
                SharedLockView& view = m_rows[size_t(updates.at(next).first)]->view;
                count(view, -1);
                view = *updates.at(next).second;
                m_names[size_t(updates.at(next).first)] =
                    SortName(view->resource); // the old view's bytes may go
                count(view, +1);
            }
            if (!oneRange)
                emit dataChanged(index(first, 0), index(last, ColumnCount - 1));
        }
        if (oneRange)
            emit dataChanged(index(rows.first(), 0), index(rows.last(), ColumnCount - 1));
    }
    // After the changes are announced: a proxy placing new rows must see an order it already knows.
    appendViews(fresh);
    emit countsChanged();
}

void LockTableModel::removeResources(const QList<QByteArray>& resources)
{
    QList<int> rows;
    rows.reserve(resources.size());
    for (const QByteArray& r : resources)
        if (const Row* row = m_byResource.value(HashedKey(r)))
            rows << row->row;
    if (rows.isEmpty())
        return;
    std::sort(rows.begin(), rows.end());
    // A name given twice (a lock that went, came back and went again while the window caught up)
    // is one row: twice in a run, it took its neighbour with it.
    rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
    QList<QPair<int, int>> runs = runsOf(rows);
    // From the bottom up, so that the rows of runs still to go keep their numbers.
    for (auto it = runs.crbegin(); it != runs.crend(); ++it) {
        const auto [first, last] = *it;
        beginRemoveRows({}, first, last);
        for (int i = first; i <= last; ++i) {
            count(m_rows[size_t(i)]->view, -1);
            m_byResource.remove(m_rows[size_t(i)]->view->key());
            freeRow(m_rows[size_t(i)]);
        }
        m_rows.erase(m_rows.begin() + first, m_rows.begin() + last + 1);
        m_names.erase(m_names.begin() + first, m_names.begin() + last + 1);
        for (size_t i = size_t(first); i < m_rows.size(); ++i)
            m_rows[i]->row = int(i);
        endRemoveRows();
    }
}

void LockTableModel::appendViews(const QList<SharedLockView>& views)
{
    if (views.isEmpty())
        return;
    const int first = rowCount();
    beginInsertRows({}, first, first + int(views.size()) - 1);
    // Geometric growth: reserving exactly what this slice needs would move every row pointer on
    // every slice of a first pass.
    if (const size_t need = m_rows.size() + size_t(views.size()); need > m_rows.capacity()) {
        m_rows.reserve(qMax(need, 2 * m_rows.capacity()));
        m_names.reserve(m_rows.capacity());
    }
    for (const SharedLockView& v : views) {
        Row* row = newRow(v, int(m_rows.size()));
        m_byResource.insert(v->key(), row);
        count(v, +1);
        m_rows.push_back(row);
        m_names.emplace_back(v->resource);
    }
    endInsertRows();
}

LockTableModel::Row* LockTableModel::newRow(const SharedLockView& view, int row)
{
    if (m_freeRows.empty()) {
        m_rowPool.push_back(Row{view, row}); // a deque's elements stay where they are
        return &m_rowPool.back();
    }
    Row* r = m_freeRows.back();
    m_freeRows.pop_back();
    *r = Row{view, row};
    return r;
}

void LockTableModel::freeRow(Row* row)
{
    row->view = SharedLockView(); // the view goes now, not when the slot is taken again
    if (m_freeRows.size() + 1 == m_rowPool.size()) {
        // Every row gone: the pool goes too (the table was cleared, or its one lock went).
        m_freeRows.clear();
        std::deque<Row>().swap(m_rowPool);
        return;
    }
    m_freeRows.push_back(row);
}

bool LockTableModel::lessThan(int rowA, int rowB, int column) const
{
    auto tie = [&] { return m_names[size_t(rowA)] < m_names[size_t(rowB)]; };
    // By resource (the window's default) the names decide alone: the views are not even reached,
    // which would read each row and its view (the cache misses the names array is there to save).
    if (column == ResourceColumn || column < 0 || column >= ColumnCount)
        return tie();
    const LockView& a = viewAt(rowA);
    const LockView& b = viewAt(rowB);
    switch (column) {
    case StatusColumn: {
        const int sa = StatusStyle::severity(a.status), sb = StatusStyle::severity(b.status);
        return sa != sb ? sa < sb : tie();
    }
    case QuorumColumn:
        return a.holding != b.holding ? a.holding < b.holding : tie();
    case OwnerColumn: {
        const int c = a.owner.compare(b.owner, Qt::CaseInsensitive);
        return c != 0 ? c < 0 : tie();
    }
    case FormatColumn: {
        const int c = lockFormatName(a.format).compare(lockFormatName(b.format));
        return c != 0 ? c < 0 : tie();
    }
    case TtlColumn: {
        const qint64 ka = ttlKey(a), kb = ttlKey(b);
        return ka != kb ? ka < kb : tie();
    }
    case MastersColumn: {
        const int pa = presentCount(a), pb = presentCount(b);
        return pa != pb ? pa < pb : tie();
    }
    default:
        return tie();
    }
}

QVariant LockTableModel::sortData(const LockView& view, int column) const
{
    switch (column) {
    case ResourceColumn:
        return view.resource;
    case StatusColumn:
        return StatusStyle::severity(view.status);
    case QuorumColumn:
        return view.holding;
    case OwnerColumn:
        return view.owner;
    case FormatColumn:
        return lockFormatName(view.format);
    case TtlColumn:
        return ttlKey(view);
    case MastersColumn:
        return presentCount(view);
    default:
        return {};
    }
}

QString LockTableModel::ttlText(const LockView& view, qint64 nowMs)
{
    const qint64 left = view.validityAt(nowMs);
    if (left >= 0)
        return formatDuration(left);
    if (view.status != LockStatus::Stuck)
        return tr("—");
    // A legacy lock's expiry is the timestamp it holds: passed, not missing (the owner column says when).
    return view.format == LockFormat::LegacyTimestamp ? tr("expired") : tr("no expiry");
}

QVariant LockTableModel::displayData(const LockView& view, int column) const
{
    switch (column) {
    case ResourceColumn:
        return escapeBytes(view.resource);
    case StatusColumn:
        if (m_pinnedGone && view.resource == m_pinned)
            return tr("gone (was %1)").arg(StatusStyle::statusText(view.status));
        return StatusStyle::statusText(view.status);
    case QuorumColumn:
        return QStringLiteral("%1/%2").arg(view.holding).arg(view.total);
    case OwnerColumn:
        return view.owner;
    case FormatColumn:
        return lockFormatName(view.format);
    case TtlColumn:
        if (m_pinnedGone && view.resource == m_pinned)
            return QStringLiteral("—"); // its last TTL no longer counts down anything
        return ttlText(view, monotonicMs());
    case MastersColumn: {
        QString dots;
        for (int i = 0; i < view.observations.size(); ++i)
            dots += view.holders.contains(i) ? QChar(0x25CF) : QChar(0x25CB);
        return dots;
    }
    default:
        return {};
    }
}

QVariant LockTableModel::toolTip(const LockView& view, int column) const
{
    switch (column) {
    case StatusColumn: {
        QString text = StatusStyle::statusExplanation(view.status);
        if (m_pinnedGone && view.resource == m_pinned)
            text = tr("No longer on any master. The demo keeps its last view here until the scenario's "
                      "caption is dismissed.\n") +
                   text;
        if (view.atRisk)
            text += QLatin1Char('\n') + view.atRiskReason();
        return text;
    }
    case QuorumColumn:
        return tr("%1 of %2 masters hold the token; %3 are needed for a quorum.")
            .arg(view.holding)
            .arg(view.total)
            .arg(view.needed);
    case MastersColumn: {
        QStringList lines;
        for (int i = 0; i < view.observations.size(); ++i) {
            const MasterObservation& m = view.observations.at(i);
            // M1..Mn as in the detail pane and the diagram, with the master's (password-free) URL.
            const QString name = m_masterNames.size() > i ? tr("M%1 %2").arg(i + 1).arg(m_masterNames.at(i))
                                                          : tr("M%1").arg(i + 1);
            if (m.error().isError())
                lines << tr("%1: unreachable (%2)").arg(name, m.error().message);
            else if (!m.present())
                lines << tr("%1: absent").arg(name);
            else
                lines << tr("%1: %2").arg(name, escapeBytes(m.lock().token));
        }
        return lines.join(QLatin1Char('\n'));
    }
    case ResourceColumn:
        return tr("%1\ntoken %2").arg(escapeBytes(view.resource), escapeBytes(view.token));
    default:
        return {};
    }
}

QVariant LockTableModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const LockView& view = viewAt(index.row());
    const int column = index.column();
    switch (role) {
    case Qt::DisplayRole:
        return displayData(view, column);
    case Qt::ToolTipRole:
        return plainToolTip(toolTip(view, column));
    case Qt::DecorationRole:
        if (column == StatusColumn)
            return StatusStyle::statusIcon(view.status, QGuiApplication::palette());
        return {};
    case Qt::ForegroundRole:
        if (column == StatusColumn)
            return StatusStyle::statusColor(view.status, QGuiApplication::palette());
        return {};
    case Qt::TextAlignmentRole:
        if (column == TtlColumn)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        if (column == QuorumColumn)
            return int(Qt::AlignCenter);
        return {};
    case SortRole:
        return sortData(view, column);
    case ResourceRole:
        return view.resource;
    case TokenRole:
        return view.token;
    case StatusRole:
        return int(view.status);
    case HoldingRole:
        return view.holding;
    case NeededRole:
        return view.needed;
    case TotalRole:
        return view.total;
    case ValidityRole:
        return view.validityAt(monotonicMs());
    case AtRiskRole:
        return view.atRisk;
    case PinnedRole:
        return !m_pinned.isEmpty() && view.resource == m_pinned;
    case Qt::BackgroundRole:
        if (!m_pinned.isEmpty() && view.resource == m_pinned) {
            // The highlight colour, faint enough to keep the status colours readable.
            QColor c = QGuiApplication::palette().color(QPalette::Highlight);
            c.setAlpha(60);
            return c;
        }
        return {};
    case MasterDotsRole: {
        QVariantList dots;
        for (int i = 0; i < view.observations.size(); ++i) {
            const MasterObservation& m = view.observations.at(i);
            if (m.error().isError())
                dots << int(DotError);
            else if (!m.present())
                dots << int(DotAbsent);
            else if (view.holders.contains(i))
                dots << int(DotHoldsToken);
            else
                dots << int(DotOtherToken);
        }
        return dots;
    }
    case MasterTokensRole: {
        QVariantList tokens;
        for (const MasterObservation& m : view.observations)
            tokens << m.lock().token;
        return tokens;
    }
    default:
        return {};
    }
}

QVariant LockTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case ResourceColumn:
        return tr("Resource");
    case StatusColumn:
        return tr("Status");
    case QuorumColumn:
        return tr("Quorum");
    case OwnerColumn:
        return tr("Owner");
    case FormatColumn:
        return tr("Format");
    case TtlColumn:
        return tr("TTL");
    case MastersColumn:
        return tr("Masters");
    default:
        return {};
    }
}

} // namespace lockscope
