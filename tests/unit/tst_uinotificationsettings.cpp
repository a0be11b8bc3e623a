// SPDX-License-Identifier: Apache-2.0
#include "connections/profilestore.h"
#include "support/testregistry.h"

#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

namespace tst_uinotificationsettings {

using namespace lockscope;

// The notification rules live in each connection profile (docs/manual/stuck-locks.md, "Notifications").
class TestUiNotificationSettings : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void rulesRoundTripPerProfile();
    void profileWithoutRulesGetsTheDefaults();

private:
    QTemporaryDir m_dir;
};

void TestUiNotificationSettings::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, m_dir.path());
    QCoreApplication::setOrganizationName(QStringLiteral("LockScopeTests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_uinotificationsettings"));
    QSettings().clear();
}

void TestUiNotificationSettings::rulesRoundTripPerProfile()
{
    ConnectionProfile quiet;
    quiet.name = QStringLiteral("quiet");
    MasterEntry master;
    master.url = QStringLiteral("redis://127.0.0.1:6379");
    quiet.masters << master;
    quiet.notifications.rule(NotificationRule::MasterDown).enabled = false;
    quiet.notifications.rule(NotificationRule::Stuck).afterMs = 90'000;
    quiet.notifications.heldTooLongFactor = 4;
    ConnectionProfile loud = quiet;
    loud.name = QStringLiteral("loud");
    loud.notifications = NotificationRules();
    ProfileStore::save({quiet, loud});

    const QList<ConnectionProfile> loaded = ProfileStore::load();
    QCOMPARE(loaded.size(), 2);
    QCOMPARE(loaded.at(0).notifications, quiet.notifications);
    QCOMPARE(loaded.at(1).notifications, NotificationRules());
    QSettings settings;
    QCOMPARE(settings.value(QStringLiteral("profiles/1/notifications/master-down/enabled")).toBool(), false);
    QCOMPARE(settings.value(QStringLiteral("profiles/1/notifications/stuck/afterSeconds")).toDouble(), 90.0);
}

void TestUiNotificationSettings::profileWithoutRulesGetsTheDefaults()
{
    QSettings settings;
    settings.clear();
    settings.beginWriteArray(QStringLiteral("profiles"), 1);
    settings.setArrayIndex(0);
    settings.setValue(QStringLiteral("name"), QStringLiteral("old"));
    settings.endArray();
    settings.sync();
    const QList<ConnectionProfile> loaded = ProfileStore::load();
    QCOMPARE(loaded.size(), 1);
    QCOMPARE(loaded.at(0).notifications, NotificationRules());
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestUiNotificationSettings)

} // namespace tst_uinotificationsettings

#include "tst_uinotificationsettings.moc"
