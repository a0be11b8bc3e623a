// SPDX-License-Identifier: Apache-2.0
// RedisConnection against a ScriptedTransport: how replies are read (split anywhere, in bursts,
// nested, past a limit, malformed) and how commands are written, byte for byte and deterministic.
#include "connection/redisconnection.h"
#include "support/scriptedrig.h"
#include "support/testregistry.h"

#include <QTest>

Q_DECLARE_METATYPE(lockscope::ErrorKind)
Q_DECLARE_METATYPE(lockscope::ReplyLimits)

namespace tst_redisconnection_fake {

using namespace lockscope;
using namespace lockscope::test;
using namespace lockscope::test::scripted;

namespace {

// One of each RESP2 shape, including the awkward ones, one after the other as a server sends them,
// and what each must read as.
struct ReplyCases
{
    QByteArray stream;
    QStringList expected;
};

// The expectations are written out by hand.
ReplyCases replyCases()
{
    const QList<std::pair<QByteArray, QString>> cases{
        {"+OK\r\n", QStringLiteral("+OK")},
        {"-ERR something bad\r\n", QStringLiteral("-ERR something bad")},
        {":0\r\n", QStringLiteral(":0")},
        {":-42\r\n", QStringLiteral(":-42")},
        {":9223372036854775807\r\n", QStringLiteral(":9223372036854775807")},
        {"$0\r\n\r\n", QStringLiteral("$")},
        {"$-1\r\n", QStringLiteral("nil")},
        {raw("$9\r\na\0b\xff\xfe\r\n$3\r\n"), QStringLiteral("$a\\x00b\\xff\\xfe\\x0d\\x0a$3")},
        {"*0\r\n", QStringLiteral("[]")},
        {"*-1\r\n", QStringLiteral("nil")},
        {"*3\r\n:1\r\n*2\r\n+x\r\n$-1\r\n$2\r\nhi\r\n", QStringLiteral("[:1,[+x,nil],$hi]")},
        {"+caf\xe9 \xc3\x28\r\n", QStringLiteral("+caf\\xe9 \\xc3(")},
        {"-WRONGTYPE \x80\x81\r\n", QStringLiteral("-WRONGTYPE \\x80\\x81")},
    };
    ReplyCases out;
    for (const auto& [encoded, expected] : cases) {
        out.stream += encoded;
        out.expected << expected;
    }
    return out;
}

// Two connections (a Redlock's masters), up, and where their answers go.
struct TwoMasters
{
    Results results;
    Rig a;
    Rig b;
    bool up() { return a.bringUp() && b.bringUp(); }
};

// One GET on `rig` for each case, answered into `results`.
void sendForEachCase(Rig& rig, Results& results, const ReplyCases& cases)
{
    for (qsizetype i = 0; i < cases.expected.size(); ++i)
        rig->send({"GET", "k"}, results.add());
}

} // namespace

class TestRedisConnectionFake : public QObject
{
    Q_OBJECT

private slots:
    void repliesSplitAtEveryByteBoundary();
    void repliesFedInChunks_data();
    void repliesFedInChunks();
    void largeChunkOfSmallReplies();
    void largeReplyThenSmallOnesInOneChunk();
    void aBurstIsTakenASliceAtATime();
    void nestedArrays();
    void aBadReplyFailsTheMaster_data();
    void aBadReplyFailsTheMaster();
    void binaryArgumentsAreWrittenVerbatim();
    void firstCommandAtOnceRestOfPassInOneFlush();
    void callbacksOfOneReadWriteOncePerConnection();
    void aHeldCommandLeavesInsideANestedEventLoop();
    void replyWithoutCommand();
    void repliesInsideFlushDoNotResendItsBytes();
};

void TestRedisConnectionFake::repliesSplitAtEveryByteBoundary()
{
    Results results;
    Rig rig;
    QVERIFY(rig.bringUp());
    const ReplyCases cases = replyCases();
    for (qsizetype cut = 0; cut <= cases.stream.size(); ++cut) {
        results.all.clear();
        sendForEachCase(rig, results, cases);
        rig.transport->feed(cases.stream.left(cut));
        rig.transport->feed(cases.stream.mid(cut));
        QVERIFY2(
            results.described() == cases.expected,
            qPrintable(
                QStringLiteral("cut at %1: %2").arg(cut).arg(results.described().join(QLatin1Char(' ')))));
    }
    QVERIFY(rig->isUp());
    QCOMPARE(rig->pendingCount(), 0);
}

void TestRedisConnectionFake::repliesFedInChunks_data()
{
    QTest::addColumn<qsizetype>("chunk"); // bytes fed at a time; 0: all in one
    QTest::newRow("one byte at a time") << qsizetype(1);
    QTest::newRow("all in one chunk") << qsizetype(0);
}

void TestRedisConnectionFake::repliesFedInChunks()
{
    QFETCH(qsizetype, chunk);
    Results results;
    Rig rig;
    QVERIFY(rig.bringUp());
    const ReplyCases cases = replyCases();
    sendForEachCase(rig, results, cases);
    QVERIFY(rig.waitWritten(plainHandshake + cases.expected.size()));
    // Half a reply more than there are commands for stays buffered and harms nothing yet.
    const QByteArray bytes = cases.stream + "$5\r\nhal";
    const qsizetype step = chunk > 0 ? chunk : bytes.size();
    for (qsizetype at = 0; at < bytes.size(); at += step)
        rig.transport->feed(bytes.mid(at, step));
    QCOMPARE(results.described(), cases.expected);
    QVERIFY(rig->isUp());
    rig->send({"GET", "k"}, results.add());
    rig.transport->feed("f!\r\n");
    QCOMPARE(results.all.size(), cases.expected.size() + 1);
    QCOMPARE(describe(results.all.last()), QStringLiteral("$half!"));
}

void TestRedisConnectionFake::largeChunkOfSmallReplies()
{
    Results results;
    Rig rig;
    QVERIFY(rig.bringUp());
    const int n = 20000; // well over any internal feeding slice
    QByteArray chunk;
    for (int i = 0; i < n; ++i) {
        rig->send({"INCR", "c"}, results.add());
        chunk += T::integer(i + 1);
    }
    QVERIFY(chunk.size() > 64 * 1024);
    rig.transport->feed(chunk);
    QCOMPARE(results.all.size(), n);
    for (int i = 0; i < n; ++i)
        QCOMPARE(results.all[i].reply.integer, qint64(i + 1));
    QCOMPARE(rig->pendingCount(), 0);
}

void TestRedisConnectionFake::largeReplyThenSmallOnesInOneChunk()
{
    Results results;
    Rig rig;
    QVERIFY(rig.bringUp());
    QByteArray big(300 * 1024, 'x');
    for (qsizetype i = 0; i < big.size(); i += 997)
        big[i] = char(i % 256);
    for (int i = 0; i < 4; ++i)
        rig->send({"GET", "k"}, results.add());
    rig.transport->feed(T::bulk(big) + T::status("OK") + T::bulk(big.left(20000)) + T::integer(7));
    QCOMPARE(results.all.size(), 4);
    QVERIFY(results.all[0].reply.string == big);
    QCOMPARE(describe(results.all[1]), QStringLiteral("+OK"));
    QVERIFY(results.all[2].reply.string == big.left(20000));
    QCOMPARE(results.all[3].reply.integer, qint64(7));
}

// A burst that piled up in the socket (a flood of keyspace events behind a busy thread) is taken
// out a slice at a time and parsed as it goes, all in the one readyRead, in order; a callback that
// closes the connection in a later slice stops it there.
void TestRedisConnectionFake::aBurstIsTakenASliceAtATime()
{
    Results results;
    Rig rig;
    QVERIFY(rig.bringUp());
    const int n = 40000;
    const QByteArray value(24, 'v');
    QByteArray burst;
    for (int i = 0; i < n; ++i) {
        if (i == n - 1000)
            rig->send({"GET", "k"}, [&](const RedisResult& r) {
                results.all << r;
                rig->close();
            });
        else
            rig->send({"GET", "k"}, results.add());
        burst += T::bulk(value + QByteArray::number(i));
    }
    QVERIFY(burst.size() > 4 * 256 * 1024);
    const int readsBefore = rig.transport->reads();
    rig.transport->feed(burst);
    QCOMPARE(results.all.size(), n);
    for (int i = 0; i < n - 999; ++i)
        if (results.all[i].reply.string != value + QByteArray::number(i))
            QFAIL(qPrintable(QStringLiteral("reply %1 is %2").arg(i).arg(describe(results.all[i]))));
    for (int i = n - 999; i < n; ++i)
        QCOMPARE(describe(results.all[i]), QStringLiteral("error:cancelled"));
    QCOMPARE(rig->state(), State::Disconnected);
    QVERIFY2(rig.transport->largestRead() <= 256 * 1024,
             qPrintable(QString::number(rig.transport->largestRead())));
    QVERIFY(rig.transport->reads() - readsBefore >= 4);
}

void TestRedisConnectionFake::nestedArrays()
{
    Results results;
    Rig rig;
    QVERIFY(rig.bringUp());
    // Seven arrays inside each other, with siblings at several levels.
    QByteArray deep = T::integer(7);
    QString expected = QStringLiteral(":7");
    for (int level = 6; level >= 0; --level) {
        deep = T::array({T::bulk(QByteArray::number(level)), deep, T::nil()});
        expected = QStringLiteral("[$%1,%2,nil]").arg(level).arg(expected);
    }
    const QByteArray mixed =
        T::array({T::array({}), T::array({T::array({T::status("a")}), T::error("ERR b")}),
                  T::array({T::integer(1), T::integer(2), T::integer(3)})});
    for (int i = 0; i < 3; ++i)
        rig->send({"EVAL", "x", "0"}, results.add());
    rig.transport->feed(deep + mixed + T::array({T::bulk(raw("\0"))}));
    QCOMPARE(results.described(), QStringList({expected, QStringLiteral("[[],[[+a],-ERR b],[:1,:2,:3]]"),
                                               QStringLiteral("[$\\x00]")}));
    QCOMPARE(results.all[0].reply.elements[1].elements[1].elements.size(), 3);
}

// A reply past a limit, or one RESP does not have, fails the master and everything pending at the
// first byte that tells (a header announcing too much: never buffered towards), and whatever else
// arrives for the dead stream is ignored.
void TestRedisConnectionFake::aBadReplyFailsTheMaster_data()
{
    QTest::addColumn<ReplyLimits>("limits");
    QTest::addColumn<QByteArrayList>("commands"); // each one's words, space-separated
    QTest::addColumn<QByteArrayList>("feeds");    // fed one after the other
    QTest::addColumn<QByteArray>("repeated");     // then fed while the master is up ...
    QTest::addColumn<int>("repeats");             // ... at most this many times
    QTest::addColumn<QStringList>("results");
    QTest::addColumn<ErrorKind>("kind");
    QTest::addColumn<QStringList>("words"); // the error says each

    const QString tooLarge = QStringLiteral("error:reply-too-large");
    const QString protocol = QStringLiteral("error:protocol-error");
    const ReplyLimits defaults;
    // hiredis 0.14 reads at most 8 levels of arrays; deeper must fail cleanly, not overflow.
    QByteArray deep = T::integer(1);
    for (int level = 0; level < 12; ++level)
        deep = T::array({deep});
    QTest::newRow("nested too deeply")
        << defaults << QByteArrayList{"EVAL x 0", "PING"} << QByteArrayList{deep} << QByteArray() << 0
        << QStringList{tooLarge, tooLarge} << ErrorKind::ReplyTooLarge
        << QStringList{QStringLiteral("maxDepth")};
    // A peer announcing a 10 GB string, with the default limit (512 MiB).
    QTest::newRow("a huge bulk fails at its header")
        << defaults << QByteArrayList{"GET k", "PING"} << QByteArrayList{"$10000000000\r\nabc"}
        << QByteArray() << 0 << QStringList{tooLarge, tooLarge} << ErrorKind::ReplyTooLarge
        << QStringList{QStringLiteral("536870912"), QStringLiteral("maxBulkBytes")};
    ReplyLimits bulk;
    bulk.maxBulkBytes = 2048;
    // At the limit is fine, one byte over is not (announced in the header, body not sent yet) ...
    QTest::newRow("a bulk over a set limit")
        << bulk << QByteArrayList{"GET a", "GET b"}
        << QByteArrayList{T::bulk(QByteArray(2048, 'x')) + "$2049\r\n"} << QByteArray() << 0
        << QStringList{QStringLiteral("$") + QString(2048, QLatin1Char('x')), tooLarge}
        << ErrorKind::ReplyTooLarge << QStringList{QStringLiteral("2048")};
    // ... and over it, complete in one read (never waited for), the same.
    QTest::newRow("a bulk over a set limit, whole")
        << bulk << QByteArrayList{"GET c"} << QByteArrayList{T::bulk(QByteArray(3000, 'y'))} << QByteArray()
        << 0 << QStringList{tooLarge} << ErrorKind::ReplyTooLarge << QStringList();
    ReplyLimits elements;
    elements.maxElements = 16;
    QByteArrayList sixteen;
    QStringList sixteenShown;
    for (int i = 0; i < 16; ++i) {
        sixteen << T::integer(i);
        sixteenShown << QStringLiteral(":%1").arg(i);
    }
    const QByteArray nested =
        T::array({T::array(sixteen.mid(0, 8)), T::array(sixteen.mid(0, 8))}); // 2 + 2 × 8
    QTest::newRow("elements over the limit, every level counted")
        << elements << QByteArrayList{"SCAN 0", "SCAN 0", "SCAN 0"}
        << QByteArrayList{T::array(sixteen) + nested} << QByteArray() << 0
        << QStringList{QLatin1Char('[') + sixteenShown.join(QLatin1Char(',')) + QLatin1Char(']'), tooLarge,
                       tooLarge}
        << ErrorKind::ReplyTooLarge << QStringList{QStringLiteral("maxElements")};
    // A huge announced count fails at its header, before any element arrives.
    QTest::newRow("a huge element count")
        << elements << QByteArrayList{"SCAN 0"} << QByteArrayList{"*2000000000\r\n"} << QByteArray() << 0
        << QStringList{tooLarge} << ErrorKind::ReplyTooLarge << QStringList();
    ReplyLimits depth;
    depth.maxDepth = 2;
    QTest::newRow("nested deeper than a set depth")
        << depth << QByteArrayList{"EVAL a 0", "EVAL b 0"}
        << QByteArrayList{T::array({T::array({T::integer(1)})}) + T::array({T::array({T::array({})})})}
        << QByteArray() << 0 << QStringList{QStringLiteral("[[:1]]"), tooLarge} << ErrorKind::ReplyTooLarge
        << QStringList{QStringLiteral("2 levels")};
    // Many small elements, each within the other limits, add up to too many bytes for one reply:
    // fed in pieces, the reply fails once its bytes so far pass the limit, not at its end. A whole
    // reply below the limit before it is fine.
    ReplyLimits bytes;
    bytes.maxReplyBytes = 4096;
    QTest::newRow("a reply's bytes over the limit")
        << bytes << QByteArrayList{"GET small", "HGETALL h"}
        << QByteArrayList{T::bulk(QByteArray(3000, 's')), "*1000\r\n"} << T::bulk(QByteArray(90, 'v')) << 60
        << QStringList{QStringLiteral("$") + QString(3000, QLatin1Char('s')), tooLarge}
        << ErrorKind::ReplyTooLarge << QStringList{QStringLiteral("maxReplyBytes")};
    // A status line that never ends would be buffered (and searched for its end) forever.
    QTest::newRow("a line without its end")
        << defaults << QByteArrayList{"PING"} << QByteArrayList{"+"} << QByteArray(64 * 1024, 'a') << 40
        << QStringList{protocol} << ErrorKind::Protocol << QStringList{QStringLiteral("without its end")};
    // One good reply, then a type byte RESP does not have.
    QTest::newRow("a malformed reply")
        << defaults << QByteArrayList{"GET k", "GET k", "GET k", "GET k"}
        << QByteArrayList{T::status("OK") + "?what\r\n" + T::status("OK")} << QByteArray() << 0
        << QStringList{QStringLiteral("+OK"), protocol, protocol, protocol} << ErrorKind::Protocol
        << QStringList{QStringLiteral("malformed")};
    QTest::newRow("a negative array length")
        << defaults << QByteArrayList{"LRANGE l 0 -1"} << QByteArrayList{"*-5\r\n:1\r\n"} << QByteArray() << 0
        << QStringList{protocol} << ErrorKind::Protocol << QStringList();
}

void TestRedisConnectionFake::aBadReplyFailsTheMaster()
{
    QFETCH(ReplyLimits, limits);
    QFETCH(QByteArrayList, commands);
    QFETCH(QByteArrayList, feeds);
    QFETCH(QByteArray, repeated);
    QFETCH(int, repeats);
    QFETCH(QStringList, results);
    QFETCH(ErrorKind, kind);
    QFETCH(QStringList, words);
    ConnectionOptions options = fakeOptions();
    options.replyLimits = limits;
    Results got;
    Rig rig(options);
    QVERIFY(rig.bringUp());
    for (const QByteArray& command : commands)
        rig->send(command.split(' '), got.add());
    QVERIFY(rig.waitWritten(plainHandshake + commands.size()));
    const int aborts = rig.transport->abortCount();
    for (const QByteArray& bytes : feeds)
        rig.transport->feed(bytes);
    for (int i = 0; i < repeats && rig->isUp(); ++i)
        rig.transport->feed(repeated);
    QCOMPARE(got.described(), results);
    QVERIFY(rig.isDownWith(kind, words));
    QCOMPARE(rig.transport->abortCount(), aborts + 1);
    QCOMPARE(rig->pendingCount(), 0);
    rig.transport->feed(T::status("OK"));
    QCOMPARE(got.all.size(), results.size());
}

void TestRedisConnectionFake::binaryArgumentsAreWrittenVerbatim()
{
    Results results;
    Rig rig;
    QVERIFY(rig.bringUp());
    const QByteArray key = raw("lock:\0\xff\r\n*1\r\n");
    const QByteArray empty;
    const QByteArray big(100000, 'v');
    rig->send({"SET", key, empty}, results.add());
    rig->send({"SET", "big", big}, results.add());
    QVERIFY(rig.waitWritten(plainHandshake + 2));
    QVERIFY(rig.transport->writtenIsWellFormed());
    const QList<QByteArrayList> commands = rig.transport->commands();
    QCOMPARE(commands[plainHandshake], QByteArrayList({"SET", key, empty}));
    QCOMPARE(commands[plainHandshake + 1], QByteArrayList({"SET", "big", big}));
    // Exactly the RESP bytes, not just something that decodes alike.
    QVERIFY(rig.transport->written().endsWith(
        QByteArray("*3\r\n$3\r\nSET\r\n$3\r\nbig\r\n$100000\r\n" + big + "\r\n")));
    QCOMPARE(key.size(), 13);
    QVERIFY(rig.transport->written().contains(
        raw("*3\r\n$3\r\nSET\r\n$13\r\nlock:\0\xff\r\n*1\r\n\r\n$0\r\n\r\n")));
}

void TestRedisConnectionFake::firstCommandAtOnceRestOfPassInOneFlush()
{
    Results results;
    Rig rig;
    QVERIFY(rig.bringUp());
    const int flushes = rig.transport->flushCount();
    for (int i = 0; i < 500; ++i)
        rig->send({"INCR", "c"}, results.add());
    // An idle connection writes its first command at once (latency); the rest of the pass waits
    // for one flush together (throughput).
    QCOMPARE(rig.transport->commands().size(), plainHandshake + 1);
    QCOMPARE(rig.transport->flushCount(), flushes + 1);
    QVERIFY(rig.waitWritten(plainHandshake + 500));
    QCOMPARE(rig.transport->flushCount(), flushes + 2);
}

void TestRedisConnectionFake::callbacksOfOneReadWriteOncePerConnection()
{
    // A Redlock quorum reached on one master's read sends the release to every master and the next
    // acquire: what the callbacks of one read write to an idle connection leaves in one write when
    // they are done, before the event loop runs again, not a lone first command and then the rest.
    TwoMasters m;
    QVERIFY(m.up());
    auto& [results, a, b] = m;
    for (int i = 0; i < 3; ++i)
        a->send({"GET", "k"}, [&](const RedisResult& r) {
            QVERIFY(r.ok());
            b->send({"SET", "x", "1"}, results.add());
            b->send({"SET", "y", "1"}, results.add());
            a->send({"DEL", "k"}, results.add());
        });
    QVERIFY(a.waitWritten(plainHandshake + 3));
    const int aFlushes = a.transport->flushCount();
    const int bFlushes = b.transport->flushCount();
    a.transport->feed("$1\r\nv\r\n$1\r\nv\r\n$1\r\nv\r\n");
    QCOMPARE(b.transport->commands().size(), plainHandshake + 6);
    QCOMPARE(b.transport->flushCount(), bFlushes + 1);
    QCOMPARE(a.transport->commands().size(), plainHandshake + 6);
    QCOMPARE(a.transport->flushCount(), aFlushes + 1);
    // Outside a read, an idle connection's first command still leaves at once.
    b.transport->feed(QByteArray("+OK\r\n").repeated(6));
    b->send({"GET", "z"}, results.add());
    QCOMPARE(b.transport->commands().size(), plainHandshake + 7);
}

void TestRedisConnectionFake::aHeldCommandLeavesInsideANestedEventLoop()
{
    // A callback that waits for its own command in a nested event loop (a blocking helper) must see
    // it leave although the read that called it has not finished.
    TwoMasters m;
    QVERIFY(m.up());
    auto& [results, a, b] = m;
    bool waited = false;
    a->send({"GET", "k"}, [&](const RedisResult&) {
        b->send({"PING"}, results.add());
        waited = spinUntil([&] { return b.transport->commands().size() == plainHandshake + 1; }, 2000);
    });
    QVERIFY(a.waitWritten(plainHandshake + 1));
    a.transport->feed("$1\r\nv\r\n");
    QVERIFY(waited);
}

void TestRedisConnectionFake::replyWithoutCommand()
{
    Rig rig;
    QVERIFY(rig.bringUp());
    rig.transport->feed(T::status("OK"));
    QVERIFY(rig.isDownWith(ErrorKind::Protocol, {QStringLiteral("without a command")}));
}

void TestRedisConnectionFake::repliesInsideFlushDoNotResendItsBytes()
{
    // A TLS socket's flush() may deliver a reply before it returns; that reply's callback sends the
    // next command. Each command must reach the server once: sent twice, its second reply would find
    // no command (a protocol error), and a write could run twice.
    Results results;
    Rig rig;
    QVERIFY(rig.bringUp());
    bool fed = false;
    rig.transport->setFlushHook([&] {
        if (fed || !rig.transport->written().contains("first"))
            return;
        fed = true;
        rig.transport->feed("+OK\r\n");
    });
    auto second = results.add();
    rig->send({"SET", "first", "1"}, [&rig, second](const RedisResult& r) {
        QVERIFY(r.ok());
        rig->send({"SET", "second", "2"}, second);
    });
    QVERIFY(rig.waitWritten(plainHandshake + 2));
    QVERIFY(fed);
    int firsts = 0;
    for (const QByteArrayList& c : rig.transport->commands())
        firsts += c.value(1) == "first" ? 1 : 0;
    QCOMPARE(firsts, 1);
    rig.transport->feed("+OK\r\n");
    QCOMPARE(results.described(), QStringList{QStringLiteral("+OK")});
    QVERIFY(rig->isUp());
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestRedisConnectionFake)

} // namespace tst_redisconnection_fake

#include "tst_redisconnection_fake.moc"
