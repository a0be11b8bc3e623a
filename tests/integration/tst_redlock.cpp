// SPDX-License-Identifier: Apache-2.0
// The Redlock core against 5 real masters: acquire, extend, release, the per-master timeout and
// its multiplexing, faults (dead and paused masters), retries, the auto-extending keeper, and
// read-only mode enforced in the core itself.
#include "audit/auditlog.h"
#include "base/monotonicclock.h"
#include "locking/lockkeeper.h"
#include "locking/redlock.h"
#include "support/masterwait.h"
#include "support/redisservergroup.h"
#include "support/testregistry.h"
#include "support/timebound.h"
#include "topology/masterset.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <memory>
#include <optional>

namespace tst_redlock {

using namespace lockscope;
using namespace lockscope::test;

namespace {

// Five masters, connections up, and a Redlock over them.
struct Cluster
{
    RedisServerGroup group;
    std::unique_ptr<MasterSet> masters;
    LockScopeConfig config;

    bool start(int count = 5, int connectionTimeoutMs = 2000)
    {
        if (!group.start(count))
            return false;
        config.masters = group.connectionOptions(int(upperBoundMs(connectionTimeoutMs)));
        for (ConnectionOptions& m : config.masters)
            m.healthIntervalMs = 0;
        // The per-master timeout (50 ms) presumes a server that answers in well under that: on a
        // loaded machine under the sanitizers a healthy master may not, and a test that is not about
        // the timeout would fail on the machine's speed. Tests about the timeout set their own.
        config.redlock.masterTimeoutMs = int(upperBoundMs(config.redlock.masterTimeoutMs));
        masters = std::make_unique<MasterSet>(config.masters);
        masters->open();
        return QTest::qWaitFor([this] { return masters->upCount() == masters->size(); },
                               int(upperBoundMs(5000)));
    }

    // Every master's value for `key` (empty QByteArray for a missing key or a dead master).
    QByteArrayList values(const QByteArray& key)
    {
        QByteArrayList out;
        for (int i = 0; i < group.size(); ++i)
            out << (group.at(i).isRunning() ? group.at(i).command({"GET", key}).string : QByteArray());
        return out;
    }

    // Waits until every master holds `token` under `key`: a write decided at quorum has then landed
    // on the others too.
    bool waitForToken(const QByteArray& key, const QByteArray& token)
    {
        return QTest::qWaitFor([&] { return values(key) == QByteArrayList(group.size(), token); },
                               int(upperBoundMs(5000)));
    }

    // Waits until each of `which` masters has run a SET and then a token script (the release queued
    // behind it): a paused master's late write and its clean-up have both landed.
    bool waitForSetAndRelease(const QList<int>& which)
    {
        return QTest::qWaitFor(
            [&] {
                for (int i : which)
                    if (succeededCalls(group.at(i), "set") < 1 || succeededScripts(group.at(i)) < 1)
                        return false;
                return true;
            },
            int(upperBoundMs(5000)));
    }
};

RedlockOutcome wait(const std::function<void(Redlock::Done)>& start, int ms = 10000)
{
    std::optional<RedlockOutcome> result;
    start([&](const RedlockOutcome& o) { result = o; });
    if (!QTest::qWaitFor([&] { return result.has_value(); }, ms))
        qFatal("no outcome within %d ms", ms);
    return *result;
}

} // namespace

class TestRedlock : public QObject
{
    Q_OBJECT

private slots:
    void acquireExtendRelease();
    void tokensAreRandomWithOwner();
    void contendedAcquireFailsAndLeavesNothing();
    void failureReleasesOnEveryMasterIncludingSilentOnes();
    void minorityDownStillAcquires();
    void majorityDownIsUnavailableAndLeavesNothing();
    void pausedMastersCountAsDownWithinTheTimeout();
    void mastersAreAskedAtOnce();
    void validityIsTtlMinusElapsedMinusDrift();
    void retriesAfterRandomDelay();
    void extendNeedsQuorumAndTime();
    void releaseAfterScriptFlush();
    void releaseWaitsForSlowMasters();
    void keeperExtendsUntilReleased();
    void keeperReportsLoss();
    void readOnlyRefusesEveryWriteInTheCore();
    void invalidArguments();
};

void TestRedlock::acquireExtendRelease()
{
    Cluster c;
    QVERIFY(c.start());
    const QTemporaryDir dir;
    const AuditLog audit(dir.filePath(QStringLiteral("audit.jsonl")));
    Redlock redlock(c.masters.get(), c.config, &audit);
    const RedlockOutcome acquired =
        wait([&](auto done) { redlock.acquire("res:a", 10000, QString(), done); });
    QVERIFY2(acquired.ok(), qPrintable(acquired.error.message));
    QVERIFY(acquired.succeeded >= 3);
    QCOMPARE(acquired.total, 5);
    QCOMPARE(acquired.needed, 3);
    QVERIFY(c.waitForToken("res:a", acquired.lease.token)); // decided at quorum; the others land too
    for (int i = 0; i < 5; ++i) {
        const qint64 pttl = c.group.at(i).command({"PTTL", "res:a"}).integer;
        QVERIFY(pttl > 9000 && pttl <= 10000);
    }

    const RedlockOutcome extended = wait([&](auto done) { redlock.extend(acquired.lease, 30000, done); });
    QVERIFY2(extended.ok(), qPrintable(extended.error.message));
    QVERIFY(extended.lease.validityMs > 29000 &&
            extended.lease.validityMs <= 30000 - c.config.driftMs(30000));
    // Decided at quorum: wait until every master has the longer TTL.
    QVERIFY(QTest::qWaitFor(
        [&] {
            for (int i = 0; i < 5; ++i)
                if (c.group.at(i).command({"PTTL", "res:a"}).integer <= 25000)
                    return false;
            return true;
        },
        int(upperBoundMs(5000))));

    const RedlockOutcome released = wait([&](auto done) { redlock.release(extended.lease, done); });
    QVERIFY(released.ok());
    QCOMPARE(released.succeeded, 5);
    for (const QByteArray& v : c.values("res:a"))
        QVERIFY(v.isEmpty());
    // Releasing again finds nothing: NotDone, and each master said "absent".
    const RedlockOutcome again = wait([&](auto done) { redlock.release(extended.lease, done); });
    QCOMPARE(again.verdict, WriteVerdict::NotDone);
    QCOMPARE(again.answered, 5);

    // Every write attempt is one JSON line, in order.
    QFile file(audit.path());
    QVERIFY(file.open(QIODevice::ReadOnly));
    QStringList actions;
    while (!file.atEnd()) {
        const QJsonObject line = QJsonDocument::fromJson(file.readLine()).object();
        QVERIFY(!line.isEmpty());
        actions << line.value(QStringLiteral("action")).toString();
        QCOMPARE(line.value(QStringLiteral("token")).toString(), QString::fromUtf8(acquired.lease.token));
        QCOMPARE(line.value(QStringLiteral("masters")).toArray().size(), 5);
    }
    QCOMPARE(actions, QStringList({"acquire", "extend", "release", "release"}));
}

void TestRedlock::tokensAreRandomWithOwner()
{
    Cluster c;
    QVERIFY(c.start(1));
    Redlock redlock(c.masters.get(), c.config);
    const RedlockOutcome a = wait([&](auto done) { redlock.acquire("res:o", 5000, "ops@box:42", done); });
    const RedlockOutcome b = wait([&](auto done) { redlock.acquire("res:p", 5000, QString(), done); });
    QVERIFY(a.ok() && b.ok());
    QVERIFY(QRegularExpression(QStringLiteral("^ops@box:42/[0-9a-f]{32}$"))
                .match(QString::fromUtf8(a.lease.token))
                .hasMatch());
    QVERIFY(QRegularExpression(QStringLiteral("^[0-9a-f]{32}$"))
                .match(QString::fromUtf8(b.lease.token))
                .hasMatch());
    QCOMPARE(c.group.at(0).command({"GET", "res:o"}).string, a.lease.token);
}

void TestRedlock::contendedAcquireFailsAndLeavesNothing()
{
    Cluster c;
    QVERIFY(c.start());
    for (int i = 0; i < 5; ++i)
        c.group.at(i).command({"SET", "res:c", "someone-else", "PX", "60000"});
    c.config.redlock.retryCount = 2;
    c.config.redlock.retryDelayMs = 10;
    Redlock redlock(c.masters.get(), c.config);
    const RedlockOutcome o = wait([&](auto done) { redlock.acquire("res:c", 10000, QString(), done); });
    QCOMPARE(o.verdict, WriteVerdict::NotDone);
    QCOMPARE(o.attempts, 3);
    QCOMPARE(o.succeeded, 0);
    for (const QByteArray& v : c.values("res:c"))
        QCOMPARE(v, QByteArray("someone-else"));
}

void TestRedlock::failureReleasesOnEveryMasterIncludingSilentOnes()
{
    Cluster c;
    QVERIFY(c.start());
    // Someone holds masters 0-2; master 4 will not answer in time, but gets our SET later.
    for (int i = 0; i < 3; ++i)
        c.group.at(i).command({"SET", "res:s", "someone-else", "PX", "60000"});
    c.config.redlock.retryCount = 0;
    c.config.redlock.masterTimeoutMs = int(upperBoundMs(100)); // healthy masters answer within it
    Redlock redlock(c.masters.get(), c.config);
    redlock.setWaitForAllMasters(true);
    c.group.at(4).pause();
    const RedlockOutcome o = wait([&](auto done) { redlock.acquire("res:s", 10000, QString(), done); });
    c.group.at(4).resume();
    QCOMPARE(o.verdict, WriteVerdict::NotDone);
    QCOMPARE(o.votes.at(4).answer, MasterVote::Answer::Failed);
    QCOMPARE(o.votes.at(4).error.kind, ErrorKind::Timeout);
    QCOMPARE(o.votes.at(3).answer, MasterVote::Answer::Yes);
    // The paused master ran our late SET and then the release queued behind it: nothing of ours
    // is left anywhere, and the other holder is untouched.
    QVERIFY(c.waitForSetAndRelease({3, 4}));
    const QByteArrayList values = c.values("res:s");
    QCOMPARE(values, QByteArrayList({"someone-else", "someone-else", "someone-else", "", ""}));
}

void TestRedlock::minorityDownStillAcquires()
{
    Cluster c;
    QVERIFY(c.start());
    c.group.at(1).kill();
    c.group.at(3).kill();
    QVERIFY(
        QTest::qWaitFor([&] { return c.masters->upCount() == 3; }, int(lockscope::test::upperBoundMs(3000))));
    Redlock redlock(c.masters.get(), c.config);
    redlock.setWaitForAllMasters(true);
    const RedlockOutcome o = wait([&](auto done) { redlock.acquire("res:m", 10000, QString(), done); });
    QVERIFY2(o.ok(), qPrintable(o.error.message));
    QCOMPARE(o.succeeded, 3);
    QCOMPARE(o.votes.at(1).answer, MasterVote::Answer::Failed);
    QVERIFY(o.lease.validityMs > 9000);
}

void TestRedlock::majorityDownIsUnavailableAndLeavesNothing()
{
    Cluster c;
    QVERIFY(c.start());
    c.group.at(0).kill();
    c.group.at(2).kill();
    c.group.at(4).kill();
    Redlock redlock(c.masters.get(), c.config);
    const RedlockOutcome o = wait([&](auto done) { redlock.acquire("res:d", 10000, QString(), done); });
    QCOMPARE(o.verdict, WriteVerdict::Unavailable);
    QVERIFY(o.answered < 3);
    QVERIFY(c.group.at(1).command({"EXISTS", "res:d"}).integer == 0);
    QVERIFY(c.group.at(3).command({"EXISTS", "res:d"}).integer == 0);
}

void TestRedlock::pausedMastersCountAsDownWithinTheTimeout()
{
    Cluster c;
    QVERIFY(c.start(5, 5000)); // the connections would wait 5 s; Redlock must not
    c.config.redlock.retryCount = 0;
    c.config.redlock.masterTimeoutMs = 50;
    Redlock redlock(c.masters.get(), c.config);
    for (int i : {0, 1, 2})
        c.group.at(i).pause();
    const qint64 start = monotonicNs();
    const RedlockOutcome o = wait([&](auto done) { redlock.acquire("res:p", 10000, QString(), done); });
    const qint64 tookMs = (monotonicNs() - start) / 1000000;
    for (int i : {0, 1, 2})
        c.group.at(i).resume();
    QCOMPARE(o.verdict, WriteVerdict::Unavailable);
    // Not the connections' 5 s: the 50 ms master timeout (scaled: only "did not wait 5 s" is claimed).
    QVERIFY2(tookMs < upperBoundMs(1000), qPrintable(QString::number(tookMs)));
    for (int i : {0, 1, 2})
        QCOMPARE(o.votes.at(i).error.kind, ErrorKind::Timeout);
    // Once the paused masters run again, the release sent after the failure removes the late SETs.
    QVERIFY(c.waitForSetAndRelease({0, 1, 2}));
    for (const QByteArray& v : c.values("res:p"))
        QVERIFY(v.isEmpty());
}

void TestRedlock::mastersAreAskedAtOnce()
{
    // Two silent masters: asked one after another they would cost two timeouts; multiplexed, one.
    Cluster c;
    QVERIFY(c.start(5, 5000));
    // Healthy masters answer well within it, loaded and under the sanitizers too: scaled.
    const int timeoutMs = int(upperBoundMs(150));
    c.config.redlock.masterTimeoutMs = timeoutMs;
    Redlock redlock(c.masters.get(), c.config);
    redlock.setWaitForAllMasters(true);
    c.group.at(0).pause();
    c.group.at(4).pause();
    const RedlockOutcome o = wait([&](auto done) { redlock.acquire("res:x", 10000, QString(), done); });
    c.group.at(0).resume();
    c.group.at(4).resume();
    QVERIFY(o.ok());
    QCOMPARE(o.succeeded, 3);
    // At least one timeout; below two (sequential asking would cost two).
    QVERIFY2(o.elapsedUs >= timeoutMs * qint64(1000) && o.elapsedUs < 2 * timeoutMs * qint64(1000),
             qPrintable(QString::number(o.elapsedUs)));
    // Decided at quorum (the default), the silent masters cost nothing at all.
    Redlock fast(c.masters.get(), c.config);
    c.group.at(0).pause();
    c.group.at(4).pause();
    const RedlockOutcome quick = wait([&](auto done) { fast.acquire("res:y", 10000, QString(), done); });
    c.group.at(0).resume();
    c.group.at(4).resume();
    QVERIFY(quick.ok());
    QVERIFY2(quick.elapsedUs < upperBoundMs(100) * 1000, qPrintable(QString::number(quick.elapsedUs)));
}

void TestRedlock::validityIsTtlMinusElapsedMinusDrift()
{
    Cluster c;
    QVERIFY(c.start());
    c.config.redlock.driftFactor = 0.1; // large enough to see
    c.config.redlock.driftConstantMs = 7;
    Redlock redlock(c.masters.get(), c.config);
    const qint64 before = monotonicNs();
    const RedlockOutcome o = wait([&](auto done) { redlock.acquire("res:v", 1000, QString(), done); });
    QVERIFY(o.ok());
    QCOMPARE(c.config.driftMs(1000), qint64(107));
    const qint64 elapsedMs = (o.elapsedUs + 999) / 1000;
    QVERIFY2(o.lease.validityMs <= 1000 - 107 && o.lease.validityMs >= 1000 - 107 - elapsedMs - 1,
             qPrintable(QString::number(o.lease.validityMs)));
    QVERIFY(o.lease.startedAtNs >= before);
    QCOMPARE(o.lease.validUntilNs, o.lease.startedAtNs + (1000 - 107) * qint64(1000000));

    // A TTL shorter than the drift can never give positive validity: not acquired, and released.
    const RedlockOutcome none = wait([&](auto done) { redlock.acquire("res:w", 5, QString(), done); });
    QCOMPARE(none.verdict, WriteVerdict::NotDone);
    QVERIFY(none.succeeded >= 3);
    QVERIFY(c.waitForSetAndRelease({0, 1, 2, 3, 4}));
    for (const QByteArray& v : c.values("res:w"))
        QVERIFY(v.isEmpty());
}

void TestRedlock::retriesAfterRandomDelay()
{
    Cluster c;
    QVERIFY(c.start());
    // Someone else's lock for longer than a few attempts take, on a loaded machine too; and retries
    // enough to outlast it however many attempts fit.
    const qint64 theirsMs = upperBoundMs(250);
    for (int i = 0; i < 5; ++i)
        c.group.at(i).command({"SET", "res:r", "someone-else", "PX", QByteArray::number(theirsMs)});
    c.config.redlock.retryCount = 100000;
    c.config.redlock.retryDelayMs = 60;
    c.config.redlock.retryJitterMs = 30;
    Redlock redlock(c.masters.get(), c.config);
    const qint64 start = monotonicNs();
    const RedlockOutcome o = wait([&](auto done) { redlock.acquire("res:r", 10000, QString(), done); });
    const qint64 tookMs = (monotonicNs() - start) / 1000000;
    QVERIFY2(o.ok(), qPrintable(o.error.message));
    QVERIFY(o.attempts >= 3); // 250 ms (or more) of someone else's lock, 30-90 ms between attempts
    QVERIFY2(tookMs >= theirsMs - 10, qPrintable(QString::number(tookMs)));
}

void TestRedlock::extendNeedsQuorumAndTime()
{
    Cluster c;
    QVERIFY(c.start());
    Redlock redlock(c.masters.get(), c.config);
    const RedlockOutcome o = wait([&](auto done) { redlock.acquire("res:e", 10000, QString(), done); });
    QVERIFY(o.ok());
    QVERIFY(c.waitForToken("res:e", o.lease.token)); // decided at quorum: let the others land first
    // Lost on three masters (expired there, or deleted by an admin): no quorum to extend.
    for (int i = 0; i < 3; ++i)
        c.group.at(i).command({"DEL", "res:e"});
    redlock.setWaitForAllMasters(true); // count every master's answer, not just up to the decision
    const RedlockOutcome e = wait([&](auto done) { redlock.extend(o.lease, 20000, done); });
    QCOMPARE(e.verdict, WriteVerdict::NotDone);
    QCOMPARE(e.succeeded, 2);
    QCOMPARE(e.answered, 5);

    // A lease whose validity is over is not extended at all, even if the keys are still there.
    const RedlockOutcome short_ = wait([&](auto done) { redlock.acquire("res:f", 100, QString(), done); });
    QVERIFY(short_.ok());
    QVERIFY(QTest::qWaitFor([&] { return monotonicNs() > short_.lease.validUntilNs; },
                            int(lockscope::test::upperBoundMs(5000))));
    for (int i = 0; i < 5; ++i)
        c.group.at(i).command({"SET", "res:f", short_.lease.token, "PX", "60000"}); // as if expiry lagged
    const RedlockOutcome late = wait([&](auto done) { redlock.extend(short_.lease, 20000, done); });
    QCOMPARE(late.verdict, WriteVerdict::NotDone);
    QCOMPARE(late.succeeded, 0);
    QVERIFY(c.group.at(0).command({"PTTL", "res:f"}).integer <= 60000);
    QVERIFY(c.group.at(0).command({"PTTL", "res:f"}).integer > 50000);
}

void TestRedlock::releaseAfterScriptFlush()
{
    Cluster c;
    QVERIFY(c.start());
    Redlock redlock(c.masters.get(), c.config);
    const RedlockOutcome o = wait([&](auto done) { redlock.acquire("res:n", 10000, QString(), done); });
    QVERIFY(o.ok());
    QVERIFY(wait([&](auto done) { redlock.extend(o.lease, 10000, done); }).ok()); // scripts now cached
    for (int i = 0; i < 5; ++i)
        c.group.at(i).command({"SCRIPT", "FLUSH"});
    const RedlockOutcome r = wait([&](auto done) { redlock.release(o.lease, done); });
    QVERIFY(r.ok());
    QCOMPARE(r.succeeded, 5);
}

void TestRedlock::releaseWaitsForSlowMasters()
{
    // Three masters hold their writes back 300 ms (longer than the 50 ms per-master timeout of an
    // acquisition, shorter than the connections' command timeout): they do release, and the
    // outcome must say so rather than "only 2 of 5 masters answered".
    Cluster c;
    QVERIFY(c.start());
    c.config.redlock.masterTimeoutMs = 50;
    Redlock redlock(c.masters.get(), c.config);
    const RedlockOutcome o = wait([&](auto done) { redlock.acquire("res:slow", 60000, QString(), done); });
    QVERIFY(o.ok());
    QVERIFY(c.waitForToken("res:slow", o.lease.token));
    for (int i : {0, 2, 4})
        c.group.at(i).command({"CLIENT", "PAUSE", "300", "WRITE"});
    const qint64 start = monotonicNs();
    const RedlockOutcome r = wait([&](auto done) { redlock.release(o.lease, done); });
    const qint64 tookMs = (monotonicNs() - start) / 1000000;
    QVERIFY2(r.ok(), qPrintable(r.error.message));
    QCOMPARE(r.succeeded, 5);
    QVERIFY2(tookMs >= 250, qPrintable(QString::number(tookMs))); // the pause was real
    QCOMPARE(c.values("res:slow"), QByteArrayList(5, QByteArray()));
}

void TestRedlock::keeperExtendsUntilReleased()
{
    Cluster c;
    QVERIFY(c.start());
    Redlock redlock(c.masters.get(), c.config);
    // A lease long enough that a loaded machine's scheduling delays (seconds, under the sanitizers
    // beside a build) do not eat the time between two extensions, which is not what this test is
    // about (keeperReportsLoss is): 1.5 s on an idle machine, scaled like an upper bound. The scale
    // is read once, here: CI once lost a half-second lease on a fresh machine to a burst that came
    // after it (both tst_redlock runs at once, each beside the other's five masters), when a few
    // extensions in a row could not reach a quorum within the per-master timeout.
    const qint64 ttlMs = upperBoundMs(1500);
    const RedlockOutcome o = wait([&](auto done) { redlock.acquire("res:k", ttlMs, QString(), done); });
    QVERIFY(o.ok());
    LockKeeper keeper(&redlock, o.lease);
    QSignalSpy extended(&keeper, &LockKeeper::extended);
    QSignalSpy lost(&keeper, &LockKeeper::lost);
    keeper.start();
    // Kept for more than two TTLs: six extensions, and the clock past two TTLs.
    QTRY_VERIFY_WITH_TIMEOUT(
        !lost.isEmpty() ||
            (extended.count() >= 6 && monotonicNs() > o.lease.startedAtNs + 2 * ttlMs * qint64(1000000)),
        int(3 * ttlMs + 2000));
    QVERIFY2(lost.isEmpty(), qPrintable(lost.value(0).value(0).toString()));
    for (int i = 0; i < 5; ++i)
        QCOMPARE(c.group.at(i).command({"GET", "res:k"}).string, o.lease.token);
    const RedlockOutcome r = wait([&](auto done) { keeper.release(done); });
    QVERIFY(r.ok());
    // Released, the keeper extends no more: over some three of its extension periods (a third of
    // the remaining validity), not one more. This wait is the observation window of a
    // "never", not a stand-in for an event.
    const qsizetype extensionsAtRelease = extended.count();
    QTest::qWait(int(ttlMs));
    QCOMPARE(extended.count(), extensionsAtRelease);
    QVERIFY(!keeper.isLost());
    for (const QByteArray& v : c.values("res:k"))
        QVERIFY(v.isEmpty());
}

void TestRedlock::keeperReportsLoss()
{
    Cluster c;
    QVERIFY(c.start());
    // The keeper gives up about one per-master timeout before the validity ends (it retries while a
    // retry could land in time): a lease of twelve of them, 600 ms on an idle machine. Both scale
    // (Cluster::start), so a loaded machine's late timers stay inside that margin.
    const qint64 leaseMs = 12 * qint64(c.config.redlock.masterTimeoutMs);
    Redlock redlock(c.masters.get(), c.config);
    const RedlockOutcome o = wait([&](auto done) { redlock.acquire("res:l", leaseMs, QString(), done); });
    QVERIFY(o.ok());
    LockKeeper keeper(&redlock, o.lease);
    QSignalSpy lost(&keeper, &LockKeeper::lost);
    keeper.start();
    QVERIFY(c.waitForToken("res:l", o.lease.token)); // decided at quorum: let the others land first
    // An administrator takes it away on a majority: the next extension finds it gone.
    for (int i = 0; i < 3; ++i)
        c.group.at(i).command({"DEL", "res:l"});
    QVERIFY(lost.wait(int(upperBoundMs(1000) + leaseMs)));
    QVERIFY(keeper.isLost());
    QVERIFY(lost.first().first().toString().contains(QLatin1String("no longer held")));

    // Masters that stop answering: the keeper retries while it can, then gives the lock up before
    // its validity runs out.
    const RedlockOutcome p = wait([&](auto done) { redlock.acquire("res:q", leaseMs, QString(), done); });
    QVERIFY(p.ok());
    LockKeeper second(&redlock, p.lease);
    QSignalSpy lost2(&second, &LockKeeper::lost);
    qint64 lostAtNs = 0; // when the keeper said so, not when the test got to look
    connect(&second, &LockKeeper::lost, this, [&] { lostAtNs = monotonicNs(); });
    second.start();
    for (int i = 0; i < 3; ++i)
        c.group.at(i).pause();
    QVERIFY(lost2.wait(int(upperBoundMs(2000) + leaseMs)));
    QVERIFY2(lostAtNs > 0 && lostAtNs <= p.lease.validUntilNs,
             qPrintable(QStringLiteral("lost %1 us after the validity ended")
                            .arg((lostAtNs - p.lease.validUntilNs) / 1000)));
    for (int i = 0; i < 3; ++i)
        c.group.at(i).resume();
}

void TestRedlock::readOnlyRefusesEveryWriteInTheCore()
{
    Cluster c;
    QVERIFY(c.start());
    c.config.readOnly = true;
    const QTemporaryDir dir;
    const AuditLog audit(dir.filePath(QStringLiteral("audit.jsonl")));
    Redlock redlock(c.masters.get(), c.config, &audit);
    RedlockLease lease;
    lease.resource = "res:ro";
    lease.token = "tok";
    const RedlockOutcome a = wait([&](auto done) { redlock.acquire("res:ro", 10000, QString(), done); });
    const RedlockOutcome e = wait([&](auto done) { redlock.extend(lease, 10000, done); });
    const RedlockOutcome r = wait([&](auto done) { redlock.release(lease, done); });
    for (const RedlockOutcome& o : {a, e, r}) {
        QCOMPARE(o.verdict, WriteVerdict::Refused);
        QCOMPARE(o.error.kind, ErrorKind::ReadOnlyMode);
        QVERIFY(o.error.message.contains(QLatin1String("read-only")));
    }
    for (int i = 0; i < 5; ++i)
        QCOMPARE(c.group.at(i).command({"DBSIZE"}).integer, 0);
    QFile file(audit.path());
    QVERIFY(file.open(QIODevice::ReadOnly));
    int refused = 0;
    while (!file.atEnd())
        refused += QJsonDocument::fromJson(file.readLine()).object().value(QStringLiteral("outcome")) ==
                   QLatin1String("refused");
    QCOMPARE(refused, 3);
}

void TestRedlock::invalidArguments()
{
    Cluster c;
    QVERIFY(c.start(1));
    Redlock redlock(c.masters.get(), c.config);
    for (qint64 ttl : {qint64(0), qint64(-1), Redlock::maxTtlMs + 1}) {
        const RedlockOutcome o = wait([&](auto done) { redlock.acquire("res:i", ttl, QString(), done); });
        QCOMPARE(o.verdict, WriteVerdict::Invalid);
    }
    QCOMPARE(wait([&](auto done) { redlock.acquire("", 1000, QString(), done); }).verdict,
             WriteVerdict::Invalid);
    QCOMPARE(c.group.at(0).command({"DBSIZE"}).integer, 0);
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestRedlock)

} // namespace tst_redlock

#include "tst_redlock.moc"
