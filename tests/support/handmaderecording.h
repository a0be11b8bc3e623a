// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "insights/lockstatsbuilder.h"

#include <QHash>
#include <QList>

#include <optional>

namespace lockscope::test {

// A hand-made recording of one session on three masters, for the figures per family (issue #44):
// each resource's events in the order the recorder would write them, the whole in time order once
// read. Times are ms after t0.
class HandMadeRecording
{
public:
    static constexpr qint64 t0 = 1'700'000'000'000;

    HandMadeRecording();

    void add(qint64 ms, RecordEvent::Kind kind, const QByteArray& resource, const QByteArray& token,
             qint64 ttlMs = -1, int master = -1);
    // A tenure seen taken at `atMs` with `leaseMs`, ended by `end` after `holdMs`.
    void tenure(const QByteArray& resource, const QByteArray& token, qint64 atMs, qint64 holdMs,
                qint64 leaseMs, RecordEvent::Kind end = RecordEvent::Kind::Released);

    // One LockStatsBuilder pass over it; `sinceMs` after t0 (-1: all).
    QList<FamilyFigures> figures(qint64 sinceMs = -1,
                                 LockStatsBuilder::Detail detail = LockStatsBuilder::Detail::Figures);

private:
    RecordingSession m_session;
    QHash<QByteArray, qint64> m_ids;
    QList<HistoryEvent> m_events;
};

// The figures of `family` in `all` (a copy: `all` is often a temporary), or none.
std::optional<FamilyFigures> familyIn(const QList<FamilyFigures>& all, const QByteArray& family);

} // namespace lockscope::test
