// The administrator's force-release against real masters: guarded by the expected token, any
// token, a subset of masters, what each lock library's waiters need (Redisson's unlock message,
// python-redis-lock's signal list, one semaphore holder rather than the semaphore), refusal of
// keys that are no locks, read-only mode in the core, and an audit line for every attempt.
#include "audit/auditlog.h"
#include "connection/redisconnection.h"
#include "locking/forcerelease.h"
#include "support/groupmaster.h"
#include "support/masterwait.h"
#include "support/redisclustergroup.h"
#include "support/redisservergroup.h"
#include "support/testpaths.h"
#include "support/testregistry.h"
#include "topology/clusterkeyslot.h"
#include "topology/masterset.h"

#include <QDateTime>
#include <QFile>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <memory>
#include <optional>

namespace tst_forcerelease {

using namespace lockscope;
using namespace lockscope::test;
using Action = ForceReleaseMasterResult::Action;

namespace {

constexpr char tokenA[] = "alice@host1:10/0123456789abcdef0123456789abcdef";
constexpr char tokenB[] = "bob@host2:20/fedcba9876543210fedcba9876543210";

struct Cluster
{
    RedisServerGroup group;
    std::unique_ptr<MasterSet> masters;
    LockScopeConfig config;
    QTemporaryDir dir;
    std::unique_ptr<AuditLog> audit;

    bool start(int count = 5, const RedisServerOptions& options = {})
    {
        if (!group.start(count, options))
            return false;
        config.masters = group.connectionOptions();
        masters = std::make_unique<MasterSet>(config.masters);
        masters->open();
        audit = std::make_unique<AuditLog>(dir.filePath(QStringLiteral("audit.jsonl")));
        return QTest::qWaitFor([this] { return masters->upCount() == masters->size(); },
                               int(lockscope::test::upperBoundMs(5000)));
    }
    void onAll(const QByteArrayList& argv)
    {
        for (int i = 0; i < group.size(); ++i)
            group.at(i).command(argv);
    }
    int countOf(const QByteArray& key)
    {
        int n = 0;
        for (int i = 0; i < group.size(); ++i)
            n += int(group.at(i).command({"EXISTS", key}).integer);
        return n;
    }
    ForceReleasePlan inspect(const ForceReleaseRequest& request)
    {
        std::optional<ForceReleasePlan> plan;
        ForceRelease::inspect(*masters, config, request, [&](const ForceReleasePlan& p) { plan = p; });
        if (!QTest::qWaitFor([&] { return plan.has_value(); }, int(lockscope::test::upperBoundMs(10000))))
            qFatal("no plan");
        return *plan;
    }
    ForceReleaseOutcome execute(const ForceReleasePlan& plan)
    {
        std::optional<ForceReleaseOutcome> outcome;
        ForceRelease::execute(*masters, config, audit.get(), plan,
                              [&](const ForceReleaseOutcome& o) { outcome = o; });
        if (!QTest::qWaitFor([&] { return outcome.has_value(); }, int(lockscope::test::upperBoundMs(10000))))
            qFatal("no outcome");
        return *outcome;
    }
    ForceReleaseOutcome run(const ForceReleaseRequest& request) { return execute(inspect(request)); }
    QList<QJsonObject> auditLines()
    {
        QList<QJsonObject> out;
        QFile file(audit->path());
        if (!file.open(QIODevice::ReadOnly))
            return out;
        while (!file.atEnd()) {
            QJsonParseError error;
            const QJsonDocument doc = QJsonDocument::fromJson(file.readLine(), &error);
            if (error.error != QJsonParseError::NoError || !doc.isObject())
                qFatal("audit line is not a JSON object");
            out << doc.object();
        }
        return out;
    }
};

// Every message published on one master, as (channel, payload), in order.
class Listener
{
public:
    explicit Listener(const RedisServer& server) : m_connection(server.connectionOptions())
    {
        QObject::connect(&m_connection, &RedisConnection::messageReceived, &m_connection,
                         [this](const QByteArray&, const QByteArray& channel, const QByteArray& payload) {
                             messages << QByteArrayList{channel, payload};
                         });
        m_connection.psubscribe({"*"});
        m_connection.open();
    }
    bool ready(const RedisServer& server)
    {
        return QTest::qWaitFor(
            [&server] {
                return server.command({"PUBSUB", "NUMPAT"}).integer >= 1;
            },
            int(lockscope::test::upperBoundMs(5000)));
    }
    QList<QByteArrayList> messages;

private:
    RedisConnection m_connection;
};

// Redisson's layouts as tests/interop/redisson-layouts.json writes them down from its source.
QJsonObject redissonLayouts()
{
    QFile file(sourcePath(QStringLiteral("tests/interop/redisson-layouts.json")));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("tests/interop/redisson-layouts.json is missing");
    return QJsonDocument::fromJson(file.readAll()).object().value(QStringLiteral("kinds")).toObject();
}

QByteArray fill(QString text, const QHash<QString, QByteArray>& values)
{
    // Longest names first: $holder must not be taken for $h…
    QStringList names = values.keys();
    std::sort(names.begin(), names.end(),
              [](const QString& a, const QString& b) { return a.size() > b.size(); });
    for (const QString& name : names)
        text.replace(QLatin1Char('$') + name, QString::fromUtf8(values.value(name)));
    return text.toUtf8();
}

void replay(const RedisServer& server, const QJsonArray& commands, const QHash<QString, QByteArray>& values)
{
    for (const QJsonValue& command : commands) {
        QByteArrayList argv;
        for (const QJsonValue& arg : command.toArray())
            argv << fill(arg.toString(), values);
        if (server.command(argv).isError())
            qFatal("fixture command failed");
    }
}

QList<QByteArrayList> plannedCommands(const ForceReleasePlan& plan, int master)
{
    for (const ForceReleaseTarget& t : plan.targets)
        if (t.index == master)
            return t.step.commands;
    return {};
}

constexpr char readerA[] = "8e2f2a47-51a1-4c5f-9b0a-1f2d3c4b5a69:57";
constexpr char readerB[] = "0b7c9d12-3e4f-4a5b-8c6d-7e8f9a0b1c2d:12";
constexpr char readerC[] = "5d6e7f80-1a2b-4c3d-9e4f-5a6b7c8d9e0f:3";

// A Redisson read lock with these readers, each entered `count` times, as RedissonReadLock leaves it.
void addReader(const RedisServer& server, const QByteArray& name, const QByteArray& reader, int count = 1)
{
    server.command({"HSET", name, "mode", "read"});
    for (int i = 1; i <= count; ++i) {
        server.command({"HINCRBY", name, reader, "1"});
        server.command({"SET", "{" + name + "}:" + reader + ":rwlock_timeout:" + QByteArray::number(i), "1",
                        "PX", "30000"});
    }
    server.command({"PEXPIRE", name, "30000"});
}

ForceReleaseRequest request(const QByteArray& resource, const QByteArray& expected)
{
    ForceReleaseRequest r;
    r.resource = resource;
    r.mode = expected.isEmpty() ? ForceReleaseMode::AnyToken : ForceReleaseMode::ExpectToken;
    r.expectedToken = expected;
    return r;
}

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
    void redissonChannelNames();
    void redissonLayoutsFromFixture_data();
    void redissonLayoutsFromFixture();
    void redissonTwoReadersLoseOnlyOne();
    void redissonWholeHolderSetAsListed();
    void redissonReaderJoinedAfterTheLook();
    void redissonReenteredLock();
    void redissonPreviewEqualsWhatHappens();
    void redissonOnAClusterPublishesSharded();
};

void TestForceRelease::guardedSparesALockThatChangedHands()
{
    Cluster c;
    QVERIFY(c.start());
    c.onAll({"SET", "job:build", tokenA, "PX", "60000"});
    const ForceReleasePlan plan = c.inspect(request("job:build", tokenA));
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
    const ForceReleaseOutcome none = c.run(request("job:build", tokenA));
    QCOMPARE(none.verdict, WriteVerdict::NotDone);
    QCOMPARE(c.countOf("job:build"), 5);
}

void TestForceRelease::anyTokenDeletesEverywhere()
{
    Cluster c;
    QVERIFY(c.start());
    c.onAll({"SET", "job:any", tokenA, "PX", "60000"});
    c.group.at(2).command({"SET", "job:any", tokenB, "PX", "60000"});
    c.group.at(4).command({"DEL", "job:any"});
    const ForceReleaseOutcome o = c.run(request("job:any", {}));
    QCOMPARE(o.verdict, WriteVerdict::Done);
    QCOMPARE(o.results.at(0).action, Action::Deleted);
    QCOMPARE(o.results.at(2).action, Action::Deleted);
    QCOMPARE(o.results.at(2).tokenBefore, QByteArray(tokenB));
    QCOMPARE(o.results.at(4).action, Action::Absent);
    QCOMPARE(c.countOf("job:any"), 0);
}

void TestForceRelease::subsetOfMasters()
{
    Cluster c;
    QVERIFY(c.start());
    c.onAll({"SET", "job:sub", tokenA, "PX", "60000"});
    ForceReleaseRequest r = request("job:sub", tokenA);
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
    Cluster c;
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
    const ForceReleaseOutcome wrong = c.run(request("orders", "8e2f2a47-51a1-4c5f-9b0a-1f2d3c4b5a69:58"));
    QCOMPARE(wrong.verdict, WriteVerdict::NotDone);
    QCOMPARE(wrong.results.at(0).action, Action::Spared);
    QCOMPARE(c.countOf("orders"), 3);

    const ForceReleasePlan plan = c.inspect(request("orders", field));
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
    Cluster c;
    QVERIFY(c.start(3));
    const QByteArray token = "Zm9vYmFyYmF6cXV4cXV1eHl6"; // 24 chars of unpadded base64, as it writes
    c.onAll({"SET", "lock:report", token, "EX", "100"});
    const ForceReleasePlan plan = c.inspect(request("lock:report", token));
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
    Cluster c;
    QVERIFY(c.start(3));
    // redis-semaphore: one member per holder, multi-permit holders as <id>_<n>; score = ms timestamp.
    c.onAll({"ZADD", "semaphore:pool", "1700000000000", "3f1c7e2a-1111-4a4a-8b8b-000000000001",
             "1700000000001", "3f1c7e2a-2222-4a4a-8b8b-000000000002_0", "1700000000001",
             "3f1c7e2a-2222-4a4a-8b8b-000000000002_1", "1700000000002",
             "3f1c7e2a-3333-4a4a-8b8b-000000000003"});
    const ForceReleasePlan plan =
        c.inspect(request("semaphore:pool", "3f1c7e2a-2222-4a4a-8b8b-000000000002"));
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
    const ForceReleaseOutcome gone = c.run(request("semaphore:pool", "3f1c7e2a-2222-4a4a-8b8b-000000000002"));
    QCOMPARE(gone.verdict, WriteVerdict::NotDone);
    QCOMPARE(c.group.at(0).command({"ZCARD", "semaphore:pool"}).integer, 2);
}

void TestForceRelease::keysThatAreNoLocksAreRefused()
{
    Cluster c;
    QVERIFY(c.start(3));
    c.onAll({"RPUSH", "lock:queue", "a", "b"});      // a list is no lock
    c.onAll({"HSET", "lock:conf", "color", "blue"}); // a hash of no lock library's shape
    c.onAll({"RPUSH", "lock-signal:x", "1"});        // python-redis-lock's helper, not a lock itself
    for (const QByteArray& key :
         {QByteArray("lock:queue"), QByteArray("lock:conf"), QByteArray("lock-signal:x")}) {
        const ForceReleaseOutcome o = c.run(request(key, {}));
        QCOMPARE(o.verdict, WriteVerdict::Refused);
        QCOMPARE(o.error.kind, ErrorKind::NotALock);
        QCOMPARE(c.countOf(key), 3);
    }
    // Insisting deletes it.
    ForceReleaseRequest insist = request("lock:queue", {});
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
    Cluster c;
    QVERIFY(c.start(3));
    c.onAll({"SET", "job:ro", tokenA, "PX", "60000"});
    c.config.readOnly = true;
    const ForceReleaseOutcome o = c.run(request("job:ro", {}));
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
    Cluster c;
    QVERIFY(c.start(3));
    c.onAll({"SET", "job:unrecorded", tokenA, "PX", "60000"});
    const ForceReleasePlan plan = c.inspect(request("job:unrecorded", tokenA));
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
    Cluster c;
    RedisServerOptions options;
    options.password = distinctTestPassword(QStringLiteral("s3cret-Pa55word"));
    QVERIFY(c.start(3, options));
    QVERIFY(c.config.masters.first().url.password() == options.password);
    c.onAll({"SET", "job:pw", tokenA, "PX", "60000"});
    const ForceReleaseOutcome o = c.run(request("job:pw", tokenA));
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

void TestForceRelease::redissonChannelNames()
{
    QCOMPARE(ForceRelease::redissonChannel("orders"), QByteArray("redisson_lock__channel:{orders}"));
    QCOMPARE(ForceRelease::redissonChannel("{orders}:lock"),
             QByteArray("redisson_lock__channel:{orders}:lock"));
}

void TestForceRelease::redissonLayoutsFromFixture_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QByteArray>("holder");
    QTest::newRow("lock") << QStringLiteral("lock") << QByteArray(readerA);
    QTest::newRow("fair lock with a waiter") << QStringLiteral("fair_lock") << QByteArray(readerA);
    QTest::newRow("read lock") << QStringLiteral("read_lock") << QByteArray(readerA);
    QTest::newRow("write lock") << QStringLiteral("write_lock") << QByteArray(readerA) + ":write";
}

void TestForceRelease::redissonLayoutsFromFixture()
{
    QFETCH(QString, kind);
    QFETCH(QByteArray, holder);
    const QJsonObject layout = redissonLayouts().value(kind).toObject();
    QVERIFY2(!layout.isEmpty(), qPrintable(kind));
    Cluster c;
    QVERIFY(c.start(1));
    const RedisServer& server = c.group.at(0);
    const QHash<QString, QByteArray> values{
        {QStringLiteral("name"), "orders"},
        {QStringLiteral("holder"), readerA},
        {QStringLiteral("waiter"), readerB},
        {QStringLiteral("first_live_waiter"), readerB},
        {QStringLiteral("deadline"), QByteArray::number(QDateTime::currentMSecsSinceEpoch() + 60000)}};
    replay(server, layout.value(QStringLiteral("acquire")).toArray(), values);
    // A fair lock's first waiter is stale (deadline passed): Redisson skips it, so must we.
    if (kind == QLatin1String("fair_lock")) {
        server.command({"ZADD", "redisson_lock_timeout:{orders}", "1000", readerC});
        server.command({"RPUSH", "redisson_lock_queue:{orders}", readerC});
    }
    replay(server, layout.value(QStringLiteral("wait")).toArray(), values);
    Listener listener(server);
    QVERIFY(listener.ready(server));

    const ForceReleasePlan plan = c.inspect(request("orders", holder));
    QVERIFY2(plan.refusal.isEmpty(), qPrintable(plan.refusal));
    const ForceReleaseOutcome o = c.execute(plan);
    QCOMPARE(o.verdict, WriteVerdict::Done);
    QCOMPARE(o.results.first().action, Action::Deleted);
    QCOMPARE(server.command({"EXISTS", "orders"}).integer, 0);
    const QJsonObject unlock = layout.value(QStringLiteral("unlock_publishes")).toObject();
    const QByteArrayList expected{fill(unlock.value(QStringLiteral("channel")).toString(), values),
                                  fill(unlock.value(QStringLiteral("message")).toString(), values)};
    QVERIFY(QTest::qWaitFor([&] { return !listener.messages.isEmpty(); },
                            int(lockscope::test::upperBoundMs(3000))));
    QTest::qWait(50);
    QCOMPARE(listener.messages, QList<QByteArrayList>{expected});
    QCOMPARE(o.results.first().commands, plannedCommands(plan, 0));
    QCOMPARE(o.results.first().commands.last(), (QByteArrayList{"PUBLISH"} + expected));
    // The waiters' own keys are theirs: a fair lock's queue stays as it was.
    if (kind == QLatin1String("fair_lock"))
        QCOMPARE(server.command({"LLEN", "redisson_lock_queue:{orders}"}).integer, 2);
}

void TestForceRelease::redissonTwoReadersLoseOnlyOne()
{
    Cluster c;
    QVERIFY(c.start(1));
    const RedisServer& server = c.group.at(0);
    addReader(server, "catalog", readerA);
    addReader(server, "catalog", readerB);
    Listener listener(server);
    QVERIFY(listener.ready(server));
    const ForceReleasePlan plan = c.inspect(request("catalog", readerA));
    QCOMPARE(plan.targets.first().step.kind, ForceReleaseStep::Kind::RemoveHolders);
    const ForceReleaseOutcome o = c.execute(plan);
    QCOMPARE(o.verdict, WriteVerdict::Done);
    QCOMPARE(o.results.first().action, Action::HolderRemoved);
    QCOMPARE(server.command({"HEXISTS", "catalog", readerA}).integer, 0);
    QCOMPARE(server.command({"HGET", "catalog", readerB}).string, QByteArray("1"));
    QCOMPARE(server.command({"HGET", "catalog", "mode"}).string, QByteArray("read"));
    QCOMPARE(server.command({"EXISTS", QByteArray("{catalog}:") + readerA + ":rwlock_timeout:1"}).integer, 0);
    QCOMPARE(server.command({"EXISTS", QByteArray("{catalog}:") + readerB + ":rwlock_timeout:1"}).integer, 1);
    QCOMPARE(o.results.first().commands, plannedCommands(plan, 0));
    // The lock is still held by B: nobody is woken.
    QTest::qWait(100);
    QVERIFY(listener.messages.isEmpty());
}

void TestForceRelease::redissonWholeHolderSetAsListed()
{
    Cluster c;
    QVERIFY(c.start(1));
    const RedisServer& server = c.group.at(0);
    addReader(server, "catalog", readerA);
    addReader(server, "catalog", readerB);
    // `lockctl list` prints the holders sorted and joined by ','.
    const QByteArray listed = c.inspect(request("catalog", readerA)).targets.first().lock.token;
    QCOMPARE(listed, QByteArray(readerB) + ',' + readerA);
    Listener listener(server);
    QVERIFY(listener.ready(server));
    const ForceReleasePlan plan = c.inspect(request("catalog", listed));
    QCOMPARE(plan.targets.first().step.kind, ForceReleaseStep::Kind::Delete);
    const ForceReleaseOutcome o = c.execute(plan);
    QCOMPARE(o.results.first().action, Action::Deleted);
    QCOMPARE(server.command({"EXISTS", "catalog"}).integer, 0);
    QCOMPARE(o.results.first().commands, plannedCommands(plan, 0));
    QVERIFY(QTest::qWaitFor([&] { return !listener.messages.isEmpty(); },
                            int(lockscope::test::upperBoundMs(3000))));
    QCOMPARE(listener.messages.first(), (QByteArrayList{"redisson_rwlock:{catalog}", "0"}));
}

void TestForceRelease::redissonReaderJoinedAfterTheLook()
{
    Cluster c;
    QVERIFY(c.start(1));
    const RedisServer& server = c.group.at(0);
    // One reader, to be removed with the key; C joins between the look and the confirmation.
    addReader(server, "catalog", readerA);
    ForceReleasePlan plan = c.inspect(request("catalog", readerA));
    QCOMPARE(plan.targets.first().step.kind, ForceReleaseStep::Kind::Delete);
    addReader(server, "catalog", readerC);
    ForceReleaseOutcome o = c.execute(plan);
    QCOMPARE(o.verdict, WriteVerdict::NotDone);
    QCOMPARE(o.results.first().action, Action::Spared);
    QVERIFY2(o.results.first().detail.contains(QLatin1String("joined")),
             qPrintable(o.results.first().detail));
    QVERIFY(o.results.first().commands.isEmpty());
    QCOMPARE(server.command({"HGET", "catalog", readerA}).string, QByteArray("1"));
    QCOMPARE(server.command({"HGET", "catalog", readerC}).string, QByteArray("1"));

    // Two readers seen, A to go and B to stay; C joins: A goes, B and C stay, as planned.
    server.command({"DEL", "catalog"});
    addReader(server, "catalog", readerA);
    addReader(server, "catalog", readerB);
    plan = c.inspect(request("catalog", readerA));
    addReader(server, "catalog", readerC);
    o = c.execute(plan);
    QCOMPARE(o.results.first().action, Action::HolderRemoved);
    QCOMPARE(o.results.first().commands, plannedCommands(plan, 0));
    QCOMPARE(server.command({"HEXISTS", "catalog", readerA}).integer, 0);
    QCOMPARE(server.command({"HEXISTS", "catalog", readerB}).integer, 1);
    QCOMPARE(server.command({"HEXISTS", "catalog", readerC}).integer, 1);
}

void TestForceRelease::redissonReenteredLock()
{
    Cluster c;
    QVERIFY(c.start(1));
    const RedisServer& server = c.group.at(0);
    for (int i = 0; i < 3; ++i)
        server.command({"HINCRBY", "orders", readerA, "1"});
    server.command({"PEXPIRE", "orders", "30000"});
    ForceReleasePlan plan = c.inspect(request("orders", readerA));
    QCOMPARE(plan.targets.first().step.removedHolders.first().second, qint64(3));
    QVERIFY2(plan.targets.first().step.summary().contains(QLatin1String("entered 3 times")),
             qPrintable(plan.targets.first().step.summary()));
    // The holder enters once more after the look: it is alive, and spared.
    server.command({"HINCRBY", "orders", readerA, "1"});
    ForceReleaseOutcome o = c.execute(plan);
    QCOMPARE(o.results.first().action, Action::Spared);
    QCOMPARE(server.command({"HGET", "orders", readerA}).string, QByteArray("4"));
    plan = c.inspect(request("orders", readerA));
    o = c.execute(plan);
    QCOMPARE(o.results.first().action, Action::Deleted);
    QCOMPARE(o.results.first().commands, plannedCommands(plan, 0));
    QCOMPARE(server.command({"EXISTS", "orders"}).integer, 0);

    // A reader entered twice has two lease keys: both go with it.
    addReader(server, "catalog", readerA, 2);
    addReader(server, "catalog", readerB);
    plan = c.inspect(request("catalog", readerA));
    QCOMPARE(plan.targets.first().step.leaseKeys.size(), 2);
    o = c.execute(plan);
    QCOMPARE(o.results.first().action, Action::HolderRemoved);
    QCOMPARE(o.results.first().commands, plannedCommands(plan, 0));
    QCOMPARE(server.command({"KEYS", QByteArray("{catalog}:") + readerA + "*"}).elements.size(), 0);
}

void TestForceRelease::redissonPreviewEqualsWhatHappens()
{
    // A writer whose thread also holds a read lock: its unlock leaves the read lock, in read mode.
    Cluster c;
    QVERIFY(c.start(1));
    const RedisServer& server = c.group.at(0);
    const QByteArray writer = QByteArray(readerA) + ":write";
    server.command({"HSET", "prices", "mode", "write", writer, "1"});
    server.command({"HSET", "prices", readerA, "1"});
    server.command({"PEXPIRE", "prices", "30000"});
    const ForceReleasePlan plan = c.inspect(request("prices", writer));
    QCOMPARE(plan.targets.first().step.kind, ForceReleaseStep::Kind::RemoveHolders);
    QCOMPARE(plan.targets.first().step.commands.last(), (QByteArrayList{"HSET", "prices", "mode", "read"}));
    const ForceReleaseOutcome o = c.execute(plan);
    QCOMPARE(o.results.first().commands, plannedCommands(plan, 0));
    QCOMPARE(server.command({"HGET", "prices", "mode"}).string, QByteArray("read"));
    QCOMPARE(server.command({"HEXISTS", "prices", writer}).integer, 0);
    QCOMPARE(server.command({"HEXISTS", "prices", readerA}).integer, 1);
}

void TestForceRelease::redissonOnAClusterPublishesSharded()
{
    RedisClusterGroup cluster;
    QVERIFY2(cluster.start(3, 0), qPrintable(cluster.errorString()));
    const int primary = cluster.primaryForSlot(ClusterKeySlot::of("lock:orders"));
    QVERIFY(primary >= 0);
    const RedisServer& node = cluster.at(primary);
    node.command({"HINCRBY", "lock:orders", readerA, "1"});
    node.command({"PEXPIRE", "lock:orders", "30000"});
    // A Redisson waiter on a Redis 7 cluster: SSUBSCRIBE on the shard of its lock.
    QTcpSocket waiter;
    waiter.connectToHost(QHostAddress::LocalHost, node.port());
    QVERIFY(waiter.waitForConnected(int(lockscope::test::upperBoundMs(5000))));
    const QByteArray password = node.options().password.toUtf8();
    waiter.write("*2\r\n$4\r\nAUTH\r\n$" + QByteArray::number(password.size()) + "\r\n" + password + "\r\n");
    waiter.write("*2\r\n$10\r\nSSUBSCRIBE\r\n$36\r\nredisson_lock__channel:{lock:orders}\r\n");
    QByteArray heard;
    QVERIFY(QTest::qWaitFor(
        [&] {
            heard += waiter.readAll();
            return heard.contains("ssubscribe");
        },
        int(lockscope::test::upperBoundMs(5000))));
    heard.clear();

    LockScopeConfig config;
    config.masters = {groupMaster(cluster.url(1))};
    MasterSet masters(config.masters);
    masters.open();
    QVERIFY(
        QTest::qWaitFor([&] { return masters.upCount() == 1; }, int(lockscope::test::upperBoundMs(10000))));
    std::optional<ForceReleasePlan> plan;
    ForceRelease::inspect(masters, config, request("lock:orders", readerA),
                          [&](const ForceReleasePlan& p) { plan = p; });
    QVERIFY(QTest::qWaitFor([&] { return plan.has_value(); }, int(lockscope::test::upperBoundMs(10000))));
    QCOMPARE(plan->targets.first().step.commands.last(),
             (QByteArrayList{"SPUBLISH", "redisson_lock__channel:{lock:orders}", "0"}));
    std::optional<ForceReleaseOutcome> outcome;
    ForceRelease::execute(masters, config, nullptr, *plan,
                          [&](const ForceReleaseOutcome& o) { outcome = o; });
    QVERIFY(QTest::qWaitFor([&] { return outcome.has_value(); }, int(lockscope::test::upperBoundMs(10000))));
    QCOMPARE(outcome->results.first().action, Action::Deleted);
    QCOMPARE(outcome->results.first().commands, plan->targets.first().step.commands);
    QVERIFY(QTest::qWaitFor(
        [&] {
            heard += waiter.readAll();
            return heard.contains("smessage");
        },
        int(lockscope::test::upperBoundMs(5000))));
    QVERIFY(heard.contains("redisson_lock__channel:{lock:orders}"));
    QCOMPARE(node.command({"EXISTS", "lock:orders"}).integer, 0);
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestForceRelease)

} // namespace tst_forcerelease

#include "tst_forcerelease.moc"
