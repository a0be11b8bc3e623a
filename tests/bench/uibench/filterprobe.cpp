// SPDX-License-Identifier: Apache-2.0
#include "bench/uibench/filterprobe.h"

#include "locks/lockfilterbar.h"
#include "locks/lockfilterproxy.h"

#include <QLineEdit>
#include <QToolButton>

using namespace lockscope;

FilterProbe::FilterProbe(LockFilterBar* bar, LockFilterProxy* proxy, QObject* parent)
    : QObject(parent), m_bar(bar), m_proxy(proxy)
{
    m_poll.setInterval(5);
    connect(&m_poll, &QTimer::timeout, this, &FilterProbe::poll);
}

void FilterProbe::typeText(const QString& text, int rows)
{
    Step step;
    step.rows = rows;
    for (QChar c : text)
        step.actions.push_back([this, c] { m_bar->textEdit()->insert(QString(c)); });
    m_steps.push_back(std::move(step));
}

void FilterProbe::clearText(int rows)
{
    m_steps.push_back({{[this] { m_bar->textEdit()->clear(); }}, rows});
}

void FilterProbe::toggleQuickFilter(int flag, int rows)
{
    m_steps.push_back({{[this, flag] {
                           for (QToolButton* b : m_bar->quickButtons())
                               if (b->property("quickFilter").toInt() == flag)
                                   b->toggle();
                       }},
                       rows});
}

void FilterProbe::start(int pauseMs, int keystrokeMs, int timeoutMs)
{
    m_pauseMs = pauseMs;
    m_keystrokeMs = keystrokeMs;
    m_timeoutMs = timeoutMs;
    m_done = 0;
    m_action = 0;
    next();
}

// The step's next keystroke or click; after its last, polls for the result.
void FilterProbe::next()
{
    if (m_done >= m_steps.size()) {
        emit finished();
        return;
    }
    const Step& step = m_steps[m_done];
    step.actions[m_action++]();
    if (m_action < step.actions.size()) {
        QTimer::singleShot(m_keystrokeMs, this, &FilterProbe::next);
        return;
    }
    m_clock.start();
    m_poll.start();
}

void FilterProbe::poll()
{
    const qint64 elapsed = m_clock.elapsed();
    if (m_proxy->rowCount() != m_steps[m_done].rows) {
        if (elapsed > m_timeoutMs) {
            m_poll.stop();
            m_timedOut = true;
            emit finished();
        }
        return;
    }
    m_poll.stop();
    m_maxApplyMs = qMax(m_maxApplyMs, elapsed);
    ++m_done;
    m_action = 0;
    QTimer::singleShot(m_pauseMs, this, &FilterProbe::next);
}
