// SPDX-License-Identifier: Apache-2.0
#include "monitor/locktable.h"

namespace lockscope {

const SharedLockView* LockTable::find(const HashedKey& resource) const
{
    const auto it = m_entries.constFind(resource);
    return it != m_entries.cend() && it->isShown() ? &it->view() : nullptr;
}

SharedLockView LockTable::value(const HashedKey& resource) const
{
    const SharedLockView* view = find(resource);
    return view ? *view : SharedLockView();
}

void LockTable::insert(const HashedKey& resource, SharedLockView view)
{
    show(m_entries[resource], std::move(view));
}

void LockTable::remove(const HashedKey& resource)
{
    if (const auto it = m_entries.find(resource); it != m_entries.end())
        erase(it);
}

void LockTable::show(LockEntry& entry, SharedLockView view)
{
    m_shown += int(!view.isNull()) - int(entry.isShown());
    entry.m_view = std::move(view);
}

LockTable::Entries::iterator LockTable::erase(Entries::iterator it)
{
    if (it->isShown())
        --m_shown;
    return m_entries.erase(it);
}

} // namespace lockscope
