// SPDX-License-Identifier: Apache-2.0
// lockctl's read commands against real masters: `list` as JSON and as text with its exit codes,
// `watch` as JSON lines through a master's death and return, and names typed back as list printed
// them. (Streaming a large list: tst_lockctlliststream; the writes: tst_lockctlwrite.)
#include "support/lockctlrun.h"
#include "support/redisservergroup.h"
#include "support/serverflavour.h"
#include "support/testregistry.h"
#include "support/watchevents.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTemporaryFile>
#include <QTest>

#include <csignal>

namespace tst_lockctlbasics {

using namespace lockscope;
using namespace lockscope::test;

class TestLockctlBasics : public QObject
{
    Q_OBJECT

private slots:
    void lockctlListJson();
    void lockctlListTextAndExitCodes();
    void lockctlWatchStreamsJsonLines();
    void lockctlWritesTakeNamesAsListPrintsThem();
};

void TestLockctlBasics::lockctlListJson()
{
    RedisServerOptions o;
    o.password = distinctTestPassword(QStringLiteral("Sekrit-Pw-123"));
    RedisServerGroup group;
    QVERIFY2(group.start(3, o), qPrintable(group.errorString()));
    for (int i = 0; i < 2; ++i)
        group.at(i).command({"SET", "lock:json", "tok", "PX", "60000"});
    group.at(0).command({"SET", QByteArray("lock:bin\xff\n", 10), "t", "PX", "60000"});
    QStringList args{QStringLiteral("list"), QStringLiteral("--json")};
    for (const QString& url : group.urls())
        args << QStringLiteral("-m") << url;
    QProcess p;
    p.start(lockctlPath(), args);
    QVERIFY(p.waitForFinished(int(lockscope::test::upperBoundMs(10000))));
    QCOMPARE(p.exitCode(), 0);
    const QByteArray out = p.readAllStandardOutput();
    QVERIFY(!out.contains(o.password.toUtf8()));
    QVERIFY(!p.readAllStandardError().contains(o.password.toUtf8()));
    const QJsonObject doc = QJsonDocument::fromJson(out).object();
    QCOMPARE(doc.value(QStringLiteral("masters")).toArray().size(), 3);
    const QJsonObject m0 = doc.value(QStringLiteral("masters")).toArray().at(0).toObject();
    QVERIFY(m0.value(QStringLiteral("up")).toBool());
    QCOMPARE(m0.value(QStringLiteral("notifications")).toString(), QStringLiteral("polling"));
    QCOMPARE(m0.value(QStringLiteral("version")).toString(), serverIdentity().version);
    QCOMPARE(m0.value(QStringLiteral("server")).toString(), serverIdentity().name);
    const QJsonArray locks = doc.value(QStringLiteral("locks")).toArray();
    QCOMPARE(locks.size(), 2);
    const QJsonObject bin = locks.at(0).toObject();
    QCOMPARE(bin.value(QStringLiteral("resource")).toString(), QStringLiteral("lock:bin\\xff\\x0a"));
    const QJsonObject lock = locks.at(1).toObject();
    QCOMPARE(lock.value(QStringLiteral("resource")).toString(), QStringLiteral("lock:json"));
    QCOMPARE(lock.value(QStringLiteral("status")).toString(), QStringLiteral("held"));
    QCOMPARE(lock.value(QStringLiteral("token")).toString(), QStringLiteral("tok"));
    const QJsonObject quorum = lock.value(QStringLiteral("quorum")).toObject();
    QCOMPARE(quorum.value(QStringLiteral("holding")).toInt(), 2);
    QCOMPARE(quorum.value(QStringLiteral("needed")).toInt(), 2);
    QCOMPARE(quorum.value(QStringLiteral("total")).toInt(), 3);
    QVERIFY(lock.value(QStringLiteral("validityMs")).toInteger() > 50000);
    QCOMPARE(lock.value(QStringLiteral("holders")).toArray().size(), 2);
    const QJsonArray obs = lock.value(QStringLiteral("observations")).toArray();
    QCOMPARE(obs.size(), 3);
    QVERIFY(obs.at(0).toObject().value(QStringLiteral("present")).toBool());
    QVERIFY(!obs.at(2).toObject().value(QStringLiteral("present")).toBool());
    QCOMPARE(obs.at(0).toObject().value(QStringLiteral("type")).toString(), QStringLiteral("string"));
}

void TestLockctlBasics::lockctlListTextAndExitCodes()
{
    RedisServerGroup group;
    QVERIFY2(group.start(3), qPrintable(group.errorString()));
    group.at(0).command({"SET", "lock:text", "tok", "PX", "60000"});
    // The fixture password from the environment, the URLs without it.
    auto run = [](const QStringList& args, QByteArray* out = nullptr, QByteArray* err = nullptr) {
        QProcess p;
        p.setProcessEnvironment(testPasswordEnvironment());
        p.start(lockctlPath(), testPasswordArgs() + args);
        p.waitForFinished(int(lockscope::test::upperBoundMs(15000)));
        if (out)
            *out = p.readAllStandardOutput();
        if (err)
            *err = p.readAllStandardError();
        return p.exitCode();
    };
    QByteArray out, err;
    QCOMPARE(run({QStringLiteral("list"), QStringLiteral("-m"), group.at(0).url(false),
                  QStringLiteral("--pattern"), QStringLiteral("lock:*")},
                 &out),
             0);
    QVERIFY(out.contains("RESOURCE"));
    QVERIFY(out.contains("lock:text"));
    QVERIFY(out.contains("held"));

    // Two of three masters gone: the list still prints, the exit code says the quorum is not reachable.
    group.at(1).kill();
    group.at(2).kill();
    QStringList all{QStringLiteral("list"), QStringLiteral("--timeout-ms"), QStringLiteral("300")};
    for (int i = 0; i < 3; ++i)
        all << QStringLiteral("-m") << group.at(i).url(false);
    QElapsedTimer clock;
    clock.start();
    QCOMPARE(run(all, &out, &err), 3);
    QVERIFY(clock.elapsed() < upperBoundMs(2000)); // not the connections' default timeouts
    QVERIFY(out.contains("lock:text"));
    QVERIFY(err.contains("refused") || err.contains("Connection refused"));

    // Usage errors: exit 2 with a message that says what is wrong.
    QCOMPARE(run({QStringLiteral("list")}, nullptr, &err), 2);
    QVERIFY(err.contains("no masters"));
    QCOMPARE(
        run({QStringLiteral("list"), QStringLiteral("-m"), QStringLiteral("redis://h:99999")}, nullptr, &err),
        2);
    QVERIFY(err.contains("bad port"));
    QCOMPARE(run({QStringLiteral("frobnicate")}, nullptr, &err), 2);
    QTemporaryFile bad;
    QVERIFY(bad.open());
    bad.write("{\n  \"masters\": [\n    \"redis://h\",\n  ]\n}\n");
    bad.flush();
    QCOMPARE(run({QStringLiteral("list"), QStringLiteral("--config"), bad.fileName()}, nullptr, &err), 2);
    QVERIFY2(err.contains(":line 4:"), err.constData());
}

void TestLockctlBasics::lockctlWatchStreamsJsonLines()
{
    RedisServerOptions o;
    o.notifications = true;
    RedisServerGroup group;
    QVERIFY2(group.start(3, o), qPrintable(group.errorString()));
    QStringList args{QStringLiteral("watch"), QStringLiteral("--json"), QStringLiteral("--timeout-ms"),
                     QStringLiteral("300")};
    args << group.lockctlArgs();
    QProcess watch;
    watch.setProcessEnvironment(testPasswordEnvironment());
    watch.start(lockctlPath(), args);
    QVERIFY(watch.waitForStarted());
    WatchEvents events(watch);
    auto seen = [&](const QString& event, const QString& key, const QString& value) {
        return !events.find(event, key, value).isEmpty();
    };
    QTRY_VERIFY_WITH_TIMEOUT(seen(QStringLiteral("master"), QStringLiteral("state"), QStringLiteral("up")),
                             5000);
    QTRY_VERIFY_WITH_TIMEOUT(
        seen(QStringLiteral("master"), QStringLiteral("state"), QStringLiteral("mode live")), 5000);
    for (int i = 0; i < 3; ++i)
        group.at(i).command({"SET", "lock:watched", "t1", "PX", "60000"});
    QTRY_VERIFY_WITH_TIMEOUT(
        seen(QStringLiteral("added"), QStringLiteral("resource"), QStringLiteral("lock:watched")), 5000);
    group.at(2).command({"SET", "lock:watched", "t2", "PX", "60000"});
    QTRY_VERIFY_WITH_TIMEOUT(
        seen(QStringLiteral("changed"), QStringLiteral("status"), QStringLiteral("contested")), 5000);
    group.at(1).kill();
    QTRY_VERIFY_WITH_TIMEOUT(seen(QStringLiteral("master"), QStringLiteral("state"), QStringLiteral("down")),
                             5000);
    for (int i : {0, 2})
        group.at(i).command({"DEL", "lock:watched"});
    // The killed master still held it when it went: with it unreachable, the lock cannot be called gone.
    QTRY_VERIFY_WITH_TIMEOUT(
        seen(QStringLiteral("changed"), QStringLiteral("status"), QStringLiteral("unknown")), 5000);
    QVERIFY(group.at(1).restart());
    QTRY_VERIFY_WITH_TIMEOUT(
        seen(QStringLiteral("removed"), QStringLiteral("resource"), QStringLiteral("lock:watched")), 8000);
    for (const QJsonObject& e : events.all())
        QVERIFY(e.contains(QStringLiteral("time")));
    ::kill(pid_t(watch.processId()), SIGINT);
    QVERIFY(watch.waitForFinished(int(lockscope::test::upperBoundMs(5000))));
    QCOMPARE(watch.exitStatus(), QProcess::NormalExit);
    QCOMPARE(watch.exitCode(), 0);
}

void TestLockctlBasics::lockctlWritesTakeNamesAsListPrintsThem()
{
    RedisServerGroup group;
    QVERIFY2(group.start(1), qPrintable(group.errorString()));
    const QByteArray key("lock:bin\xff\n\\x", 12);
    const QByteArray token("holder\\7"); // a backslash, printed doubled
    group.at(0).command({"SET", key, token, "PX", "60000"});
    QTemporaryDir dir;
    auto run = [&](const QStringList& args, QByteArray* out) {
        QProcess p;
        p.setProcessEnvironment(testPasswordEnvironment());
        p.start(lockctlPath(),
                args + testPasswordArgs() +
                    QStringList{QStringLiteral("-m"), group.at(0).url(false), QStringLiteral("--audit-log"),
                                dir.filePath(QStringLiteral("audit.jsonl"))});
        p.waitForFinished(int(lockscope::test::upperBoundMs(10000)));
        *out = p.readAllStandardOutput() + p.readAllStandardError();
        return p.exitCode();
    };
    QByteArray out;
    QCOMPARE(run({QStringLiteral("list"), QStringLiteral("--json")}, &out), 0);
    const QJsonObject lock =
        QJsonDocument::fromJson(out).object().value(QStringLiteral("locks")).toArray().at(0).toObject();
    const QString shownKey = lock.value(QStringLiteral("resource")).toString();
    const QString shownToken = lock.value(QStringLiteral("token")).toString();
    QCOMPARE(shownKey, QStringLiteral("lock:bin\\xff\\x0a\\\\x"));
    // What list printed, typed back, names the very same key and token.
    QCOMPARE(run({QStringLiteral("force-release"), shownKey, QStringLiteral("--expect-token"), shownToken,
                  QStringLiteral("--yes")},
                 &out),
             0);
    QVERIFY(group.at(0).command({"EXISTS", key}).integer == 0);
    QCOMPARE(run({QStringLiteral("release"), QStringLiteral("bad\\q"), QStringLiteral("--token"),
                  QStringLiteral("t")},
                 &out),
             2);
    QVERIFY(out.contains("RESOURCE"));
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestLockctlBasics)

} // namespace tst_lockctlbasics

#include "tst_lockctlbasics.moc"
