// SPDX-License-Identifier: Apache-2.0
#include "connection/redisconnection.h"
#include "support/connectionwait.h"
#include "support/redisserver.h"
#include "support/testregistry.h"
#include "trace/monitorline.h"

#include <QSignalSpy>
#include <QTest>

namespace tst_monitorconnection {

using namespace lockscope;
using namespace lockscope::test;

// A connection in MONITOR mode on a real server (issue #43's tracer): another client's commands,
// scripts' calls among them, arrive as lines that read back to the exact arguments; the monitor
// sends no PING of its own (its health timer is off), and a password never shows.
class TestMonitorConnection : public QObject
{
    Q_OBJECT

private slots:
    void anotherClientsCommandsArriveAsLines();
};

void TestMonitorConnection::anotherClientsCommandsArriveAsLines()
{
    RedisServer server;
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    ConnectionOptions options = server.connectionOptions();
    options.healthIntervalMs = 50; // would PING often, were it not monitoring
    RedisConnection monitor(options);
    monitor.open();
    QVERIFY(waitForState(monitor, RedisConnection::State::Up));
    QList<MonitorLine> lines;
    connect(&monitor, &RedisConnection::monitorLine, this, [&lines](const QByteArray& line) {
        const Result<MonitorLine> parsed = MonitorLineParser::parse(line);
        QVERIFY2(parsed, line.constData());
        lines << *parsed;
    });
    bool started = false;
    monitor.startMonitor([&started](const RedisResult& r) { started = r.ok() && r.reply.isStatus(); });
    QTRY_VERIFY(started);
    QVERIFY(monitor.isMonitoring());

    RedisConnection client(server.connectionOptions());
    client.open();
    QVERIFY(waitForState(client, RedisConnection::State::Up));
    const QByteArray token("\x00\xff \"q\"\n", 7);
    QVERIFY(callAndWait(client, {"SET", "lock:m", token, "NX", "PX", "30000"}).ok());
    QVERIFY(callAndWait(client, {"EVAL", "return redis.call('del', KEYS[1])", "1", "lock:m"}).ok());
    QTRY_VERIFY(
        std::any_of(lines.cbegin(), lines.cend(), [](const MonitorLine& l) { return l.fromScript(); }));
    const auto set =
        std::find_if(lines.cbegin(), lines.cend(), [](const MonitorLine& l) { return l.command() == "SET"; });
    QVERIFY(set != lines.cend());
    QCOMPARE(set->args, (QByteArrayList{"SET", "lock:m", token, "NX", "PX", "30000"}));
    QVERIFY(!set->fromScript());
    const auto del =
        std::find_if(lines.cbegin(), lines.cend(), [](const MonitorLine& l) { return l.fromScript(); });
    QCOMPARE(del->args, (QByteArrayList{"del", "lock:m"}));
    // The monitor's own PINGs would show in the stream as a client's PING: there are none.
    QTest::qWait(300);
    QVERIFY(std::none_of(lines.cbegin(), lines.cend(),
                         [](const MonitorLine& l) { return l.command() == "PING"; }));
    // Nor does the client's password: the server redacts AUTH (the client's handshake came after
    // the monitor started).
    QVERIFY(std::any_of(lines.cbegin(), lines.cend(), [](const MonitorLine& l) {
        return l.command() == "AUTH" || l.command() == "HELLO";
    }));
    for (const MonitorLine& l : std::as_const(lines))
        for (const QByteArray& a : l.args)
            QVERIFY(!a.contains(testPassword().toUtf8()));
    QCOMPARE(monitor.state(), RedisConnection::State::Up);
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestMonitorConnection)

} // namespace tst_monitorconnection

#include "tst_monitorconnection.moc"
