// SPDX-License-Identifier: Apache-2.0
#include "support/monitorrepr.h"
#include "support/testregistry.h"
#include "trace/monitorline.h"

#include <QRandomGenerator>
#include <QTest>

namespace tst_monitorline {

using namespace lockscope;

// MONITOR's lines as Redis 7 and Valkey 8 write them, read back exactly (issue #43's tracer starts
// here): the time, the database, the client (an address, a Unix socket, or a script), and every
// argument's bytes whatever they are; and lines that are not of that shape refused with a reason.
class TestMonitorLine : public QObject
{
    Q_OBJECT

private slots:
    void readsWhatServersWrite_data();
    void readsWhatServersWrite();
    void everyByteComesBack();
    void refusesWhatIsNotAMonitorLine_data();
    void refusesWhatIsNotAMonitorLine();
};

void TestMonitorLine::readsWhatServersWrite_data()
{
    QTest::addColumn<QByteArray>("line");
    QTest::addColumn<qint64>("timeUs");
    QTest::addColumn<int>("db");
    QTest::addColumn<QByteArray>("client");
    QTest::addColumn<QByteArrayList>("args");
    QTest::newRow("a client's SET NX PX")
        << QByteArray(R"(+1701516000.123456 [0 127.0.0.1:54321] "SET" "lock:x" "9f3c" "NX" "PX" "30000")")
        << qint64(1701516000123456) << 0 << QByteArray("127.0.0.1:54321")
        << QByteArrayList{"SET", "lock:x", "9f3c", "NX", "PX", "30000"};
    QTest::newRow("a script's call, without the '+'")
        << QByteArray(R"(1701516000.000042 [3 lua] "del" "lock:x")") << qint64(1701516000000042) << 3
        << QByteArray("lua") << QByteArrayList{"del", "lock:x"};
    QTest::newRow("IPv6") << QByteArray(R"(1.000001 [0 [::1]:6379] "PING")") << qint64(1000001) << 0
                          << QByteArray("[::1]:6379") << QByteArrayList{"PING"};
    QTest::newRow("Unix socket") << QByteArray(R"(1.000000 [0 unix:/run/redis/redis.sock] "GET" "k")")
                                 << qint64(1000000) << 0 << QByteArray("unix:/run/redis/redis.sock")
                                 << QByteArrayList{"GET", "k"};
    QTest::newRow("escapes") << QByteArray(R"(1.000000 [0 lua] "SET" "a\"b\\c" "\x00\xff\n\r\t\a\b" "")")
                             << qint64(1000000) << 0 << QByteArray("lua")
                             << QByteArrayList{"SET", "a\"b\\c", QByteArray("\x00\xff\n\r\t\a\b", 7), ""};
    QTest::newRow("a redacted AUTH") << QByteArray(R"x(1.000000 [0 127.0.0.1:1] "AUTH" "(redacted)")x")
                                     << qint64(1000000) << 0 << QByteArray("127.0.0.1:1")
                                     << QByteArrayList{"AUTH", "(redacted)"};
}

void TestMonitorLine::readsWhatServersWrite()
{
    QFETCH(QByteArray, line);
    const Result<MonitorLine> parsed = MonitorLineParser::parse(line);
    QVERIFY2(parsed, qPrintable(parsed ? QString() : parsed.error().message));
    QTEST(parsed->timeUs, "timeUs");
    QTEST(parsed->db, "db");
    QTEST(parsed->client, "client");
    QTEST(parsed->args, "args");
    QCOMPARE(parsed->fromScript(), parsed->client == "lua");
}

void TestMonitorLine::everyByteComesBack()
{
    // Random arguments, every byte value among them, quoted as the server quotes them.
    QRandomGenerator rng(43);
    for (int round = 0; round < 2000; ++round) {
        QByteArrayList args{"EVALSHA"};
        const int n = int(rng.bounded(1, 6));
        for (int i = 0; i < n; ++i) {
            QByteArray a(int(rng.bounded(0, 40)), Qt::Uninitialized);
            for (char& c : a)
                c = char(rng.bounded(256));
            args << a;
        }
        const QByteArray line =
            test::monitorLine(1700000000 + round, round % 1000000, round % 16, "10.0.0.7:40000", args);
        const Result<MonitorLine> parsed = MonitorLineParser::parse(line);
        QVERIFY2(parsed, line.constData());
        QCOMPARE(parsed->args, args);
        QCOMPARE(parsed->db, round % 16);
    }
}

void TestMonitorLine::refusesWhatIsNotAMonitorLine_data()
{
    QTest::addColumn<QByteArray>("line");
    QTest::newRow("empty") << QByteArray();
    QTest::newRow("OK") << QByteArray("+OK");
    QTest::newRow("no microseconds") << QByteArray(R"(1701516000 [0 lua] "GET" "k")");
    QTest::newRow("five digits of microseconds") << QByteArray(R"(1.00000 [0 lua] "GET" "k")");
    QTest::newRow("no client") << QByteArray(R"(1.000000 [0] "GET" "k")");
    QTest::newRow("no command") << QByteArray(R"(1.000000 [0 lua])");
    QTest::newRow("unquoted argument") << QByteArray(R"(1.000000 [0 lua] GET "k")");
    QTest::newRow("unclosed quote") << QByteArray(R"(1.000000 [0 lua] "GET" "k)");
    QTest::newRow("bad escape") << QByteArray(R"(1.000000 [0 lua] "G\qET")");
    QTest::newRow("short hex escape") << QByteArray(R"(1.000000 [0 lua] "\x4")");
    QTest::newRow("two spaces") << QByteArray(R"(1.000000 [0 lua] "GET"  "k")");
    QTest::newRow("a control byte in the client") << QByteArray("1.000000 [0 10.0.0.1:1\x1b[2J] \"GET\"");
    QTest::newRow("a huge database number") << QByteArray(R"(1.000000 [123456789 lua] "GET")");
}

void TestMonitorLine::refusesWhatIsNotAMonitorLine()
{
    QFETCH(QByteArray, line);
    const Result<MonitorLine> parsed = MonitorLineParser::parse(line);
    QVERIFY(!parsed);
    QVERIFY(parsed.error().message.startsWith(QLatin1String("not a MONITOR line: ")));
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestMonitorLine)

} // namespace tst_monitorline

#include "tst_monitorline.moc"
