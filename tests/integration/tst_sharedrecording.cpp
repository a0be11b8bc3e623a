// SPDX-License-Identifier: Apache-2.0
// Several recorders, one history (issue #45): two `lockctl record` writing one SQLite file on the
// same master tell each lock's story exactly as one recorder alone tells it (before, an expiry seen
// by both read as "lost" and every event twice), also when the second recorder joins late and
// leaves early. The oracle is a third recorder, alone on a file of its own, watching the same
// master at the same time: nothing of the reconciliation touches its file.
#include "support/lockctlprocess.h"
#include "support/lockctlrun.h"
#include "support/redisservergroup.h"
#include "support/testregistry.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

namespace tst_sharedrecording {

using namespace lockscope;
using namespace lockscope::test;

class TestSharedRecording : public QObject
{
    Q_OBJECT

private slots:
    void twoRecordersTellTheStoryOneRecorderTells();

private:
    bool startRecorder(LockctlProcess& recorder, const QString& db);
    static QJsonObject history(const QString& db, const QString& resource);
    // What must agree: per episode its token, end, extensions and reach; per event its kind and
    // token; the times within `slackMs` (two recorders read a change a few ms apart).
    static void compareStories(const QJsonObject& alone, const QJsonObject& shared, qint64 slackMs);

    RedisServerGroup m_group;
    QTemporaryDir m_dir;
};

bool TestSharedRecording::startRecorder(LockctlProcess& recorder, const QString& db)
{
    if (!recorder.start(m_group.lockctlArgs() + QStringList{QStringLiteral("record"), QStringLiteral("--db"),
                                                            db, QStringLiteral("--pattern"),
                                                            QStringLiteral("lock:*")}))
        return false;
    if (recorder.waitForOutput("recording 1 master(s)"))
        return true;
    qWarning("%s", qPrintable(recorder.describe()));
    return false;
}

QJsonObject TestSharedRecording::history(const QString& db, const QString& resource)
{
    const LockctlRun run = runLockctl(
        {QStringLiteral("--json"), QStringLiteral("history"), resource, QStringLiteral("--db"), db});
    if (run.code != 0)
        qWarning("%s", qPrintable(run.describe()));
    return QJsonDocument::fromJson(run.out).object();
}

void TestSharedRecording::compareStories(const QJsonObject& alone, const QJsonObject& shared, qint64 slackMs)
{
    const auto ms = [](const QJsonValue& v) {
        return QDateTime::fromString(v.toString(), Qt::ISODateWithMs).toMSecsSinceEpoch();
    };
    const QJsonArray a = alone[QStringLiteral("episodes")].toArray();
    const QJsonArray s = shared[QStringLiteral("episodes")].toArray();
    QCOMPARE(s.size(), a.size());
    for (qsizetype i = 0; i < a.size(); ++i) {
        const QJsonObject x = a.at(i).toObject();
        const QJsonObject y = s.at(i).toObject();
        for (const char* field : {"token", "ended", "extensions", "maxHolding", "owner"})
            QCOMPARE(y[QLatin1String(field)], x[QLatin1String(field)]);
        QVERIFY2(qAbs(ms(y[QStringLiteral("start")]) - ms(x[QStringLiteral("start")])) <= slackMs,
                 qPrintable(QJsonDocument(y).toJson()));
        if (!x[QStringLiteral("end")].isNull())
            QVERIFY2(qAbs(ms(y[QStringLiteral("end")]) - ms(x[QStringLiteral("end")])) <= slackMs,
                     qPrintable(QJsonDocument(y).toJson()));
    }
    const QJsonArray ea = alone[QStringLiteral("events")].toArray();
    const QJsonArray es = shared[QStringLiteral("events")].toArray();
    QStringList kindsAlone;
    QStringList kindsShared;
    for (const QJsonValue& e : ea)
        kindsAlone << e[QStringLiteral("event")].toString() + QLatin1Char(' ') +
                          e[QStringLiteral("token")].toString();
    for (const QJsonValue& e : es)
        kindsShared << e[QStringLiteral("event")].toString() + QLatin1Char(' ') +
                           e[QStringLiteral("token")].toString();
    QCOMPARE(kindsShared, kindsAlone);
}

void TestSharedRecording::twoRecordersTellTheStoryOneRecorderTells()
{
    RedisServerOptions options;
    options.notifications = true;
    QVERIFY2(m_group.start(1, options), qPrintable(m_group.errorString()));
    RedisServer& redis = m_group.at(0);
    const QString alone = m_dir.filePath(QStringLiteral("alone.sqlite"));
    const QString shared = m_dir.filePath(QStringLiteral("shared.sqlite"));
    LockctlProcess oracle;
    LockctlProcess first;
    LockctlProcess second;
    QVERIFY(startRecorder(oracle, alone));
    QVERIFY(startRecorder(first, shared));
    const qint64 firstPid = first.pid();
    const auto pause = [] { QTest::qWait(300); };
    const auto lockctl = [&](const QStringList& args) { return runLockctl(m_group.lockctlArgs() + args); };

    // Taken, extended twice, released: the first recorder alone on the shared file.
    const LockctlRun taken = lockctl({QStringLiteral("acquire"), QStringLiteral("lock:released"),
                                      QStringLiteral("--ttl"), QStringLiteral("20000")});
    QVERIFY2(taken.code == 0, qPrintable(taken.describe()));
    const QString token = QString::fromUtf8(taken.out.split('\n').first().trimmed());
    for (int i = 0; i < 2; ++i) {
        pause();
        QCOMPARE(lockctl({QStringLiteral("extend"), QStringLiteral("lock:released"),
                          QStringLiteral("--token"), token, QStringLiteral("--ttl"), QStringLiteral("20000")})
                     .code,
                 0);
    }
    pause();
    QCOMPARE(lockctl({QStringLiteral("release"), QStringLiteral("lock:released"), QStringLiteral("--token"),
                      token})
                 .code,
             0);
    // Held before the second recorder comes, let go while both watch.
    redis.command({"SET", "lock:before", "tok-before", "PX", "60000"});
    pause();

    QVERIFY(startRecorder(second, shared));
    pause();
    redis.command({"DEL", "lock:before"});
    // Expired, force-released, replaced: both recorders watch.
    redis.command({"SET", "lock:expired", "tok-exp", "PX", "700"});
    redis.command({"SET", "lock:forced", "tok-stuck"});
    pause();
    const LockctlRun forced =
        lockctl({QStringLiteral("force-release"), QStringLiteral("lock:forced"),
                 QStringLiteral("--expect-token"), QStringLiteral("tok-stuck"), QStringLiteral("--yes")});
    QVERIFY2(forced.code == 0, qPrintable(forced.describe()));
    redis.command({"SET", "lock:replaced", "tok-a", "PX", "60000"});
    pause();
    redis.command({"SET", "lock:replaced", "tok-b", "PX", "60000"});
    // Held when the second recorder stops; the first one sees it released after.
    redis.command({"SET", "lock:after", "tok-after", "PX", "60000"});
    QTest::qWait(1200); // lock:expired has expired
    QCOMPARE(second.terminate(), 0);
    pause();
    redis.command({"DEL", "lock:after"});
    pause();
    QCOMPARE(first.terminate(), 0);
    QCOMPARE(oracle.terminate(), 0);

    for (const char* resource :
         {"lock:released", "lock:before", "lock:expired", "lock:forced", "lock:replaced", "lock:after"}) {
        const QJsonObject a = history(alone, QString::fromLatin1(resource));
        const QJsonObject s = history(shared, QString::fromLatin1(resource));
        QVERIFY2(!a[QStringLiteral("episodes")].toArray().isEmpty(), resource);
        compareStories(a, s, 250);
        if (QTest::currentTestFailed()) {
            qWarning("%s\nalone: %s\nshared: %s", resource, QJsonDocument(a).toJson().constData(),
                     QJsonDocument(s).toJson().constData());
            return;
        }
    }
    // The endings as the oracle tells them (a sanity check of the oracle itself).
    const auto endOf = [&](const char* resource) {
        return history(alone,
                       QString::fromLatin1(resource))[QStringLiteral("episodes")][0][QStringLiteral("ended")]
            .toString();
    };
    QCOMPARE(endOf("lock:released"), QStringLiteral("released"));
    QCOMPARE(endOf("lock:expired"), QStringLiteral("expired"));
    QCOMPARE(endOf("lock:forced"), QStringLiteral("force-released"));
    QCOMPARE(endOf("lock:replaced"), QStringLiteral("replaced"));
    QCOMPARE(endOf("lock:after"), QStringLiteral("released"));

    // The figures over the whole recording agree too.
    const auto endings = [&](const QString& db) {
        const LockctlRun run =
            runLockctl({QStringLiteral("--json"), QStringLiteral("stats"), QStringLiteral("--db"), db});
        const QJsonObject family = QJsonDocument::fromJson(run.out)[QStringLiteral("families")][0].toObject();
        return family[QStringLiteral("endings")].toObject();
    };
    QCOMPARE(endings(shared), endings(alone));
    QVERIFY(!endings(alone).isEmpty());

    // Each session names its recorder: both of the shared file's while both watched.
    const QJsonArray by =
        history(shared, QStringLiteral("lock:before"))[QStringLiteral("recordedBy")].toArray();
    QCOMPARE(by.size(), 2);
    QVERIFY2(by.at(0).toString().contains(QStringLiteral("/lockctl:%1").arg(firstPid)) ||
                 by.at(1).toString().contains(QStringLiteral("/lockctl:%1").arg(firstPid)),
             qPrintable(QJsonDocument(by).toJson()));
    QCOMPARE(history(alone, QStringLiteral("lock:before"))[QStringLiteral("recordedBy")].toArray().size(), 1);
}

LOCKSCOPE_TEST_MAIN(TestSharedRecording)

} // namespace tst_sharedrecording

#include "tst_sharedrecording.moc"
