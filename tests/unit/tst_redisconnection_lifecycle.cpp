// SPDX-License-Identifier: Apache-2.0
// RedisConnection against a ScriptedTransport: the handshake and its failures, command timeouts,
// connect timeouts, reconnection back-off and closing, deterministic and without a server.
#include "connection/redisconnection.h"
#include "support/scriptedrig.h"
#include "support/testregistry.h"
#include "support/timebound.h"

#include <QElapsedTimer>
#include <QTest>

namespace tst_redisconnection_lifecycle {

using namespace lockscope;
using namespace lockscope::test;
using namespace lockscope::test::scripted;

namespace {

// A connection that gives a command `ms` to be answered.
ConnectionOptions timingOut(int ms)
{
    ConnectionOptions options = fakeOptions();
    options.commandTimeoutMs = ms;
    return options;
}

// A connection that retries after `initialMs`, doubled up to `maxMs`.
ConnectionOptions retrying(int initialMs, int maxMs = ConnectionOptions().reconnectMaxMs)
{
    ConnectionOptions options = fakeOptions();
    options.autoReconnect = true;
    options.reconnectInitialMs = initialMs;
    options.reconnectMaxMs = maxMs;
    return options;
}

// From now on the scripted server accepts connections and answers their handshakes.
void acceptHandshakes(ScriptedTransport* transport)
{
    transport->setOpenMode(T::OpenMode::Accept);
    transport->setResponder([](const QByteArrayList& argv) { return T::handshakeReply(argv); });
}

} // namespace

class TestRedisConnectionLifecycle : public QObject
{
    Q_OBJECT

private slots:
    void handshakeOrderAndQueuedCommandsWait();
    void healthFromHandshake();
    void authFailureFailsQueuedCommandsUnsent();
    void authFailureVariants_data();
    void authFailureVariants();
    void selectFailure();
    void timeoutMarksDownAndFailsAllPending();
    void timeoutOnlyForTheUnansweredTail();
    void timeoutCountsFromTheLastBytesHeard();
    void unreadBytesAreNotATimeout();
    void queuedCommandsTimeOutDuringHandshake();
    void connectTimeout();
    void backoffGrowsCappedWithJitter();
    void backoffRestartsAfterSuccess();
    void openDuringScheduledRetry();
    void connectionLostFailsAllAndReconnects();
    void closeCancelsSentAndQueued();
    void closeStopsRetries();
};

void TestRedisConnectionLifecycle::handshakeOrderAndQueuedCommandsWait()
{
    Results results;
    ConnectionOptions options = fakeOptions(QStringLiteral("redis://watcher:s3cret@127.0.0.1:6379/3"));
    options.clientName = "lockscope-test";
    Rig rig(options);
    rig->open();
    QCOMPARE(rig->state(), State::Connecting);
    rig->send({"SET", "a", "1"}, results.add());
    rig->send({"GET", "a"}, results.add());
    QCOMPARE(rig->pendingCount(), 2);
    QVERIFY(rig.waitWritten(7));
    const QList<QByteArrayList> handshake{
        {"AUTH", "watcher", "s3cret"},
        {"SELECT", "3"},
        {"CLIENT", "SETNAME", "lockscope-test"},
        {"INFO", "server"},
        {"INFO", "replication"},
        {"TIME"},
        {"COMMAND", "INFO", "DELIFEQ", "DELEX"},
    };
    QCOMPARE(rig.transport->commands(), handshake);
    // Also one sent while the handshake is already on the wire.
    rig->send({"GET", "late"}, results.add());

    // Every handshake reply but the last: the queued commands must still wait.
    for (int i = 0; i < 6; ++i)
        rig.transport->feed(*T::handshakeReply(handshake[i]));
    spinFor(50);
    QCOMPARE(rig->state(), State::Connecting);
    QCOMPARE(rig.transport->commands().size(), 7);
    QVERIFY(results.all.isEmpty());

    rig.transport->feed(*T::handshakeReply(handshake[6]));
    QCOMPARE(rig->state(), State::Up);
    QVERIFY(rig.waitWritten(10));
    QCOMPARE(rig.transport->commands().mid(7),
             QList<QByteArrayList>({{"SET", "a", "1"}, {"GET", "a"}, {"GET", "late"}}));
    rig.transport->feed(T::status("OK") + T::bulk("1") + T::nil());
    QCOMPARE(results.described(),
             QStringList({QStringLiteral("+OK"), QStringLiteral("$1"), QStringLiteral("nil")}));
    QCOMPARE(rig.states, QList<State>({State::Connecting, State::Up}));
}

void TestRedisConnectionLifecycle::healthFromHandshake()
{
    Rig rig;
    QVERIFY(rig.bringUp("0123456789012345678901234567890123456789"));
    QCOMPARE(rig->health().version, QStringLiteral("7.0.15"));
    QCOMPARE(rig->health().role, QStringLiteral("master"));
    QCOMPARE(rig->health().runId, QByteArray("0123456789012345678901234567890123456789"));
    QVERIFY(rig->health().clockOffsetKnown);
    QVERIFY(qAbs(rig->health().clockOffsetMs) < 1000);
    QVERIFY(rig->health().latencyMs >= 0);
}

void TestRedisConnectionLifecycle::authFailureFailsQueuedCommandsUnsent()
{
    Results results;
    Rig rig(fakeOptions(QStringLiteral("redis://:wrong-secret@127.0.0.1:6379/2")));
    rig->open();
    for (int i = 0; i < 3; ++i)
        rig->send({"DEL", "precious"}, results.add());
    QVERIFY(rig.waitWritten(7)); // AUTH, SELECT, CLIENT, INFO, INFO, TIME, COMMAND
    QCOMPARE(rig.transport->commands().first(), QByteArrayList({"AUTH", "wrong-secret"}));
    // Even with the rest of the handshake answered in the same chunk.
    rig.transport->feed(T::error("WRONGPASS invalid username-password pair or user is disabled.") +
                        T::status("OK") + T::status("OK"));
    QCOMPARE(results.count(ErrorKind::AuthFailed), 3);
    QCOMPARE(results.all.size(), 3);
    QCOMPARE(rig->state(), State::Down);
    QCOMPARE(rig->lastError().kind, ErrorKind::AuthFailed);
    QVERIFY(!rig->lastError().toString().contains(QStringLiteral("wrong-secret")));
    spinFor(50);
    for (const QByteArrayList& command : rig.transport->commands())
        QVERIFY(command.first() != "DEL");
    QCOMPARE(rig.transport->writesWhileClosed(), 0);
    QVERIFY(!rig.transport->isOpen());
}

void TestRedisConnectionLifecycle::authFailureVariants_data()
{
    QTest::addColumn<QString>("url");
    QTest::addColumn<QByteArray>("reply");
    QTest::newRow("noauth") << QStringLiteral("redis://127.0.0.1:6379")
                            << T::error("NOAUTH Authentication required.");
    QTest::newRow("old invalid password")
        << QStringLiteral("redis://:x@127.0.0.1:6379") << T::error("ERR invalid password");
}

void TestRedisConnectionLifecycle::authFailureVariants()
{
    QFETCH(QString, url);
    QFETCH(QByteArray, reply);
    Results results;
    Rig rig(fakeOptions(url));
    rig->open();
    rig->send({"PING"}, results.add());
    QVERIFY(spinUntil([&] { return !rig.transport->commands().isEmpty(); }));
    rig.transport->feed(reply);
    QCOMPARE(results.described(), QStringList({QStringLiteral("error:auth-failed")}));
    QCOMPARE(rig->lastError().kind, ErrorKind::AuthFailed);
}

void TestRedisConnectionLifecycle::selectFailure()
{
    Results results;
    Rig rig(fakeOptions(QStringLiteral("redis://127.0.0.1:6379/99")));
    rig->open();
    rig->send({"GET", "k"}, results.add());
    QVERIFY(spinUntil([&] { return !rig.transport->commands().isEmpty(); }));
    QCOMPARE(rig.transport->commands().first(), QByteArrayList({"SELECT", "99"}));
    rig.transport->feed(T::error("ERR DB index is out of range"));
    QCOMPARE(results.described(), QStringList({QStringLiteral("error:server-error")}));
    QCOMPARE(rig->state(), State::Down);
    QVERIFY(rig.lastErrorSays({QStringLiteral("SELECT 99")}));
}

void TestRedisConnectionLifecycle::timeoutMarksDownAndFailsAllPending()
{
    Results results;
    Rig rig(timingOut(150));
    QVERIFY(rig.bringUp());
    QVERIFY(rig.sendWritten(results, {"BLPOP", "q", "0"}, 5));
    QElapsedTimer clock;
    clock.start();
    QVERIFY(spinUntil([&] { return results.all.size() == 5; }, 3000));
    const qint64 elapsed = clock.elapsed();
    QCOMPARE(results.count(ErrorKind::Timeout), 5);
    QVERIFY2(elapsed >= 100 && elapsed < lockscope::test::upperBoundMs(2000),
             qPrintable(QString::number(elapsed)));
    QVERIFY(rig.isDownWith(ErrorKind::Timeout, {QStringLiteral("150 ms")}));
    QVERIFY(!rig.transport->isOpen());
    QCOMPARE(rig->pendingCount(), 0);
}

void TestRedisConnectionLifecycle::timeoutOnlyForTheUnansweredTail()
{
    Results results;
    Rig rig(timingOut(150));
    QVERIFY(rig.bringUp());
    QVERIFY(rig.sendWritten(results, {"GET", "k"}, 3));
    rig.transport->feed(T::bulk("a") + T::bulk("b"));
    QVERIFY(spinUntil([&] { return results.all.size() == 3; }, 3000));
    QCOMPARE(results.described(),
             QStringList({QStringLiteral("$a"), QStringLiteral("$b"), QStringLiteral("error:timeout")}));
}

void TestRedisConnectionLifecycle::timeoutCountsFromTheLastBytesHeard()
{
    // Six commands sent at once, answered one every 60 ms: the last answer comes 360 ms after it
    // was sent, well past the 150 ms timeout, but the server was never silent for 150 ms.
    Results results;
    Rig rig(timingOut(150));
    QVERIFY(rig.bringUp());
    QVERIFY(rig.sendWritten(results, {"GET", "k"}, 6));
    int fed = 0;
    QTimer answer;
    QObject::connect(&answer, &QTimer::timeout, &answer, [&] {
        rig.transport->feed(T::bulk(QByteArray::number(fed)));
        if (++fed == 6)
            answer.stop();
    });
    answer.start(60);
    QVERIFY(spinUntil([&] { return results.all.size() == 6; }, 3000));
    QCOMPARE(results.described(),
             QStringList({QStringLiteral("$0"), QStringLiteral("$1"), QStringLiteral("$2"),
                          QStringLiteral("$3"), QStringLiteral("$4"), QStringLiteral("$5")}));
    QVERIFY(rig->isUp());
    // Silence for the timeout after the last answer still fails what is left.
    rig->send({"GET", "k"}, results.add());
    QVERIFY(spinUntil([&] { return results.all.size() == 7; }, 3000));
    QCOMPARE(results.described().constLast(), QStringLiteral("error:timeout"));
}

void TestRedisConnectionLifecycle::unreadBytesAreNotATimeout()
{
    // The answer is in the socket, but this thread was busy until past the deadline: when the
    // timer gets its turn before the socket does, the answer is not taken for silence.
    Results results;
    Rig rig(timingOut(100));
    QVERIFY(rig.bringUp());
    QVERIFY(rig.sendWritten(results, {"GET", "k"}));
    rig.transport->arrive(T::bulk("v"));
    spinFor(300);
    QVERIFY2(results.all.isEmpty(), qPrintable(results.described().join(QLatin1Char(' '))));
    QVERIFY(rig->isUp());
    rig.transport->deliver();
    QCOMPARE(results.described(), QStringList({QStringLiteral("$v")}));
    QVERIFY(rig->isUp());
}

void TestRedisConnectionLifecycle::queuedCommandsTimeOutDuringHandshake()
{
    Results results;
    ConnectionOptions options = fakeOptions();
    options.commandTimeoutMs = 400;
    options.connectTimeoutMs = 10000;
    Rig rig(options);
    rig.transport->setOpenMode(T::OpenMode::Hang);
    rig->open();
    QElapsedTimer clock;
    clock.start();
    rig->send({"GET", "k"}, results.add());
    // The socket opens late and takes the handshake, which the server never answers. The queued
    // command is older than the handshake: its own deadline counts, not the handshake's (~700 ms).
    spinFor(300);
    const qint64 openedAt = clock.elapsed(); // the handshake's own deadline runs from here
    rig.transport->completeOpen();
    QVERIFY(rig.waitWritten(plainHandshake));
    QVERIFY(spinUntil([&] { return !results.all.isEmpty(); }, 3000));
    const qint64 elapsed = clock.elapsed();
    QCOMPARE(results.described(), QStringList({QStringLiteral("error:timeout")}));
    // Its own 400 ms, not the handshake's: failed before the handshake's deadline could have passed
    // (measured from when the socket opened, so a loaded machine does not blur the two), and no hang.
    QVERIFY2(elapsed >= 390 && elapsed < openedAt + 400 && elapsed < lockscope::test::upperBoundMs(600),
             qPrintable(QStringLiteral("%1 ms, opened at %2 ms").arg(elapsed).arg(openedAt)));
    QCOMPARE(rig->state(), State::Down);
}

void TestRedisConnectionLifecycle::connectTimeout()
{
    Results results;
    ConnectionOptions options = fakeOptions();
    options.connectTimeoutMs = 100;
    Rig rig(options);
    rig.transport->setOpenMode(T::OpenMode::Hang);
    rig->open();
    rig->send({"GET", "k"}, results.add());
    QVERIFY(spinUntil([&] { return rig->state() == State::Down; }, 3000));
    QCOMPARE(rig->lastError().kind, ErrorKind::Timeout);
    QVERIFY(rig.lastErrorSays({QStringLiteral("no connection")}));
    QCOMPARE(results.count(ErrorKind::Timeout), 1);
}

void TestRedisConnectionLifecycle::backoffGrowsCappedWithJitter()
{
    Rig rig(retrying(10, 80));
    rig.transport->setOpenMode(T::OpenMode::Refuse);
    QList<int> delays;
    QList<qint64> waited; // from Down to the next attempt, as the clock saw it
    QElapsedTimer clock;
    clock.start();
    qint64 downAt = 0;
    QObject::connect(rig.connection.get(), &RedisConnection::stateChanged, rig.connection.get(),
                     [&](State state) {
                         if (state == State::Down) {
                             delays << rig->retryDelayMs();
                             downAt = clock.elapsed();
                         } else if (state == State::Reconnecting) {
                             waited << clock.elapsed() - downAt;
                         }
                     });
    rig->open();
    QVERIFY(spinUntil([&] { return delays.size() >= 12; }, 10000));
    rig->close();
    QCOMPARE(rig->lastError().kind, ErrorKind::Cancelled);
    for (qsizetype i = 0; i < delays.size(); ++i) {
        const int base = qMin(80, 10 << qMin<int>(int(i), 10));
        const QString where = QStringLiteral("attempt %1: %2 ms").arg(i).arg(delays[i]);
        QVERIFY2(delays[i] >= base * 3 / 4 && delays[i] <= base * 5 / 4, qPrintable(where));
    }
    // Doubling while under the cap: every step at least 1.2 times (0.75·2b / 1.25·b) the previous.
    for (qsizetype i = 1; i < 4; ++i)
        QVERIFY2(delays[i] * 5 >= delays[i - 1] * 6, qPrintable(QStringLiteral("attempt %1").arg(i)));
    // At the cap the delays are jittered, not one fixed number.
    const QList<int> capped = delays.mid(4);
    QVERIFY(*std::max_element(capped.cbegin(), capped.cend()) <= 100);
    QVERIFY(*std::min_element(capped.cbegin(), capped.cend()) >= 60);
    QVERIFY2(std::adjacent_find(capped.cbegin(), capped.cend(), std::not_equal_to<>()) != capped.cend(),
             "no jitter at the cap");
    // And the timer really waits that long (PreciseTimer: never early, beyond millisecond rounding).
    for (qsizetype i = 0; i < waited.size(); ++i)
        QVERIFY2(
            waited[i] >= delays[i] - 2,
            qPrintable(QStringLiteral("attempt %1 waited %2 of %3 ms").arg(i).arg(waited[i]).arg(delays[i])));
}

void TestRedisConnectionLifecycle::backoffRestartsAfterSuccess()
{
    Rig rig(retrying(40, 160));
    rig.transport->setOpenMode(T::OpenMode::Refuse);
    rig->open();
    QVERIFY(spinUntil([&] { return rig->retryDelayMs() >= 120; }, 5000)); // grown to the cap
    acceptHandshakes(rig.transport);
    QVERIFY(spinUntil([&] { return rig->isUp(); }, 5000));
    QCOMPARE(rig->retryDelayMs(), -1);
    rig.transport->failNow(ErrorKind::ConnectionLost, QStringLiteral("peer went away"));
    QCOMPARE(rig->state(), State::Down);
    QVERIFY2(rig->retryDelayMs() >= 30 && rig->retryDelayMs() <= 50,
             qPrintable(QString::number(rig->retryDelayMs())));
}

void TestRedisConnectionLifecycle::openDuringScheduledRetry()
{
    Rig rig(retrying(200));
    rig.transport->setOpenMode(T::OpenMode::Refuse);
    rig->open();
    QVERIFY(spinUntil([&] { return rig->state() == State::Down; }));
    QVERIFY(rig->retryDelayMs() >= 150);
    acceptHandshakes(rig.transport);
    rig->open(); // before the scheduled retry
    QVERIFY(spinUntil([&] { return rig->isUp(); }));
    const int opens = rig.transport->openCount();
    spinFor(400); // past the retry that was scheduled: it must not tear the live connection down
    QCOMPARE(rig.transport->openCount(), opens);
    QVERIFY(rig->isUp());
}

void TestRedisConnectionLifecycle::connectionLostFailsAllAndReconnects()
{
    Results results;
    Rig rig(retrying(10));
    QList<QByteArrayList> restarts;
    QObject::connect(rig.connection.get(), &RedisConnection::restarted, rig.connection.get(),
                     [&](const QByteArray& before, const QByteArray& after) {
                         restarts << QByteArrayList{before, after};
                     });
    QVERIFY(rig.bringUp(QByteArray(40, '1')));
    QVERIFY(rig.sendWritten(results, {"GET", "k"}, 3));
    rig.transport->feed(T::bulk("first"));
    rig.transport->failNow(ErrorKind::ConnectionLost, QStringLiteral("connection reset by peer"));
    QCOMPARE(results.described(),
             QStringList({QStringLiteral("$first"), QStringLiteral("error:connection-lost"),
                          QStringLiteral("error:connection-lost")}));
    QCOMPARE(rig->state(), State::Down);
    // The same run_id again: no restart.
    rig.transport->setResponder(
        [](const QByteArrayList& argv) { return T::handshakeReply(argv, QByteArray(40, '1')); });
    QVERIFY(spinUntil([&] { return rig->isUp(); }));
    QVERIFY(restarts.isEmpty());
    // A new run_id: the server restarted (and may have lost its locks).
    rig.transport->setResponder(
        [](const QByteArrayList& argv) { return T::handshakeReply(argv, QByteArray(40, '2')); });
    rig.transport->failNow(ErrorKind::ConnectionLost, QStringLiteral("connection reset by peer"));
    QVERIFY(spinUntil([&] { return rig->isUp(); }));
    QCOMPARE(restarts, QList<QByteArrayList>({{QByteArray(40, '1'), QByteArray(40, '2')}}));
    QCOMPARE(rig.states, QList<State>({State::Connecting, State::Up, State::Down, State::Reconnecting,
                                       State::Up, State::Down, State::Reconnecting, State::Up}));
}

void TestRedisConnectionLifecycle::closeCancelsSentAndQueued()
{
    Results results;
    {
        Rig rig;
        QVERIFY(rig.bringUp());
        QVERIFY(rig.sendWritten(results, {"GET", "k"}, 3));
        const int aborts = rig.transport->abortCount();
        rig->close();
        QCOMPARE(results.count(ErrorKind::Cancelled), 3);
        QCOMPARE(rig->state(), State::Disconnected);
        QCOMPARE(rig.transport->abortCount(), aborts + 1);
        QCOMPARE(rig->pendingCount(), 0);
        // A late reply for the closed stream goes nowhere.
        rig.transport->feed(T::bulk("late"));
        QCOMPARE(results.all.size(), 3);
    }
    results.all.clear();
    {
        Rig rig;
        rig.transport->setOpenMode(T::OpenMode::Hang);
        rig->open();
        rig->send({"DEL", "k"}, results.add());
        rig->send({"DEL", "k"}, results.add());
        rig->close();
        QCOMPARE(results.count(ErrorKind::Cancelled), 2);
        QCOMPARE(rig->state(), State::Disconnected);
        spinFor(20);
        QVERIFY(rig.transport->written().isEmpty());
        QCOMPARE(rig.transport->writesWhileClosed(), 0);
    }
}

void TestRedisConnectionLifecycle::closeStopsRetries()
{
    Rig rig(retrying(10));
    rig.transport->setOpenMode(T::OpenMode::Refuse);
    rig->open();
    QVERIFY(spinUntil([&] { return rig.transport->openCount() >= 3; }));
    rig->close();
    const int opens = rig.transport->openCount();
    spinFor(150);
    QCOMPARE(rig.transport->openCount(), opens);
    QCOMPARE(rig->state(), State::Disconnected);
    QCOMPARE(rig->retryDelayMs(), -1);
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestRedisConnectionLifecycle)

} // namespace tst_redisconnection_lifecycle

#include "tst_redisconnection_lifecycle.moc"
