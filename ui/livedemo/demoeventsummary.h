// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QMap>
#include <QObject>
#include <QTimer>

namespace lockscope {

class EventLogModel;
struct KeyspaceEventRecord;

// The demo's simulated clients set, delete and let expire their locks and fencing counters on every
// master several times a second; listed one by one, their keyspace events would push everything else
// out of the event log. Their events are counted here instead, and once a second one line in the log
// says how many there were, by event ("set 20, del 18, expired 4"). Which events are theirs is the
// caller's choice (see take()); every other event stays in the log on its own line.
class DemoEventSummary final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DemoEventSummary)

public:
    explicit DemoEventSummary(EventLogModel* log, QObject* parent = nullptr);

    // Counts `event` when it is about a key the demo's clients write (DemoSimulation::isClientKey),
    // and says so; anything else is left to the caller.
    bool take(const KeyspaceEventRecord& event);
    // Writes the line for what was counted since the last one (nothing when nothing was). The timer
    // calls it every second.
    void flush();

    static QString sourceName() { return tr("demo clients"); }

private:
    EventLogModel* m_log;
    QTimer m_timer;
    QMap<QByteArray, int> m_byEvent;
    int m_total = 0;
};

} // namespace lockscope
