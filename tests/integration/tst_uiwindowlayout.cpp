// SPDX-License-Identifier: Apache-2.0
#include "base/monotonicclock.h"
#include "detail/lockdetailpane.h"
#include "detail/quorumdiagram.h"
#include "formats/lockformat.h"
#include "locks/lockfilterproxy.h"
#include "locks/locktablemodel.h"
#include "locks/locktableview.h"
#include "masters/mastertablemodel.h"
#include "support/offscreenscreen.h"
#include "support/primaryscreen.h"
#include "support/quickconfig.h"
#include "support/redisservergroup.h"
#include "support/testregistry.h"
#include "support/testsettings.h"
#include "widgets/statusstyle.h"
#include "window/mainwindow.h"

#include <QApplication>
#include <QHeaderView>
#include <QLabel>
#include <QMouseEvent>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSplitter>
#include <QStyle>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

namespace tst_uiwindowlayout {

using namespace lockscope;
using namespace lockscope::test;

namespace {

// Large enough for the window's default 1440x900 and its frame.
const QSize screenSize(1600, 1000);

void onMasters(RedisServerGroup& group, const QList<int>& masters, const QByteArrayList& argv)
{
    for (int m : masters) {
        const RedisReply reply = group.at(m).command(argv);
        QVERIFY2(!reply.isError(), QByteArray(argv.join(' ') + ": " + reply.string).constData());
    }
}

// Locks of the kinds the demo shows: held, partial, contested, stuck, Redisson, semaphore.
void writeSampleLocks(RedisServerGroup& group)
{
    const QList<int> all{0, 1, 2, 3, 4};
    onMasters(group, all,
              {"SET", "lock:orders:checkout", "billing-7@web-1:4242/8c1f4be0a7d34f0e9b6a55c1e2f0d9a3", "PX",
               "300000"});
    onMasters(group, {1, 3},
              {"SET", "lock:reports:nightly", "7d0b8e2a4c6f8a0b2d4e6f8a0c2e4a6b", "PX", "300000"});
    onMasters(group, {0, 1, 2},
              {"SET", "lock:cache:rebuild", "a1a1a1a1b2b2b2b2c3c3c3c3d4d4d4d4", "PX", "300000"});
    onMasters(group, {3, 4},
              {"SET", "lock:cache:rebuild", "e5e5e5e5f6f6f6f6a7a7a7a7b8b8b8b8", "PX", "300000"});
    onMasters(group, all, {"SET", "lock:migrations", "deploy-bot@ci-3:77/00aa11bb22cc33dd44ee55ff66778899"});
    for (int m : {0, 1, 2, 4}) {
        onMasters(group, {m}, {"HSET", "lock:{accounts}", "8f3c2a1e-5b7d-4c9e-a1f2-3b4c5d6e7f80:57", "2"});
        onMasters(group, {m}, {"PEXPIRE", "lock:{accounts}", "300000"});
    }
    const QByteArray now = QByteArray::number(QDateTime::currentMSecsSinceEpoch());
    onMasters(group, all,
              {"ZADD", "semaphore:db-pool", now, "6f1c2b3a-4d5e-4f60-8a7b-9c0d1e2f3a4b", now,
               "1b2c3d4e-0000-4abc-9def-0123456789ab"});
    onMasters(group, all, {"PEXPIRE", "semaphore:db-pool", "300000"});
    // Enough held locks to fill a table.
    for (int i = 0; i < 30; ++i)
        onMasters(group, all, {"SET", "lock:job:" + QByteArray::number(100 + i), "tok", "PX", "300000"});
}

// The room a text has in an item view cell: the column less the style's text margins.
int textRoom(const QWidget* view, int columnWidth)
{
    const int margin = view->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, view) + 1;
    return columnWidth - 2 * margin;
}

QString fitText(const QString& what, const QString& text, int advance, int room)
{
    return QStringLiteral("%1 \"%2\": needs %3 px, has %4 px").arg(what, text).arg(advance).arg(room);
}

int visibleRows(const QTableView* table)
{
    return table->viewport()->height() / table->verticalHeader()->defaultSectionSize();
}

// Drags the splitter's handle as far as it goes (dy < 0: up).
void dragHandle(QSplitter* split, int dy)
{
    QSplitterHandle* handle = split->handle(1);
    const QPoint local = handle->rect().center();
    const QPoint global = handle->mapToGlobal(local);
    const QPoint to = global + QPoint(0, dy);
    QMouseEvent press(QEvent::MouseButtonPress, local, global, Qt::LeftButton, Qt::LeftButton, {});
    QApplication::sendEvent(handle, &press);
    QMouseEvent move(QEvent::MouseMove, handle->mapFromGlobal(to), to, Qt::NoButton, Qt::LeftButton, {});
    QApplication::sendEvent(handle, &move);
    QMouseEvent release(QEvent::MouseButtonRelease, handle->mapFromGlobal(to), to, Qt::LeftButton,
                        Qt::NoButton, {});
    QApplication::sendEvent(handle, &release);
}

} // namespace

// The window at its default size (1440x900): the locks table gets most of the height, and what
// the table, the masters panel and the detail pane show fits where it is shown.
class TestUiWindowLayout : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();
    void tableGetsMostOfTheHeight();
    void splitterCollapsesNeitherSide();
    void locksTableAndMastersPanelTextsFit();
    void detailPaneTextsFit();
    void narrowDetailPaneStacksItsParts();

private:
    MainWindow* openWindow();

    QTemporaryDir m_dir;
    std::unique_ptr<RedisServerGroup> m_group;
    std::unique_ptr<MainWindow> m_window;
};

void TestUiWindowLayout::initTestCase()
{
    QVERIFY(m_dir.isValid());
    nameTestApplication(QStringLiteral("tst_uiwindowlayout"));
    if (!primaryScreenIs(screenSize))
        QSKIP("needs the offscreen platform with a 1600x1000 screen");
}

void TestUiWindowLayout::init()
{
    QSettings().clear(); // a first start: the default layout
    m_group = std::make_unique<RedisServerGroup>();
    QVERIFY2(m_group->start(5), qPrintable(m_group->errorString()));
    writeSampleLocks(*m_group);
}

void TestUiWindowLayout::cleanup()
{
    m_window.reset();
    m_group.reset();
}

MainWindow* TestUiWindowLayout::openWindow()
{
    m_window =
        std::make_unique<MainWindow>(quickConfig(*m_group), m_dir.filePath(QStringLiteral("audit.jsonl")));
    m_window->show();
    if (!QTest::qWaitForWindowExposed(m_window.get()))
        return nullptr;
    return m_window.get();
}

void TestUiWindowLayout::tableGetsMostOfTheHeight()
{
    MainWindow* window = openWindow();
    QVERIFY(window);
    QCOMPARE(window->size(), QSize(1440, 900));
    QTRY_COMPARE_WITH_TIMEOUT(window->lockModel()->rowCount(), 36, 5000);
    auto* split = window->findChild<QSplitter*>(QStringLiteral("centralSplit"));
    QVERIFY(split);
    const int rows = visibleRows(window->lockView());
    QVERIFY2(rows >= 12, qPrintable(QStringLiteral("%1 rows visible").arg(rows)));
    const QList<int> sizes = split->sizes();
    QVERIFY2(sizes.at(0) * 100 >= (sizes.at(0) + sizes.at(1)) * 60,
             qPrintable(QStringLiteral("table side %1 px, pane %2 px").arg(sizes.at(0)).arg(sizes.at(1))));
    // The pane asks for little: its content scrolls.
    QVERIFY2(window->detailPane()->minimumSizeHint().height() <= 100,
             qPrintable(QString::number(window->detailPane()->minimumSizeHint().height())));
}

void TestUiWindowLayout::splitterCollapsesNeitherSide()
{
    MainWindow* window = openWindow();
    QVERIFY(window);
    QTRY_COMPARE_WITH_TIMEOUT(window->lockModel()->rowCount(), 36, 5000);
    auto* split = window->findChild<QSplitter*>(QStringLiteral("centralSplit"));
    QVERIFY(split);
    QVERIFY(!split->isCollapsible(0));
    QVERIFY(!split->isCollapsible(1));

    dragHandle(split, -2000); // all the way up
    QVERIFY2(visibleRows(window->lockView()) >= 3, qPrintable(QStringLiteral("%1 rows visible, sizes %2/%3")
                                                                  .arg(visibleRows(window->lockView()))
                                                                  .arg(split->sizes().at(0))
                                                                  .arg(split->sizes().at(1))));
    QVERIFY(window->lockView()->isVisible());

    dragHandle(split, 4000); // all the way down
    QVERIFY(window->detailPane()->isVisible());
    QVERIFY2(window->detailPane()->height() >= window->detailPane()->minimumSizeHint().height(),
             qPrintable(QString::number(window->detailPane()->height())));
    QVERIFY(window->detailPane()->titleLabel()->visibleRegion().boundingRect().height() > 0);
}

void TestUiWindowLayout::locksTableAndMastersPanelTextsFit()
{
    MainWindow* window = openWindow();
    QVERIFY(window);
    QTRY_COMPARE_WITH_TIMEOUT(window->lockModel()->rowCount(), 36, 5000);
    QTRY_COMPARE_WITH_TIMEOUT(window->masterModel()->upCount(), 5, 5000);
    LockTableView* table = window->lockView();
    const QFontMetrics fm = table->fontMetrics();

    // Every format name, not only those on screen now.
    const int formatRoom = textRoom(table, table->columnWidth(LockTableModel::FormatColumn));
    for (int f = 0; f <= int(LockFormat::LockScope); ++f) {
        const QString name = lockFormatName(LockFormat(f));
        QVERIFY2(fm.horizontalAdvance(name) <= formatRoom,
                 qPrintable(fitText(QStringLiteral("format"), name, fm.horizontalAdvance(name), formatRoom)));
    }
    // Every status with its icon, and the at-risk flag drawn at the right end of the cell.
    const int iconRoom = table->style()->pixelMetric(QStyle::PM_SmallIconSize, nullptr, table) + 4 + 16;
    const int statusRoom = textRoom(table, table->columnWidth(LockTableModel::StatusColumn)) - iconRoom;
    for (LockStatus s : {LockStatus::Held, LockStatus::Partial, LockStatus::Contested, LockStatus::Stuck,
                         LockStatus::Unknown}) {
        const QString text = StatusStyle::statusText(s);
        QVERIFY2(fm.horizontalAdvance(text) <= statusRoom,
                 qPrintable(fitText(QStringLiteral("status"), text, fm.horizontalAdvance(text), statusRoom)));
    }
    // The countdown's longest form, and whatever the view itself would size each column to.
    const QString ttl = QStringLiteral("00 h 00 m");
    const int ttlRoom = textRoom(table, table->columnWidth(LockTableModel::TtlColumn));
    QVERIFY2(fm.horizontalAdvance(ttl) <= ttlRoom,
             qPrintable(fitText(QStringLiteral("TTL"), ttl, fm.horizontalAdvance(ttl), ttlRoom)));
    for (int c : {LockTableModel::StatusColumn, LockTableModel::QuorumColumn, LockTableModel::FormatColumn,
                  LockTableModel::TtlColumn, LockTableModel::MastersColumn}) {
        const int header = table->horizontalHeader()->sectionSizeHint(c);
        QVERIFY2(table->columnWidth(c) >= header,
                 qPrintable(QStringLiteral("header of column %1: %2 px of %3")
                                .arg(c)
                                .arg(table->columnWidth(c))
                                .arg(header)));
        // The last column stretches to the edge; the others must hold their contents themselves.
        if (c != LockTableModel::MastersColumn ||
            table->horizontalHeader()->visualIndex(c) < table->horizontalHeader()->count() - 1)
            QVERIFY2(table->columnWidth(c) >= static_cast<QAbstractItemView*>(table)->sizeHintForColumn(c),
                     qPrintable(QStringLiteral("column %1: %2 px of %3")
                                    .arg(c)
                                    .arg(table->columnWidth(c))
                                    .arg(static_cast<QAbstractItemView*>(table)->sizeHintForColumn(c))));
    }
    // All columns on screen at the default size.
    int right = 0;
    for (int c = 0; c < LockTableModel::ColumnCount; ++c)
        right = qMax(right, table->columnViewportPosition(c) + table->columnWidth(c));
    QVERIFY2(right <= table->viewport()->width(),
             qPrintable(QStringLiteral("%1 px of columns in %2").arg(right).arg(table->viewport()->width())));

    // The dots name their masters as the detail pane does: M1..Mn, with the URL.
    const QString tip =
        window->lockProxy()->index(0, LockTableModel::MastersColumn).data(Qt::ToolTipRole).toString();
    for (int m = 0; m < 5; ++m)
        QVERIFY2(
            tip.contains(QStringLiteral("M%1 %2").arg(m + 1).arg(window->masterModel()->snapshot(m).name)),
            qPrintable(tip));

    // The masters panel: every state a master can be in.
    auto* masters = window->findChild<QTreeView*>(QStringLiteral("masters"));
    QVERIFY(masters);
    const int stateRoom = textRoom(masters, masters->columnWidth(MasterTableModel::StateColumn));
    for (RedisConnection::State s : {RedisConnection::State::Up, RedisConnection::State::Connecting,
                                     RedisConnection::State::Reconnecting, RedisConnection::State::Down,
                                     RedisConnection::State::Disconnected}) {
        const QString text = StatusStyle::masterStateText(s);
        QVERIFY2(masters->fontMetrics().horizontalAdvance(text) <= stateRoom,
                 qPrintable(fitText(QStringLiteral("master state"), text,
                                    masters->fontMetrics().horizontalAdvance(text), stateRoom)));
    }
}

void TestUiWindowLayout::detailPaneTextsFit()
{
    MainWindow* window = openWindow();
    QVERIFY(window);
    QTRY_COMPARE_WITH_TIMEOUT(window->lockModel()->rowCount(), 36, 5000);
    QTRY_COMPARE_WITH_TIMEOUT(window->masterModel()->upCount(), 5, 5000);
    LockDetailPane* pane = window->detailPane();
    QTableWidget* perMaster = pane->mastersTable();
    QuorumDiagram* diagram = pane->diagram();

    auto verifyHeaders = [&] {
        for (int c = 0; c < LockDetailPane::ColumnCount; ++c) {
            if (perMaster->isColumnHidden(c))
                continue;
            const int width = perMaster->columnWidth(c);
            const int header = perMaster->horizontalHeader()->sectionSizeHint(c);
            QVERIFY2(width >= header,
                     qPrintable(fitText(QStringLiteral("pane header"),
                                        perMaster->horizontalHeaderItem(c)->text(), header, width)));
        }
        // Every column on screen: nothing to scroll sideways for.
        QVERIFY2(
            perMaster->horizontalScrollBar()->maximum() == 0,
            qPrintable(QStringLiteral("%1 px to scroll").arg(perMaster->horizontalScrollBar()->maximum())));
    };
    // Before anything is selected.
    verifyHeaders();
    auto verifyDiagram = [&] {
        const QStringList title = diagram->titleLines();
        QFont bold = diagram->font();
        bold.setBold(true);
        const int titleRoom = diagram->width() - int(2 * QuorumDiagram::margin);
        for (int i = 0; i < title.size(); ++i) {
            const QFontMetrics tm(i == 0 ? bold : diagram->font());
            QVERIFY2(tm.horizontalAdvance(title.at(i)) <= titleRoom,
                     qPrintable(fitText(QStringLiteral("verdict"), title.at(i),
                                        tm.horizontalAdvance(title.at(i)), titleRoom)));
        }
        const int slot = int(diagram->slotWidth()) - 4;
        for (int m = 0; m < 5; ++m)
            for (const QString& text : {diagram->nodeText(m), diagram->nodeTtlText(m, monotonicMs())})
                QVERIFY2(diagram->fontMetrics().horizontalAdvance(text) <= slot,
                         qPrintable(fitText(QStringLiteral("node"), text,
                                            diagram->fontMetrics().horizontalAdvance(text), slot)));
    };
    auto verifyPane = [&](const QByteArray& resource) {
        window->lockView()->selectResource(resource);
        QCOMPARE(window->lockView()->currentResource(), resource);
        QApplication::processEvents(); // the layout settles
        const QFontMetrics fm = perMaster->fontMetrics();
        verifyHeaders();
        QCOMPARE(perMaster->rowCount(), 5);
        for (int m = 0; m < 5; ++m) {
            QTableWidgetItem* item = perMaster->item(m, LockDetailPane::MasterColumn);
            QCOMPARE(item->text(), QStringLiteral("M%1").arg(m + 1));
            const QString url = window->masterModel()->snapshot(m).name;
            QVERIFY(url.startsWith(QStringLiteral("redis://")));
            QCOMPARE(item->data(Qt::ToolTipRole).toString(), url);
        }
        for (int c = 0; c < LockDetailPane::ColumnCount; ++c) {
            if (perMaster->isColumnHidden(c))
                continue;
            // (Its header fits: verifyHeaders above.)
            // Long by nature: shortened, whole in the tooltip. A master's error is one of them:
            // its wording is the network's ("Connection refused" or, while the server is still
            // going, "The remote host closed the connection"), and the last column only has what
            // the pane's width leaves it.
            if (c == LockDetailPane::TokenColumn || c == LockDetailPane::OwnerColumn ||
                c == LockDetailPane::SemaphoreColumn || c == LockDetailPane::ErrorColumn) {
                for (int m = 0; m < 5; ++m) {
                    const QTableWidgetItem* item = perMaster->item(m, c);
                    // (An owner's tooltip goes on with the lock's details.)
                    QVERIFY2(item->toolTip().startsWith(item->text()), qPrintable(item->toolTip()));
                }
                continue;
            }
            const int width = perMaster->columnWidth(c);
            for (int m = 0; m < 5; ++m) {
                const QString text = perMaster->item(m, c)->text();
                QVERIFY2(fm.horizontalAdvance(text) <= textRoom(perMaster, width),
                         qPrintable(fitText(QStringLiteral("pane cell"), text, fm.horizontalAdvance(text),
                                            textRoom(perMaster, width))));
            }
        }
        // The validity is never broken between the number and its unit: one line, whole.
        const QLabel* validity = pane->validityLabel();
        QVERIFY(!validity->wordWrap());
        QVERIFY(!validity->text().isEmpty());
        QVERIFY(validity->text().contains(pane->validityText()));
        const int validityWidth = validity->fontMetrics().horizontalAdvance(validity->text());
        QVERIFY2(validityWidth <= validity->contentsRect().width(),
                 qPrintable(fitText(QStringLiteral("validity"), validity->text(), validityWidth,
                                    validity->contentsRect().width())));
        // The diagram's verdict and every node's texts, unclipped: at the default size, and with
        // the diagram as narrow as the pane's splitter lets it be (as beside the demo panel).
        verifyDiagram();
        auto* inner = pane->findChild<QSplitter*>(QStringLiteral("detailSplit"));
        QVERIFY(inner);
        const QList<int> sizes = inner->sizes();
        inner->setSizes({1, sizes.at(0) + sizes.at(1) - 1});
        QVERIFY(diagram->width() < sizes.at(0));
        verifyDiagram();
        inner->setSizes(sizes);
    };
    verifyPane("lock:orders:checkout");
    verifyPane("lock:cache:rebuild");
    verifyPane("semaphore:db-pool");
    QVERIFY(!perMaster->isColumnHidden(LockDetailPane::SemaphoreColumn));
    verifyPane("lock:{accounts}");
    verifyPane("lock:migrations");

    // A master that cannot be reached: "unreachable" in the diagram, the error in the table.
    m_group->at(4).stop();
    QTRY_VERIFY_WITH_TIMEOUT(window->masterModel()->upCount() == 4, 5000);
    window->lockView()->selectResource("lock:reports:nightly");
    QTRY_COMPARE_WITH_TIMEOUT(diagram->nodeText(4), QStringLiteral("unreachable"), 5000);
    verifyPane("lock:reports:nightly");
}

void TestUiWindowLayout::narrowDetailPaneStacksItsParts()
{
    MainWindow* window = openWindow();
    QVERIFY(window);
    QTRY_COMPARE_WITH_TIMEOUT(window->lockModel()->rowCount(), 36, 5000);
    QTRY_COMPARE_WITH_TIMEOUT(window->masterModel()->upCount(), 5, 5000);
    QStringList names;
    for (int m = 0; m < 5; ++m)
        names << window->masterModel()->snapshot(m).name;
    // As wide as beside the demo panel at the default size: the diagram goes above the table, and
    // neither is squeezed until its texts are cut.
    LockDetailPane pane;
    pane.setMasterNames(names);
    pane.resize(690, 400);
    pane.show();
    QVERIFY(QTest::qWaitForWindowExposed(&pane));
    for (const QByteArray& resource : {QByteArray("semaphore:db-pool"), QByteArray("lock:{accounts}"),
                                       QByteArray("lock:orders:checkout")}) {
        pane.setView(*window->lockModel()->find(resource));
        QApplication::processEvents();
        // Nothing to scroll sideways for: not the pane, not its table.
        const auto* scroll = pane.findChild<QScrollArea*>(QStringLiteral("detailScroll"));
        QVERIFY(scroll);
        QVERIFY2(scroll->horizontalScrollBar()->maximum() == 0,
                 qPrintable(QStringLiteral("%1: the pane scrolls %2 px sideways")
                                .arg(QString::fromUtf8(resource))
                                .arg(scroll->horizontalScrollBar()->maximum())));
        QTableWidget* perMaster = pane.mastersTable();
        QVERIFY2(perMaster->horizontalScrollBar()->maximum() == 0,
                 qPrintable(QStringLiteral("%1: %2 px to scroll")
                                .arg(QString::fromUtf8(resource))
                                .arg(perMaster->horizontalScrollBar()->maximum())));
        for (int c = 0; c < LockDetailPane::ColumnCount; ++c)
            if (!perMaster->isColumnHidden(c))
                QVERIFY2(perMaster->columnWidth(c) >= perMaster->horizontalHeader()->sectionSizeHint(c),
                         qPrintable(perMaster->horizontalHeaderItem(c)->text()));
        QuorumDiagram* diagram = pane.diagram();
        QFont bold = diagram->font();
        bold.setBold(true);
        const QStringList title = diagram->titleLines();
        for (int i = 0; i < title.size(); ++i)
            QVERIFY2(QFontMetrics(i == 0 ? bold : diagram->font()).horizontalAdvance(title.at(i)) <=
                         diagram->width() - int(2 * QuorumDiagram::margin),
                     qPrintable(title.at(i)));
        for (int m = 0; m < 5; ++m)
            QVERIFY(diagram->fontMetrics().horizontalAdvance(diagram->nodeText(m)) <=
                    int(diagram->slotWidth()) - 4);
    }
}

LOCKSCOPE_TEST_MAIN_ON_SCREEN(TestUiWindowLayout, screenSize)

} // namespace tst_uiwindowlayout

#include "tst_uiwindowlayout.moc"
