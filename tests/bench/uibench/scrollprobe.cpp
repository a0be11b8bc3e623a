// SPDX-License-Identifier: Apache-2.0
#include "bench/uibench/scrollprobe.h"

#include <QAbstractScrollArea>
#include <QScrollBar>

#include <algorithm>

ScrollProbe::ScrollProbe(QAbstractScrollArea* view, QObject* parent) : QObject(parent), m_view(view)
{
    m_timer.setInterval(16);
    m_timer.setTimerType(Qt::PreciseTimer);
    connect(&m_timer, &QTimer::timeout, this, &ScrollProbe::frame);
}

void ScrollProbe::start()
{
    m_timer.start();
}

void ScrollProbe::stop()
{
    m_timer.stop();
}

void ScrollProbe::frame()
{
    QElapsedTimer clock;
    clock.start();
    QScrollBar* bar = m_view->verticalScrollBar();
    const int next = bar->value() + bar->pageStep();
    bar->setValue(next > bar->maximum() ? bar->minimum() : next);
    m_view->viewport()->repaint();
    m_framesUs.push_back(clock.nsecsElapsed() / 1000);
}

double ScrollProbe::maxFrameMs() const
{
    return m_framesUs.empty() ? 0 : double(*std::max_element(m_framesUs.begin(), m_framesUs.end())) / 1000.0;
}

double ScrollProbe::percentileFrameMs(double p) const
{
    if (m_framesUs.empty())
        return 0;
    std::vector<qint64> sorted = m_framesUs;
    std::sort(sorted.begin(), sorted.end());
    const size_t at = std::min(sorted.size() - 1, size_t(double(sorted.size() - 1) * p / 100.0 + 0.5));
    return double(sorted[at]) / 1000.0;
}
