// SPDX-License-Identifier: Apache-2.0
#include "detail/quorumdiagram.h"

#include "base/bytesdisplay.h"
#include "base/monotonicclock.h"
#include "locks/locktabledelegate.h"
#include "locks/locktablemodel.h"
#include "widgets/pttltext.h"
#include "widgets/statusstyle.h"

#include <QPainter>

#include <cmath>

namespace lockscope {

QuorumDiagram::QuorumDiagram(QWidget* parent) : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
}

namespace {

QFont boldOf(const QFont& font)
{
    QFont bold = font;
    bold.setBold(true);
    return bold;
}

} // namespace

QSize QuorumDiagram::sizeHint() const
{
    const QSize min = minimumSizeHint();
    return {qMax(360, min.width()), min.height() + 20};
}

QSize QuorumDiagram::minimumSizeHint() const
{
    const QFontMetrics fm = fontMetrics();
    const QFontMetrics bold(boldOf(font()));
    int title = 0;
    for (const QString& line : titleLines())
        title = qMax(title, bold.horizontalAdvance(line));
    // A node's widest fixed text; tokens are elided to whatever is left.
    int node = 0;
    for (const QString& text :
         {tr("unreachable"), tr("absent"), tr("no expiry"), QStringLiteral("000000 ms")})
        node = qMax(node, fm.horizontalAdvance(text));
    const int n = m_view ? qMax(1, int(m_view->observations.size())) : 5;
    const int width = qMax(title, n * (node + 8)) + int(2 * margin) + 2;
    // Two title lines, node, three label lines, strip and its caption.
    return {width, 8 * fm.height() + 44 + 40};
}

QStringList QuorumDiagram::titleLines() const
{
    if (!m_view)
        return {tr("Select a lock to see its quorum.")};
    const LockView& v = *m_view;
    const int n = int(v.observations.size());
    if (v.holding >= v.needed)
        return {tr("Quorum reached"),
                tr("%1 of %2 masters hold one token, %3 needed").arg(v.holding).arg(n).arg(v.needed)};
    return {tr("No quorum"),
            tr("%1 of %2 masters hold the leading token, %3 needed").arg(v.holding).arg(n).arg(v.needed)};
}

qreal QuorumDiagram::slotWidth() const
{
    const int n = m_view ? int(m_view->observations.size()) : 0;
    return n > 0 ? (width() - 2 * margin) / n : width() - 2 * margin;
}

QString QuorumDiagram::nodeText(int i) const
{
    if (!m_view || i < 0 || i >= m_view->observations.size())
        return QString();
    const MasterObservation& m = m_view->observations.at(i);
    if (m.error().isError())
        return tr("unreachable");
    if (!m.present())
        return tr("absent");
    return fontMetrics().elidedText(escapeBytes(m.lock().token), Qt::ElideMiddle, int(slotWidth()) - 4);
}

QString QuorumDiagram::nodeTtlText(int i, qint64 nowMs) const
{
    if (!m_view || i < 0 || i >= m_view->observations.size())
        return QString();
    return pttlText(m_view->observations.at(i), nowMs);
}

void QuorumDiagram::setView(const std::optional<LockView>& view, const QStringList& masterNames)
{
    const bool resized = !m_view || !view || m_view->observations.size() != view->observations.size();
    m_view = view;
    m_names = masterNames;
    if (resized)
        updateGeometry(); // the minimum width follows the number of masters
    update();
}

void QuorumDiagram::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QPalette pal = palette();
    p.fillRect(rect(), pal.color(QPalette::Base));
    if (!m_view) {
        p.setPen(pal.color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, titleLines().value(0));
        return;
    }
    const LockView& v = *m_view;
    const int n = int(v.observations.size());
    if (n == 0)
        return;

    const QFontMetrics fm = fontMetrics();
    const qint64 now = monotonicMs();
    const qreal slot = slotWidth();
    const qreal radius = std::min<qreal>(22, slot * 0.32);
    const qreal nodeY = margin + radius + 2 * fm.height() + 4;

    // The verdict first, so the picture reads from the top.
    const QStringList title = titleLines();
    p.setPen(pal.color(QPalette::Text));
    p.setFont(boldOf(font()));
    p.drawText(QRectF(margin, 4, width() - 2 * margin, fm.height() + 2), Qt::AlignLeft | Qt::AlignVCenter,
               title.value(0));
    p.setFont(font());
    p.drawText(QRectF(margin, 4 + fm.height(), width() - 2 * margin, fm.height() + 2),
               Qt::AlignLeft | Qt::AlignVCenter, title.value(1));

    for (int i = 0; i < n; ++i) {
        const MasterObservation& m = v.observations.at(i);
        const QPointF c(margin + slot * (i + 0.5), nodeY);
        const QRectF node(c.x() - radius, c.y() - radius, 2 * radius, 2 * radius);
        const bool error = m.error().isError();
        const bool present = m.present() && !error;
        if (error) {
            p.setPen(QPen(pal.color(QPalette::PlaceholderText), 1.5, Qt::DashLine));
            p.setBrush(Qt::NoBrush);
            p.drawEllipse(node);
            LockTableDelegate::paintMasterDot(
                &p, node.adjusted(radius * 0.5, radius * 0.5, -radius * 0.5, -radius * 0.5),
                LockTableModel::DotError, QColor(), pal);
        } else if (present) {
            const QColor colour = StatusStyle::tokenColor(m.lock().token, pal);
            const bool majority = v.holders.contains(i);
            p.setPen(QPen(majority ? pal.color(QPalette::Text) : colour.darker(140), majority ? 2.5 : 1.2));
            p.setBrush(colour);
            if (majority) {
                p.drawEllipse(node);
            } else { // another holder: a diamond, so the split shows without colour too
                p.drawPolygon(QPolygonF{QPointF(c.x(), node.top()), QPointF(node.right(), c.y()),
                                        QPointF(c.x(), node.bottom()), QPointF(node.left(), c.y())});
            }
        } else {
            p.setPen(QPen(pal.color(QPalette::PlaceholderText), 1.5));
            p.setBrush(Qt::NoBrush);
            p.drawEllipse(node);
        }
        // Label and what the node holds.
        p.setPen(pal.color(QPalette::Text));
        const QRectF label(c.x() - slot / 2, node.bottom() + 4, slot, fm.height());
        p.drawText(label, Qt::AlignCenter, tr("M%1").arg(i + 1));
        p.setPen(pal.color(QPalette::PlaceholderText));
        p.drawText(label.translated(0, fm.height()), Qt::AlignCenter, nodeText(i));
        p.drawText(label.translated(0, 2 * fm.height()), Qt::AlignCenter, nodeTtlText(i, now));
    }

    // The quorum strip: one cell per master, majority holders filled, the `needed` line drawn.
    const qreal stripY = nodeY + radius + 4 + 3 * fm.height() + 10;
    const QRectF strip(margin, stripY, width() - 2 * margin, 12);
    LockTableDelegate::paintQuorumBar(&p, strip, v.holding, v.needed, n,
                                      StatusStyle::tokenColor(v.token, pal), pal);
    p.setPen(pal.color(QPalette::Text));
    const qreal neededX = strip.left() + strip.width() * v.needed / n;
    p.drawText(QRectF(neededX - 60, strip.bottom() + 2, 120, fm.height()), Qt::AlignCenter,
               tr("needed: %1").arg(v.needed));
}

} // namespace lockscope
