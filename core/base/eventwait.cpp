// SPDX-License-Identifier: Apache-2.0
#include "base/eventwait.h"

#include <QCoreApplication>
#include <QTimer>

namespace lockscope {

bool runEventsUntil(const std::function<bool()>& done, int timeoutMs)
{
    if (done())
        return true;
    // Blocks in the event dispatcher until something happens (a socket, a timer, a posted event),
    // then looks at `done` again. processEvents(WaitForMoreEvents, maxTime) would not do: with a
    // maxTime Qt drops WaitForMoreEvents and returns at once when nothing is pending, so the loop
    // spun a whole core while idle. The deadline is a timer of its own, which wakes the dispatcher.
    bool expired = timeoutMs <= 0;
    QTimer deadline;
    deadline.setSingleShot(true);
    deadline.setTimerType(Qt::PreciseTimer);
    QObject::connect(&deadline, &QTimer::timeout, [&expired] { expired = true; });
    deadline.start(qMax(timeoutMs, 0));
    while (!done()) {
        if (expired)
            return false;
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
    }
    return true;
}

} // namespace lockscope
