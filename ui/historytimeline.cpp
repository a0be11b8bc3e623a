#include "historytimeline.h"

#include "base/bytesdisplay.h"
#include "statusstyle.h"

#include <QPainter>

namespace lockscope {

namespace {
constexpr int maxBars = 12; // the most recent; older ones are in the export
}

HistoryTimeline::HistoryTimeline(QWidget* parent) : QWidget(parent) {}

QSize HistoryTimeline::sizeHint() const
{
    return {480, fontMetrics().height() * 8};
}

void HistoryTimeline::setEpisodes(const QByteArray& resource, const QList<HolderEpisode>& episodes,
                                  const QDateTime& since)
{
    m_resource = resource;
    m_episodes = episodes.size() > maxBars ? episodes.mid(episodes.size() - maxBars) : episodes;
    m_since = since;
    update();
}

void HistoryTimeline::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    const QPalette pal = palette();
    p.fillRect(rect(), pal.color(QPalette::Base));
    const QFontMetrics fm = fontMetrics();
    if (m_episodes.isEmpty()) {
        p.setPen(pal.color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter,
                   m_resource.isEmpty() ? tr("Select a lock to see its holders.")
                                        : tr("No holders seen yet."));
        return;
    }
    const QDateTime now = QDateTime::currentDateTime();
    const QDateTime start = m_episodes.first().from < m_since ? m_episodes.first().from : m_since;
    const qint64 span = qMax<qint64>(1000, start.msecsTo(now));
    const int labelWidth = fm.horizontalAdvance(QStringLiteral("0000000000000000000000")) + 8;
    const QRectF area(labelWidth, fm.height() + 6, width() - labelWidth - 8, height() - 2 * fm.height() - 10);
    const qreal rowHeight =
        qMin<qreal>(fm.height() + 6, area.height() / qMax<qsizetype>(1, m_episodes.size()));
    auto xOf = [&](const QDateTime& t) {
        return area.left() + area.width() * double(start.msecsTo(t)) / double(span);
    };

    p.setPen(pal.color(QPalette::Text));
    p.drawText(
        QRectF(0, 0, width(), fm.height() + 4), Qt::AlignLeft | Qt::AlignVCenter,
        tr("%1 — holders since %2").arg(escapeBytes(m_resource), start.toString(QStringLiteral("HH:mm:ss"))));
    // Time axis.
    p.setPen(pal.color(QPalette::Mid));
    p.drawLine(QPointF(area.left(), area.bottom() + 2), QPointF(area.right(), area.bottom() + 2));
    p.setPen(pal.color(QPalette::PlaceholderText));
    p.drawText(QRectF(area.left(), area.bottom() + 4, 100, fm.height()), Qt::AlignLeft,
               start.toString(QStringLiteral("HH:mm:ss")));
    p.drawText(QRectF(area.right() - 100, area.bottom() + 4, 100, fm.height()), Qt::AlignRight, tr("now"));

    for (int i = 0; i < m_episodes.size(); ++i) {
        const HolderEpisode& e = m_episodes.at(i);
        const qreal y = area.top() + i * rowHeight;
        const QString who = e.owner.isEmpty() ? escapeBytes(e.token) : e.owner;
        p.setPen(pal.color(QPalette::Text));
        p.drawText(QRectF(2, y, labelWidth - 6, rowHeight), Qt::AlignVCenter | Qt::AlignRight,
                   fm.elidedText(who, Qt::ElideMiddle, labelWidth - 8));
        const qreal x1 = xOf(e.from);
        const qreal x2 = qMax(x1 + 3, xOf(e.to.isValid() ? e.to : now));
        const QRectF bar(x1, y + 3, x2 - x1, rowHeight - 6);
        p.fillRect(bar, StatusStyle::tokenColor(e.token, pal));
        const QString end = HolderEpisode::endName(e.end);
        const qreal textX =
            x2 + 4 + fm.horizontalAdvance(end) > area.right() ? x1 - fm.horizontalAdvance(end) - 4 : x2 + 4;
        p.drawText(QRectF(qMax<qreal>(labelWidth, textX), y, fm.horizontalAdvance(end) + 2, rowHeight),
                   Qt::AlignVCenter | Qt::AlignLeft, end);
    }
}

} // namespace lockscope
