// SPDX-License-Identifier: Apache-2.0
#include "connection/connectionhandshake.h"
#include "support/testregistry.h"

#include <QTest>

namespace tst_serverinfo {

using namespace lockscope;

// Issue #46: Valkey answers INFO server with redis_version:7.2.4 beside server_name:valkey and
// valkey_version:8.0.1, and was shown as "7.2.4". The server is named as it names itself.
class TestServerInfo : public QObject
{
    Q_OBJECT

private slots:
    void namedAsItNamesItself_data();
    void namedAsItNamesItself();
};

void TestServerInfo::namedAsItNamesItself_data()
{
    QTest::addColumn<QByteArray>("info");
    QTest::addColumn<QString>("server");
    QTest::addColumn<QString>("version");
    QTest::addColumn<QString>("redisVersion");
    QTest::addColumn<QString>("shown");
    // As Valkey 8.0.1 from bookworm-backports answers (the lines around the ones read elided).
    QTest::newRow("valkey") << QByteArray("# Server\r\nredis_version:7.2.4\r\nserver_name:valkey\r\n"
                                          "valkey_version:8.0.1\r\nredis_mode:standalone\r\nrun_id:abc\r\n")
                            << QStringLiteral("valkey") << QStringLiteral("8.0.1") << QStringLiteral("7.2.4")
                            << QStringLiteral("Valkey 8.0.1");
    QTest::newRow("redis")
        << QByteArray("# Server\r\nredis_version:7.0.15\r\nredis_mode:standalone\r\nrun_id:abc\r\n")
        << QStringLiteral("redis") << QStringLiteral("7.0.15") << QStringLiteral("7.0.15")
        << QStringLiteral("Redis 7.0.15");
    QTest::newRow("named, no version of its own")
        << QByteArray("redis_version:7.2.0\r\nserver_name:keydb\r\n") << QStringLiteral("keydb")
        << QStringLiteral("7.2.0") << QStringLiteral("7.2.0") << QStringLiteral("Keydb 7.2.0");
    QTest::newRow("a name that is no word is not taken")
        << QByteArray("redis_version:7.0.0\r\nserver_name:<b>x</b>\r\n<b>x</b>_version:9\r\n")
        << QStringLiteral("redis") << QStringLiteral("7.0.0") << QStringLiteral("7.0.0")
        << QStringLiteral("Redis 7.0.0");
}

void TestServerInfo::namedAsItNamesItself()
{
    QFETCH(QByteArray, info);
    MasterHealth health;
    ConnectionHandshake::readInfoServer(info, &health);
    QTEST(health.server, "server");
    QTEST(health.version, "version");
    QTEST(health.redisVersion, "redisVersion");
    QTEST(health.displayVersion(), "shown");
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestServerInfo)

} // namespace tst_serverinfo

#include "tst_serverinfo.moc"
