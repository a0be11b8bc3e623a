// SPDX-License-Identifier: Apache-2.0
#include "diagnosis/doublegrantdetector.h"
#include "support/incidentexpectation.h"
#include "support/recordevents.h"
#include "support/testregistry.h"
#include "trace/tracerecordevent.h"

#include <QTest>

#include <algorithm>
#include <tuple>

namespace tst_tracedevidence {

using namespace lockscope;

namespace {

using Kind = RecordEvent::Kind;
using Incident = SafetyIncident;

HistoryEvent lockEvent(qint64 ms, Kind kind, const QByteArray& token, quint64 holders = 0, qint64 ttlMs = -1)
{
    return test::inSession(1, test::lockEvent(ms, kind, "r", token, holders, ttlMs));
}

// What the tracer saw `connection` do with `token`, as the recording keeps it.
HistoryEvent traced(qint64 ms, Kind kind, const QByteArray& token, const QString& connection)
{
    HistoryEvent h = lockEvent(ms, kind, token);
    h.event.master = 0;
    h.event.owner = connection;
    h.event.detail = QStringLiteral("seen by the tracer");
    return h;
}

QList<Incident> detect(int masters, const QList<HistoryEvent>& events)
{
    ResourceHistory h;
    h.resource = "r";
    RecordingSession s;
    s.id = 1;
    s.lastMs = 100000;
    for (int i = 0; i < masters; ++i)
        s.masters << QStringLiteral("redis://127.0.0.1:%1").arg(7000 + i);
    h.sessions = {s};
    h.events = events;
    return DoubleGrantDetector::detect(h);
}

const Incident* find(const QList<Incident>& found, Incident::Kind kind)
{
    for (const Incident& i : found)
        if (i.kind == kind)
            return &i;
    return nullptr;
}

} // namespace

// Issues #42 and #43: what the lock tracer saw, recorded beside the lock's changes, turns a handover
// the record alone can only call possible into a proven one, and names a delete by a connection
// that was not the holder's. Evidence only: without it the same record says what it said before,
// and evidence that proves nothing raises nothing.
class TestTracedEvidence : public QObject
{
    Q_OBJECT

private slots:
    void theFlashSaleWithTheTracerIsProvenTwice();
    void aLockDeletedUnderItsHolderIsStillItsHolders();
    void aStaleReleaseProvesAPausedRedlockHolder();
    void evidenceThatProvesNothingRaisesNothing();
    void whatTheTracerSawBecomesEvents();
    void aRenewingHolderSeenAliveIsProbable();
    void aLapsedHolderNotShownAliveStaysPossible();
};

void TestTracedEvidence::theFlashSaleWithTheTracerIsProvenTwice()
{
    // A takes the lock (1 s lease) on connection a, blocks 2 s; it expires; B takes it on b; A
    // wakes and DELs it from a: B's lock. The recorder sees B's lock go as a release, before or
    // after the tracer's event reaches the recording.
    for (const bool releaseSeenFirst : {false, true}) {
        QList<HistoryEvent> events{lockEvent(1000, Kind::Acquired, "A", 0b1, 1000),
                                   traced(1001, Kind::TracedHolder, "A", QStringLiteral("10.0.0.1:5001")),
                                   lockEvent(2050, Kind::Expired, "A"),
                                   lockEvent(2100, Kind::Acquired, "B", 0b1, 10000),
                                   traced(2101, Kind::TracedHolder, "B", QStringLiteral("10.0.0.2:6002"))};
        const HistoryEvent del = traced(3000, Kind::TracedDelete, "B", QStringLiteral("10.0.0.1:5001"));
        const HistoryEvent gone = lockEvent(3010, Kind::Released, "B");
        events << (releaseSeenFirst ? gone : del) << (releaseSeenFirst ? del : gone);
        const QList<Incident> found = detect(1, events);
        QVERIFY2(found.size() == 2, releaseSeenFirst ? "release seen first" : "delete seen first");

        const Incident* handover = find(found, Incident::Kind::HandoverUnderLiveHolder);
        QVERIFY(handover);
        // From B's SET to A's DEL: A was at work all along.
        test::verifyIncident(*handover, {Incident::Kind::HandoverUnderLiveHolder,
                                         Incident::Confidence::Proven, "A", "B", 2100, 3000});
        QVERIFY2(handover->cause.contains(QLatin1String("still at work")), qPrintable(handover->cause));
        QVERIFY(handover->evidence.last().contains(QLatin1String("traced-delete")));

        const Incident* deleted = find(found, Incident::Kind::DeletedByNonHolder);
        QVERIFY(deleted);
        // B's lock went, deleted by A (known by its connection); B believes it holds the lock until
        // its validity ends.
        test::verifyIncident(*deleted, {Incident::Kind::DeletedByNonHolder, Incident::Confidence::Proven, "B",
                                        "A", 3000, 12100});
        QCOMPARE(deleted->secondOwner, QStringLiteral("10.0.0.1:5001"));
    }
}

void TestTracedEvidence::aLockDeletedUnderItsHolderIsStillItsHolders()
{
    // After A's DEL, B still believes it holds the lock until its validity ends: C taking it in the
    // meantime is a third holder at once with B. The recorder saw B's key go as a release; the
    // tracer says whose doing it was.
    const QString a = QStringLiteral("10.0.0.1:5001");
    const QList<HistoryEvent> sale{lockEvent(1000, Kind::Acquired, "A", 0b1, 1000),
                                   traced(1001, Kind::TracedHolder, "A", a),
                                   lockEvent(2050, Kind::Expired, "A"),
                                   lockEvent(2100, Kind::Acquired, "B", 0b1, 10000),
                                   traced(2101, Kind::TracedHolder, "B", QStringLiteral("10.0.0.2:6002")),
                                   lockEvent(3010, Kind::Released, "B"),
                                   traced(3000, Kind::TracedDelete, "B", a)};
    const QList<Incident> found =
        detect(1, sale + QList<HistoryEvent>{lockEvent(3500, Kind::Acquired, "C", 0b1, 10000),
                                             lockEvent(4000, Kind::Released, "C")});
    QCOMPARE(found.size(), 3);
    const Incident* third = find(found, Incident::Kind::MajorityOverlap);
    QVERIFY(third);
    test::verifyIncident(
        *third, {Incident::Kind::MajorityOverlap, Incident::Confidence::Proven, "B", "C", 3500, 4000});
    QVERIFY2(third->cause.contains(QLatin1String("deleted")), qPrintable(third->cause));
    // Taken once B's validity was over: B no longer counts on it.
    const QList<Incident> later =
        detect(1, sale + QList<HistoryEvent>{lockEvent(13000, Kind::Acquired, "C", 0b1, 10000),
                                             lockEvent(14000, Kind::Released, "C")});
    QCOMPARE(later.size(), 2);
    QVERIFY(!find(later, Incident::Kind::MajorityOverlap));
}

void TestTracedEvidence::aStaleReleaseProvesAPausedRedlockHolder()
{
    // The demo's client pause on 5 masters: A's lease runs out while it is paused, B takes the lock,
    // A wakes and releases with its token, which no longer holds the lock.
    const QList<HistoryEvent> record{lockEvent(1000, Kind::Acquired, "A", 0b11111, 2000),
                                     lockEvent(3050, Kind::Expired, "A"),
                                     lockEvent(3100, Kind::Acquired, "B", 0b11111, 5000)};
    const HistoryEvent stale = traced(4000, Kind::TracedStale, "A", QStringLiteral("10.0.0.1:5001"));
    const HistoryEvent end = lockEvent(6000, Kind::Released, "B");

    // The record alone: possible.
    const QList<Incident> alone = detect(5, record + QList<HistoryEvent>{end});
    QCOMPARE(alone.size(), 1);
    QCOMPARE(alone.first().confidence, Incident::Confidence::Possible);
    QCOMPARE(alone.first().toMs, 6000);

    // With the tracer's stale release: the same incident, proven, up to the stale release.
    const QList<Incident> traced = detect(5, record + QList<HistoryEvent>{stale, end});
    QCOMPARE(traced.size(), 1);
    const Incident& i = traced.first();
    QCOMPARE(i.kind, Incident::Kind::HandoverUnderLiveHolder);
    QCOMPARE(i.confidence, Incident::Confidence::Proven);
    QCOMPARE(safetyIncidentIdentity(i), safetyIncidentIdentity(alone.first()));
    QCOMPARE(i.fromMs, 3100);
    QCOMPARE(i.toMs, 4000);
}

void TestTracedEvidence::evidenceThatProvesNothingRaisesNothing()
{
    struct Case
    {
        const char* name;
        QList<HistoryEvent> events;
    };
    const QString a = QStringLiteral("10.0.0.1:5001");
    const QList<Case> cases{
        {"a holder that released, then released again (a retry), after B took the lock",
         {lockEvent(1000, Kind::Acquired, "A", 0b11111, 5000), lockEvent(2000, Kind::Released, "A"),
          lockEvent(2100, Kind::Acquired, "B", 0b11111, 5000), traced(2500, Kind::TracedStale, "A", a),
          lockEvent(3000, Kind::Released, "B")}},
        {"an extend after the lease ran out, with nobody else taking the lock",
         {lockEvent(1000, Kind::Acquired, "A", 0b11111, 2000), lockEvent(3050, Kind::Expired, "A"),
          traced(4000, Kind::TracedStale, "A", a)}},
        {"a delete of a lock whose validity was over",
         {lockEvent(1000, Kind::Acquired, "A", 0b11111, 2000), traced(1001, Kind::TracedHolder, "A", a),
          traced(3500, Kind::TracedDelete, "A", QStringLiteral("10.0.0.9:9009"))}},
        {"who took the lock, and a plain write over a released one",
         {lockEvent(1000, Kind::Acquired, "A", 0b11111, 5000), traced(1001, Kind::TracedHolder, "A", a),
          lockEvent(2000, Kind::Released, "A"), traced(2500, Kind::TracedOverwrite, "C", a),
          lockEvent(2510, Kind::Acquired, "C", 0b11111, 5000), lockEvent(3000, Kind::Released, "C")}},
    };
    for (const Case& c : cases) {
        const QList<Incident> found = detect(5, c.events);
        QVERIFY2(found.isEmpty(), qPrintable(QStringLiteral("%1: %2 incident(s), the first %3")
                                                 .arg(QLatin1String(c.name))
                                                 .arg(found.size())
                                                 .arg(found.isEmpty() ? QString() : found.first().cause)));
    }
    // A stale release before the next holder came: A was done before B took the lock.
    const QList<Incident> before = detect(
        5, {lockEvent(1000, Kind::Acquired, "A", 0b11111, 2000), lockEvent(3050, Kind::Expired, "A"),
            traced(3060, Kind::TracedStale, "A", a), lockEvent(3100, Kind::Acquired, "B", 0b11111, 5000),
            lockEvent(6000, Kind::Released, "B")});
    QCOMPARE(before.size(), 1);
    QCOMPARE(before.first().confidence, Incident::Confidence::Possible);
}

void TestTracedEvidence::whatTheTracerSawBecomesEvents()
{
    TracedCommand c;
    c.master = 2;
    c.seenMs = 1700000000123;
    c.client.address = "127.0.0.1:5001";
    c.client.name = "worker\x1b[31m";
    c.args = {"DEL", "r"};
    c.meaning = TraceMeaning::DeletedByNonHolder;
    c.holderToken = "tok-B";
    c.holderClient = "127.0.0.1:6002";
    QList<RecordEvent> events = TraceRecordEvent::of("r", c);
    QCOMPARE(events.size(), 1);
    const RecordEvent* e = &events.first();
    QCOMPARE(e->kind, Kind::TracedDelete);
    QCOMPARE(e->timeMs, c.seenMs);
    QCOMPARE(e->master, 2);
    QCOMPARE(e->token, QByteArray("tok-B")); // whose lock it deleted
    QCOMPARE(e->owner, QStringLiteral("127.0.0.1:5001"));
    QVERIFY2(e->detail.contains(QLatin1String("127.0.0.1:6002")), qPrintable(e->detail));
    QVERIFY2(!e->detail.contains(QLatin1Char('\x1b')), qPrintable(e->detail)); // server bytes escaped

    c.meaning = TraceMeaning::Acquired;
    c.token = "tok-A";
    events = TraceRecordEvent::of("r", c);
    QVERIFY(events.size() == 1 && events.first().kind == Kind::TracedHolder &&
            events.first().token == "tok-A");
    // A take after a lease ran out: what the master said of that holder's connection, beside it.
    c.lapsedToken = "tok-Z";
    c.lapsedClient = "127.0.0.1:7007";
    c.lapsed = TracedCommand::Lapsed::Unasked; // the list could not be had: nothing to say
    QCOMPARE(TraceRecordEvent::of("r", c).size(), 1);
    for (const auto& [lapsed, kind, words] : QList<std::tuple<TracedCommand::Lapsed, Kind, const char*>>{
             {TracedCommand::Lapsed::Open, Kind::TracedAlive, "still open (idle 4 s)"},
             {TracedCommand::Lapsed::Closed, Kind::TracedGone, "had closed"}}) {
        c.lapsed = lapsed;
        c.lapsedIdleS = lapsed == TracedCommand::Lapsed::Open ? 4 : -1;
        events = TraceRecordEvent::of("r", c);
        QCOMPARE(events.size(), 2);
        QCOMPARE(events.at(1).kind, kind);
        QCOMPARE(events.at(1).token, QByteArray("tok-Z")); // about the lapsed holder
        QCOMPARE(events.at(1).owner, QStringLiteral("127.0.0.1:7007"));
        QVERIFY2(events.at(1).detail.contains(QLatin1String(words)), qPrintable(events.at(1).detail));
        QVERIFY2(!events.at(1).detail.contains(QLatin1Char('\x1b')), qPrintable(events.at(1).detail));
    }
    c.lapsed = TracedCommand::Lapsed::None;
    c.meaning = TraceMeaning::StaleRelease;
    events = TraceRecordEvent::of("r", c);
    QVERIFY(events.size() == 1 && events.first().kind == Kind::TracedStale &&
            events.first().token == "tok-A");
    // An attempt turned away: contention (issue #44), with the token it tried and who held it.
    c.meaning = TraceMeaning::Refused;
    c.token = "tok-C";
    c.holderToken = "tok-A";
    events = TraceRecordEvent::of("r", c);
    QVERIFY(events.size() == 1 && events.first().kind == Kind::TracedRefused &&
            events.first().token == "tok-C");
    QVERIFY2(events.first().detail.contains(QLatin1String("tok-A held it")),
             qPrintable(events.first().detail));
    QVERIFY(isTracedKind(Kind::TracedRefused) && isEvidenceOnly(Kind::TracedRefused));
    c.token = "tok-A";
    c.holderToken = "tok-B";
    // What the recorder sees on the masters already, or what tells nothing of a holder: not kept.
    for (TraceMeaning m : {TraceMeaning::Released, TraceMeaning::Extended, TraceMeaning::Read,
                           TraceMeaning::Waiting, TraceMeaning::Other}) {
        c.meaning = m;
        QVERIFY(TraceRecordEvent::of("r", c).isEmpty());
    }
    // A delete of a lock whose holder the trace never saw: nothing to tie it to.
    c.meaning = TraceMeaning::DeletedByNonHolder;
    c.holderToken.clear();
    QVERIFY(TraceRecordEvent::of("r", c).isEmpty());
    // Kinds are stored as numbers: these are new, never renumbered, and read back.
    for (const auto& [number, name] : QList<std::pair<int, const char*>>{{31, "traced-holder"},
                                                                         {32, "traced-stale"},
                                                                         {33, "traced-delete"},
                                                                         {34, "traced-overwrite"},
                                                                         {35, "traced-alive"},
                                                                         {36, "traced-gone"},
                                                                         {37, "fence-counter"},
                                                                         {38, "waiters"},
                                                                         {39, "traced-refused"},
                                                                         {40, "deleted-after"},
                                                                         {41, "valid-through"}}) {
        RecordEvent::Kind kind;
        QVERIFY(recordEventKindFromNumber(number, &kind));
        QCOMPARE(recordEventKindName(kind), QLatin1String(name));
        QVERIFY(isEvidenceOnly(kind));
    }
}

namespace {

// A lease renewed twice (a watchdog) and then left to run out, unreleased; B takes the lock after it.
QList<HistoryEvent> lapsedLease(bool renewed)
{
    QList<HistoryEvent> events{lockEvent(1000, Kind::Acquired, "A", 0b1, 1000),
                               traced(1001, Kind::TracedHolder, "A", QStringLiteral("10.0.0.1:5001"))};
    if (renewed)
        events << lockEvent(1300, Kind::Extended, "A", 0b1, 1000)
               << lockEvent(1600, Kind::Extended, "A", 0b1, 1000);
    events << lockEvent(renewed ? 2650 : 2050, Kind::Expired, "A");
    return events;
}

HistoryEvent takenByB(qint64 ms)
{
    return lockEvent(ms, Kind::Acquired, "B", 0b1, 10000);
}

} // namespace

void TestTracedEvidence::aRenewingHolderSeenAliveIsProbable()
{
    // A renewed its lease and stopped without releasing it; when B took the lock, the tracer found
    // A's connection still open: alive (paused, blocked, cut off) and counting on its lock. The
    // tracer's word may reach the recording before the recorder sees B's take, or after.
    const HistoryEvent alive = traced(2701, Kind::TracedAlive, "A", QStringLiteral("10.0.0.1:5001"));
    for (const bool toldFirst : {false, true}) {
        QList<HistoryEvent> events = lapsedLease(true);
        events << (toldFirst ? alive : takenByB(2700)) << (toldFirst ? takenByB(2700) : alive)
               << lockEvent(5000, Kind::Released, "B");
        const QList<Incident> found = detect(1, events);
        QVERIFY2(found.size() == 1, toldFirst ? "told first" : "told after");
        const Incident& i = found.first();
        test::verifyIncident(
            i, {Incident::Kind::HandoverUnderLiveHolder, Incident::Confidence::Probable, "A", "B", 2700});
        QVERIFY2(i.cause.contains(QLatin1String("was alive")), qPrintable(i.cause));
        QVERIFY2(std::any_of(i.evidence.cbegin(), i.evidence.cend(),
                             [](const QString& l) { return l.contains(QLatin1String("traced-alive")); }),
                 qPrintable(i.evidence.join(QLatin1Char('\n'))));
        // A stale extend from A afterwards proves it: the same incident, proven.
        const QList<Incident> proven =
            detect(1, events + QList<HistoryEvent>{
                                   traced(3000, Kind::TracedStale, "A", QStringLiteral("10.0.0.1:5001"))});
        QCOMPARE(proven.size(), 1);
        QCOMPARE(proven.first().confidence, Incident::Confidence::Proven);
        QCOMPARE(safetyIncidentIdentity(proven.first()), safetyIncidentIdentity(i));
    }
}

void TestTracedEvidence::aLapsedHolderNotShownAliveStaysPossible()
{
    struct Case
    {
        const char* name;
        bool renewed;
        QList<HistoryEvent> told;
        const char* cause;
    };
    const QString a = QStringLiteral("10.0.0.1:5001");
    const QList<Case> cases{
        // A killed holder: the master closed its connection; its lease ran out, B took the lock.
        {"its connection closed", true, {traced(2701, Kind::TracedGone, "A", a)}, "had gone"},
        // A holder that lets its lease run out on purpose, its connection open (a pool).
        {"alive, never renewed", false, {traced(2101, Kind::TracedAlive, "A", a)}, "never renewed"},
        // The tracer was not asked, or its word is about another handover long before.
        {"nothing told", true, {}, "not in the recording"},
        {"told of another time", true, {traced(60000, Kind::TracedAlive, "A", a)}, "not in the recording"},
    };
    for (const Case& c : cases) {
        QList<HistoryEvent> events = lapsedLease(c.renewed);
        const qint64 takenAt = c.renewed ? 2700 : 2100;
        events << takenByB(takenAt) << c.told << lockEvent(takenAt + 2000, Kind::Released, "B");
        std::stable_sort(events.begin(), events.end(), [](const HistoryEvent& x, const HistoryEvent& y) {
            return x.event.timeMs < y.event.timeMs;
        });
        const QList<Incident> found = detect(1, events);
        QVERIFY2(found.size() == 1, c.name);
        QCOMPARE(found.first().kind, Incident::Kind::HandoverUnderLiveHolder);
        QVERIFY2(found.first().confidence == Incident::Confidence::Possible, c.name);
        QVERIFY2(found.first().cause.contains(QLatin1String(c.cause)), qPrintable(found.first().cause));
    }
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestTracedEvidence)

} // namespace tst_tracedevidence

#include "tst_tracedevidence.moc"
