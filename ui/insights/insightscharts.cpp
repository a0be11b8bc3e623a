// SPDX-License-Identifier: Apache-2.0
#include "insights/insightscharts.h"

#include "base/durationformat.h"
#include "insights/familyfigures.h"
#include "insights/familyfiguretext.h"
#include "insights/familypictures.h"
#include "record/resourcehistory.h"

#include <QAreaSeries>
#include <QChart>
#include <QChartView>
#include <QDateTime>
#include <QDateTimeAxis>
#include <QLineSeries>
#include <QPen>
#include <QValueAxis>

#include <algorithm>

namespace lockscope {

namespace {

// An axis of durations reads in ms up to two seconds, in seconds past that.
struct DurationUnit
{
    double perMs;
    QString name;

    static DurationUnit reaching(qint64 ms)
    {
        return ms <= 2000 ? DurationUnit{1.0, QStringLiteral("ms")}
                          : DurationUnit{0.001, QStringLiteral("s")};
    }
};

// `histogram` as a filled step outline, with its axes; returns the x axis for lines drawn on it.
QValueAxis* addHistogram(QChart* chart, const DurationHistogram& histogram, const QString& xTitle,
                         const QString& yTitle, const DurationUnit& unit)
{
    auto* outline = new QLineSeries;
    qint64 highest = 1;
    for (size_t i = 0; i < histogram.counts.size(); ++i) {
        const double from = double(qint64(i) * histogram.binMs) * unit.perMs;
        const double to = double(qint64(i + 1) * histogram.binMs) * unit.perMs;
        outline->append(from, double(histogram.counts[i]));
        outline->append(to, double(histogram.counts[i]));
        highest = qMax(highest, histogram.counts[i]);
    }
    auto* area = new QAreaSeries(outline);
    // An area series does not own its boundary line; without a parent the outline outlives the
    // chart's removeAllSeries() and leaks on every selection.
    outline->setParent(area);
    area->setName(yTitle);
    area->setPen(QPen(QColor(0x2a, 0x6f, 0xb0), 1.5));
    area->setBrush(QColor(0x2a, 0x6f, 0xb0, 110));
    chart->addSeries(area);
    auto* x = new QValueAxis;
    x->setRange(0, double(qint64(histogram.counts.size()) * histogram.binMs) * unit.perMs);
    x->setTitleText(xTitle);
    x->setLabelFormat(unit.perMs < 1 ? QStringLiteral("%.1f") : QStringLiteral("%d"));
    x->applyNiceNumbers();
    auto* y = new QValueAxis;
    y->setRange(0, double(highest) * 1.1);
    y->setLabelFormat(QStringLiteral("%d"));
    y->applyNiceNumbers();
    y->setTitleText(yTitle);
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    area->attachAxis(x);
    area->attachAxis(y);
    return x;
}

// A vertical line at `at` across the chart's height, in its legend as `name`.
void addMarker(QChart* chart, QValueAxis* x, double at, const QString& name, const QPen& pen)
{
    auto* y = qobject_cast<QValueAxis*>(chart->axes(Qt::Vertical).value(0));
    auto* line = new QLineSeries;
    line->setName(name);
    line->setPen(pen);
    line->append(at, 0);
    line->append(at, y ? y->max() : 1);
    chart->addSeries(line);
    line->attachAxis(x);
    if (y)
        line->attachAxis(y);
    if (x->max() < at)
        x->setMax(at * 1.05);
}

} // namespace

InsightsCharts::InsightsCharts(QWidget* parent) : QTabWidget(parent)
{
    setObjectName(QStringLiteral("insightsCharts"));
    const QString names[] = {tr("Hold times"), tr("Over time"), tr("Handovers")};
    for (int tab = 0; tab < 3; ++tab) {
        auto* chart = new QChart;
        chart->setMargins(QMargins(4, 4, 4, 4));
        chart->legend()->setAlignment(Qt::AlignTop);
        m_views[tab] = new QChartView(chart, this);
        m_views[tab]->setRenderHint(QPainter::Antialiasing);
        addTab(m_views[tab], names[tab]);
    }
    show(nullptr);
}

QChart* InsightsCharts::chart(Tab tab) const
{
    return m_views[tab]->chart();
}

QChart* InsightsCharts::restart(Tab tab, const QString& title)
{
    QChart* chart = m_views[tab]->chart();
    chart->removeAllSeries();
    for (QAbstractAxis* axis : chart->axes())
        chart->removeAxis(axis), delete axis;
    chart->setTitle(title);
    return chart;
}

void InsightsCharts::show(const FamilyFigures* family)
{
    if (!family || !family->pictures) {
        for (Tab tab : {Holds, Activity, Handovers})
            restart(tab, tr("Select a family of locks to see how it behaves."));
        return;
    }
    showHolds(*family);
    showActivity(*family);
    showHandovers(*family);
}

void InsightsCharts::showHolds(const FamilyFigures& f)
{
    const DurationHistogram& h = f.pictures->holds;
    const QString beyond = h.beyond > 0
                               ? tr(", %1 beyond %2")
                                     .arg(h.beyond)
                                     .arg(FamilyFigureText::duration(qint64(h.counts.size()) * h.binMs))
                               : QString();
    // Both texts take both arguments (QString::arg warns of a missing %1 otherwise).
    QChart* chart = restart(Holds, (h.total() == 1 ? tr("How long %1 released tenure was held%2")
                                                   : tr("How long %1 released tenures were held%2"))
                                       .arg(h.total())
                                       .arg(beyond));
    if (h.total() == 0) {
        chart->setTitle(tr("No released tenure of this family was seen from its start."));
        return;
    }
    const DurationUnit unit = DurationUnit::reaching(qMax(f.leaseMs, qint64(h.counts.size()) * h.binMs));
    QValueAxis* x = addHistogram(chart, h, tr("held (%1)").arg(unit.name), tr("tenures"), unit);
    if (f.holdMs.p99 >= 0)
        addMarker(chart, x, double(f.holdMs.p99) * unit.perMs,
                  tr("p99 %1").arg(FamilyFigureText::duration(f.holdMs.p99)),
                  QPen(Qt::darkGray, 1.5, Qt::DashLine));
    if (f.leaseMs > 0) {
        const QColor leaseColour = f.lowHeadroom ? QColor(0xc0, 0x20, 0x20) : QColor(0xe0, 0x80, 0x10);
        addMarker(chart, x, double(f.leaseMs) * unit.perMs,
                  tr("lease %1").arg(FamilyFigureText::duration(f.leaseMs)), QPen(leaseColour, 2.5));
    }
}

void InsightsCharts::showActivity(const FamilyFigures& f)
{
    const ActivityTimeline& t = f.pictures->activity;
    QChart* chart = restart(
        Activity, tr("Acquisitions and endings per %1").arg(formatDuration(t.binMs, DurationStyle::Spaced)));
    auto* x = new QDateTimeAxis;
    const qint64 toMs = t.fromMs + qint64(t.acquired.size()) * t.binMs;
    x->setRange(QDateTime::fromMSecsSinceEpoch(t.fromMs), QDateTime::fromMSecsSinceEpoch(toMs));
    x->setFormat(toMs - t.fromMs > 24 * 3600 * 1000 ? QStringLiteral("MM-dd HH:mm")
                                                    : QStringLiteral("HH:mm:ss"));
    x->setTickCount(6);
    auto* y = new QValueAxis;
    y->setLabelFormat(QStringLiteral("%d"));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    qint64 highest = 1;
    const auto add = [&](const std::vector<qint64>& counts, const QString& name, const QColor& colour) {
        if (std::all_of(counts.cbegin(), counts.cend(), [](qint64 n) { return n == 0; }))
            return;
        auto* line = new QLineSeries;
        line->setName(name);
        line->setPen(QPen(colour, 2));
        for (size_t i = 0; i < counts.size(); ++i) {
            line->append(double(t.fromMs + qint64(i) * t.binMs + t.binMs / 2), double(counts[i]));
            highest = qMax(highest, counts[i]);
        }
        chart->addSeries(line);
        line->attachAxis(x);
        line->attachAxis(y);
    };
    using End = Episode::End;
    add(t.acquired, tr("acquired"), QColor(0x2a, 0x6f, 0xb0));
    add(t.ended[size_t(End::Released)], tr("released"), QColor(0x3a, 0x9a, 0x40));
    add(t.ended[size_t(End::Expired)], tr("expired"), QColor(0xc0, 0x20, 0x20));
    add(t.ended[size_t(End::ForceReleased)], tr("force-released"), QColor(0x80, 0x40, 0xa0));
    add(t.ended[size_t(End::Replaced)], tr("replaced"), QColor(0xe0, 0x80, 0x10));
    add(t.ended[size_t(End::Lost)], tr("lost"), QColor(0x60, 0x60, 0x60));
    y->setRange(0, double(highest) * 1.1);
    y->applyNiceNumbers();
}

void InsightsCharts::showHandovers(const FamilyFigures& f)
{
    const DurationHistogram& h = f.pictures->handoverGaps;
    QChart* chart = restart(
        Handovers,
        (h.total() == 1 ? tr("From a release or expiry to the next holder: 1 handover")
                        : tr("From a release or expiry to the next holder: %1 handovers").arg(h.total())));
    if (h.total() == 0) {
        chart->setTitle(tr("No lock of this family was handed from one holder to the next."));
        return;
    }
    const DurationUnit unit = DurationUnit::reaching(qint64(h.counts.size()) * h.binMs);
    QValueAxis* x = addHistogram(chart, h, tr("free for (%1)").arg(unit.name), tr("handovers"), unit);
    if (f.handoverGapMs.p50 >= 0)
        addMarker(chart, x, double(f.handoverGapMs.p50) * unit.perMs,
                  tr("p50 %1").arg(FamilyFigureText::duration(f.handoverGapMs.p50)),
                  QPen(Qt::darkGray, 1.5, Qt::DashLine));
}

} // namespace lockscope
