// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "record/recordevent.h"
#include "record/recordingsink.h"

#include <QStringList>
#include <QThread>
#include <QTimer>

#include <memory>

namespace lockscope {

// How a Recorder's events reach its sink: gathered on the recorder's thread and handed over in
// batches (every flush interval, or at 4096) to the sink on a thread of its own, so deciding what
// happened never waits for a disk or a database. That thread runs at the recorder's priority (the
// window's core thread's, nice 5). At nice 19 it used 15 % less CPU up to the window's first view
// of 100k locks (it still ran whenever a core was idle) and the first view was no sooner (1.31x the
// bare loop against 1.28x, four pairs), and a thread lowered that far cannot be raised again
// without privilege when its backlog grows.
class RecordingPipe final
{
    Q_DISABLE_COPY_MOVE(RecordingPipe)

public:
    // Owns `sink` from now on. `owner`: the object whose thread gathers (the flush timer's parent,
    // so it moves with it).
    RecordingPipe(RecordingSink* sink, std::shared_ptr<RecordingSink::Counters> counters, QObject* owner);
    // Hands over what is pending, ends the session and waits for the sink to finish.
    ~RecordingPipe();

    // Moves the sink to its thread and starts the session for `masters`. Once.
    void start(const QStringList& masters, int flushIntervalMs);
    // Stamped now unless it has a time.
    void push(RecordEvent event);
    void flush();
    void pruneNow();

    qsizetype pending() const { return m_pending.size(); }
    const RecordingSink* sink() const { return m_sink; }

private:
    std::shared_ptr<RecordingSink::Counters> m_counters;
    QThread m_thread;
    RecordingSink* m_sink; // lives on m_thread once started
    RecordEventList m_pending;
    QTimer m_flushTimer;
    bool m_started = false;
};

} // namespace lockscope
