// SPDX-License-Identifier: Apache-2.0
#include "widgets/repaintpacer.h"

#include "base/monotonicclock.h"

#include <QEvent>
#include <QWidget>

namespace lockscope {

namespace {
// After input, how long changes paint without pacing: a user scrolling through a table that
// changes underneath sees every frame.
constexpr qint64 interactionGraceNs = 500'000'000;
} // namespace

RepaintPacer::RepaintPacer(QWidget* target, int intervalMs, QObject* parent)
    : QObject(parent), m_target(target), m_intervalNs(qint64(intervalMs) * 1'000'000)
{
    m_release.setSingleShot(true);
    m_release.setTimerType(Qt::PreciseTimer);
    connect(&m_release, &QTimer::timeout, this, &RepaintPacer::release);
    target->installEventFilter(this);
}

void RepaintPacer::pace()
{
    if (m_release.isActive() || !m_target->isVisible())
        return;
    const qint64 now = monotonicNs();
    const qint64 dueNs = m_passedNs + m_intervalNs;
    if (m_passedNs < 0 || now >= dueNs ||
        (m_interactedNs >= 0 && now - m_interactedNs < interactionGraceNs)) {
        m_passedNs = now; // a quiet interval (or a user at work): this change paints at once
        return;
    }
    m_target->setUpdatesEnabled(false);
    m_release.start(int((dueNs - now + 999'999) / 1'000'000));
}

void RepaintPacer::interacted()
{
    m_interactedNs = monotonicNs();
    if (m_release.isActive()) {
        m_release.stop();
        release();
    }
}

void RepaintPacer::release()
{
    m_passedNs = monotonicNs();
    m_target->setUpdatesEnabled(true); // and repaints the whole widget
}

bool RepaintPacer::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_target) {
        switch (event->type()) {
        case QEvent::MouseButtonPress:
        case QEvent::MouseButtonDblClick:
        case QEvent::Wheel:
        case QEvent::KeyPress:
            interacted();
            break;
        default:
            break;
        }
    }
    return QObject::eventFilter(watched, event);
}

} // namespace lockscope
