// SPDX-License-Identifier: Apache-2.0
#include "support/monitorrepr.h"
#include "support/testregistry.h"
#include "trace/locktracer.h"
#include "trace/monitorstream.h"

#include <QTest>

namespace tst_monitorstream {

using namespace lockscope;
using namespace lockscope::test;

// The tracer's hot path (issue #43): MONITOR's lines cut down to one lock's commands. Lines are
// written with the test's own copy of the server's quoting (support/monitorrepr.h), not the stream's.
class TestMonitorStream : public QObject
{
    Q_OBJECT

private slots:
    void otherKeysAreDroppedUnparsed();
    void aKeyInsideAnotherIsNotTheLock();
    void aScriptGoesWithItsOwnCalls();
    void aScriptEndsWhenNothingMoreCame();
    void callsOfAnotherScriptStayOut();
    void secretsNeverPass();
    void clientNamesAreLearntFromTheStream();
    void binaryKeysAndIpv6Clients();
    void serverQuotingMatches();
};

namespace {

struct Kept
{
    MonitorLine command;
    QList<MonitorLine> calls;
};

struct Harness
{
    explicit Harness(const QByteArray& key)
        : stream(LockTracer::keysOf(key), [this](const MonitorLine& c, const QList<MonitorLine>& calls) {
              kept << Kept{c, calls};
          })
    {}
    void feed(const QByteArray& client, const QByteArrayList& args)
    {
        stream.feed('+' + monitorLine(1'800'000'000, ++micros, 0, client, args));
    }
    int micros = 0;
    QList<Kept> kept;
    MonitorStream stream;
};

} // namespace

void TestMonitorStream::otherKeysAreDroppedUnparsed()
{
    Harness h("lock:x");
    for (int i = 0; i < 1000; ++i)
        h.feed("127.0.0.1:5000", {"SET", "user:" + QByteArray::number(i), "v", "PX", "100"});
    h.feed("127.0.0.1:5001", {"SET", "lock:x", "tok", "NX", "PX", "30000"});
    QCOMPARE(h.stream.counts().lines, 1001);
    QCOMPARE(h.stream.counts().parsed, 1);
    QCOMPARE(h.kept.size(), 1);
    QCOMPARE(h.kept.first().command.args, (QByteArrayList{"SET", "lock:x", "tok", "NX", "PX", "30000"}));
    QCOMPARE(h.kept.first().command.client, QByteArray("127.0.0.1:5001"));
    QVERIFY(h.stream.counts().bytes > 1000 * 30);
}

void TestMonitorStream::aKeyInsideAnotherIsNotTheLock()
{
    Harness h("lock:x");
    h.feed("127.0.0.1:5000", {"SET", "lock:x2", "v"});
    h.feed("127.0.0.1:5000", {"SET", "prefix-lock:x", "v"});
    // A value spelled like the lock is parsed (it contains the quoted key) but is another key's business.
    h.feed("127.0.0.1:5000", {"SET", "audit", "lock:x"});
    h.feed("127.0.0.1:5000", {"EVAL", "return 1", "1", "other", "lock:x"});
    QCOMPARE(h.stream.counts().parsed, 2);
    QVERIFY(h.kept.isEmpty());
}

void TestMonitorStream::aScriptGoesWithItsOwnCalls()
{
    Harness h("lock:x");
    h.feed("127.0.0.1:5000", {"EVAL", "release", "1", "lock:x", "tok"});
    h.feed("lua", {"get", "lock:x"});
    h.feed("lua", {"del", "lock:x"});
    QVERIFY(h.kept.isEmpty()); // more calls could follow
    h.feed("127.0.0.1:5000", {"GET", "unrelated"});
    QCOMPARE(h.kept.size(), 1);
    QCOMPARE(h.kept.first().command.command(), QByteArray("EVAL"));
    QCOMPARE(h.kept.first().calls.size(), 2);
    QCOMPARE(h.kept.first().calls.at(1).args, (QByteArrayList{"del", "lock:x"}));
}

void TestMonitorStream::aScriptEndsWhenNothingMoreCame()
{
    Harness h("lock:x");
    h.feed("127.0.0.1:5000", {"EVALSHA", "abc", "1", "lock:x", "tok"});
    h.feed("lua", {"get", "lock:x"});
    QVERIFY(h.stream.hasOpenScript());
    h.stream.finish();
    QCOMPARE(h.kept.size(), 1);
    QCOMPARE(h.kept.first().calls.size(), 1);
    QVERIFY(!h.stream.hasOpenScript());
}

void TestMonitorStream::callsOfAnotherScriptStayOut()
{
    Harness h("lock:x");
    // A script on other keys: its calls are not the lock's and never open a group.
    h.feed("127.0.0.1:5000", {"EVAL", "script", "1", "other"});
    h.feed("lua", {"get", "other"});
    h.feed("127.0.0.1:5001", {"EVAL", "release", "1", "lock:x", "tok"});
    h.feed("lua", {"get", "lock:x"});
    h.feed("lua", {"set", "unrelated", "v"});
    h.stream.finish();
    QCOMPARE(h.kept.size(), 1);
    QCOMPARE(h.kept.first().calls.size(), 1);
    // A script that did not name the lock in KEYS but touched it: its call is handed over alone.
    h.feed("127.0.0.1:5002", {"EVAL", "sneaky", "0"});
    h.feed("lua", {"del", "lock:x"});
    QCOMPARE(h.kept.size(), 2);
    QVERIFY(h.kept.last().command.fromScript());
}

void TestMonitorStream::secretsNeverPass()
{
    Harness h("lock:x");
    h.feed("127.0.0.1:5000", {"AUTH", "lock:x", "lock:x"});
    h.feed("127.0.0.1:5000", {"HELLO", "3", "AUTH", "lock:x", "secret"});
    h.feed("127.0.0.1:5000", {"MIGRATE", "h", "1", "lock:x", "0", "10", "AUTH", "secret"});
    h.feed("127.0.0.1:5000", {"CONFIG", "SET", "requirepass", "lock:x"});
    QVERIFY(h.kept.isEmpty());
}

void TestMonitorStream::clientNamesAreLearntFromTheStream()
{
    Harness h("lock:x");
    h.feed("127.0.0.1:5000", {"client", "setname", "worker-7"});
    h.feed("127.0.0.1:5000", {"CLIENT", "SETINFO", "LIB-NAME", "redis-py"});
    h.feed("127.0.0.1:5000", {"CLIENT", "SETINFO", "LIB-VER", "4.3.4"});
    const TraceClient c = h.stream.namedClients().value("127.0.0.1:5000");
    QCOMPARE(c.name, QByteArray("worker-7"));
    QCOMPARE(c.libraryName, QByteArray("redis-py"));
    QCOMPARE(c.libraryVersion, QByteArray("4.3.4"));
    QCOMPARE(c.display(), QStringLiteral("127.0.0.1:5000 (worker-7, redis-py 4.3.4)"));
    QVERIFY(h.kept.isEmpty());
}

void TestMonitorStream::binaryKeysAndIpv6Clients()
{
    const QByteArray key("lock:\x00\xff\"\\\n", 10);
    Harness h(key);
    h.feed("[::1]:6000", {"SET", key, QByteArray("\x01\x02", 2), "NX"});
    h.feed("[::1]:6000", {"SET", QByteArray("lock:\x00\xfe", 7), "v"});
    QCOMPARE(h.kept.size(), 1);
    QCOMPARE(h.kept.first().command.args.at(1), key);
    QCOMPARE(h.kept.first().command.client, QByteArray("[::1]:6000"));
}

void TestMonitorStream::serverQuotingMatches()
{
    QByteArray all;
    for (int c = 0; c < 256; ++c)
        all += char(c);
    QCOMPARE(MonitorStream::quoted(all), monitorRepr(all));
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestMonitorStream)

} // namespace tst_monitorstream

#include "tst_monitorstream.moc"
