// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "record/recorderoptions.h"
#include "record/recordevent.h"
#include "record/recordingdatabase.h"
#include "record/recordingsink.h"
#include "record/sqlitestatement.h"

#include <QHash>
#include <QStringList>
#include <QTimer>

#include <memory>
#include <optional>
#include <vector>

namespace lockscope {

// The one thread that writes a recording into a SQLite file. Events arrive in batches (queued calls from the
// Recorder's thread), each batch is one transaction; pruning runs in small steps between batches, so
// it never holds recording back for long. Lives on its own QThread: create it, move it, then call
// start() there (queued).
class RecordingWriter final : public RecordingSink
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RecordingWriter)

public:
    RecordingWriter(RecorderOptions options, std::shared_ptr<Counters> counters);
    ~RecordingWriter() override;

    // All on the writer's thread (queued).
    void start(const QStringList& masterNames) override;
    void write(const RecordEventList& events) override;
    void finish() override;
    void pruneNow() override;

protected:
    bool isOpen() const override { return m_db != nullptr; }

private:
    // The statements of the hot path, prepared once (parsing is most of a small statement's cost)
    // and bound through SQLite's API.
    struct Statements;
    // A resource event's place in its resource's chain.
    struct Link
    {
        qint64 resource = 0;
        qint64 prev = 0; // the resource's event before it; 0: none recorded
    };

    // Finds the batch's resources this writer has not met in the file, and names the new ones:
    // SQLite's error, or empty.
    QString learnResources(const RecordEventList& events);
    // The resource's id and its latest event before `id`, which becomes its latest; nullopt when
    // it could not be named.
    std::optional<Link> link(const QByteArray& name, qint64 id);
    // Binds one event's 14 values, as row `id`, from parameter `first` + 1 on; false when its
    // resource could not be named.
    bool bindRow(SqliteStatement& q, int first, const RecordEvent& e, qint64 id);
    // One batch in one transaction: SQLite's error, or empty.
    QString transact(const RecordEventList& events);
    QString insertAll(const RecordEventList& events);
    // A resource's latest event as a batch leaves it (the name points into the batch's event or
    // into m_unsaved).
    struct Head
    {
        qint64 resource = 0;
        qint64 last = 0;
        const QByteArray* name = nullptr;
    };
    // Inserts new resources and sets known ones' latest events, resourcesPerStatement at a time.
    QString storeHeads(const std::vector<Head>& heads);
    // Stores the latest events this writer moved since it last did, and says every event is
    // reachable from them (heads_saved.through). Only while nobody else wrote since our batch began.
    QString saveHeads();
    // Takes in every event since heads_saved.through, whoever wrote it: after another writer's
    // batch, and at the first batch (a killed session leaves its tail unsaved).
    QString absorbTail();
    // Every latest event this writer moved is in the file now (stored, or reachable from the tail
    // after heads_saved.through).
    void headsSaved();
    // One step of a retention pass; schedules the next while there is more to remove.
    void pruneStep();
    // Returns freed pages to the file system, a step at a time; ends the pass.
    void vacuumStep();
    qint64 usedBytes();
    void closeQueries();

    RecorderOptions m_options;
    QStringList m_masterNames;
    std::unique_ptr<RecordingDatabase> m_db;
    std::unique_ptr<Statements> m_sql;
    // What the writer knows of a resource: its id, and its latest event's id (each event's `prev`
    // without a read), valid while no other connection writes (PRAGMA data_version).
    // 24 bytes: one is kept per resource, a million with as many locks (32 bytes took 74 MB).
    struct Known
    {
        qint64 id = 0;
        qint64 last = 0;
        quint32 lastOf = 0;       // the m_lastGeneration `last` is known in; older: read it again
        int newAt : 31 = -1;      // its place in m_newResources when this batch found it new
        bool unsaved : 1 = false; // `last` moved since the file was told (listed in m_unsaved)
    };
    static_assert(sizeof(Known) == 24);
    static constexpr int asking = -2;     // Known::newAt of a name learnResources() is finding out
    QHash<QByteArray, Known> m_resources; // by name
    // Moves on when another connection wrote to the file: 32 bits are four billion of those.
    quint32 m_lastGeneration = 1;
    std::vector<Head> m_newResources;  // this batch's, stored at its end
    std::vector<QByteArray> m_unsaved; // resources whose latest event the file does not know yet
    // The batch being written, as committed() will tell it (ids and each event's previous one).
    CommittedBatch m_batch;
    qint64 m_headsSavedMs = 0;

    qint64 m_dataVersion = -1;
    qint64 m_session = -1;
    bool m_failing = false;
    bool m_pruning = false;
    qint64 m_prunedThisPass = 0;
};

} // namespace lockscope
