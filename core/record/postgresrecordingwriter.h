// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "audit/teamdatabase.h"
#include "record/recorderoptions.h"
#include "record/recordingsink.h"

#include <memory>

namespace lockscope {

class TeamEventTable;

// Writes a recording into a team's PostgreSQL database (`--db postgresql://…`, issue #45): the
// tables of the SQLite recording in the schema `lockscope` (TeamDatabase, version 2), which
// RecordingReader reads with the same statements. Several recorders on several hosts write at once,
// each batch in one transaction (TeamEventTable).
//
// When the database cannot be written (restarted, unreachable), events are held in memory, up to
// maxHeldEvents (the oldest are dropped beyond it, and counted), and written when it is back; the
// session goes on. Retention goes by age (maxAgeMs); the size of a shared database is its
// administrator's, so maxBytes is not applied here.
class PostgresRecordingWriter final : public RecordingSink
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(PostgresRecordingWriter)

public:
    static constexpr qsizetype maxHeldEvents = 200000;

    PostgresRecordingWriter(RecorderOptions options, std::shared_ptr<Counters> counters);
    ~PostgresRecordingWriter() override;

    void start(const QStringList& masterNames) override;
    void write(const RecordEventList& events) override;
    void finish() override;
    void pruneNow() override;

protected:
    bool isOpen() const override { return m_db != nullptr; }
    bool quietWriteDue() const override;

private:
    // One batch in one transaction: the server's error, or empty.
    QString transact(const RecordEventList& events);
    QString insertAll(const RecordEventList& events);
    // Says once per failure streak that the database cannot be written, and retries from now on.
    void startFailing(const QString& problem);
    // Keeps `events` for when the database is back, within maxHeldEvents.
    void hold(const RecordEventList& events);
    // Writes what is held, oldest first, after reconnecting when the last write failed: whether
    // nothing is held any more.
    bool writeHeld();
    void pruneStep();
    RedisError failure(const QString& problem) const;

    RecorderOptions m_options;
    QStringList m_masterNames;
    std::unique_ptr<TeamDatabase> m_db;
    std::unique_ptr<TeamEventTable> m_events; // on m_db, once the session began
    RecordEventList m_held;                   // not written yet: the database failed
    CommittedBatch m_batch;
    qint64 m_session = -1;
    qint64 m_lastRetryMs = 0;
    bool m_failing = false;
    bool m_pruning = false;
    qint64 m_prunedThisPass = 0;
};

} // namespace lockscope
