// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "diagnosis/incidenttriggers.h"
#include "diagnosis/safetyincident.h"
#include "record/recordevent.h"
#include "record/resourcehistory.h"

#include <QList>
#include <QObject>
#include <QSet>
#include <QTimer>

#include <memory>

namespace lockscope {

class RecordingReader;
class RecordingWriter;

// Two holders at once, live: follows what a recorder commits and, for the resources where an
// event may have begun an incident (IncidentTriggers), reads the resource's story back from the
// recording and runs DoubleGrantDetector over it. The same detector over the same file as
// `lockctl incidents`, so the window, the exporter and a later post-mortem agree.
//
// Reads block on the file: give it a thread of its own (moveToThread before follow()).
class IncidentWatch final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(IncidentWatch)

public:
    // Suspects judged per pass (each pass reads their stories): after a failover every take is
    // suspect for minutes, and a busy lock set would otherwise keep the watch reading all the time.
    static constexpr int maxReadsPerPass = 200;
    static constexpr int passIntervalMs = 500;
    // Suspects waiting beyond this are dropped (counted in unchecked()): `lockctl incidents` still
    // finds what they held.
    static constexpr int maxQueued = 50000;
    // How late a recorded event may reach the file: the recorder's batches (RecorderOptions'
    // flushIntervalMs) and the commit.
    static constexpr qint64 commitWithinMs = 1000;

    explicit IncidentWatch(QString recordingPath, QObject* parent = nullptr);
    ~IncidentWatch() override;

    // Follows `writer`'s commits from now on (a queued connection when it lives on another thread).
    void follow(const RecordingWriter* writer);
    // Judges these events as if committed (what follow() connects; for tests too).
    void onCommitted(const RecordEventList& events);
    // Judges every suspect now (tests; the timer does it otherwise).
    void checkNow();
    // Judges the whole recording in one pass (a review of a file): found() for each incident, then
    // judgedAll().
    void judgeAll();

    // Every incident found since it started, oldest first.
    const QList<SafetyIncident>& incidents() const { return m_incidents; }
    qint64 unchecked() const { return m_unchecked; }
    // Suspects waiting to be judged (its thread's view: ask there).
    qsizetype pending() const { return m_queue.size(); }

signals:
    // A new incident (its end may still move: a later read settles it, and `lockctl incidents`
    // tells the final one).
    void found(const lockscope::SafetyIncident& incident);
    // judgeAll() is done: it read this many resources' stories (none when the file would not open).
    void judgedAll(int resources);

private:
    void check(int budget);
    bool openReader();
    // Tells the incidents of `history` not told yet; false when one was held back for now (too
    // young to be sure of), to be judged again.
    bool tell(const ResourceHistory& history);
    void tell(const SafetyIncident& incident);

    QString m_path;
    IncidentTriggers m_triggers;
    QList<QByteArray> m_queue;
    QSet<QByteArray> m_queued;
    QSet<QString> m_known; // incidents told already: resource, tokens, start
    QList<SafetyIncident> m_incidents;
    std::unique_ptr<RecordingReader> m_reader;
    QTimer m_pass;
    qint64 m_unchecked = 0;
};

} // namespace lockscope
