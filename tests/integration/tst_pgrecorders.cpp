// SPDX-License-Identifier: Apache-2.0
#include "support/lockctlprocess.h"
#include "support/lockctlrun.h"
#include "support/pgcluster.h"
#include "support/recordedmasters.h"
#include "support/serveprocess.h"
#include "support/teamcluster.h"
#include "support/testregistry.h"
#include "support/timebound.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <tuple>

namespace tst_pgrecorders {

using namespace lockscope;
using namespace lockscope::test;

// Several recorder processes, one team database (issue #45): two `lockctl record` and a `serve
// --record` on the same masters write one PostgreSQL database at once, and the story each lock's
// `history` tells from it is the one a single recorder tells from its own file: each change once,
// every episode with the same holder, ending, extensions and masters.
class TestPgRecorders : public QObject
{
    Q_OBJECT

private slots:
    void threeRecordersTellOneStory();
    void recordersOfTwoSitesKeepTheirStoriesApart();

private:
    const QString m_ownerPassword = distinctTestPassword(QStringLiteral("pg-owner"));
    const QString m_writerPassword = distinctTestPassword(QStringLiteral("pg-writer"));
};

namespace {

// A resource's episodes as `history --json` tells them, without their times (each recorder stamps
// what it saw with its own clock) and with their masters as a set.
QJsonArray episodesOf(const QStringList& read, const QString& resource)
{
    const LockctlRun run =
        runLockctl(QStringList{QStringLiteral("--json"), QStringLiteral("history"), resource} + read, 30000);
    QJsonArray out;
    for (const QJsonValue& v :
         QJsonDocument::fromJson(run.out).object().value(QStringLiteral("episodes")).toArray()) {
        QJsonObject e = v.toObject();
        e.remove(QStringLiteral("start"));
        e.remove(QStringLiteral("end"));
        // The order masters were first seen holding it: milliseconds apart, which each recorder
        // may see in its own order.
        QStringList masters;
        for (const QJsonValue& m : e.value(QStringLiteral("masters")).toArray())
            masters << m.toString();
        masters.sort();
        e.insert(QStringLiteral("masters"), QJsonArray::fromStringList(masters));
        out.append(e);
    }
    if (run.code != 0)
        qWarning("%s", qPrintable(run.describe()));
    return out;
}

} // namespace

void TestPgRecorders::threeRecordersTellOneStory()
{
    PgCluster pg;
    QVERIFY(startTeamCluster(pg, m_ownerPassword, m_writerPassword));
    RecordedMasters masters;
    QVERIFY2(masters.start(3), qPrintable(masters.errorString()));
    // Children inherit it: the password by name, never on a command line.
    qputenv("LOCKSCOPE_TEST_TEAM_PW", m_writerPassword.toUtf8());
    const auto unset = qScopeGuard([] { qunsetenv("LOCKSCOPE_TEST_TEAM_PW"); });
    const QStringList team{QStringLiteral("--db"), pg.url(QStringLiteral("lockscope_writer")),
                           QStringLiteral("--team-db-password-env"),
                           QStringLiteral("LOCKSCOPE_TEST_TEAM_PW")};
    const QString auditLog = masters.dir.filePath(QStringLiteral("audit.jsonl"));
    const QStringList audit{QStringLiteral("--audit-log"), auditLog};
    LockctlProcess single; // the reference: one recorder, its own file
    QVERIFY(masters.startRecorder(single, audit));
    LockctlProcess first;
    LockctlProcess second;
    for (LockctlProcess* recorder : {&first, &second}) {
        QVERIFY(recorder->start(masters.group.lockctlArgs() + audit + QStringList{QStringLiteral("record")} +
                                team));
        QVERIFY2(recorder->waitForOutput("recording 3 master(s)"), qPrintable(recorder->describe()));
    }
    ServeProcess serve;
    QVERIFY(serve.start(masters.group.lockctlArgs() + audit +
                        QStringList{QStringLiteral("serve"), QStringLiteral("--record")} + team));
    QTest::qWait(1500); // every recorder's first scan done

    const auto onAll = [&](const QByteArrayList& argv) {
        for (int i = 0; i < masters.group.size(); ++i)
            masters.group.at(i).command(argv);
    };
    // Taken, extended twice, released; expired; force-released; still held. (Not a replacement
    // across three masters: a recorder that happens to read the masters between the first and the
    // last SET sees two holders for a moment, and says how the first ended by what it saw; the
    // store's part of that, one telling in both stores, is tst_pgrecording's.)
    onAll({"SET", "lock:team:released", "t-released", "PX", "30000"});
    QTest::qWait(600);
    onAll({"PEXPIRE", "lock:team:released", "40000"});
    QTest::qWait(600);
    onAll({"PEXPIRE", "lock:team:released", "50000"});
    QTest::qWait(600);
    onAll({"DEL", "lock:team:released"});
    onAll({"SET", "lock:team:expired", "t-expired", "PX", "800"});
    QTest::qWait(600);
    onAll({"SET", "lock:team:forced", "t-forced", "PX", "60000"});
    onAll({"SET", "lock:team:open", "t-open", "PX", "60000"});
    QTest::qWait(600);
    const LockctlRun forced = runLockctl(
        masters.group.lockctlArgs() + audit +
        QStringList{QStringLiteral("force-release"), QStringLiteral("lock:team:forced"),
                    QStringLiteral("--expect-token"), QStringLiteral("t-forced"), QStringLiteral("--yes")});
    QVERIFY2(forced.code == 0, qPrintable(forced.describe()));
    QTest::qWait(2000); // the force-release read from the audit log, everything committed
    for (LockctlProcess* recorder : {&single, &first, &second})
        QCOMPARE(recorder->terminate(), 0);
    QCOMPARE(serve.stop(), 0);

    const QStringList file{QStringLiteral("--db"), masters.db};
    for (const QString& resource : {QStringLiteral("lock:team:released"), QStringLiteral("lock:team:expired"),
                                    QStringLiteral("lock:team:forced"), QStringLiteral("lock:team:open")}) {
        const QJsonArray alone = episodesOf(file, resource);
        const QJsonArray together = episodesOf(team, resource);
        QVERIFY2(!alone.isEmpty(), qPrintable(resource));
        QVERIFY2(together == alone,
                 qPrintable(resource + QStringLiteral("\nalone: ") +
                            QString::fromUtf8(QJsonDocument(alone).toJson(QJsonDocument::Compact)) +
                            QStringLiteral("\ntogether: ") +
                            QString::fromUtf8(QJsonDocument(together).toJson(QJsonDocument::Compact))));
    }
    const auto endOf = [&](const QString& resource) {
        return episodesOf(team, resource).last().toObject().value(QStringLiteral("ended")).toString();
    };
    QCOMPARE(endOf(QStringLiteral("lock:team:released")), QStringLiteral("released"));
    QCOMPARE(endOf(QStringLiteral("lock:team:expired")), QStringLiteral("expired"));
    QCOMPARE(endOf(QStringLiteral("lock:team:forced")), QStringLiteral("force-released"));
    QCOMPARE(episodesOf(team, QStringLiteral("lock:team:released"))
                 .first()
                 .toObject()
                 .value(QStringLiteral("extensions")),
             QJsonValue(2));
    // Three sessions in the database, read as one watch and named by their three recorders.
    const LockctlRun history = runLockctl(
        QStringList{QStringLiteral("--json"), QStringLiteral("history"), QStringLiteral("lock:team:open")} +
            team,
        30000);
    QCOMPARE(
        QJsonDocument::fromJson(history.out).object().value(QStringLiteral("recordedBy")).toArray().size(),
        3);
}

void TestPgRecorders::recordersOfTwoSitesKeepTheirStoriesApart()
{
    // Two sites, each its own three masters and a recorder of its own, into one database (and each
    // also into a file of its own, alone: the reference). A lock of the same name at both sites; a
    // master restarted without persistence under one of them.
    PgCluster pg;
    QVERIFY(startTeamCluster(pg, m_ownerPassword, m_writerPassword));
    RecordedMasters siteA;
    RecordedMasters siteB;
    QVERIFY2(siteA.start(3), qPrintable(siteA.errorString()));
    QVERIFY2(siteB.start(3), qPrintable(siteB.errorString()));
    qputenv("LOCKSCOPE_TEST_TEAM_PW", m_writerPassword.toUtf8());
    const auto unset = qScopeGuard([] { qunsetenv("LOCKSCOPE_TEST_TEAM_PW"); });
    const QStringList team{QStringLiteral("--db"), pg.url(QStringLiteral("lockscope_writer")),
                           QStringLiteral("--team-db-password-env"),
                           QStringLiteral("LOCKSCOPE_TEST_TEAM_PW")};
    LockctlProcess aloneA;
    LockctlProcess aloneB;
    LockctlProcess teamA;
    LockctlProcess teamB;
    for (auto [site, alone, together] :
         {std::tuple{&siteA, &aloneA, &teamA}, std::tuple{&siteB, &aloneB, &teamB}}) {
        const QStringList audit{QStringLiteral("--audit-log"),
                                site->dir.filePath(QStringLiteral("audit.jsonl"))};
        QVERIFY(site->startRecorder(*alone, audit));
        QVERIFY(together->start(site->group.lockctlArgs() + audit + QStringList{QStringLiteral("record")} +
                                team));
        QVERIFY2(together->waitForOutput("recording 3 master(s)"), qPrintable(together->describe()));
    }
    QTest::qWait(1500); // every recorder's first scan done
    const auto onAll = [](RecordedMasters& site, const QByteArrayList& argv) {
        for (int i = 0; i < site.group.size(); ++i)
            site.group.at(i).command(argv);
    };
    onAll(siteA, {"SET", "lock:site:shared", "t-a", "PX", "60000"});
    onAll(siteB, {"SET", "lock:site:shared", "t-b", "PX", "60000"});
    QTest::qWait(800);
    QVERIFY(siteA.group.at(0).restart()); // t-a lost on one master of three: still a quorum
    onAll(siteB, {"PEXPIRE", "lock:site:shared", "70000"});
    QTest::qWait(1500);
    onAll(siteB, {"DEL", "lock:site:shared"});
    onAll(siteA, {"SET", "lock:site:a-only", "t-a2", "PX", "800"});
    QTest::qWait(2000); // expired, everything committed
    for (LockctlProcess* recorder : {&aloneA, &aloneB, &teamA, &teamB})
        QCOMPARE(recorder->terminate(), 0);

    // Each site's story from the database (-m names its masters) is the one its recorder alone
    // told from its file.
    for (RecordedMasters* site : {&siteA, &siteB}) {
        const QStringList masters = site->group.lockctlArgs();
        const QStringList file{QStringLiteral("--db"), site->db};
        for (const QString& resource :
             {QStringLiteral("lock:site:shared"), QStringLiteral("lock:site:a-only")}) {
            const QJsonArray alone = episodesOf(masters + file, resource);
            const QJsonArray together = episodesOf(masters + team, resource);
            QVERIFY2(together == alone,
                     qPrintable(resource + QStringLiteral("\nalone: ") +
                                QString::fromUtf8(QJsonDocument(alone).toJson(QJsonDocument::Compact)) +
                                QStringLiteral("\ntogether: ") +
                                QString::fromUtf8(QJsonDocument(together).toJson(QJsonDocument::Compact))));
        }
    }
    const auto tokensOf = [&](RecordedMasters& site) {
        QStringList out;
        for (const QJsonValue& e :
             episodesOf(site.group.lockctlArgs() + team, QStringLiteral("lock:site:shared")))
            out << e.toObject().value(QStringLiteral("token")).toString();
        return out;
    };
    QCOMPARE(tokensOf(siteA), QStringList{QStringLiteral("t-a")});
    QCOMPARE(tokensOf(siteB), QStringList{QStringLiteral("t-b")});
    QVERIFY(episodesOf(siteB.group.lockctlArgs() + team, QStringLiteral("lock:site:a-only")).isEmpty());
    // Site A's restart is in its story, and in its story only.
    const auto restarts = [&](RecordedMasters& site) {
        const LockctlRun run = runLockctl(QStringList{QStringLiteral("--json"), QStringLiteral("history"),
                                                      QStringLiteral("lock:site:shared")} +
                                              site.group.lockctlArgs() + team,
                                          30000);
        int n = 0;
        for (const QJsonValue& e :
             QJsonDocument::fromJson(run.out).object().value(QStringLiteral("events")).toArray())
            n += e.toObject().value(QStringLiteral("event")).toString() == QLatin1String("master-restarted");
        return n;
    };
    QCOMPARE(restarts(siteA), 1);
    QCOMPARE(restarts(siteB), 0);
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestPgRecorders)

} // namespace tst_pgrecorders

#include "tst_pgrecorders.moc"
