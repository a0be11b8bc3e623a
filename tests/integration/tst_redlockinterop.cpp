// SPDX-License-Identifier: Apache-2.0
// Our Redlock and node-redlock (the npm package pinned in tests/interop) on the same 5 masters:
// each one's lock keeps the other out, and once released the other gets in.
#include "locking/redlock.h"
#include "support/masterwait.h"
#include "support/redisservergroup.h"
#include "support/testpaths.h"
#include "support/testregistry.h"
#include "topology/masterset.h"

#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTest>

#include <memory>
#include <optional>

namespace tst_redlockinterop {

using namespace lockscope;
using namespace lockscope::test;

namespace {

QString interopDir()
{
    return sourcePath(QStringLiteral("tests/interop"));
}

RedlockOutcome wait(const std::function<void(Redlock::Done)>& start)
{
    std::optional<RedlockOutcome> result;
    start([&](const RedlockOutcome& o) { result = o; });
    if (!QTest::qWaitFor([&] { return result.has_value(); }, int(lockscope::test::upperBoundMs(10000))))
        qFatal("no outcome");
    return *result;
}

} // namespace

class TestRedlockInterop : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void nodeRedlockKeepsUsOut();
    void weKeepNodeRedlockOut();
    void nodeHelperTellsUnreachableFromBusy();

private:
    QStringList nodeArgs(const QString& mode, const QByteArray& resource) const;

    QString m_node;
    RedisServerGroup m_group;
    std::unique_ptr<MasterSet> m_masters;
    LockScopeConfig m_config;
};

void TestRedlockInterop::initTestCase()
{
    m_node = QStandardPaths::findExecutable(QStringLiteral("node"));
    if (m_node.isEmpty() || !QFileInfo::exists(interopDir() + QStringLiteral("/node_modules/redlock")))
        QSKIP("node or tests/interop/node_modules missing (scripts/test.sh installs them with npm ci)");
    QVERIFY2(m_group.start(5), qPrintable(m_group.errorString()));
    m_config.masters = m_group.connectionOptions();
    m_config.redlock.retryCount = 0;
    // Not a test of the per-master timeout: healthy masters must answer within it on a loaded machine
    // under the sanitizers too, so it is scaled like any upper bound.
    m_config.redlock.masterTimeoutMs = int(upperBoundMs(m_config.redlock.masterTimeoutMs));
    m_masters = std::make_unique<MasterSet>(m_config.masters);
    m_masters->open();
    QVERIFY(
        QTest::qWaitFor([&] { return m_masters->upCount() == 5; }, int(lockscope::test::upperBoundMs(5000))));
}

void TestRedlockInterop::init()
{
    for (int i = 0; i < m_group.size(); ++i)
        m_group.at(i).command({"FLUSHALL"});
}

QStringList TestRedlockInterop::nodeArgs(const QString& mode, const QByteArray& resource) const
{
    QStringList args{interopDir() + QStringLiteral("/redlock-acquire.js"), mode};
    args << m_group.urls(false); // the password goes in the environment (testPasswordEnvironment())
    args << QStringLiteral("--resource") << QString::fromUtf8(resource) << QStringLiteral("--ttl")
         << QStringLiteral("10000") << QStringLiteral("--hold-ms") << QStringLiteral("1500");
    return args;
}

void TestRedlockInterop::nodeRedlockKeepsUsOut()
{
    QProcess node;
    node.setProcessEnvironment(testPasswordEnvironment());
    node.start(m_node, nodeArgs(QStringLiteral("hold"), "shared:a"));
    QVERIFY(node.waitForReadyRead(int(lockscope::test::upperBoundMs(10000))));
    const QByteArray line = node.readLine().trimmed();
    QVERIFY2(line.startsWith("locked "), line.constData());
    const QByteArray theirs = line.mid(7);
    QVERIFY(QRegularExpression(QStringLiteral("^[0-9a-f]{32}$")).match(QString::fromUtf8(theirs)).hasMatch());
    // node-redlock reports success once a majority answered; the slower masters follow.
    for (int i = 0; i < 5; ++i)
        QTRY_COMPARE(m_group.at(i).command({"GET", "shared:a"}).string, theirs);

    Redlock redlock(m_masters.get(), m_config);
    const RedlockOutcome blocked =
        wait([&](auto done) { redlock.acquire("shared:a", 5000, QString(), done); });
    QCOMPARE(blocked.verdict, WriteVerdict::NotDone);
    QCOMPARE(blocked.succeeded, 0);
    for (int i = 0; i < 5; ++i)
        QCOMPARE(m_group.at(i).command({"GET", "shared:a"}).string, theirs); // and theirs is untouched

    QVERIFY(node.waitForFinished(int(lockscope::test::upperBoundMs(10000))));
    QVERIFY(node.readAll().contains("released"));
    const RedlockOutcome after = wait([&](auto done) { redlock.acquire("shared:a", 5000, QString(), done); });
    QVERIFY2(after.ok(), qPrintable(after.error.message));
}

void TestRedlockInterop::weKeepNodeRedlockOut()
{
    Redlock redlock(m_masters.get(), m_config);
    const RedlockOutcome ours = wait([&](auto done) { redlock.acquire("shared:b", 10000, QString(), done); });
    QVERIFY(ours.ok());
    QList<qint64> clientsBefore;
    for (int i = 0; i < 5; ++i)
        clientsBefore << connectedClients(m_group.at(i));
    QProcess node;
    node.setProcessEnvironment(testPasswordEnvironment());
    node.start(m_node, nodeArgs(QStringLiteral("try"), "shared:b"));
    QVERIFY(node.waitForFinished(int(lockscope::test::upperBoundMs(10000))));
    QCOMPARE(node.exitCode(), 1);
    QCOMPARE(node.readAllStandardOutput().trimmed(), QByteArray("busy"));
    // Whatever node-redlock sent before it exited (its clean-up of the failed attempt) has run once
    // each master has dropped its connection.
    for (int i = 0; i < 5; ++i)
        QVERIFY(waitForClientsGone(m_group.at(i), clientsBefore[i], 10000));
    for (int i = 0; i < 5; ++i)
        QCOMPARE(m_group.at(i).command({"GET", "shared:b"}).string, ours.lease.token);

    QVERIFY(wait([&](auto done) { redlock.release(ours.lease, done); }).ok());
    node.start(m_node, nodeArgs(QStringLiteral("try"), "shared:b"));
    QVERIFY(node.waitForFinished(int(lockscope::test::upperBoundMs(10000))));
    QCOMPARE(node.exitCode(), 0);
    QVERIFY(node.readAllStandardOutput().startsWith("acquired "));
}

void TestRedlockInterop::nodeHelperTellsUnreachableFromBusy()
{
    // "busy" means someone else holds the lock; masters that cannot be reached are something else.
    RedisServerGroup gone;
    QVERIFY2(gone.start(3), qPrintable(gone.errorString()));
    const QStringList urls = gone.urls(false);
    for (int i = 0; i < 3; ++i)
        gone.at(i).kill();
    QProcess node;
    node.setProcessEnvironment(testPasswordEnvironment());
    node.start(m_node,
               QStringList{interopDir() + QStringLiteral("/redlock-acquire.js"), QStringLiteral("try")}
                   << urls << QStringLiteral("--resource") << QStringLiteral("shared:c")
                   << QStringLiteral("--ttl") << QStringLiteral("1000"));
    QVERIFY(node.waitForFinished(int(lockscope::test::upperBoundMs(30000))));
    const QByteArray out = node.readAllStandardOutput();
    QCOMPARE(node.exitCode(), 3);
    QVERIFY2(out.startsWith("unreachable "), out.constData());
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestRedlockInterop)

} // namespace tst_redlockinterop

#include "tst_redlockinterop.moc"
