// SPDX-License-Identifier: Apache-2.0
#include "locks/lockfilter.h"

#include "monitor/lockview.h"

namespace lockscope {

void LockFilter::setText(const QString& text)
{
    m_text = text;
    const bool glob =
        text.contains(QLatin1Char('*')) || text.contains(QLatin1Char('?')) || text.contains(QLatin1Char('['));
    m_glob = glob ? QRegularExpression::fromWildcard(text, Qt::CaseInsensitive) : QRegularExpression();
}

bool LockFilter::matchesText(const LockView& v) const
{
    const QString resource = QString::fromUtf8(v.resource);
    if (m_glob.isValid() && !m_glob.pattern().isEmpty())
        return m_glob.match(resource).hasMatch();
    return resource.contains(m_text, Qt::CaseInsensitive) || v.owner.contains(m_text, Qt::CaseInsensitive) ||
           QString::fromUtf8(v.token).contains(m_text, Qt::CaseInsensitive);
}

bool LockFilter::accepts(const LockView& v, qint64 nowMs) const
{
    if (const QuickFilters quick = m_quick; quick != NoQuickFilter) {
        const qint64 left = v.validityAt(nowMs);
        const bool pass = (quick.testFlag(StuckFilter) && v.status == LockStatus::Stuck) ||
                          (quick.testFlag(ContestedFilter) && v.status == LockStatus::Contested) ||
                          (quick.testFlag(PartialFilter) && v.status == LockStatus::Partial) ||
                          (quick.testFlag(ExpiringSoonFilter) && left >= 0 && left <= m_expiringSoonMs);
        if (!pass)
            return false;
    }
    return m_text.isEmpty() || matchesText(v);
}

} // namespace lockscope
