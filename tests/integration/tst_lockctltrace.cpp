// SPDX-License-Identifier: Apache-2.0
#include "connection/redisconnection.h"
#include "support/connectionwait.h"
#include "support/lockctlprocess.h"
#include "support/lockctlrun.h"
#include "support/redisserver.h"
#include "support/testregistry.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

namespace tst_lockctltrace {

using namespace lockscope;
using namespace lockscope::test;

// `lockctl trace RESOURCE` (issue #43) on a real server: JSON Lines of what each command meant and a
// summary, an audit record before MONITOR starts (also in read-only mode: a trace is a read), a
// clean stop on SIGTERM with no MONITOR left on the server, and bad arguments refused before any
// connection is made.
class TestLockctlTrace : public QObject
{
    Q_OBJECT

private slots:
    void jsonLinesSummaryAndAuditRecord();
    void sigtermStopsAndLeavesNoMonitor();
    void badArgumentsStartNothing();

private:
    // Each test has an audit log of its own, named after it.
    QStringList masterArgs(const RedisServer& server) const;
    QString auditPath() const;
    QList<QJsonObject> auditLines() const;
    QTemporaryDir m_dir;
};

namespace {

QList<QJsonObject> jsonLines(const QByteArray& out)
{
    QList<QJsonObject> lines;
    for (const QByteArray& l : out.split('\n'))
        if (!l.trimmed().isEmpty())
            lines << QJsonDocument::fromJson(l).object();
    return lines;
}

bool noMonitorLeft(const RedisServer& server)
{
    return QTest::qWaitFor(
        [&server] {
            return !server.command({"CLIENT", "LIST"}).string.contains("name=lockscope-trace");
        },
        10000);
}

} // namespace

QStringList TestLockctlTrace::masterArgs(const RedisServer& server) const
{
    return testPasswordArgs() << QStringLiteral("-m") << server.url(false) << QStringLiteral("--audit-log")
                              << auditPath();
}

QString TestLockctlTrace::auditPath() const
{
    return m_dir.filePath(QString::fromLatin1(QTest::currentTestFunction()) + QStringLiteral(".jsonl"));
}

QList<QJsonObject> TestLockctlTrace::auditLines() const
{
    QFile file(auditPath());
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return jsonLines(file.readAll());
}

void TestLockctlTrace::jsonLinesSummaryAndAuditRecord()
{
    RedisServer server;
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    LockctlProcess trace;
    QVERIFY(trace.start(QStringList{QStringLiteral("--json"), QStringLiteral("--read-only"),
                                    QStringLiteral("trace"), QStringLiteral("lock:cli"),
                                    QStringLiteral("--for"), QStringLiteral("4s")}
                        << masterArgs(server)));
    QVERIFY2(trace.waitForOutput("\"state\":\"tracing\""), qPrintable(trace.describe()));
    ConnectionOptions o = server.connectionOptions(5000);
    o.clientName = "cli-client";
    RedisConnection c(o);
    c.open();
    QVERIFY(waitForState(c, RedisConnection::State::Up));
    QCOMPARE(callAndWait(c, {"SET", "lock:cli", "t1", "NX", "PX", "10000"}).reply.string, QByteArray("OK"));
    QVERIFY(callAndWait(c, {"SET", "lock:cli", "t2", "NX", "PX", "10000"}).reply.isNil());
    QVERIFY(callAndWait(c, {"SET", "unrelated", "lock:cli"}).ok());
    QCOMPARE(trace.waitForExit(20000), 0);
    const QList<QJsonObject> lines = jsonLines(trace.out());
    QList<QJsonObject> commands;
    for (const QJsonObject& l : lines)
        if (l.value(QStringLiteral("event")).toString() == QLatin1String("command"))
            commands << l;
    QCOMPARE(commands.size(), 2);
    QCOMPARE(commands.at(0).value(QStringLiteral("meaning")).toString(), QStringLiteral("acquired"));
    QCOMPARE(commands.at(1).value(QStringLiteral("meaning")).toString(), QStringLiteral("refused"));
    QCOMPARE(
        commands.at(1).value(QStringLiteral("client")).toObject().value(QStringLiteral("name")).toString(),
        QStringLiteral("cli-client"));
    QCOMPARE(commands.at(1).value(QStringLiteral("holderToken")).toString(), QStringLiteral("t1"));
    const QJsonObject summary = lines.last();
    QCOMPARE(summary.value(QStringLiteral("event")).toString(), QStringLiteral("summary"));
    QCOMPARE(summary.value(QStringLiteral("commands")).toInt(), 2);
    QVERIFY(summary.value(QStringLiteral("stopped")).toString().contains(QLatin1String("traced for")));
    const QList<QJsonObject> audit = auditLines();
    QCOMPARE(audit.size(), 1);
    QCOMPARE(audit.first().value(QStringLiteral("action")).toString(), QStringLiteral("trace"));
    QCOMPARE(audit.first().value(QStringLiteral("resource")).toString(), QStringLiteral("lock:cli"));
    QCOMPARE(audit.first().value(QStringLiteral("masters")).toArray().size(), 1);
    QVERIFY(!QJsonDocument(audit.first()).toJson().contains(testPassword().toUtf8()));
    QVERIFY(!trace.out().contains(testPassword().toUtf8()));
    QVERIFY(noMonitorLeft(server));
}

void TestLockctlTrace::sigtermStopsAndLeavesNoMonitor()
{
    RedisServer server;
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    LockctlProcess trace;
    QVERIFY(trace.start(QStringList{QStringLiteral("trace"), QStringLiteral("lock:sig"),
                                    QStringLiteral("--for"), QStringLiteral("10m")}
                        << masterArgs(server)));
    QVERIFY(QTest::qWaitFor(
        [&server] {
            return server.command({"CLIENT", "LIST"}).string.contains("cmd=monitor");
        },
        20000));
    QCOMPARE(trace.terminate(), 0);
    QVERIFY2(trace.out().contains("interrupted"), qPrintable(trace.describe()));
    QVERIFY(noMonitorLeft(server));
}

void TestLockctlTrace::badArgumentsStartNothing()
{
    RedisServer server;
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    const QList<QStringList> bad{
        {QStringLiteral("trace")},
        {QStringLiteral("trace"), QStringLiteral("lock:a"), QStringLiteral("lock:b")},
        {QStringLiteral("trace"), QStringLiteral("lock:a"), QStringLiteral("--for"), QStringLiteral("0s")},
        {QStringLiteral("trace"), QStringLiteral("lock:a"), QStringLiteral("--for"), QStringLiteral("2h")},
        {QStringLiteral("trace"), QStringLiteral("lock:a"), QStringLiteral("--for"), QStringLiteral("30")},
        {QStringLiteral("trace"), QStringLiteral("lock:a"), QStringLiteral("--budget"), QStringLiteral("0")},
        {QStringLiteral("trace"), QStringLiteral("lock:\\xZZ")},
    };
    for (const QStringList& args : bad) {
        const LockctlRun run = runLockctl(args + masterArgs(server));
        QVERIFY2(run.code == 2, qPrintable(run.describe()));
        QVERIFY2(run.err.startsWith("lockctl: "), qPrintable(run.describe()));
    }
    QVERIFY(auditLines().isEmpty());
    QVERIFY(!server.command({"CLIENT", "LIST"}).string.contains("name=lockscope-trace"));
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestLockctlTrace)

} // namespace tst_lockctltrace

#include "tst_lockctltrace.moc"
