// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "diagnosis/incidenttriggers.h"
#include "diagnosis/livescans.h"
#include "diagnosis/safetyincident.h"
#include "record/committedbatch.h"
#include "record/recordevent.h"
#include "record/resourcehistory.h"

#include <QHash>
#include <QList>
#include <QObject>
#include <QSet>
#include <QTimer>

#include <memory>

namespace lockscope {

class RecordingReader;
class RecordingSink;

// Two holders at once, live: follows what a recorder commits, feeding each resource's events to
// its DoubleGrantScan (LiveScans). Where an event may have begun an incident (IncidentTriggers) on
// a resource without a scan (its story began before what was followed, or its scan was let go), it
// reads the resource's story back from the recording once and goes on from there. The same
// detector over the same events as `lockctl incidents`, so the window, the exporter and a later
// post-mortem agree.
//
// Reads block on the file: give it a thread of its own (moveToThread before follow()).
class IncidentWatch final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(IncidentWatch)

public:
    // `password`: a team database's (a recording in PostgreSQL), or empty.
    explicit IncidentWatch(QString recordingPath, QString password = {}, QObject* parent = nullptr);
    ~IncidentWatch() override;

    // How often the suspects waiting are read (at most a few hundred a pass).
    static constexpr int passIntervalMs = 500;

    // Follows `writer`'s commits from now on (a queued connection when it lives on another thread).
    void follow(const RecordingSink* writer);
    // Judges a batch the writer committed (what follow() connects).
    void onCommitted(const CommittedBatch& batch);
    // Judges every suspect now (tests; the timer does it otherwise).
    void checkNow();
    // Judges the whole recording in one pass (a review of a file): found() for each incident, then
    // judgedAll().
    void judgeAll();
    // Judges these resources again, as suspects are: another program committed events about them
    // (TeamRecordingFeed, while a team database is reviewed).
    void recheck(const QByteArrayList& resources);

    // Every incident found since it started, oldest first.
    const QList<SafetyIncident>& incidents() const { return m_incidents; }
    qint64 unchecked() const { return m_unchecked; }
    // Suspects waiting to be read (its thread's view: ask there).
    qsizetype pending() const { return m_queue.size(); }
    // Stories read back from the file since it started (its thread's view).
    qint64 reads() const { return m_reads; }
    // Resources judged as they are committed, with no read (its thread's view).
    qsizetype scans() const { return m_scans.size(); }

signals:
    // A new incident (its end may still move: a later read settles it, and `lockctl incidents`
    // tells the final one).
    void found(const lockscope::SafetyIncident& incident);
    // judgeAll() is done: it read this many resources' stories (none when the file would not open).
    void judgedAll(int resources);

private:
    void check(int budget);
    void noteLatest(const CommittedBatch& batch);
    bool openReader();
    // Tells the incidents of `history` not told yet; false when one was held back for now (too
    // young to be sure of), to be judged again.
    bool tell(const ResourceHistory& history);
    void tell(const SafetyIncident& incident);

    // Tells `incident` unless it is too young to be sure of (proven or probable, begun after
    // `youngAfterMs`): false then.
    bool tellUnlessYoung(const SafetyIncident& incident, qint64 youngAfterMs);
    static qint64 youngAfterMs();

    QString m_path;
    QString m_password;
    IncidentTriggers m_triggers;
    LiveScans m_scans;
    QList<QByteArray> m_queue;
    QSet<QByteArray> m_queued;
    // A queued suspect's latest event committed so far (its row id): its story is read back from
    // there, not looked for in the file's whole unsaved tail (RecordingReader::history).
    QHash<QByteArray, qint64> m_latestIds;
    QSet<QString> m_known; // incidents told already: resource, tokens, start
    QList<SafetyIncident> m_incidents;
    std::unique_ptr<RecordingReader> m_reader;
    QTimer m_pass;
    qint64 m_unchecked = 0;
    qint64 m_reads = 0;
};

} // namespace lockscope
