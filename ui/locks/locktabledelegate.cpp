// SPDX-License-Identifier: Apache-2.0
#include "locks/locktabledelegate.h"

#include "locks/locktablemodel.h"
#include "widgets/statusstyle.h"

#include <QApplication>
#include <QPainter>

#include <utility>

namespace lockscope {

LockTableDelegate::LockTableDelegate(QObject* parent) : QStyledItemDelegate(parent) {}

void LockTableDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                              const QModelIndex& index) const
{
    switch (index.column()) {
    case LockTableModel::QuorumColumn:
        paintQuorum(painter, option, index);
        return;
    case LockTableModel::MastersColumn:
        paintMasters(painter, option, index);
        return;
    default:
        break;
    }
    paintText(painter, option, index);
    if (index.column() == LockTableModel::StatusColumn && index.data(LockTableModel::AtRiskRole).toBool()) {
        // A master that held it restarted: the lock may be gone there although it looks held.
        const QRectF r(option.rect.right() - 16, option.rect.center().y() - 6, 12, 12);
        painter->save();
        painter->setRenderHint(QPainter::Antialiasing);
        painter->setPen(Qt::NoPen);
        painter->setBrush(StatusStyle::warningColor(option.palette));
        painter->drawPolygon(QPolygonF{QPointF(r.center().x(), r.top()), r.bottomRight(), r.bottomLeft()});
        painter->setPen(option.palette.color(QPalette::Base));
        painter->drawLine(QPointF(r.center().x(), r.top() + 4), QPointF(r.center().x(), r.bottom() - 4));
        painter->restore();
    }
}

QSize LockTableDelegate::sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const
{
    QSize size = QStyledItemDelegate::sizeHint(option, index);
    if (index.column() == LockTableModel::QuorumColumn)
        size.setWidth(qMax(size.width(), 110));
    if (index.column() == LockTableModel::MastersColumn)
        size.setWidth(qMax(size.width(), index.data(LockTableModel::TotalRole).toInt() * 14 + 8));
    return size;
}

void LockTableDelegate::paintText(QPainter* painter, const QStyleOptionViewItem& option,
                                  const QModelIndex& index) const
{
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    if (opt.features & (QStyleOptionViewItem::HasDecoration | QStyleOptionViewItem::HasCheckIndicator |
                        QStyleOptionViewItem::WrapText)) {
        QStyledItemDelegate::paint(painter, option, index);
        return;
    }
    // The panel (background, selection, focus) as the style draws it, the text here: the style lays
    // a cell's text out twice (to place it, then to draw it elided), the larger part of a frame's
    // cost when the table scrolls a page (8 ms at 1440x900).
    const QString text = std::exchange(opt.text, QString());
    opt.features &= ~QStyleOptionViewItem::HasDisplay;
    const QWidget* widget = opt.widget;
    QStyle* style = widget ? widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget);
    if (text.isEmpty())
        return;
    const int margin = style->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, widget) + 1;
    const QRect r = opt.rect.adjusted(margin, 0, -margin, 0);
    const QFontMetrics& fm = opt.fontMetrics;
    // Most cells fit: a text that surely does (every character at most the font's widest) is
    // neither measured nor elided before it is drawn.
    const bool leftAligned = !(opt.displayAlignment & (Qt::AlignRight | Qt::AlignHCenter));
    const bool surelyFits = qint64(text.size()) * fm.maxWidth() <= r.width();
    const QString shown = surelyFits ? text : fm.elidedText(text, opt.textElideMode, r.width());
    int x = r.left();
    if (!leftAligned) {
        const int width = fm.horizontalAdvance(shown);
        x = opt.displayAlignment & Qt::AlignRight ? r.right() + 1 - width
                                                  : r.left() + (r.width() - width) / 2;
    }
    const QPalette::ColorGroup group = !(opt.state & QStyle::State_Enabled) ? QPalette::Disabled
                                       : opt.state & QStyle::State_Active   ? QPalette::Normal
                                                                            : QPalette::Inactive;
    painter->save();
    painter->setFont(opt.font);
    painter->setPen(opt.palette.color(group, opt.state & QStyle::State_Selected ? QPalette::HighlightedText
                                                                                : QPalette::Text));
    painter->setClipRect(r, Qt::IntersectClip);
    painter->drawText(QPoint(x, r.top() + (r.height() - fm.height()) / 2 + fm.ascent()), shown);
    painter->restore();
}

void LockTableDelegate::paintQuorumBar(QPainter* painter, const QRectF& rect, int holding, int needed,
                                       int total, const QColor& fill, const QPalette& palette)
{
    if (total <= 0)
        return;
    painter->save();
    // Whole pixels, not antialiased: a page of bars is a few hundred rectangles a frame.
    const qreal cell = rect.width() / total;
    const int top = qRound(rect.top());
    const int height = qRound(rect.height());
    painter->setPen(QPen(palette.color(QPalette::Mid), 1));
    for (int i = 0; i < total; ++i) {
        const int left = qRound(rect.left() + i * cell) + 1;
        const int right = qRound(rect.left() + (i + 1) * cell) - 1;
        painter->setBrush(i < holding ? fill : palette.color(QPalette::Base));
        painter->drawRect(QRect(left, top, right - left - 1, height - 1));
    }
    painter->setRenderHint(QPainter::Antialiasing);
    // The quorum line: everything left of it must be filled for the lock to count.
    const qreal x = rect.left() + needed * cell;
    painter->setPen(QPen(palette.color(QPalette::Text), 2));
    painter->drawLine(QPointF(x, rect.top() - 3), QPointF(x, rect.bottom() + 3));
    painter->restore();
}

void LockTableDelegate::paintMasterDot(QPainter* painter, const QRectF& r, int dot, const QColor& tokenColour,
                                       const QPalette& palette)
{
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    switch (dot) {
    case LockTableModel::DotHoldsToken:
        // A ring in the view's base colour: unseen on a plain row, it keeps a blue token's dot
        // visible on the selection's blue highlight.
        painter->setPen(QPen(palette.color(QPalette::Base), 1));
        painter->setBrush(tokenColour);
        painter->drawEllipse(r);
        break;
    case LockTableModel::DotOtherToken: // a diamond: another holder, whatever its colour
        painter->setPen(QPen(palette.color(QPalette::Text), 1));
        painter->setBrush(tokenColour);
        painter->drawPolygon(QPolygonF{QPointF(r.center().x(), r.top()), QPointF(r.right(), r.center().y()),
                                       QPointF(r.center().x(), r.bottom()),
                                       QPointF(r.left(), r.center().y())});
        break;
    case LockTableModel::DotError:
        painter->setPen(
            QPen(StatusStyle::statusColor(LockStatus::Stuck, palette), 2, Qt::SolidLine, Qt::RoundCap));
        painter->drawLine(r.topLeft() + QPointF(1, 1), r.bottomRight() - QPointF(1, 1));
        painter->drawLine(r.topRight() + QPointF(-1, 1), r.bottomLeft() + QPointF(1, -1));
        break;
    default:
        painter->setPen(QPen(palette.color(QPalette::PlaceholderText), 1.2));
        painter->setBrush(Qt::NoBrush);
        painter->drawEllipse(r.adjusted(1, 1, -1, -1));
        break;
    }
    painter->restore();
}

void LockTableDelegate::paintQuorum(QPainter* painter, const QStyleOptionViewItem& option,
                                    const QModelIndex& index) const
{
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    opt.text.clear();
    QApplication::style()->drawControl(QStyle::CE_ItemViewItem, &opt, painter, opt.widget);

    const int holding = index.data(LockTableModel::HoldingRole).toInt();
    const int needed = index.data(LockTableModel::NeededRole).toInt();
    const int total = index.data(LockTableModel::TotalRole).toInt();
    const auto status = LockStatus(index.data(LockTableModel::StatusRole).toInt());
    const QRect r = option.rect.adjusted(4, 0, -4, 0);
    const int textWidth = option.fontMetrics.horizontalAdvance(QStringLiteral("00/00")) + 6;
    painter->save();
    painter->setPen(option.state & QStyle::State_Selected ? option.palette.color(QPalette::HighlightedText)
                                                          : option.palette.color(QPalette::Text));
    painter->drawText(QRect(r.left(), r.top(), textWidth, r.height()), Qt::AlignVCenter | Qt::AlignLeft,
                      QStringLiteral("%1/%2").arg(holding).arg(total));
    painter->restore();
    const QRectF bar(r.left() + textWidth, r.center().y() - 4, r.width() - textWidth, 8);
    paintQuorumBar(painter, bar, holding, needed, total, StatusStyle::statusColor(status, option.palette),
                   option.palette);
}

void LockTableDelegate::paintMasters(QPainter* painter, const QStyleOptionViewItem& option,
                                     const QModelIndex& index) const
{
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    opt.text.clear();
    QApplication::style()->drawControl(QStyle::CE_ItemViewItem, &opt, painter, opt.widget);

    const QVariantList dots = index.data(LockTableModel::MasterDotsRole).toList();
    const QVariantList tokens = index.data(LockTableModel::MasterTokensRole).toList();
    const qreal size = 10;
    qreal x = option.rect.left() + 4;
    const qreal y = option.rect.center().y() - size / 2;
    for (int i = 0; i < dots.size(); ++i, x += size + 4) {
        const QColor colour = StatusStyle::tokenColor(tokens.value(i).toByteArray(), option.palette);
        paintMasterDot(painter, QRectF(x, y, size, size), dots.at(i).toInt(), colour, option.palette);
    }
}

} // namespace lockscope
