// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "trace/tracedcommand.h"

#include <QHash>
#include <QList>
#include <QPair>

namespace lockscope {

// What a trace found, told per connection: who tried to take the lock, how often and how often it
// was turned away, who held it, who let it go and how, and every command that tells of a holder
// running past its lease or of a lock taken from under one.
class TraceSummary
{
public:
    struct Contender
    {
        int master = -1;
        TraceClient client;
        qint64 attempts = 0; // acquire attempts (acquired + refused)
        qint64 acquired = 0;
        qint64 refused = 0;
        qint64 extended = 0;
        qint64 released = 0;
        qint64 warnings = 0; // stale releases and extends, deletes by a non-holder, overwrites
    };

    void add(const TracedCommand& command);

    qint64 commands() const { return m_commands; }
    // In the order they first showed up.
    const QList<Contender>& contenders() const { return m_contenders; }
    // Acquisitions and releases, in order (at most `keptEvents` of each, the latest).
    const QList<TracedCommand>& holds() const { return m_holds; }
    const QList<TracedCommand>& releases() const { return m_releases; }
    const QList<TracedCommand>& warnings() const { return m_warnings; }

    static constexpr qsizetype keptEvents = 200;

private:
    static void keep(QList<TracedCommand>& list, const TracedCommand& command);

    qint64 m_commands = 0;
    QList<Contender> m_contenders;
    QHash<QPair<int, QByteArray>, qsizetype> m_index; // (master, address) -> contenders' index
    QList<TracedCommand> m_holds;
    QList<TracedCommand> m_releases;
    QList<TracedCommand> m_warnings;
};

} // namespace lockscope
