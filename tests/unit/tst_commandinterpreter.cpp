// SPDX-License-Identifier: Apache-2.0
#include "support/testregistry.h"
#include "trace/commandinterpreter.h"
#include "trace/locktracer.h"

#include <QTest>

namespace tst_commandinterpreter {

using namespace lockscope;

// The tracer's reading of what each command meant (issue #43), on scenarios whose truth is written
// down here, command by command, the way MONITOR shows them: a script's line, then its own calls.
// The interpreter sees only the lines; each expected meaning is what the scenario did.
class TestCommandInterpreter : public QObject
{
    Q_OBJECT

private slots:
    void setNxTakesAFreeLockAndIsRefusedWhileHeld();
    void aLeaseRunsOutOnTheMastersClock();
    void aTakeAfterALapsedLeaseNamesItsHolder();
    void flashSaleDeleteIsByANonHolder();
    void plainDelFromTheHoldersConnectionIsARelease();
    void staleTokenReleaseAndExtendAreTold();
    void aRefusedContendersCleanupIsNotAStaleHolder();
    void scriptKindIsLearntFromWhatItDid();
    void aScriptThatDidNotRunIsNoAttempt();
    void redissonReentryAndRelease();
    void plainWriteOverAHolderIsAReplacement();
    void auxiliaryKeysAreWaitersAndNotices();
    void stateReadAtTheStartIsTheFirstHolder();
};

namespace {

const QByteArray key = "lock:x";
const QByteArray a = "10.0.0.1:1111";
const QByteArray b = "10.0.0.2:2222";
const qint64 t0 = 1'800'000'000'000'000; // µs

MonitorLine line(qint64 us, const QByteArray& client, const QByteArrayList& args)
{
    MonitorLine l;
    l.timeUs = us;
    l.client = client;
    l.args = args;
    return l;
}

MonitorLine call(qint64 us, const QByteArrayList& args)
{
    return line(us, "lua", args);
}

const QByteArray releaseScript =
    "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";
const QByteArray extendScript = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', "
                                "KEYS[1], ARGV[2]) else return 0 end";

CommandInterpreter interpreter()
{
    return CommandInterpreter(key, LockTracer::keysOf(key));
}

// A release by `token`: the script's line, then `get` and, when the token holds the lock, `del`.
TracedCommand release(CommandInterpreter& in, qint64 us, const QByteArray& client, const QByteArray& token,
                      bool matches)
{
    QList<MonitorLine> calls{call(us + 10, {"get", key})};
    if (matches)
        calls << call(us + 20, {"del", key});
    return in.interpret(line(us, client, {"EVAL", releaseScript, "1", key, token}), calls);
}

} // namespace

void TestCommandInterpreter::setNxTakesAFreeLockAndIsRefusedWhileHeld()
{
    CommandInterpreter in = interpreter();
    in.model().startAbsent();
    const TracedCommand first = in.interpret(line(t0, a, {"SET", key, "ta", "NX", "PX", "30000"}), {});
    QCOMPARE(first.meaning, TraceMeaning::Acquired);
    QCOMPARE(first.token, QByteArray("ta"));
    for (int i = 1; i <= 3; ++i) {
        const TracedCommand again =
            in.interpret(line(t0 + i * 1000, b, {"set", key, "tb", "nx", "px", "30000"}), {});
        QCOMPARE(again.meaning, TraceMeaning::Refused);
        QCOMPARE(again.holderToken, QByteArray("ta"));
        QCOMPARE(again.holderClient, a);
    }
    // SETNX, the legacy form, is an acquire attempt too.
    QCOMPARE(in.interpret(line(t0 + 5000, b, {"SETNX", key, "1800000031"}), {}).meaning,
             TraceMeaning::Refused);
}

void TestCommandInterpreter::aLeaseRunsOutOnTheMastersClock()
{
    CommandInterpreter in = interpreter();
    in.model().startAbsent();
    in.interpret(line(t0, a, {"SET", key, "ta", "NX", "PX", "1000"}), {});
    // At its last millisecond the lock still holds; a microsecond past it, it is free.
    QCOMPARE(in.interpret(line(t0 + 1'000'000, b, {"SET", key, "tb", "NX", "PX", "1000"}), {}).meaning,
             TraceMeaning::Refused);
    const TracedCommand taken =
        in.interpret(line(t0 + 1'000'001, b, {"SET", key, "tb", "NX", "EX", "5"}), {});
    QCOMPARE(taken.meaning, TraceMeaning::Acquired);
    QVERIFY(taken.holderToken.isEmpty());
    // EX is seconds: 4.9 s later still held.
    QCOMPARE(in.interpret(line(t0 + 5'900'000, a, {"SET", key, "tc", "NX", "PX", "10"}), {}).meaning,
             TraceMeaning::Refused);
}

void TestCommandInterpreter::aTakeAfterALapsedLeaseNamesItsHolder()
{
    // Whether a lapsed holder was still connected is asked of the master (MasterTrace); the
    // interpreter names the takes that need the question, and whose connection to ask about.
    CommandInterpreter in = interpreter();
    in.model().startAbsent();
    in.interpret(line(t0, a, {"SET", key, "ta", "NX", "PX", "1000"}), {});
    const TracedCommand taken =
        in.interpret(line(t0 + 1'500'000, b, {"SET", key, "tb", "NX", "PX", "1000"}), {});
    QCOMPARE(taken.meaning, TraceMeaning::Acquired);
    QCOMPARE(taken.lapsed, TracedCommand::Lapsed::Unasked);
    QCOMPARE(taken.lapsedToken, QByteArray("ta"));
    QCOMPARE(taken.lapsedClient, a);
    // Taken by a script (a Redlock's acquire) after tb's lease ran out: tb's connection is asked about.
    const QByteArray acquireScript = "return redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])";
    const TracedCommand scripted =
        in.interpret(line(t0 + 3'000'000, a, {"EVAL", acquireScript, "1", key, "tc", "1000"}),
                     {call(t0 + 3'000'010, {"set", key, "tc", "NX", "PX", "1000"})});
    QCOMPARE(scripted.meaning, TraceMeaning::Acquired);
    QCOMPARE(scripted.lapsed, TracedCommand::Lapsed::Unasked);
    QCOMPARE(scripted.lapsedToken, QByteArray("tb"));
    QCOMPARE(scripted.lapsedClient, b);

    // Not asked: a take after a release, a take from the lapsed holder's own connection, a take
    // after a holder the trace never saw take the lock.
    QCOMPARE(in.interpret(line(t0 + 3'100'000, a, {"DEL", key}), {}).meaning, TraceMeaning::Released);
    QCOMPARE(in.interpret(line(t0 + 3'200'000, b, {"SET", key, "td", "NX", "PX", "1000"}), {}).lapsed,
             TracedCommand::Lapsed::None);
    QCOMPARE(in.interpret(line(t0 + 4'500'000, b, {"SET", key, "te", "NX", "PX", "1000"}), {}).lapsed,
             TracedCommand::Lapsed::None);
    CommandInterpreter before = interpreter();
    before.model().startHeld("t0", 100, t0 / 1000 * 1000);
    QCOMPARE(before.interpret(line(t0 + 200'000, b, {"SET", key, "tf", "NX", "PX", "1000"}), {}).lapsed,
             TracedCommand::Lapsed::None);
    // Refused while held: nothing lapsed.
    const TracedCommand refused =
        in.interpret(line(t0 + 4'600'000, a, {"SET", key, "tg", "NX", "PX", "1000"}), {});
    QCOMPARE(refused.meaning, TraceMeaning::Refused);
    QCOMPARE(refused.lapsed, TracedCommand::Lapsed::None);
}

void TestCommandInterpreter::flashSaleDeleteIsByANonHolder()
{
    // A takes the lock for one second and stalls for two; B takes it once it expired; A, done, DELs.
    CommandInterpreter in = interpreter();
    in.model().startAbsent();
    QCOMPARE(in.interpret(line(t0, a, {"SET", key, "a", "NX", "EX", "1"}), {}).meaning,
             TraceMeaning::Acquired);
    QCOMPARE(in.interpret(line(t0 + 1'200'000, b, {"SET", key, "b", "NX", "EX", "1"}), {}).meaning,
             TraceMeaning::Acquired);
    const TracedCommand del = in.interpret(line(t0 + 2'000'000 - 1, a, {"DEL", key}), {});
    QCOMPARE(del.meaning, TraceMeaning::DeletedByNonHolder);
    QCOMPARE(del.client.address, a);
    QCOMPARE(del.token, QByteArray("b"));
    QCOMPARE(del.holderClient, b);
    QVERIFY2(del.detail.contains(QLatin1String("token a held it until")), qPrintable(del.detail));
    // B's own release now finds nothing, and the lock is free for the next buyer.
    QCOMPARE(in.interpret(line(t0 + 2'100'000, "10.0.0.3:3", {"SET", key, "c", "NX", "EX", "1"}), {}).meaning,
             TraceMeaning::Acquired);
}

void TestCommandInterpreter::plainDelFromTheHoldersConnectionIsARelease()
{
    CommandInterpreter in = interpreter();
    in.model().startAbsent();
    in.interpret(line(t0, a, {"SET", key, "a", "NX", "EX", "10"}), {});
    const TracedCommand del = in.interpret(line(t0 + 1000, a, {"UNLINK", key}), {});
    QCOMPARE(del.meaning, TraceMeaning::Released);
    QVERIFY(del.detail.contains(QLatin1String("not token-checked")));
    // Nothing to delete any more.
    QCOMPARE(in.interpret(line(t0 + 2000, b, {"DEL", key}), {}).meaning, TraceMeaning::Other);
}

void TestCommandInterpreter::staleTokenReleaseAndExtendAreTold()
{
    // A holds for 300 ms and pauses; B takes over; A wakes and releases (then extends) with its token.
    CommandInterpreter in = interpreter();
    in.model().startAbsent();
    in.interpret(line(t0, a, {"SET", key, "ta", "NX", "PX", "300"}), {});
    in.interpret(line(t0 + 400'000, b, {"SET", key, "tb", "NX", "PX", "30000"}), {});
    const TracedCommand stale = release(in, t0 + 500'000, a, "ta", false);
    QCOMPARE(stale.meaning, TraceMeaning::StaleRelease);
    QCOMPARE(stale.token, QByteArray("ta"));
    QCOMPARE(stale.holderToken, QByteArray("tb"));
    QVERIFY(isTraceWarning(stale.meaning));
    const TracedCommand extend =
        in.interpret(line(t0 + 600'000, a, {"EVAL", extendScript, "1", key, "ta", "30000"}),
                     {call(t0 + 600'010, {"get", key})});
    QCOMPARE(extend.meaning, TraceMeaning::StaleExtend);
    // B's release goes through: a release, not a warning.
    const TracedCommand mine = release(in, t0 + 700'000, b, "tb", true);
    QCOMPARE(mine.meaning, TraceMeaning::Released);
    QVERIFY(!isTraceWarning(mine.meaning));
    // A again, now that nobody holds it: still a holder that ran past its lease.
    QCOMPARE(release(in, t0 + 800'000, a, "ta", false).meaning, TraceMeaning::StaleRelease);
}

void TestCommandInterpreter::aRefusedContendersCleanupIsNotAStaleHolder()
{
    // node-redlock releases every master after an attempt that missed the quorum, with a token that
    // never held the lock on this one: a refused contender tidying up.
    CommandInterpreter in = interpreter();
    in.model().startAbsent();
    in.interpret(line(t0, a, {"SET", key, "ta", "NX", "PX", "30000"}), {});
    const QByteArray acquire =
        "for i, key in ipairs(KEYS) do if redis.call(\"exists\", key) == 1 then return 0 end "
        "end for i, key in ipairs(KEYS) do redis.call(\"set\", key, ARGV[1], \"PX\", ARGV[2]) "
        "end return #KEYS";
    const TracedCommand refused = in.interpret(line(t0 + 1000, b, {"EVAL", acquire, "1", key, "tb", "30000"}),
                                               {call(t0 + 1010, {"exists", key})});
    QCOMPARE(refused.meaning, TraceMeaning::Refused);
    QCOMPARE(refused.token, QByteArray("tb"));
    const TracedCommand cleanup = release(in, t0 + 2000, b, "tb", false);
    QVERIFY2(!isTraceWarning(cleanup.meaning), qPrintable(traceMeaningName(cleanup.meaning)));
    QCOMPARE(cleanup.meaning, TraceMeaning::Other); // not a second refused attempt either
}

void TestCommandInterpreter::scriptKindIsLearntFromWhatItDid()
{
    CommandInterpreter in = interpreter();
    in.model().startAbsent();
    const QByteArray sha = "0123456789abcdef0123456789abcdef01234567";
    in.interpret(line(t0, a, {"SET", key, "ta", "NX", "PX", "300"}), {});
    // EVALSHA's source is unknown; once it deleted the lock, it is a release script.
    QCOMPARE(in.interpret(line(t0 + 1000, a, {"EVALSHA", sha, "1", key, "ta"}),
                          {call(t0 + 1010, {"GET", key}), call(t0 + 1020, {"DEL", key})})
                 .meaning,
             TraceMeaning::Released);
    in.interpret(line(t0 + 2000, a, {"SET", key, "ta2", "NX", "PX", "300"}), {});
    in.interpret(line(t0 + 400'000, b, {"SET", key, "tb", "NX", "PX", "30000"}), {});
    QCOMPARE(in.interpret(line(t0 + 500'000, a, {"EVALSHA", sha.toUpper(), "1", key, "ta2"}),
                          {call(t0 + 500'010, {"GET", key})})
                 .meaning,
             TraceMeaning::StaleRelease);
}

void TestCommandInterpreter::aScriptThatDidNotRunIsNoAttempt()
{
    // ioredis sends EVALSHA first; the master answers NOSCRIPT (MONITOR still shows the line, with no
    // call after it) and the same attempt comes again as EVAL: one attempt, not two.
    CommandInterpreter in = interpreter();
    in.model().startAbsent();
    in.interpret(line(t0, a, {"SET", key, "ta", "NX", "PX", "30000"}), {});
    const QByteArray acquire =
        "if redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end return 0";
    const TracedCommand noscript = in.interpret(
        line(t0 + 1000, b, {"EVALSHA", "1111111111111111111111111111111111111111", "1", key, "tb", "1000"}),
        {});
    QCOMPARE(noscript.meaning, TraceMeaning::Other);
    const TracedCommand attempt = in.interpret(line(t0 + 1100, b, {"EVAL", acquire, "1", key, "tb", "1000"}),
                                               {call(t0 + 1110, {"set", key, "tb", "NX", "PX", "1000"})});
    QCOMPARE(attempt.meaning, TraceMeaning::Refused);
}

void TestCommandInterpreter::redissonReentryAndRelease()
{
    CommandInterpreter in = interpreter();
    in.model().startAbsent();
    const QByteArray lockScript =
        "if (redis.call('exists', KEYS[1]) == 0) then redis.call('hincrby', KEYS[1], "
        "ARGV[2], 1); redis.call('pexpire', KEYS[1], ARGV[1]); return nil; end; ...";
    const QByteArray field = "uuid-1:57";
    QCOMPARE(in.interpret(line(t0, a, {"EVAL", lockScript, "1", key, "30000", field}),
                          {call(t0 + 5, {"exists", key}), call(t0 + 6, {"hincrby", key, field, "1"}),
                           call(t0 + 7, {"pexpire", key, "30000"})})
                 .meaning,
             TraceMeaning::Acquired);
    QCOMPARE(in.interpret(line(t0 + 100, a, {"EVAL", lockScript, "1", key, "30000", field}),
                          {call(t0 + 105, {"exists", key}), call(t0 + 106, {"hexists", key, field}),
                           call(t0 + 107, {"hincrby", key, field, "1"}),
                           call(t0 + 108, {"pexpire", key, "30000"})})
                 .meaning,
             TraceMeaning::Extended);
    // Another thread's attempt: the hash holds someone else.
    QCOMPARE(in.interpret(line(t0 + 200, b, {"EVAL", lockScript, "1", key, "30000", "uuid-2:9"}),
                          {call(t0 + 205, {"exists", key}), call(t0 + 206, {"hexists", key, "uuid-2:9"}),
                           call(t0 + 207, {"pttl", key})})
                 .meaning,
             TraceMeaning::Refused);
    const QByteArray unlock =
        "... redis.call('hincrby', KEYS[1], ARGV[3], -1); ... redis.call('del', KEYS[1]); "
        "redis.call('publish', KEYS[2], ARGV[1]); ...";
    const QByteArray channel = "redisson_lock__channel:{lock:x}";
    QCOMPARE(
        in.interpret(line(t0 + 300, a, {"EVAL", unlock, "2", key, channel, "0", "30000", field}),
                     {call(t0 + 305, {"hexists", key, field}), call(t0 + 306, {"hincrby", key, field, "-1"}),
                      call(t0 + 307, {"pexpire", key, "30000"})})
            .meaning,
        TraceMeaning::Extended); // one re-entry given back, the lease renewed: still held
    QCOMPARE(
        in.interpret(line(t0 + 400, a, {"EVAL", unlock, "2", key, channel, "0", "30000", field}),
                     {call(t0 + 405, {"hexists", key, field}), call(t0 + 406, {"hincrby", key, field, "-1"}),
                      call(t0 + 407, {"del", key}), call(t0 + 408, {"publish", channel, "0"})})
            .meaning,
        TraceMeaning::Released);
}

void TestCommandInterpreter::plainWriteOverAHolderIsAReplacement()
{
    CommandInterpreter in = interpreter();
    in.model().startAbsent();
    in.interpret(line(t0, a, {"SET", key, "ta", "NX", "PX", "30000"}), {});
    const TracedCommand over = in.interpret(line(t0 + 1000, b, {"SET", key, "tb", "PX", "30000"}), {});
    QCOMPARE(over.meaning, TraceMeaning::Replaced);
    QCOMPARE(over.holderToken, QByteArray("ta"));
    QCOMPARE(in.interpret(line(t0 + 2000, b, {"GETSET", key, "tc"}), {}).meaning, TraceMeaning::Replaced);
    // The same value again is a refresh, and an expiry from the holder an extend.
    QCOMPARE(in.interpret(line(t0 + 3000, b, {"SET", key, "tc", "PX", "30000"}), {}).meaning,
             TraceMeaning::Extended);
    const TracedCommand expire = in.interpret(line(t0 + 4000, b, {"PEXPIRE", key, "60000"}), {});
    QCOMPARE(expire.meaning, TraceMeaning::Extended);
    QVERIFY(expire.detail.isEmpty());
    const TracedCommand foreign = in.interpret(line(t0 + 5000, a, {"EXPIRE", key, "60"}), {});
    QCOMPARE(foreign.meaning, TraceMeaning::Extended);
    QVERIFY(foreign.detail.contains(QLatin1String("not from the connection that set it")));
    // An expiry in the past deletes.
    QCOMPARE(in.interpret(line(t0 + 6000, b, {"PEXPIRE", key, "0"}), {}).meaning, TraceMeaning::Released);
}

void TestCommandInterpreter::auxiliaryKeysAreWaitersAndNotices()
{
    CommandInterpreter in = interpreter();
    in.model().startAbsent();
    QCOMPARE(in.interpret(line(t0, b, {"SUBSCRIBE", "redisson_lock__channel:{lock:x}"}), {}).meaning,
             TraceMeaning::Waiting);
    QCOMPARE(in.interpret(line(t0, b, {"BLPOP", "lock-signal:x", "5"}), {}).meaning, TraceMeaning::Waiting);
    const TracedCommand notice =
        in.interpret(line(t0, a, {"PUBLISH", "redisson_lock__channel:{lock:x}", "0"}), {});
    QCOMPARE(notice.meaning, TraceMeaning::Other);
    QVERIFY(!notice.detail.isEmpty());
    QCOMPARE(in.interpret(line(t0, a, {"PTTL", key}), {}).meaning, TraceMeaning::Read);
}

void TestCommandInterpreter::stateReadAtTheStartIsTheFirstHolder()
{
    // The trace began with "tok" holding for 250 ms more; the tracer never saw who set it.
    CommandInterpreter in = interpreter();
    in.model().startHeld("tok", 250, t0);
    const TracedCommand refused =
        in.interpret(line(t0 + 100'000, b, {"SET", key, "tb", "NX", "PX", "1000"}), {});
    QCOMPARE(refused.meaning, TraceMeaning::Refused);
    QVERIFY(refused.detail.contains(QLatin1String("since before the trace began")));
    // The old holder's plain DEL cannot be told from a stranger's: no connection is known for it.
    QCOMPARE(in.interpret(line(t0 + 300'000, b, {"SET", key, "tb", "NX", "PX", "1000"}), {}).meaning,
             TraceMeaning::Acquired);
    QCOMPARE(release(in, t0 + 400'000, a, "tok", false).meaning, TraceMeaning::StaleRelease);
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestCommandInterpreter)

} // namespace tst_commandinterpreter

#include "tst_commandinterpreter.moc"
