// SPDX-License-Identifier: Apache-2.0
#include "support/testregistry.h"
#include "trace/tracefilter.h"

#include <QTest>

namespace tst_tracefilter {

using namespace lockscope;

namespace {

MonitorLine line(const QByteArrayList& args, const QByteArray& client = "10.0.0.7:40000")
{
    MonitorLine l;
    l.timeUs = 1700000000000000;
    l.client = client;
    l.args = args;
    return l;
}

} // namespace

// What the lock tracer keeps of MONITOR's stream (issue #43): only what touches the lock's keys, a
// script's KEYS rather than its arguments, and never a command that may carry a secret.
class TestTraceFilter : public QObject
{
    Q_OBJECT

private slots:
    void keepsOnlyTheLocksCommands_data();
    void keepsOnlyTheLocksCommands();
};

void TestTraceFilter::keepsOnlyTheLocksCommands_data()
{
    QTest::addColumn<QByteArrayList>("args");
    QTest::addColumn<QByteArrayList>("lockKeys"); // empty: dropped
    const QByteArray key = "lock:orders";
    const QByteArray channel = "redisson_lock__channel:{lock:orders}";
    QTest::newRow("SET NX PX") << QByteArrayList{"SET", key, "tok", "NX", "PX", "30000"}
                               << QByteArrayList{key};
    QTest::newRow("another key") << QByteArrayList{"SET", "lock:other", "tok"} << QByteArrayList{};
    QTest::newRow("a value spelled like the key, another key")
        << QByteArrayList{"SET", "audit:last", key} << QByteArrayList{};
    QTest::newRow("MSET with the key's name as a value")
        << QByteArrayList{"MSET", "a", key, key, "v"} << QByteArrayList{key};
    QTest::newRow("DEL of several") << QByteArrayList{"DEL", "a", key, "b"} << QByteArrayList{key};
    QTest::newRow("EVALSHA with the key in KEYS")
        << QByteArrayList{"EVALSHA", "f00d", "1", key, "tok", "30000"} << QByteArrayList{key};
    QTest::newRow("EVAL with the key only in ARGV")
        << QByteArrayList{"EVAL", "return 1", "1", "other", key} << QByteArrayList{};
    QTest::newRow("FCALL with two keys")
        << QByteArrayList{"FCALL", "release", "2", channel, key, "tok"} << QByteArrayList{channel, key};
    QTest::newRow("EVAL with a bad key count")
        << QByteArrayList{"EVAL", "return 1", "x", key} << QByteArrayList{};
    QTest::newRow("EVAL with more keys than arguments")
        << QByteArrayList{"EVAL", "return 1", "5", key} << QByteArrayList{key};
    QTest::newRow("a waiter subscribing") << QByteArrayList{"SUBSCRIBE", channel} << QByteArrayList{channel};
    QTest::newRow("AUTH whose password is the key's name") << QByteArrayList{"AUTH", key} << QByteArrayList{};
    QTest::newRow("HELLO with AUTH") << QByteArrayList{"HELLO", "3", "AUTH", "default", key}
                                     << QByteArrayList{};
    QTest::newRow("CONFIG SET requirepass")
        << QByteArrayList{"config", "set", "requirepass", key} << QByteArrayList{};
    QTest::newRow("MIGRATE with AUTH")
        << QByteArrayList{"MIGRATE", "h", "1", key, "0", "10", "AUTH", "pw"} << QByteArrayList{};
    QTest::newRow("a script's call") << QByteArrayList{"del", key} << QByteArrayList{key};
}

void TestTraceFilter::keepsOnlyTheLocksCommands()
{
    QFETCH(QByteArrayList, args);
    QFETCH(QByteArrayList, lockKeys);
    const TraceFilter filter({"lock:orders", "redisson_lock__channel:{lock:orders}"});
    const MonitorLine l = line(args);
    QCOMPARE(filter.keep(l).has_value(), !lockKeys.isEmpty());
    if (!TraceFilter::carriesSecret(l))
        QCOMPARE(filter.lockKeysOf(l), lockKeys);
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestTraceFilter)

} // namespace tst_tracefilter

#include "tst_tracefilter.moc"
