// SPDX-License-Identifier: Apache-2.0
// RedisConnection against a ScriptedTransport: callbacks that close, send or spin the event loop
// mid-read, contexts, Pub/Sub messages, filtered SCAN pages, scripts and command batches.
#include "connection/redisconnection.h"
#include "connection/redisscript.h"
#include "support/scriptedrig.h"
#include "support/testregistry.h"

#include <QTest>

#include <algorithm>
#include <memory>

namespace tst_redisconnection_requests {

using namespace lockscope;
using namespace lockscope::test;
using namespace lockscope::test::scripted;

namespace {

// Keeps the keys that start with "lock:".
class LockPrefixFilter final : public ReplyKeyFilter
{
public:
    bool keeps(QByteArrayView key) const override { return key.startsWith("lock:"); }
};

// A reply as a SCAN page: its cursor, its keys, and how many keys a filter left out.
QString describePage(const RedisResult& r)
{
    if (!r.ok() || !r.reply.isArray() || r.reply.elements.size() != 2)
        return QStringLiteral("not a page: ") + describe(r);
    return describe(r.reply) + QStringLiteral(" left out ") +
           QString::number(r.reply.elements[1].keysLeftOut());
}

} // namespace

class TestRedisConnectionRequests : public QObject
{
    Q_OBJECT

private slots:
    void callbackClosingMidChunk();
    void callbackSendingMidChunk();
    void callbackRunningNestedEventLoop();
    void commandSentOnUpGoesAfterQueued();
    void goneContextSkipsCallback();
    void sendWhileDownOrEmpty();
    void pubSubMessages();
    void aScanPageKeepsOnlyTheKeysItsFilterKeeps();
    void aScanPageFilterLeavesOtherRepliesAlone();
    void aReplyBegunBeforeItsCommandAnswersNothing();
    void scriptFallsBackFromNoScript();
    void batchAnsweredOnceInOrder();
    void batchFailsOnceWithEverythingPending();
};

void TestRedisConnectionRequests::callbackClosingMidChunk()
{
    Results results;
    Rig rig;
    QVERIFY(rig.bringUp());
    rig->send({"GET", "a"}, results.add());
    rig->send({"GET", "b"}, [&](const RedisResult& r) {
        results.all << r;
        rig->close();
    });
    rig->send({"GET", "c"}, results.add());
    rig->send({"GET", "d"}, results.add());
    // All four replies in one chunk: the two after close() must not be delivered as replies.
    rig.transport->feed(T::bulk("a") + T::bulk("b") + T::bulk("c") + T::bulk("d"));
    QCOMPARE(results.described(),
             QStringList({QStringLiteral("$a"), QStringLiteral("$b"), QStringLiteral("error:cancelled"),
                          QStringLiteral("error:cancelled")}));
    QCOMPARE(rig->state(), State::Disconnected);
}

void TestRedisConnectionRequests::callbackSendingMidChunk()
{
    Results results;
    Rig rig;
    QVERIFY(rig.bringUp());
    rig->send({"GET", "a"}, [&](const RedisResult& r) {
        results.all << r;
        rig->send({"GET", "followup"}, results.add());
    });
    rig->send({"GET", "b"}, results.add());
    rig.transport->feed(T::bulk("a") + T::bulk("b"));
    QCOMPARE(results.described(), QStringList({QStringLiteral("$a"), QStringLiteral("$b")}));
    QVERIFY(rig.waitWritten(plainHandshake + 3));
    QCOMPARE(rig.transport->commands().last(), QByteArrayList({"GET", "followup"}));
    rig.transport->feed(T::bulk("f"));
    QCOMPARE(results.described().last(), QStringLiteral("$f"));
}

void TestRedisConnectionRequests::callbackRunningNestedEventLoop()
{
    Results results;
    Rig rig;
    QVERIFY(rig.bringUp());
    // The first callback makes a blocking-style call of its own while the rest of a large chunk
    // (more than the connection feeds its parser at once) still waits to be read.
    const int n = 5000;
    bool nestedDone = false;
    rig->send({"GET", "0"}, [&](const RedisResult& r) {
        results.all << r;
        rig.transport->setResponder([](const QByteArrayList& argv) -> std::optional<QByteArray> {
            if (argv == QByteArrayList{"GET", "nested"})
                return T::bulk("nested");
            return std::nullopt;
        });
        rig->send({"GET", "nested"}, [&](const RedisResult& nested) {
            results.all << nested;
            nestedDone = true;
        });
        spinUntil([&] { return nestedDone; }, 3000);
    });
    QByteArray chunk = T::bulk("0");
    for (int i = 1; i < n; ++i) {
        rig->send({"GET", QByteArray::number(i)}, results.add());
        chunk += T::bulk(QByteArray::number(i));
    }
    QVERIFY(rig.waitWritten(plainHandshake + n));
    QVERIFY(chunk.size() > 32 * 1024);
    rig.transport->feed(chunk);
    QVERIFY(nestedDone);
    QCOMPARE(results.all.size(), n + 1);
    for (int i = 0; i < n; ++i)
        QCOMPARE(results.all[i].reply.string, QByteArray::number(i));
    QCOMPARE(results.all[n].reply.string, QByteArray("nested"));
    QVERIFY(rig->isUp());
}

void TestRedisConnectionRequests::commandSentOnUpGoesAfterQueued()
{
    Results results;
    Rig rig;
    QObject::connect(rig.connection.get(), &RedisConnection::stateChanged, rig.connection.get(),
                     [&](State state) {
                         if (state == State::Up)
                             rig->send({"GET", "from-slot"}, results.add());
                     });
    rig.transport->setResponder([](const QByteArrayList& argv) { return T::handshakeReply(argv); });
    rig->open();
    rig->send({"GET", "queued"}, results.add());
    QVERIFY(rig.waitWritten(plainHandshake + 2));
    const QList<QByteArrayList> commands = rig.transport->commands();
    QCOMPARE(commands.mid(plainHandshake), QList<QByteArrayList>({{"GET", "queued"}, {"GET", "from-slot"}}));
}

void TestRedisConnectionRequests::goneContextSkipsCallback()
{
    Results results;
    Rig rig;
    QVERIFY(rig.bringUp());
    auto context = std::make_unique<QObject>();
    bool called = false;
    rig->send({"GET", "a"}, context.get(), [&](const RedisResult&) { called = true; });
    rig->send({"GET", "b"}, results.add());
    context.reset();
    rig.transport->feed(T::bulk("a") + T::bulk("b"));
    QVERIFY(!called);
    QCOMPARE(results.described(), QStringList({QStringLiteral("$b")}));
}

void TestRedisConnectionRequests::sendWhileDownOrEmpty()
{
    Results results;
    Rig rig;
    rig->send({"GET", "k"}, results.add()); // never opened
    rig.transport->setOpenMode(T::OpenMode::Refuse);
    rig->open();
    QVERIFY(spinUntil([&] { return rig->state() == State::Down; }));
    rig->send({"GET", "k"}, results.add());
    rig->send({}, results.add());
    QCOMPARE(results.described(),
             QStringList({QStringLiteral("error:not-connected"), QStringLiteral("error:not-connected"),
                          QStringLiteral("error:invalid-argument")}));
    QVERIFY(results.all[1].error.message.contains(QStringLiteral("refused")));
}

void TestRedisConnectionRequests::pubSubMessages()
{
    Rig rig;
    rig->psubscribe({"lock:*", "other:*"});
    QList<QByteArrayList> messages;
    QObject::connect(rig.connection.get(), &RedisConnection::messageReceived, rig.connection.get(),
                     [&](const QByteArray& pattern, const QByteArray& channel, const QByteArray& payload) {
                         messages << QByteArrayList{pattern, channel, payload};
                     });
    QVERIFY(rig.bringUp());
    QVERIFY(rig.waitWritten(plainHandshake + 1));
    QByteArrayList psubscribe = rig.transport->commands().last();
    QCOMPARE(psubscribe.takeFirst(), QByteArray("PSUBSCRIBE"));
    std::sort(psubscribe.begin(), psubscribe.end());
    QCOMPARE(psubscribe, QByteArrayList({"lock:*", "other:*"}));
    rig.transport->feed(
        T::array({T::bulk("psubscribe"), T::bulk("lock:*"), T::integer(1)}) +
        T::array({T::bulk("psubscribe"), T::bulk("other:*"), T::integer(2)}) +
        T::array({T::bulk("pmessage"), T::bulk("lock:*"), T::bulk("lock:a"), T::bulk("del")}));
    QCOMPARE(messages, QList<QByteArrayList>({{"lock:*", "lock:a", "del"}}));
    QCOMPARE(rig->pendingCount(), 0);
    QVERIFY(rig->isUp());
}

void TestRedisConnectionRequests::aScanPageKeepsOnlyTheKeysItsFilterKeeps()
{
    // The same page three times: the filtered request's in the middle, between two others' (their
    // replies have a page's shape and keep every key). Split at every byte.
    const QByteArray page =
        T::array({T::bulk("17"), T::array({T::bulk("other"), T::bulk("lock:a"), T::bulk(raw("\0\xff")),
                                           T::bulk(""), T::bulk(raw("lock:\0b")), T::bulk("lock")})});
    const QByteArray stream = page + page + page;
    const QString whole =
        QStringLiteral("[$17,[$other,$lock:a,$\\x00\\xff,$,$lock:\\x00b,$lock]] left out 0");
    const QStringList expected{whole, QStringLiteral("[$17,[$lock:a,$lock:\\x00b]] left out 4"), whole};
    const LockPrefixFilter filter;
    Results results;
    Rig rig;
    QVERIFY(rig.bringUp());
    for (qsizetype cut = 0; cut <= stream.size(); ++cut) {
        results.all.clear();
        rig->send({"SCAN", "0"}, results.add());
        rig->sendScanPage({"SCAN", "0"}, &filter, nullptr, results.add());
        rig->send({"SCAN", "0"}, results.add());
        rig.transport->feed(stream.left(cut));
        rig.transport->feed(stream.mid(cut));
        QStringList got;
        for (const RedisResult& r : results.all)
            got << describePage(r);
        QVERIFY2(got == expected, qPrintable(QStringLiteral("cut at %1: %2").arg(cut).arg(got.join(" | "))));
    }
    QVERIFY(rig->isUp());
    QCOMPARE(rig->pendingCount(), 0);
}

void TestRedisConnectionRequests::aScanPageFilterLeavesOtherRepliesAlone()
{
    const LockPrefixFilter filter;
    Results results;
    Rig rig;
    QVERIFY(rig.bringUp());
    // An error (NOPERM), a page without keys, one whose keys all go, the last page of a pass, and
    // a malformed one with an array among its keys (whose strings are no page's keys: left alone).
    for (int i = 0; i < 5; ++i)
        rig->sendScanPage({"SCAN", "0"}, &filter, nullptr, results.add());
    rig.transport->feed(
        T::error("NOPERM this user has no permissions to run the 'scan' command") +
        T::array({T::bulk("5"), T::array({})}) +
        T::array({T::bulk("9"), T::array({T::bulk("a"), T::bulk("b"), T::bulk("c")})}) +
        T::array({T::bulk("0"), T::array({T::bulk("lock:z"), T::bulk("z")})}) +
        T::array({T::bulk("3"), T::array({T::bulk("w"), T::array({T::bulk("x"), T::bulk("lock:y")})})}));
    QStringList got;
    for (const RedisResult& r : results.all)
        got << describePage(r);
    QCOMPARE(got,
             QStringList({
                 QStringLiteral("not a page: -NOPERM this user has no permissions to run the 'scan' command"),
                 QStringLiteral("[$5,[]] left out 0"),
                 QStringLiteral("[$9,[]] left out 3"),
                 QStringLiteral("[$0,[$lock:z]] left out 1"),
                 QStringLiteral("[$3,[[$x,$lock:y]]] left out 1"),
             }));
    QVERIFY(rig->isUp());
    QCOMPARE(rig->pendingCount(), 0);
}

void TestRedisConnectionRequests::aReplyBegunBeforeItsCommandAnswersNothing()
{
    // A peer sends the start of an array nobody asked for; a SCAN page is sent; the array ends. Read
    // as the page, it would skip the page's filter (the fuzzer's find: a key without "lock:" in a
    // filtered page). It answers no command: the master fails, the page gets the error.
    const LockPrefixFilter filter;
    Results results;
    Rig rig;
    QVERIFY(rig.bringUp());
    rig.transport->feed("*2\r\n$1\r\n0\r\n*2\r\n$5\r\nother");
    rig->sendScanPage({"SCAN", "0"}, &filter, nullptr, results.add());
    rig.transport->feed("\r\n$6\r\nlock:a\r\n");
    QVERIFY(rig.isDownWith(ErrorKind::Protocol, {QStringLiteral("without a command")}));
    QCOMPARE(results.all.size(), 1);
    QVERIFY2(!results.all.first().ok(), qPrintable(describePage(results.all.first())));

    // The same bytes after the command: its page, filtered.
    Results asked;
    Rig again;
    QVERIFY(again.bringUp());
    again->sendScanPage({"SCAN", "0"}, &filter, nullptr, asked.add());
    again.transport->feed("*2\r\n$1\r\n0\r\n*2\r\n$5\r\nother");
    again.transport->feed("\r\n$6\r\nlock:a\r\n");
    QCOMPARE(describePage(asked.all.value(0)), QStringLiteral("[$0,[$lock:a]] left out 1"));
    QVERIFY(again->isUp());
}

void TestRedisConnectionRequests::scriptFallsBackFromNoScript()
{
    Results results;
    Rig rig;
    QVERIFY(rig.bringUp());
    const RedisScript script("return KEYS[1]");
    rig->evalScript(script, {"k"}, {"v"}, results.add());
    QVERIFY(rig.waitWritten(plainHandshake + 1));
    QCOMPARE(rig.transport->commands().last(), QByteArrayList({"EVALSHA", script.sha1(), "1", "k", "v"}));
    rig.transport->feed(T::error("NOSCRIPT No matching script. Please use EVAL."));
    QVERIFY(rig.waitWritten(plainHandshake + 2));
    QCOMPARE(rig.transport->commands().last(), QByteArrayList({"EVAL", "return KEYS[1]", "1", "k", "v"}));
    QVERIFY(results.all.isEmpty());
    rig.transport->feed(T::bulk("k"));
    QCOMPARE(results.described(), QStringList({QStringLiteral("$k")}));
}

void TestRedisConnectionRequests::batchAnsweredOnceInOrder()
{
    Results results;
    Rig rig;
    QVERIFY(rig.bringUp());
    RedisCommandBatch batch;
    const QByteArray before = RedisCommandBatch::encodeArguments({"GETRANGE"});
    const QByteArray after = RedisCommandBatch::encodeArguments({"0", "4095"});
    batch.add({"PTTL", raw("k\0\r\n1")});
    batch.addKeyed(4, before, raw("k\0\r\n1"), after);
    batch.addKeyed(2, RedisCommandBatch::encodeArguments({"PTTL"}), QByteArray(), {});
    int calls = 0;
    QList<RedisReply> got;
    rig->send({"GET", "first"}, results.add());
    rig->send(batch, nullptr, [&](const RedisError& error, QList<RedisReply>& replies) {
        ++calls;
        QVERIFY(!error.isError());
        got = replies;
    });
    rig->send({"GET", "last"}, results.add());
    QVERIFY(rig.waitWritten(plainHandshake + 5));
    QVERIFY(rig.transport->writtenIsWellFormed());
    const QList<QByteArrayList> commands = rig.transport->commands().mid(plainHandshake);
    QCOMPARE(commands.at(1), (QByteArrayList{"PTTL", raw("k\0\r\n1")}));
    QCOMPARE(commands.at(2), (QByteArrayList{"GETRANGE", raw("k\0\r\n1"), "0", "4095"}));
    QCOMPARE(commands.at(3), (QByteArrayList{"PTTL", QByteArray()}));
    // The batch's replies arrive split across reads; its callback runs once, after the last.
    rig.transport->feed(T::bulk("a") + T::integer(7) + T::bulk("v"));
    QCOMPARE(calls, 0);
    QCOMPARE(results.all.size(), 1);
    rig.transport->feed(T::integer(-2) + T::bulk("z"));
    QCOMPARE(calls, 1);
    QCOMPARE(got.size(), 3);
    QCOMPARE(got.at(0).integer, qint64(7));
    QCOMPARE(got.at(1).string, QByteArray("v"));
    QCOMPARE(got.at(2).integer, qint64(-2));
    QCOMPARE(results.described(), QStringList({QStringLiteral("$a"), QStringLiteral("$z")}));
    QCOMPARE(rig->pendingCount(), 0);
}

void TestRedisConnectionRequests::batchFailsOnceWithEverythingPending()
{
    Rig rig;
    QVERIFY(rig.bringUp());
    RedisCommandBatch batch;
    for (int i = 0; i < 3; ++i)
        batch.add({"PTTL", QByteArray::number(i)});
    int calls = 0;
    RedisError failure;
    qsizetype replies = -1;
    rig->send(batch, nullptr, [&](const RedisError& error, QList<RedisReply>& r) {
        ++calls;
        failure = error;
        replies = r.size();
    });
    QVERIFY(rig.waitWritten(plainHandshake + 3));
    rig.transport->feed(T::integer(1)); // one of three, then the stream breaks
    rig.transport->feed("?what\r\n");
    QCOMPARE(calls, 1);
    QCOMPARE(failure.kind, ErrorKind::Protocol);
    QCOMPARE(replies, 0);
    QCOMPARE(rig->pendingCount(), 0);
    // An empty batch is answered at once, without a round trip.
    rig->send(RedisCommandBatch(), nullptr, [&](const RedisError& error, QList<RedisReply>& r) {
        ++calls;
        QVERIFY(!error.isError() && r.isEmpty());
    });
    QCOMPARE(calls, 2);
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestRedisConnectionRequests)

} // namespace tst_redisconnection_requests

#include "tst_redisconnection_requests.moc"
