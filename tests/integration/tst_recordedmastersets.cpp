// SPDX-License-Identifier: Apache-2.0
// Issue #41: one recording may hold several sets of masters (a staging and a production profile,
// or the demo's throw-away masters before it kept a file of its own), each with a lock of the same
// name. A story is told from one set's recording only, and says which masters it comes from.
#include "support/lockctlprocess.h"
#include "support/lockctlrun.h"
#include "support/redisservergroup.h"
#include "support/testregistry.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <functional>

namespace tst_recordedmastersets {

using namespace lockscope::test;

namespace {

QStringList masterArgs(const RedisServerGroup& group)
{
    QStringList args = testPasswordArgs();
    for (const QString& url : group.urls(false))
        args << QStringLiteral("-m") << url;
    return args;
}

QJsonArray strings(const QStringList& list)
{
    return QJsonArray::fromStringList(list);
}

QStringList tokens(const QJsonObject& history)
{
    QStringList out;
    for (const QJsonValue& e : history.value(QStringLiteral("episodes")).toArray())
        out << e.toObject().value(QStringLiteral("token")).toString() + QLatin1Char(':') +
                   e.toObject().value(QStringLiteral("ended")).toString();
    return out;
}

} // namespace

class TestRecordedMasterSets : public QObject
{
    Q_OBJECT

private slots:
    void eachSetOfMastersKeepsItsOwnStory();

private:
    // `lockctl [global] record --db DB` over `group` while `act` runs, then stopped.
    static bool recordWhile(const RedisServerGroup& group, const QString& db,
                            const std::function<bool()>& act);
    static QJsonObject history(const QString& db, const QStringList& global = {});
};

bool TestRecordedMasterSets::recordWhile(const RedisServerGroup& group, const QString& db,
                                         const std::function<bool()>& act)
{
    LockctlProcess recorder;
    if (!recorder.start(masterArgs(group) + QStringList{QStringLiteral("record"), QStringLiteral("--db"), db,
                                                        QStringLiteral("--pattern"),
                                                        QStringLiteral("lock:*")}) ||
        !recorder.waitForOutput(
            QStringLiteral("recording %1 master(s) to %2").arg(group.size()).arg(db).toUtf8())) {
        qWarning("%s", qPrintable(recorder.describe()));
        return false;
    }
    const bool acted = act();
    QTest::qWait(1000); // the recorder commits every 400 ms
    return recorder.terminate() == 0 && acted;
}

QJsonObject TestRecordedMasterSets::history(const QString& db, const QStringList& global)
{
    const LockctlRun run =
        runLockctl(global + QStringList{QStringLiteral("--json"), QStringLiteral("history"),
                                        QStringLiteral("lock:migrations"), QStringLiteral("--db"), db});
    if (run.code != 0)
        qWarning("%s", qPrintable(run.describe()));
    return QJsonDocument::fromJson(run.out).object();
}

void TestRecordedMasterSets::eachSetOfMastersKeepsItsOwnStory()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString db = dir.filePath(QStringLiteral("recording.sqlite"));
    RedisServerOptions options;
    options.notifications = true;
    RedisServerGroup staging;
    QVERIFY2(staging.start(1, options), qPrintable(staging.errorString()));
    RedisServerGroup production;
    QVERIFY2(production.start(2, options), qPrintable(production.errorString()));

    // Staging's lock:migrations comes and goes; then production's is taken and still held.
    QVERIFY(recordWhile(staging, db, [&] {
        staging.at(0).command({"SET", "lock:migrations", "tok-staging", "PX", "60000"});
        QTest::qWait(600);
        return !staging.at(0).command({"DEL", "lock:migrations"}).isError();
    }));
    QVERIFY(recordWhile(production, db, [&] {
        for (int i = 0; i < production.size(); ++i)
            production.at(i).command({"SET", "lock:migrations", "tok-production", "PX", "60000"});
        return true;
    }));

    // Without -m: the story of the set that recorded it last, named, and the other set named too.
    const QJsonObject latest = history(db);
    QCOMPARE(tokens(latest), QStringList{QStringLiteral("tok-production:open")});
    QCOMPARE(latest.value(QStringLiteral("masters")).toArray(), strings(production.urls(false)));
    QCOMPARE(latest.value(QStringLiteral("otherMasterSets")).toArray(),
             QJsonArray{strings(staging.urls(false))});
    for (const QJsonValue& e : latest.value(QStringLiteral("events")).toArray())
        QVERIFY2(
            !e.toObject().value(QStringLiteral("master")).toString().contains(staging.urls(false).first()),
            qPrintable(QJsonDocument(e.toObject()).toJson()));

    // -m picks the set: staging's story alone.
    const QJsonObject chosen = history(db, masterArgs(staging));
    QCOMPARE(tokens(chosen), QStringList{QStringLiteral("tok-staging:released")});
    QCOMPARE(chosen.value(QStringLiteral("masters")).toArray(), strings(staging.urls(false)));
    QCOMPARE(chosen.value(QStringLiteral("otherMasterSets")).toArray(),
             QJsonArray{strings(production.urls(false))});

    // The text says it too.
    const LockctlRun text = runLockctl(
        {QStringLiteral("history"), QStringLiteral("lock:migrations"), QStringLiteral("--db"), db});
    QCOMPARE(text.code, 0);
    const QByteArray named = "recorded from: " + production.urls(false).join(QStringLiteral(", ")).toUtf8();
    QVERIFY2(text.out.contains(named), text.out.constData());
    QVERIFY2(text.out.contains("also recorded from other masters"), text.out.constData());
    QVERIFY2(!text.out.contains("tok-staging"), text.out.constData());
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestRecordedMasterSets)

} // namespace tst_recordedmastersets

#include "tst_recordedmastersets.moc"
