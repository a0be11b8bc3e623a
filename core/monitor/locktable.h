// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/hashedkey.h"
#include "monitor/lockentry.h"

#include <QByteArray>
#include <QHash>

#include <iterator>

namespace lockscope {

// The monitor's resources by name, and the views it shows of them. Read from outside as a table
// of shown views (resources read but not shown yet are skipped); written by the monitor.
//
// One hash for both: a second hash of views by name cost a million locks 43 MB. Keyed by name and
// hash: the scan workers hashed every name already, and a lookup or a growth that hashed it again
// read its bytes from another core's writes (a quarter of the monitor's time in a first view).
class LockTable final
{
public:
    using Entries = QHash<HashedKey, LockEntry>;

    // Walks the shown views; `*it` is the view, `it.key()` its resource.
    class const_iterator
    {
    public:
        using iterator_category = std::forward_iterator_tag;
        using value_type = LockView;
        using difference_type = std::ptrdiff_t;
        using pointer = const LockView*;
        using reference = const LockView&;

        const_iterator() = default;
        const LockView& operator*() const { return *m_it->view(); }
        const LockView* operator->() const { return &*m_it->view(); }
        const QByteArray& key() const { return m_it.key(); }
        const_iterator& operator++()
        {
            ++m_it;
            skipHidden();
            return *this;
        }
        bool operator==(const const_iterator& o) const { return m_it == o.m_it; }

    private:
        friend class LockTable;
        const_iterator(Entries::const_iterator it, Entries::const_iterator end) : m_it(it), m_end(end)
        {
            skipHidden();
        }
        void skipHidden()
        {
            while (m_it != m_end && !m_it->isShown())
                ++m_it;
        }
        Entries::const_iterator m_it;
        Entries::const_iterator m_end;
    };

    // The shown views.
    qsizetype size() const { return m_shown; }
    bool isEmpty() const { return m_shown == 0; }
    const_iterator begin() const { return {m_entries.cbegin(), m_entries.cend()}; }
    const_iterator end() const { return {m_entries.cend(), m_entries.cend()}; }
    // Null when `resource` is not shown.
    const SharedLockView* find(const HashedKey& resource) const;
    bool contains(const HashedKey& resource) const { return find(resource) != nullptr; }
    // The empty view when `resource` is not shown.
    SharedLockView value(const HashedKey& resource) const;

    // Shows `view` for `resource`, adding an entry without readings if there is none (tests build
    // a table this way).
    void insert(const HashedKey& resource, SharedLockView view);
    // The resource's entry goes, shown or not.
    void remove(const HashedKey& resource);

    // The monitor's side: every entry, shown or not. A view is set with show() and an entry goes
    // with erase(), so that size() stays the count of shown views.
    Entries& entries() { return m_entries; }
    const Entries& entries() const { return m_entries; }
    void show(LockEntry& entry, SharedLockView view);
    Entries::iterator erase(Entries::iterator it);

private:
    Entries m_entries;
    qsizetype m_shown = 0;
};

} // namespace lockscope
