// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/monotonicclock.h"
#include "monitor/lockview.h"
#include "record/inlinefirstarray.h"
#include "record/keyspacenote.h"
#include "record/keytypenames.h"
#include "record/recorderoptions.h"
#include "record/recordevent.h"
#include "record/recordingpipe.h"
#include "record/recordingsink.h"

#include <QDateTime>
#include <QHash>
#include <QObject>

#include <algorithm>
#include <functional>
#include <memory>

namespace lockscope {

class LockMonitor;
struct LockBatch;
struct FailoverReport;
struct PrimaryChange;

// The flight recorder: follows a LockMonitor and keeps, per resource and per master, every change it
// shows (first seen, holder and owner, extensions, release, expiry, replacement, force-release with
// its audit record's id, key type changes) and every master event (down, up, restart, failover,
// at-risk marks) in a SQLite file, for `lockctl history` and the window's History view.
//
// What happened is decided here, on the monitor's thread, from views it already computed; the file
// is written by one writer thread in batched transactions, so the monitor never waits for a disk.
//
//     Recorder::record(&monitor, options);   // parented to the monitor: records while it lives
class Recorder final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(Recorder)

public:
    explicit Recorder(RecorderOptions options = {}, QObject* parent = nullptr);
    // Writes through the sink `makeSink` returns (given the options and the counters to share):
    // how a test writes one recording into two stores at once.
    using SinkFactory =
        std::function<RecordingSink*(const RecorderOptions&, std::shared_ptr<RecordingSink::Counters>)>;
    Recorder(RecorderOptions options, const SinkFactory& makeSink, QObject* parent = nullptr);
    // Hands over what is pending, ends the session and waits for the writer to finish.
    ~Recorder() override;

    // A Recorder that follows `monitor` (attached at once), owned by it.
    static Recorder* record(LockMonitor* monitor, RecorderOptions options = {});

    // Follows `monitor` from now on; the locks it already shows count as seen now. Once.
    void attach(LockMonitor* monitor);

    QString path() const { return m_options.path; }
    const RecorderOptions& options() const { return m_options; }
    // Events observed but not yet committed to the file: stays small when the writer keeps up.
    qint64 backlog() const { return m_counters->backlog + m_pipe.pending(); }
    qint64 written() const { return m_counters->written; }
    qint64 dropped() const { return m_counters->dropped; }
    qint64 pruned() const { return m_counters->pruned; }
    // CPU time it has used, on the monitor's thread and its writer's (for the benchmark).
    qint64 cpuNs() const { return m_counters->observeCpuNs + m_counters->writeCpuNs; }
    qint64 writerCpuNs() const { return m_counters->writeCpuNs; }
    // The same figures, still readable once the recorder is gone (its session's end included).
    std::shared_ptr<const RecordingSink::Counters> counters() const { return m_counters; }
    // Records an event the monitor cannot see (the window's notifications): stamped now unless
    // it has a time, committed with the next flush.
    void note(RecordEvent event) { push(std::move(event)); }
    // Hands what is pending to the writer now (it is otherwise every flushIntervalMs).
    void flush() { m_pipe.flush(); }
    // A retention pass now (normally every pruneIntervalMs), for tests and maintenance.
    void pruneNow() { m_pipe.pruneNow(); }
    // Its signals (opened, failed, pruneFinished) say whether the file opened, when writing fails
    // and when a retention pass ended; they arrive queued on this object's thread. Connect before
    // attach(), which starts it.
    const RecordingSink* writer() const { return m_pipe.sink(); }

private:
    // A removal learnt within this of the expiry counts as the expiry (the monitor hears of a key's
    // end a little after it happens).
    static constexpr qint64 expiryToleranceMs = KeyspaceNote::dueToleranceMs;
    // How long after a master was down a lock gone from it counts as lost rather than released.
    static constexpr qint64 interruptionMemoryMs = 10000;

    // What the recorder knows of one master's part in an episode. 16 bytes, each field in the bits
    // it needs: at 24, five masters' parts took a 112-byte block per lock and a single master's
    // made each entry 8 bytes longer (a million locks, 8 MB).
    struct PerMaster
    {
        // A longer TTL (17 years) reads as this: it only ever goes up from there by an extension.
        static constexpr qint64 maxTtlMs = (qint64(1) << 39) - 1;
        static constexpr qint64 maxExpiresAtMs = (qint64(1) << 55) - 1; // a million years
        static constexpr quint64 maxExtensions = (quint64(1) << 23) - 1;
        static constexpr int maxTypes = 128;
        qint64 pttl : 40 = -2;       // last PTTL read for the token (at most maxTtlMs); -2: not held there
        quint64 extensions : 23 = 0; // times its TTL went up during this episode (at most maxExtensions)
        // The master restarted, or went down, after the token had been seen there during this
        // episode (marked when the master's event comes): a copy written there only after the
        // restart was not lost by it.
        quint64 restartedUnder : 1 = 0;
        qint64 expiresAt : 56 = -1; // the monotonic expiry that read implies; -1: none
        quint64 type : 7 = 0;       // the key's type, an index into m_types; 0: absent
        quint64 downUnder : 1 = 0;
    };
    static_assert(sizeof(PerMaster) == 16);
    // What the recorder knows of one resource's current episode: one hash entry, the per-master
    // part in one array (four lists per resource were four heap blocks, each a cache miss per view,
    // and a type string per master whose reference moved on every view). One master's part is
    // inline: room for five there cost a million single-master locks 100 MB, while five masters
    // pay about as much for the block of their own as they did for the room in the entry. 104
    // bytes (the flags share the extension count's word): a million locks' entries took 198 MB at
    // 136.
    struct Tracked
    {
        QByteArray token;
        qint64 startMs = 0; // monotonic
        quint64 holders = 0;
        quint64 everHolders = 0;  // every master that held it during the episode
        qint64 deadlineMs = -1;   // monotonic: when the last master holding it lets it expire
        qint64 releasedAtMs = -1; // wall clock: a master let go of it before its expiry
        qint64 holding : 15 = 0;
        qint64 episodeExtensions : 24 = 0; // extensions recorded (a Redlock extension shows on each master)
        bool atRisk : 1 = false;
        bool lostOnFailover : 1 = false;
        bool contested : 1 = false; // other tokens are held beside this one (m_sides)
        bool seenHeld : 1 = false;  // held when first seen: when it was taken, and its TTL then, unknown
        // Until when after startMs its validity surely lasts (validityFloorMs, from its first read on
        // a quorum or its latest extension's); 0: not known. Saturated at 35 minutes: a floor stays a floor
        // when it is lowered.
        quint64 validFloorAfterStartMs : 21 = 0;
        static constexpr qint64 maxValidFloorAfterStartMs = (qint64(1) << 21) - 1;
        InlineFirstArray<PerMaster> masters;
    };
    static_assert(sizeof(void*) != 8 || sizeof(Tracked) <= 104);

    void onBatch(const LockBatch& batch);
    void onView(const LockView& view, bool initial);
    void onRemoved(const QByteArray& resource);
    void onFailoverReport(const FailoverReport& report);
    void masterEvent(int master, RecordEvent::Kind kind, const QString& detail);
    void push(RecordEvent event) { m_pipe.push(std::move(event)); }
    RecordEvent resourceEvent(RecordEvent::Kind kind, const QByteArray& resource,
                              const Tracked& tracked) const;
    // How an episode that is gone from every master ended.
    // Every episode seen on `master` so far: it restarted (`restart`) or went down.
    void markInterrupted(int master, bool restart);
    // `master` restarted after the token had been seen there during the episode, or went down a
    // moment ago after that.
    bool interrupted(int master, const Tracked& tracked) const;
    // `overwritten`: its last masters hold another token now (writtenOver).
    RecordEvent::Kind endOf(const QByteArray& resource, const Tracked& tracked, qint64 nowMs,
                            bool overwritten) const;
    // `unreachable`: bit i, master i's read failed (onView learnt it once per view). `token`: the
    // episode's, the view's own (`viewsToken`) or one held beside it.
    void startEpisode(const LockView& view, const QByteArray& token, bool viewsToken, quint64 unreachable,
                      RecordEvent::Kind kind, Tracked& tracked);
    void observe(const LockView& view, bool viewsToken, quint64 unreachable, Tracked& tracked,
                 bool* extended);
    // Reads the episode's token again: extensions, holders and at-risk marks as events.
    void follow(const LockView& view, bool viewsToken, quint64 unreachable, Tracked& tracked);
    // The tokens held beside `tracked`'s (a contested lock): each its own episode, started with a
    // `contested` event and ended like any other.
    void followSides(const LockView& view, quint64 unreachable, Tracked& tracked);
    // The end event of an episode gone from every master.
    void endEpisode(const QByteArray& resource, const Tracked& tracked, qint64 nowMs,
                    bool overwritten = false);
    void onKeyspaceEvent(int master, const QByteArray& key, const QByteArray& event, qint64 ranAfterMs);
    // A delete the server ran after `ranAfterMs` of a lock held beside another (contested): a
    // DeletedAfter event for the token that master held.
    void anchorDelete(int master, const QByteArray& resource, qint64 ranAfterMs);
    // `token` was just seen on a quorum of `resource` beside other holders: a ValidThrough event
    // for each of them whose validity surely lasts beyond now.
    void anchorValidityBeside(const QByteArray& resource, const QByteArray& token);

    RecorderOptions m_options;
    LockMonitor* m_monitor = nullptr;
    int m_masterCount = 0;
    std::shared_ptr<RecordingSink::Counters> m_counters;
    RecordingPipe m_pipe;
    QHash<HashedKey, Tracked> m_tracked;
    // Contested resources only: the tokens held beside the tracked one (usually one).
    QHash<QByteArray, QList<Tracked>> m_sides;
    // The last keyspace event per resource, an expiry or a delete only: they say how a lock ended
    // (endOf); any other event (a set, most of them) is not stored, which keeps the table to the keys
    // about to go, not every key that changed (a 200k-entry table filled and rehashed over and over at
    // 5k changes/s). A set after a delete leaves the note: it says how the last holder went when the
    // next one took the key between two reads (a fast handover). Reading the same token again makes
    // it stale (follow).
    QHash<QByteArray, KeyspaceNote> m_keyspace;
    QList<qint64> m_downMs;   // per master: monotonic time it last went down
    QList<int> m_masterState; // per master: last recorded (1 up, 0 down, -1 none)
    KeyTypeNames m_types{PerMaster::maxTypes};
};

} // namespace lockscope
