// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QJsonObject>
#include <QList>

class QProcess;

namespace lockscope::test {

// The events a running `lockctl --json watch` has printed so far: one JSON object a line, read as
// the test polls (QTRY_*), never waited for.
class WatchEvents
{
public:
    explicit WatchEvents(QProcess& watch) : m_watch(watch) {}

    // The first event named `event` whose `key` is `value`, reading what was printed meanwhile;
    // empty while there is none.
    QJsonObject find(const QString& event, const QString& key, const QString& value);
    // Every event read so far.
    const QList<QJsonObject>& all() const { return m_events; }

private:
    QProcess& m_watch;
    QList<QJsonObject> m_events;
};

} // namespace lockscope::test
