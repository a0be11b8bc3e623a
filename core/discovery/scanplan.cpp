// SPDX-License-Identifier: Apache-2.0
#include "discovery/scanplan.h"

#include "config/coveringglob.h"

#include <algorithm>

namespace lockscope {

namespace {

// SCAN takes exactly "*" for "every key" (the empty key too, which no other glob matches).
bool isMatchAll(const QByteArray& pattern)
{
    return pattern == "*";
}

} // namespace

ScanPlan::ScanPlan(const QList<ScanPattern>& patterns)
{
    if (patterns.size() == 1) {
        m_match = patterns.front().match;
        m_keepsAll = true;
        return;
    }
    for (const ScanPattern& p : patterns) {
        if (isMatchAll(p.match)) {
            m_keepsAll = true;
            m_globs.clear();
            return;
        }
        add(CompiledGlob(p.match));
    }
    m_match = coveringGlob(m_globs);
}

void ScanPlan::add(const CompiledGlob& glob)
{
    // Each one dropped is covered by one that stays, or by the one that dropped that one.
    for (const CompiledGlob& kept : m_globs)
        if (glob.isCoveredBy(kept))
            return;
    std::erase_if(m_globs, [&glob](const CompiledGlob& kept) { return kept.isCoveredBy(glob); });
    m_globs.push_back(glob);
}

QByteArrayList ScanPlan::scanCommand(const QByteArray& cursor, int count, bool cover) const
{
    QByteArrayList command{"SCAN", cursor};
    if (!m_match.isEmpty() && (cover || m_keepsAll))
        command << "MATCH" << m_match;
    command << "COUNT" << QByteArray::number(count);
    return command;
}

bool ScanPlan::keeps(QByteArrayView key) const
{
    return m_keepsAll || std::any_of(m_globs.cbegin(), m_globs.cend(),
                                     [&key](const CompiledGlob& g) { return g.matches(key); });
}

} // namespace lockscope
