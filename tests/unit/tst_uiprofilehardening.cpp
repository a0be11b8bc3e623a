// SPDX-License-Identifier: Apache-2.0
// A connection profile can be locked read-only: the window can set the lock but never clear it,
// neither through the Connections dialog nor by saving profiles, and a locked profile always
// becomes a read-only configuration for the core. Profiles never hold a password in clear text.
#include "connections/connectionsdialog.h"
#include "connections/profilestore.h"
#include "support/testregistry.h"
#include "support/testsettings.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QPushButton>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

namespace tst_uiprofilehardening {

using namespace lockscope;

namespace {

ConnectionProfile profile(const QString& name, bool readOnly, bool locked)
{
    ConnectionProfile p;
    p.name = name;
    p.readOnly = readOnly;
    p.readOnlyLocked = locked;
    MasterEntry e;
    e.url = QStringLiteral("redis://127.0.0.1:6379");
    e.passwordEnv = QStringLiteral("SOME_PASSWORD");
    p.masters << e;
    return p;
}

QCheckBox* checkBox(QWidget& parent, const QString& textPart)
{
    for (QCheckBox* box : parent.findChildren<QCheckBox*>())
        if (box->text().contains(textPart))
            return box;
    return nullptr;
}

} // namespace

class TestUiProfileHardening : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void lockSurvivesEverySave();
    void lockedProfileIsReadOnlyForTheCore();
    void dialogCannotUnlock();
    void dialogCanLockButNotBack();
    void settingsHoldNoPassword();
    void lockSaysExactlyWhatItBinds();

private:
    QTemporaryDir m_dir;
};

void TestUiProfileHardening::init()
{
    QVERIFY(m_dir.isValid());
    test::useTestSettings(m_dir.path(), QStringLiteral("tst_uiprofilehardening"));
}

void TestUiProfileHardening::lockSurvivesEverySave()
{
    ProfileStore::save(
        {profile(QStringLiteral("prod"), true, true), profile(QStringLiteral("dev"), false, false)});
    QList<ConnectionProfile> loaded = ProfileStore::load();
    QCOMPARE(loaded.size(), 2);
    QVERIFY(loaded.at(0).readOnlyLocked);
    QVERIFY(loaded.at(0).readOnly);
    QVERIFY(!loaded.at(1).readOnly);

    // The window tries to clear it (as a stale or tampered in-memory copy would): the store keeps it.
    loaded[0].readOnly = false;
    loaded[0].readOnlyLocked = false;
    loaded[1].readOnly = true; // an ordinary flag follows what is saved
    ProfileStore::save(loaded);
    const QList<ConnectionProfile> again = ProfileStore::load();
    QVERIFY(again.at(0).readOnlyLocked);
    QVERIFY(again.at(0).readOnly);
    QVERIFY(again.at(1).readOnly);
    QVERIFY(!again.at(1).readOnlyLocked);
}

void TestUiProfileHardening::lockedProfileIsReadOnlyForTheCore()
{
    ConnectionProfile p = profile(QStringLiteral("prod"), false, true); // locked without the plain flag
    Result<LockScopeConfig> config = ProfileStore::toConfig(p, {});
    QVERIFY(config);
    QVERIFY(config->readOnly);
    p.readOnlyLocked = false;
    config = ProfileStore::toConfig(p, {});
    QVERIFY(config);
    QVERIFY(!config->readOnly);
}

void TestUiProfileHardening::dialogCannotUnlock()
{
    ProfileStore::save({profile(QStringLiteral("prod"), true, true)});
    ConnectionsDialog dialog;
    QCheckBox* readOnly = checkBox(dialog, QStringLiteral("Read-only"));
    QCheckBox* lock = checkBox(dialog, QStringLiteral("Lock read-only"));
    QVERIFY(readOnly && lock);
    QVERIFY(readOnly->isChecked());
    QVERIFY(!readOnly->isEnabled());
    QVERIFY(lock->isChecked());
    QVERIFY(!lock->isEnabled());
    for (QPushButton* b : dialog.findChildren<QPushButton*>())
        if (b->text().contains(QStringLiteral("Delete profile")))
            QVERIFY(!b->isEnabled());
    // Even a programmatic toggle (a disabled box can still be set from code) changes nothing.
    readOnly->setChecked(false);
    lock->setChecked(false);
    QVERIFY(readOnly->isChecked());
    QVERIFY(ProfileStore::load().at(0).readOnlyLocked);
    QVERIFY(ProfileStore::load().at(0).readOnly);
}

void TestUiProfileHardening::dialogCanLockButNotBack()
{
    ProfileStore::save({profile(QStringLiteral("stage"), false, false)});
    ConnectionsDialog dialog;
    QCheckBox* readOnly = checkBox(dialog, QStringLiteral("Read-only"));
    QCheckBox* lock = checkBox(dialog, QStringLiteral("Lock read-only"));
    QVERIFY(readOnly && lock);
    QVERIFY(readOnly->isEnabled() && !readOnly->isChecked());
    readOnly->setChecked(true);
    QVERIFY(ProfileStore::load().at(0).readOnly);
    readOnly->setChecked(false); // plain read-only can be turned off again
    QVERIFY(!ProfileStore::load().at(0).readOnly);
    lock->setChecked(true);
    QVERIFY(ProfileStore::load().at(0).readOnlyLocked);
    QVERIFY(ProfileStore::load().at(0).readOnly);
    QVERIFY(readOnly->isChecked());
    QVERIFY(!readOnly->isEnabled());
    QVERIFY(!lock->isEnabled());
}

void TestUiProfileHardening::settingsHoldNoPassword()
{
    ConnectionProfile p = profile(QStringLiteral("prod"), false, false);
    ProfileStore::save({p});
    Result<LockScopeConfig> config =
        ProfileStore::toConfig(p, {{p.masters.at(0).url, QStringLiteral("Kc-3f9-distinctive-pw")}});
    QVERIFY(config);
    QCOMPARE(config->masters.at(0).url.password(), QStringLiteral("Kc-3f9-distinctive-pw"));
    ProfileStore::save({p});
    QSettings settings;
    settings.sync();
    QFile file(settings.fileName());
    QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(settings.fileName()));
    const QByteArray bytes = file.readAll();
    QVERIFY(bytes.contains("SOME_PASSWORD"));          // the variable's name is kept ...
    QVERIFY(!bytes.contains("Kc-3f9-distinctive-pw")); // ... never a password
}

void TestUiProfileHardening::lockSaysExactlyWhatItBinds()
{
    ProfileStore::save(
        {profile(QStringLiteral("stage"), false, false), profile(QStringLiteral("prod"), true, true)});
    ConnectionsDialog dialog;
    QCheckBox* readOnly = checkBox(dialog, QStringLiteral("Read-only"));
    QCheckBox* lock = checkBox(dialog, QStringLiteral("Lock read-only"));
    QVERIFY(readOnly && lock);
    // What the lock binds (each of these is what LaunchConfig and ProfileStore enforce), and what not.
    const QString tip = lock->toolTip();
    for (const QString& part :
         {QStringLiteral("every window opened on this profile is read-only"),
          QStringLiteral("until LockScope quits"), QStringLiteral("another profile is chosen later"),
          QStringLiteral("cannot clear the lock or delete the profile"), QStringLiteral("other profiles"),
          QStringLiteral("lockctl"), QSettings().fileName()})
        QVERIFY2(tip.contains(part), qPrintable(part + QStringLiteral(" not in: ") + tip));
    QVERIFY(!lock->text().contains(QStringLiteral("this window"))); // it binds the process, not one window
    auto* profiles = dialog.findChild<QComboBox*>();
    profiles->setCurrentIndex(1);
    QCOMPARE(readOnly->toolTip(), tip); // the locked profile's disabled box says the same
}

LOCKSCOPE_TEST_MAIN(TestUiProfileHardening)

} // namespace tst_uiprofilehardening

#include "tst_uiprofilehardening.moc"
