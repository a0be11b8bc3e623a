// SPDX-License-Identifier: Apache-2.0
// The test fixtures' servers are not open to other local users (issue #14): every redis-server and
// redis-sentinel a test starts (RedisServer, RedisServerGroup, SentinelGroup, RedisClusterGroup)
// requires a random password unless the test says otherwise. The password is in a configuration file
// only we can read, never in a process's arguments, and the fixture's own commands still work.
#include "base/localserverfiles.h"
#include "support/blockingcommand.h"
#include "support/redisclustergroup.h"
#include "support/redisserver.h"
#include "support/redisservergroup.h"
#include "support/sentinelgroup.h"
#include "support/testregistry.h"

#include <QFile>
#include <QFileInfo>
#include <QTest>

#include <sys/stat.h>

namespace tst_testserverauth {

using namespace lockscope;
using namespace lockscope::test;

namespace {

QByteArray commandLine(qint64 pid)
{
    QFile f(QStringLiteral("/proc/%1/cmdline").arg(pid));
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// A server started by a fixture: an unauthenticated PING is refused with NOAUTH, the fixture's
// password opens it, the configuration file `confName` in its working directory (its `dir`) holds
// the password and is mode 0600, and neither the process's command line nor the arguments it was
// started with hold the password.
void checkLockedDown(quint16 port, qint64 pid, const QStringList& arguments, const QString& password,
                     const QString& confName)
{
    QVERIFY2(password.size() >= 32,
             qPrintable(QStringLiteral("password of %1 characters").arg(password.size())));
    const RedisReply open = blockingCommand(port, {"PING"});
    QVERIFY2(open.isError() && open.string.startsWith("NOAUTH"),
             qPrintable(QStringLiteral("unauthenticated PING on port %1 got: %2")
                            .arg(port)
                            .arg(QString::fromUtf8(open.string))));
    const RedisReply authed = blockingCommand(port, {"PING"}, password);
    QCOMPARE(authed.string, QByteArray("PONG"));

    QVERIFY(pid > 0);
    QVERIFY2(!commandLine(pid).contains(password.toUtf8()), commandLine(pid).constData());
    QVERIFY2(!arguments.join(QLatin1Char(' ')).contains(password),
             qPrintable(arguments.join(QLatin1Char(' ')).replace(password, QStringLiteral("***"))));

    const QString dir = QFileInfo(QStringLiteral("/proc/%1/cwd").arg(pid)).symLinkTarget();
    QVERIFY2(!dir.isEmpty(), "no working directory");
    const QString conf = dir + QLatin1Char('/') + confName;
    QFile confFile(conf);
    QVERIFY2(confFile.open(QIODevice::ReadOnly), qPrintable(conf + QStringLiteral(" is missing")));
    const QByteArray text = confFile.readAll();
    QVERIFY2(text.contains(password.toUtf8()) || text.contains(LocalServerFiles::quoted(password)),
             qPrintable(conf));
    struct stat st = {};
    QCOMPARE(::stat(QFile::encodeName(conf).constData(), &st), 0);
    QCOMPARE(st.st_mode & 0777, mode_t(0600));
}

} // namespace

class TestTestServerAuth : public QObject
{
    Q_OBJECT

private slots:
    void serverRequiresARandomPassword();
    void groupMastersShareTheRunsPassword();
    void explicitPasswordAndOptOut();
    void sentinelGroupRequiresThePassword();
    void clusterNodesRequireThePassword();
};

void TestTestServerAuth::serverRequiresARandomPassword()
{
    RedisServer server;
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    checkLockedDown(server.port(), server.pid(), server.arguments(), server.options().password,
                    QStringLiteral("redis.conf"));
    if (QTest::currentTestFailed())
        return;
    QCOMPARE(server.options().password, testPassword());
    // The fixture's own commands and the URL for the code under test carry it.
    QCOMPARE(server.command({"PING"}).string, QByteArray("PONG"));
    QVERIFY(server.url(true).contains(testPassword()));
    QVERIFY(!server.url(false).contains(testPassword()));
    QCOMPARE(server.connectionOptions().url.password(), testPassword());
}

void TestTestServerAuth::groupMastersShareTheRunsPassword()
{
    RedisServerGroup group;
    QVERIFY2(group.start(2), qPrintable(group.errorString()));
    for (int i = 0; i < group.size(); ++i) {
        checkLockedDown(group.at(i).port(), group.at(i).pid(), group.at(i).arguments(), testPassword(),
                        QStringLiteral("redis.conf"));
        if (QTest::currentTestFailed())
            return;
    }
}

void TestTestServerAuth::explicitPasswordAndOptOut()
{
    RedisServerOptions chosen;
    chosen.password = distinctTestPassword(QStringLiteral("a chosen \"pass\\word\" of 32+ characters"));
    RedisServer server(chosen);
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    checkLockedDown(server.port(), server.pid(), server.arguments(), chosen.password,
                    QStringLiteral("redis.conf"));
    if (QTest::currentTestFailed())
        return;

    // An ACL user's password is in the file too, not in the arguments.
    RedisServerOptions acl;
    acl.aclUser = QStringLiteral("watcher");
    acl.aclPassword = QStringLiteral("acl-") + testPassword();
    RedisServer aclServer(acl);
    QVERIFY2(aclServer.start(), qPrintable(aclServer.errorString()));
    QVERIFY(!aclServer.arguments().join(QLatin1Char(' ')).contains(acl.aclPassword));
    QCOMPARE(aclServer.command({"ACL", "WHOAMI"}).string, QByteArray("default"));
    QCOMPARE(blockingCommand(aclServer.port(), {"AUTH", "watcher", acl.aclPassword.toUtf8()}).string,
             QByteArray("OK"));

    // The opt-out, for tests about a server that takes no password.
    RedisServerOptions open;
    open.withoutPassword = true;
    RedisServer openServer(open);
    QVERIFY2(openServer.start(), qPrintable(openServer.errorString()));
    QCOMPARE(blockingCommand(openServer.port(), {"PING"}).string, QByteArray("PONG"));
    QVERIFY(openServer.options().password.isEmpty());
}

void TestTestServerAuth::sentinelGroupRequiresThePassword()
{
    SentinelGroup group;
    QVERIFY2(group.start(), qPrintable(group.errorString())); // the replica logged in to the primary
    const QString password = group.options().dataOptions.password;
    QCOMPARE(password, testPassword());
    for (int i = 0; i < group.dataNodeCount(); ++i) {
        checkLockedDown(group.dataNode(i).port(), group.dataNode(i).pid(), group.dataNode(i).arguments(),
                        password, QStringLiteral("redis.conf"));
        if (QTest::currentTestFailed())
            return;
    }
    for (int i = 0; i < group.sentinelCount(); ++i) {
        checkLockedDown(group.sentinel(i).port(), group.sentinel(i).pid(), group.sentinel(i).arguments(),
                        password, QStringLiteral("sentinel.conf"));
        if (QTest::currentTestFailed())
            return;
    }
    QVERIFY(group.url(false).endsWith(QStringLiteral("?sentinel-auth=yes")));
}

void TestTestServerAuth::clusterNodesRequireThePassword()
{
    RedisClusterGroup cluster;
    QVERIFY2(cluster.start(3, 1), qPrintable(cluster.errorString())); // redis-cli --cluster logged in
    for (int i = 0; i < cluster.size(); ++i) {
        checkLockedDown(cluster.at(i).port(), cluster.at(i).pid(), cluster.at(i).arguments(), testPassword(),
                        QStringLiteral("redis.conf"));
        if (QTest::currentTestFailed())
            return;
    }
    // Replicas are linked to their primaries (masterauth).
    const int replica = cluster.replicaOf(cluster.primaryIndexes().value(0));
    QVERIFY(replica >= 0);
    QCOMPARE(infoField(cluster.at(replica).command({"INFO", "replication"}).string, "master_link_status"),
             QByteArray("up"));
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestTestServerAuth)

} // namespace tst_testserverauth

#include "tst_testserverauth.moc"
