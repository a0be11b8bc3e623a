// SPDX-License-Identifier: Apache-2.0
#include "connection/redisconnection.h"
#include "diagnosis/clientlistentry.h"
#include "support/connectionwait.h"
#include "support/groupmaster.h"
#include "support/redisclustergroup.h"
#include "support/redisserver.h"
#include "support/testregistry.h"
#include "topology/clusterentry.h"
#include "topology/clusterkeyslot.h"
#include "topology/clustertopology.h"
#include "topology/masterset.h"
#include "trace/locktracer.h"

#include <QSignalSpy>
#include <QTest>

#include <memory>
#include <optional>
#include <vector>

namespace tst_locktracer {

using namespace lockscope;
using namespace lockscope::test;

// The lock tracer on a real server (issue #43). Clients of the test's own make the traffic; what
// really happened is what the server answered them (OK, nil, 1 or 0), never what the tracer says:
// the tracer is checked against those answers.
class TestLockTracer : public QObject
{
    Q_OBJECT

private slots:
    void flashSaleDeleteIsByTheConnectionThatNoLongerHolds();
    void staleHolderReleaseIsTold();
    void refusedAttemptsAreCountedAndOtherTrafficNeverShows();
    void monitorWithoutPermissionIsAClearFailure();
    void monitorRenamedAwayIsAClearFailure();
    void overBudgetStopsAndLeavesNothingRunning();
    void durationEndsTheTrace();
    void onAClusterTheSlotsPrimaryIsTraced();
};

namespace {

const QByteArray releaseScript =
    "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";

struct TraceRun
{
    TraceRun(const RedisServer& server, const QByteArray& key, TraceLimits limits = {})
        : tracer(key, {LockTracer::Target{0, server.connectionOptions()}}, limits)
    {
        QObject::connect(&tracer, &LockTracer::traced, [this](const TracedCommand& c) { commands << c; });
        QObject::connect(&tracer, &LockTracer::masterMonitoring, [this](int) { monitoring = true; });
        QObject::connect(&tracer, &LockTracer::masterFailed,
                         [this](int, const RedisError& e) { failures << e; });
        QObject::connect(&tracer, &LockTracer::stopped, [this](const TraceStop& s) { stop = s; });
        tracer.start();
    }
    bool waitMonitoring()
    {
        return QTest::qWaitFor([this] { return monitoring || stop; }, 10000) && monitoring;
    }
    bool waitForCommands(int n)
    {
        return QTest::qWaitFor([this, n] { return commands.size() >= n; }, 10000);
    }

    LockTracer tracer;
    QList<TracedCommand> commands;
    QList<RedisError> failures;
    std::optional<TraceStop> stop;
    bool monitoring = false;
};

std::unique_ptr<RedisConnection> client(const RedisServer& server, const QByteArray& name)
{
    ConnectionOptions o = server.connectionOptions(5000);
    o.clientName = name;
    auto c = std::make_unique<RedisConnection>(o);
    c->open();
    return waitForState(*c, RedisConnection::State::Up) ? std::move(c) : nullptr;
}

// The set-up of the tests that make traffic of their own: a server, KEY traced on it, and then a
// client per name (so that each client's AUTH and SET go through MONITOR).
struct TracedServer
{
    bool start(const QByteArray& key, const QByteArrayList& clientNames)
    {
        if (!server.start()) {
            error = server.errorString();
            return false;
        }
        run.emplace(server, key);
        if (!run->waitMonitoring()) {
            error = QStringLiteral("the trace did not begin");
            return false;
        }
        for (const QByteArray& name : clientNames) {
            clients.push_back(client(server, name));
            if (!clients.back()) {
                error = QStringLiteral("client %1 did not connect").arg(QString::fromLatin1(name));
                return false;
            }
        }
        return true;
    }
    RedisConnection& operator[](size_t i) { return *clients.at(i); }

    RedisServer server;
    std::optional<TraceRun> run;
    std::vector<std::unique_ptr<RedisConnection>> clients;
    QString error;
};

QByteArray addressOf(RedisConnection& c)
{
    return ClientListEntry::parse(callAndWait(c, {"CLIENT", "INFO"}).reply.string).value(0).address;
}

bool traceClientsGone(const RedisServer& server)
{
    return QTest::qWaitFor(
        [&server] {
            return !server.command({"CLIENT", "LIST"}).string.contains("name=lockscope-trace");
        },
        10000);
}

QString describe(const QList<TracedCommand>& commands)
{
    QStringList out;
    for (const TracedCommand& c : commands)
        out << traceMeaningName(c.meaning) + QLatin1Char(' ') +
                   QString::fromLatin1(c.args.join(' ').left(60)) + QLatin1String(" from ") +
                   c.client.display();
    return out.join(QLatin1String("; "));
}

} // namespace

void TestLockTracer::flashSaleDeleteIsByTheConnectionThatNoLongerHolds()
{
    TracedServer traced;
    QVERIFY2(traced.start("lock:sale", {"buyer-a", "buyer-b"}), qPrintable(traced.error));
    TraceRun& run = *traced.run;
    RedisConnection& a = traced[0];
    RedisConnection& b = traced[1];
    const QByteArray addressA = addressOf(a);
    // A takes the lock for one second and stalls past it; B takes it; A, done at last, deletes "its" lock.
    QCOMPARE(callAndWait(a, {"SET", "lock:sale", "a", "NX", "EX", "1"}).reply.string, QByteArray("OK"));
    QTest::qWait(1200);
    QCOMPARE(callAndWait(b, {"SET", "lock:sale", "b", "NX", "EX", "10"}).reply.string, QByteArray("OK"));
    QCOMPARE(callAndWait(a, {"DEL", "lock:sale"}).reply.integer, 1); // B's lock, gone
    QVERIFY2(run.waitForCommands(3), qPrintable(describe(run.commands)));
    QCOMPARE(run.commands.size(), 3);
    QCOMPARE(run.commands.at(0).meaning, TraceMeaning::Acquired);
    QCOMPARE(run.commands.at(1).meaning, TraceMeaning::Acquired);
    const TracedCommand& del = run.commands.at(2);
    QCOMPARE(del.meaning, TraceMeaning::DeletedByNonHolder);
    QCOMPARE(del.client.address, addressA);
    QCOMPARE(del.client.name, QByteArray("buyer-a"));
    QCOMPARE(del.token, QByteArray("b"));
    QVERIFY2(del.detail.contains(QLatin1String("token a held it until")), qPrintable(del.detail));
    QCOMPARE(run.tracer.summary().warnings().size(), 1);
}

void TestLockTracer::staleHolderReleaseIsTold()
{
    TracedServer traced;
    QVERIFY2(traced.start("lock:stale", {"holder-a", "holder-b"}), qPrintable(traced.error));
    TraceRun& run = *traced.run;
    RedisConnection& a = traced[0];
    RedisConnection& b = traced[1];
    QCOMPARE(callAndWait(a, {"SET", "lock:stale", "ta", "NX", "PX", "300"}).reply.string, QByteArray("OK"));
    QTest::qWait(400); // A pauses past its lease
    QCOMPARE(callAndWait(b, {"SET", "lock:stale", "tb", "NX", "PX", "30000"}).reply.string, QByteArray("OK"));
    QCOMPARE(callAndWait(a, {"EVAL", releaseScript, "1", "lock:stale", "ta"}).reply.integer, 0);
    QCOMPARE(callAndWait(b, {"EVAL", releaseScript, "1", "lock:stale", "tb"}).reply.integer, 1);
    QVERIFY2(run.waitForCommands(4), qPrintable(describe(run.commands)));
    QCOMPARE(run.commands.at(2).meaning, TraceMeaning::StaleRelease);
    QCOMPARE(run.commands.at(2).token, QByteArray("ta"));
    QCOMPARE(run.commands.at(2).client.name, QByteArray("holder-a"));
    QCOMPARE(run.commands.at(2).scriptCalls, (QList<QByteArrayList>{{"get", "lock:stale"}}));
    QCOMPARE(run.commands.at(3).meaning, TraceMeaning::Released);
    QCOMPARE(run.commands.at(3).scriptCalls.size(), 2);
}

void TestLockTracer::refusedAttemptsAreCountedAndOtherTrafficNeverShows()
{
    TracedServer traced; // noise connects after MONITOR began: its AUTH is in the stream
    QVERIFY2(traced.start("lock:busy", {"holder", "contender", "noise"}), qPrintable(traced.error));
    TraceRun& run = *traced.run;
    RedisConnection& holder = traced[0];
    RedisConnection& contender = traced[1];
    RedisConnection& noise = traced[2];
    const QByteArray contenderAddress = addressOf(contender);
    QCOMPARE(callAndWait(holder, {"SET", "lock:busy", "h", "NX", "PX", "60000"}).reply.string,
             QByteArray("OK"));
    int refusedTruth = 0;
    for (int i = 0; i < 5; ++i) {
        for (int j = 0; j < 60; ++j) { // other traffic between the attempts, some of it lock-like
            noise.send({"SET", "lock:busy2", "v"});
            noise.send({"SET", "other:" + QByteArray::number(j), "lock:busy"});
            noise.send({"EVAL", "return redis.call('get', KEYS[1])", "1", "lock:busyx", "lock:busy"});
        }
        if (callAndWait(contender, {"SET", "lock:busy", "c" + QByteArray::number(i), "NX", "PX", "1000"})
                .reply.isNil())
            ++refusedTruth;
    }
    QVERIFY(callAndWait(noise, {"PING"}).ok());
    QCOMPARE(refusedTruth, 5);
    QVERIFY2(run.waitForCommands(6), qPrintable(describe(run.commands)));
    QTest::qWait(200);
    QCOMPARE(run.commands.size(), 6);
    for (const TracedCommand& c : std::as_const(run.commands)) {
        QCOMPARE(c.args.at(1), QByteArray("lock:busy"));
        QVERIFY(c.client.name != "noise");
        for (const QByteArray& arg : c.args)
            QVERIFY(!arg.contains(testPassword().toUtf8()));
    }
    const TraceSummary& s = run.tracer.summary();
    const auto it =
        std::find_if(s.contenders().cbegin(), s.contenders().cend(),
                     [&](const TraceSummary::Contender& c) { return c.client.address == contenderAddress; });
    QVERIFY(it != s.contenders().cend());
    QCOMPARE(it->client.name, QByteArray("contender"));
    QCOMPARE(it->attempts, 5);
    QCOMPARE(it->refused, qint64(refusedTruth));
    QCOMPARE(it->acquired, 0);
}

void TestLockTracer::monitorWithoutPermissionIsAClearFailure()
{
    RedisServerOptions o;
    o.aclUser = QStringLiteral("watcher");
    o.aclPassword = distinctTestPassword(QStringLiteral("watcher-pw"));
    o.aclRules = QStringLiteral("~* &* +@all -monitor");
    RedisServer server(o);
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    TraceRun run(server, "lock:x");
    QVERIFY(QTest::qWaitFor([&run] { return run.stop.has_value(); }, 10000));
    QCOMPARE(run.stop->reason, TraceStop::Reason::NoMaster);
    QCOMPARE(run.failures.size(), 1);
    QCOMPARE(run.failures.first().kind, ErrorKind::NoPermission);
    QVERIFY2(run.failures.first().message.contains(QLatin1String("+monitor")),
             qPrintable(run.failures.first().message));
    QVERIFY(!run.failures.first().message.contains(o.aclPassword));
    QVERIFY(traceClientsGone(server));
}

void TestLockTracer::monitorRenamedAwayIsAClearFailure()
{
    RedisServerOptions o;
    o.extraArgs = {QStringLiteral("--rename-command"), QStringLiteral("MONITOR"), QStringLiteral("\"\"")};
    RedisServer server(o);
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    TraceRun run(server, "lock:x");
    QVERIFY(QTest::qWaitFor([&run] { return run.stop.has_value(); }, 10000));
    QCOMPARE(run.failures.size(), 1);
    QVERIFY2(run.failures.first().message.contains(QLatin1String("renamed or disabled")),
             qPrintable(run.failures.first().message));
}

void TestLockTracer::overBudgetStopsAndLeavesNothingRunning()
{
    RedisServer server;
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    TraceLimits limits;
    limits.budgetBytesPerSecond = TraceLimits::minBudgetBytesPerSecond;
    TraceRun run(server, "lock:x", limits);
    QVERIFY(run.waitMonitoring());
    auto noise = client(server, "noise");
    QVERIFY(noise);
    for (int i = 0; i < 2000; ++i)
        noise->send({"SET", "k" + QByteArray::number(i), QByteArray(32, 'v')});
    QVERIFY(callAndWait(*noise, {"PING"}).ok());
    QVERIFY(QTest::qWaitFor([&run] { return run.stop.has_value(); }, 10000));
    QCOMPARE(run.stop->reason, TraceStop::Reason::Budget);
    QVERIFY2(run.stop->message.contains(QLatin1String("budget")), qPrintable(run.stop->message));
    QVERIFY(!run.tracer.isRunning());
    QVERIFY(traceClientsGone(server));
}

void TestLockTracer::durationEndsTheTrace()
{
    RedisServer server;
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    TraceLimits limits;
    limits.durationMs = 1500;
    TraceRun run(server, "lock:x", limits);
    QVERIFY(run.waitMonitoring());
    QVERIFY(QTest::qWaitFor([&run] { return run.stop.has_value(); }, 10000));
    QCOMPARE(run.stop->reason, TraceStop::Reason::Duration);
    QVERIFY(run.tracer.elapsedMs() >= 1500);
    QVERIFY(traceClientsGone(server));
}

void TestLockTracer::onAClusterTheSlotsPrimaryIsTraced()
{
    RedisClusterGroup cluster;
    QVERIFY2(cluster.start(3, 0), qPrintable(cluster.errorString()));
    MasterSet masters({groupMaster(cluster.url(1))});
    masters.open();
    QTRY_VERIFY_WITH_TIMEOUT(masters.at(0)->isUp() && masters.cluster(0)->topology()->isReady(), 20000);
    const QByteArray key = cluster.keyOn(cluster.primaryIndexes().at(2), "lock:traced:");
    const int owner = cluster.primaryForSlot(ClusterKeySlot::of(key));
    QStringList unknown;
    const QList<LockTracer::Target> targets = LockTracer::targetsFor(masters, key, &unknown);
    QVERIFY(unknown.isEmpty());
    QCOMPARE(targets.size(), 1);
    QCOMPARE(targets.first().master, 0);
    QCOMPARE(targets.first().options.url.port(), cluster.at(owner).port());

    LockTracer tracer(key, targets, TraceLimits{});
    QList<TracedCommand> commands;
    bool monitoring = false;
    connect(&tracer, &LockTracer::traced, this, [&commands](const TracedCommand& c) { commands << c; });
    connect(&tracer, &LockTracer::masterMonitoring, this, [&monitoring](int) { monitoring = true; });
    tracer.start();
    QTRY_VERIFY_WITH_TIMEOUT(monitoring, 10000);
    QCOMPARE(cluster.at(owner).command({"SET", key, "tok", "NX", "PX", "30000"}).string, QByteArray("OK"));
    QTRY_COMPARE_WITH_TIMEOUT(commands.size(), 1, 10000);
    QCOMPARE(commands.first().meaning, TraceMeaning::Acquired);
    QCOMPARE(commands.first().token, QByteArray("tok"));
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestLockTracer)

} // namespace tst_locktracer

#include "tst_locktracer.moc"
