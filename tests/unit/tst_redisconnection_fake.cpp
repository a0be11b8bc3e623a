// RedisConnection against a ScriptedTransport: protocol, handshake, failure and back-off behaviour
// without a server, byte for byte and deterministic.
#include "connection/redisconnection.h"
#include "connection/redisscript.h"
#include "support/scriptedtransport.h"
#include "support/testregistry.h"
#include "support/timebound.h"

#include <QElapsedTimer>
#include <QTest>

#include <algorithm>
#include <functional>
#include <memory>

namespace tst_redisconnection_fake {

using namespace lockscope;
using namespace lockscope::test;

namespace {

using T = ScriptedTransport;
using State = RedisConnection::State;

ConnectionOptions fakeOptions(const QString& url = QStringLiteral("redis://127.0.0.1:6379"))
{
    ConnectionOptions options;
    options.url = *RedisUrl::parse(url);
    options.healthIntervalMs = 0; // no PINGs between the scripted replies
    options.autoReconnect = false;
    options.commandTimeoutMs = 5000;
    options.connectTimeoutMs = 5000;
    return options;
}

// A byte string literal that may hold NULs: its length comes from the array, not from strlen.
template <qsizetype N> QByteArray raw(const char (&bytes)[N])
{
    return QByteArray(bytes, N - 1);
}

// Runs the event loop until `done` holds or `ms` pass.
bool spinUntil(const std::function<bool()>& done, int ms = 5000)
{
    QElapsedTimer clock;
    clock.start();
    while (!done() && clock.elapsed() < ms)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
    return done();
}

// Runs the event loop for `ms`, whatever happens.
void spinFor(int ms)
{
    QElapsedTimer clock;
    clock.start();
    while (clock.elapsed() < ms)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
}

// Printable, unambiguous bytes: printable ASCII stays, everything else (and the backslash) is \xHH.
QString escape(const QByteArray& bytes)
{
    QString out;
    for (const char c : bytes) {
        const auto u = static_cast<unsigned char>(c);
        if (u >= 0x20 && u < 0x7f && c != '\\')
            out += QLatin1Char(c);
        else
            out += QStringLiteral("\\x%1").arg(u, 2, 16, QLatin1Char('0'));
    }
    return out;
}

// A reply as one line of text, so that a mismatch shows where it is.
QString describe(const RedisReply& r)
{
    switch (r.type) {
    case RedisReply::Type::Nil:
        return QStringLiteral("nil");
    case RedisReply::Type::Status:
        return QLatin1Char('+') + escape(r.string);
    case RedisReply::Type::Error:
        return QLatin1Char('-') + escape(r.string);
    case RedisReply::Type::Integer:
        return QLatin1Char(':') + QString::number(r.integer);
    case RedisReply::Type::String:
        return QLatin1Char('$') + escape(r.string);
    case RedisReply::Type::Array: {
        QStringList parts;
        for (const RedisReply& e : r.elements)
            parts << describe(e);
        return QLatin1Char('[') + parts.join(QLatin1Char(',')) + QLatin1Char(']');
    }
    }
    return QStringLiteral("?");
}

QString describe(const RedisResult& r)
{
    return r.ok() ? describe(r.reply) : QStringLiteral("error:") + errorKindName(r.error.kind);
}

// Collects callback results in arrival order. Declare it before the Rig so that it outlives the
// connection whose callbacks point at it.
struct Results
{
    QList<RedisResult> all;

    RedisConnection::Callback add()
    {
        return [this](const RedisResult& r) { all << r; };
    }
    QStringList described() const
    {
        QStringList out;
        for (const RedisResult& r : all)
            out << describe(r);
        return out;
    }
    int count(ErrorKind kind) const
    {
        return int(std::count_if(all.cbegin(), all.cend(),
                                 [kind](const RedisResult& r) { return r.error.kind == kind; }));
    }
};

// A connection over a scripted transport that it owns; `transport` stays valid as long as it lives.
struct Rig
{
    ScriptedTransport* transport = nullptr;
    std::unique_ptr<RedisConnection> connection;
    QList<State> states;

    explicit Rig(ConnectionOptions options = fakeOptions())
    {
        auto owned = std::make_unique<ScriptedTransport>();
        transport = owned.get();
        connection = std::make_unique<RedisConnection>(std::move(options), std::move(owned));
        QObject::connect(connection.get(), &RedisConnection::stateChanged, connection.get(),
                         [this](State state) { states << state; });
    }
    RedisConnection* operator->() const { return connection.get(); }

    // Whether the connection's last error message holds every one of `words`; says what it holds when not.
    bool lastErrorSays(std::initializer_list<QString> words) const
    {
        const QString& message = connection->lastError().message;
        for (const QString& word : words)
            if (!message.contains(word)) {
                qWarning("last error: %s", qPrintable(message));
                return false;
            }
        return true;
    }
    // Whether the connection is down with an error of `kind` whose message holds every one of `words`.
    bool isDownWith(ErrorKind kind, std::initializer_list<QString> words) const
    {
        if (connection->state() != State::Down || connection->lastError().kind != kind) {
            qWarning("state %s, last error: %s", qPrintable(RedisConnection::stateName(connection->state())),
                     qPrintable(connection->lastError().toString()));
            return false;
        }
        return lastErrorSays(words);
    }

    // Opens with a healthy scripted server, then hands the replies over to the test.
    bool bringUp(const QByteArray& runId = T::defaultRunId())
    {
        transport->setResponder(
            [runId](const QByteArrayList& argv) { return T::handshakeReply(argv, runId); });
        connection->open();
        const bool up = spinUntil([this] { return connection->isUp(); });
        transport->setResponder({});
        return up;
    }
    // Waits until `n` commands in all have been written since the transport was opened.
    bool waitWritten(qsizetype n) const
    {
        return spinUntil([this, n] { return transport->commands().size() >= n; }) &&
               transport->commands().size() == n;
    }
};

// The handshake of a connection without password or database: CLIENT SETNAME, INFO ×2, TIME.
constexpr int plainHandshake = 4;

struct ReplyCase
{
    QByteArray encoded;
    QString expected;
};

// One of each RESP2 shape, including the awkward ones; the expectations are written out by hand.
QList<ReplyCase> replyCases()
{
    return {
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
}

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

class TestRedisConnectionFake : public QObject
{
    Q_OBJECT

private slots:
    void repliesSplitAtEveryByteBoundary();
    void repliesFedOneByteAtATime();
    void severalRepliesInOneChunk();
    void largeChunkOfSmallReplies();
    void largeReplyThenSmallOnesInOneChunk();
    void aBurstIsTakenASliceAtATime();
    void nestedArrays();
    void tooDeeplyNestedIsProtocolError();
    void hugeBulkFailsAtItsHeader();
    void bulkLimitIsConfigurable();
    void elementLimitCountsEveryLevel();
    void depthLimitIsConfigurable();
    void replyByteLimit();
    void endlessLineFails();
    void binaryArgumentsAreWrittenVerbatim();
    void firstCommandAtOnceRestOfPassInOneFlush();
    void malformedReplyFailsEverythingPending();
    void negativeArrayLengthIsProtocolError();
    void replyWithoutCommand();
    void repliesInsideFlushDoNotResendItsBytes();
    void handshakeOrderAndQueuedCommandsWait();
    void healthFromHandshake();
    void authFailureFailsQueuedCommandsUnsent();
    void authFailureVariants_data();
    void authFailureVariants();
    void selectFailure();
    void timeoutMarksDownAndFailsAllPending();
    void timeoutOnlyForTheUnansweredTail();
    void timeoutCountsFromTheLastBytesHeard();
    void unreadBytesAreNotATimeout();
    void queuedCommandsTimeOutDuringHandshake();
    void connectTimeout();
    void backoffGrowsCappedWithJitter();
    void backoffRestartsAfterSuccess();
    void openDuringScheduledRetry();
    void connectionLostFailsAllAndReconnects();
    void closeCancelsSentAndQueued();
    void closeStopsRetries();
    void callbackClosingMidChunk();
    void callbackSendingMidChunk();
    void callbackRunningNestedEventLoop();
    void commandSentOnUpGoesAfterQueued();
    void goneContextSkipsCallback();
    void sendWhileDownOrEmpty();
    void pubSubMessages();
    void aScanPageKeepsOnlyTheKeysItsFilterKeeps();
    void aScanPageFilterLeavesOtherRepliesAlone();
    void scriptFallsBackFromNoScript();
    void batchAnsweredOnceInOrder();
    void batchFailsOnceWithEverythingPending();
};

void TestRedisConnectionFake::repliesSplitAtEveryByteBoundary()
{
    Results results;
    Rig rig;
    QVERIFY(rig.bringUp());
    const QList<ReplyCase> cases = replyCases();
    QByteArray stream;
    QStringList expected;
    for (const ReplyCase& c : cases) {
        stream += c.encoded;
        expected << c.expected;
    }
    for (qsizetype cut = 0; cut <= stream.size(); ++cut) {
        results.all.clear();
        for (qsizetype i = 0; i < cases.size(); ++i)
            rig->send({"GET", "k"}, results.add());
        rig.transport->feed(stream.left(cut));
        rig.transport->feed(stream.mid(cut));
        QVERIFY2(
            results.described() == expected,
            qPrintable(
                QStringLiteral("cut at %1: %2").arg(cut).arg(results.described().join(QLatin1Char(' ')))));
    }
    QVERIFY(rig->isUp());
    QCOMPARE(rig->pendingCount(), 0);
}

void TestRedisConnectionFake::repliesFedOneByteAtATime()
{
    Results results;
    Rig rig;
    QVERIFY(rig.bringUp());
    const QList<ReplyCase> cases = replyCases();
    QStringList expected;
    for (const ReplyCase& c : cases) {
        rig->send({"GET", "k"}, results.add());
        expected << c.expected;
    }
    for (const ReplyCase& c : cases)
        for (const char byte : c.encoded)
            rig.transport->feed(QByteArray(1, byte));
    QCOMPARE(results.described(), expected);
}

void TestRedisConnectionFake::severalRepliesInOneChunk()
{
    Results results;
    Rig rig;
    QVERIFY(rig.bringUp());
    const QList<ReplyCase> cases = replyCases();
    QByteArray chunk;
    QStringList expected;
    for (const ReplyCase& c : cases) {
        rig->send({"GET", "k"}, results.add());
        chunk += c.encoded;
        expected << c.expected;
    }
    QVERIFY(rig.waitWritten(plainHandshake + cases.size()));
    // Half a reply more than there are commands for stays buffered and harms nothing yet.
    rig.transport->feed(chunk + "$5\r\nhal");
    QCOMPARE(results.described(), expected);
    QVERIFY(rig->isUp());
    rig->send({"GET", "k"}, results.add());
    rig.transport->feed("f!\r\n");
    QCOMPARE(results.all.size(), cases.size() + 1);
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

void TestRedisConnectionFake::tooDeeplyNestedIsProtocolError()
{
    Results results;
    Rig rig;
    QVERIFY(rig.bringUp());
    // hiredis 0.14 reads at most 8 levels of arrays; deeper must fail cleanly, not overflow.
    QByteArray deep = T::integer(1);
    for (int level = 0; level < 12; ++level)
        deep = T::array({deep});
    rig->send({"EVAL", "x", "0"}, results.add());
    rig->send({"PING"}, results.add());
    rig.transport->feed(deep);
    QCOMPARE(results.described(),
             QStringList({QStringLiteral("error:reply-too-large"), QStringLiteral("error:reply-too-large")}));
    QVERIFY(rig.isDownWith(ErrorKind::ReplyTooLarge, {QStringLiteral("maxDepth")}));
}

void TestRedisConnectionFake::hugeBulkFailsAtItsHeader()
{
    // A peer announcing a 10 GB string must not make us buffer towards it: the header alone fails
    // the master, with the default limit (512 MiB).
    Results results;
    Rig rig;
    QVERIFY(rig.bringUp());
    rig->send({"GET", "k"}, results.add());
    rig->send({"PING"}, results.add());
    QVERIFY(rig.waitWritten(plainHandshake + 2));
    rig.transport->feed("$10000000000\r\nabc");
    QCOMPARE(results.described(),
             QStringList({QStringLiteral("error:reply-too-large"), QStringLiteral("error:reply-too-large")}));
    QVERIFY(rig.isDownWith(ErrorKind::ReplyTooLarge,
                           {QStringLiteral("536870912"), QStringLiteral("maxBulkBytes")}));
    QCOMPARE(rig->pendingCount(), 0);
}

void TestRedisConnectionFake::bulkLimitIsConfigurable()
{
    Results results;
    ConnectionOptions options = fakeOptions();
    options.replyLimits.maxBulkBytes = 2048;
    Rig rig(options);
    QVERIFY(rig.bringUp());
    rig->send({"GET", "a"}, results.add());
    rig->send({"GET", "b"}, results.add());
    QVERIFY(rig.waitWritten(plainHandshake + 2));
    // At the limit is fine, one byte over is not (announced in the header, body not sent yet).
    rig.transport->feed(T::bulk(QByteArray(2048, 'x')) + "$2049\r\n");
    QCOMPARE(results.all.size(), 2);
    QVERIFY(results.all.at(0).ok());
    QCOMPARE(results.all.at(0).reply.string.size(), qsizetype(2048));
    QCOMPARE(results.all.at(1).error.kind, ErrorKind::ReplyTooLarge);
    QVERIFY(results.all.at(1).error.message.contains(QStringLiteral("2048")));
    // Over the limit and complete in one read (never waited for): the same.
    Results whole;
    Rig other(options);
    QVERIFY(other.bringUp());
    other->send({"GET", "c"}, whole.add());
    QVERIFY(other.waitWritten(plainHandshake + 1));
    other.transport->feed(T::bulk(QByteArray(3000, 'y')));
    QCOMPARE(whole.described(), QStringList(QStringLiteral("error:reply-too-large")));
}

void TestRedisConnectionFake::elementLimitCountsEveryLevel()
{
    Results results;
    ConnectionOptions options = fakeOptions();
    options.replyLimits.maxElements = 16;
    Rig rig(options);
    QVERIFY(rig.bringUp());
    for (int i = 0; i < 3; ++i)
        rig->send({"SCAN", "0"}, results.add());
    QVERIFY(rig.waitWritten(plainHandshake + 3));
    QByteArrayList sixteen;
    for (int i = 0; i < 16; ++i)
        sixteen << T::integer(i);
    QByteArrayList nested; // 2 + 2 × 8 = 18 elements in all
    for (int i = 0; i < 2; ++i)
        nested << T::array(sixteen.mid(0, 8));
    rig.transport->feed(T::array(sixteen) + T::array(nested));
    QCOMPARE(results.all.size(), 3);
    QVERIFY(results.all.at(0).ok());
    QCOMPARE(results.all.at(0).reply.elements.size(), qsizetype(16));
    QCOMPARE(results.all.at(1).error.kind, ErrorKind::ReplyTooLarge);
    QVERIFY2(results.all.at(1).error.message.contains(QStringLiteral("maxElements")),
             qPrintable(results.all.at(1).error.message));
    QCOMPARE(results.all.at(2).error.kind, ErrorKind::ReplyTooLarge);
    // A huge announced count fails at its header, before any element arrives.
    Rig other(options);
    Results more;
    QVERIFY(other.bringUp());
    other->send({"SCAN", "0"}, more.add());
    QVERIFY(other.waitWritten(plainHandshake + 1));
    other.transport->feed("*2000000000\r\n");
    QCOMPARE(more.described(), QStringList(QStringLiteral("error:reply-too-large")));
}

void TestRedisConnectionFake::depthLimitIsConfigurable()
{
    Results results;
    ConnectionOptions options = fakeOptions();
    options.replyLimits.maxDepth = 2;
    Rig rig(options);
    QVERIFY(rig.bringUp());
    rig->send({"EVAL", "a", "0"}, results.add());
    rig->send({"EVAL", "b", "0"}, results.add());
    QVERIFY(rig.waitWritten(plainHandshake + 2));
    rig.transport->feed(T::array({T::array({T::integer(1)})}) + T::array({T::array({T::array({})})}));
    QCOMPARE(results.described(),
             QStringList({QStringLiteral("[[:1]]"), QStringLiteral("error:reply-too-large")}));
    QVERIFY(rig.lastErrorSays({QStringLiteral("2 levels")}));
}

void TestRedisConnectionFake::replyByteLimit()
{
    // Many small elements, each within the other limits, add up to too many bytes for one reply:
    // fed in pieces, the reply fails once its bytes so far pass the limit, not at its end.
    Results results;
    ConnectionOptions options = fakeOptions();
    options.replyLimits.maxReplyBytes = 4096;
    Rig rig(options);
    QVERIFY(rig.bringUp());
    rig->send({"GET", "small"}, results.add());
    rig->send({"HGETALL", "h"}, results.add());
    QVERIFY(rig.waitWritten(plainHandshake + 2));
    rig.transport->feed(T::bulk(QByteArray(3000, 's'))); // a whole reply below the limit is fine
    QCOMPARE(results.described(), QStringList(QStringLiteral("$") + QString(3000, QLatin1Char('s'))));
    rig.transport->feed("*1000\r\n");
    for (int i = 0; i < 60 && rig->isUp(); ++i)
        rig.transport->feed(T::bulk(QByteArray(90, 'v')));
    QCOMPARE(results.all.size(), 2);
    QCOMPARE(results.all.at(1).error.kind, ErrorKind::ReplyTooLarge);
    QVERIFY2(results.all.at(1).error.message.contains(QStringLiteral("maxReplyBytes")),
             qPrintable(results.all.at(1).error.message));
}

void TestRedisConnectionFake::endlessLineFails()
{
    // A status line that never ends would be buffered (and searched for its end) forever.
    Results results;
    Rig rig;
    QVERIFY(rig.bringUp());
    rig->send({"PING"}, results.add());
    QVERIFY(rig.waitWritten(plainHandshake + 1));
    rig.transport->feed("+");
    for (int i = 0; i < 40 && rig->isUp(); ++i)
        rig.transport->feed(QByteArray(64 * 1024, 'a'));
    QCOMPARE(results.described(), QStringList(QStringLiteral("error:protocol-error")));
    QVERIFY(rig.lastErrorSays({QStringLiteral("without its end")}));
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

void TestRedisConnectionFake::malformedReplyFailsEverythingPending()
{
    Results results;
    Rig rig;
    QVERIFY(rig.bringUp());
    for (int i = 0; i < 4; ++i)
        rig->send({"GET", "k"}, results.add());
    QVERIFY(rig.waitWritten(plainHandshake + 4));
    const int aborts = rig.transport->abortCount();
    // One good reply, then a type byte RESP does not have.
    rig.transport->feed(T::status("OK") + "?what\r\n" + T::status("OK"));
    QCOMPARE(results.described(),
             QStringList({QStringLiteral("+OK"), QStringLiteral("error:protocol-error"),
                          QStringLiteral("error:protocol-error"), QStringLiteral("error:protocol-error")}));
    QVERIFY(rig.isDownWith(ErrorKind::Protocol, {QStringLiteral("malformed")}));
    QCOMPARE(rig.transport->abortCount(), aborts + 1);
    QCOMPARE(rig->pendingCount(), 0);
    // Whatever else arrives for the dead stream is ignored.
    rig.transport->feed(T::status("OK"));
    QCOMPARE(results.all.size(), 4);
}

void TestRedisConnectionFake::negativeArrayLengthIsProtocolError()
{
    Results results;
    Rig rig;
    QVERIFY(rig.bringUp());
    rig->send({"LRANGE", "l", "0", "-1"}, results.add());
    rig.transport->feed("*-5\r\n:1\r\n");
    QCOMPARE(results.described(), QStringList({QStringLiteral("error:protocol-error")}));
    QCOMPARE(rig->state(), State::Down);
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

void TestRedisConnectionFake::handshakeOrderAndQueuedCommandsWait()
{
    Results results;
    ConnectionOptions options = fakeOptions(QStringLiteral("redis://watcher:s3cret@127.0.0.1:6379/3"));
    options.clientName = "lockscope-test";
    Rig rig(options);
    rig->open();
    QCOMPARE(rig->state(), State::Connecting);
    rig->send({"SET", "a", "1"}, results.add());
    rig->send({"GET", "a"}, results.add());
    QCOMPARE(rig->pendingCount(), 2);
    QVERIFY(rig.waitWritten(6));
    const QList<QByteArrayList> handshake{
        {"AUTH", "watcher", "s3cret"},
        {"SELECT", "3"},
        {"CLIENT", "SETNAME", "lockscope-test"},
        {"INFO", "server"},
        {"INFO", "replication"},
        {"TIME"},
    };
    QCOMPARE(rig.transport->commands(), handshake);
    // Also one sent while the handshake is already on the wire.
    rig->send({"GET", "late"}, results.add());

    // Every handshake reply but the last: the queued commands must still wait.
    for (int i = 0; i < 5; ++i)
        rig.transport->feed(*T::handshakeReply(handshake[i]));
    spinFor(50);
    QCOMPARE(rig->state(), State::Connecting);
    QCOMPARE(rig.transport->commands().size(), 6);
    QVERIFY(results.all.isEmpty());

    rig.transport->feed(*T::handshakeReply(handshake[5]));
    QCOMPARE(rig->state(), State::Up);
    QVERIFY(rig.waitWritten(9));
    QCOMPARE(rig.transport->commands().mid(6),
             QList<QByteArrayList>({{"SET", "a", "1"}, {"GET", "a"}, {"GET", "late"}}));
    rig.transport->feed(T::status("OK") + T::bulk("1") + T::nil());
    QCOMPARE(results.described(),
             QStringList({QStringLiteral("+OK"), QStringLiteral("$1"), QStringLiteral("nil")}));
    QCOMPARE(rig.states, QList<State>({State::Connecting, State::Up}));
}

void TestRedisConnectionFake::healthFromHandshake()
{
    Rig rig;
    QVERIFY(rig.bringUp("0123456789012345678901234567890123456789"));
    QCOMPARE(rig->health().version, QStringLiteral("7.0.15"));
    QCOMPARE(rig->health().role, QStringLiteral("master"));
    QCOMPARE(rig->health().runId, QByteArray("0123456789012345678901234567890123456789"));
    QVERIFY(rig->health().clockOffsetKnown);
    QVERIFY(qAbs(rig->health().clockOffsetMs) < 1000);
    QVERIFY(rig->health().latencyMs >= 0);
}

void TestRedisConnectionFake::authFailureFailsQueuedCommandsUnsent()
{
    Results results;
    Rig rig(fakeOptions(QStringLiteral("redis://:wrong-secret@127.0.0.1:6379/2")));
    rig->open();
    for (int i = 0; i < 3; ++i)
        rig->send({"DEL", "precious"}, results.add());
    QVERIFY(rig.waitWritten(6)); // AUTH, SELECT, CLIENT, INFO, INFO, TIME
    QCOMPARE(rig.transport->commands().first(), QByteArrayList({"AUTH", "wrong-secret"}));
    // Even with the rest of the handshake answered in the same chunk.
    rig.transport->feed(T::error("WRONGPASS invalid username-password pair or user is disabled.") +
                        T::status("OK") + T::status("OK"));
    QCOMPARE(results.count(ErrorKind::AuthFailed), 3);
    QCOMPARE(results.all.size(), 3);
    QCOMPARE(rig->state(), State::Down);
    QCOMPARE(rig->lastError().kind, ErrorKind::AuthFailed);
    QVERIFY(!rig->lastError().toString().contains(QStringLiteral("wrong-secret")));
    spinFor(50);
    for (const QByteArrayList& command : rig.transport->commands())
        QVERIFY(command.first() != "DEL");
    QCOMPARE(rig.transport->writesWhileClosed(), 0);
    QVERIFY(!rig.transport->isOpen());
}

void TestRedisConnectionFake::authFailureVariants_data()
{
    QTest::addColumn<QString>("url");
    QTest::addColumn<QByteArray>("reply");
    QTest::newRow("noauth") << QStringLiteral("redis://127.0.0.1:6379")
                            << T::error("NOAUTH Authentication required.");
    QTest::newRow("old invalid password")
        << QStringLiteral("redis://:x@127.0.0.1:6379") << T::error("ERR invalid password");
}

void TestRedisConnectionFake::authFailureVariants()
{
    QFETCH(QString, url);
    QFETCH(QByteArray, reply);
    Results results;
    Rig rig(fakeOptions(url));
    rig->open();
    rig->send({"PING"}, results.add());
    QVERIFY(spinUntil([&] { return !rig.transport->commands().isEmpty(); }));
    rig.transport->feed(reply);
    QCOMPARE(results.described(), QStringList({QStringLiteral("error:auth-failed")}));
    QCOMPARE(rig->lastError().kind, ErrorKind::AuthFailed);
}

void TestRedisConnectionFake::selectFailure()
{
    Results results;
    Rig rig(fakeOptions(QStringLiteral("redis://127.0.0.1:6379/99")));
    rig->open();
    rig->send({"GET", "k"}, results.add());
    QVERIFY(spinUntil([&] { return !rig.transport->commands().isEmpty(); }));
    QCOMPARE(rig.transport->commands().first(), QByteArrayList({"SELECT", "99"}));
    rig.transport->feed(T::error("ERR DB index is out of range"));
    QCOMPARE(results.described(), QStringList({QStringLiteral("error:server-error")}));
    QCOMPARE(rig->state(), State::Down);
    QVERIFY(rig.lastErrorSays({QStringLiteral("SELECT 99")}));
}

void TestRedisConnectionFake::timeoutMarksDownAndFailsAllPending()
{
    Results results;
    ConnectionOptions options = fakeOptions();
    options.commandTimeoutMs = 150;
    Rig rig(options);
    QVERIFY(rig.bringUp());
    for (int i = 0; i < 5; ++i)
        rig->send({"BLPOP", "q", "0"}, results.add());
    QVERIFY(rig.waitWritten(plainHandshake + 5));
    QElapsedTimer clock;
    clock.start();
    QVERIFY(spinUntil([&] { return results.all.size() == 5; }, 3000));
    const qint64 elapsed = clock.elapsed();
    QCOMPARE(results.count(ErrorKind::Timeout), 5);
    QVERIFY2(elapsed >= 100 && elapsed < lockscope::test::upperBoundMs(2000),
             qPrintable(QString::number(elapsed)));
    QVERIFY(rig.isDownWith(ErrorKind::Timeout, {QStringLiteral("150 ms")}));
    QVERIFY(!rig.transport->isOpen());
    QCOMPARE(rig->pendingCount(), 0);
}

void TestRedisConnectionFake::timeoutOnlyForTheUnansweredTail()
{
    Results results;
    ConnectionOptions options = fakeOptions();
    options.commandTimeoutMs = 150;
    Rig rig(options);
    QVERIFY(rig.bringUp());
    for (int i = 0; i < 3; ++i)
        rig->send({"GET", "k"}, results.add());
    QVERIFY(rig.waitWritten(plainHandshake + 3));
    rig.transport->feed(T::bulk("a") + T::bulk("b"));
    QVERIFY(spinUntil([&] { return results.all.size() == 3; }, 3000));
    QCOMPARE(results.described(),
             QStringList({QStringLiteral("$a"), QStringLiteral("$b"), QStringLiteral("error:timeout")}));
}

void TestRedisConnectionFake::timeoutCountsFromTheLastBytesHeard()
{
    // Six commands sent at once, answered one every 60 ms: the last answer comes 360 ms after it
    // was sent, well past the 150 ms timeout, but the server was never silent for 150 ms.
    Results results;
    ConnectionOptions options = fakeOptions();
    options.commandTimeoutMs = 150;
    Rig rig(options);
    QVERIFY(rig.bringUp());
    for (int i = 0; i < 6; ++i)
        rig->send({"GET", "k"}, results.add());
    QVERIFY(rig.waitWritten(plainHandshake + 6));
    int fed = 0;
    QTimer answer;
    QObject::connect(&answer, &QTimer::timeout, &answer, [&] {
        rig.transport->feed(T::bulk(QByteArray::number(fed)));
        if (++fed == 6)
            answer.stop();
    });
    answer.start(60);
    QVERIFY(spinUntil([&] { return results.all.size() == 6; }, 3000));
    QCOMPARE(results.described(),
             QStringList({QStringLiteral("$0"), QStringLiteral("$1"), QStringLiteral("$2"),
                          QStringLiteral("$3"), QStringLiteral("$4"), QStringLiteral("$5")}));
    QVERIFY(rig->isUp());
    // Silence for the timeout after the last answer still fails what is left.
    rig->send({"GET", "k"}, results.add());
    QVERIFY(spinUntil([&] { return results.all.size() == 7; }, 3000));
    QCOMPARE(results.described().constLast(), QStringLiteral("error:timeout"));
}

void TestRedisConnectionFake::unreadBytesAreNotATimeout()
{
    // The answer is in the socket, but this thread was busy until past the deadline: when the
    // timer gets its turn before the socket does, the answer is not taken for silence.
    Results results;
    ConnectionOptions options = fakeOptions();
    options.commandTimeoutMs = 100;
    Rig rig(options);
    QVERIFY(rig.bringUp());
    rig->send({"GET", "k"}, results.add());
    QVERIFY(rig.waitWritten(plainHandshake + 1));
    rig.transport->arrive(T::bulk("v"));
    spinFor(300);
    QVERIFY2(results.all.isEmpty(), qPrintable(results.described().join(QLatin1Char(' '))));
    QVERIFY(rig->isUp());
    rig.transport->deliver();
    QCOMPARE(results.described(), QStringList({QStringLiteral("$v")}));
    QVERIFY(rig->isUp());
}

void TestRedisConnectionFake::queuedCommandsTimeOutDuringHandshake()
{
    Results results;
    ConnectionOptions options = fakeOptions();
    options.commandTimeoutMs = 400;
    options.connectTimeoutMs = 10000;
    Rig rig(options);
    rig.transport->setOpenMode(T::OpenMode::Hang);
    rig->open();
    QElapsedTimer clock;
    clock.start();
    rig->send({"GET", "k"}, results.add());
    // The socket opens late and takes the handshake, which the server never answers. The queued
    // command is older than the handshake: its own deadline counts, not the handshake's (~700 ms).
    spinFor(300);
    const qint64 openedAt = clock.elapsed(); // the handshake's own deadline runs from here
    rig.transport->completeOpen();
    QVERIFY(rig.waitWritten(plainHandshake));
    QVERIFY(spinUntil([&] { return !results.all.isEmpty(); }, 3000));
    const qint64 elapsed = clock.elapsed();
    QCOMPARE(results.described(), QStringList({QStringLiteral("error:timeout")}));
    // Its own 400 ms, not the handshake's: failed before the handshake's deadline could have passed
    // (measured from when the socket opened, so a loaded machine does not blur the two), and no hang.
    QVERIFY2(elapsed >= 390 && elapsed < openedAt + 400 && elapsed < lockscope::test::upperBoundMs(600),
             qPrintable(QStringLiteral("%1 ms, opened at %2 ms").arg(elapsed).arg(openedAt)));
    QCOMPARE(rig->state(), State::Down);
}

void TestRedisConnectionFake::connectTimeout()
{
    Results results;
    ConnectionOptions options = fakeOptions();
    options.connectTimeoutMs = 100;
    Rig rig(options);
    rig.transport->setOpenMode(T::OpenMode::Hang);
    rig->open();
    rig->send({"GET", "k"}, results.add());
    QVERIFY(spinUntil([&] { return rig->state() == State::Down; }, 3000));
    QCOMPARE(rig->lastError().kind, ErrorKind::Timeout);
    QVERIFY(rig.lastErrorSays({QStringLiteral("no connection")}));
    QCOMPARE(results.count(ErrorKind::Timeout), 1);
}

void TestRedisConnectionFake::backoffGrowsCappedWithJitter()
{
    ConnectionOptions options = fakeOptions();
    options.autoReconnect = true;
    options.reconnectInitialMs = 10;
    options.reconnectMaxMs = 80;
    Rig rig(options);
    rig.transport->setOpenMode(T::OpenMode::Refuse);
    QList<int> delays;
    QList<qint64> waited; // from Down to the next attempt, as the clock saw it
    QElapsedTimer clock;
    clock.start();
    qint64 downAt = 0;
    QObject::connect(rig.connection.get(), &RedisConnection::stateChanged, rig.connection.get(),
                     [&](State state) {
                         if (state == State::Down) {
                             delays << rig->retryDelayMs();
                             downAt = clock.elapsed();
                         } else if (state == State::Reconnecting) {
                             waited << clock.elapsed() - downAt;
                         }
                     });
    rig->open();
    QVERIFY(spinUntil([&] { return delays.size() >= 12; }, 10000));
    rig->close();
    QCOMPARE(rig->lastError().kind, ErrorKind::Cancelled);
    for (qsizetype i = 0; i < delays.size(); ++i) {
        const int base = qMin(80, 10 << qMin<int>(int(i), 10));
        const QString where = QStringLiteral("attempt %1: %2 ms").arg(i).arg(delays[i]);
        QVERIFY2(delays[i] >= base * 3 / 4 && delays[i] <= base * 5 / 4, qPrintable(where));
    }
    // Doubling while under the cap: every step at least 1.2 times (0.75·2b / 1.25·b) the previous.
    for (qsizetype i = 1; i < 4; ++i)
        QVERIFY2(delays[i] * 5 >= delays[i - 1] * 6, qPrintable(QStringLiteral("attempt %1").arg(i)));
    // At the cap the delays are jittered, not one fixed number.
    const QList<int> capped = delays.mid(4);
    QVERIFY(*std::max_element(capped.cbegin(), capped.cend()) <= 100);
    QVERIFY(*std::min_element(capped.cbegin(), capped.cend()) >= 60);
    QVERIFY2(std::adjacent_find(capped.cbegin(), capped.cend(), std::not_equal_to<>()) != capped.cend(),
             "no jitter at the cap");
    // And the timer really waits that long (PreciseTimer: never early, beyond millisecond rounding).
    for (qsizetype i = 0; i < waited.size(); ++i)
        QVERIFY2(
            waited[i] >= delays[i] - 2,
            qPrintable(QStringLiteral("attempt %1 waited %2 of %3 ms").arg(i).arg(waited[i]).arg(delays[i])));
}

void TestRedisConnectionFake::backoffRestartsAfterSuccess()
{
    ConnectionOptions options = fakeOptions();
    options.autoReconnect = true;
    options.reconnectInitialMs = 40;
    options.reconnectMaxMs = 160;
    Rig rig(options);
    rig.transport->setOpenMode(T::OpenMode::Refuse);
    rig->open();
    QVERIFY(spinUntil([&] { return rig->retryDelayMs() >= 120; }, 5000)); // grown to the cap
    rig.transport->setOpenMode(T::OpenMode::Accept);
    rig.transport->setResponder([](const QByteArrayList& argv) { return T::handshakeReply(argv); });
    QVERIFY(spinUntil([&] { return rig->isUp(); }, 5000));
    QCOMPARE(rig->retryDelayMs(), -1);
    rig.transport->failNow(ErrorKind::ConnectionLost, QStringLiteral("peer went away"));
    QCOMPARE(rig->state(), State::Down);
    QVERIFY2(rig->retryDelayMs() >= 30 && rig->retryDelayMs() <= 50,
             qPrintable(QString::number(rig->retryDelayMs())));
}

void TestRedisConnectionFake::openDuringScheduledRetry()
{
    ConnectionOptions options = fakeOptions();
    options.autoReconnect = true;
    options.reconnectInitialMs = 200;
    Rig rig(options);
    rig.transport->setOpenMode(T::OpenMode::Refuse);
    rig->open();
    QVERIFY(spinUntil([&] { return rig->state() == State::Down; }));
    QVERIFY(rig->retryDelayMs() >= 150);
    rig.transport->setOpenMode(T::OpenMode::Accept);
    rig.transport->setResponder([](const QByteArrayList& argv) { return T::handshakeReply(argv); });
    rig->open(); // before the scheduled retry
    QVERIFY(spinUntil([&] { return rig->isUp(); }));
    const int opens = rig.transport->openCount();
    spinFor(400); // past the retry that was scheduled: it must not tear the live connection down
    QCOMPARE(rig.transport->openCount(), opens);
    QVERIFY(rig->isUp());
}

void TestRedisConnectionFake::connectionLostFailsAllAndReconnects()
{
    Results results;
    ConnectionOptions options = fakeOptions();
    options.autoReconnect = true;
    options.reconnectInitialMs = 10;
    Rig rig(options);
    QList<QByteArrayList> restarts;
    QObject::connect(rig.connection.get(), &RedisConnection::restarted, rig.connection.get(),
                     [&](const QByteArray& before, const QByteArray& after) {
                         restarts << QByteArrayList{before, after};
                     });
    QVERIFY(rig.bringUp(QByteArray(40, '1')));
    for (int i = 0; i < 3; ++i)
        rig->send({"GET", "k"}, results.add());
    QVERIFY(rig.waitWritten(plainHandshake + 3));
    rig.transport->feed(T::bulk("first"));
    rig.transport->failNow(ErrorKind::ConnectionLost, QStringLiteral("connection reset by peer"));
    QCOMPARE(results.described(),
             QStringList({QStringLiteral("$first"), QStringLiteral("error:connection-lost"),
                          QStringLiteral("error:connection-lost")}));
    QCOMPARE(rig->state(), State::Down);
    // The same run_id again: no restart.
    rig.transport->setResponder(
        [](const QByteArrayList& argv) { return T::handshakeReply(argv, QByteArray(40, '1')); });
    QVERIFY(spinUntil([&] { return rig->isUp(); }));
    QVERIFY(restarts.isEmpty());
    // A new run_id: the server restarted (and may have lost its locks).
    rig.transport->setResponder(
        [](const QByteArrayList& argv) { return T::handshakeReply(argv, QByteArray(40, '2')); });
    rig.transport->failNow(ErrorKind::ConnectionLost, QStringLiteral("connection reset by peer"));
    QVERIFY(spinUntil([&] { return rig->isUp(); }));
    QCOMPARE(restarts, QList<QByteArrayList>({{QByteArray(40, '1'), QByteArray(40, '2')}}));
    QCOMPARE(rig.states, QList<State>({State::Connecting, State::Up, State::Down, State::Reconnecting,
                                       State::Up, State::Down, State::Reconnecting, State::Up}));
}

void TestRedisConnectionFake::closeCancelsSentAndQueued()
{
    Results results;
    {
        Rig rig;
        QVERIFY(rig.bringUp());
        for (int i = 0; i < 3; ++i)
            rig->send({"GET", "k"}, results.add());
        QVERIFY(rig.waitWritten(plainHandshake + 3));
        const int aborts = rig.transport->abortCount();
        rig->close();
        QCOMPARE(results.count(ErrorKind::Cancelled), 3);
        QCOMPARE(rig->state(), State::Disconnected);
        QCOMPARE(rig.transport->abortCount(), aborts + 1);
        QCOMPARE(rig->pendingCount(), 0);
        // A late reply for the closed stream goes nowhere.
        rig.transport->feed(T::bulk("late"));
        QCOMPARE(results.all.size(), 3);
    }
    results.all.clear();
    {
        Rig rig;
        rig.transport->setOpenMode(T::OpenMode::Hang);
        rig->open();
        rig->send({"DEL", "k"}, results.add());
        rig->send({"DEL", "k"}, results.add());
        rig->close();
        QCOMPARE(results.count(ErrorKind::Cancelled), 2);
        QCOMPARE(rig->state(), State::Disconnected);
        spinFor(20);
        QVERIFY(rig.transport->written().isEmpty());
        QCOMPARE(rig.transport->writesWhileClosed(), 0);
    }
}

void TestRedisConnectionFake::closeStopsRetries()
{
    ConnectionOptions options = fakeOptions();
    options.autoReconnect = true;
    options.reconnectInitialMs = 10;
    Rig rig(options);
    rig.transport->setOpenMode(T::OpenMode::Refuse);
    rig->open();
    QVERIFY(spinUntil([&] { return rig.transport->openCount() >= 3; }));
    rig->close();
    const int opens = rig.transport->openCount();
    spinFor(150);
    QCOMPARE(rig.transport->openCount(), opens);
    QCOMPARE(rig->state(), State::Disconnected);
    QCOMPARE(rig->retryDelayMs(), -1);
}

void TestRedisConnectionFake::callbackClosingMidChunk()
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

void TestRedisConnectionFake::callbackSendingMidChunk()
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

void TestRedisConnectionFake::callbackRunningNestedEventLoop()
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

void TestRedisConnectionFake::commandSentOnUpGoesAfterQueued()
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

void TestRedisConnectionFake::goneContextSkipsCallback()
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

void TestRedisConnectionFake::sendWhileDownOrEmpty()
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

void TestRedisConnectionFake::pubSubMessages()
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

void TestRedisConnectionFake::aScanPageKeepsOnlyTheKeysItsFilterKeeps()
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

void TestRedisConnectionFake::aScanPageFilterLeavesOtherRepliesAlone()
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

void TestRedisConnectionFake::scriptFallsBackFromNoScript()
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

LOCKSCOPE_TEST_GUILESS_MAIN(TestRedisConnectionFake)
void TestRedisConnectionFake::batchAnsweredOnceInOrder()
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

void TestRedisConnectionFake::batchFailsOnceWithEverythingPending()
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

} // namespace tst_redisconnection_fake

#include "tst_redisconnection_fake.moc"
