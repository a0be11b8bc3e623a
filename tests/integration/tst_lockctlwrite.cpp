// SPDX-License-Identifier: Apache-2.0
// lockctl's writing commands end to end, as a user runs them: the built binary in a QProcess
// against real masters. Every exit code, bad TTLs, dead and paused masters, confirmation,
// read-only mode, and what the audit log records. (hold: tst_lockctlhold.)
#include "support/lockctlcli.h"
#include "support/lockctlrun.h"
#include "support/masterwait.h"
#include "support/redisservergroup.h"
#include "support/testregistry.h"
#include "support/timebound.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <QFileInfo>

#include <csignal>
#include <sys/resource.h>

namespace tst_lockctlwrite {

using namespace lockscope;
using namespace lockscope::test;

class TestLockctlWrite : public QObject
{
    Q_OBJECT

private slots:
    void acquireExtendRelease();
    void badTtlsAreUsageErrors_data();
    void badTtlsAreUsageErrors();
    void minorityDownStillAcquires();
    void majorityDownAnswersFastWithExit3_data();
    void majorityDownAnswersFastWithExit3();
    void forceReleaseAsksOrRefuses();
    void forceReleaseConfirmsOnATerminal();
    void forceReleaseGuardedAndSubset();
    void forceReleaseRefusesKeysThatAreNoLocks();
    void forceReleaseRedissonReaderAsListed();
    void readOnlyRefusesEveryWriteButAudits();
    void auditLogHasNoPassword();
    void unrecordedWriteExitsFive();
    void sharedAuditLogIsRefusedUnlessAllowed();
};

void TestLockctlWrite::acquireExtendRelease()
{
    RedisServerGroup group;
    QVERIFY2(group.start(5), qPrintable(group.errorString()));
    LockctlCli lockctl(group);
    const LockctlRun acquired =
        lockctl({"acquire", "deploy", "--ttl", "10000", "--json", "--owner", "ci@runner:7"});
    QVERIFY2(acquired.code == 0, qPrintable(acquired.describe()));
    const QJsonObject json = QJsonDocument::fromJson(acquired.out).object();
    QCOMPARE(json.value(QStringLiteral("acquired")).toBool(), true);
    QCOMPARE(json.value(QStringLiteral("resource")).toString(), QStringLiteral("deploy"));
    QCOMPARE(json.value(QStringLiteral("locked")).toInt(), 5);
    QCOMPARE(json.value(QStringLiteral("total")).toInt(), 5);
    QVERIFY(json.value(QStringLiteral("validityMs")).toInt() > 9000);
    QVERIFY(json.value(QStringLiteral("elapsedMs")).toDouble() > 0);
    const QString token = json.value(QStringLiteral("token")).toString();
    QVERIFY(QRegularExpression(QStringLiteral("^ci@runner:7/[0-9a-f]{32}$")).match(token).hasMatch());
    QCOMPARE(group.at(2).command({"GET", "deploy"}).string, token.toUtf8());

    const LockctlRun busy =
        lockctl({"acquire", "deploy", "--ttl", "10000", "--retries", "1", "--retry-delay", "10"});
    QVERIFY2(busy.code == 1, qPrintable(busy.describe()));
    QVERIFY(busy.err.contains("not acquired"));

    const LockctlRun plain = lockctl({"acquire", "other", "--ttl", "5000"});
    QCOMPARE(plain.code, 0);
    QVERIFY(QRegularExpression(QStringLiteral("^\\S+/[0-9a-f]{32}\n"))
                .match(QString::fromUtf8(plain.out))
                .hasMatch());

    const LockctlRun extended = lockctl({"extend", "deploy", "--token", token, "--ttl", "60000"});
    QVERIFY2(extended.code == 0, qPrintable(extended.describe()));
    QVERIFY(group.at(0).command({"PTTL", "deploy"}).integer > 50000);
    QCOMPARE(lockctl({"extend", "deploy", "--token", "not-mine", "--ttl", "60000"}).code, 1);
    QCOMPARE(lockctl({"release", "deploy", "--token", "not-mine"}).code, 1);
    QCOMPARE(group.countOf("deploy"), 5);
    const LockctlRun released = lockctl({"release", "deploy", "--token", token});
    QVERIFY2(released.code == 0, qPrintable(released.describe()));
    QCOMPARE(group.countOf("deploy"), 0);
    QCOMPARE(lockctl({"release", "deploy", "--token", token}).code, 1); // nothing left to delete
    QCOMPARE(lockctl({"release", "deploy"}).code, 2);                   // no token: usage

    QStringList actions;
    for (const QJsonObject& line : lockctl.auditLines())
        actions << line.value(QStringLiteral("action")).toString();
    QCOMPARE(actions, QStringList({"acquire", "acquire", "acquire", "extend", "extend", "release", "release",
                                   "release"}));
}

void TestLockctlWrite::badTtlsAreUsageErrors_data()
{
    QTest::addColumn<QString>("command");
    QTest::addColumn<QString>("ttl");
    for (const QString& command :
         {QStringLiteral("acquire"), QStringLiteral("extend"), QStringLiteral("hold")})
        for (const QString& ttl :
             {QStringLiteral("0"), QStringLiteral("-5"), QStringLiteral("abc"), QStringLiteral("10s"),
              QStringLiteral("1.5"), QStringLiteral("1e4"), QStringLiteral("2147483648"),
              QStringLiteral("99999999999999999999"), QStringLiteral("")})
            QTest::newRow(qPrintable(command + QStringLiteral(" '") + ttl + QLatin1Char('\'')))
                << command << ttl;
}

void TestLockctlWrite::badTtlsAreUsageErrors()
{
    QFETCH(QString, command);
    QFETCH(QString, ttl);
    static RedisServerGroup group;
    if (group.size() == 0)
        QVERIFY(group.start(1));
    LockctlCli lockctl(group);
    QStringList args{command, QStringLiteral("bad-ttl"), QStringLiteral("--ttl=") + ttl};
    if (command == QLatin1String("extend"))
        args << QStringLiteral("--token") << QStringLiteral("t");
    if (command == QLatin1String("hold"))
        args << QStringLiteral("--") << QStringLiteral("true");
    const LockctlRun r = lockctl(args);
    QVERIFY2(r.code == 2, qPrintable(r.describe()));
    QVERIFY(r.err.contains("--ttl"));
    QCOMPARE(group.at(0).command({"DBSIZE"}).integer, 0);
}

void TestLockctlWrite::minorityDownStillAcquires()
{
    RedisServerGroup group;
    QVERIFY(group.start(5));
    group.at(0).kill();
    group.at(4).pause();
    LockctlCli lockctl(group);
    const LockctlRun r = lockctl({"--timeout-ms", "200", "acquire", "minor", "--ttl", "10000", "--json"});
    group.at(4).resume();
    QVERIFY2(r.code == 0, qPrintable(r.describe()));
    QCOMPARE(QJsonDocument::fromJson(r.out).object().value(QStringLiteral("locked")).toInt(), 3);
    // Standard error says which masters took no part, and why; standard output stays the result.
    QVERIFY2(r.err.contains("not on every master"), r.err.constData());
    QVERIFY2(r.err.contains(group.at(0).url(false).toUtf8()), r.err.constData());
    QVERIFY2(r.err.contains(group.at(4).url(false).toUtf8()), r.err.constData());
    QVERIFY2(!r.err.contains(group.at(1).url(false).toUtf8()), r.err.constData());
}

void TestLockctlWrite::majorityDownAnswersFastWithExit3_data()
{
    QTest::addColumn<int>("paused");
    QTest::newRow("3 dead") << 0;
    QTest::newRow("2 dead, 1 paused") << 1;
    QTest::newRow("3 paused") << 3;
}

void TestLockctlWrite::majorityDownAnswersFastWithExit3()
{
    QFETCH(int, paused);
    RedisServerGroup group;
    QVERIFY(group.start(5));
    QList<qint64> clientsBefore;
    for (int i = 0; i < 5; ++i)
        clientsBefore << connectedClients(group.at(i));
    QList<int> down{0, 2, 3};
    for (int i = 0; i < 3; ++i)
        i < paused ? group.at(down[i]).pause() : group.at(down[i]).kill();
    LockctlCli lockctl(group);
    const LockctlRun r = lockctl({"--timeout-ms", "200", "acquire", "major", "--ttl", "10000"});
    for (int i = 0; i < paused; ++i)
        group.at(down[i]).resume();
    QVERIFY2(r.code == 3, qPrintable(r.describe()));
    QVERIFY2(r.ms < upperBoundMs(2000), qPrintable(r.describe())); // not the connections' timeouts
    QVERIFY(r.err.contains("masters answered"));
    // Nothing left behind on any live master (resumed ones included, once they have caught up: a
    // master drops lockctl's connection only after it has run everything lockctl sent on it).
    for (int i = 0; i < 5; ++i)
        if (group.at(i).isRunning())
            QVERIFY(waitForClientsGone(group.at(i), clientsBefore[i], 10000));
    QCOMPARE(group.countOf("major"), 0);
}

void TestLockctlWrite::forceReleaseAsksOrRefuses()
{
    RedisServerGroup group;
    QVERIFY(group.start(3));
    for (int i = 0; i < 3; ++i)
        group.at(i).command({"SET", "stuck", "x@y:1/0123456789abcdef0123456789abcdef", "PX", "60000"});
    LockctlCli lockctl(group);
    // No terminal to ask on and no --yes: refused rather than guessed.
    const LockctlRun unconfirmed = lockctl({"force-release", "stuck", "--any-token"});
    QVERIFY2(unconfirmed.code == 2, qPrintable(unconfirmed.describe()));
    QVERIFY(unconfirmed.err.contains("--yes"));
    QCOMPARE(group.countOf("stuck"), 3);
    QCOMPARE(lockctl.auditLines().last().value(QStringLiteral("outcome")).toString(),
             QStringLiteral("cancelled"));

    QCOMPARE(lockctl({"force-release", "stuck", "--yes"}).code, 2); // neither mode
    QCOMPARE(lockctl({"force-release", "stuck", "--any-token", "--expect-token", "t", "--yes"}).code, 2);

    const LockctlRun done = lockctl({"force-release", "stuck", "--any-token", "--yes"});
    QVERIFY2(done.code == 0, qPrintable(done.describe()));
    QCOMPARE(group.countOf("stuck"), 0);
    for (int i = 0; i < 3; ++i)
        QVERIFY(
            done.out.contains(QByteArray(group.at(i).url(false).toUtf8() + ": deleted (token was x@y:1/")));
    // Nothing there any more: exit 1.
    QCOMPARE(lockctl({"force-release", "stuck", "--any-token", "--yes"}).code, 1);
}

void TestLockctlWrite::forceReleaseConfirmsOnATerminal()
{
    // util-linux script(1) gives lockctl a pseudo-terminal as its standard input.
    const QString script = QStandardPaths::findExecutable(QStringLiteral("script"));
    if (script.isEmpty())
        QSKIP("script(1) is not installed");
    RedisServerGroup group;
    QVERIFY(group.start(3));
    for (int i = 0; i < 3; ++i)
        group.at(i).command({"SET", "tty", "x@y:1/0123456789abcdef0123456789abcdef", "PX", "60000"});
    LockctlCli lockctl(group);
    QStringList command{lockctlPath(), QStringLiteral("--audit-log"), lockctl.auditPath()};
    command << lockctl.masters();
    command << QStringLiteral("force-release") << QStringLiteral("tty") << QStringLiteral("--any-token");
    auto answer = [&](const QByteArray& reply) {
        QProcess p;
        p.setProcessEnvironment(testPasswordEnvironment());
        p.start(script,
                {QStringLiteral("-qec"), command.join(QLatin1Char(' ')), QStringLiteral("/dev/null")});
        p.write(reply);
        p.closeWriteChannel();
        p.waitForFinished(int(lockscope::test::upperBoundMs(20000)));
        return std::make_pair(p.exitCode(), p.readAllStandardOutput());
    };
    const auto [declined, declinedText] = answer("n\n");
    QCOMPARE(declined, 1);
    QVERIFY(declinedText.contains("[y/N]"));
    QCOMPARE(group.countOf("tty"), 3);
    const auto [accepted, acceptedText] = answer("y\n");
    QVERIFY2(accepted == 0, acceptedText.constData());
    QCOMPARE(group.countOf("tty"), 0);
}

void TestLockctlWrite::forceReleaseGuardedAndSubset()
{
    RedisServerGroup group;
    QVERIFY(group.start(3));
    const QByteArray mine = "a@b:1/0123456789abcdef0123456789abcdef";
    for (int i = 0; i < 3; ++i)
        group.at(i).command({"SET", "guarded", mine, "PX", "60000"});
    LockctlCli lockctl(group);
    const LockctlRun mismatch =
        lockctl({"force-release", "guarded", "--expect-token", "someone/else", "--yes"});
    QVERIFY2(mismatch.code == 1, qPrintable(mismatch.describe()));
    QVERIFY(mismatch.out.contains("spared: the lock changed hands"));
    QCOMPARE(group.countOf("guarded"), 3);

    const LockctlRun one = lockctl({"force-release", "guarded", "--expect-token", QString::fromUtf8(mine),
                                    "--on", group.at(1).url(false), "--yes", "--json"});
    QVERIFY2(one.code == 0, qPrintable(one.describe()));
    const QJsonObject json = QJsonDocument::fromJson(one.out).object();
    QCOMPARE(json.value(QStringLiteral("outcome")).toString(), QStringLiteral("done"));
    QCOMPARE(group.at(0).command({"EXISTS", "guarded"}).integer, 1);
    QCOMPARE(group.at(1).command({"EXISTS", "guarded"}).integer, 0);
    QCOMPARE(group.at(2).command({"EXISTS", "guarded"}).integer, 1);
    QCOMPARE(
        lockctl({"force-release", "guarded", "--any-token", "--on", "redis://127.0.0.1:1", "--yes"}).code, 2);
}

void TestLockctlWrite::forceReleaseRefusesKeysThatAreNoLocks()
{
    RedisServerGroup group;
    QVERIFY(group.start(3));
    for (int i = 0; i < 3; ++i)
        group.at(i).command({"RPUSH", "lock:jobs", "a"});
    LockctlCli lockctl(group);
    const LockctlRun refused = lockctl({"force-release", "lock:jobs", "--any-token", "--yes"});
    QVERIFY2(refused.code == 4, qPrintable(refused.describe()));
    QVERIFY(refused.err.contains("no lock"));
    QCOMPARE(group.countOf("lock:jobs"), 3);
    const LockctlRun insisted =
        lockctl({"force-release", "lock:jobs", "--any-token", "--yes", "--force-unknown"});
    QVERIFY2(insisted.code == 0, qPrintable(insisted.describe()));
    QCOMPARE(group.countOf("lock:jobs"), 0);
}

void TestLockctlWrite::forceReleaseRedissonReaderAsListed()
{
    RedisServerGroup group;
    QVERIFY(group.start(3));
    const QByteArray readerA = "8e2f2a47-51a1-4c5f-9b0a-1f2d3c4b5a69:57";
    const QByteArray readerB = "0b7c9d12-3e4f-4a5b-8c6d-7e8f9a0b1c2d:12";
    for (int i = 0; i < 3; ++i)
        for (const QByteArray& reader : {readerA, readerB}) {
            group.at(i).command({"HSET", "lock:catalog", "mode", "read", reader, "1"});
            group.at(i).command(
                {"SET", "{lock:catalog}:" + reader + ":rwlock_timeout:1", "1", "PX", "60000"});
            group.at(i).command({"PEXPIRE", "lock:catalog", "60000"});
        }
    LockctlCli lockctl(group);
    const LockctlRun listed = lockctl({"--json", "list", "--pattern", "lock:*"});
    QVERIFY2(listed.code == 0, qPrintable(listed.describe()));
    const QJsonArray locks =
        QJsonDocument::fromJson(listed.out).object().value(QStringLiteral("locks")).toArray();
    QCOMPARE(locks.size(), 1);
    const QString token = locks.first().toObject().value(QStringLiteral("token")).toString();
    QCOMPARE(token, QString::fromLatin1(readerB + ',' + readerA));

    // One holder: the preview names the commands, and the masters send exactly those.
    const LockctlRun one =
        lockctl({"force-release", "lock:catalog", "--expect-token", QString::fromLatin1(readerA), "--yes"});
    QVERIFY2(one.code == 0, qPrintable(one.describe()));
    QVERIFY2(one.out.contains("will: ") && one.out.contains(QByteArray("  HDEL lock:catalog " + readerA)) &&
                 one.out.contains(QByteArray("  sent: HDEL lock:catalog " + readerA)),
             qPrintable(one.describe()));
    for (int i = 0; i < 3; ++i) {
        QCOMPARE(group.at(i).command({"HEXISTS", "lock:catalog", readerA}).integer, 0);
        QCOMPARE(group.at(i).command({"HEXISTS", "lock:catalog", readerB}).integer, 1);
    }

    // The holder set as listed, in JSON: planned and sent commands are the same.
    const LockctlRun all = lockctl(
        {"force-release", "lock:catalog", "--expect-token", QString::fromLatin1(readerB), "--yes", "--json"});
    QVERIFY2(all.code == 0, qPrintable(all.describe()));
    const QJsonArray results =
        QJsonDocument::fromJson(all.out).object().value(QStringLiteral("results")).toArray();
    QCOMPARE(results.size(), 3);
    for (const QJsonValue& r : results) {
        const QJsonObject o = r.toObject();
        QCOMPARE(o.value(QStringLiteral("action")).toString(), QStringLiteral("deleted"));
        QCOMPARE(o.value(QStringLiteral("commands")), o.value(QStringLiteral("plannedCommands")));
        QVERIFY(!o.value(QStringLiteral("commands")).toArray().isEmpty());
    }
    QCOMPARE(group.countOf("lock:catalog"), 0);
}

void TestLockctlWrite::readOnlyRefusesEveryWriteButAudits()
{
    RedisServerGroup group;
    QVERIFY(group.start(3));
    for (int i = 0; i < 3; ++i)
        group.at(i).command({"SET", "ro", "x@y:1/0123456789abcdef0123456789abcdef", "PX", "60000"});
    LockctlCli lockctl(group);
    const QList<QStringList> writes{
        {"--read-only", "acquire", "ro2", "--ttl", "1000"},
        {"--read-only", "extend", "ro", "--token", "x@y:1/0123456789abcdef0123456789abcdef", "--ttl", "1000"},
        {"--read-only", "release", "ro", "--token", "x@y:1/0123456789abcdef0123456789abcdef"},
        {"--read-only", "force-release", "ro", "--any-token"},
        {"--read-only", "hold", "ro3", "--ttl", "1000", "--", "true"},
    };
    for (const QStringList& args : writes) {
        const LockctlRun r = lockctl(args);
        QVERIFY2(r.code == 4, qPrintable(r.describe()));
        QVERIFY(r.err.contains("read-only"));
    }
    for (int i = 0; i < 3; ++i) {
        QCOMPARE(group.at(i).command({"DBSIZE"}).integer, 1);
        QVERIFY(group.at(i).command({"PTTL", "ro"}).integer > 50000);
    }
    const QList<QJsonObject> lines = lockctl.auditLines();
    QCOMPARE(lines.size(), writes.size());
    for (const QJsonObject& line : lines)
        QCOMPARE(line.value(QStringLiteral("outcome")).toString(), QStringLiteral("refused"));
}

void TestLockctlWrite::auditLogHasNoPassword()
{
    RedisServerOptions options;
    options.password = distinctTestPassword(QStringLiteral("Hunter2-secret"));
    RedisServerGroup group;
    QVERIFY(group.start(3, options));
    LockctlCli lockctl(group); // URLs with the password in them
    const LockctlRun acquired = lockctl({"acquire", "pw", "--ttl", "10000", "--json"});
    QVERIFY2(acquired.code == 0, qPrintable(acquired.describe()));
    const QString token =
        QJsonDocument::fromJson(acquired.out).object().value(QStringLiteral("token")).toString();
    QCOMPARE(lockctl({"extend", "pw", "--token", token, "--ttl", "20000"}).code, 0);
    QCOMPARE(lockctl({"force-release", "pw", "--expect-token", token, "--yes"}).code, 0);
    QCOMPARE(lockctl({"release", "pw", "--token", token}).code, 1);
    QFile file(lockctl.auditPath());
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray all = file.readAll();
    QVERIFY(!all.contains(options.password.toUtf8()));
    const QList<QJsonObject> lines = lockctl.auditLines();
    QCOMPARE(lines.size(), 4);
    for (const QJsonObject& line : lines) {
        QCOMPARE(line.value(QStringLiteral("masters")).toArray().first().toString(), group.at(0).url(false));
        QCOMPARE(line.value(QStringLiteral("results")).toArray().size(), 3);
    }
}

void TestLockctlWrite::unrecordedWriteExitsFive()
{
    RedisServerGroup group;
    QVERIFY(group.start(3));
    LockctlCli lockctl(group);
    QCOMPARE(lockctl({"acquire", "first", "--ttl", "60000"}).code, 0); // the log exists, with a line
    // The disk is full from now on (RLIMIT_FSIZE, inherited by lockctl): the audit check still
    // opens the file, the masters take the write, and the append fails.
    std::signal(SIGXFSZ, SIG_IGN);
    rlimit saved = {};
    ::getrlimit(RLIMIT_FSIZE, &saved);
    rlimit full = saved;
    full.rlim_cur = rlim_t(QFileInfo(lockctl.auditPath()).size());
    ::setrlimit(RLIMIT_FSIZE, &full);
    const LockctlRun acquired = lockctl({"acquire", "unrecorded", "--ttl", "60000"});
    group.at(0).command({"SET", "theirs", "tok-x", "PX", "60000"});
    const LockctlRun forced = lockctl({"force-release", "theirs", "--expect-token", "tok-x", "--yes"});
    const LockctlRun held = lockctl({"hold", "held", "--ttl", "5000", "--", "true"});
    ::setrlimit(RLIMIT_FSIZE, &saved);

    QVERIFY2(acquired.code == 5, qPrintable(acquired.describe()));
    QVERIFY2(acquired.err.contains("AUDIT LOG NOT WRITTEN"), qPrintable(acquired.describe()));
    QVERIFY(acquired.out.startsWith(QByteArray(group.at(0).command({"GET", "unrecorded"}).string + '\n')));
    QCOMPARE(group.countOf("unrecorded"), 3); // it went through
    QVERIFY2(forced.code == 5, qPrintable(forced.describe()));
    QVERIFY(forced.err.contains("AUDIT LOG NOT WRITTEN"));
    QCOMPARE(group.countOf("theirs"), 0);
    // hold: the command ran and ended well, but the acquisition and release are not recorded.
    QVERIFY2(held.code == 5, qPrintable(held.describe()));
    QCOMPARE(held.err.count("AUDIT LOG NOT WRITTEN"), 2);
    QCOMPARE(group.countOf("held"), 0);
    QCOMPARE(lockctl.auditLines().size(), 1);
}

void TestLockctlWrite::sharedAuditLogIsRefusedUnlessAllowed()
{
    RedisServerGroup group;
    QVERIFY(group.start(3));
    LockctlCli lockctl(group);
    {
        QFile file(lockctl.auditPath());
        QVERIFY(file.open(QIODevice::WriteOnly));
    }
    QVERIFY(QFile::setPermissions(lockctl.auditPath(), QFile::ReadOwner | QFile::WriteOwner |
                                                           QFile::ReadGroup | QFile::ReadOther));
    const LockctlRun refused = lockctl({"acquire", "shared", "--ttl", "60000"});
    QVERIFY2(refused.code == 2, qPrintable(refused.describe()));
    QVERIFY2(refused.err.contains("0644"), qPrintable(refused.describe()));
    QCOMPARE(group.countOf("shared"), 0);
    QCOMPARE(lockctl({"force-release", "shared", "--any-token", "--yes"}).code, 2);
    const LockctlRun allowed = lockctl({"--allow-shared-audit-log", "acquire", "shared", "--ttl", "60000"});
    QVERIFY2(allowed.code == 0, qPrintable(allowed.describe()));
    QVERIFY(allowed.err.contains("warning: audit log"));
    QCOMPARE(group.countOf("shared"), 3);
    QCOMPARE(lockctl.auditLines().size(), 1);
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestLockctlWrite)

} // namespace tst_lockctlwrite

#include "tst_lockctlwrite.moc"
