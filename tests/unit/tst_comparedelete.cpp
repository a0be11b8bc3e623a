// SPDX-License-Identifier: Apache-2.0
// The newer compare-and-delete commands (issue #46): Valkey 9's `DELIFEQ key value` and Redis 8.4's
// `DELEX key IFEQ value`. Where the server's COMMAND INFO lists one, the token-guarded release and
// the guarded force-release of a plain string lock send it instead of a Lua script; elsewhere the
// script, as before. Neither server is in Debian 12: the masters here are fake peers (support/
// fakeredispeer.h) that keep a small key store and answer as those servers document, so what is
// tested is LockScope's choice and its reading of the answers, not a real server's command.
#include "audit/auditlog.h"
#include "connection/comparedelete.h"
#include "locking/forcerelease.h"
#include "locking/forcereleaseplanner.h"
#include "locking/redlock.h"
#include "support/fakeredispeer.h"
#include "support/forcereleasecluster.h"
#include "support/scriptedtransport.h"
#include "support/testregistry.h"
#include "topology/masterset.h"

#include <QHash>
#include <QTemporaryDir>
#include <QTest>

#include <memory>
#include <optional>

namespace tst_comparedelete {

using namespace lockscope;
using namespace lockscope::test;
using T = ScriptedTransport;

namespace {

// COMMAND INFO's entry for a command: its name first, then arity and flags (trimmed to the name
// and arity, which is all a client may rely on being first).
QByteArray commandEntry(const QByteArray& name, int arity)
{
    return T::array({T::bulk(name), T::integer(arity)});
}

QByteArray commandInfo(CompareDelete has)
{
    const QByteArray unknown = "*-1\r\n";
    return T::array({has == CompareDelete::DelIfEq ? commandEntry("delifeq", 3) : unknown,
                     has == CompareDelete::DelEx ? commandEntry("delex", -2) : unknown});
}

// A master with string keys only, answering what LockScope sends for a lock on it: SET NX PX,
// the key reads of a force-release's inspection, its own compare-and-delete command (if it has
// one), and the two token scripts, whose Lua it does not run but answers as a server running them
// on a string key does.
class FakeMaster
{
public:
    explicit FakeMaster(CompareDelete has)
        : m_has(has), m_peer([this](const QByteArrayList& argv, QTcpSocket*) { return answer(argv); })
    {}

    QString url() const { return m_peer.url(); }
    int count(const QByteArray& name) const { return m_peer.commandCount(name); }
    std::optional<QByteArray> value(const QByteArray& key) const
    {
        return m_keys.contains(key) ? std::optional<QByteArray>(m_keys.value(key)) : std::nullopt;
    }
    void set(const QByteArray& key, const QByteArray& value) { m_keys.insert(key, value); }
    // Between the inspection and the delete, another client takes the lock.
    void replaceOnNextDelete(const QByteArray& value) { m_replaceWith = value; }

private:
    std::optional<QByteArray> answer(const QByteArrayList& argv)
    {
        const QByteArray name = argv.first().toUpper();
        const QByteArray key = argv.value(1);
        if (name == "COMMAND" && argv.value(1).toUpper() == "INFO")
            return commandInfo(m_has);
        if (name == "SET" && argv.size() >= 3) {
            if (argv.contains("NX") && m_keys.contains(key))
                return T::nil();
            m_keys.insert(key, argv.at(2));
            return T::status("OK");
        }
        if (name == "TYPE")
            return T::status(m_keys.contains(key) ? "string" : "none");
        if (name == "PTTL")
            return T::integer(m_keys.contains(key) ? 10000 : -2);
        if (name == "GET" || name == "GETRANGE")
            return m_keys.contains(key) ? T::bulk(m_keys.value(key)) : T::bulk({});
        if (name == "STRLEN")
            return T::integer(m_keys.value(key).size());
        if (name == "DELIFEQ" && m_has == CompareDelete::DelIfEq && argv.size() == 3)
            return T::integer(deleteIf(key, argv.at(2)) ? 1 : 0);
        if (name == "DELEX" && m_has == CompareDelete::DelEx && argv.size() == 4 && argv.at(2) == "IFEQ")
            return T::integer(deleteIf(key, argv.at(3)) ? 1 : 0);
        if (name == "EVALSHA")
            return T::error("NOSCRIPT No matching script. Please use EVAL.");
        if (name == "EVAL" && argv.size() >= 5) {
            const qsizetype keys = argv.at(2).toInt();
            return runScript(argv.at(1), argv.at(3), argv.mid(3 + keys));
        }
        return std::nullopt;
    }

    bool deleteIf(const QByteArray& key, const QByteArray& expected)
    {
        if (m_replaceWith) {
            m_keys.insert(key, *m_replaceWith);
            m_replaceWith.reset();
        }
        if (!m_keys.contains(key) || m_keys.value(key) != expected)
            return false;
        m_keys.remove(key);
        return true;
    }

    // The release script answers 1, 0 or -1; the force-release script (ARGV: "expect", the token,
    // ...) {action, before, detail, ops}.
    QByteArray runScript(const QByteArray& lua, const QByteArray& key, const QByteArrayList& args)
    {
        if (lua.contains("local any = ARGV[1] == 'any'")) {
            if (!m_keys.contains(key))
                return T::array({T::bulk("absent"), T::bulk({}), T::bulk({}), T::array({})});
            const QByteArray before = m_keys.value(key);
            if (args.value(0) != "any" && before != args.value(1))
                return T::array({T::bulk("spared"), T::bulk(before), T::bulk({}), T::array({})});
            m_keys.remove(key);
            return T::array({T::bulk("deleted"), T::bulk(before), T::bulk({}),
                             T::array({T::array({T::bulk("DEL"), T::bulk(key)})})});
        }
        if (!m_keys.contains(key))
            return T::integer(0);
        if (m_keys.value(key) != args.value(0))
            return T::integer(-1);
        m_keys.remove(key);
        return T::integer(1);
    }

    CompareDelete m_has;
    FakeRedisPeer m_peer;
    QHash<QByteArray, QByteArray> m_keys;
    std::optional<QByteArray> m_replaceWith;
};

struct Masters
{
    std::vector<std::unique_ptr<FakeMaster>> fakes;
    LockScopeConfig config;
    std::unique_ptr<MasterSet> set;

    bool start(int n, CompareDelete has)
    {
        for (int i = 0; i < n; ++i)
            fakes.push_back(std::make_unique<FakeMaster>(has));
        for (const auto& f : fakes) {
            ConnectionOptions o;
            o.url = *RedisUrl::parse(f->url());
            o.healthIntervalMs = 0;
            config.masters << o;
        }
        config.redlock.masterTimeoutMs = 2000;
        set = std::make_unique<MasterSet>(config.masters);
        set->open();
        return QTest::qWaitFor([this] { return set->upCount() == set->size(); }, 5000);
    }
    int count(const QByteArray& name) const
    {
        int total = 0;
        for (const auto& f : fakes)
            total += f->count(name);
        return total;
    }
};

template <typename Outcome, typename Start> Outcome waitFor(Start start)
{
    std::optional<Outcome> result;
    start([&](const Outcome& o) { result = o; });
    if (!QTest::qWaitFor([&] { return result.has_value(); }, 10000))
        qFatal("no outcome within 10 s");
    return *result;
}

} // namespace

class TestCompareDelete : public QObject
{
    Q_OBJECT

private slots:
    void probeReadsTheServersOwnList_data();
    void probeReadsTheServersOwnList();
    void theHandshakeAsks();
    void releaseUsesTheServersCommand_data();
    void releaseUsesTheServersCommand();
    void releaseOfAnotherTokenDeletesNothing();
    void guardedForceReleaseUsesIt();
    void aTokenChangedSinceFallsBackToTheScriptsReport();
    void anyTokenAndOtherLayoutsKeepTheScript();

private:
    QTemporaryDir m_dir;
};

void TestCompareDelete::probeReadsTheServersOwnList_data()
{
    QTest::addColumn<RedisReply>("reply");
    QTest::addColumn<CompareDelete>("expected");
    auto entry = [](const QByteArray& name) {
        return RedisReply{
            RedisReply::Type::Array, 0, {}, {RedisReply{RedisReply::Type::String, 0, name, {}}}};
    };
    const RedisReply nil;
    auto list = [](std::initializer_list<RedisReply> elements) {
        return RedisReply{RedisReply::Type::Array, 0, {}, QList<RedisReply>(elements)};
    };
    QTest::newRow("Redis 7: neither") << list({nil, nil}) << CompareDelete::Script;
    QTest::newRow("Valkey 9: DELIFEQ") << list({entry("delifeq"), nil}) << CompareDelete::DelIfEq;
    QTest::newRow("Redis 8.4: DELEX") << list({nil, entry("delex")}) << CompareDelete::DelEx;
    QTest::newRow("both: DELIFEQ") << list({entry("delifeq"), entry("delex")}) << CompareDelete::DelIfEq;
    QTest::newRow("upper-case name") << list({entry("DELIFEQ"), nil}) << CompareDelete::DelIfEq;
    QTest::newRow("an entry for another command")
        << list({entry("get"), entry("set")}) << CompareDelete::Script;
    QTest::newRow("NOPERM") << RedisReply{RedisReply::Type::Error, 0, "NOPERM no permission", {}}
                            << CompareDelete::Script;
    QTest::newRow("one element") << list({entry("delifeq")}) << CompareDelete::Script;
    QTest::newRow("a string") << RedisReply{RedisReply::Type::String, 0, "delifeq", {}}
                              << CompareDelete::Script;
}

void TestCompareDelete::probeReadsTheServersOwnList()
{
    QFETCH(RedisReply, reply);
    QFETCH(CompareDelete, expected);
    QCOMPARE(CompareDeleteProbe::read(reply), expected);
}

void TestCompareDelete::theHandshakeAsks()
{
    Masters m;
    QVERIFY(m.start(1, CompareDelete::DelEx));
    QCOMPARE(m.set->connections().first()->health().compareDelete, CompareDelete::DelEx);
    QCOMPARE(m.count("COMMAND"), 1);
    // What the server lacks is never guessed from its version: a Redis 7 answer keeps the script.
    Masters old;
    QVERIFY(old.start(1, CompareDelete::Script));
    QCOMPARE(old.set->connections().first()->health().compareDelete, CompareDelete::Script);
}

void TestCompareDelete::releaseUsesTheServersCommand_data()
{
    QTest::addColumn<CompareDelete>("has");
    QTest::addColumn<QByteArray>("sent");
    QTest::newRow("Redis 7: the script") << CompareDelete::Script << QByteArray("EVAL");
    QTest::newRow("Valkey 9: DELIFEQ") << CompareDelete::DelIfEq << QByteArray("DELIFEQ");
    QTest::newRow("Redis 8.4: DELEX") << CompareDelete::DelEx << QByteArray("DELEX");
}

void TestCompareDelete::releaseUsesTheServersCommand()
{
    QFETCH(CompareDelete, has);
    QFETCH(QByteArray, sent);
    Masters m;
    QVERIFY(m.start(3, has));
    const AuditLog audit(m_dir.filePath(QStringLiteral("release.jsonl")));
    Redlock redlock(m.set.get(), m.config, &audit);
    const RedlockOutcome acquired =
        waitFor<RedlockOutcome>([&](auto done) { redlock.acquire("res:a", 10000, QString(), done); });
    QVERIFY2(acquired.ok(), qPrintable(acquired.error.message));
    const RedlockOutcome released =
        waitFor<RedlockOutcome>([&](auto done) { redlock.release(acquired.lease, done); });
    QVERIFY2(released.ok(), qPrintable(released.error.message));
    QCOMPARE(released.succeeded, 3);
    for (const auto& f : m.fakes)
        QVERIFY(!f->value("res:a"));
    // One command per master, and only the one chosen.
    QCOMPARE(m.count(sent), 3);
    for (const QByteArray other : {"EVAL", "EVALSHA", "DELIFEQ", "DELEX"})
        if (other != sent && !(sent == "EVAL" && other == "EVALSHA"))
            QCOMPARE(m.count(other), 0);
}

void TestCompareDelete::releaseOfAnotherTokenDeletesNothing()
{
    Masters m;
    QVERIFY(m.start(3, CompareDelete::DelIfEq));
    const AuditLog audit(m_dir.filePath(QStringLiteral("other.jsonl")));
    Redlock redlock(m.set.get(), m.config, &audit);
    for (const auto& f : m.fakes)
        f->set("res:b", "someone-else");
    RedlockLease lease;
    lease.resource = "res:b";
    lease.token = "mine";
    const RedlockOutcome released = waitFor<RedlockOutcome>([&](auto done) { redlock.release(lease, done); });
    QVERIFY(!released.ok());
    QCOMPARE(released.succeeded, 0);
    QCOMPARE(m.count("DELIFEQ"), 3);
    for (const auto& f : m.fakes)
        QCOMPARE(f->value("res:b"), std::optional<QByteArray>("someone-else"));
}

void TestCompareDelete::guardedForceReleaseUsesIt()
{
    Masters m;
    QVERIFY(m.start(2, CompareDelete::DelIfEq));
    const QByteArray token = "deploy-bot/0123456789abcdef0123456789abcdef";
    for (const auto& f : m.fakes)
        f->set("lock:orders", token);
    const AuditLog audit(m_dir.filePath(QStringLiteral("force.jsonl")));
    const ForceReleasePlan plan = waitFor<ForceReleasePlan>([&](auto done) {
        ForceRelease::inspect(*m.set, m.config, forceReleaseRequest("lock:orders", token), done);
    });
    // The preview (dialog, lockctl) says what will be sent: the command, not a script.
    for (const ForceReleaseTarget& t : plan.targets)
        QCOMPARE(t.step.sentAs, QByteArrayList({"DELIFEQ", "lock:orders", token}));
    const ForceReleaseOutcome outcome = waitFor<ForceReleaseOutcome>(
        [&](auto done) { ForceRelease::execute(*m.set, m.config, &audit, plan, done); });
    QCOMPARE(outcome.verdict, WriteVerdict::Done);
    for (const ForceReleaseMasterResult& r : outcome.results) {
        QCOMPARE(r.action, ForceReleaseMasterResult::Action::Deleted);
        QCOMPARE(r.tokenBefore, token);
        // What was really sent, for the result, the dialog and the audit record.
        QCOMPARE(r.commands, QList<QByteArrayList>({{"DELIFEQ", "lock:orders", token}}));
    }
    QCOMPARE(m.count("DELIFEQ"), 2);
    QCOMPARE(m.count("EVAL") + m.count("EVALSHA"), 0);
    for (const auto& f : m.fakes)
        QVERIFY(!f->value("lock:orders"));
}

void TestCompareDelete::aTokenChangedSinceFallsBackToTheScriptsReport()
{
    Masters m;
    QVERIFY(m.start(1, CompareDelete::DelEx));
    FakeMaster& master = *m.fakes.front();
    master.set("lock:orders", "token-seen");
    master.replaceOnNextDelete("token-new");
    const AuditLog audit(m_dir.filePath(QStringLiteral("changed.jsonl")));
    const ForceReleaseOutcome outcome = waitFor<ForceReleaseOutcome>([&](auto done) {
        ForceRelease::run(*m.set, m.config, &audit, forceReleaseRequest("lock:orders", "token-seen"), done);
    });
    // DELEX answered 0: nothing deleted. The script then says what is there, as it always did.
    QCOMPARE(m.count("DELEX"), 1);
    QCOMPARE(m.count("EVAL"), 1);
    QCOMPARE(outcome.verdict, WriteVerdict::NotDone);
    QCOMPARE(outcome.results.first().action, ForceReleaseMasterResult::Action::Spared);
    QCOMPARE(outcome.results.first().tokenBefore, QByteArray("token-new"));
    QCOMPARE(master.value("lock:orders"), std::optional<QByteArray>("token-new"));
}

void TestCompareDelete::anyTokenAndOtherLayoutsKeepTheScript()
{
    ForceReleaseTarget target;
    target.observation.present = true;
    target.observation.type = "string";
    target.step.kind = ForceReleaseStep::Kind::Delete;
    target.step.commands = {{"DEL", "lock:x"}};
    ForceReleaseRequest request = forceReleaseRequest("lock:x", "tok");
    QCOMPARE(ForceReleasePlanner::compareDelete(request, target, CompareDelete::DelIfEq),
             QByteArrayList({"DELIFEQ", "lock:x", "tok"}));
    QCOMPARE(ForceReleasePlanner::compareDelete(request, target, CompareDelete::Script), QByteArrayList());
    // --any-token deletes whatever is there: no value to compare.
    ForceReleaseRequest any = request;
    any.mode = ForceReleaseMode::AnyToken;
    QCOMPARE(ForceReleasePlanner::compareDelete(any, target, CompareDelete::DelIfEq), QByteArrayList());
    // python-redis-lock also signals its waiters: more than one command, the script does both.
    ForceReleaseTarget signalled = target;
    signalled.step.commands << ForceReleaseStep::Command{"LPUSH", "lock-signal:x", "1"};
    QCOMPARE(ForceReleasePlanner::compareDelete(request, signalled, CompareDelete::DelIfEq),
             QByteArrayList());
    // A Redisson hash (DEL then PUBLISH) or a cluster entry: the script.
    ForceReleaseTarget hash = target;
    hash.observation.type = "hash";
    QCOMPARE(ForceReleasePlanner::compareDelete(request, hash, CompareDelete::DelIfEq), QByteArrayList());
    ForceReleaseTarget sharded = target;
    sharded.sharded = true;
    QCOMPARE(ForceReleasePlanner::compareDelete(request, sharded, CompareDelete::DelEx), QByteArrayList());
}

LOCKSCOPE_TEST_MAIN(TestCompareDelete)

} // namespace tst_comparedelete

#include "tst_comparedelete.moc"
