// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QStyledItemDelegate>

namespace lockscope {

// Paints what text cannot: the quorum bar with its `needed` mark, one dot per master (shape as
// well as colour tells holder, other token, absent and unreachable apart), and the at-risk flag.
class LockTableDelegate final : public QStyledItemDelegate
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LockTableDelegate)

public:
    explicit LockTableDelegate(QObject* parent = nullptr);

    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override;
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;

    static void paintQuorumBar(QPainter* painter, const QRectF& rect, int holding, int needed, int total,
                               const QColor& fill, const QPalette& palette);
    static void paintMasterDot(QPainter* painter, const QRectF& rect, int dot, const QColor& tokenColour,
                               const QPalette& palette);

private:
    void paintText(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const;
    void paintQuorum(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const;
    void paintMasters(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const;
};

} // namespace lockscope
