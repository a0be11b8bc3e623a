// SPDX-License-Identifier: Apache-2.0
#include "discovery/scankeytable.h"

#include "discovery/keypool.h"

namespace lockscope {

ScanKeyTable::ScanKeyTable() : m_slots(16) {}

ScanKeyTable::Slot& ScanKeyTable::slotFor(const QByteArray& key, quint32 hash)
{
    const size_t mask = m_slots.size() - 1;
    for (size_t i = hash & mask;; i = (i + 1) & mask) {
        Slot& slot = m_slots[i];
        if (slot == 0)
            return slot;
        const Entry& e = m_entries[slot - 1];
        // A key looked up by the table's own copy (a read's result) shares the entry's bytes:
        // equal without reading them, a cache miss each.
        if (e.hash == hash && e.key.size() == key.size() &&
            (e.key.constData() == key.constData() || e.key == key))
            return slot;
    }
}

ScanKeyTable::Stored ScanKeyTable::emplace(const QByteArray& key, quint32 hash, bool copy)
{
    Slot* slot = &slotFor(key, hash);
    if (*slot != 0) {
        Entry& e = m_entries[*slot - 1];
        return {e.key, e.mark, *slot - 1};
    }
    if (2 * (m_entries.size() + 1) > m_slots.size()) {
        rebuildIndex(2 * m_slots.size());
        slot = &slotFor(key, hash);
    }
    QByteArray stored = m_pool ? m_pool->intern(key, hash, copy)
                        : copy ? QByteArray(key.constData(), key.size())
                               : key;
    m_entries.push_back({std::move(stored), hash, {}});
    *slot = Slot(m_entries.size());
    return {m_entries.back().key, m_entries.back().mark, quint32(m_entries.size() - 1)};
}

ScanKeyTable::Mark* ScanKeyTable::find(const QByteArray& key, quint32 hash)
{
    const Slot& slot = slotFor(key, hash);
    return slot == 0 ? nullptr : &m_entries[slot - 1].mark;
}

void ScanKeyTable::rebuildIndex(size_t capacity)
{
    m_slots.assign(capacity, 0);
    m_slots.shrink_to_fit();
    const size_t mask = capacity - 1;
    for (size_t e = 0; e < m_entries.size(); ++e) {
        size_t i = m_entries[e].hash & mask;
        while (m_slots[i] != 0)
            i = (i + 1) & mask;
        m_slots[i] = Slot(e + 1);
    }
}

} // namespace lockscope
