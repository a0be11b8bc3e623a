// SPDX-License-Identifier: Apache-2.0
#include "masters/mastertablemodel.h"
#include "support/redisservergroup.h"
#include "support/testregistry.h"
#include "window/mainwindow.h"

#include <QApplication>
#include <QTemporaryDir>
#include <QTest>

namespace tst_uiwindowtitle {

using namespace lockscope;
using namespace lockscope::test;

namespace {

// What the title bar shows: Qt appends the application's display name to a window title that does
// not already end with it (QPlatformWindow::formatWindowTitle, on X11, Wayland and Windows).
QString shownTitle(const QWidget& window)
{
    const QString title = window.windowTitle();
    const QString app = QGuiApplication::applicationDisplayName();
    if (app.isEmpty() || title.endsWith(app))
        return title;
    return title.isEmpty() ? app : title + QStringLiteral(" — ") + app;
}

} // namespace

// Issue #20: the title names the profile once, and the application once.
class TestUiWindowTitle : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void namesTheProfileOnce_data();
    void namesTheProfileOnce();

private:
    QTemporaryDir m_dir;
};

void TestUiWindowTitle::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QCoreApplication::setOrganizationName(QStringLiteral("LockScopeTests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_uiwindowtitle"));
    // As app/lockscope/main.cpp sets it.
    QGuiApplication::setApplicationDisplayName(QStringLiteral("LockScope"));
}

void TestUiWindowTitle::namesTheProfileOnce_data()
{
    QTest::addColumn<QString>("profile");
    QTest::addColumn<bool>("readOnly");
    QTest::addColumn<QString>("expected");
    QTest::newRow("profile") << "production-eu" << false << "production-eu (3 masters) — LockScope";
    QTest::newRow("read-only profile")
        << "production-eu" << true << "production-eu (3 masters, read-only) — LockScope";
    QTest::newRow("masters from the command line") << "" << false << "3 masters — LockScope";
}

void TestUiWindowTitle::namesTheProfileOnce()
{
    QFETCH(QString, profile);
    QFETCH(bool, readOnly);
    QFETCH(QString, expected);
    RedisServerGroup group;
    QVERIFY2(group.start(3), qPrintable(group.errorString()));
    LockScopeConfig config;
    config.masters = group.connectionOptions(1000);
    config.readOnly = readOnly;
    MainWindow window(config, m_dir.filePath(QStringLiteral("audit.jsonl")));
    window.setProfileName(profile);
    window.show();
    QTRY_COMPARE_WITH_TIMEOUT(window.masterModel()->upCount(), 3, 5000);
    const QString shown = shownTitle(window);
    QCOMPARE(shown, expected);
    QCOMPARE(shown.count(QStringLiteral("LockScope")), 1);
    if (!profile.isEmpty())
        QCOMPARE(shown.count(profile), 1);
    QVERIFY(!shown.contains(QStringLiteral("[*]")));
}

LOCKSCOPE_TEST_MAIN(TestUiWindowTitle)

} // namespace tst_uiwindowtitle

#include "tst_uiwindowtitle.moc"
