#pragma once

#include "monitor/lockstatus.h"
#include "monitor/masterobservation.h"

#include <QList>
#include <QMetaType>

#include <memory>

namespace lockscope {

// A resource (one key name) across all masters: the quorum view.
struct LockView
{
    QByteArray resource;
    LockStatus status = LockStatus::Unknown;
    LockFormat format = LockFormat::Unknown;
    QByteArray token; // the most common token
    QString owner;
    int holding = 0;         // masters holding `token`
    int needed = 1;          // N/2+1
    int total = 1;           // N
    bool atRisk = false;     // a master holding it restarted (and may have forgotten it); here, not
                             // at the end, it fills the ints' padding: a view is kept per resource
    qint64 validityMs = -1;  // remaining validity at computedAtMs, minus drift; -1: no expiry known
    qint64 computedAtMs = 0; // monotonic ms
    QList<int> holders;      // indexes of the masters holding `token`
    QList<MasterObservation> observations; // one per master, in master order
    QString atRiskReason;

    // Validity left now, counting down from the last computation; -1 when there is no expiry.
    qint64 validityAt(qint64 nowMs) const
    {
        return validityMs < 0 ? -1 : qMax<qint64>(0, validityMs - (nowMs - computedAtMs));
    }
};

// A view as the monitor made it, shared read-only by whoever keeps it: the monitor's table, the
// batches in flight and the window's rows hold one copy of each lock's view between them, not one
// each (ui-bench, 100k locks on five masters: peak RSS 306 -> 281 MiB). Reads as a
// `const LockView&`; a changed view is a new one, so a row the window has not updated yet keeps
// the version it shows.
class SharedLockView final
{
public:
    SharedLockView() : m_view(empty()) {}
    explicit SharedLockView(LockView view) : m_view(std::make_shared<const LockView>(std::move(view))) {}

    operator const LockView&() const { return *m_view; }
    const LockView& operator*() const { return *m_view; }
    const LockView* operator->() const { return m_view.get(); }
    const LockView& view() const { return *m_view; }

private:
    // The default is an empty view, shared by all, as a default LockView was: never null.
    static const std::shared_ptr<const LockView>& empty()
    {
        static const std::shared_ptr<const LockView> none = std::make_shared<const LockView>();
        return none;
    }

    std::shared_ptr<const LockView> m_view;
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
};

} // namespace lockscope

Q_DECLARE_METATYPE(lockscope::LockView)
Q_DECLARE_METATYPE(lockscope::LockBatch)
