// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QStyledItemDelegate>

namespace lockscope {

// The masters panel's pictures: a status light before each URL or node (hollow for a node whose
// state is not watched), and a latency sparkline of the recent pings behind the latency figure
// (gaps where the master did not answer).
class MasterTableDelegate final : public QStyledItemDelegate
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MasterTableDelegate)

public:
    explicit MasterTableDelegate(QObject* parent = nullptr);

    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override;
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;

    static void paintSparkline(QPainter* painter, const QRectF& rect, const QList<double>& samples,
                               const QColor& colour);
};

} // namespace lockscope
