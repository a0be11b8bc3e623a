// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/hashedkey.h"

#include <QByteArray>
#include <QHash>

#include <deque>

namespace lockscope {

inline const HashedKey& keyOf(const HashedKey& resource)
{
    return resource;
}

// Changes of locks waiting to be passed on, oldest first, each resource at most once unless it left
// and came back: a newer view replaces the one still waiting (a lock added and then changed is still
// new to whoever takes it), a removal replaces a waiting view, and a view after a waiting removal
// is a step of its own behind a barrier, so that the taker still sees the lock go and come back.
// `Entry` is what a step carries, named by a `keyOf(entry)` of its own (a HashedKey): the view and the name
// of a removal (BatchQueue), or only the resource's name when the view is looked up as the step is
// taken (ViewBacklog).
template <typename Entry> class LockStepQueue
{
public:
    struct Step
    {
        Entry entry; // a removal: only the resource
        bool removal = false;
        bool added = false;
        bool barrier = false; // an earlier step of the same resource may have gone just before
    };

    bool isEmpty() const { return m_steps.empty(); }
    qsizetype size() const { return qsizetype(m_steps.size()); }
    const Step& front() const { return m_steps.front(); }
    // Steps pushed as separate steps so far (a step folded into a waiting one counts once), and
    // taken so far: what was waiting when endSequence() said n has all been taken once
    // headSequence() reaches n.
    qint64 endSequence() const { return m_headSeq + qint64(m_steps.size()); }
    qint64 headSequence() const { return m_headSeq; }

    void push(Step&& step)
    {
        const qint64 seq = m_headSeq + qint64(m_steps.size());
        const HashedKey key = keyOf(step.entry);
        auto last = m_last.find(key);
        if (last == m_last.end()) {
            m_last.insert(key, seq);
            m_steps.push_back(std::move(step));
            return;
        }
        Step& waiting = m_steps[size_t(*last - m_headSeq)];
        if (waiting.removal && step.removal)
            return;
        if (!waiting.removal) {
            step.added = step.added || waiting.added;
            step.barrier = waiting.barrier;
            waiting = std::move(step);
            return;
        }
        step.barrier = true;
        *last = seq;
        m_steps.push_back(std::move(step));
    }

    Step takeFront()
    {
        Step step = std::move(m_steps.front());
        m_steps.pop_front();
        if (auto last = m_last.find(keyOf(step.entry)); last != m_last.end() && *last == m_headSeq)
            m_last.erase(last);
        ++m_headSeq;
        // Nothing waits, so the index is empty, but a hash keeps its largest size: that of a first
        // pass of a million locks, all of it queued at once.
        if (m_steps.empty() && m_last.capacity() > 4096)
            m_last.clear();
        return step;
    }

private:
    std::deque<Step> m_steps;
    qint64 m_headSeq = 0;            // sequence number of m_steps.front()
    QHash<HashedKey, qint64> m_last; // each waiting resource's last step, by sequence number
};

} // namespace lockscope
