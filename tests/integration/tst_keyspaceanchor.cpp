// SPDX-License-Identifier: Apache-2.0
#include "discovery/keyspacesubscriber.h"
#include "record/recorder.h"
#include "record/recordingreader.h"
#include "support/monitorharness.h"
#include "support/recordedmonitor.h"
#include "support/redisservergroup.h"
#include "support/testregistry.h"
#include "support/timebound.h"

#include <QTemporaryDir>

#include <QDateTime>
#include <QScopeGuard>
#include <QTest>

namespace tst_keyspaceanchor {

using namespace lockscope;
using namespace lockscope::test;

namespace {

struct Told
{
    QByteArray key;
    QByteArray event;
    qint64 ranAfterMs = -1;
};

// The server's count of PINGs run so far (every client's).
qint64 pingsRun(const RedisServer& server)
{
    const QByteArray info = server.command({"INFO", "commandstats"}).string;
    const QByteArray field = "cmdstat_ping:calls=";
    const qsizetype at = info.indexOf(field);
    if (at < 0)
        return 0;
    const qsizetype from = at + field.size();
    qsizetype end = from;
    while (end < info.size() && info.at(end) >= '0' && info.at(end) <= '9')
        ++end;
    return info.mid(from, end - from).toLongLong();
}

qint64 nowMs()
{
    return QDateTime::currentMSecsSinceEpoch();
}

} // namespace

// Issue #42: a keyspace event comes with a moment before which the server did not run the command
// (the send time of a PING answered before the event came), the anchor that proves a short Redlock
// overlap. PINGs go out only once asked for (a recorder) and while events come: an idle monitor, or
// one nobody records, sends none.
class TestKeyspaceAnchor : public QObject
{
    Q_OBJECT

private slots:
    void aDeleteIsToldWithAMomentBeforeTheServerRanIt();
    void theRecorderKeepsItForALockHeldByTwoTokens();
    void theRecorderKeepsAFloorOfTheValidityATokenOnAQuorumOverlaps();
};

void TestKeyspaceAnchor::aDeleteIsToldWithAMomentBeforeTheServerRanIt()
{
    RedisServerGroup group;
    RedisServerOptions withEvents;
    withEvents.notifications = true;
    QVERIFY2(group.start(1, withEvents), qPrintable(group.errorString()));
    RedisServer& server = group.at(0);

    QList<Told> told;
    bool listening = false;
    KeyspaceSubscriber::Handlers handlers;
    handlers.listening = [&] { listening = true; };
    handlers.lost = [](const QString&) {};
    handlers.event = [&](const QByteArray& key, const QByteArray& event, qint64 ranAfterMs) {
        told << Told{key, event, ranAfterMs};
    };
    KeyspaceSubscriber subscriber(server.connectionOptions(2000), {ScanPattern("lock:*")},
                                  std::move(handlers));
    QTRY_VERIFY_WITH_TIMEOUT(listening, 10000);

    // No events: no PINGs (the one that told it was listening is answered before `listening`).
    const qint64 idleFrom = pingsRun(server);
    QTest::qWait(300);
    QCOMPARE(pingsRun(server), idleFrom);

    // Events, but nobody asked for anchors (no recorder): no PINGs either.
    server.command({"SET", "lock:a", "t0"});
    QTRY_COMPARE_WITH_TIMEOUT(told.size(), 1, 10000);
    QCOMPARE(told.first().ranAfterMs, -1);
    QTest::qWait(300);
    QCOMPARE(pingsRun(server), idleFrom);

    // Asked: the first event after has no anchor yet; from then on the connection PINGs.
    subscriber.anchor();
    server.command({"SET", "lock:a", "t1"});
    QTRY_COMPARE_WITH_TIMEOUT(told.size(), 2, 10000);
    QCOMPARE(told.last().ranAfterMs, -1);
    QTRY_VERIFY_WITH_TIMEOUT(pingsRun(server) - idleFrom >= 3, 10000);

    // Each delete runs while this thread waits for its reply: after `sentAt`, before `answeredAt`.
    // Its event's anchor is a moment before the server ran it, so before `answeredAt`; PINGs every
    // 20 ms while events come keep it within a few intervals of `sentAt` on most rounds.
    constexpr int rounds = 20;
    int close = 0;
    for (int round = 0; round < rounds; ++round) {
        server.command({"SET", "lock:a", QByteArray::number(round)});
        QTest::qWait(15 + 7 * (round % 5));
        told.clear();
        const qint64 sentAt = nowMs();
        server.command({"DEL", "lock:a"});
        const qint64 answeredAt = nowMs();
        QTRY_VERIFY_WITH_TIMEOUT(
            std::any_of(told.cbegin(), told.cend(), [](const Told& t) { return t.event == "del"; }), 10000);
        const Told del =
            *std::find_if(told.cbegin(), told.cend(), [](const Told& t) { return t.event == "del"; });
        QCOMPARE(del.key, QByteArray("lock:a"));
        QVERIFY2(del.ranAfterMs >= 0, "no anchor while events come");
        QVERIFY2(del.ranAfterMs <= answeredAt,
                 qPrintable(QStringLiteral("anchor %1 after the delete's reply at %2")
                                .arg(del.ranAfterMs)
                                .arg(answeredAt)));
        close += sentAt - del.ranAfterMs <= 200 ? 1 : 0;
    }
    QVERIFY2(close >= rounds / 2,
             qPrintable(QStringLiteral("%1 of %2 anchors within 200 ms").arg(close).arg(rounds)));
}

namespace {

// The events of `kind` the recording at `path` holds for `resource`.
QList<RecordEvent> recordedEvents(const QString& path, const QByteArray& resource, RecordEvent::Kind kind,
                                  QString* error)
{
    QList<RecordEvent> out;
    RecordingReader reader;
    if (const RedisError e = reader.open(path); e.isError()) {
        *error = e.message;
        return out;
    }
    const Result<ResourceHistory> h = reader.history(resource);
    if (!h) {
        *error = h.error().message;
        return out;
    }
    for (const HistoryEvent& e : h->events)
        if (e.event.kind == kind)
            out << e.event;
    return out;
}

// The deleted-after events the recording holds for `resource`, as "token@master", sorted.
QStringList anchorsOf(Recorder& recorder, const QString& path, const QByteArray& resource, qint64 notAfterMs,
                      QString* error)
{
    recorder.flush();
    QTest::qWait(100); // the writer's commit
    QStringList out;
    for (const RecordEvent& e : recordedEvents(path, resource, RecordEvent::Kind::DeletedAfter, error)) {
        out << QStringLiteral("%1@%2").arg(QString::fromLatin1(e.token)).arg(e.master);
        if (e.timeMs > notAfterMs)
            *error = QStringLiteral("an anchor at %1, after the delete's reply at %2")
                         .arg(e.timeMs)
                         .arg(notAfterMs);
    }
    out.sort(); // by time: each master's moment is its own PING's
    return out;
}

} // namespace

void TestKeyspaceAnchor::theRecorderKeepsItForALockHeldByTwoTokens()
{
    // tok-a on masters 0 and 1, tok-b beside it on master 2 (contested): each delete of a copy is
    // kept with its moment, for the token that master held. A lock held by one token keeps none
    // (an event per release would add a row to most of what a busy recording stores).
    RedisServerGroup group;
    std::unique_ptr<MonitorHarness> live;
    QVERIFY2(startLive(group, 3, &live), qPrintable(group.errorString()));
    QTemporaryDir dir;
    RecorderOptions options;
    options.path = dir.filePath(QStringLiteral("anchors.sqlite"));
    options.auditLogPath = dir.filePath(QStringLiteral("audit.jsonl"));
    Recorder recorder(options);
    recorder.attach(live->monitor.get());

    group.at(0).command({"SET", "lock:one", "tok-u", "PX", "600000"});
    group.at(0).command({"SET", "lock:c", "tok-a", "PX", "600000"});
    group.at(1).command({"SET", "lock:c", "tok-a", "PX", "600000"});
    QTRY_VERIFY_WITH_TIMEOUT(live->view("lock:c").holding == 2, int(upperBoundMs(5000)));
    group.at(2).command({"SET", "lock:c", "tok-b", "PX", "600000"});
    QTRY_VERIFY_WITH_TIMEOUT(live->view("lock:c").status == LockStatus::Contested, int(upperBoundMs(5000)));
    QTest::qWait(200); // the event connections PING now

    group.at(0).command({"DEL", "lock:one"});
    group.at(0).command({"DEL", "lock:c"});
    group.at(2).command({"DEL", "lock:c"});
    const qint64 answeredAt = QDateTime::currentMSecsSinceEpoch();
    QString error;
    QTRY_COMPARE_WITH_TIMEOUT(anchorsOf(recorder, options.path, "lock:c", answeredAt, &error),
                              QStringList({"tok-a@0", "tok-b@2"}), int(upperBoundMs(5000)));
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(anchorsOf(recorder, options.path, "lock:one", answeredAt, &error), QStringList());
    QVERIFY2(error.isEmpty(), qPrintable(error));
}

void TestKeyspaceAnchor::theRecorderKeepsAFloorOfTheValidityATokenOnAQuorumOverlaps()
{
    // tok-a on all three masters for 30 s; two of its copies deleted (no release: its holder does
    // not know), tok-b written there. When tok-b has its quorum the recorder keeps how long tok-a's
    // validity surely lasts (valid-through): never past what the server's TTLs allow (the copies
    // expire between the SETs' send and reply, + 30 s, less the drift allowance), and close to it.
    RecordedMonitor recorded;
    QVERIFY2(recorded.start(3), qPrintable(recorded.errorString()));
    const auto cleanup = qScopeGuard([&recorded] { recorded.stop(); });
    RedisServerGroup& group = recorded.group();
    const auto view = [&recorded]() -> LockView { return recorded.monitor()->locks().value("lock:f"); };

    const qint64 sentAt = nowMs();
    for (int i = 0; i < 3; ++i)
        group.at(i).command({"SET", "lock:f", "tok-a", "PX", "30000"});
    const qint64 answeredAt = nowMs();
    QTRY_VERIFY_WITH_TIMEOUT(view().holding == 3, int(upperBoundMs(5000)));
    group.at(1).command({"DEL", "lock:f"});
    group.at(2).command({"DEL", "lock:f"});
    group.at(1).command({"SET", "lock:f", "tok-b", "PX", "30000"});
    group.at(2).command({"SET", "lock:f", "tok-b", "PX", "30000"});
    QTRY_VERIFY_WITH_TIMEOUT(view().token == "tok-b" && view().holding == 2, int(upperBoundMs(5000)));

    recorded.endMonitor(); // everything it saw is in the file
    QString error;
    const QList<RecordEvent> kept =
        recordedEvents(recorded.path(), "lock:f", RecordEvent::Kind::ValidThrough, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(kept.size(), 1);
    QCOMPARE(kept.first().token, QByteArray("tok-a"));
    const qint64 floor = kept.first().timeMs + kept.first().ttlMs;
    // tok-a was first read on its quorum before tok-b's event: with at least this much of its TTL
    // left, of which the drift allowance is 1% and 2 ms (1 ms more for the clocks' steps).
    const qint64 allowance = 2 + (sentAt + 30000 - kept.first().timeMs) / 100 - 1;
    QVERIFY2(floor <= answeredAt + 30000 - allowance,
             qPrintable(QStringLiteral("floor %1 ms past what the TTLs and the drift allowance (%2 ms) allow")
                            .arg(floor - (answeredAt + 30000 - allowance))
                            .arg(allowance)));
    QVERIFY2(floor >= sentAt + 30000 - 302 - upperBoundMs(1000),
             qPrintable(QStringLiteral("floor %1 ms short").arg(sentAt + 30000 - 302 - floor)));
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestKeyspaceAnchor)

} // namespace tst_keyspaceanchor

#include "tst_keyspaceanchor.moc"
