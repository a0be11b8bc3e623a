// SPDX-License-Identifier: Apache-2.0
#include "monitor/lockmonitor.h"
#include "support/lockctlrun.h"
#include "support/monitorrun.h"
#include "support/redisservergroup.h"
#include "support/testpaths.h"
#include "support/testregistry.h"

#include <QDateTime>
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

namespace tst_interopmonitor {

using namespace lockscope;
using namespace lockscope::test;

// Locks taken by the real libraries (node-redlock, redis-semaphore, redis-py), and keys written
// exactly as Redisson, python-redis-lock and legacy SETNX code write them, seen through the
// monitor and `lockctl list --json`: every status, and a master going down.
class TestInteropMonitor : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void realLibrariesThroughTheQuorumView();

private:
    QJsonObject run(const QString& program, const QStringList& args);
    QJsonObject node(const QStringList& args)
    {
        return run(m_node, QStringList{m_interop + QStringLiteral("/write-locks.js")} + args);
    }
    QJsonObject redisPy(const QString& name, const QString& timeout, const QString& url)
    {
        return run(QStringLiteral("/usr/bin/python3"),
                   {m_interop + QStringLiteral("/write_redispy_lock.py"), name, timeout, url});
    }
    QJsonObject listJson(const QStringList& urls, int* exitCode);

    QString m_node;
    QString m_interop = sourcePath(QStringLiteral("tests/interop"));
};

void TestInteropMonitor::initTestCase()
{
    m_node = QStandardPaths::findExecutable(QStringLiteral("node"));
    if (m_node.isEmpty() || !QDir(m_interop + QStringLiteral("/node_modules/redlock")).exists())
        QSKIP("node or tests/interop/node_modules missing: run scripts/test.sh, which installs them");
    if (!QFile::exists(QStringLiteral("/usr/bin/python3")))
        QSKIP("Debian's python3 (with python3-redis) is missing: run scripts/test.sh");
}

QJsonObject TestInteropMonitor::run(const QString& program, const QStringList& args)
{
    QProcess p;
    p.setProcessEnvironment(testPasswordEnvironment()); // the URLs leave the password out
    p.start(program, args);
    if (!p.waitForFinished(int(lockscope::test::upperBoundMs(30000))) || p.exitCode() != 0) {
        qWarning("%s failed: %s", qPrintable(args.join(QLatin1Char(' '))),
                 p.readAllStandardError().constData());
        return {};
    }
    return QJsonDocument::fromJson(p.readAllStandardOutput().trimmed()).object();
}

QJsonObject TestInteropMonitor::listJson(const QStringList& urls, int* exitCode)
{
    QStringList args{QStringLiteral("list"), QStringLiteral("--json"),    QStringLiteral("--timeout-ms"),
                     QStringLiteral("500"),  QStringLiteral("--pattern"), QStringLiteral("*")};
    args << testPasswordArgs();
    for (const QString& u : urls)
        args << QStringLiteral("-m") << u;
    QProcess p;
    p.setProcessEnvironment(testPasswordEnvironment());
    p.start(buildPath(QStringLiteral("app/lockctl")), args);
    p.waitForFinished(int(lockscope::test::upperBoundMs(20000)));
    *exitCode = p.exitCode();
    return QJsonDocument::fromJson(p.readAllStandardOutput()).object();
}

void TestInteropMonitor::realLibrariesThroughTheQuorumView()
{
    RedisServerGroup group;
    QVERIFY2(group.start(3), qPrintable(group.errorString()));
    const QStringList urls = group.urls(false); // the password goes in the environment

    // held: node-redlock on all three masters.
    const QJsonObject orders = node(
        QStringList{QStringLiteral("redlock"), QStringLiteral("orders"), QStringLiteral("60000")} + urls);
    QVERIFY(!orders.isEmpty());
    // partial: node-redlock that reached one master only.
    QVERIFY(!node({QStringLiteral("redlock"), QStringLiteral("report"), QStringLiteral("60000"), urls[0]})
                 .isEmpty());
    // held, several holders: redis-semaphore's Redlock semaphore; and its Redlock mutex.
    QVERIFY(!node(QStringList{QStringLiteral("semaphore"), QStringLiteral("pool"), QStringLiteral("60000")} +
                  urls)
                 .isEmpty());
    const QJsonObject mutex = node(
        QStringList{QStringLiteral("semaphore-mutex"), QStringLiteral("deploy"), QStringLiteral("60000")} +
        urls);
    QVERIFY(!mutex.isEmpty());
    // stuck: redis-py's default, no timeout.
    const QJsonObject pyjob = redisPy(QStringLiteral("lock:pyjob"), QStringLiteral("none"), urls[1]);
    QVERIFY(!pyjob.isEmpty());
    // contested: two independent redis-py locks under one name on two masters.
    const QJsonObject shared0 = redisPy(QStringLiteral("lock:shared"), QStringLiteral("60"), urls[0]);
    const QJsonObject shared1 = redisPy(QStringLiteral("lock:shared"), QStringLiteral("60"), urls[1]);
    QVERIFY(!shared0.isEmpty() && !shared1.isEmpty());
    // Redisson, python-redis-lock and legacy SETNX/GETSET, command by command as those libraries do.
    const QByteArray redissonField = "8f0a2c7e-1b2d-4c3e-9f00-0123456789ab:57";
    for (int i = 0; i < 3; ++i) {
        group.at(i).command({"HINCRBY", "invoices", redissonField, "1"});
        group.at(i).command({"PEXPIRE", "invoices", "30000"});
        group.at(i).command({"SET", "lock:thumbnails", "Vd3cTz0HkQ2a9X1cB7eLwYpR", "NX", "EX", "60"});
    }
    const QByteArray past = QByteArray::number(QDateTime::currentSecsSinceEpoch() - 3600);
    for (int i = 0; i < 3; ++i)
        group.at(i).command({"SETNX", "cron.lock", past});

    LockScopeConfig config;
    config.masters = group.connectionOptions(500);
    config.monitor.patterns = {"*"};
    MonitorRun run(config);
    QVERIFY(run.startAndScan(10000));
    LockMonitor& monitor = run.monitor();
    auto view = [&](const QByteArray& r) { return monitor.locks().value(r); };
    auto expect = [&](const QByteArray& r, LockStatus status, LockFormat format, int holding) {
        const LockView v = view(r);
        QVERIFY2(monitor.locks().contains(r), r.constData());
        QVERIFY2(v.status == status,
                 qPrintable(QString::fromUtf8(r) + QStringLiteral(": ") + lockStatusName(v.status)));
        QVERIFY2(v.format == format,
                 qPrintable(QString::fromUtf8(r) + QStringLiteral(": ") + lockFormatName(v.format)));
        QCOMPARE(v.holding, holding);
    };
    expect("orders", LockStatus::Held, LockFormat::HexToken, 3);
    QCOMPARE(view("orders")->token, orders.value(QStringLiteral("value")).toString().toUtf8());
    expect("report", LockStatus::Partial, LockFormat::HexToken, 1);
    expect("semaphore:pool", LockStatus::Held, LockFormat::Semaphore, 3);
    expect("mutex:deploy", LockStatus::Held, LockFormat::SemaphoreMutex, 3);
    QCOMPARE(view("mutex:deploy")->token, mutex.value(QStringLiteral("token")).toString().toUtf8());
    expect("lock:pyjob", LockStatus::Stuck, LockFormat::RedisPy, 1);
    QVERIFY(view("lock:pyjob")->owner.contains(pyjob.value(QStringLiteral("node")).toString()));
    QCOMPARE(view("lock:shared")->status, LockStatus::Contested);
    expect("invoices", LockStatus::Held, LockFormat::Redisson, 3);
    QCOMPARE(view("invoices")->token, redissonField);
    QVERIFY(view("invoices")->owner.contains(QStringLiteral("57")));
    expect("lock:thumbnails", LockStatus::Held, LockFormat::PythonRedisLock, 3);
    expect("cron.lock", LockStatus::Stuck, LockFormat::LegacyTimestamp, 3);

    // The same picture from lockctl.
    int code = -1;
    QJsonObject doc = listJson(urls, &code);
    QCOMPARE(code, 0);
    QHash<QString, QJsonObject> byName;
    for (const QJsonValue& l : doc.value(QStringLiteral("locks")).toArray())
        byName.insert(l.toObject().value(QStringLiteral("resource")).toString(), l.toObject());
    QCOMPARE(byName.value(QStringLiteral("orders")).value(QStringLiteral("status")).toString(),
             QStringLiteral("held"));
    QCOMPARE(byName.value(QStringLiteral("report")).value(QStringLiteral("status")).toString(),
             QStringLiteral("partial"));
    QCOMPARE(byName.value(QStringLiteral("lock:shared")).value(QStringLiteral("status")).toString(),
             QStringLiteral("contested"));
    QCOMPARE(byName.value(QStringLiteral("invoices")).value(QStringLiteral("format")).toString(),
             QStringLiteral("redisson"));

    // A master goes down: the Redlock lock keeps its quorum, the one-master lock can no longer be judged.
    group.at(2).kill();
    QTRY_COMPARE_WITH_TIMEOUT(view("report")->status, LockStatus::Unknown, 5000);
    QCOMPARE(view("orders")->status, LockStatus::Held);
    doc = listJson(urls, &code);
    QCOMPARE(code, 0); // 2 of 3 still make a quorum
    for (const QJsonValue& l : doc.value(QStringLiteral("locks")).toArray())
        byName.insert(l.toObject().value(QStringLiteral("resource")).toString(), l.toObject());
    QCOMPARE(byName.value(QStringLiteral("report")).value(QStringLiteral("status")).toString(),
             QStringLiteral("unknown"));
    QCOMPARE(byName.value(QStringLiteral("orders")).value(QStringLiteral("status")).toString(),
             QStringLiteral("held"));
    QVERIFY(!doc.value(QStringLiteral("masters"))
                 .toArray()
                 .at(2)
                 .toObject()
                 .value(QStringLiteral("up"))
                 .toBool());
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestInteropMonitor)

} // namespace tst_interopmonitor

#include "tst_interopmonitor.moc"
