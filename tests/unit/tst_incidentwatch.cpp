// SPDX-License-Identifier: Apache-2.0
#include "diagnosis/doublegrantdetector.h"
#include "diagnosis/incidenttriggers.h"
#include "diagnosis/incidentwatch.h"
#include "diagnosis/livescans.h"
#include "record/recordingreader.h"
#include "record/recordingwriter.h"
#include "support/recordevents.h"
#include "support/testregistry.h"

#include <QDateTime>
#include <QRandomGenerator>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

namespace tst_incidentwatch {

using namespace lockscope;

namespace {

using Kind = RecordEvent::Kind;

RecordEvent lockEventAt(qint64 ms, Kind kind, const QByteArray& resource, const QByteArray& token = {},
                        quint64 holders = 0, qint64 ttlMs = -1)
{
    return test::lockEvent(ms, kind, resource, token, holders, ttlMs);
}

RecordEvent masterEvent(qint64 ms, Kind kind, int master)
{
    return test::masterEvent(ms, kind, master, QStringLiteral("run_id a1 → 9c"));
}

// A recording being written on `masters` masters, and a watch following it.
struct WatchedRecording
{
    explicit WatchedRecording(int masters)
    {
        watch.follow(&writer);
        QStringList urls;
        for (int i = 0; i < masters; ++i)
            urls << QStringLiteral("redis://127.0.0.1:%1").arg(7001 + i);
        writer.start(urls);
    }

    QTemporaryDir dir;
    RecorderOptions options = [this] {
        RecorderOptions o;
        o.path = dir.filePath(QStringLiteral("recording.sqlite"));
        return o;
    }();
    RecordingWriter writer{options, std::make_shared<RecordingWriter::Counters>()};
    IncidentWatch watch{options.path};
    QSignalSpy found{&watch, &IncidentWatch::found};
};

// Random stories of 60 locks, one round after another from `t`: clean handovers, expiries taken
// at once (possible), replacements in place (possible), and restarts that let a second holder in
// (proven).
RecordEventList randomStories(QRandomGenerator& rng, int session, qint64 t, int rounds = 40)
{
    RecordEventList events;
    int serial = 0;
    for (int round = 0; round < rounds; ++round) {
        for (int r = 0; r < 60; ++r, t += 7) {
            const QByteArray resource = "lock:" + QByteArray::number(r);
            const QByteArray a = "s" + QByteArray::number(session) + "t" + QByteArray::number(++serial);
            const QByteArray b = a + "b";
            switch (rng.bounded(6)) {
            case 0: // released, taken again
                events << lockEventAt(t, Kind::Acquired, resource, a, 0b111, 5000)
                       << lockEventAt(t + 3, Kind::Released, resource, a);
                break;
            case 1: // expired, taken at once
                events << lockEventAt(t, Kind::Acquired, resource, a, 0b111, 2)
                       << lockEventAt(t + 4, Kind::Expired, resource, a)
                       << lockEventAt(t + 5, Kind::Acquired, resource, b, 0b111, 5000)
                       << lockEventAt(t + 6, Kind::Released, resource, b);
                break;
            case 2: // replaced in place while valid
                events << lockEventAt(t, Kind::Acquired, resource, a, 0b111, 5000)
                       << lockEventAt(t + 2, Kind::Acquired, resource, b, 0b111, 5000)
                       << lockEventAt(t + 6, Kind::Released, resource, b);
                break;
            case 3: { // a restart of two masters, B on them while A is valid
                events << lockEventAt(t, Kind::Acquired, resource, a, 0b111, 60000)
                       << masterEvent(t + 1, Kind::MasterRestarted, 0)
                       << masterEvent(t + 1, Kind::MasterRestarted, 1)
                       << lockEventAt(t + 2, Kind::Holders, resource, a, 0b100)
                       << lockEventAt(t + 3, Kind::Contested, resource, b, 0b011, 60000)
                       << lockEventAt(t + 5, Kind::Released, resource, b)
                       << lockEventAt(t + 6, Kind::Released, resource, a);
                break;
            }
            default: // extended, released
                events << lockEventAt(t, Kind::Acquired, resource, a, 0b111, 5000)
                       << lockEventAt(t + 2, Kind::Extended, resource, a, 0b111, 5000)
                       << lockEventAt(t + 5, Kind::Released, resource, a);
            }
        }
    }
    return events;
}

// The last word the watch said of each incident (one told as possible, then proven, is the proven).
QList<SafetyIncident> lastTold(const QSignalSpy& found)
{
    QMap<QString, SafetyIncident> last;
    for (const QList<QVariant>& signal : found) {
        const auto incident = signal.first().value<SafetyIncident>();
        last.insert(safetyIncidentIdentity(incident), incident);
    }
    return last.values();
}

// What identifies an incident and what was said of it (`withEnd`: its end too, which a live
// watch tells as it stood then).
QStringList incidentKeys(const QList<SafetyIncident>& list, bool withEnd = true)
{
    QStringList out;
    for (const SafetyIncident& i : list)
        out << QStringLiteral("%1 %2 %3 %4 %5 %6 %7")
                   .arg(QString::fromUtf8(i.resource), QString::fromUtf8(i.firstToken),
                        QString::fromUtf8(i.secondToken), safetyIncidentKindName(i.kind),
                        safetyConfidenceName(i.confidence))
                   .arg(i.fromMs)
                   .arg(withEnd ? i.toMs : 0);
    out.sort();
    return out;
}

} // namespace

// The live side of issue #42: which recorded events make a resource worth judging again, and the
// watch that judges them from the recording file, as `lockctl incidents` does later.
class TestIncidentWatch : public QObject
{
    Q_OBJECT

private slots:
    void triggersPickTheResourcesThatMayHoldAnIncident();
    void triggersForgetOldEnds();
    void theWatchFindsARestartOverlapInTheFile();
    void aFreshOverlapWaitsForTheFirstHoldersRelease();
    void onePassAgreesWithEachLocksHistory();
    void theLiveScansAgreeWithOnePassOverTheFile();
    void aWatchStartedLateReadsEachStoryOnce();
    void theLiveScansAreBounded();
    void locksSeenInAFirstPassAreReadBackPastTheirBound();
};

void TestIncidentWatch::triggersPickTheResourcesThatMayHoldAnIncident()
{
    IncidentTriggers t;
    // Clean handovers: nothing to judge.
    QVERIFY(t.suspects({lockEventAt(1000, Kind::Acquired, "a", "A", 0b111, 5000),
                        lockEventAt(2000, Kind::Released, "a", "A"),
                        lockEventAt(2001, Kind::Acquired, "a", "B", 0b111, 5000)})
                .isEmpty());
    // A token held beside another; a take soon after an expiry; a take long after one.
    QCOMPARE(
        t.suspects(
            {lockEventAt(3000, Kind::Contested, "b", "X", 0b011),
             lockEventAt(3000, Kind::Contested, "b", "Y", 0b100), lockEventAt(4000, Kind::Expired, "c", "C"),
             lockEventAt(4100, Kind::Acquired, "c", "D", 0b111), lockEventAt(5000, Kind::Expired, "d", "E"),
             lockEventAt(5000 + IncidentTriggers::endWindowMs + 1, Kind::Acquired, "d", "F", 0b111)}),
        (QList<QByteArray>{"b", "c"}));
    // After a restart every take is judged for a while; then not.
    const qint64 restart = 100000;
    QCOMPARE(t.suspects({masterEvent(restart, Kind::MasterRestarted, 2),
                         lockEventAt(restart + 10, Kind::Acquired, "e", "G", 0b111),
                         lockEventAt(restart + IncidentTriggers::topologyWindowMs + 1, Kind::Acquired, "f",
                                     "H", 0b111)}),
             QList<QByteArray>{"e"});
    // What the tracer saw that can raise one: a stale command, a foreign delete, a lapsed holder
    // still connected (its word may come after the take was judged). Not who took it, nor a gone one.
    QCOMPARE(t.suspects({lockEventAt(200000, Kind::TracedHolder, "g", "I"),
                         lockEventAt(200001, Kind::TracedGone, "h", "J"),
                         lockEventAt(200002, Kind::TracedAlive, "i", "K"),
                         lockEventAt(200003, Kind::TracedStale, "j", "L"),
                         lockEventAt(200004, Kind::TracedDelete, "k", "M")}),
             (QList<QByteArray>{"i", "j", "k"}));
}

void TestIncidentWatch::triggersForgetOldEnds()
{
    IncidentTriggers t;
    RecordEventList ends;
    for (int i = 0; i < 5000; ++i)
        ends << lockEventAt(1000 + i, Kind::Expired, "r" + QByteArray::number(i), "T");
    t.suspects(ends);
    const qint64 later = 1000 + 5000 + IncidentTriggers::endWindowMs + 1;
    t.suspects({lockEventAt(later, Kind::Expired, "last", "T")});
    QVERIFY2(t.remembered() < 100, qPrintable(QString::number(t.remembered())));
}

void TestIncidentWatch::theWatchFindsARestartOverlapInTheFile()
{
    WatchedRecording rec(3);
    RecordingWriter& writer = rec.writer;
    IncidentWatch& watch = rec.watch;
    QSignalSpy& found = rec.found;
    const qint64 t = QDateTime::currentMSecsSinceEpoch() - 10000;
    // A clean handover on another lock, then the restart case on lock:r.
    writer.write({lockEventAt(t, Kind::Acquired, "lock:q", "Q1", 0b111, 5000),
                  lockEventAt(t + 10, Kind::Released, "lock:q", "Q1"),
                  lockEventAt(t + 11, Kind::Acquired, "lock:q", "Q2", 0b111, 5000),
                  lockEventAt(t + 100, Kind::Acquired, "lock:r", "A", 0b111, 60000)});
    writer.write({masterEvent(t + 1000, Kind::MasterRestarted, 0),
                  masterEvent(t + 1000, Kind::MasterRestarted, 1),
                  lockEventAt(t + 1100, Kind::Holders, "lock:r", "A", 0b100),
                  lockEventAt(t + 2000, Kind::Contested, "lock:r", "B", 0b011, 60000)});
    watch.checkNow();
    QCOMPARE(found.size(), 1);
    const auto incident = found.first().first().value<SafetyIncident>();
    QCOMPARE(incident.resource, QByteArray("lock:r"));
    QCOMPARE(incident.firstToken, QByteArray("A"));
    QCOMPARE(incident.secondToken, QByteArray("B"));
    QCOMPARE(incident.confidence, SafetyIncident::Confidence::Proven);
    // Judged again (B extended; the tracer's word on lock:r, a trigger once more): told once.
    writer.write({lockEventAt(t + 3000, Kind::Extended, "lock:r", "B", 0b011, 60000),
                  lockEventAt(t + 3001, Kind::TracedAlive, "lock:r", "A")});
    watch.checkNow();
    QCOMPARE(found.size(), 1);
    QCOMPARE(watch.incidents().size(), 1);
    writer.finish();
}

void TestIncidentWatch::aFreshOverlapWaitsForTheFirstHoldersRelease()
{
    // B is seen on a quorum just now, beside A (restarted away from its quorum); A's release is read
    // 100 ms after B. Told at once, it was a proven overlap, then a possible one: a false alarm
    // first. Held back until a release has had time to come, it is told once, as possible.
    WatchedRecording rec(5);
    RecordingWriter& writer = rec.writer;
    IncidentWatch& watch = rec.watch;
    QSignalSpy& found = rec.found;
    const qint64 t = QDateTime::currentMSecsSinceEpoch();
    writer.write({lockEventAt(t - 5000, Kind::Acquired, "lock:r", "A", 0b00111, 60000),
                  masterEvent(t - 4000, Kind::MasterRestarted, 2),
                  lockEventAt(t - 3999, Kind::Holders, "lock:r", "A", 0b00011),
                  lockEventAt(t, Kind::Contested, "lock:r", "B", 0b11100, 60000)});
    watch.checkNow();
    QCOMPARE(found.size(), 0); // not yet: A's release may still come
    writer.write({lockEventAt(t + 100, Kind::Released, "lock:r", "A")});
    QTRY_COMPARE_WITH_TIMEOUT(found.size(), 1, 10000);
    const auto incident = found.first().first().value<SafetyIncident>();
    QCOMPARE(incident.confidence, SafetyIncident::Confidence::Possible);
    QCOMPARE(incident.toMs, t + 100);
    QTest::qWait(IncidentWatch::passIntervalMs * 2);
    QCOMPARE(found.size(), 1);
    writer.finish();
}

void TestIncidentWatch::onePassAgreesWithEachLocksHistory()
{
    // Two sessions on two sets of masters, 60 locks each: clean handovers, expiries taken at once
    // (possible), replacements in place (possible), and restarts that let a second holder in
    // (proven). The one pass over the file (lockctl incidents, a review) must find exactly what
    // each lock's history finds.
    QTemporaryDir dir;
    RecorderOptions options;
    options.path = dir.filePath(QStringLiteral("recording.sqlite"));
    QRandomGenerator rng(42);
    const qint64 base = QDateTime::currentMSecsSinceEpoch() - 3600 * 1000;
    for (int session = 0; session < 2; ++session) {
        RecordingWriter writer(options, std::make_shared<RecordingWriter::Counters>());
        const QString port = QString::number(7000 + 10 * session);
        writer.start({QStringLiteral("redis://a:") + port, QStringLiteral("redis://b:") + port,
                      QStringLiteral("redis://c:") + port});
        writer.write(randomStories(rng, session, base + session * 1800 * 1000));
        writer.finish();
    }
    RecordingReader reader;
    QVERIFY(!reader.open(options.path));
    QList<SafetyIncident> each;
    const Result<QList<QByteArray>> resources = reader.resources();
    QVERIFY(resources);
    for (const QByteArray& resource : *resources) {
        // Each set of masters' story of it.
        for (const QString& port : {QStringLiteral("7000"), QStringLiteral("7010")}) {
            const Result<ResourceHistory> history =
                reader.history(resource, -1,
                               {QStringLiteral("redis://a:") + port, QStringLiteral("redis://b:") + port,
                                QStringLiteral("redis://c:") + port});
            QVERIFY(history);
            each << DoubleGrantDetector::detect(*history);
        }
    }
    QVERIFY(each.size() > 100); // every kind is among them
    // With the idle scans forgotten as usual, and every 50 events (a lock judged anew after).
    for (int evictEvery : {65536, 50}) {
        const Result<QList<SafetyIncident>> all = DoubleGrantDetector::detectAll(reader, evictEvery);
        QVERIFY(all);
        QCOMPARE(incidentKeys(*all), incidentKeys(each));
    }
}

void TestIncidentWatch::theLiveScansAgreeWithOnePassOverTheFile()
{
    // Committed in batches of 37 events (a lock's story split across them), followed from the
    // start: the live scans tell what one pass over the finished file finds, and read nothing back.
    WatchedRecording rec(3);
    QRandomGenerator rng(7);
    const RecordEventList events = randomStories(rng, 0, QDateTime::currentMSecsSinceEpoch() - 3600 * 1000);
    for (qsizetype i = 0; i < events.size(); i += 37)
        rec.writer.write(events.mid(i, 37));
    rec.watch.checkNow();
    const QList<SafetyIncident> live = lastTold(rec.found);
    QCOMPARE(rec.watch.reads(), 0);
    rec.writer.finish();
    RecordingReader reader;
    QVERIFY(!reader.open(rec.options.path));
    const Result<QList<SafetyIncident>> all = DoubleGrantDetector::detectAll(reader);
    QVERIFY(all);
    QVERIFY(all->size() > 50);
    QCOMPARE(incidentKeys(live, false), incidentKeys(*all, false));
}

void TestIncidentWatch::aWatchStartedLateReadsEachStoryOnce()
{
    // Half the stories were recorded before the watch began to follow: a lock whose story began
    // then is read back once, when something makes it suspect, and followed from there. Every
    // incident proven after the watch began is told (a replacement in place without a restart is
    // at most possible, and found by `lockctl incidents`).
    QTemporaryDir dir;
    RecorderOptions options;
    options.path = dir.filePath(QStringLiteral("recording.sqlite"));
    RecordingWriter writer(options, std::make_shared<RecordingWriter::Counters>());
    writer.start({QStringLiteral("redis://a:7000"), QStringLiteral("redis://b:7000"),
                  QStringLiteral("redis://c:7000")});
    QRandomGenerator rng(11);
    const RecordEventList events = randomStories(rng, 0, QDateTime::currentMSecsSinceEpoch() - 3600 * 1000);
    const qsizetype half = events.size() / 2;
    writer.write(events.mid(0, half));
    IncidentWatch watch(options.path);
    QSignalSpy found(&watch, &IncidentWatch::found);
    // It hears of each batch only once the next is in the file, as on a thread of its own: a story
    // it reads holds events it will hear of after, which it must not judge twice.
    QList<CommittedBatch> committed;
    QObject::connect(&writer, &RecordingWriter::committed, [&](const CommittedBatch& b) { committed << b; });
    const qint64 followedFrom = events.at(half).timeMs;
    for (qsizetype i = half; i < events.size(); i += 37) {
        writer.write(events.mid(i, qMin<qsizetype>(37, events.size() - i)));
        if (committed.size() > 1)
            watch.onCommitted(committed.takeFirst());
        watch.checkNow();
    }
    watch.onCommitted(committed.takeFirst());
    watch.checkNow();
    QVERIFY2(watch.reads() > 0 && watch.reads() <= 60, qPrintable(QString::number(watch.reads())));
    writer.finish();
    RecordingReader reader;
    QVERIFY(!reader.open(options.path));
    const Result<QList<SafetyIncident>> all = DoubleGrantDetector::detectAll(reader);
    QVERIFY(all);
    QList<SafetyIncident> provenSince;
    for (const SafetyIncident& i : *all)
        if (i.confidence == SafetyIncident::Confidence::Proven && i.fromMs >= followedFrom)
            provenSince << i;
    QVERIFY(provenSince.size() > 10);
    QList<SafetyIncident> told;
    for (const SafetyIncident& i : lastTold(found))
        if (i.confidence == SafetyIncident::Confidence::Proven && i.fromMs >= followedFrom)
            told << i;
    QCOMPARE(incidentKeys(told, false), incidentKeys(provenSince, false));
}

void TestIncidentWatch::theLiveScansAreBounded()
{
    // A first pass over many locks begins a story for each: no more are followed than the bound
    // (the others are read back if they become suspect), and those that go idle are let go.
    const qint64 t = 1'000'000;
    CommittedBatch batch;
    batch.session = 1;
    batch.masters = 3;
    batch.firstId = 1;
    for (int i = 0; i < LiveScans::maxScans + 5000; ++i) {
        batch.events << lockEventAt(t, Kind::Acquired, "lock:" + QByteArray::number(i), "T", 0b111, 5000);
        batch.previous << 0;
    }
    LiveScans scans;
    scans.feed(batch);
    QCOMPARE(scans.size(), LiveScans::maxScans);
    QVERIFY(scans.covers("lock:0"));
    QVERIFY(!scans.covers("lock:" + QByteArray::number(LiveScans::maxScans)));
    scans.offer(t, [](const SafetyIncident&) { return true; });
    scans.forget(t + 1000); // all still held
    QCOMPARE(scans.size(), LiveScans::maxScans);
    // Every lease runs out; once a handover is no longer to come (the old lease's length after),
    // nothing is left to follow.
    CommittedBatch expiries;
    expiries.session = 1;
    expiries.masters = 3;
    expiries.firstId = batch.firstId + batch.events.size();
    for (int i = 0; i < batch.events.size(); ++i) {
        expiries.events << lockEventAt(t + 5000, Kind::Expired, batch.events.at(i).resource, "T");
        expiries.previous << batch.firstId + i;
    }
    scans.feed(expiries);
    scans.offer(t + 5000, [](const SafetyIncident&) { return true; });
    scans.forget(t + 5000);
    QCOMPARE(scans.size(), LiveScans::maxScans);
    scans.forget(t + 10'001);
    QCOMPARE(scans.size(), 0);
}

void TestIncidentWatch::locksSeenInAFirstPassAreReadBackPastTheirBound()
{
    // A first pass over many locks held before the session: at most maxSeenScans of them are
    // followed in memory (locks taken while watched still begin up to maxScans). One past that
    // bound, restarted away from its quorum and then held by a second token, is read back once
    // when that makes it suspect, and the overlap is proven all the same.
    WatchedRecording rec(3);
    const qint64 t = QDateTime::currentMSecsSinceEpoch() - 10000;
    RecordEventList seen;
    for (int i = 0; i < LiveScans::maxSeenScans + 100; ++i)
        seen << lockEventAt(t, Kind::Seen, "lock:" + QByteArray::number(i), "A", 0b111, 60000);
    rec.writer.write(seen);
    rec.writer.write({lockEventAt(t + 10, Kind::Acquired, "lock:taken", "T", 0b111, 60000)});
    const QByteArray last = "lock:" + QByteArray::number(LiveScans::maxSeenScans + 99);
    rec.writer.write({masterEvent(t + 1000, Kind::MasterRestarted, 0),
                      masterEvent(t + 1000, Kind::MasterRestarted, 1),
                      lockEventAt(t + 1100, Kind::Holders, last, "A", 0b100),
                      lockEventAt(t + 2000, Kind::Contested, last, "B", 0b011, 60000)});
    rec.watch.checkNow();
    QCOMPARE(rec.watch.reads(), 1);
    QCOMPARE(rec.found.size(), 1);
    const auto incident = rec.found.first().first().value<SafetyIncident>();
    QCOMPARE(incident.resource, last);
    QCOMPARE(incident.firstToken, QByteArray("A"));
    QCOMPARE(incident.secondToken, QByteArray("B"));
    QCOMPARE(incident.confidence, SafetyIncident::Confidence::Proven);
    rec.writer.finish();

    CommittedBatch batch;
    batch.session = 1;
    batch.masters = 3;
    batch.firstId = 1;
    for (int i = 0; i < LiveScans::maxScans; ++i) {
        batch.events << lockEventAt(t, i % 2 ? Kind::Acquired : Kind::Seen, "lock:" + QByteArray::number(i),
                                    "T", 0b111, 5000);
        batch.previous << 0;
    }
    LiveScans scans;
    scans.feed(batch);
    // Seen and taken in turn: a seen one begins while fewer than maxSeenScans are followed.
    QVERIFY(scans.covers("lock:" + QByteArray::number(LiveScans::maxSeenScans - 2)));
    QVERIFY(!scans.covers("lock:" + QByteArray::number(LiveScans::maxSeenScans)));
    QVERIFY(scans.covers("lock:" + QByteArray::number(LiveScans::maxSeenScans + 1)));
    QCOMPARE(scans.size(), LiveScans::maxSeenScans / 2 + LiveScans::maxScans / 2);
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestIncidentWatch)

} // namespace tst_incidentwatch

#include "tst_incidentwatch.moc"
