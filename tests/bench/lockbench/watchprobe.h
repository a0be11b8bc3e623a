// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QThread>

namespace lockscope {
class IncidentWatch;
class RecordingSink;
} // namespace lockscope

namespace lockbench {

// The live detection of two holders at once as `lockctl serve --record` runs it (an IncidentWatch
// on a thread of its own, following the recorder's commits), with what a benchmark asks of it: the
// CPU its thread spent, and the suspects still waiting to be judged.
class WatchProbe
{
public:
    WatchProbe(const QString& recordingPath, const lockscope::RecordingSink* writer);
    ~WatchProbe();
    WatchProbe(const WatchProbe&) = delete;
    WatchProbe& operator=(const WatchProbe&) = delete;

    qint64 cpuNs();        // its thread's, since it started
    qsizetype pending();   // suspects not judged yet
    qint64 unchecked();    // suspects it dropped (its queue was full)
    qsizetype incidents(); // found so far
    qint64 reads();        // stories read back from the recording

private:
    template <typename F> auto onItsThread(F f);

    QThread m_thread;
    lockscope::IncidentWatch* m_watch; // lives on m_thread
    qint64 m_cpuStartNs = 0;
};

} // namespace lockbench
