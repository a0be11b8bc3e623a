// SPDX-License-Identifier: Apache-2.0
// A sentinel names the primary, and the data nodes' credentials would go to that address (issue 14):
// the named node is asked ROLE before AUTH where it answers without credentials, so that a node that
// is not the primary never receives them. A fake sentinel names a fake node that records what it was
// sent. (tst_sentinelwatcher and tst_sentineltls show real groups whose data nodes need a password:
// there ROLE needs AUTH, and is asked after it.)
#include "connection/topologyurl.h"
#include "support/fakeredispeer.h"
#include "support/scriptedtransport.h"
#include "support/testregistry.h"
#include "topology/sentinelresolver.h"

#include <QSignalSpy>
#include <QTest>

namespace tst_sentinelcredentials {

using namespace lockscope;
using namespace lockscope::test;

namespace {

const QByteArray secret = "Sentinel-Data-Secret";

QByteArray roleReply(const QByteArray& role)
{
    if (role == "master")
        return "*3\r\n" + ScriptedTransport::bulk("master") + ":0\r\n*0\r\n";
    return "*5\r\n" + ScriptedTransport::bulk("slave") + ScriptedTransport::bulk("127.0.0.1") + ":6379\r\n" +
           ScriptedTransport::bulk("connected") + ":0\r\n";
}

// A sentinel that names `primary` for every master name.
void actAsSentinel(FakeRedisPeer& sentinel, const NodeAddress& primary)
{
    sentinel.setHandler([primary](const QByteArrayList& argv, QTcpSocket*) -> std::optional<QByteArray> {
        if (argv.value(0).toUpper() != "SENTINEL")
            return std::nullopt;
        return "*2\r\n" + ScriptedTransport::bulk(primary.host.toUtf8()) +
               ScriptedTransport::bulk(QByteArray::number(primary.port));
    });
}

// A node answering ROLE with `role`; with `requireAuth`, every command before AUTH gets NOAUTH, as
// with requirepass.
void actAsDataNode(FakeRedisPeer& node, const QByteArray& role, bool requireAuth)
{
    auto authed = std::make_shared<bool>(false);
    node.setHandler(
        [role, requireAuth, authed](const QByteArrayList& argv, QTcpSocket*) -> std::optional<QByteArray> {
            const QByteArray name = argv.value(0).toUpper();
            if (name == "AUTH") {
                *authed = true;
                return std::nullopt;
            }
            if (requireAuth && !*authed)
                return QByteArray("-NOAUTH Authentication required.\r\n");
            if (name == "ROLE")
                return roleReply(role);
            return std::nullopt;
        });
}

} // namespace

class TestSentinelCredentials : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void replicaNamedBySentinelNeverGetsCredentials();
    void primaryCheckedBeforeAuth();
    void primaryThatWantsAuthIsCheckedAfterIt();

private:
    // Resolves through `sentinel`; true when resolved, false when failed.
    bool resolve(const FakeRedisPeer& sentinel, QString* why);
};

void TestSentinelCredentials::initTestCase()
{
    qRegisterMetaType<NodeAddress>();
    qRegisterMetaType<RedisError>();
}

bool TestSentinelCredentials::resolve(const FakeRedisPeer& sentinel, QString* why)
{
    const Result<TopologyUrl> url =
        TopologyUrl::parse(QStringLiteral("redis-sentinel://ops:%1@%2/mymaster")
                               .arg(QString::fromUtf8(secret), sentinel.address().toString()));
    if (!url)
        qFatal("bad test URL");
    ConnectionOptions nodeOptions;
    nodeOptions.connectTimeoutMs = nodeOptions.commandTimeoutMs = 2000;
    SentinelResolver resolver(*url, nodeOptions);
    QSignalSpy resolved(&resolver, &SentinelResolver::resolved);
    QSignalSpy failed(&resolver, &SentinelResolver::failed);
    resolver.resolve();
    if (!QTest::qWaitFor([&] { return !resolved.isEmpty() || !failed.isEmpty(); },
                         int(lockscope::test::upperBoundMs(10000)))) {
        *why = QStringLiteral("no answer");
        return false;
    }
    if (!failed.isEmpty())
        *why = failed.at(0).at(0).value<RedisError>().toString();
    return !resolved.isEmpty();
}

void TestSentinelCredentials::replicaNamedBySentinelNeverGetsCredentials()
{
    FakeRedisPeer sentinel, replica;
    actAsSentinel(sentinel, replica.address());
    actAsDataNode(replica, "slave", false);
    QString why;
    QVERIFY(!resolve(sentinel, &why));
    QVERIFY2(why.contains(QLatin1String("reports role 'slave'")), qPrintable(why));
    QVERIFY(replica.commandCount("ROLE") > 0);
    QCOMPARE(replica.commandCount("AUTH"), 0);
    QVERIFY(!sentinel.sawAuthWith(secret)); // sentinel-auth is off
}

void TestSentinelCredentials::primaryCheckedBeforeAuth()
{
    FakeRedisPeer sentinel, primary;
    actAsSentinel(sentinel, primary.address());
    actAsDataNode(primary, "master", false);
    QString why;
    QVERIFY2(resolve(sentinel, &why), qPrintable(why));
    QCOMPARE(primary.commandCount("AUTH"), 0); // verified without them; the entry's own connection sends them
}

void TestSentinelCredentials::primaryThatWantsAuthIsCheckedAfterIt()
{
    FakeRedisPeer sentinel, primary;
    actAsSentinel(sentinel, primary.address());
    actAsDataNode(primary, "master", true);
    QString why;
    QVERIFY2(resolve(sentinel, &why), qPrintable(why));
    QVERIFY(primary.sawAuthWith(secret));
    // The AUTH came on the second connection, after the anonymous one was refused.
    QCOMPARE(primary.connections(), 2);
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestSentinelCredentials)

} // namespace tst_sentinelcredentials

#include "tst_sentinelcredentials.moc"
