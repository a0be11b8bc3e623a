// SPDX-License-Identifier: Apache-2.0
#include "insights/insightsmodel.h"

#include "base/bytesdisplay.h"
#include "insights/familyfiguretext.h"
#include "widgets/statusstyle.h"

#include <QGuiApplication>

#include <algorithm>

namespace lockscope {

namespace {

bool sameFamilies(const QList<FamilyFigures>& a, const QList<FamilyFigures>& b)
{
    return std::equal(a.cbegin(), a.cend(), b.cbegin(), b.cend(),
                      [](const FamilyFigures& x, const FamilyFigures& y) { return x.family == y.family; });
}

bool isFlagged(const FamilyFigures& f, int column)
{
    return (column == InsightsModel::Headroom && f.lowHeadroom) ||
           (column == InsightsModel::Expired && f.highExpiryShare);
}

} // namespace

InsightsModel::InsightsModel(QObject* parent) : QAbstractTableModel(parent) {}

void InsightsModel::setFamilies(const QList<FamilyFigures>& families)
{
    if (!m_rows.isEmpty() && sameFamilies(m_rows, families)) {
        m_rows = families;
        emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
        return;
    }
    beginResetModel();
    m_rows = families;
    endResetModel();
}

int InsightsModel::rowOf(const QByteArray& family) const
{
    const auto it = std::find_if(m_rows.cbegin(), m_rows.cend(),
                                 [&](const FamilyFigures& f) { return f.family == family; });
    return it == m_rows.cend() ? -1 : int(it - m_rows.cbegin());
}

int InsightsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int InsightsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString InsightsModel::text(const FamilyFigures& f, int column) const
{
    switch (column) {
    case Family:
        return escapeBytes(f.family);
    case Locks:
        return QString::number(f.resources);
    case PerMinute:
        return FamilyFigureText::perMinute(f);
    case HoldP50:
        return FamilyFigureText::duration(f.holdMs.p50);
    case HoldP99:
        return FamilyFigureText::duration(f.holdMs.p99);
    case Lease:
        return FamilyFigureText::duration(f.leaseMs);
    case Headroom:
        return FamilyFigureText::headroom(f);
    case Expired:
        return FamilyFigureText::expiredShare(f);
    case HandoverP50:
        return FamilyFigureText::duration(f.handoverGapMs.p50);
    case Renewals:
        return f.renewalGapMs.count == 0 ? QStringLiteral("-")
                                         : tr("%1 (%2 late)").arg(f.renewalGapMs.count).arg(f.lateRenewals);
    case Contention:
        return FamilyFigureText::contention(f);
    default:
        return {};
    }
}

QString InsightsModel::toolTip(const FamilyFigures& f, int column) const
{
    switch (column) {
    case Family:
        return f.resources == 1
                   ? tr("One lock.")
                   : tr("%1 locks whose names differ only in numbers, UUIDs or hex runs.").arg(f.resources);
    case HoldP50:
    case HoldP99:
        return tr("How long released tenures were held (%1 seen from their start): p50 %2, p95 %3, p99 %4, "
                  "longest %5.")
            .arg(f.holdMs.count)
            .arg(FamilyFigureText::duration(f.holdMs.p50), FamilyFigureText::duration(f.holdMs.p95),
                 FamilyFigureText::duration(f.holdMs.p99), FamilyFigureText::duration(f.holdMs.max));
    case Lease:
        return tr("The TTL the locks were taken with (the median of %1 acquisitions).").arg(f.acquisitions);
    case Headroom:
        return f.lowHeadroom ? tr("p99 hold / lease above %1: a pause or one slow call will expire this lock "
                                  "under its holder.")
                                   .arg(FamilyFigures::lowHeadroomAbove)
                             : tr("p99 hold / lease; flagged above %1.").arg(FamilyFigures::lowHeadroomAbove);
    case Expired:
        return tr("Of %1 ended tenures: %2 released, %3 expired, %4 force-released, %5 replaced, %6 lost; "
                  "%7 still held.%8")
            .arg(f.ended())
            .arg(f.released)
            .arg(f.expired)
            .arg(f.forceReleased)
            .arg(f.replaced)
            .arg(f.lost)
            .arg(f.open)
            .arg(f.highExpiryShare ? tr(" Holders crash or overrun instead of releasing.") : QString());
    case HandoverP50:
        return tr("From a release or expiry to the next holder (%1 handovers): near zero with many holders, "
                  "clients queue for this lock. p99 %2.")
            .arg(f.handoverGapMs.count)
            .arg(FamilyFigureText::duration(f.handoverGapMs.p99));
    case Renewals:
        return tr("Extensions by the holder: p50 gap %1, p99 %2; late: with under a fifth of the lease left.")
            .arg(FamilyFigureText::duration(f.renewalGapMs.p50),
                 FamilyFigureText::duration(f.renewalGapMs.p99));
    case Contention:
        return tr("Clients queueing for it: waiters are read for layouts that record them (Redisson's), "
                  "attempts turned away only while the lock tracer ran.%1")
            .arg(f.peakWaiters < 0 && f.refusedAttempts < 0
                     ? tr(" Neither was observed.")
                     : QLatin1Char(' ') + FamilyFigureText::contentionSentence(f) + QLatin1Char('.'));
    default:
        return {};
    }
}

QVariant InsightsModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= m_rows.size())
        return {};
    const FamilyFigures& f = m_rows.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        return text(f, index.column());
    case Qt::ToolTipRole:
        return toolTip(f, index.column());
    case Qt::ForegroundRole:
        return isFlagged(f, index.column()) ? QVariant(StatusStyle::warningColor(QGuiApplication::palette()))
                                            : QVariant();
    case Qt::TextAlignmentRole:
        return index.column() == Family ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                        : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    default:
        return {};
    }
}

QVariant InsightsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    static const char* const names[ColumnCount] = {
        QT_TR_NOOP("Family"),   QT_TR_NOOP("Locks"),    QT_TR_NOOP("Per min"),   QT_TR_NOOP("Hold p50"),
        QT_TR_NOOP("Hold p99"), QT_TR_NOOP("Lease"),    QT_TR_NOOP("p99/lease"), QT_TR_NOOP("Expired"),
        QT_TR_NOOP("Gap p50"),  QT_TR_NOOP("Renewals"), QT_TR_NOOP("Contention")};
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

} // namespace lockscope
