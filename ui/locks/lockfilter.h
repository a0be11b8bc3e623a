// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QFlags>
#include <QRegularExpression>
#include <QString>

namespace lockscope {

struct LockView;

// What the lock table's filter lets through (LockFilterProxy works it out over the rows): a text,
// and quick filters by status. A pure judgement of one lock's view at a given time.
class LockFilter
{
public:
    enum QuickFilter
    {
        NoQuickFilter = 0,
        StuckFilter = 1,
        ContestedFilter = 2,
        PartialFilter = 4,
        ExpiringSoonFilter = 8,
    };
    Q_DECLARE_FLAGS(QuickFilters, QuickFilter)

    // A glob (when it has * ? or [) matched against the whole resource, otherwise a
    // case-insensitive substring of the resource, owner or token.
    const QString& text() const { return m_text; }
    void setText(const QString& text);
    // Any of the chosen statuses passes (none chosen: all pass).
    QuickFilters quickFilters() const { return m_quick; }
    void setQuickFilters(QuickFilters filters) { m_quick = filters; }
    // Expiring soon: at most this much validity left.
    qint64 expiringSoonMs() const { return m_expiringSoonMs; }
    void setExpiringSoonMs(qint64 ms) { m_expiringSoonMs = ms; }

    // Whether `view` passes at `nowMs` on the monotonic clock (its validity counts down on it).
    bool accepts(const LockView& view, qint64 nowMs) const;

private:
    bool matchesText(const LockView& view) const;

    QString m_text;
    QRegularExpression m_glob;
    QuickFilters m_quick = NoQuickFilter;
    qint64 m_expiringSoonMs = 10000;
};

} // namespace lockscope

Q_DECLARE_OPERATORS_FOR_FLAGS(lockscope::LockFilter::QuickFilters)
