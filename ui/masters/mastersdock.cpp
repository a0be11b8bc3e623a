// SPDX-License-Identifier: Apache-2.0
#include "masters/mastersdock.h"

#include "masters/mastertabledelegate.h"
#include "masters/mastertablemodel.h"
#include "widgets/statusstyle.h"

#include <QClipboard>
#include <QGuiApplication>
#include <QHeaderView>
#include <QMenu>
#include <QStyle>
#include <QTreeView>

namespace lockscope {

MastersDock::MastersDock(MasterTableModel* masters, QWidget* parent)
    : QDockWidget(tr("Masters"), parent), m_masters(masters), m_view(new QTreeView(this))
{
    setObjectName(QStringLiteral("mastersDock"));
    // A tree: a cluster's or a Sentinel group's nodes hang under its row, and top-level row i
    // stays master i.
    m_view->setObjectName(QStringLiteral("masters"));
    m_view->setModel(m_masters);
    m_view->setItemDelegate(new MasterTableDelegate(m_view));
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setUniformRowHeights(true); // fixed heights: a refresh never measures rows
    m_view->setAllColumnsShowFocus(true);
    m_view->setWordWrap(false);
    m_view->header()->setStretchLastSection(true);
    m_view->setColumnWidth(MasterTableModel::MasterColumn, 280);
    // Its longest state whole, with the item's margins: "DOWN, retrying" was cut to "DOWN, retr…".
    m_view->setColumnWidth(
        MasterTableModel::StateColumn,
        m_view->fontMetrics().horizontalAdvance(
            StatusStyle::masterStateText(RedisConnection::State::Reconnecting)) +
            4 * m_view->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, m_view) + 16);
    m_view->setColumnWidth(MasterTableModel::LatencyColumn, 170);
    m_view->setColumnWidth(MasterTableModel::RoleColumn, 190); // a node's "replica of host:port"
    // Nodes show expanded when they appear; an entry someone collapsed stays collapsed.
    connect(m_masters, &QAbstractItemModel::rowsInserted, m_view,
            [this](const QModelIndex& parent, int first, int last) {
                for (int row = first; row <= last; ++row)
                    m_view->expandRecursively(m_masters->index(row, 0, parent));
            });
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_view, &QWidget::customContextMenuRequested, this, &MastersDock::showContextMenu);
    setWidget(m_view);
}

void MastersDock::showContextMenu(const QPoint& pos)
{
    const QModelIndex index = m_view->indexAt(pos);
    const int master = MasterTableModel::masterOf(index);
    if (master < 0 || master >= m_masters->rowCount())
        return;
    const MasterSnapshot& s = m_masters->snapshot(master);
    QMenu menu(this);
    if (const QVariant node = index.data(MasterTableModel::NodeRole); node.isValid()) {
        const QString address = node.value<MasterNode>().address.toString();
        menu.addAction(tr("Copy address %1").arg(address), this,
                       [address] { QGuiApplication::clipboard()->setText(address); });
    }
    menu.addAction(tr("Copy URL"), this, [s] { QGuiApplication::clipboard()->setText(s.name); });
    QAction* enable = menu.addAction(tr("Enable keyspace events on this master…"), this,
                                     [this, s] { emit enableKeyspaceEventsRequested({s.index}); });
    enable->setEnabled(!m_readOnly && s.mode == NotificationMode::Polling &&
                       s.state == RedisConnection::State::Up);
    menu.exec(m_view->viewport()->mapToGlobal(pos));
}

QList<int> MastersDock::pollingMasters(bool preferPicked) const
{
    QList<int> out;
    for (int i = 0; i < m_masters->rowCount(); ++i) {
        const MasterSnapshot& s = m_masters->snapshot(i);
        if (s.mode == NotificationMode::Polling && s.state == RedisConnection::State::Up)
            out << i;
    }
    // A master picked in the masters panel narrows it to that one.
    if (preferPicked) {
        const int picked = MasterTableModel::masterOf(m_view->currentIndex());
        if (out.contains(picked))
            return {picked};
    }
    return out;
}

} // namespace lockscope
