// SPDX-License-Identifier: Apache-2.0
// lockctl hold end to end: the command runs while the lock is held (and extended), stops when it is
// lost (SIGTERM, then SIGKILL after the grace period), passes a SIGTERM on and releases, and never
// runs without the lock.
#include "support/lockctlcli.h"
#include "support/redisservergroup.h"
#include "support/testregistry.h"

#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

namespace tst_lockctlhold {

using namespace lockscope;
using namespace lockscope::test;

namespace {

// Starts `lockctl hold RESOURCE OPTIONS -- sh -c '<trap>; touch READY; while true; ...'` in `p`: a
// command that loops with `trap` set (SIGTERM's handling). True once the lock is on every master
// and the command has set its trap (READY, in `dir`, exists).
bool startTrappedHold(QProcess& p, RedisServerGroup& group, const LockctlCli& lockctl,
                      const QTemporaryDir& dir, const QByteArray& resource, const QStringList& options,
                      const QString& trap)
{
    const QFile ready(dir.filePath(QStringLiteral("ready")));
    QStringList args = lockctl.masters();
    args << QStringLiteral("--audit-log") << lockctl.auditPath() << QStringLiteral("hold")
         << QString::fromLatin1(resource) << options << QStringLiteral("--") << QStringLiteral("sh")
         << QStringLiteral("-c")
         << QStringLiteral("%1; touch '%2'; while true; do sleep 0.05; done").arg(trap, ready.fileName());
    p.setProcessEnvironment(testPasswordEnvironment());
    p.start(lockctlPath(), args);
    return QTest::qWaitFor([&] { return group.countOf(resource) == group.size() && ready.exists(); },
                           int(lockscope::test::upperBoundMs(5000)));
}

} // namespace

class TestLockctlHold : public QObject
{
    Q_OBJECT

private slots:
    void holdRunsTheCommandWhileHolding();
    void holdStopsTheCommandWhenTheLockIsLost();
    void holdKillsACommandThatIgnoresSigterm();
    void holdPassesSigtermOnAndReleases();
    void holdWithoutTheLock();
};

void TestLockctlHold::holdRunsTheCommandWhileHolding()
{
    RedisServerGroup group;
    QVERIFY(group.start(5));
    LockctlCli lockctl(group);
    QTemporaryDir dir;
    const QString seen = dir.filePath(QStringLiteral("seen"));
    // The command runs for two and a half TTLs: only the automatic extension keeps it held. The
    // TTL is 1 s on an idle machine, scaled like an upper bound: a shorter lease is lost on a
    // machine loaded enough to delay a few extensions in a row (CI lost tst_redlock's half-second
    // one that way), and the sanitized lockctl is slower.
    const qint64 ttlMs = upperBoundMs(1000);
    const QString script = QStringLiteral("echo \"$LOCKSCOPE_TOKEN $LOCKSCOPE_RESOURCE\" > '%1'; sleep %3; "
                                          "redis-cli -p %2 GET held >> '%1'; exit 7")
                               .arg(seen)
                               .arg(group.at(2).port())
                               .arg(double(ttlMs) * 2.5 / 1000.0, 0, 'f', 3);
    // redis-cli logs in with REDISCLI_AUTH from the environment lockctl passes on (it takes out only
    // its own --password-env variable).
    qputenv("REDISCLI_AUTH", group.at(2).options().password.toUtf8());
    const LockctlRun r = lockctl({"hold", "held", "--ttl", QString::number(ttlMs), "--", "sh", "-c", script});
    qunsetenv("REDISCLI_AUTH");
    QVERIFY2(r.code == 7, qPrintable(r.describe()));
    QFile file(seen);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = file.readAll().split('\n');
    const QByteArray token = lines.value(0).split(' ').value(0);
    QVERIFY(QRegularExpression(QStringLiteral("/[0-9a-f]{32}$")).match(QString::fromUtf8(token)).hasMatch());
    QCOMPARE(lines.value(0).split(' ').value(1), QByteArray("held"));
    QCOMPARE(lines.value(1), token);    // still ours after two and a half TTLs
    QCOMPARE(group.countOf("held"), 0); // released on exit
}

void TestLockctlHold::holdStopsTheCommandWhenTheLockIsLost()
{
    RedisServerGroup group;
    QVERIFY(group.start(3));
    LockctlCli lockctl(group);
    QTemporaryDir dir;
    QProcess p;
    QVERIFY(startTrappedHold(p, group, lockctl, dir, "lost", {QStringLiteral("--ttl"), QStringLiteral("600")},
                             QStringLiteral("trap 'exit 42' TERM")));
    QElapsedTimer clock;
    clock.start();
    for (int i = 0; i < 3; ++i)
        group.at(i).command({"DEL", "lost"}); // an admin force-released it
    QVERIFY(p.waitForFinished(int(lockscope::test::upperBoundMs(5000))));
    QCOMPARE(p.exitCode(), 42); // the command's own exit code, after SIGTERM
    QVERIFY(clock.elapsed() < upperBoundMs(1500));
    QVERIFY(p.readAllStandardError().contains("lost"));
}

void TestLockctlHold::holdKillsACommandThatIgnoresSigterm()
{
    RedisServerGroup group;
    QVERIFY(group.start(3));
    LockctlCli lockctl(group);
    QTemporaryDir dir;
    QProcess p;
    QVERIFY(startTrappedHold(
        p, group, lockctl, dir, "deaf",
        {QStringLiteral("--ttl"), QStringLiteral("600"), QStringLiteral("--grace-ms"), QStringLiteral("300")},
        QStringLiteral("trap '' TERM")));
    for (int i = 0; i < 3; ++i)
        group.at(i).command({"DEL", "deaf"});
    QVERIFY(p.waitForFinished(int(lockscope::test::upperBoundMs(5000))));
    QCOMPARE(p.exitCode(), 128 + 9); // SIGKILL after the grace period
}

void TestLockctlHold::holdPassesSigtermOnAndReleases()
{
    RedisServerGroup group;
    QVERIFY(group.start(3));
    LockctlCli lockctl(group);
    QTemporaryDir dir;
    QProcess p;
    // The command is running, its trap set.
    QVERIFY(startTrappedHold(p, group, lockctl, dir, "term",
                             {QStringLiteral("--ttl"), QStringLiteral("30000")},
                             QStringLiteral("trap 'exit 43' TERM")));
    ::kill(pid_t(p.processId()), SIGTERM);
    QVERIFY(p.waitForFinished(int(lockscope::test::upperBoundMs(5000))));
    QCOMPARE(p.exitStatus(), QProcess::NormalExit);
    QCOMPARE(p.exitCode(), 43);
    QCOMPARE(group.countOf("term"), 0); // released, not left for 30 s
}

void TestLockctlHold::holdWithoutTheLock()
{
    RedisServerGroup group;
    QVERIFY(group.start(5));
    for (int i = 0; i < 5; ++i)
        group.at(i).command({"SET", "taken", "someone", "PX", "60000"});
    LockctlCli lockctl(group);
    QTemporaryDir dir;
    const QString ran = dir.filePath(QStringLiteral("ran"));
    const LockctlRun busy = lockctl({"hold", "taken", "--ttl", "1000", "--retries", "0", "--", "touch", ran});
    QVERIFY2(busy.code == 1, qPrintable(busy.describe()));
    QVERIFY(!QFile::exists(ran));
    for (int i : {0, 1, 2})
        group.at(i).kill();
    const LockctlRun down =
        lockctl({"--timeout-ms", "200", "hold", "free", "--ttl", "1000", "--", "touch", ran});
    QVERIFY2(down.code == 3, qPrintable(down.describe()));
    QVERIFY(!QFile::exists(ran));
    const LockctlRun missing = lockctl({"hold", "free2", "--ttl", "1000"});
    QCOMPARE(missing.code, 2);
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestLockctlHold)

} // namespace tst_lockctlhold

#include "tst_lockctlhold.moc"
