// SPDX-License-Identifier: Apache-2.0
#include "monitor/fencecounters.h"

#include "formats/auxiliaryformats.h"

namespace lockscope {

bool FenceCounters::isCounter(const QByteArray& key) const
{
    return recognition::fencedLockOf(key).has_value() ||
           (m_scope->hasFencing() && m_scope->isFencingCounter(key));
}

std::optional<FenceCounters::Read> FenceCounters::observe(int master, int masters, const QByteArray& key,
                                                          const KeyObservation& o)
{
    if (!o.present || o.type != "string" || o.truncated || master < 0 || master >= masters)
        return std::nullopt;
    bool ok = false;
    const qint64 value = o.value.toLongLong(&ok);
    if (!ok || value < 0)
        return std::nullopt;
    auto it = m_last.find(key);
    if (it == m_last.end()) {
        if (m_last.size() >= maxCounters)
            m_last.clear();
        it = m_last.insert(key, QList<qint64>(masters, -1));
    }
    if (it->value(master, -1) == value)
        return std::nullopt;
    (*it)[master] = value;
    return Read{recognition::fencedLockOf(key).value_or(key), value};
}

void FenceCounters::forgetMaster(int master)
{
    for (QList<qint64>& values : m_last)
        if (master >= 0 && master < values.size())
            values[master] = -1;
}

} // namespace lockscope
