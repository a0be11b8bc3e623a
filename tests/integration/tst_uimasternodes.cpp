// SPDX-License-Identifier: Apache-2.0
#include "config/configloader.h"
#include "connection/topologyurl.h"
#include "connections/connectioneditor.h"
#include "connections/connectiontester.h"
#include "connections/profilestore.h"
#include "masters/mastertablemodel.h"
#include "support/redisclustergroup.h"
#include "support/redisserver.h"
#include "support/sentinelgroup.h"
#include "support/testregistry.h"
#include "topology/clusterslotmap.h"
#include "topology/masternode.h"
#include "window/mainwindow.h"

#include <QAbstractItemModelTester>
#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

#include <algorithm>

namespace tst_uimasternodes {

using namespace lockscope;
using namespace lockscope::test;

namespace {

// The masters model under QAbstractItemModelTester, its resets counted: nodes that come and go are
// announced row by row, never by resetting the model.
struct CheckedModel
{
    explicit CheckedModel(MasterTableModel* m)
        : model(m), tester(m, QAbstractItemModelTester::FailureReportingMode::QtTest),
          resets(m, &QAbstractItemModel::modelReset)
    {}
    MasterTableModel* model;
    QAbstractItemModelTester tester;
    QSignalSpy resets;
};

const QString secret = distinctTestPassword(QStringLiteral("hunter2"));

QString loopback(quint16 port)
{
    return QStringLiteral("127.0.0.1:%1").arg(port);
}

// The node rows under `parent`, as "<role> <host:port>" (the Master column's text).
QStringList childTexts(const QAbstractItemModel* model, const QModelIndex& parent)
{
    QStringList texts;
    for (int row = 0; row < model->rowCount(parent); ++row)
        texts << model->index(row, MasterTableModel::MasterColumn, parent).data().toString();
    return texts;
}

// The node row under `parent` with this role, invalid when there is none or several.
QModelIndex childWithRole(const QAbstractItemModel* model, const QModelIndex& parent, MasterNode::Role role)
{
    QModelIndex found;
    for (int row = 0; row < model->rowCount(parent); ++row) {
        const QModelIndex child = model->index(row, 0, parent);
        if (child.data(MasterTableModel::NodeRole).value<MasterNode>().role != role)
            continue;
        if (found.isValid())
            return {};
        found = child;
    }
    return found;
}

QString cell(const QModelIndex& row, int column, int role = Qt::DisplayRole)
{
    return row.siblingAtColumn(column).data(role).toString();
}

bool rowsChangedUnder(const QSignalSpy& spy, const QModelIndex& parent)
{
    for (const QList<QVariant>& args : spy)
        if (args.at(0).value<QModelIndex>() == parent)
            return true;
    return false;
}

} // namespace

// The masters panel's node rows (a Sentinel group's primary and sentinel, a cluster's primaries with
// their replicas) from a real window on real servers, and the connection editor's URL checks and
// "Test" for group URLs.
class TestUiMasterNodes : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void sentinelNodesFollowAFailover();
    void clusterShowsPrimariesWithTheirReplicas();
    void badGroupUrlsAreRefusedWithoutThePassword_data();
    void badGroupUrlsAreRefusedWithoutThePassword();
    void goodGroupUrlsAreAccepted();
    void testFindsTheSentinelPrimary();
    void testReadsTheClusterSlotMap();
    void testReportsAnUnreachableGroup_data();
    void testReportsAnUnreachableGroup();
    void slotCoverageNamesWhatIsMissing();
    void profileGivesAGroupItsCredentials();

private:
    QTemporaryDir m_dir;
};

void TestUiMasterNodes::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QCoreApplication::setOrganizationName(QStringLiteral("LockScopeTests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_uimasternodes"));
}

void TestUiMasterNodes::sentinelNodesFollowAFailover()
{
    RedisServer plain;
    QVERIFY2(plain.start(), qPrintable(plain.errorString()));
    SentinelGroup group;
    SentinelGroupOptions options;
    options.failoverTimeoutMs = 2000;
    QVERIFY2(group.start(options), qPrintable(group.errorString()));
    const quint16 primaryPort = group.dataNode(0).port();
    const quint16 replicaPort = group.dataNode(1).port();
    QList<quint16> sentinelPorts;
    for (int i = 0; i < group.sentinelCount(); ++i)
        sentinelPorts << group.sentinel(i).port();

    LockScopeConfig config;
    config.masters << plain.connectionOptions(1000);
    Result<ConnectionOptions> master = ConfigLoader::masterFromUrl(group.url(), {}, 1000);
    QVERIFY(master);
    config.masters << *master;
    config.monitor.pollIntervalMs = 200;
    MainWindow window(config, m_dir.filePath(QStringLiteral("audit-sentinel.jsonl")));
    CheckedModel checked(window.masterModel());
    MasterTableModel* model = checked.model;
    QSignalSpy removed(model, &QAbstractItemModel::rowsRemoved);
    QSignalSpy inserted(model, &QAbstractItemModel::rowsInserted);
    window.show();
    QTRY_COMPARE_WITH_TIMEOUT(model->upCount(), 2, 30000);

    // Top-level row i is master i: the plain master first, with no node rows, then the group.
    const auto entry = [model] { return model->index(1, 0); };
    QCOMPARE(model->rowCount(model->index(0, 0)), 0);
    QCOMPARE(MasterTableModel::masterOf(entry()), 1);
    QTRY_COMPARE_WITH_TIMEOUT(cell(entry(), MasterTableModel::MasterColumn),
                              QStringLiteral("M2  %1 → %2").arg(group.url(false), loopback(primaryPort)),
                              10000);
    const auto primaryRow = [&] { return childWithRole(model, entry(), MasterNode::Role::Primary); };
    // Every sentinel is listed; the one the watcher listens to says so, the others are only asked.
    const auto listeningRow = [&] {
        for (int row = 0; row < model->rowCount(entry()); ++row) {
            const QModelIndex child = model->index(row, 0, entry());
            if (cell(child, MasterTableModel::RoleColumn).startsWith(QStringLiteral("listening")))
                return child;
        }
        return QModelIndex();
    };
    QTRY_VERIFY2_WITH_TIMEOUT(primaryRow().isValid() && listeningRow().isValid(),
                              qPrintable(childTexts(model, entry()).join(QStringLiteral(" | "))), 10000);
    QStringList expected{QStringLiteral("primary %1").arg(loopback(primaryPort))};
    for (quint16 port : sentinelPorts)
        expected << QStringLiteral("sentinel %1").arg(loopback(port));
    QCOMPARE(childTexts(model, entry()), expected);
    QCOMPARE(cell(primaryRow(), MasterTableModel::MasterColumn),
             QStringLiteral("primary %1").arg(loopback(primaryPort)));
    QTRY_COMPARE_WITH_TIMEOUT(cell(primaryRow(), MasterTableModel::StateColumn), QStringLiteral("up"), 10000);
    QCOMPARE(MasterTableModel::masterOf(primaryRow()), 1);
    QCOMPARE(listeningRow().data(MasterTableModel::NodeRole).value<MasterNode>().role,
             MasterNode::Role::Sentinel);
    QCOMPARE(cell(listeningRow(), MasterTableModel::StateColumn), QStringLiteral("up"));
    for (int row = 1; row < model->rowCount(entry()); ++row) {
        const QModelIndex sentinel = model->index(row, 0, entry());
        if (sentinel != listeningRow()) {
            QCOMPARE(cell(sentinel, MasterTableModel::StateColumn), QStringLiteral("not watched"));
            QCOMPARE(sentinel.data(MasterTableModel::MonitoredRole).toBool(), false);
        }
    }
    QCOMPARE(model->rowCount(primaryRow()), 0);
    auto* view = window.findChild<QTreeView*>(QStringLiteral("masters"));
    QVERIFY(view);
    QVERIFY(view->isExpanded(entry()));

    removed.clear();
    inserted.clear();
    const RedisReply reply = group.sentinel(0).command({"SENTINEL", "FAILOVER", "mymaster"});
    QVERIFY2(!reply.isError(), reply.string.constData());
    // The new primary takes the old one's place among the node rows: rows removed and inserted
    // under the group, never a reset.
    QTRY_COMPARE_WITH_TIMEOUT(cell(primaryRow(), MasterTableModel::MasterColumn),
                              QStringLiteral("primary %1").arg(loopback(replicaPort)), 60000);
    QVERIFY(!childTexts(model, entry()).contains(QStringLiteral("primary %1").arg(loopback(primaryPort))));
    QTRY_COMPARE_WITH_TIMEOUT(cell(primaryRow(), MasterTableModel::StateColumn), QStringLiteral("up"), 10000);
    QVERIFY(rowsChangedUnder(removed, entry()));
    QVERIFY(rowsChangedUnder(inserted, entry()));
    QTRY_VERIFY_WITH_TIMEOUT(listeningRow().isValid(), 10000);
    QCOMPARE(model->rowCount(entry()), 1 + group.sentinelCount());
    QTRY_COMPARE_WITH_TIMEOUT(cell(entry(), MasterTableModel::MasterColumn),
                              QStringLiteral("M2  %1 → %2").arg(group.url(false), loopback(replicaPort)),
                              10000);
    QVERIFY(view->isExpanded(entry()));
    QCOMPARE(model->rowCount(), 2);
    QCOMPARE(checked.resets.size(), 0);
    window.close();
}

void TestUiMasterNodes::clusterShowsPrimariesWithTheirReplicas()
{
    RedisClusterGroup cluster;
    QVERIFY2(cluster.start(3, 1), qPrintable(cluster.errorString()));
    LockScopeConfig config;
    Result<ConnectionOptions> master = ConfigLoader::masterFromUrl(cluster.url(), {}, 1000);
    QVERIFY2(master, qPrintable(master ? QString() : master.error().message));
    config.masters << *master;
    config.monitor.pollIntervalMs = 200;
    MainWindow window(config, m_dir.filePath(QStringLiteral("audit-cluster.jsonl")));
    CheckedModel checked(window.masterModel());
    MasterTableModel* model = checked.model;
    window.show();
    QTRY_COMPARE_WITH_TIMEOUT(model->upCount(), 1, 30000);

    const QModelIndex entry = model->index(0, 0);
    // Named M1..Mn as everywhere else in the window.
    QCOMPARE(cell(entry, MasterTableModel::MasterColumn),
             QStringLiteral("M1  ") + TopologyUrl::parse(cluster.url(-1, false))->toString());
    // Primaries in address order, as the cluster's slot map lists them.
    QList<quint16> ports;
    for (int node : cluster.primaryIndexes())
        ports << cluster.at(node).port();
    std::sort(ports.begin(), ports.end());
    QStringList primaries;
    for (quint16 port : ports)
        primaries << QStringLiteral("primary %1").arg(loopback(port));
    QCOMPARE(primaries.size(), 3);
    QTRY_COMPARE_WITH_TIMEOUT(childTexts(model, entry), primaries, 20000);
    for (int row = 0; row < 3; ++row) {
        const QModelIndex primary = model->index(row, 0, entry);
        const quint16 port = primary.data(MasterTableModel::NodeRole).value<MasterNode>().address.port;
        QTRY_COMPARE_WITH_TIMEOUT(cell(primary, MasterTableModel::StateColumn), QStringLiteral("up"), 10000);
        QVERIFY2(cell(primary, MasterTableModel::RoleColumn).startsWith(QStringLiteral("slots ")),
                 qPrintable(cell(primary, MasterTableModel::RoleColumn)));
        QVERIFY(cell(entry, MasterTableModel::MasterColumn, Qt::ToolTipRole).contains(loopback(port)));
        // One replica each, under its primary.
        QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(primary), 1, 20000);
        const QModelIndex replica = model->index(0, 0, primary);
        const int replicaNode = cluster.replicaOf(cluster.indexOfPort(port));
        QVERIFY(replicaNode >= 0);
        QCOMPARE(cell(replica, MasterTableModel::MasterColumn),
                 QStringLiteral("replica %1").arg(loopback(cluster.at(replicaNode).port())));
        QCOMPARE(cell(replica, MasterTableModel::RoleColumn),
                 QStringLiteral("replica of %1").arg(loopback(port)));
        QCOMPARE(MasterTableModel::masterOf(replica), 0);
        QCOMPARE(model->rowCount(replica), 0);
    }
    auto* view = window.findChild<QTreeView*>(QStringLiteral("masters"));
    QVERIFY(view->isExpanded(entry));
    QVERIFY(view->isExpanded(model->index(0, 0, entry)));

    // A replica takes over its primary's slots: it becomes a primary row, the old primary its replica.
    const int oldPrimary = cluster.indexOfPort(ports.first());
    const int promoted = cluster.replicaOf(oldPrimary);
    const RedisReply failover = cluster.at(promoted).command({"CLUSTER", "FAILOVER"});
    QVERIFY2(!failover.isError(), failover.string.constData());
    const QString promotedText = QStringLiteral("primary %1").arg(loopback(cluster.at(promoted).port()));
    // While the cluster agrees on the change, a slot map may name both nodes: wait for the settled one.
    const auto settled = [&] {
        const QStringList texts = childTexts(model, entry);
        return texts.size() == 3 && texts.contains(promotedText) && !texts.contains(primaries.first());
    };
    QTRY_VERIFY2_WITH_TIMEOUT(settled(), qPrintable(childTexts(model, entry).join(QStringLiteral(" | "))),
                              60000);
    const auto promotedRow = [&] {
        return model->index(int(childTexts(model, entry).indexOf(promotedText)), 0, entry);
    };
    QTRY_COMPARE_WITH_TIMEOUT(childTexts(model, promotedRow()),
                              QStringList{QStringLiteral("replica %1").arg(loopback(ports.first()))}, 30000);
    QCOMPARE(checked.resets.size(), 0);
    window.close();
}

void TestUiMasterNodes::badGroupUrlsAreRefusedWithoutThePassword_data()
{
    QTest::addColumn<QString>("url");
    QTest::addColumn<bool>("withCa");
    QTest::addColumn<QString>("problemContains");
    QTest::newRow("sentinel without a master name")
        << "redis-sentinel://ops:hunter2@127.0.0.1:26379" << false << "master name";
    QTest::newRow("cluster with a database")
        << "redis-cluster://ops:hunter2@127.0.0.1:7000/3" << false << "no path";
    QTest::newRow("bad port in the seed list")
        << "redis-cluster://ops:hunter2@h1:7000,h2:99999" << false << "bad port";
    QTest::newRow("unclosed IPv6 seed")
        << "rediss-sentinel://:hunter2@[::1:26379/mymaster" << false << "IPv6";
    QTest::newRow("password in a group url")
        << "redis-sentinel://:hunter2@127.0.0.1:26379/mymaster" << false << "password field";
    QTest::newRow("TLS files on a plain cluster url") << "redis-cluster://127.0.0.1:7000" << true << "TLS";
}

void TestUiMasterNodes::badGroupUrlsAreRefusedWithoutThePassword()
{
    QFETCH(QString, url);
    QFETCH(bool, withCa);
    QFETCH(QString, problemContains);
    const QString ca = m_dir.filePath(QStringLiteral("ca.pem"));
    if (withCa) {
        QFile f(ca);
        QVERIFY(f.open(QIODevice::WriteOnly));
    }
    ConnectionEditor editor;
    QSignalSpy tested(&editor, &ConnectionEditor::tested);
    editor.urlEdit()->setText(url);
    if (withCa)
        editor.caEdit()->setText(ca);
    QVERIFY(!editor.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)->isEnabled());
    const QString problem = editor.problemLabel()->text();
    QVERIFY2(problem.contains(problemContains, Qt::CaseInsensitive), qPrintable(problem));
    QVERIFY2(!problem.contains(QStringLiteral("hunter2")), qPrintable(problem));
    // "Test" connects nowhere, and points at the problem rather than saying it twice (issue #41).
    QTest::mouseClick(editor.testButton(), Qt::LeftButton);
    QVERIFY2(editor.testResultLabel()->text().startsWith(QLatin1String("Not tested")),
             qPrintable(editor.testResultLabel()->text()));
    QCOMPARE(tested.size(), 0);
}

void TestUiMasterNodes::goodGroupUrlsAreAccepted()
{
    ConnectionEditor editor;
    auto* ok = editor.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
    for (const QString& url :
         {QStringLiteral("redis-sentinel://127.0.0.1:26379,127.0.0.1:26380/mymaster?db=2"),
          QStringLiteral("redis-cluster://[::1]:7000,[::1]:7001"),
          QStringLiteral("rediss-cluster://ops@n1:7000")}) {
        editor.urlEdit()->setText(url);
        QVERIFY2(ok->isEnabled(), qPrintable(url + QStringLiteral(": ") + editor.problemLabel()->text()));
        QVERIFY(editor.problemLabel()->text().isEmpty());
    }
}

void TestUiMasterNodes::testFindsTheSentinelPrimary()
{
    SentinelGroup group;
    SentinelGroupOptions options;
    options.dataOptions.password = secret;
    QVERIFY2(group.start(options), qPrintable(group.errorString()));
    ConnectionEditor editor;
    editor.show();
    QSignalSpy tested(&editor, &ConnectionEditor::tested);
    editor.urlEdit()->setText(group.url(false));
    QVERIFY2(editor.canAccept(), qPrintable(editor.currentProblem()));

    // Without the password the primary cannot be verified (ROLE needs AUTH): a failure that does not
    // give a password away either.
    QTest::mouseClick(editor.testButton(), Qt::LeftButton);
    QVERIFY(!editor.testButton()->isEnabled()); // one test at a time
    QVERIFY(tested.wait(int(lockscope::test::upperBoundMs(30000))));
    QCOMPARE(tested.last().at(0).toBool(), false);
    QVERIFY(editor.testButton()->isEnabled());

    editor.passwordEdit()->setText(secret);
    tested.clear();
    QTest::mouseClick(editor.testButton(), Qt::LeftButton);
    QVERIFY(editor.testResultLabel()->text().contains(QStringLiteral("Asking the sentinels")));
    QVERIFY(tested.wait(int(lockscope::test::upperBoundMs(30000))));
    const QString detail = tested.last().at(1).toString();
    QVERIFY2(tested.last().at(0).toBool(), qPrintable(detail));
    QVERIFY2(detail.startsWith(QStringLiteral("primary %1").arg(loopback(group.dataNode(0).port()))),
             qPrintable(detail));
    QVERIFY2(editor.testResultLabel()->text().startsWith(QStringLiteral("Connected: primary ")),
             qPrintable(editor.testResultLabel()->text()));
    QVERIFY(!editor.testResultLabel()->text().contains(secret));
}

void TestUiMasterNodes::testReadsTheClusterSlotMap()
{
    RedisClusterGroup cluster;
    QVERIFY2(cluster.start(3, 1), qPrintable(cluster.errorString()));
    ConnectionEditor editor;
    QSignalSpy tested(&editor, &ConnectionEditor::tested);
    editor.urlEdit()->setText(cluster.url(1, false)); // one seed is enough to find the others
    editor.passwordEdit()->setText(cluster.at(0).options().password);
    QVERIFY2(editor.canAccept(), qPrintable(editor.currentProblem()));
    QTest::mouseClick(editor.testButton(), Qt::LeftButton);
    QVERIFY(editor.testResultLabel()->text().contains(QStringLiteral("Reading the slot map")));
    QVERIFY(tested.wait(int(lockscope::test::upperBoundMs(30000))));
    QVERIFY2(tested.last().at(0).toBool(), qPrintable(tested.last().at(1).toString()));
    QCOMPARE(tested.last().at(1).toString(), QStringLiteral("3 primaries, all 16384 slots covered"));
    QCOMPARE(editor.testResultLabel()->text(),
             QStringLiteral("Connected: 3 primaries, all 16384 slots covered"));
}

void TestUiMasterNodes::testReportsAnUnreachableGroup_data()
{
    QTest::addColumn<QString>("scheme");
    QTest::addColumn<QString>("path");
    QTest::newRow("sentinel") << "redis-sentinel"
                              << "/mymaster";
    QTest::newRow("cluster") << "redis-cluster"
                             << "";
}

void TestUiMasterNodes::testReportsAnUnreachableGroup()
{
    QFETCH(QString, scheme);
    QFETCH(QString, path);
    // Nothing listens on these ports: every seed refuses.
    const quint16 first = freeLoopbackPort();
    quint16 second = freeLoopbackPort();
    while (second == first)
        second = freeLoopbackPort();
    const QString url = QStringLiteral("%1://%2,%3%4").arg(scheme, loopback(first), loopback(second), path);
    ConnectionEditor editor;
    QSignalSpy tested(&editor, &ConnectionEditor::tested);
    editor.urlEdit()->setText(url);
    editor.passwordEdit()->setText(secret);
    QVERIFY2(editor.canAccept(), qPrintable(editor.currentProblem()));
    QTest::mouseClick(editor.testButton(), Qt::LeftButton);
    QVERIFY(tested.wait(ConnectionTester::timeoutMs(ConnectionEditor::testOptions(editor.entry(), secret)) +
                        5000));
    QCOMPARE(tested.last().at(0).toBool(), false);
    const QString detail = tested.last().at(1).toString();
    QVERIFY2(!detail.isEmpty() && !detail.contains(secret), qPrintable(detail));
    QVERIFY2(editor.testResultLabel()->text().startsWith(QStringLiteral("Failed: ")),
             qPrintable(editor.testResultLabel()->text()));
}

void TestUiMasterNodes::slotCoverageNamesWhatIsMissing()
{
    ClusterSlotMap map;
    const NodeAddress a{QStringLiteral("127.0.0.1"), 7000};
    const NodeAddress b{QStringLiteral("127.0.0.1"), 7001};
    for (int slot = 0; slot <= 5460; ++slot)
        map.assign(slot, a);
    for (int slot = 5461; slot <= 10922; ++slot)
        map.assign(slot, b);
    map.assign(16000, b);
    QCOMPARE(ConnectionTester::slotCoverage(map),
             QStringLiteral("2 primaries, 5460 of 16384 slots not covered: 10923-15999, 16001-16383"));
    for (int slot = 10923; slot < 16384; ++slot)
        map.assign(slot, a);
    QCOMPARE(ConnectionTester::slotCoverage(map), QStringLiteral("2 primaries, all 16384 slots covered"));
}

void TestUiMasterNodes::profileGivesAGroupItsCredentials()
{
    // The user and the keychain's password of a group entry are its data nodes': they must reach the
    // topology the core connects with, not the (empty) single-node URL.
    ConnectionProfile profile;
    profile.name = QStringLiteral("groups");
    MasterEntry sentinel;
    sentinel.url = QStringLiteral("redis-sentinel://127.0.0.1:26379,127.0.0.1:26380/mymaster");
    sentinel.user = QStringLiteral("ops");
    MasterEntry cluster;
    cluster.url = QStringLiteral("redis-cluster://127.0.0.1:7000");
    profile.masters << sentinel << cluster;
    const Result<LockScopeConfig> config =
        ProfileStore::toConfig(profile, {{sentinel.url, secret}, {cluster.url, QStringLiteral("other")}});
    QVERIFY2(config, qPrintable(config ? QString() : config.error().message));
    QCOMPARE(config->masters.size(), 2);
    const std::optional<TopologyUrl>& group = config->masters.at(0).topology;
    QVERIFY(group && group->isSentinel());
    QCOMPARE(group->user(), QStringLiteral("ops"));
    QCOMPARE(group->password(), secret);
    QVERIFY(!group->toString().contains(secret));
    const std::optional<TopologyUrl>& shards = config->masters.at(1).topology;
    QVERIFY(shards && shards->isCluster());
    QCOMPARE(shards->password(), QStringLiteral("other"));
}

LOCKSCOPE_TEST_MAIN(TestUiMasterNodes)

} // namespace tst_uimasternodes

#include "tst_uimasternodes.moc"
