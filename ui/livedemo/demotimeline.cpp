// SPDX-License-Identifier: Apache-2.0
#include "livedemo/demotimeline.h"

#include "base/monotonicclock.h"
#include "demo/democlient.h"
#include "demo/demoscenario.h"
#include "demo/demosimulation.h"

#include <QPainter>
#include <QPainterPath>

#include <algorithm>

namespace lockscope {

namespace {

constexpr int labelWidth = 150;
constexpr int masterRow = 13;
constexpr int laneHeight = 24;
constexpr int axisHeight = 18;

} // namespace

DemoTimeline::DemoTimeline(DemoSimulation* simulation, QWidget* parent) : QWidget(parent), m_sim(simulation)
{
    setObjectName(QStringLiteral("demoTimeline"));
    setAttribute(Qt::WA_OpaquePaintEvent);
    m_tick.setInterval(100);
    connect(&m_tick, &QTimer::timeout, this, qOverload<>(&QWidget::update));
}

QColor DemoTimeline::clientColor(int client)
{
    static const QList<QColor> colors{QColor(31, 119, 180), QColor(44, 160, 44),  QColor(148, 103, 189),
                                      QColor(23, 190, 207), QColor(255, 127, 14), QColor(140, 86, 75)};
    return colors.at(client % colors.size());
}

void DemoTimeline::setSpanMs(qint64 ms)
{
    m_spanMs = qMax<qint64>(5000, ms);
    update();
}

void DemoTimeline::showEvent(QShowEvent* event)
{
    m_tick.start();
    QWidget::showEvent(event);
}

void DemoTimeline::hideEvent(QHideEvent* event)
{
    m_tick.stop();
    QWidget::hideEvent(event);
}

int DemoTimeline::Frame::x(qint64 t) const
{
    return left + int(double(qBound(from, t, now) - from) * width / double(now - from));
}

void DemoTimeline::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    p.setRenderHint(QPainter::Antialiasing, false);
    Frame f;
    f.now = monotonicMs();
    f.from = f.now - m_spanMs;
    f.left = labelWidth;
    f.width = qMax(1, this->width() - f.left - 8);
    f.text = palette().color(QPalette::Text);
    f.faint = palette().color(QPalette::Mid);
    f.small = font();
    f.small.setPointSizeF(f.small.pointSizeF() * 0.8);

    // The lanes share what the strips, the axis and the legend leave: a narrow, short dock (the
    // demo on a 1366x768 screen) cut the legend off below the widget.
    const int legendHeight = paintLegend(p, f, 0, true);
    const int lanes = qMax<int>(1, int(m_sim->lanes().size()));
    const int room = height() - 4 - m_sim->cluster()->size() * masterRow - 6 - axisHeight - legendHeight;
    f.laneHeight = qBound(14, room / lanes, laneHeight);
    const int lanesTop = paintMasters(p, f, 4);
    const int lanesBottom = paintLanes(p, f, lanesTop);
    // Outages also shade the lanes, so a lost quorum lines up with what the clients did.
    shadeOutages(p, f, lanesTop, lanesBottom);
    const int legendTop = paintAxis(p, f, lanesBottom);
    paintLegend(p, f, qMin(legendTop, height() - legendHeight), false);
}

int DemoTimeline::paintMasters(QPainter& p, const Frame& f, int y)
{
    // Masters: a thin strip each, grey where killed, amber where paused, pale while starting.
    const int masters = m_sim->cluster()->size();
    m_outagesDrawn = 0;
    p.setFont(f.small);
    for (int m = 0; m < masters; ++m) {
        const QRect row(f.left, y + m * masterRow, f.width, masterRow - 2);
        p.fillRect(row, QColor(120, 190, 120, 90));
        p.setPen(f.text);
        p.drawText(QRect(4, row.top() - 2, f.left - 8, masterRow + 2), Qt::AlignLeft | Qt::AlignVCenter,
                   tr("master %1").arg(m + 1));
    }
    for (const DemoOutage& o : m_sim->outages()) {
        const qint64 end = o.isOpen() ? f.now : o.endMs;
        if (end < f.from || o.master >= masters)
            continue;
        const QRect r(f.x(o.startMs), y + o.master * masterRow, qMax(2, f.x(end) - f.x(o.startMs)),
                      masterRow - 2);
        p.fillRect(r, o.kind == DemoCluster::MasterState::Paused ? QColor(240, 170, 30) : QColor(90, 90, 90));
        ++m_outagesDrawn;
    }
    return y + masters * masterRow + 6;
}

int DemoTimeline::paintLanes(QPainter& p, const Frame& f, int y)
{
    // Lanes: one per resource.
    const QFont laneFont = font();
    const QList<QByteArray>& lanes = m_sim->lanes();
    const QList<DemoHold>& holds = m_sim->holds();
    m_overlapsDrawn = 0;
    m_gapsMarked = 0;
    for (int lane = 0; lane < lanes.size(); ++lane) {
        const QRect row(f.left, y + lane * f.laneHeight, f.width, f.laneHeight - 4);
        p.fillRect(row, lane % 2 ? palette().alternateBase() : palette().base());
        p.setPen(f.faint);
        p.drawRect(row.adjusted(0, 0, -1, -1));
        p.setFont(laneFont);
        p.setPen(f.text);
        p.drawText(
            QRect(4, row.top(), f.left - 8, row.height()), Qt::AlignLeft | Qt::AlignVCenter,
            p.fontMetrics().elidedText(QString::fromUtf8(lanes.at(lane)), Qt::ElideMiddle, f.left - 8));
        QList<const DemoHold*> inLane;
        for (const DemoHold& h : holds)
            if (h.resource == lanes.at(lane) && (h.isOpen() || h.endMs >= f.from))
                inLane << &h;
        for (const DemoHold* h : inLane) {
            const qint64 end = h->isOpen() ? f.now : h->endMs;
            const QRect bar(f.x(h->startMs), row.top() + 3, qMax(2, f.x(end) - f.x(h->startMs)),
                            row.height() - 6);
            p.fillRect(bar, clientColor(h->client));
            if (bar.width() > 40) {
                p.setPen(Qt::white);
                p.setFont(f.small);
                p.drawText(bar.adjusted(3, 0, -2, 0), Qt::AlignLeft | Qt::AlignVCenter,
                           h->fencing < 0
                               ? DemoSimulation::clientName(h->client)
                               : tr("%1 #%2").arg(DemoSimulation::clientName(h->client)).arg(h->fencing));
            }
        }
        paintOverlaps(p, f, inLane, row);
        markGaps(p, f, inLane, row);
    }
    return y + int(lanes.size()) * f.laneHeight;
}

void DemoTimeline::markGaps(QPainter& p, const Frame& f, const QList<const DemoHold*>& inLane,
                            const QRect& row)
{
    // One holder stopping, the next starting a moment later: at a minute's span the clock-drift
    // allowance (ttl x 0.01 + 2 ms) is under a pixel. Drawn 8 px wide, its length beside it.
    constexpr int minimumPx = 8;
    // The scenarios' own resources only: the background clients' handovers are everyday traffic.
    const QList<DemoScenario> scenarios = allDemoScenarios();
    if (inLane.isEmpty() || std::none_of(scenarios.cbegin(), scenarios.cend(), [&inLane](DemoScenario s) {
            return demoScenarioResource(s) == inLane.first()->resource;
        }))
        return;
    for (const DemoHold* a : inLane) {
        // Only a holder that stopped because its validity ran out: a release handed over at once
        // is the background clients' everyday traffic, not a gap to point at.
        if (a->isOpen() || a->endMs < a->validUntilMs)
            continue;
        const DemoHold* next = nullptr;
        for (const DemoHold* b : inLane)
            if (b != a && b->startMs >= a->endMs && (!next || b->startMs < next->startMs))
                next = b;
        if (!next || next->startMs - a->endMs > 2000 || f.x(next->startMs) - f.x(a->endMs) >= minimumPx)
            continue;
        const int x = f.x(a->endMs);
        const QRect gap(x, row.top() + 1, minimumPx, row.height() - 2);
        p.fillRect(gap, palette().base());
        p.setPen(QPen(f.text, 1, Qt::DotLine));
        p.drawRect(gap.adjusted(0, 0, -1, -1));
        p.setFont(f.small);
        p.setPen(f.text);
        const QString label = tr("%1 ms").arg(next->startMs - a->endMs);
        p.drawText(
            QRect(gap.right() + 2, row.top() - 1, p.fontMetrics().horizontalAdvance(label) + 4, row.height()),
            Qt::AlignLeft | Qt::AlignTop, label);
        ++m_gapsMarked;
    }
}

void DemoTimeline::paintOverlaps(QPainter& p, const Frame& f, const QList<const DemoHold*>& inLane,
                                 const QRect& row)
{
    // Two holders at once: the overlapping stretch in red, over both bars.
    for (int i = 0; i < inLane.size(); ++i)
        for (int j = i + 1; j < inLane.size(); ++j) {
            const DemoHold* a = inLane.at(i);
            const DemoHold* b = inLane.at(j);
            if (a->client == b->client)
                continue;
            const qint64 start = qMax(a->startMs, b->startMs);
            const qint64 end = qMin(a->isOpen() ? f.now : a->endMs, b->isOpen() ? f.now : b->endMs);
            if (end <= start)
                continue;
            const QRect red(f.x(start), row.top() + 1, qMax(3, f.x(end) - f.x(start)), row.height() - 2);
            p.fillRect(red, overlapColor());
            p.setPen(Qt::white);
            p.setFont(f.small);
            p.drawText(red.adjusted(3, 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter,
                       tr("%1 + %2").arg(DemoSimulation::clientName(a->client),
                                         DemoSimulation::clientName(b->client)));
            ++m_overlapsDrawn;
        }
}

void DemoTimeline::shadeOutages(QPainter& p, const Frame& f, int lanesTop, int lanesBottom) const
{
    for (const DemoOutage& o : m_sim->outages()) {
        const qint64 end = o.isOpen() ? f.now : o.endMs;
        if (end < f.from)
            continue;
        p.fillRect(
            QRect(f.x(o.startMs), lanesTop, qMax(1, f.x(end) - f.x(o.startMs)), lanesBottom - lanesTop),
            QColor(0, 0, 0, 18));
    }
}

int DemoTimeline::paintAxis(QPainter& p, const Frame& f, int y) const
{
    // Time axis, seconds ago.
    p.setFont(f.small);
    p.setPen(f.faint);
    for (qint64 s = 0; s <= m_spanMs / 1000; s += 10) {
        const int tx = f.x(f.now - s * 1000);
        p.drawLine(tx, y, tx, y + 4);
        p.setPen(f.text);
        p.drawText(QRect(tx - 30, y + 4, 60, axisHeight - 4), Qt::AlignCenter,
                   s == 0 ? tr("now") : tr("-%1 s").arg(s));
        p.setPen(f.faint);
    }
    return y + axisHeight;
}

int DemoTimeline::paintLegend(QPainter& p, const Frame& f, int y, bool dryRun)
{
    // Legend: clients, overlap and outage colours, wrapped to the width.
    constexpr int rowHeight = 16;
    p.setFont(f.small);
    int lx = 4;
    int ly = y;
    QRect drawn;
    auto key = [&](const QColor& c, const QString& label) {
        const int w = p.fontMetrics().horizontalAdvance(label);
        if (lx > 4 && lx + 16 + w + 4 > width() - 4) {
            lx = 4;
            ly += rowHeight;
        }
        drawn |= QRect(lx, ly, 16 + w + 4, rowHeight);
        if (!dryRun) {
            p.fillRect(QRect(lx, ly + 3, 12, 10), c);
            p.setPen(f.text);
            p.drawText(QRect(lx + 16, ly, w + 4, rowHeight), Qt::AlignLeft | Qt::AlignVCenter, label);
        }
        lx += 16 + w + 14;
    };
    for (int c = 0; c < m_sim->clients().size(); ++c)
        key(clientColor(c), DemoSimulation::clientName(c));
    key(overlapColor(), tr("two holders"));
    key(QColor(90, 90, 90), tr("master killed"));
    key(QColor(240, 170, 30), tr("master paused"));
    if (!dryRun)
        m_legendRect = drawn;
    return ly - y + rowHeight;
}

} // namespace lockscope
