// SPDX-License-Identifier: Apache-2.0
#include "trace/tracesummary.h"

namespace lockscope {

void TraceSummary::keep(QList<TracedCommand>& list, const TracedCommand& command)
{
    if (list.size() >= keptEvents)
        list.removeFirst();
    list << command;
}

void TraceSummary::add(const TracedCommand& command)
{
    ++m_commands;
    const TraceMeaning m = command.meaning;
    if (m == TraceMeaning::Read || m == TraceMeaning::Other || m == TraceMeaning::Waiting ||
        command.client.address == "lua")
        return;
    const auto key = qMakePair(command.master, command.client.address);
    auto at = m_index.constFind(key);
    if (at == m_index.cend()) {
        at = m_index.insert(key, m_contenders.size());
        Contender fresh;
        fresh.master = command.master;
        fresh.client = command.client;
        m_contenders << fresh;
    }
    Contender& c = m_contenders[*at];
    if (c.client.name.isEmpty())
        c.client = command.client; // named later than first seen
    switch (m) {
    case TraceMeaning::Acquired:
        ++c.attempts;
        ++c.acquired;
        keep(m_holds, command);
        break;
    case TraceMeaning::Refused:
        ++c.attempts;
        ++c.refused;
        break;
    case TraceMeaning::Extended:
        ++c.extended;
        break;
    case TraceMeaning::Released:
        ++c.released;
        keep(m_releases, command);
        break;
    case TraceMeaning::StaleRelease:
    case TraceMeaning::StaleExtend:
    case TraceMeaning::DeletedByNonHolder:
    case TraceMeaning::Replaced:
        ++c.warnings;
        keep(m_warnings, command);
        if (m == TraceMeaning::DeletedByNonHolder)
            keep(m_releases, command);
        if (m == TraceMeaning::Replaced)
            keep(m_holds, command);
        break;
    case TraceMeaning::Waiting:
    case TraceMeaning::Read:
    case TraceMeaning::Other:
        break;
    }
}

} // namespace lockscope
