// SPDX-License-Identifier: Apache-2.0
#include "masters/mastertabledelegate.h"

#include "masters/mastertablemodel.h"
#include "widgets/statusstyle.h"

#include <QApplication>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>

namespace lockscope {

MasterTableDelegate::MasterTableDelegate(QObject* parent) : QStyledItemDelegate(parent) {}

QSize MasterTableDelegate::sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const
{
    QSize size = QStyledItemDelegate::sizeHint(option, index);
    if (index.column() == MasterTableModel::MasterColumn)
        size.rwidth() += 20;
    if (index.column() == MasterTableModel::LatencyColumn)
        size.setWidth(size.width() + 90);
    return size;
}

void MasterTableDelegate::paintSparkline(QPainter* painter, const QRectF& rect, const QList<double>& samples,
                                         const QColor& colour)
{
    if (samples.size() < 2)
        return;
    double top = 0;
    for (double s : samples)
        top = std::max(top, s);
    top = std::max(top, 0.5); // sub-millisecond noise on loopback should not fill the height
    const qreal step = rect.width() / (MasterTableModel::historyLength - 1);
    qreal x = rect.right() - step * qreal(samples.size() - 1);
    QPainterPath path;
    bool drawing = false;
    for (double s : samples) {
        if (s < 0) {
            drawing = false; // no answer: a gap, not a zero
        } else {
            const QPointF p(x, rect.bottom() - (s / top) * rect.height());
            drawing ? path.lineTo(p) : path.moveTo(p);
            drawing = true;
        }
        x += step;
    }
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setPen(QPen(colour, 1.2));
    painter->drawPath(path);
    painter->restore();
}

void MasterTableDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                                const QModelIndex& index) const
{
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    if (index.column() == MasterTableModel::MasterColumn) {
        const auto state = RedisConnection::State(index.data(MasterTableModel::StateRole).toInt());
        opt.rect.adjust(18, 0, 0, 0);
        QStyledItemDelegate::paint(painter, opt, index);
        const QRectF light(option.rect.left() + 5, option.rect.center().y() - 5, 10, 10);
        painter->save();
        painter->setRenderHint(QPainter::Antialiasing);
        painter->setPen(QPen(option.palette.color(QPalette::Text), 0.8));
        // A node nobody watches gets a hollow light: its state is unknown, not "disconnected".
        if (index.data(MasterTableModel::MonitoredRole).toBool())
            painter->setBrush(StatusStyle::masterStateColor(state, option.palette));
        else
            painter->setBrush(Qt::NoBrush);
        // A down master's light is a square: readable without colour.
        if (state == RedisConnection::State::Down)
            painter->drawRect(light);
        else
            painter->drawEllipse(light);
        painter->restore();
        return;
    }
    if (index.column() == MasterTableModel::LatencyColumn) {
        const QString text = opt.text;
        opt.text.clear();
        QApplication::style()->drawControl(QStyle::CE_ItemViewItem, &opt, painter, opt.widget);
        const QRect r = option.rect.adjusted(4, 3, -4, -3);
        const int textWidth = option.fontMetrics.horizontalAdvance(QStringLiteral("000.00 ms")) + 6;
        painter->drawText(QRect(r.left(), r.top(), textWidth, r.height()), Qt::AlignVCenter | Qt::AlignRight,
                          text);
        const auto samples = index.data(MasterTableModel::LatencyHistoryRole).value<QList<double>>();
        paintSparkline(painter,
                       QRectF(r.left() + textWidth + 6, r.top(), r.width() - textWidth - 6, r.height()),
                       samples, option.palette.color(QPalette::Highlight));
        return;
    }
    QStyledItemDelegate::paint(painter, option, index);
}

} // namespace lockscope
