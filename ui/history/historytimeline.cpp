// SPDX-License-Identifier: Apache-2.0
#include "history/historytimeline.h"

#include "base/bytesdisplay.h"
#include "widgets/plaintooltip.h"
#include "widgets/statusstyle.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>

namespace lockscope {

namespace {
constexpr int maxBars = 12;            // the most recent in view; older ones are in the export
constexpr qint64 minimumSpanMs = 1000; // the closest zoom
} // namespace

HistoryTimeline::HistoryTimeline(QWidget* parent) : QWidget(parent)
{
    setFocusPolicy(Qt::StrongFocus);
    setToolTip(tr("Wheel: zoom. Shift+wheel or drag: scroll. Home: everything."));
}

QSize HistoryTimeline::sizeHint() const
{
    return {480, fontMetrics().height() * 8};
}

QString HistoryTimeline::endText(Episode::End end)
{
    switch (end) {
    case Episode::End::Open:
        return tr("held");
    case Episode::End::Released:
        return tr("released");
    case Episode::End::Expired:
        return tr("expired");
    case Episode::End::ForceReleased:
        return tr("force-released");
    case Episode::End::Lost:
        return tr("lost on a master restart");
    case Episode::End::Replaced:
        return tr("replaced");
    }
    return QString();
}

qint64 HistoryTimeline::barEndMs(const Episode& episode, qint64 nowMs) const
{
    if (episode.endMs >= 0)
        return episode.endMs;
    // Open when the recording stopped: what came after is unknown, not "still held" (a review of a
    // recording copied from a server days ago would otherwise draw days of holding).
    if (m_recordedUntil.isValid())
        return qBound(episode.startMs, m_recordedUntil.toMSecsSinceEpoch(), nowMs);
    return nowMs;
}

bool HistoryTimeline::isMark(RecordEvent::Kind kind)
{
    using Kind = RecordEvent::Kind;
    // What the tracer saw a holder past its lease, or a non-holder, do to the lock (who took it is
    // in the bars already; attempts turned away are the Insights view's contention).
    return kind == Kind::MasterRestarted || kind == Kind::Failover || kind == Kind::MasterDown ||
           kind == Kind::AtRisk || kind == Kind::TypeChanged ||
           (isTracedKind(kind) && kind != Kind::TracedHolder && kind != Kind::TracedRefused);
}

QString HistoryTimeline::markText(const HistoryEvent& mark)
{
    using Kind = RecordEvent::Kind;
    const RecordEvent& e = mark.event;
    const QString master = mark.masterName.isEmpty() ? tr("a master") : mark.masterName;
    QString text;
    switch (e.kind) {
    case Kind::MasterRestarted:
        text = tr("%1 restarted").arg(master);
        break;
    case Kind::Failover:
        text = tr("%1 failed over").arg(master);
        break;
    case Kind::MasterDown:
        text = tr("%1 down").arg(master);
        break;
    case Kind::AtRisk:
        text = tr("at risk");
        break;
    case Kind::TypeChanged:
        text = tr("type changed on %1").arg(master);
        break;
    default:
        text = recordEventKindName(e.kind);
        break;
    }
    // The detail is in the words the recorder stored (escaped server bytes).
    return e.detail.isEmpty() ? text : tr("%1: %2").arg(text, e.detail);
}

QString HistoryTimeline::barText(const Episode& e)
{
    const auto at = [](qint64 ms) {
        return QDateTime::fromMSecsSinceEpoch(ms).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz"));
    };
    QStringList lines{tr("token %1").arg(escapeBytes(e.token))};
    if (!e.owner.isEmpty())
        lines << tr("owner %1").arg(e.owner);
    lines << (e.endMs >= 0 ? tr("%1 to %2, %3").arg(at(e.startMs), at(e.endMs), endText(e.ended))
                           : tr("since %1, %2").arg(at(e.startMs), endText(e.ended)));
    if (e.extensions > 0)
        lines << tr("extended %n time(s)", nullptr, e.extensions);
    if (!e.masters.isEmpty())
        lines << tr("held on %1 (at most %2 at once)")
                     .arg(e.masters.join(QStringLiteral(", ")))
                     .arg(e.maxHolding);
    if (!e.auditId.isEmpty())
        lines << tr("audit record %1").arg(e.auditId);
    return lines.join(QLatin1Char('\n'));
}

void HistoryTimeline::setEvents(const QList<HistoryEvent>& events)
{
    m_marks.clear();
    for (const HistoryEvent& e : events)
        if (isMark(e.event.kind))
            m_marks << e;
    update();
}

qreal HistoryTimeline::xAt(qint64 ms) const
{
    const auto [start, end] = visibleRange();
    const qint64 span = qMax<qint64>(1, start.msecsTo(end));
    const QRectF a = area();
    return a.left() + a.width() * double(ms - start.toMSecsSinceEpoch()) / double(span);
}

bool HistoryTimeline::event(QEvent* event)
{
    if (event->type() != QEvent::ToolTip)
        return QWidget::event(event);
    // The marks under the pointer, in words; anywhere else the widget's own hint.
    const auto* help = static_cast<QHelpEvent*>(event);
    const auto [start, end] = visibleRange();
    QStringList lines;
    for (const HistoryEvent& m : std::as_const(m_marks)) {
        const qint64 at = m.event.timeMs;
        if (at < start.toMSecsSinceEpoch() || at > end.toMSecsSinceEpoch() ||
            qAbs(xAt(at) - help->pos().x()) > 4)
            continue;
        lines << tr("%1  %2").arg(QDateTime::fromMSecsSinceEpoch(at).toString(QStringLiteral("HH:mm:ss.zzz")),
                                  markText(m));
    }
    for (const auto& [rect, episode] : std::as_const(m_bars))
        if (lines.isEmpty() && rect.adjusted(-2, -2, 2, 2).contains(help->pos()))
            lines << barText(episode);
    if (lines.isEmpty())
        return QWidget::event(event);
    QToolTip::showText(help->globalPos(), plainToolTip(lines.join(QLatin1Char('\n'))), this);
    return true;
}

void HistoryTimeline::setEpisodes(const QByteArray& resource, const QList<Episode>& episodes,
                                  const QDateTime& since, const QList<WatchGap>& gaps,
                                  const QDateTime& recordedUntil)
{
    m_recordedUntil = recordedUntil;
    if (resource != m_resource)
        showAll();
    m_resource = resource;
    m_episodes = episodes;
    m_gaps = gaps;
    m_since = since;
    update();
}

QPair<qint64, qint64> HistoryTimeline::fullRange() const
{
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    qint64 start = m_since.isValid() ? m_since.toMSecsSinceEpoch() : now;
    for (const Episode& e : m_episodes)
        start = qMin(start, e.startMs);
    for (const WatchGap& g : m_gaps)
        start = qMin(start, g.from.toMSecsSinceEpoch());
    return {start, qMax(now, start + minimumSpanMs)};
}

QPair<QDateTime, QDateTime> HistoryTimeline::visibleRange() const
{
    const auto [start, end] = fullRange();
    if (m_viewSpanMs <= 0)
        return {QDateTime::fromMSecsSinceEpoch(start), QDateTime::fromMSecsSinceEpoch(end)};
    return {QDateTime::fromMSecsSinceEpoch(m_viewEndMs - m_viewSpanMs),
            QDateTime::fromMSecsSinceEpoch(m_viewEndMs)};
}

void HistoryTimeline::zoom(double factor, double at)
{
    const auto [from, to] = visibleRange();
    const qint64 span = from.msecsTo(to);
    const auto [start, end] = fullRange();
    const qint64 newSpan = qBound(minimumSpanMs, qint64(double(span) / factor), end - start);
    const qint64 pivot = from.toMSecsSinceEpoch() + qint64(double(span) * qBound(0.0, at, 1.0));
    m_viewSpanMs = newSpan >= end - start ? 0 : newSpan;
    m_viewEndMs = pivot + qint64(double(newSpan) * (1.0 - qBound(0.0, at, 1.0)));
    scroll(0); // back inside the recorded range
}

void HistoryTimeline::scroll(double fraction)
{
    if (m_viewSpanMs <= 0) {
        update();
        return;
    }
    const auto [start, end] = fullRange();
    m_viewEndMs = qBound(start + m_viewSpanMs, m_viewEndMs + qint64(double(m_viewSpanMs) * fraction), end);
    update();
}

void HistoryTimeline::showAll()
{
    m_viewSpanMs = 0;
    update();
}

QRectF HistoryTimeline::area() const
{
    const QFontMetrics fm = fontMetrics();
    const int labelWidth = fm.horizontalAdvance(QStringLiteral("0000000000000000000000")) + 8;
    return QRectF(labelWidth, fm.height() + 6, width() - labelWidth - 8, height() - 2 * fm.height() - 10);
}

void HistoryTimeline::wheelEvent(QWheelEvent* event)
{
    const QPoint delta = event->angleDelta();
    const QRectF a = area();
    if (event->modifiers() & Qt::ShiftModifier || delta.x() != 0)
        scroll(-double(delta.x() != 0 ? delta.x() : delta.y()) / 1200.0);
    else if (delta.y() != 0)
        zoom(delta.y() > 0 ? 1.25 : 0.8, (event->position().x() - a.left()) / qMax<qreal>(1, a.width()));
    event->accept();
}

void HistoryTimeline::mousePressEvent(QMouseEvent* event)
{
    m_dragX = int(event->position().x());
}

void HistoryTimeline::mouseMoveEvent(QMouseEvent* event)
{
    if (m_dragX < 0 || !(event->buttons() & Qt::LeftButton))
        return;
    const int x = int(event->position().x());
    scroll(-double(x - m_dragX) / qMax<qreal>(1, area().width()));
    m_dragX = x;
}

void HistoryTimeline::keyPressEvent(QKeyEvent* event)
{
    switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoom(2);
        break;
    case Qt::Key_Minus:
        zoom(0.5);
        break;
    case Qt::Key_Left:
        scroll(-0.25);
        break;
    case Qt::Key_Right:
        scroll(0.25);
        break;
    case Qt::Key_Home:
        showAll();
        break;
    default:
        QWidget::keyPressEvent(event);
    }
}

void HistoryTimeline::paintEvent(QPaintEvent*)
{
    m_bars.clear();
    QPainter p(this);
    const QPalette pal = palette();
    p.fillRect(rect(), pal.color(QPalette::Base));
    const QFontMetrics fm = fontMetrics();
    if (m_episodes.isEmpty() && m_gaps.isEmpty()) {
        p.setPen(pal.color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter,
                   m_resource.isEmpty() ? tr("Select a lock to see its holders.")
                                        : tr("No holders seen yet."));
        return;
    }
    const QDateTime now = QDateTime::currentDateTime();
    const auto [start, end] = visibleRange();
    const qint64 span = qMax<qint64>(1, start.msecsTo(end));
    const QRectF area = this->area();
    const qreal labelWidth = area.left();
    // The holders in view, the most recent last.
    QList<Episode> shown;
    for (const Episode& e : m_episodes)
        if (e.startMs <= end.toMSecsSinceEpoch() && (e.endMs < 0 || e.endMs >= start.toMSecsSinceEpoch()))
            shown << e;
    if (shown.size() > maxBars)
        shown = shown.mid(shown.size() - maxBars);
    const qreal rowHeight = qMin<qreal>(fm.height() + 6, area.height() / qMax<qsizetype>(1, shown.size()));
    const qint64 startMs = start.toMSecsSinceEpoch();
    auto xOfMs = [&](qint64 ms) {
        return qBound(area.left(), area.left() + area.width() * double(ms - startMs) / double(span),
                      area.right());
    };
    auto xOf = [&](const QDateTime& t) { return xOfMs(t.toMSecsSinceEpoch()); };
    const bool sameDay = start.date() == end.date();
    const QString format = sameDay ? QStringLiteral("HH:mm:ss") : QStringLiteral("yyyy-MM-dd HH:mm:ss");

    p.setPen(pal.color(QPalette::Text));
    p.drawText(QRectF(0, 0, width(), fm.height() + 4), Qt::AlignLeft | Qt::AlignVCenter,
               tr("%1 — holders since %2").arg(escapeBytes(m_resource), start.toString(format)));
    // Where nobody watched: hatched, labelled, never mistaken for "free".
    for (const WatchGap& g : m_gaps) {
        if (g.to < start || g.from > end)
            continue;
        const QRectF r(QPointF(xOf(g.from), area.top()), QPointF(xOf(g.to), area.bottom()));
        p.fillRect(r, QBrush(pal.color(QPalette::Mid), Qt::BDiagPattern));
        p.setPen(pal.color(QPalette::PlaceholderText));
        if (r.width() > fm.horizontalAdvance(tr("not recorded")) + 4)
            p.drawText(r, Qt::AlignCenter, tr("not recorded"));
    }
    // Time axis.
    p.setPen(pal.color(QPalette::Mid));
    p.drawLine(QPointF(area.left(), area.bottom() + 2), QPointF(area.right(), area.bottom() + 2));
    p.setPen(pal.color(QPalette::PlaceholderText));
    p.drawText(QRectF(area.left(), area.bottom() + 4, 200, fm.height()), Qt::AlignLeft,
               start.toString(format));
    p.drawText(QRectF(area.right() - 200, area.bottom() + 4, 200, fm.height()), Qt::AlignRight,
               qAbs(end.msecsTo(now)) < 1000 ? tr("now") : end.toString(format));

    // Master events and at-risk marks: a tick across the bars, a triangle on the axis.
    const QColor markColour = StatusStyle::warningColor(pal);
    for (const HistoryEvent& m : std::as_const(m_marks)) {
        const qint64 at = m.event.timeMs;
        if (at < startMs || at > end.toMSecsSinceEpoch())
            continue;
        const qreal x = xOfMs(at);
        p.setPen(QPen(markColour, 1, Qt::DashLine));
        p.drawLine(QPointF(x, area.top()), QPointF(x, area.bottom()));
        QPolygonF triangle;
        triangle << QPointF(x - 4, area.bottom() + 8) << QPointF(x + 4, area.bottom() + 8)
                 << QPointF(x, area.bottom() + 2);
        p.setPen(Qt::NoPen);
        p.setBrush(markColour);
        p.drawPolygon(triangle);
        p.setBrush(Qt::NoBrush);
    }

    const qint64 nowMs = now.toMSecsSinceEpoch();
    for (int i = 0; i < shown.size(); ++i) {
        const Episode& e = shown.at(i);
        const qreal y = area.top() + i * rowHeight;
        const QString who = e.owner.isEmpty() ? escapeBytes(e.token) : e.owner;
        p.setPen(pal.color(QPalette::Text));
        p.drawText(QRectF(2, y, labelWidth - 6, rowHeight), Qt::AlignVCenter | Qt::AlignRight,
                   fm.elidedText(who, Qt::ElideMiddle, int(labelWidth) - 8));
        const qreal x1 = xOfMs(e.startMs);
        const qint64 barEnd = barEndMs(e, nowMs);
        const qreal x2 = qMax(x1 + 3, xOfMs(barEnd));
        const QRectF bar(x1, y + 3, x2 - x1, rowHeight - 6);
        p.fillRect(bar, StatusStyle::tokenColor(e.token, pal));
        m_bars.append({bar, e});
        const bool cutShort = e.endMs < 0 && barEnd < nowMs;
        const QString ending = cutShort ? tr("held when the recording stopped") : endText(e.ended);
        const qreal textX = x2 + 4 + fm.horizontalAdvance(ending) > area.right()
                                ? x1 - fm.horizontalAdvance(ending) - 4
                                : x2 + 4;
        p.drawText(QRectF(qMax<qreal>(labelWidth, textX), y, fm.horizontalAdvance(ending) + 2, rowHeight),
                   Qt::AlignVCenter | Qt::AlignLeft, ending);
    }
    // Two holders at once: red across both bars where they overlap, as the demo draws it.
    m_overlapsDrawn = 0;
    for (int i = 0; i < shown.size(); ++i)
        for (int j = i + 1; j < shown.size(); ++j) {
            const Episode& a = shown.at(i);
            const Episode& b = shown.at(j);
            const qint64 from = qMax(a.startMs, b.startMs);
            const qint64 to = qMin(barEndMs(a, nowMs), barEndMs(b, nowMs));
            if (a.token == b.token || to <= from)
                continue;
            ++m_overlapsDrawn;
            const qreal x1 = xOfMs(from);
            const qreal x2 = qMax(x1 + 2, xOfMs(to));
            for (int row : {i, j})
                p.fillRect(QRectF(x1, area.top() + row * rowHeight + 3, x2 - x1, rowHeight - 6),
                           StatusStyle::overlapColor());
        }
}

} // namespace lockscope
