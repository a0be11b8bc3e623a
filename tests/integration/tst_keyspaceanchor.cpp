// SPDX-License-Identifier: Apache-2.0
#include "discovery/keyspacesubscriber.h"
#include "support/redisservergroup.h"
#include "support/testregistry.h"

#include <QDateTime>
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
// overlap. PINGs go out only while events come: an idle monitor sends none.
class TestKeyspaceAnchor : public QObject
{
    Q_OBJECT

private slots:
    void aDeleteIsToldWithAMomentBeforeTheServerRanIt();
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

    // The first event has no anchor yet; from then on the connection PINGs.
    server.command({"SET", "lock:a", "t0"});
    QTRY_COMPARE_WITH_TIMEOUT(told.size(), 1, 10000);
    QCOMPARE(told.first().ranAfterMs, -1);
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

LOCKSCOPE_TEST_GUILESS_MAIN(TestKeyspaceAnchor)

} // namespace tst_keyspaceanchor

#include "tst_keyspaceanchor.moc"
