// SPDX-License-Identifier: Apache-2.0
#include "diagnosis/recordedstory.h"
#include "record/episodebuilder.h"
#include "support/testregistry.h"

#include <QTest>

namespace tst_recordedstory {

using namespace lockscope;

namespace {

constexpr qint64 t0 = 1'800'000'000'000; // a wall-clock moment, ms since the epoch
constexpr qint64 s = 1000;

RecordEvent recordEvent(RecordEvent::Kind kind, qint64 atMs, const QByteArray& token, qint64 ttlMs)
{
    RecordEvent e;
    e.timeMs = atMs;
    e.kind = kind;
    e.resource = "orders";
    e.master = 0;
    e.token = token;
    e.owner = token == "aa11" ? QStringLiteral("worker-7") : QString();
    e.ttlMs = ttlMs;
    e.holding = 1;
    e.holders = 1;
    return e;
}

// A recording of "orders" by one session that watched from t0 until `watchedUntilMs` (still
// recording when `endedMs` is -1), its episodes built by the recorder's own rules.
ResourceHistory recording(const QList<RecordEvent>& events, qint64 watchedUntilMs, qint64 endedMs = -1)
{
    ResourceHistory h;
    h.resource = "orders";
    h.sessions << RecordingSession{1, t0, watchedUntilMs, endedMs, {QStringLiteral("redis://127.0.0.1:1")},
                                   {}};
    qint64 id = 0;
    for (const RecordEvent& e : events)
        h.events << HistoryEvent{++id, 1, e, QStringLiteral("redis://127.0.0.1:1")};
    h.episodes = EpisodeBuilder::build(h.events, h.sessions);
    return h;
}

// `token` taken at t0 with `leaseMs`, then extended back to `leaseMs` every `everyMs`, `times` times.
QList<RecordEvent> renewals(const QByteArray& token, qint64 leaseMs, qint64 everyMs, int times)
{
    QList<RecordEvent> out{recordEvent(RecordEvent::Kind::Acquired, t0, token, leaseMs)};
    for (int i = 1; i <= times; ++i)
        out << recordEvent(RecordEvent::Kind::Extended, t0 + i * everyMs, token, leaseMs);
    return out;
}

// `token`'s story: first seen at `firstSeenMs`, extended `extensions` times from `firstMs` to `lastMs`,
// the last extension (and the last reading) leaving `lastTtlMs`; the longest TTL seen `leaseMs`.
LockStory renewedStory(const QByteArray& token, qint64 firstSeenMs, int extensions, qint64 firstMs,
                       qint64 lastMs, qint64 lastTtlMs, qint64 leaseMs)
{
    return LockStory{.token = token,
                     .firstSeenMs = firstSeenMs,
                     .extensions = extensions,
                     .firstExtensionMs = firstMs,
                     .lastExtensionMs = lastMs,
                     .lastExtensionTtlMs = lastTtlMs,
                     .leaseMs = leaseMs,
                     .lastReading = TtlReading{lastMs, lastTtlMs},
                     .ownerClient = {},
                     .ownerClientSeenMs = -1};
}

QStringList codes(const QList<Diagnosis>& diagnoses)
{
    QStringList out;
    for (const Diagnosis& d : diagnoses)
        out << diagnosisCodeName(d.code);
    return out;
}

// Field by field, so that a failure names the field.
void compareStory(const LockStory& got, const LockStory& want)
{
    QCOMPARE(got.token, want.token);
    QCOMPARE(got.firstSeenMs, want.firstSeenMs);
    QCOMPARE(got.extensions, want.extensions);
    QCOMPARE(got.firstExtensionMs, want.firstExtensionMs);
    QCOMPARE(got.lastExtensionMs, want.lastExtensionMs);
    QCOMPARE(got.lastExtensionTtlMs, want.lastExtensionTtlMs);
    QCOMPARE(got.leaseMs, want.leaseMs);
    QCOMPARE(got.lastReading.has_value(), want.lastReading.has_value());
    if (want.lastReading) {
        QCOMPARE(got.lastReading->atMs, want.lastReading->atMs);
        QCOMPARE(got.lastReading->ttlMs, want.lastReading->ttlMs);
    }
    QCOMPARE(got.ownerClient, want.ownerClient);
}

DiagnosisContext at(qint64 nowMs)
{
    DiagnosisContext c;
    c.nowMs = nowMs;
    return c;
}

} // namespace

class TestRecordedStory : public QObject
{
    Q_OBJECT

private slots:
    void storyOfTheOpenEpisode();
    void renewalLoopIsHeldTooLongWithItsExtensions();
    void stoppedRenewingIsNotRenewed();
    void noTtlEverRecordedIsNoExpiry();
    void endedEpisodeSaysNothing();
    void judgedAsOfTheLastMomentWatched();
    void mergeKeepsWhatTheRecordingKnewBefore();
    void mergeOfAnotherTokenIsTheLiveStory();
};

void TestRecordedStory::storyOfTheOpenEpisode()
{
    // An earlier holder expired; the current one was taken later, extended 3 times, the last one
    // reading 29 s; another token's extension and a master event are not its story.
    QList<RecordEvent> events{recordEvent(RecordEvent::Kind::Acquired, t0 - 60 * s, "old", 5 * s),
                              recordEvent(RecordEvent::Kind::Expired, t0 - 55 * s, "old", -1)};
    events << renewals("aa11", 30 * s, 10 * s, 3);
    events.last().ttlMs = 29 * s;
    RecordEvent down = recordEvent(RecordEvent::Kind::MasterDown, t0 + 35 * s, QByteArray(), -1);
    down.resource.clear();
    events << down;
    const ResourceHistory h = recording(events, t0 + 40 * s);
    QCOMPARE(h.episodes.size(), 2);

    compareStory(RecordedStory::fromHistory(h),
                 renewedStory("aa11", t0, 3, t0 + 10 * s, t0 + 30 * s, 29 * s, 30 * s));
    QCOMPARE(RecordedStory::watchedUntilMs(h), t0 + 40 * s);
}

void TestRecordedStory::renewalLoopIsHeldTooLongWithItsExtensions()
{
    // A 30 s lease renewed every 10 s for an hour (Redisson's watchdog): 360 extensions, the last
    // just now. Nothing live is needed to see it.
    const ResourceHistory h = recording(renewals("aa11", 30 * s, 10 * s, 360), t0 + 3600 * s + 500);
    const QList<Diagnosis> d = RecordedStory::diagnose(h, at(t0 + 3600 * s + 900));
    QCOMPARE(codes(d), QStringList{QStringLiteral("held-too-long")});
    QVERIFY2(d.first().sentence.contains(QStringLiteral("extended 360 times")),
             qPrintable(d.first().sentence));
    QVERIFY2(d.first().sentence.contains(QStringLiteral("token aa11 (worker-7)")),
             qPrintable(d.first().sentence));
    QVERIFY2(d.first().sentence.contains(QStringLiteral("its 30.0 s lease")), qPrintable(d.first().sentence));
}

void TestRecordedStory::stoppedRenewingIsNotRenewed()
{
    // Renewed every second for 5 s, then nothing while the recorder kept watching for 7 s more.
    const ResourceHistory h = recording(renewals("bb22", 30 * s, s, 5), t0 + 12 * s);
    const QList<Diagnosis> d = RecordedStory::diagnose(h, at(t0 + 12 * s));
    QCOMPARE(codes(d), QStringList{QStringLiteral("not-renewed")});
    QVERIFY2(d.first().sentence.contains(QStringLiteral("extended 5 times")) &&
                 d.first().sentence.contains(QStringLiteral("until 7.0 s ago")),
             qPrintable(d.first().sentence));
    // Read while it was still renewing on time: nothing to say.
    QVERIFY(RecordedStory::diagnose(recording(renewals("bb22", 30 * s, s, 5), t0 + 5 * s + 900),
                                    at(t0 + 5 * s + 900))
                .isEmpty());
}

void TestRecordedStory::noTtlEverRecordedIsNoExpiry()
{
    const ResourceHistory h = recording({recordEvent(RecordEvent::Kind::Seen, t0, "cc33", -1)}, t0 + 600 * s);
    const QList<Diagnosis> d = RecordedStory::diagnose(h, at(t0 + 600 * s));
    QCOMPARE(codes(d), QStringList{QStringLiteral("no-expiry")});
    QVERIFY2(d.first().sentence.contains(QStringLiteral("no TTL was ever read")) &&
                 d.first().sentence.contains(QStringLiteral("for 10 m 00 s (since")),
             qPrintable(d.first().sentence));
}

void TestRecordedStory::endedEpisodeSaysNothing()
{
    QList<RecordEvent> events = renewals("aa11", 30 * s, 10 * s, 360);
    events << recordEvent(RecordEvent::Kind::Released, t0 + 3601 * s, "aa11", -1);
    const ResourceHistory h = recording(events, t0 + 3700 * s);
    QVERIFY(!RecordedStory::fromHistory(h).isKnown());
    QVERIFY(RecordedStory::diagnose(h, at(t0 + 3700 * s)).isEmpty());
    QVERIFY(RecordedStory::diagnose(ResourceHistory(), at(t0)).isEmpty());
}

void TestRecordedStory::judgedAsOfTheLastMomentWatched()
{
    // The recorder stopped 5 s into a healthy renewal loop; read a day later, the recording cannot
    // tell that the lock was held for a day, nor that its renewals stopped.
    const ResourceHistory h = recording(renewals("aa11", 30 * s, s, 5), t0 + 5 * s + 200, t0 + 5 * s + 200);
    QVERIFY(RecordedStory::diagnose(h, at(t0 + 86400 * s)).isEmpty());
}

void TestRecordedStory::mergeKeepsWhatTheRecordingKnewBefore()
{
    const LockStory recorded =
        RecordedStory::fromHistory(recording(renewals("aa11", 30 * s, 10 * s, 5), t0 + 55 * s, t0 + 55 * s));
    // This process started after the recording stopped and saw two more extensions.
    LockStory live = renewedStory("aa11", t0 + 100 * s, 2, t0 + 110 * s, t0 + 120 * s, 28 * s, 28 * s);
    live.ownerClient = QStringLiteral("client 'w7' 127.0.0.1:5000 (id 4)");
    LockStory want = live;
    want.firstSeenMs = t0;
    want.extensions = 7;
    want.firstExtensionMs = t0 + 10 * s;
    want.leaseMs = 30 * s;
    compareStory(RecordedStory::merge(recorded, live), want); // the live reading: the newer one
    // The newer reading wins whichever side read it: here the recording's last (t0 + 50 s).
    LockStory stale = live;
    stale.lastReading = TtlReading{t0 + 40 * s, 25 * s};
    want.lastReading = TtlReading{t0 + 50 * s, 30 * s};
    compareStory(RecordedStory::merge(recorded, stale), want);

    // A recorder running beside this process recorded the same extensions: not counted twice.
    LockStory alongside = live;
    alongside.firstExtensionMs = t0 + 40 * s;
    alongside.extensions = 2;
    QCOMPARE(RecordedStory::merge(recorded, alongside).extensions, 5);
    QCOMPARE(RecordedStory::merge(recorded, LockStory()), recorded);
    QCOMPARE(RecordedStory::merge(LockStory(), live), live);
}

void TestRecordedStory::mergeOfAnotherTokenIsTheLiveStory()
{
    const LockStory recorded =
        RecordedStory::fromHistory(recording(renewals("aa11", 30 * s, 10 * s, 5), t0 + 55 * s));
    LockStory live;
    live.token = "dd44";
    live.firstSeenMs = t0 + 100 * s;
    QCOMPARE(RecordedStory::merge(recorded, live), live);
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestRecordedStory)

} // namespace tst_recordedstory

#include "tst_recordedstory.moc"
