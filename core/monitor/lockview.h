// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/hashedkey.h"
#include "monitor/lockstatus.h"
#include "monitor/masterobservation.h"

#include <QAtomicInt>
#include <QList>
#include <QMetaType>
#include <QSharedData>

#include <algorithm>
#include <utility>

namespace lockscope {

// How many SharedLockViews hold a view. Not copied with it: a copy of a view is a new view, held by
// none yet.
class ViewShares final
{
public:
    ViewShares() = default;
    ViewShares(const ViewShares&) noexcept {}
    ViewShares& operator=(const ViewShares&) noexcept { return *this; }

private:
    friend class SharedLockView;
    mutable QAtomicInt m_count;
};

// A resource (one key name) across all masters: the quorum view.
//
// One is kept per lock (a million in the window at the 1M benchmark), so the small fields share
// one word with the share count and the rare reason of a risk is a pointer: 168 bytes, where 184
// bytes and a separate 16-byte count made one allocation class more (208 bytes a lock, now 176).
struct LockView
{
    ViewShares shares; // SharedLockView's count, in what would be padding
    LockStatus status = LockStatus::Unknown;
    LockFormat format = LockFormat::Unknown;
    bool atRisk = false; // a master holding it restarted (and may have forgotten it)
    QByteArray resource;
    QByteArray token; // the most common token
    QString owner;
    QList<int> holders;                    // indexes of the masters holding `token`
    QList<MasterObservation> observations; // one per master, in master order
    qint64 validityMs = -1;  // remaining validity at computedAtMs, minus drift; -1: no expiry known
    qint64 computedAtMs = 0; // monotonic ms
    int holding = 0;         // masters holding `token`
    int needed = 1;          // N/2+1
    int total = 1;           // N
    // HashedKey::hashOf(resource), as the monitor had it; 0: not given (key() computes it).
    quint32 resourceHash = 0;

    // The resource with its hash, for the tables that keep a lock by its name.
    HashedKey key() const
    {
        return resourceHash != 0 ? HashedKey(resource, resourceHash) : HashedKey(resource);
    }

    // Why it is at risk ("M2 restarted"); empty when it is not.
    QString atRiskReason() const { return m_atRiskReason ? m_atRiskReason->text : QString(); }
    void setAtRiskReason(const QString& reason);

    // Validity left now, counting down from the last computation; -1 when there is no expiry.
    qint64 validityAt(qint64 nowMs) const
    {
        return validityMs < 0 ? -1 : qMax<qint64>(0, validityMs - (nowMs - computedAtMs));
    }

private:
    struct Reason : QSharedData
    {
        QString text;
    };
    QExplicitlySharedDataPointer<const Reason> m_atRiskReason; // null: none
};

static_assert(sizeof(void*) != 8 || sizeof(LockView) <= 168,
              "a view per lock: keep it in its allocation class");

inline void LockView::setAtRiskReason(const QString& reason)
{
    if (reason.isEmpty()) {
        m_atRiskReason.reset();
        return;
    }
    auto* r = new Reason;
    r->text = reason;
    m_atRiskReason.reset(r);
}

// A view as the monitor made it, shared read-only by whoever keeps it: the monitor's table, the
// batches in flight and the window's rows hold one copy of each lock's view between them, not one
// each (ui-bench, 100k locks on five masters: peak RSS 306 -> 281 MiB). Reads as a
// `const LockView&`; a changed view is a new one, so a row the window has not updated yet keeps
// the version it shows. The count is in the view (ViewShares): a pointer here, no block of its own.
class SharedLockView final
{
public:
    SharedLockView() = default;
    explicit SharedLockView(LockView view) : m_view(new LockView(std::move(view)))
    {
        m_view->shares.m_count.ref();
    }
    SharedLockView(const SharedLockView& other) noexcept : m_view(other.m_view)
    {
        if (m_view)
            m_view->shares.m_count.ref();
    }
    SharedLockView(SharedLockView&& other) noexcept : m_view(std::exchange(other.m_view, nullptr)) {}
    SharedLockView& operator=(const SharedLockView& other) noexcept
    {
        SharedLockView copy(other);
        std::swap(m_view, copy.m_view);
        return *this;
    }
    SharedLockView& operator=(SharedLockView&& other) noexcept
    {
        std::swap(m_view, other.m_view);
        return *this;
    }
    ~SharedLockView()
    {
        if (m_view && !m_view->shares.m_count.deref())
            delete m_view;
    }

    operator const LockView&() const { return view(); }
    const LockView& operator*() const { return view(); }
    const LockView* operator->() const { return &view(); }
    // Never null: the default is an empty view, as a default LockView was.
    const LockView& view() const { return m_view ? *m_view : empty(); }
    // Made by default (or moved from): it reads as the empty view.
    bool isNull() const { return m_view == nullptr; }

private:
    static const LockView& empty()
    {
        static const LockView none;
        return none;
    }

    const LockView* m_view = nullptr;
};

// Changes leave the monitor in batches, so views update rows instead of resetting models.
struct LockBatch
{
    QList<SharedLockView> added;
    QList<SharedLockView> changed;
    QList<QByteArray> removed;

    bool isEmpty() const { return added.isEmpty() && changed.isEmpty() && removed.isEmpty(); }
    // What a table applies one at a time: a view or a removal each.
    qsizetype steps() const { return added.size() + changed.size() + removed.size(); }
    // A view of `resource` arrives with this batch (added or changed).
    bool hasView(const QByteArray& resource) const
    {
        const auto names = [&](const LockView& v) { return v.resource == resource; };
        return std::any_of(added.cbegin(), added.cend(), names) ||
               std::any_of(changed.cbegin(), changed.cend(), names);
    }
};

} // namespace lockscope

Q_DECLARE_METATYPE(lockscope::LockView)
Q_DECLARE_METATYPE(lockscope::LockBatch)
