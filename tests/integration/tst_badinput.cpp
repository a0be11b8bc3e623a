// SPDX-License-Identifier: Apache-2.0
// Bad input end to end, against real masters: lockctl given broken configurations, URLs, TTLs and
// awkward resource names, and the monitor given huge values and hashes. Each gets a clear message
// (exit 2 naming the problem) or a correct result, and nothing is written that was not asked for:
// every master's DEBUG DIGEST is the same before and after each row, and the audit log holds
// exactly the writes the row asked for.
#include "discovery/keyreader.h"
#include "monitor/lockmonitor.h"
#include "support/lockctlrun.h"
#include "support/monitorrun.h"
#include "support/redisservergroup.h"
#include "support/testregistry.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

namespace tst_badinput {

using namespace lockscope;
using namespace lockscope::test;

namespace {

qint64 residentKb()
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray& line : status.readAll().split('\n'))
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').value(0).toLongLong();
    return -1;
}

} // namespace

class TestBadInput : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();
    void refusedWithAClearMessage_data();
    void refusedWithAClearMessage();
    void awkwardNamesRoundTrip_data();
    void awkwardNamesRoundTrip();
    void megabyteNameIsListed();
    void hugeValueAndHashAreReadCapped();
    void unknownConfigFieldsWarnButWork();
    void crowdedMasterIsReportedNotWaitedFor();

private:
    QByteArrayList digests();
    QStringList masterArgs() const;
    QList<QByteArray> auditLines() const;

    RedisServerGroup m_group;
    QTemporaryDir m_dir;
    QByteArrayList m_before;
};

void TestBadInput::initTestCase()
{
    QVERIFY2(m_group.start(3), qPrintable(m_group.errorString()));
    for (int i = 0; i < 3; ++i) {
        m_group.at(i).command({"SET", "lock:existing", "tok-e", "PX", "600000"});
        m_group.at(i).command({"HSET", "lock:redisson", "0d6c:1", "1"});
    }
}

QByteArrayList TestBadInput::digests()
{
    QByteArrayList all;
    for (int i = 0; i < m_group.size(); ++i) {
        RedisServer& s = m_group.at(i);
        const QByteArray size = QByteArray::number(s.command({"DBSIZE"}).integer);
        if (s.command({"EXISTS", "lock:huge", "lock:wide"}).integer == 0) {
            all << s.command({"DEBUG", "DIGEST"}).string + ' ' + size;
            continue;
        }
        // A digest of 100 MB and a million fields takes the server seconds: the small keys' digests and
        // the big keys' sizes say the same here.
        QByteArray print = size;
        for (const QByteArray& key : {QByteArray("lock:existing"), QByteArray("lock:redisson")})
            print += ' ' + s.command({"DEBUG", "DIGEST-VALUE", key}).elements.value(0).string;
        print += ' ' + QByteArray::number(s.command({"STRLEN", "lock:huge"}).integer);
        print += ' ' + QByteArray::number(s.command({"HLEN", "lock:wide"}).integer);
        all << print;
    }
    return all;
}

QStringList TestBadInput::masterArgs() const
{
    // The fixture password from the environment runLockctl gives lockctl, not from the arguments.
    QStringList args = testPasswordArgs();
    for (int i = 0; i < m_group.size(); ++i)
        args << QStringLiteral("-m") << const_cast<RedisServerGroup&>(m_group).at(i).url(false);
    return args << QStringLiteral("--audit-log") << m_dir.filePath(QStringLiteral("audit.jsonl"));
}

QList<QByteArray> TestBadInput::auditLines() const
{
    QFile file(m_dir.filePath(QStringLiteral("audit.jsonl")));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    const QByteArray all = file.readAll().trimmed();
    return all.isEmpty() ? QList<QByteArray>() : all.split('\n');
}

void TestBadInput::init()
{
    QFile::remove(m_dir.filePath(QStringLiteral("audit.jsonl")));
    m_before = digests();
}

void TestBadInput::cleanup()
{
    // Whatever the row did, the masters hold exactly what they held before it.
    QCOMPARE(digests(), m_before);
}

void TestBadInput::refusedWithAClearMessage_data()
{
    QTest::addColumn<QStringList>("args");      // after the masters; "@CONFIG" is replaced by a file ...
    QTest::addColumn<QByteArray>("configText"); // ... with this text
    QTest::addColumn<bool>("withMasters");
    QTest::addColumn<QString>("messagePart");

    const auto acquire = [](const QString& ttl) {
        return QStringList{QStringLiteral("acquire"), QStringLiteral("lock:bad"), QStringLiteral("--ttl"),
                           ttl};
    };
    for (const QString& ttl :
         {QStringLiteral("0"), QStringLiteral("-1"), QStringLiteral("-2147483648"), QStringLiteral("abc"),
          QStringLiteral("1.5"), QStringLiteral("1e3"), QStringLiteral("2147483648"),
          QStringLiteral("4294967296"), QStringLiteral("99999999999999999999"), QStringLiteral(""),
          QStringLiteral(" 10"), QStringLiteral("0x10")})
        QTest::newRow(qPrintable(QStringLiteral("ttl '%1'").arg(ttl)))
            << acquire(ttl) << QByteArray() << true << QStringLiteral("ttl");
    QTest::newRow("extend ttl 0") << QStringList{QStringLiteral("extend"),  QStringLiteral("lock:existing"),
                                                 QStringLiteral("--token"), QStringLiteral("tok-e"),
                                                 QStringLiteral("--ttl"),   QStringLiteral("0")}
                                  << QByteArray() << true << QStringLiteral("ttl");
    QTest::newRow("hold ttl 2^31") << QStringList{QStringLiteral("hold"),  QStringLiteral("lock:bad"),
                                                  QStringLiteral("--ttl"), QStringLiteral("2147483648"),
                                                  QStringLiteral("--"),    QStringLiteral("true")}
                                   << QByteArray() << true << QStringLiteral("ttl");

    const auto withUrl = [](const QString& url) {
        return QStringList{QStringLiteral("-m"),      url,
                           QStringLiteral("acquire"), QStringLiteral("lock:bad"),
                           QStringLiteral("--ttl"),   QStringLiteral("1000")};
    };
    QTest::newRow("url port 0") << withUrl(QStringLiteral("redis://127.0.0.1:0")) << QByteArray() << false
                                << QStringLiteral("port");
    QTest::newRow("url port 65536") << withUrl(QStringLiteral("redis://127.0.0.1:65536")) << QByteArray()
                                    << false << QStringLiteral("port");
    QTest::newRow("url port text") << withUrl(QStringLiteral("redis://127.0.0.1:http")) << QByteArray()
                                   << false << QStringLiteral("port");
    QTest::newRow("url scheme http") << withUrl(QStringLiteral("http://127.0.0.1:6379")) << QByteArray()
                                     << false << QStringLiteral("scheme");
    QTest::newRow("url no scheme") << withUrl(QStringLiteral("127.0.0.1:6379")) << QByteArray() << false
                                   << QStringLiteral("scheme");
    QTest::newRow("url host with space") << withUrl(QStringLiteral("redis://bad host:6379")) << QByteArray()
                                         << false << QStringLiteral("host");
    QTest::newRow("url empty host") << withUrl(QStringLiteral("redis://:6379")) << QByteArray() << false
                                    << QStringLiteral("host");
    QTest::newRow("url open bracket") << withUrl(QStringLiteral("redis://[::1:6379")) << QByteArray() << false
                                      << QStringLiteral("invalid URL");
    QTest::newRow("url db text") << withUrl(QStringLiteral("redis://127.0.0.1:6379/x")) << QByteArray()
                                 << false << QStringLiteral("db");
    // Sentinel groups (#8): the same rules, and the password is never quoted back (tst_sentinelmonitor).
    QTest::newRow("sentinel no master name")
        << withUrl(QStringLiteral("redis-sentinel://ops:pw@127.0.0.1:26379")) << QByteArray() << false
        << QStringLiteral("master name");
    QTest::newRow("sentinel empty host entry")
        << withUrl(QStringLiteral("redis-sentinel://127.0.0.1:26379,,127.0.0.1:26380/mymaster"))
        << QByteArray() << false << QStringLiteral("host list");
    QTest::newRow("sentinel port 65536")
        << withUrl(QStringLiteral("redis-sentinel://127.0.0.1:65536/mymaster")) << QByteArray() << false
        << QStringLiteral("port");
    QTest::newRow("cluster with a db") << withUrl(QStringLiteral("redis-cluster://ops:pw@127.0.0.1:7000/2"))
                                       << QByteArray() << false << QStringLiteral("database 0");

    const QStringList withConfig{QStringLiteral("--config"), QStringLiteral("@CONFIG"),
                                 QStringLiteral("acquire"),  QStringLiteral("lock:bad"),
                                 QStringLiteral("--ttl"),    QStringLiteral("1000")};
    QTest::newRow("config syntax, line 3")
        << withConfig << QByteArray("{\n\"masters\": [\"redis://h\"\n,,]\n}") << false
        << QStringLiteral("line 3");
    QTest::newRow("config truncated")
        << withConfig << QByteArray("{\"masters\": [") << false << QStringLiteral("line 1");
    QTest::newRow("config not an object")
        << withConfig << QByteArray("[\"redis://h\"]") << false << QStringLiteral("JSON object");
    QTest::newRow("config timeout string")
        << withConfig << QByteArray(R"({"masters": ["redis://h"], "timeoutMs": "2s"})") << false
        << QStringLiteral("timeoutMs");
    QTest::newRow("config readOnly string")
        << withConfig << QByteArray(R"({"masters": ["redis://h"], "readOnly": "no"})") << false
        << QStringLiteral("readOnly");
    QTest::newRow("config number beyond 2^63") // found by fuzz_configloader: was undefined behaviour
        << withConfig << QByteArray(R"({"masters": ["redis://h"], "maxFields": 8.9e35})") << false
        << QStringLiteral("maxFields");
    QTest::newRow("config master bad port") << withConfig << QByteArray(R"({"masters": ["redis://h:99999"]})")
                                            << false << QStringLiteral("masters[0]");
    QTest::newRow("config sentinel without name")
        << withConfig << QByteArray(R"({"masters": [{"url": "redis-sentinel://h:26379", "timeoutMs": 300}]})")
        << false << QStringLiteral("masters[0]");
    QTest::newRow("config tls.ca number")
        << withConfig << QByteArray(R"({"masters": [{"url": "rediss://h", "tls": {"ca": 5}}]})") << false
        << QStringLiteral("masters[0].tls.ca");
    QTest::newRow("config not UTF-8") << withConfig << QByteArray("{\"masters\": [\"redis://\xff\xfe\"]}")
                                      << false << QStringLiteral("line 1");
    QTest::newRow("config empty file") << withConfig << QByteArray() << false << QStringLiteral("line 1");
    QTest::newRow("resource bad escape")
        << QStringList{QStringLiteral("acquire"), QStringLiteral("lock:\\xZZ"), QStringLiteral("--ttl"),
                       QStringLiteral("1000")}
        << QByteArray() << true << QStringLiteral("RESOURCE");
    QTest::newRow("resource empty") << QStringList{QStringLiteral("acquire"), QString(),
                                                   QStringLiteral("--ttl"), QStringLiteral("1000")}
                                    << QByteArray() << true << QStringLiteral("RESOURCE");
}

void TestBadInput::refusedWithAClearMessage()
{
    QFETCH(QStringList, args);
    QFETCH(QByteArray, configText);
    QFETCH(bool, withMasters);
    QFETCH(QString, messagePart);
    const QString configPath = m_dir.filePath(QStringLiteral("config.json"));
    QFile config(configPath);
    QVERIFY(config.open(QIODevice::WriteOnly | QIODevice::Truncate));
    config.write(configText);
    config.close();
    args.replaceInStrings(QStringLiteral("@CONFIG"), configPath);
    const QStringList audit{QStringLiteral("--audit-log"), m_dir.filePath(QStringLiteral("audit.jsonl"))};
    const LockctlRun r = runLockctl((withMasters ? masterArgs() : audit) + args);
    QVERIFY2(r.code == 2, qPrintable(r.describe()));
    QVERIFY2(QString::fromUtf8(r.err).contains(messagePart, Qt::CaseInsensitive), qPrintable(r.describe()));
    QVERIFY2(r.out.isEmpty(), qPrintable(r.describe()));
    QVERIFY2(r.ms < 10000, qPrintable(r.describe()));
    QCOMPARE(auditLines().size(), 0); // nothing was attempted, so nothing is audited
}

void TestBadInput::awkwardNamesRoundTrip_data()
{
    QTest::addColumn<QString>("typed");  // as given to lockctl
    QTest::addColumn<QByteArray>("key"); // the key it must become
    QTest::newRow("spaces") << QStringLiteral("lock:with  spaces ") << QByteArray("lock:with  spaces ");
    QTest::newRow("newline, escaped")
        << QStringLiteral("lock:two\\x0alines") << QByteArray("lock:two\nlines");
    QTest::newRow("non-UTF-8 bytes") << QStringLiteral("lock:\\xff\\xfe\\x00end")
                                     << QByteArray("lock:\xff\xfe\0end", 11);
    QTest::newRow("backslash") << QStringLiteral("lock:back\\\\slash") << QByteArray("lock:back\\slash");
    QTest::newRow("unicode") << QStringLiteral("lock:zähler-锁") << QStringLiteral("lock:zähler-锁").toUtf8();
    QTest::newRow("100 kB") << QStringLiteral("lock:") + QString(100 * 1024, QLatin1Char('n'))
                            << "lock:" + QByteArray(100 * 1024, 'n');
}

void TestBadInput::awkwardNamesRoundTrip()
{
    QFETCH(QString, typed);
    QFETCH(QByteArray, key);
    const LockctlRun acquired =
        runLockctl(masterArgs() + QStringList{QStringLiteral("acquire"), typed, QStringLiteral("--ttl"),
                                              QStringLiteral("60000")});
    QVERIFY2(acquired.code == 0, qPrintable(acquired.describe()));
    const QString token = QString::fromUtf8(acquired.out.split('\n').value(0)).trimmed();
    for (int i = 0; i < 3; ++i)
        QCOMPARE(m_group.at(i).command({"EXISTS", key}).integer, 1); // exactly this key, byte for byte

    // list shows it in the form that can be typed back.
    const LockctlRun listed =
        runLockctl(masterArgs() + QStringList{QStringLiteral("--json"), QStringLiteral("list"),
                                              QStringLiteral("--pattern"), QStringLiteral("lock:*")});
    QVERIFY2(listed.code == 0, qPrintable(listed.describe()));
    bool shown = false;
    for (const QJsonValue& v :
         QJsonDocument::fromJson(listed.out).object().value(QStringLiteral("locks")).toArray())
        shown |= v.toObject().value(QStringLiteral("resource")).toString() == typed;
    QVERIFY2(shown, qPrintable(listed.describe()));

    const LockctlRun released = runLockctl(
        masterArgs() + QStringList{QStringLiteral("release"), typed, QStringLiteral("--token"), token});
    QVERIFY2(released.code == 0, qPrintable(released.describe()));
    QCOMPARE(auditLines().size(), 2); // the acquire and the release, nothing else
}

void TestBadInput::megabyteNameIsListed()
{
    // 1 MB cannot be passed as an argument (the kernel caps one at 128 kB), but such a key can exist.
    const QByteArray key = "lock:" + QByteArray(1024 * 1024, 'm');
    for (int i = 0; i < 3; ++i)
        m_group.at(i).command({"SET", key, "tok-m", "PX", "600000"});
    m_before = digests();
    const LockctlRun listed =
        runLockctl(masterArgs() + QStringList{QStringLiteral("--json"), QStringLiteral("list")});
    QVERIFY2(listed.code == 0, qPrintable(listed.describe()));
    QVERIFY2(listed.ms < 20000, qPrintable(listed.describe()));
    bool found = false;
    for (const QJsonValue& v :
         QJsonDocument::fromJson(listed.out).object().value(QStringLiteral("locks")).toArray())
        if (v.toObject().value(QStringLiteral("resource")).toString().toUtf8() == key) {
            found = true;
            QCOMPARE(v.toObject().value(QStringLiteral("status")).toString(), QStringLiteral("held"));
        }
    QVERIFY(found);
    for (int i = 0; i < 3; ++i)
        m_group.at(i).command({"DEL", key});
    m_before = digests();
}

void TestBadInput::crowdedMasterIsReportedNotWaitedFor()
{
    // A server at maxclients takes one of lockctl's connections and refuses the next: the scan has a
    // connection of its own, so the master can be up while its scan cannot start. lockctl must
    // neither wait for that pass nor show the master as holding nothing.
    RedisServer crowded;
    QVERIFY2(crowded.start(), qPrintable(crowded.errorString()));
    QCOMPARE(crowded.command({"SET", "lock:existing", "tok-e", "PX", "600000"}).string, QByteArray("OK"));
    // Set once started: the fixture's start-up probe needs two connections at once.
    QCOMPARE(crowded.command({"CONFIG", "SET", "maxclients", "1"}).string, QByteArray("OK"));
    const LockctlRun listed =
        runLockctl(masterArgs() + QStringList{QStringLiteral("-m"), crowded.url(false),
                                              QStringLiteral("--json"), QStringLiteral("list")});
    QVERIFY2(listed.code == 0, qPrintable(listed.describe()));
    QVERIFY2(listed.ms < 20000, qPrintable(listed.describe()));
    const QJsonObject doc = QJsonDocument::fromJson(listed.out).object();
    const QJsonObject master = doc.value(QStringLiteral("masters")).toArray().at(3).toObject();
    QVERIFY2(!master.value(QStringLiteral("up")).toBool(), qPrintable(listed.describe()));
    // The server answers the extra connection by closing it (after "-ERR max number of clients").
    QVERIFY2(master.value(QStringLiteral("error")).toString().startsWith(QStringLiteral("cannot scan: ")),
             qPrintable(listed.describe()));
    bool found = false;
    for (const QJsonValue& v : doc.value(QStringLiteral("locks")).toArray()) {
        const QJsonObject lock = v.toObject();
        if (lock.value(QStringLiteral("resource")).toString() != QStringLiteral("lock:existing"))
            continue;
        found = true;
        // Held by the three that answered; the crowded one is unreadable, not empty.
        QCOMPARE(lock.value(QStringLiteral("status")).toString(), QStringLiteral("held"));
        const QJsonObject quorum = lock.value(QStringLiteral("quorum")).toObject();
        QCOMPARE(quorum.value(QStringLiteral("holding")).toInt(), 3);
        QCOMPARE(quorum.value(QStringLiteral("total")).toInt(), 4);
        const QJsonObject fourth = lock.value(QStringLiteral("observations")).toArray().at(3).toObject();
        QVERIFY2(fourth.contains(QStringLiteral("error")), qPrintable(listed.describe()));
    }
    QVERIFY2(found, qPrintable(listed.describe()));
}

void TestBadInput::hugeValueAndHashAreReadCapped()
{
    // A 100 MB string and a hash with a million fields, under lock-like names.
    m_group.at(0).command({"SETRANGE", "lock:huge", QByteArray::number(100 * 1024 * 1024 - 1), "x"});
    for (int from = 1; from <= 1000000; from += 100000) // in slices: each call stays well within a timeout
        m_group.at(0).command({"EVAL",
                               "local n = tonumber(ARGV[1]) for i = n, n + 99999, 1000 do local a = {} "
                               "for j = i, i + 999 do a[#a + 1] = 'f' .. j; a[#a + 1] = j end "
                               "redis.call('HSET', KEYS[1], unpack(a)) end",
                               "1", "lock:wide", QByteArray::number(from)});
    QCOMPARE(m_group.at(0).command({"HLEN", "lock:wide"}).integer, 1000000);
    m_before = digests();

    const qint64 rssBefore = residentKb();
    LockScopeConfig config;
    config.masters = m_group.connectionOptions(10000);
    MonitorRun run(config);
    QVERIFY(run.startAndScan(30000));
    LockMonitor& monitor = run.monitor();
    QTRY_VERIFY_WITH_TIMEOUT(monitor.locks().contains("lock:huge") && monitor.locks().contains("lock:wide"),
                             10000);
    const KeyObservation huge = monitor.locks().value("lock:huge")->observations.at(0).key();
    QVERIFY(huge.truncated);
    QCOMPARE(huge.valueSize, qint64(100 * 1024 * 1024));
    QVERIFY(huge.value.size() <= config.monitor.maxValueBytes);
    const KeyObservation wide = monitor.locks().value("lock:wide")->observations.at(0).key();
    QVERIFY(wide.truncated);
    QCOMPARE(wide.elementCount, qint64(1000000));
    QVERIFY(wide.fields.size() <= config.monitor.maxFields);
    const qint64 grownKb = residentKb() - rssBefore;
    // Neither the 100 MB nor the million fields (~30 MB on the wire) came in whole.
    QVERIFY2(grownKb < 40 * 1024, qPrintable(QStringLiteral("RSS grew by %1 kB").arg(grownKb)));
    qInfo("RSS grew by %lld kB while reading a 100 MB value and a 1M-field hash", grownKb);

    const LockctlRun listed =
        runLockctl(masterArgs() + QStringList{QStringLiteral("--json"), QStringLiteral("list")});
    QVERIFY2(listed.code == 0, qPrintable(listed.describe()));
    QVERIFY2(listed.out.size() < 1024 * 1024, qPrintable(QString::number(listed.out.size())));
    // A force-release would not touch what is not a lock.
    const LockctlRun refused =
        runLockctl(masterArgs() + QStringList{QStringLiteral("force-release"), QStringLiteral("lock:huge"),
                                              QStringLiteral("--any-token"), QStringLiteral("--yes")});
    QVERIFY2(refused.code == 4 || refused.code == 1, qPrintable(refused.describe()));
    QCOMPARE(digests(), m_before);
    run.masters().close();
    m_group.at(0).command({"UNLINK", "lock:huge", "lock:wide"}); // freed in the background
    m_before = digests();
}

void TestBadInput::unknownConfigFieldsWarnButWork()
{
    const QString configPath = m_dir.filePath(QStringLiteral("config.json"));
    QFile config(configPath);
    QVERIFY(config.open(QIODevice::WriteOnly | QIODevice::Truncate));
    config.write(
        QStringLiteral("{\"masters\": [\"%1\"], \"pollIntervalMS\": 10, \"tls\": {\"verify\": false}}")
            .arg(m_group.at(0).url())
            .toUtf8());
    config.close();
    const LockctlRun r = runLockctl({QStringLiteral("--config"), configPath, QStringLiteral("list")});
    QVERIFY2(r.code == 0, qPrintable(r.describe()));
    QVERIFY2(r.err.contains("pollIntervalMS"), qPrintable(r.describe()));
    QVERIFY2(r.err.contains("tls.verify"), qPrintable(r.describe()));
    QVERIFY(r.out.contains("lock:existing"));
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestBadInput)

} // namespace tst_badinput

#include "tst_badinput.moc"
