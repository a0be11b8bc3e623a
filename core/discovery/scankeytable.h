// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/hashedkey.h"

#include <QByteArray>

#include <array>
#include <deque>
#include <functional>
#include <memory>
#include <vector>

namespace lockscope {

class KeyPool;

// A scan worker's table of the keys it knows or met in the running pass: a key costs one entry (32
// bytes) and 8 to 16 bytes of index. Every SCAN result and every read goes through it, so it is
// built for that: each entry keeps its key's hash, so a probe only touches the key's bytes when the
// hashes match and growing never rehashes a key, unlike QHash, whose probes and growth read the
// (scattered) bytes of every key they pass. The index holds entry numbers only (a hash beside each
// cost five masters' tables 5 MB at 100k locks; a probe reads the entry, which a hit reads anyway).
// The entries are in a deque, in blocks: a vector left room for as many again after growing, and
// held the old copy and the new one at once while it grew (with a million locks on each of five
// masters, up to 160 MB more than the keys need). With a pool, a new key's bytes are the pool's,
// shared with the tables of the other masters.
class ScanKeyTable final
{
public:
    // Four bytes, so that an entry is 32: each master keeps one per lock.
    struct Mark
    {
        quint32 metInPass : 30 = 0; // the last pass that met it (SCAN or event); passes count from 1
        bool known : 1 = false;     // present on this master, as last read
        bool waiting : 1 = false;   // a keyspace event named it and it has not been read since
    };
    // A key's entry: its mark and the table's copy of the key (copies of it share its bytes; the
    // pool's, with one), and its place in the table (until the next sweep).
    struct Stored
    {
        const QByteArray& key;
        Mark& mark;
        quint32 index;
    };
    // Where a sweep moved the waiting entries: the new index by the old one (`gone` for the others).
    using Renumbering = std::vector<quint32>;
    static constexpr quint32 gone = 0xFFFFFFFF;

    ScanKeyTable();
    Q_DISABLE_COPY_MOVE(ScanKeyTable) // a queue of waiting keys holds places in it

    // Keys added from now on take their bytes from `pool` (shared by the tables of masters that
    // hold the same keys); null: each is the table's own.
    void setPool(std::shared_ptr<KeyPool> pool) { m_pool = std::move(pool); }

    qsizetype size() const { return qsizetype(m_entries.size()); }
    // The key's mark, added unmet and unknown if it was not there. Valid until the next insertion.
    Mark& operator[](const QByteArray& key) { return emplace(key, false).mark; }
    // The same, with the table's copy of the key.
    Stored insert(const QByteArray& key) { return emplace(key, false); }
    // The same for a key that may point into a buffer that goes away (QByteArray::fromRawData): a
    // new key's bytes are copied. Valid until the next insertion.
    Stored insertCopy(const QByteArray& key) { return emplace(key, true); }
    // Either, for a key whose hash the caller has (the pool, given it by a table). Every table keeps
    // its keys by HashedKey::hashOf(): the same in each, so that a table hands it to the pool with
    // the key instead of the pool hashing the key again, and a batch of observations hands it on to
    // the monitor.
    Stored insert(const QByteArray& key, quint32 hash, bool copy) { return emplace(key, hash, copy); }
    // Null when the key is not there.
    Mark* find(const QByteArray& key) { return find(key, HashedKey::hashOf(key)); }
    Mark* find(const QByteArray& key, quint32 hash);
    // Looks up `count` keys, keyAt(i) the i-th, by calling lookUp(i, hash of keyAt(i)), which does
    // the lookup with that hash (insert, find). A lookup reads an index slot and an entry at random
    // places in megabytes (five masters' tables at 100k locks): one after another, a first pass
    // waited on those two cache misses key by key. Here the slot, then the entry, of keys a few
    // places ahead are on their way while one is looked up.
    template <typename KeyAt, typename LookUp> void lookUpAll(qsizetype count, KeyAt keyAt, LookUp lookUp);
    // An entry by its place (Stored::index), valid until the next sweep.
    const QByteArray& keyAt(quint32 index) const { return m_entries[index].key; }
    Mark& markAt(quint32 index) { return m_entries[index].mark; }
    // Calls keep(key, mark) for every key and drops those it returns false for (memory shrinks too),
    // except a waiting key's: its mark says so until it is taken. The entries keep their order.
    template <typename F> void sweep(F keep);
    // Told after a sweep where the waiting entries went (a queue of waiting keys holds their places);
    // not called when none waits.
    void setRenumbered(std::function<void(const Renumbering&)> renumbered)
    {
        m_renumbered = std::move(renumbered);
    }

private:
    struct Entry
    {
        QByteArray key;
        quint32 hash = 0;
        Mark mark;
    };
    static_assert(sizeof(Mark) == 4 && sizeof(Entry) == 32);
    using Slot = quint32; // an entry's index + 1; 0 is empty

    Stored emplace(const QByteArray& key, bool copy) { return emplace(key, HashedKey::hashOf(key), copy); }
    Stored emplace(const QByteArray& key, quint32 hash, bool copy);
    // The slot holding `key`, or the empty one where it would go.
    Slot& slotFor(const QByteArray& key, quint32 hash);
    // Toward the cache: the first slot a key of this hash probes; the entry that slot names (it
    // reads the slot: called once that is on its way).
    void prefetchSlot(quint32 hash) const { __builtin_prefetch(&m_slots[hash & (m_slots.size() - 1)]); }
    void prefetchEntry(quint32 hash) const
    {
        if (const Slot slot = m_slots[hash & (m_slots.size() - 1)]; slot != 0)
            __builtin_prefetch(&m_entries[slot - 1]);
    }
    void rebuildIndex(size_t capacity);

    std::deque<Entry> m_entries;
    std::vector<Slot> m_slots; // a power of two, at least twice the entries
    std::shared_ptr<KeyPool> m_pool;
    std::function<void(const Renumbering&)> m_renumbered;
};

template <typename KeyAt, typename LookUp>
void ScanKeyTable::lookUpAll(qsizetype count, KeyAt keyAt, LookUp lookUp)
{
    // Keys in flight: enough to cover a miss's latency, few enough that what they fetch is still
    // cached when their turn comes.
    constexpr qsizetype ahead = 8;
    std::array<quint32, ahead> hashes{};
    const auto start = [&](qsizetype i) {
        quint32& hash = hashes[size_t(i % ahead)];
        hash = HashedKey::hashOf(keyAt(i));
        prefetchSlot(hash);
    };
    for (qsizetype i = 0; i < qMin(count, ahead); ++i)
        start(i);
    for (qsizetype i = 0; i < count; ++i) {
        if (i + ahead / 2 < count)
            prefetchEntry(hashes[size_t((i + ahead / 2) % ahead)]);
        lookUp(i, hashes[size_t(i % ahead)]);
        if (i + ahead < count)
            start(i + ahead);
    }
}

template <typename F> void ScanKeyTable::sweep(F keep)
{
    // Only a waiting entry's place is held outside (by the queue of waiting keys): the map is made
    // when there is one, so that a pass end with nothing waiting allocates nothing for it.
    Renumbering moved;
    size_t kept = 0;
    for (size_t i = 0; i < m_entries.size(); ++i) {
        const bool keeps = keep(std::as_const(m_entries[i].key), m_entries[i].mark);
        const bool waiting = m_entries[i].mark.waiting;
        if (!keeps && !waiting)
            continue;
        if (kept != i)
            m_entries[kept] = std::move(m_entries[i]);
        if (waiting && m_renumbered) {
            if (moved.empty())
                moved.assign(m_entries.size(), gone);
            moved[i] = quint32(kept);
        }
        ++kept;
    }
    m_entries.resize(kept); // frees the blocks past the end
    size_t capacity = 16;
    while (capacity < 2 * kept + 2)
        capacity *= 2;
    rebuildIndex(capacity);
    if (!moved.empty())
        m_renumbered(moved);
}

} // namespace lockscope
