// SPDX-License-Identifier: Apache-2.0
// A window on the recordings in a team's PostgreSQL database (issue #45): it reviews what another
// recorder (`lockctl record --db postgresql://…`) keeps there and shows that recorder's new events
// and incidents as they are committed, told by LISTEN/NOTIFY and never by reading on a timer; and a
// window watching masters records into the database, beside the other recorders. A cluster and
// redis-servers the test starts itself.
#include "audit/teamdatabase.h"
#include "history/historydock.h"
#include "history/historytimeline.h"
#include "history/historyview.h"
#include "incidents/incidentsmodel.h"
#include "insights/insightsmodel.h"
#include "locks/locktableview.h"
#include "support/lockctlprocess.h"
#include "support/lockctlrun.h"
#include "support/pgcluster.h"
#include "support/quickconfig.h"
#include "support/recordedmasters.h"
#include "support/teamcluster.h"
#include "support/testregistry.h"
#include "support/timebound.h"
#include "window/mainwindow.h"
#include "window/windowincidents.h"
#include "window/windowinsights.h"
#include "window/windowrecording.h"

#include <QComboBox>
#include <QDateTime>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QSqlError>
#include <QSqlQuery>
#include <QTest>

namespace tst_uiteamrecording {

using namespace lockscope;
using namespace lockscope::test;

namespace {

constexpr char passwordVar[] = "LOCKSCOPE_TEST_TEAM_RECORDING_PW";

bool listed(const MainWindow& window, const QString& resource)
{
    return window.historyDock()->resources()->findText(resource) >= 0;
}

// The tokens of the episodes the History dock draws now.
QByteArrayList drawnTokens(const MainWindow& window)
{
    QByteArrayList out;
    for (const Episode& e : window.historyDock()->timeline()->episodes())
        out << e.token;
    return out;
}

} // namespace

class TestUiTeamRecording : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void reviewFollowsAnotherRecorder();
    void windowRecordsIntoTheTeamDatabase();
    void cleanupTestCase();

private:
    // The newest event id in the database that names `resource` (0: none yet).
    qint64 newestEventOf(const QByteArray& resource);
    QString url() const { return m_pg.url(QStringLiteral("lockscope_writer")); }
    LockScopeConfig reviewConfig() const;

    PgCluster m_pg;
    const QString m_ownerPassword = distinctTestPassword(QStringLiteral("pg-owner"));
    const QString m_writerPassword = distinctTestPassword(QStringLiteral("pg-writer"));
    std::unique_ptr<TeamDatabase> m_reader;
};

void TestUiTeamRecording::initTestCase()
{
    QCoreApplication::setOrganizationName(QStringLiteral("LockScopeTests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_uiteamrecording"));
    QVERIFY(startTeamCluster(m_pg, m_ownerPassword, m_writerPassword));
    // Children inherit it: the password by name, never on a command line.
    qputenv(passwordVar, m_writerPassword.toUtf8());
    m_reader = std::make_unique<TeamDatabase>();
    const RedisError e = m_reader->open(*TeamDatabaseUrl::parse(url()), m_writerPassword);
    QVERIFY2(!e.isError(), qPrintable(e.message));
}

void TestUiTeamRecording::cleanupTestCase()
{
    m_reader.reset();
    qunsetenv(passwordVar);
}

qint64 TestUiTeamRecording::newestEventOf(const QByteArray& resource)
{
    QSqlQuery q(m_reader->db());
    q.prepare(
        QStringLiteral("SELECT coalesce(max(e.id), 0) FROM lockscope.events e JOIN lockscope.resources r "
                       "ON r.id = e.resource WHERE r.name = ?"));
    q.addBindValue(resource);
    return q.exec() && q.next() ? q.value(0).toLongLong() : -1;
}

LockScopeConfig TestUiTeamRecording::reviewConfig() const
{
    LockScopeConfig config;
    config.readOnly = true;
    config.teamDatabasePassword = m_writerPassword;
    return config;
}

void TestUiTeamRecording::reviewFollowsAnotherRecorder()
{
    RecordedMasters masters;
    QVERIFY2(masters.start(3), qPrintable(masters.errorString()));
    LockctlProcess recorder;
    QVERIFY(recorder.start(masters.group.lockctlArgs() +
                           QStringList{QStringLiteral("record"), QStringLiteral("--db"), url(),
                                       QStringLiteral("--team-db-password-env"),
                                       QString::fromLatin1(passwordVar), QStringLiteral("--audit-log"),
                                       masters.dir.filePath(QStringLiteral("audit.jsonl"))}));
    QVERIFY2(recorder.waitForOutput("recording 3 master(s)"), qPrintable(recorder.describe()));
    const auto setAll = [&masters](const QByteArray& key, const QByteArray& token) {
        for (int i = 0; i < 3; ++i)
            masters.group.at(i).command({"SET", key, token, "PX", "600000"});
    };
    setAll("lock:first", "tok-1");
    QTRY_VERIFY_WITH_TIMEOUT(newestEventOf("lock:first") > 0, int(upperBoundMs(10000)));

    MainWindow window(reviewConfig(), masters.dir.filePath(QStringLiteral("window-audit.jsonl")));
    window.review(url(), "lock:first");
    QVERIFY(window.recording()->isTeamDatabase());
    QTRY_COMPARE_WITH_TIMEOUT(drawnTokens(window), QByteArrayList{"tok-1"}, int(upperBoundMs(10000)));

    // Another recorder's new lock, then a new holder of the one shown: each on the window within
    // a second of its commit (timed from the moment the test sees it committed).
    setAll("lock:second", "tok-2");
    QTRY_VERIFY_WITH_TIMEOUT(newestEventOf("lock:second") > 0, int(upperBoundMs(10000)));
    QElapsedTimer sinceCommit;
    sinceCommit.start();
    QTRY_VERIFY_WITH_TIMEOUT(listed(window, QStringLiteral("lock:second")), int(upperBoundMs(1000)));
    qInfo("a new resource listed %lld ms after its commit was seen", sinceCommit.elapsed());
    QCOMPARE(window.historyView()->resource(), QByteArray("lock:first")); // the shown one stays

    const qint64 before = newestEventOf("lock:first");
    for (int i = 0; i < 3; ++i)
        masters.group.at(i).command({"DEL", "lock:first"});
    setAll("lock:first", "tok-3");
    QTRY_VERIFY_WITH_TIMEOUT(newestEventOf("lock:first") > before, int(upperBoundMs(10000)));
    sinceCommit.restart();
    QTRY_VERIFY_WITH_TIMEOUT(drawnTokens(window).contains("tok-3"), int(upperBoundMs(1000)));
    qInfo("a new holder drawn %lld ms after its commit was seen", sinceCommit.elapsed());
    // The other recorder goes on: its open episode is held now, not "held when the recording
    // stopped".
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    for (const Episode& e : window.historyDock()->timeline()->episodes())
        if (e.token == "tok-3")
            QCOMPARE(window.historyDock()->timeline()->barEndMs(e, now), now);

    // Two holders at once, made by a restart of two masters without persistence: the other
    // recorder's evidence, judged by the window as it is committed (the same scenario as
    // tst_uiincidents, there the window's own recording).
    setAll("lock:x", "tok-A");
    QTRY_VERIFY_WITH_TIMEOUT(newestEventOf("lock:x") > 0, int(upperBoundMs(10000)));
    QTest::qWait(500); // recorded with its quorum
    QVERIFY(masters.group.at(0).restart());
    QVERIFY(masters.group.at(1).restart());
    QTest::qWait(1500); // the recorder sees them back (new run_id) and A on one master
    for (int i : {0, 1})
        masters.group.at(i).command({"SET", "lock:x", "tok-B", "NX", "PX", "60000"});
    IncidentsModel* incidents = window.incidents()->model();
    QTRY_COMPARE_WITH_TIMEOUT(incidents->rowCount(), 1, int(upperBoundMs(15000)));
    QCOMPARE(incidents->incidentAt(0).firstToken, QByteArray("tok-A"));
    QCOMPARE(incidents->incidentAt(0).secondToken, QByteArray("tok-B"));
    QCOMPARE(incidents->incidentAt(0).confidence, SafetyIncident::Confidence::Proven);
    QCOMPARE(recorder.terminate(), 0);
    // Its end is told too: the shown lock's open episode is drawn to where the recording stopped.
    const auto cutShort = [&window] {
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        for (const Episode& e : window.historyDock()->timeline()->episodes())
            if (e.token == "tok-3")
                return window.historyDock()->timeline()->barEndMs(e, now) < now;
        return false;
    };
    QTRY_VERIFY_WITH_TIMEOUT(cutShort(), int(upperBoundMs(1000)));

    // Nothing is read on a timer: an event added without a notification stays unseen (three
    // seconds: longer than any refresh the window has), and the notification alone brings it.
    QSqlQuery q(m_reader->db());
    QVERIFY2(
        q.exec(QStringLiteral(
            "INSERT INTO lockscope.events(id, session, t, resource, master, kind, token, owner, ttl, "
            "holding, holders, detail, audit) SELECT (SELECT max(id) + 1 FROM lockscope.events), session, "
            "(SELECT max(t) + 1 FROM lockscope.events), resource, master, kind, 'tok-silent', owner, ttl, "
            "holding, holders, detail, audit FROM lockscope.events WHERE id = (SELECT min(e.id) FROM "
            "lockscope.events e JOIN lockscope.resources r ON r.id = e.resource WHERE r.name = "
            "'lock:first'::bytea)")),
        qPrintable(q.lastError().text()));
    QTest::qWait(3000);
    QVERIFY(!drawnTokens(window).contains("tok-silent"));
    QVERIFY2(q.exec(QStringLiteral("SELECT pg_notify('lockscope_recording', '')")),
             qPrintable(q.lastError().text()));
    QTRY_VERIFY_WITH_TIMEOUT(drawnTokens(window).contains("tok-silent"), int(upperBoundMs(1000)));

    // Insights read the database too: a family per lock name (none of them numbered).
    QSignalSpy refreshed(window.insights(), &WindowInsights::refreshed);
    window.insights()->refresh();
    QVERIFY(refreshed.wait(int(upperBoundMs(10000))));
    InsightsModel* families = window.insights()->model();
    QStringList names;
    for (int row = 0; row < families->rowCount(); ++row)
        names << families->index(row, InsightsModel::Family).data().toString();
    names.sort();
    QCOMPARE(names, (QStringList{QStringLiteral("lock:first"), QStringLiteral("lock:second"),
                                 QStringLiteral("lock:x")}));
}

void TestUiTeamRecording::windowRecordsIntoTheTeamDatabase()
{
    RecordedMasters masters;
    QVERIFY2(masters.start(3), qPrintable(masters.errorString()));
    LockScopeConfig config = quickConfig(masters.group);
    config.teamDatabasePassword = m_writerPassword;
    MainWindow window(config, masters.dir.filePath(QStringLiteral("audit.jsonl")));
    window.recordInto(url());
    QVERIFY(window.recording()->isRecording());
    QVERIFY(window.recording()->isTeamDatabase());
    window.show();
    QTRY_VERIFY_WITH_TIMEOUT(window.isInitialScanFinished(), int(upperBoundMs(10000)));

    // The window's own recorder writes there: `lockctl history` reads its story from the database.
    for (int i = 0; i < 3; ++i)
        masters.group.at(i).command({"SET", "lock:w", "tok-w", "PX", "600000"});
    QTRY_VERIFY_WITH_TIMEOUT(newestEventOf("lock:w") > 0, int(upperBoundMs(10000)));
    const LockctlRun history =
        runLockctl({QStringLiteral("--json"), QStringLiteral("history"), QStringLiteral("lock:w"),
                    QStringLiteral("--db"), url(), QStringLiteral("--team-db-password-env"),
                    QString::fromLatin1(passwordVar)},
                   30000);
    QVERIFY2(history.code == 0, qPrintable(history.describe()));
    const QJsonObject story = QJsonDocument::fromJson(history.out).object();
    const QJsonArray episodes = story.value(QStringLiteral("episodes")).toArray();
    QCOMPARE(episodes.size(), 1);
    QCOMPARE(episodes.at(0).toObject().value(QStringLiteral("token")).toString(), QStringLiteral("tok-w"));

    // The History dock of the selected lock reads the database, and is told of its commits.
    window.lockView()->selectResource("lock:w");
    QTRY_COMPARE_WITH_TIMEOUT(drawnTokens(window), QByteArrayList{"tok-w"}, int(upperBoundMs(10000)));
    QTRY_VERIFY_WITH_TIMEOUT(window.historyView()->isToldOfCommits(), int(upperBoundMs(10000)));
}

LOCKSCOPE_TEST_MAIN(TestUiTeamRecording)

} // namespace tst_uiteamrecording

#include "tst_uiteamrecording.moc"
