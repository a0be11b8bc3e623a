// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QMetaType>
#include <QString>
#include <QtGlobal>

namespace lockscope {

// What a trace may cost. MONITOR makes a master copy every command it runs to the tracer: never on
// by default, for a bounded time, and stopped as soon as the master's command rate makes that copy
// more than the budget, or the tracer falls behind the stream.
struct TraceLimits
{
    static constexpr qint64 defaultDurationMs = 30'000;
    static constexpr qint64 maxDurationMs = 3'600'000; // an hour
    static constexpr qint64 defaultBudgetBytesPerSecond = 8LL * 1024 * 1024;
    static constexpr qint64 minBudgetBytesPerSecond = 1024;
    static constexpr qint64 maxBudgetBytesPerSecond = 1024LL * 1024 * 1024;

    qint64 durationMs = defaultDurationMs;
    // MONITOR's bytes a second, per master.
    qint64 budgetBytesPerSecond = defaultBudgetBytesPerSecond;
    // How far the newest line may fall behind the master's clock (beyond the clocks' own offset).
    qint64 maxLagMs = 2000;
};

// Why a trace ended.
struct TraceStop
{
    enum class Reason
    {
        Duration,    // its time was up
        Requested,   // the user stopped it
        Budget,      // a master's MONITOR stream cost more than the budget
        FellBehind,  // the tracer could not keep up with a master's stream
        NoMaster,    // no master could be traced (refused, unreachable, or its link lost)
        NotRecorded, // asked to record what it saw, and the recording could not be opened
    };
    Reason reason = Reason::Duration;
    QString message;

    bool isFailure() const
    {
        return reason == Reason::Budget || reason == Reason::FellBehind || reason == Reason::NoMaster ||
               reason == Reason::NotRecorded;
    }
};

} // namespace lockscope

Q_DECLARE_METATYPE(lockscope::TraceStop)
