// SPDX-License-Identifier: Apache-2.0
// The administrator's force-release against real masters: guarded by the expected token, any
// token, a subset of masters, what each lock library's waiters need (Redisson's unlock message,
// python-redis-lock's signal list, one semaphore holder rather than the semaphore), refusal of
// keys that are no locks, read-only mode in the core, and an audit line for every attempt.
// Redisson's own layouts: tst_forcerelease_redisson.
#include "support/forcereleasecluster.h"
#include "support/masterwait.h"
#include "support/testregistry.h"

#include <QDateTime>
#include <QFile>
#include <QJsonArray>
#include <QTest>

#include <memory>
#include <vector>

namespace tst_forcerelease {

using namespace lockscope;
using namespace lockscope::test;
using Action = ForceReleaseMasterResult::Action;

namespace {

constexpr char tokenA[] = "alice@host1:10/0123456789abcdef0123456789abcdef";
constexpr char tokenB[] = "bob@host2:20/fedcba9876543210fedcba9876543210";

} // namespace

class TestForceRelease : public QObject
{
    Q_OBJECT

private slots:
    void guardedSparesALockThatChangedHands();
    void anyTokenDeletesEverywhere();
    void subsetOfMasters();
    void redissonLockWakesItsWaiters();
    void pythonRedisLockSignalsItsList();
    void semaphoreLosesOneHolderOnly();
    void keysThatAreNoLocksAreRefused();
    void readOnlyRefusesButIsAudited();
    void unwritableAuditLogRefusesBeforeAnyMaster();
    void auditLinesAreJsonWithoutPasswords();
    void auditTimeIsWhenTheDeleteWasSent();
};

void TestForceRelease::guardedSparesALockThatChangedHands()
{
    ForceReleaseCluster c;
    QVERIFY(c.start());
    c.onAll({"SET", "job:build", tokenA, "PX", "60000"});
    const ForceReleasePlan plan = c.inspect(forceReleaseRequest("job:build", tokenA));
    QVERIFY(plan.refusal.isEmpty());
    QCOMPARE(plan.targets.size(), 5);
    QCOMPARE(plan.targets.first().lock.format, LockFormat::LockScope);
    QCOMPARE(plan.tokenSeen, QByteArray(tokenA));
    // Between the admin's look and the deletion, bob takes it over on masters 0-2.
    for (int i = 0; i < 3; ++i)
        c.group.at(i).command({"SET", "job:build", tokenB, "PX", "60000"});
    const ForceReleaseOutcome o = c.execute(plan);
    QCOMPARE(o.verdict, WriteVerdict::Done);
    for (int i = 0; i < 3; ++i) {
        QCOMPARE(o.results.at(i).action, Action::Spared);
        QCOMPARE(o.results.at(i).tokenBefore, QByteArray(tokenB));
        QCOMPARE(c.group.at(i).command({"GET", "job:build"}).string, QByteArray(tokenB));
    }
    for (int i = 3; i < 5; ++i) {
        QCOMPARE(o.results.at(i).action, Action::Deleted);
        QCOMPARE(o.results.at(i).tokenBefore, QByteArray(tokenA));
    }
    QCOMPARE(c.countOf("job:build"), 3);

    // Entirely someone else's now: nothing deleted at all.
    c.onAll({"SET", "job:build", tokenB, "PX", "60000"});
    const ForceReleaseOutcome none = c.run(forceReleaseRequest("job:build", tokenA));
    QCOMPARE(none.verdict, WriteVerdict::NotDone);
    QCOMPARE(c.countOf("job:build"), 5);
}

void TestForceRelease::anyTokenDeletesEverywhere()
{
    ForceReleaseCluster c;
    QVERIFY(c.start());
    c.onAll({"SET", "job:any", tokenA, "PX", "60000"});
    c.group.at(2).command({"SET", "job:any", tokenB, "PX", "60000"});
    c.group.at(4).command({"DEL", "job:any"});
    const ForceReleaseOutcome o = c.run(forceReleaseRequest("job:any", {}));
    QCOMPARE(o.verdict, WriteVerdict::Done);
    QCOMPARE(o.results.at(0).action, Action::Deleted);
    QCOMPARE(o.results.at(2).action, Action::Deleted);
    QCOMPARE(o.results.at(2).tokenBefore, QByteArray(tokenB));
    QCOMPARE(o.results.at(4).action, Action::Absent);
    QCOMPARE(c.countOf("job:any"), 0);
}

void TestForceRelease::subsetOfMasters()
{
    ForceReleaseCluster c;
    QVERIFY(c.start());
    c.onAll({"SET", "job:sub", tokenA, "PX", "60000"});
    ForceReleaseRequest r = forceReleaseRequest("job:sub", tokenA);
    r.masters = {1, 3};
    const ForceReleasePlan plan = c.inspect(r);
    QCOMPARE(plan.targets.size(), 2);
    const ForceReleaseOutcome o = c.execute(plan);
    QCOMPARE(o.verdict, WriteVerdict::Done);
    const QList<Action> expected{Action::NotChosen, Action::Deleted, Action::NotChosen, Action::Deleted,
                                 Action::NotChosen};
    for (int i = 0; i < 5; ++i) {
        QCOMPARE(o.results.at(i).action, expected.at(i));
        QCOMPARE(c.group.at(i).command({"EXISTS", "job:sub"}).integer, i == 1 || i == 3 ? 0 : 1);
    }
}

void TestForceRelease::redissonLockWakesItsWaiters()
{
    ForceReleaseCluster c;
    QVERIFY(c.start(3));
    const QByteArray field = "8e2f2a47-51a1-4c5f-9b0a-1f2d3c4b5a69:57";
    c.onAll({"HSET", "orders", field, "2"});
    c.onAll({"PEXPIRE", "orders", "30000"});
    // Redisson's waiters are subscribed to the lock's channel on each master.
    std::vector<std::unique_ptr<RedisConnection>> subscribers;
    int wakeUps = 0;
    for (int i = 0; i < 3; ++i) {
        auto s = std::make_unique<RedisConnection>(c.group.at(i).connectionOptions());
        connect(s.get(), &RedisConnection::messageReceived, this,
                [&wakeUps](const QByteArray&, const QByteArray& channel, const QByteArray& payload) {
                    if (channel == "redisson_lock__channel:{orders}" && payload == "0")
                        ++wakeUps;
                });
        s->psubscribe({"redisson_lock__channel:*"});
        s->open();
        subscribers.push_back(std::move(s));
    }
    QVERIFY(QTest::qWaitFor(
        [&] {
            return c.group.at(2).command({"PUBSUB", "NUMPAT"}).integer == 1;
        },
        int(lockscope::test::upperBoundMs(5000))));

    // The wrong holder: spared, and no waiter is woken for nothing.
    const ForceReleaseOutcome wrong =
        c.run(forceReleaseRequest("orders", "8e2f2a47-51a1-4c5f-9b0a-1f2d3c4b5a69:58"));
    QCOMPARE(wrong.verdict, WriteVerdict::NotDone);
    QCOMPARE(wrong.results.at(0).action, Action::Spared);
    QCOMPARE(c.countOf("orders"), 3);

    const ForceReleasePlan plan = c.inspect(forceReleaseRequest("orders", field));
    QCOMPARE(plan.targets.first().lock.format, LockFormat::Redisson);
    QCOMPARE(plan.redissonChannel, QByteArray("redisson_lock__channel:{orders}"));
    const ForceReleaseOutcome o = c.execute(plan);
    QCOMPARE(o.verdict, WriteVerdict::Done);
    QCOMPARE(c.countOf("orders"), 0);
    QVERIFY(QTest::qWaitFor([&] { return wakeUps == 3; }, int(lockscope::test::upperBoundMs(3000))));
    QTest::qWait(50);
    QCOMPARE(wakeUps, 3);
    QVERIFY(o.results.at(0).detail.contains(QLatin1String("published 0")));
    QCOMPARE(o.results.at(0).tokenBefore, field);
}

void TestForceRelease::pythonRedisLockSignalsItsList()
{
    ForceReleaseCluster c;
    QVERIFY(c.start(3));
    const QByteArray token = "Zm9vYmFyYmF6cXV4cXV1eHl6"; // 24 chars of unpadded base64, as it writes
    c.onAll({"SET", "lock:report", token, "EX", "100"});
    const ForceReleasePlan plan = c.inspect(forceReleaseRequest("lock:report", token));
    QCOMPARE(plan.targets.first().lock.format, LockFormat::PythonRedisLock);
    QCOMPARE(plan.signalKey, QByteArray("lock-signal:report"));
    const ForceReleaseOutcome o = c.execute(plan);
    QCOMPARE(o.verdict, WriteVerdict::Done);
    for (int i = 0; i < 3; ++i) {
        QCOMPARE(c.group.at(i).command({"EXISTS", "lock:report"}).integer, 0);
        // Its waiters BLPOP this list: one element, gone again within a second.
        const RedisReply list = c.group.at(i).command({"LRANGE", "lock-signal:report", "0", "-1"});
        QCOMPARE(list.elements.size(), 1);
        QCOMPARE(list.elements.first().string, QByteArray("1"));
        const qint64 pttl = c.group.at(i).command({"PTTL", "lock-signal:report"}).integer;
        QVERIFY(pttl > 0 && pttl <= 1000);
    }
}

void TestForceRelease::semaphoreLosesOneHolderOnly()
{
    ForceReleaseCluster c;
    QVERIFY(c.start(3));
    // redis-semaphore: one member per holder, multi-permit holders as <id>_<n>; score = ms timestamp.
    c.onAll({"ZADD", "semaphore:pool", "1700000000000", "3f1c7e2a-1111-4a4a-8b8b-000000000001",
             "1700000000001", "3f1c7e2a-2222-4a4a-8b8b-000000000002_0", "1700000000001",
             "3f1c7e2a-2222-4a4a-8b8b-000000000002_1", "1700000000002",
             "3f1c7e2a-3333-4a4a-8b8b-000000000003"});
    const ForceReleasePlan plan =
        c.inspect(forceReleaseRequest("semaphore:pool", "3f1c7e2a-2222-4a4a-8b8b-000000000002"));
    QVERIFY2(plan.refusal.isEmpty(), qPrintable(plan.refusal));
    QCOMPARE(plan.targets.first().lock.format, LockFormat::Semaphore);
    const ForceReleaseOutcome o = c.execute(plan);
    QCOMPARE(o.verdict, WriteVerdict::Done);
    for (int i = 0; i < 3; ++i) {
        QCOMPARE(o.results.at(i).action, Action::HolderRemoved);
        const RedisReply members = c.group.at(i).command({"ZRANGE", "semaphore:pool", "0", "-1"});
        QCOMPARE(members.elements.size(), 2);
        QCOMPARE(members.elements.at(0).string, QByteArray("3f1c7e2a-1111-4a4a-8b8b-000000000001"));
        QCOMPARE(members.elements.at(1).string, QByteArray("3f1c7e2a-3333-4a4a-8b8b-000000000003"));
    }
    // A holder that is not (or no longer) there: nothing removed.
    const ForceReleaseOutcome gone =
        c.run(forceReleaseRequest("semaphore:pool", "3f1c7e2a-2222-4a4a-8b8b-000000000002"));
    QCOMPARE(gone.verdict, WriteVerdict::NotDone);
    QCOMPARE(c.group.at(0).command({"ZCARD", "semaphore:pool"}).integer, 2);
}

void TestForceRelease::keysThatAreNoLocksAreRefused()
{
    ForceReleaseCluster c;
    QVERIFY(c.start(3));
    c.onAll({"RPUSH", "lock:queue", "a", "b"});      // a list is no lock
    c.onAll({"HSET", "lock:conf", "color", "blue"}); // a hash of no lock library's shape
    c.onAll({"RPUSH", "lock-signal:x", "1"});        // python-redis-lock's helper, not a lock itself
    for (const QByteArray& key :
         {QByteArray("lock:queue"), QByteArray("lock:conf"), QByteArray("lock-signal:x")}) {
        const ForceReleaseOutcome o = c.run(forceReleaseRequest(key, {}));
        QCOMPARE(o.verdict, WriteVerdict::Refused);
        QCOMPARE(o.error.kind, ErrorKind::NotALock);
        QCOMPARE(c.countOf(key), 3);
    }
    // Insisting deletes it.
    ForceReleaseRequest insist = forceReleaseRequest("lock:queue", {});
    insist.forceUnknown = true;
    const ForceReleaseOutcome o = c.run(insist);
    QCOMPARE(o.verdict, WriteVerdict::Done);
    QCOMPARE(c.countOf("lock:queue"), 0);
    // Each attempt, refused or not, was audited.
    const QList<QJsonObject> lines = c.auditLines();
    QCOMPARE(lines.size(), 4);
    QCOMPARE(lines.at(0).value(QStringLiteral("outcome")).toString(), QStringLiteral("refused"));
    QCOMPARE(lines.at(3).value(QStringLiteral("outcome")).toString(), QStringLiteral("done"));
}

void TestForceRelease::readOnlyRefusesButIsAudited()
{
    ForceReleaseCluster c;
    QVERIFY(c.start(3));
    c.onAll({"SET", "job:ro", tokenA, "PX", "60000"});
    c.config.readOnly = true;
    const ForceReleaseOutcome o = c.run(forceReleaseRequest("job:ro", {}));
    QCOMPARE(o.verdict, WriteVerdict::Refused);
    QCOMPARE(o.error.kind, ErrorKind::ReadOnlyMode);
    QCOMPARE(c.countOf("job:ro"), 3);
    const QList<QJsonObject> lines = c.auditLines();
    QCOMPARE(lines.size(), 1);
    QCOMPARE(lines.first().value(QStringLiteral("outcome")).toString(), QStringLiteral("refused"));
    QCOMPARE(lines.first().value(QStringLiteral("tokenBefore")).toString(), QString::fromLatin1(tokenA));
}

// The write rule (WriteGate) for force-release too: when the audit log cannot be written, nothing is
// sent to any master (the lock stays, no script ran), and read-only mode still comes first.
void TestForceRelease::unwritableAuditLogRefusesBeforeAnyMaster()
{
    ForceReleaseCluster c;
    QVERIFY(c.start(3));
    c.onAll({"SET", "job:unrecorded", tokenA, "PX", "60000"});
    const ForceReleasePlan plan = c.inspect(forceReleaseRequest("job:unrecorded", tokenA));
    QVERIFY(plan.refusal.isEmpty());
    QList<qint64> scripts;
    for (int i = 0; i < c.group.size(); ++i)
        scripts << succeededScripts(c.group.at(i));

    // A file where the log's directory should be: it cannot be opened, let alone appended to.
    const QString blocked = c.dir.filePath(QStringLiteral("blocked"));
    {
        QFile blocker(blocked);
        QVERIFY(blocker.open(QIODevice::WriteOnly));
    }
    c.audit = std::make_unique<AuditLog>(blocked + QStringLiteral("/audit.jsonl"));
    const ForceReleaseOutcome o = c.execute(plan);
    QCOMPARE(o.verdict, WriteVerdict::Invalid); // lockctl: exit 2, as before
    QCOMPARE(o.error.kind, ErrorKind::Io);
    QVERIFY2(o.error.message.contains(QStringLiteral("force-release refused, nothing was sent")),
             qPrintable(o.error.message));
    for (const ForceReleaseMasterResult& r : o.results)
        QCOMPARE(r.action, Action::NotSent);
    for (int i = 0; i < c.group.size(); ++i) {
        QCOMPARE(c.group.at(i).command({"GET", "job:unrecorded"}).string, QByteArray(tokenA));
        QCOMPARE(succeededScripts(c.group.at(i)), scripts.at(i));
    }

    // Read-only mode wins over the unwritable log; its refusal cannot be recorded either.
    c.config.readOnly = true;
    const ForceReleaseOutcome readOnly = c.execute(plan);
    QCOMPARE(readOnly.verdict, WriteVerdict::Refused);
    QCOMPARE(readOnly.error.kind, ErrorKind::ReadOnlyMode);
    QCOMPARE(readOnly.error.message, QStringLiteral("read-only mode: force-release refused"));
    QVERIFY(readOnly.auditError.isError());
    QVERIFY(!readOnly.auditLost()); // nothing was sent: no write went unrecorded
    QCOMPARE(c.countOf("job:unrecorded"), 3);
}

void TestForceRelease::auditLinesAreJsonWithoutPasswords()
{
    ForceReleaseCluster c;
    RedisServerOptions options;
    options.password = distinctTestPassword(QStringLiteral("s3cret-Pa55word"));
    QVERIFY(c.start(3, options));
    QVERIFY(c.config.masters.first().url.password() == options.password);
    c.onAll({"SET", "job:pw", tokenA, "PX", "60000"});
    const ForceReleaseOutcome o = c.run(forceReleaseRequest("job:pw", tokenA));
    QCOMPARE(o.verdict, WriteVerdict::Done);

    QFile file(c.audit->path());
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray all = file.readAll();
    QVERIFY(!all.contains(options.password.toUtf8()));
    const QList<QJsonObject> lines = c.auditLines();
    QCOMPARE(lines.size(), 1);
    const QJsonObject line = lines.first();
    QCOMPARE(line.value(QStringLiteral("action")).toString(), QStringLiteral("force-release"));
    QCOMPARE(line.value(QStringLiteral("resource")).toString(), QStringLiteral("job:pw"));
    QCOMPARE(line.value(QStringLiteral("expectedToken")).toString(), QString::fromLatin1(tokenA));
    QCOMPARE(line.value(QStringLiteral("tokenBefore")).toString(), QString::fromLatin1(tokenA));
    QVERIFY(!line.value(QStringLiteral("user")).toString().isEmpty());
    QVERIFY(!line.value(QStringLiteral("host")).toString().isEmpty());
    QVERIFY(
        QDateTime::fromString(line.value(QStringLiteral("time")).toString(), Qt::ISODateWithMs).isValid());
    QVERIFY(line.value(QStringLiteral("time")).toString().endsWith(QLatin1Char('Z')));
    const QJsonArray masters = line.value(QStringLiteral("masters")).toArray();
    QCOMPARE(masters.size(), 3);
    QCOMPARE(masters.first().toString(), c.group.at(0).url(false));
    const QJsonArray results = line.value(QStringLiteral("results")).toArray();
    QCOMPARE(results.size(), 3);
    QCOMPARE(results.first().toObject().value(QStringLiteral("result")).toString(),
             QStringLiteral("deleted"));
}

// A recorder stamps the delete when it sees it; the audit line, which the recorder turns into the
// "force-released" event, must not come after that (a recorder that saw the delete sooner told the
// story as "released", then "force-released"). So the line's time is when the delete was sent: here
// the master holds the delete back for 800 ms, and the line names the moment it went out.
void TestForceRelease::auditTimeIsWhenTheDeleteWasSent()
{
    ForceReleaseCluster c;
    QVERIFY(c.start(1));
    c.onAll({"SET", "job:slow", tokenA, "PX", "60000"});
    const ForceReleasePlan plan = c.inspect(forceReleaseRequest("job:slow", tokenA));
    QVERIFY(plan.refusal.isEmpty());
    QCOMPARE(c.group.at(0).command({"CLIENT", "PAUSE", "800", "WRITE"}).string, QByteArray("OK"));
    const qint64 before = QDateTime::currentMSecsSinceEpoch();
    const ForceReleaseOutcome o = c.execute(plan);
    const qint64 after = QDateTime::currentMSecsSinceEpoch();
    QCOMPARE(o.verdict, WriteVerdict::Done);
    QVERIFY2(after - before >= 700, qPrintable(QString::number(after - before))); // the pause held it
    const QList<QJsonObject> lines = c.auditLines();
    QCOMPARE(lines.size(), 1);
    const qint64 stamped =
        QDateTime::fromString(lines.first().value(QStringLiteral("time")).toString(), Qt::ISODateWithMs)
            .toMSecsSinceEpoch();
    QVERIFY2(
        stamped >= before && stamped < before + (after - before) / 2,
        qPrintable(
            QStringLiteral("sent from %1, answered %2, stamped %3").arg(before).arg(after).arg(stamped)));
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestForceRelease)

} // namespace tst_forcerelease

#include "tst_forcerelease.moc"
