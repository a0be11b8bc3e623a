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
// happened never waits for a disk or a database.
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
