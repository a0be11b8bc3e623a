// SPDX-License-Identifier: Apache-2.0
#include "connection/redisconnection.h"
#include "incidents/incidentsmodel.h"
#include "locks/locktablemodel.h"
#include "locks/locktableview.h"
#include "support/connectionwait.h"
#include "support/quickconfig.h"
#include "support/redisservergroup.h"
#include "support/testregistry.h"
#include "tracing/tracedock.h"
#include "tracing/tracemodel.h"
#include "window/mainwindow.h"
#include "window/windowincidents.h"
#include "window/windowrecording.h"
#include "window/windowtrace.h"

#include <QAction>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTest>

namespace tst_uitrace {

using namespace lockscope;
using namespace lockscope::test;

// The window's lock tracer (issue #43): Lock > Trace on the selected lock, in read-only mode too
// (a trace is a read), fills the Trace dock live with each command's connection and meaning,
// a warning in the warning colour; Stop ends it, with its summary, no MONITOR left on the master and
// one audit record. The truth is what the test's own clients did and the server answered. While the
// window records (View > Record history, on by default), what the trace saw goes into the recording:
// the contender's DEL of a lock it never took is an incident, deleted by a non-holder.
class TestUiTrace : public QObject
{
    Q_OBJECT

private slots:
    void tracesTheSelectedLockLiveAndStops();

private:
    QTemporaryDir m_dir;
};

void TestUiTrace::tracesTheSelectedLockLiveAndStops()
{
    RedisServerGroup group;
    QVERIFY2(group.start(1), qPrintable(group.errorString()));
    LockScopeConfig config = quickConfig(group);
    config.readOnly = true;
    qputenv("XDG_STATE_HOME", QFile::encodeName(m_dir.filePath(QStringLiteral("state")))); // its recording
    const QString audit = m_dir.filePath(QStringLiteral("audit.jsonl"));
    MainWindow window(config, audit);
    QVERIFY(window.recording()->isRecording());
    group.at(0).command({"SET", "lock:t", "tok-a", "PX", "60000"});
    QTRY_VERIFY_WITH_TIMEOUT(window.lockModel()->find("lock:t") != nullptr, 10000);
    window.lockView()->selectResource("lock:t");
    QTRY_VERIFY2(window.traceAction()->isEnabled(), qPrintable(window.traceAction()->toolTip()));
    window.traceAction()->trigger();
    TraceDock* dock = window.trace()->dock();
    QVERIFY(dock->isVisibleTo(&window));
    QTRY_VERIFY_WITH_TIMEOUT(dock->isTracing(), 10000);
    QTRY_VERIFY_WITH_TIMEOUT(group.at(0).command({"CLIENT", "LIST"}).string.contains("cmd=monitor"), 10000);

    ConnectionOptions o = group.at(0).connectionOptions(5000);
    o.clientName = "ui-contender";
    RedisConnection contender(o);
    contender.open();
    QVERIFY(waitForState(contender, RedisConnection::State::Up));
    QVERIFY(callAndWait(contender, {"SET", "lock:t", "tok-b", "NX", "PX", "1000"}).reply.isNil());
    QVERIFY(callAndWait(contender, {"SET", "unrelated", "lock:t"}).ok());
    QCOMPARE(callAndWait(contender, {"DEL", "lock:t"}).reply.integer, 1); // not its lock

    TraceModel* model = window.trace()->model();
    QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 2, 10000);
    QCOMPARE(model->commandAt(0).meaning, TraceMeaning::Refused);
    QCOMPARE(model->commandAt(0).client.name, QByteArray("ui-contender"));
    QCOMPARE(model->commandAt(1).meaning, TraceMeaning::DeletedByNonHolder);
    QVERIFY(!model->index(0, 0).data(Qt::ForegroundRole).isValid());
    QVERIFY(model->index(1, 0).data(Qt::ForegroundRole).isValid()); // the warning colour
    QCOMPARE(model->index(1, TraceModel::Command).data().toString(), QStringLiteral("DEL lock:t"));
    IncidentsModel* incidents = window.incidents()->model();
    QTRY_COMPARE_WITH_TIMEOUT(incidents->rowCount(), 1, 15000);
    const SafetyIncident& deleted = incidents->incidentAt(0);
    QCOMPARE(deleted.kind, SafetyIncident::Kind::DeletedByNonHolder);
    QCOMPARE(deleted.confidence, SafetyIncident::Confidence::Proven);
    QCOMPARE(deleted.firstToken, QByteArray("tok-a"));
    QVERIFY(deleted.secondToken.isEmpty()); // the contender never took the lock
    QCOMPARE(deleted.secondOwner, QString::fromLatin1(model->commandAt(1).client.address));
    QCOMPARE(incidents->index(0, IncidentsModel::Holders).data().toString(),
             QStringLiteral("tok-a and the connection ") + deleted.secondOwner);
    // LOCKSCOPE_SHOT_DIR: the window as it looks now, at 1366x768, for the docs and the reviewer.
    if (const QString dir = qEnvironmentVariable("LOCKSCOPE_SHOT_DIR"); !dir.isEmpty()) {
        window.resize(1366, 768);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTest::qWait(300);
        QVERIFY(window.grab().save(dir + QStringLiteral("/trace-dock-1366x768.png")));
    }

    dock->findChild<QPushButton*>(QStringLiteral("traceStop"))->click();
    QTRY_VERIFY_WITH_TIMEOUT(!dock->isTracing(), 10000);
    QVERIFY2(dock->state()->text().contains(QLatin1String("1 warning")), qPrintable(dock->state()->text()));
    QVERIFY2(dock->summary()->toPlainText().contains(QLatin1String("ui-contender")),
             qPrintable(dock->summary()->toPlainText()));
    QTRY_VERIFY_WITH_TIMEOUT(!group.at(0).command({"CLIENT", "LIST"}).string.contains("name=lockscope-trace"),
                             10000);
    QFile file(audit);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = file.readAll().trimmed().split('\n');
    QCOMPARE(lines.size(), 1);
    const QJsonObject record = QJsonDocument::fromJson(lines.first()).object();
    QCOMPARE(record.value(QStringLiteral("action")).toString(), QStringLiteral("trace"));
    QCOMPARE(record.value(QStringLiteral("resource")).toString(), QStringLiteral("lock:t"));
}

LOCKSCOPE_TEST_MAIN(TestUiTrace)

} // namespace tst_uitrace

#include "tst_uitrace.moc"
