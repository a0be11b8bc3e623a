// SPDX-License-Identifier: Apache-2.0
#include "detail/lockdetailpane.h"
#include "locks/locktablemodel.h"
#include "support/lockctlrun.h"
#include "support/redisserver.h"
#include "support/testregistry.h"
#include "window/mainwindow.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonObject>
#include <QLabel>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

namespace tst_uilegacyexpiry {

using namespace lockscope;
using namespace lockscope::test;

namespace {

// What the legacy SETNX/GETSET algorithm writes (npm redis-lock 0.0.8, tst_formatinterop runs it):
// SETNX key <the time it expires, in ms>, and no Redis TTL.
void takeLegacyLock(const RedisServer& server, const QByteArray& key, qint64 expiresInMs)
{
    const QByteArray expiry = QByteArray::number(QDateTime::currentMSecsSinceEpoch() + expiresInMs);
    QCOMPARE(server.command({"SETNX", key, expiry}).integer, 1);
    QCOMPARE(server.command({"PTTL", key}).integer, qint64(-1));
}

QJsonObject lockIn(const QJsonObject& list, const QString& resource)
{
    for (const QJsonValue& v : list.value(QStringLiteral("locks")).toArray())
        if (v.toObject().value(QStringLiteral("resource")).toString() == resource)
            return v.toObject();
    return {};
}

QString cell(const LockTableModel* model, const QByteArray& resource, int column)
{
    return model->index(model->rowOf(resource), column).data().toString();
}

} // namespace

class TestUiLegacyExpiry : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void lockctlShowsTheTimestampAsTheExpiry();
    void windowShowsTheTimestampAsTheExpiry();

private:
    RedisServer m_server;
    QTemporaryDir m_dir;
};

void TestUiLegacyExpiry::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QCoreApplication::setOrganizationName(QStringLiteral("LockScopeTests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_uilegacyexpiry"));
    QVERIFY2(m_server.start(), qPrintable(m_server.errorString()));
    takeLegacyLock(m_server, "lock.jobs", 600000);  // held for 10 more minutes
    takeLegacyLock(m_server, "lock.stale", -60000); // its holder crashed a minute ago
}

void TestUiLegacyExpiry::lockctlShowsTheTimestampAsTheExpiry()
{
    const QStringList base{QStringLiteral("-m"), m_server.url(), QStringLiteral("--audit-log"),
                           m_dir.filePath(QStringLiteral("audit.jsonl")), QStringLiteral("list")};
    int code = -1;
    const QJsonObject list = runLockctlJson(base, &code);
    QCOMPARE(code, 0);
    const QJsonObject jobs = lockIn(list, QStringLiteral("lock.jobs"));
    QCOMPARE(jobs.value(QStringLiteral("format")).toString(), QStringLiteral("legacy-timestamp"));
    QCOMPARE(jobs.value(QStringLiteral("status")).toString(), QStringLiteral("held"));
    // Validity up to the timestamp (less the drift allowance, 6 s of 10 min), not "no expiry".
    const qint64 validity = qint64(jobs.value(QStringLiteral("validityMs")).toDouble());
    QVERIFY2(validity > 540000 && validity <= 600000, qPrintable(QString::number(validity)));
    QVERIFY2(jobs.value(QStringLiteral("owner")).toString().startsWith(QLatin1String("expires at ")),
             qPrintable(jobs.value(QStringLiteral("owner")).toString()));
    const QJsonObject stale = lockIn(list, QStringLiteral("lock.stale"));
    QCOMPARE(stale.value(QStringLiteral("status")).toString(), QStringLiteral("stuck"));
    QCOMPARE(qint64(stale.value(QStringLiteral("validityMs")).toDouble()), qint64(-1));
    QVERIFY2(stale.value(QStringLiteral("owner")).toString().startsWith(QLatin1String("expired at ")),
             qPrintable(stale.value(QStringLiteral("owner")).toString()));

    const LockctlRun text = runLockctl(base);
    QVERIFY2(text.code == 0, qPrintable(text.describe()));
    QVERIFY2(!text.out.contains("no expiry"), qPrintable(text.describe()));
    const QRegularExpression held(QStringLiteral("lock\\.jobs +held .* [0-9]+m[0-9]+s +expires at "));
    QVERIFY2(held.match(QString::fromUtf8(text.out)).hasMatch(), qPrintable(text.describe()));
    const QRegularExpression dead(QStringLiteral("lock\\.stale +stuck .* expired +expired at "));
    QVERIFY2(dead.match(QString::fromUtf8(text.out)).hasMatch(), qPrintable(text.describe()));
}

void TestUiLegacyExpiry::windowShowsTheTimestampAsTheExpiry()
{
    LockScopeConfig config;
    config.masters = {m_server.connectionOptions(2000)};
    config.monitor.pollIntervalMs = 200;
    MainWindow window(config, m_dir.filePath(QStringLiteral("audit.jsonl")));
    window.show();
    const LockTableModel* locks = window.lockModel();
    QTRY_COMPARE_WITH_TIMEOUT(locks->rowCount(), 2, 10000);
    QCOMPARE(locks->find("lock.jobs")->status, LockStatus::Held);
    const QString ttl = cell(locks, "lock.jobs", LockTableModel::TtlColumn);
    QVERIFY2(ttl.contains(QRegularExpression(QStringLiteral("^9 m [0-9]+ s$"))), qPrintable(ttl));
    QVERIFY2(cell(locks, "lock.jobs", LockTableModel::OwnerColumn).startsWith(QLatin1String("expires at ")),
             qPrintable(cell(locks, "lock.jobs", LockTableModel::OwnerColumn)));
    QCOMPARE(locks->find("lock.stale")->status, LockStatus::Stuck);
    QCOMPARE(cell(locks, "lock.stale", LockTableModel::TtlColumn), QStringLiteral("expired"));
    QVERIFY2(cell(locks, "lock.stale", LockTableModel::OwnerColumn).startsWith(QLatin1String("expired at ")),
             qPrintable(cell(locks, "lock.stale", LockTableModel::OwnerColumn)));
    // The detail pane says the same: expired, not "no expiry".
    window.selectWhenSeen("lock.stale");
    QTRY_COMPARE_WITH_TIMEOUT(window.detailPane()->validityLabel()->text(),
                              QStringLiteral("validity expired"), 5000);

    // A lock whose timestamp passes while the window watches counts down, then turns stuck.
    takeLegacyLock(m_server, "lock.soon", 1500);
    QTRY_VERIFY_WITH_TIMEOUT(locks->find("lock.soon"), 5000);
    QCOMPARE(locks->find("lock.soon")->status, LockStatus::Held);
    QVERIFY(locks->find("lock.soon")->validityMs > 0);
    QTRY_COMPARE_WITH_TIMEOUT(locks->find("lock.soon")->status, LockStatus::Stuck, 10000);
    QCOMPARE(cell(locks, "lock.soon", LockTableModel::TtlColumn), QStringLiteral("expired"));
    m_server.command({"DEL", "lock.soon"});
}

LOCKSCOPE_TEST_MAIN(TestUiLegacyExpiry)

} // namespace tst_uilegacyexpiry

#include "tst_uilegacyexpiry.moc"
