// A cluster redirection names the address the router then sends the credentials to (issue 14):
// MOVED/ASK to an address outside the slot map is followed only when a fresh map lists it. Small fake
// cluster nodes on loopback forge the redirections; a "trap" node outside the map records whether
// anything reached it. (tst_clusterrouter shows that a real cluster's MOVED and ASK are still
// followed.)
#include "clusterrouter.h"
#include "clustertopology.h"
#include "topologyurl.h"

#include <QSignalSpy>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>

#include <hiredis/hiredis.h>

#include <functional>
#include <memory>
#include <optional>

using namespace lockscope;

namespace {

QByteArray bulk(const QByteArray& s)
{
    return '$' + QByteArray::number(s.size()) + "\r\n" + s + "\r\n";
}

// A cluster node that answers the connection handshake and CLUSTER SLOTS itself, and every other
// command through `answer` (RESP bytes). It records what it was sent, AUTH included.
class FakeClusterNode final : public QObject
{
public:
    using Answer = std::function<QByteArray(const QByteArrayList& argv)>;

    FakeClusterNode()
    {
        m_server.listen(QHostAddress::LocalHost);
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket* socket = m_server.nextPendingConnection()) {
                ++m_connections;
                auto reader = std::shared_ptr<redisReader>(redisReaderCreate(), redisReaderFree);
                connect(socket, &QTcpSocket::readyRead, socket, [this, socket, reader] {
                    const QByteArray bytes = socket->readAll();
                    redisReaderFeed(reader.get(), bytes.constData(), size_t(bytes.size()));
                    void* parsed = nullptr;
                    while (redisReaderGetReply(reader.get(), &parsed) == REDIS_OK && parsed) {
                        auto* reply = static_cast<redisReply*>(parsed);
                        QByteArrayList argv;
                        for (size_t i = 0; reply->type == REDIS_REPLY_ARRAY && i < reply->elements; ++i)
                            argv << QByteArray(reply->element[i]->str, qsizetype(reply->element[i]->len));
                        freeReplyObject(reply);
                        m_commands << argv;
                        socket->write(respond(argv));
                    }
                });
                connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
            }
        });
    }

    NodeAddress address() const { return {QStringLiteral("127.0.0.1"), m_server.serverPort()}; }
    int connections() const { return m_connections; }
    const QList<QByteArrayList>& commands() const { return m_commands; }
    // Shards for CLUSTER SLOTS: first slot, last slot, primary.
    void setSlots(QList<std::tuple<int, int, NodeAddress>> shards) { m_slots = std::move(shards); }
    void setAnswer(Answer answer) { m_answer = std::move(answer); }

private:
    QByteArray respond(const QByteArrayList& argv) const
    {
        const QByteArray name = argv.value(0).toUpper();
        if (name == "AUTH" || name == "SELECT" || name == "CLIENT" || name == "ASKING")
            return "+OK\r\n";
        if (name == "INFO")
            return bulk("role:master\r\nredis_version:7.0.0\r\n");
        if (name == "TIME")
            return "*2\r\n" + bulk("1700000000") + bulk("0");
        if (name == "PING")
            return "+PONG\r\n";
        if (name == "CLUSTER" && argv.value(1).toUpper() == "SLOTS") {
            QByteArray out = '*' + QByteArray::number(m_slots.size()) + "\r\n";
            for (const auto& [first, last, node] : m_slots)
                out += "*3\r\n:" + QByteArray::number(first) + "\r\n:" + QByteArray::number(last) +
                       "\r\n*3\r\n" + bulk(node.host.toUtf8()) + ':' + QByteArray::number(node.port) +
                       "\r\n" + bulk(QByteArray(40, 'a' + char(node.port % 20)));
            return out;
        }
        return m_answer ? m_answer(argv) : QByteArray("-ERR unknown\r\n");
    }

    QTcpServer m_server;
    int m_connections = 0;
    QList<QByteArrayList> m_commands;
    QList<std::tuple<int, int, NodeAddress>> m_slots;
    Answer m_answer;
};

bool sentAuth(const FakeClusterNode& node, const QByteArray& password)
{
    for (const QByteArrayList& argv : node.commands())
        if (argv.value(0).toUpper() == "AUTH" && argv.contains(password))
            return true;
    return false;
}

} // namespace

class TestClusterRedirectTrust : public QObject
{
    Q_OBJECT

private slots:
    void cleanup();
    void movedOutsideTheMapIsRefused();
    void askOutsideTheMapIsRefused();
    void movedToANodeThatJoinedIsFollowed();

private:
    void startRouter(const FakeClusterNode& seed);
    RedisResult routed(const QByteArray& key);

    std::unique_ptr<ClusterTopology> m_topology;
    std::unique_ptr<ClusterRouter> m_router;
};

void TestClusterRedirectTrust::cleanup()
{
    m_router.reset();
    m_topology.reset();
}

void TestClusterRedirectTrust::startRouter(const FakeClusterNode& seed)
{
    const Result<TopologyUrl> url = TopologyUrl::parse(
        QStringLiteral("redis-cluster://ops:Cluster-Secret@%1").arg(seed.address().toString()));
    QVERIFY(url.ok());
    ConnectionOptions nodeOptions;
    nodeOptions.connectTimeoutMs = nodeOptions.commandTimeoutMs = 2000;
    nodeOptions.healthIntervalMs = 0;
    ClusterTopology::Options options;
    options.refreshIntervalMs = 0;
    options.retryDelayMs = 100;
    m_topology = std::make_unique<ClusterTopology>(*url, nodeOptions, options);
    m_router = std::make_unique<ClusterRouter>(m_topology.get());
    m_topology->start();
    QTRY_VERIFY_WITH_TIMEOUT(m_topology->isReady(), 10000);
}

RedisResult TestClusterRedirectTrust::routed(const QByteArray& key)
{
    auto out = std::make_shared<std::optional<RedisResult>>();
    m_router->send(key, {"GET", key}, this, [out](const RedisResult& result) { *out = result; });
    if (!QTest::qWaitFor([&] { return out->has_value(); }, 10000))
        return {RedisError(ErrorKind::Timeout, {}, QStringLiteral("test: no answer")), {}};
    return **out;
}

void TestClusterRedirectTrust::movedOutsideTheMapIsRefused()
{
    FakeClusterNode seed, trap;
    seed.setSlots({{0, 16383, seed.address()}});
    seed.setAnswer([&trap](const QByteArrayList&) -> QByteArray {
        return "-MOVED 866 " + trap.address().toString().toUtf8() + "\r\n";
    });
    startRouter(seed);
    QVERIFY(sentAuth(seed, "Cluster-Secret")); // the seed is ours: it gets the credentials
    const int refreshes = m_topology->refreshCount();

    const RedisResult result = routed("lock:x");
    QVERIFY(!result.ok());
    QVERIFY2(result.error.message.contains(QLatin1String("refused to follow MOVED")) &&
                 result.error.message.contains(trap.address().toString()),
             qPrintable(result.error.toString()));
    QVERIFY(m_topology->refreshCount() > refreshes); // the map was read again before refusing
    QCOMPARE(trap.connections(), 0);
    QVERIFY(!m_topology->knowsNode(trap.address())); // nor was it written into the map
}

void TestClusterRedirectTrust::askOutsideTheMapIsRefused()
{
    FakeClusterNode seed, trap;
    seed.setSlots({{0, 16383, seed.address()}});
    seed.setAnswer([&trap](const QByteArrayList&) -> QByteArray {
        return "-ASK 866 " + trap.address().toString().toUtf8() + "\r\n";
    });
    startRouter(seed);
    const RedisResult result = routed("lock:x");
    QVERIFY(!result.ok());
    QVERIFY2(result.error.message.contains(QLatin1String("refused to follow ASK")),
             qPrintable(result.error.toString()));
    QCOMPARE(trap.connections(), 0);
}

// A MOVED to a node the router has not seen yet, which the refreshed map then lists (a node that
// joined): followed, with the credentials.
void TestClusterRedirectTrust::movedToANodeThatJoinedIsFollowed()
{
    FakeClusterNode seed, joined;
    seed.setSlots({{0, 16383, seed.address()}});
    seed.setAnswer([&seed, &joined](const QByteArrayList&) -> QByteArray {
        // The slot has just moved: from now on the map says so.
        seed.setSlots({{0, 8000, seed.address()}, {8001, 16383, joined.address()}});
        return "-MOVED 866 " + joined.address().toString().toUtf8() + "\r\n";
    });
    joined.setAnswer([](const QByteArrayList&) -> QByteArray { return bulk("value"); });
    startRouter(seed);
    QVERIFY(!m_topology->knowsNode(joined.address()));

    const RedisResult result = routed("lock:x");
    QVERIFY2(result.ok(), qPrintable(result.error.toString()));
    QCOMPARE(result.reply.string, QByteArray("value"));
    QVERIFY(m_topology->knowsNode(joined.address()));
    QVERIFY(sentAuth(joined, "Cluster-Secret"));
    QCOMPARE(m_router->movedCount(), 1);
}

QTEST_GUILESS_MAIN(TestClusterRedirectTrust)
#include "tst_clusterredirecttrust.moc"
