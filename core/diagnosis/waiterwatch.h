// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "diagnosis/diagnosisreader.h"

#include <QByteArray>
#include <QHash>
#include <QObject>
#include <QSet>
#include <QTimer>

namespace lockscope {

class LockMonitor;
class MasterSet;
class Recorder;
struct LockBatch;

// The waiters a recording keeps (issue #44's contention): every `intervalMs`, the clients waiting for
// each held lock whose layout records them (DiagnosisReader: a Redisson lock's channel subscribers,
// its fair queue), a few hundred of them a round, taken in turn, and at most maxWatched
// locks at a time (those seen first; a slot frees when its lock goes). A count that changed is
// announced (and recorded as a `waiters` event); the first read of an uncontended lock, 0, is not.
// Asynchronous, on the monitor's thread, over the masters' own connections.
class WaiterWatch final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(WaiterWatch)

public:
    WaiterWatch(MasterSet* masters, LockMonitor* monitor, int intervalMs = defaultIntervalMs,
                QObject* parent = nullptr);
    // A watch whose changes go into `recorder` as it records `monitor`; owned by the recorder.
    static WaiterWatch* recordInto(Recorder* recorder, MasterSet* masters, LockMonitor* monitor,
                                   int intervalMs = defaultIntervalMs);

    static constexpr int defaultIntervalMs = 2000;
    // Locks watched at once: each is read at least every 32 s at this size, and a million
    // per-entity Redisson locks cost no more than this many entries (the window's 1M-lock budget).
    static constexpr qsizetype maxWatched = 4096;

    void start();
    // The held locks it reads (for tests).
    qsizetype watched() const { return m_watched.size(); }

signals:
    void waitersChanged(int master, const QByteArray& resource, qint64 count);

private:
    void onBatch(const LockBatch& batch);
    void watch(const QByteArray& resource);
    void poll();

    DiagnosisReader m_reader;
    LockMonitor* m_monitor;
    QTimer m_timer;
    QSet<QByteArray> m_watched;       // held locks of a layout with waiters
    QHash<QByteArray, qint64> m_last; // the count last announced
    qsizetype m_offset = 0;           // where the next round starts, when there are too many for one
    int m_pending = 0;                // reads of the current round not answered yet
};

} // namespace lockscope
