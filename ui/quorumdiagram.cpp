#include "quorumdiagram.h"

#include "bytesdisplay.h"
#include "locktabledelegate.h"
#include "locktablemodel.h"
#include "statusstyle.h"

#include <QPainter>

#include <cmath>

namespace lockscope {

QuorumDiagram::QuorumDiagram(QWidget* parent) : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
}

QSize QuorumDiagram::sizeHint() const
{
    return {360, minimumSizeHint().height() + 20};
}

QSize QuorumDiagram::minimumSizeHint() const
{
    // Title, node, three label lines, strip and its caption.
    return {240, 7 * fontMetrics().height() + 44 + 40};
}

void QuorumDiagram::setView(const std::optional<LockView>& view, const QStringList& masterNames)
{
    m_view = view;
    m_names = masterNames;
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
        p.drawText(rect(), Qt::AlignCenter, tr("Select a lock to see its quorum."));
        return;
    }
    const LockView& v = *m_view;
    const int n = int(v.observations.size());
    if (n == 0)
        return;

    const QFontMetrics fm = fontMetrics();
    const qreal margin = 12;
    const qreal slot = (width() - 2 * margin) / n;
    const qreal radius = std::min<qreal>(22, slot * 0.32);
    const qreal nodeY = margin + radius + fm.height() + 4;

    // The verdict first, so the picture reads from the top.
    p.setPen(pal.color(QPalette::Text));
    QFont bold = font();
    bold.setBold(true);
    p.setFont(bold);
    const bool quorum = v.holding >= v.needed;
    p.drawText(QRectF(margin, 4, width() - 2 * margin, fm.height() + 2), Qt::AlignLeft | Qt::AlignVCenter,
               quorum ? tr("%1 of %2 masters hold one token — quorum reached (%3 needed)")
                            .arg(v.holding)
                            .arg(n)
                            .arg(v.needed)
                      : tr("%1 of %2 masters hold the leading token — no quorum (%3 needed)")
                            .arg(v.holding)
                            .arg(n)
                            .arg(v.needed));
    p.setFont(font());

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
        QString what = error ? tr("unreachable") : present ? escapeBytes(m.lock().token) : tr("absent");
        what = fm.elidedText(what, Qt::ElideMiddle, int(slot) - 4);
        p.setPen(pal.color(QPalette::PlaceholderText));
        p.drawText(label.translated(0, fm.height()), Qt::AlignCenter, what);
        const QString ttl =
            present ? (m.pttlMs() >= 0 ? tr("%1 ms").arg(m.pttlMs()) : tr("no expiry")) : QString();
        p.drawText(label.translated(0, 2 * fm.height()), Qt::AlignCenter, ttl);
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
