// SPDX-License-Identifier: Apache-2.0
// The window's settings file is where the XDG rules and docs/manual/configuration.md say, and an older
// file moves there.
#include "session/settingslocation.h"
#include "support/testregistry.h"

#include <QDir>
#include <QFile>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

namespace tst_uisettingslocation {

using namespace lockscope;

class TestUiSettingsLocation : public QObject
{
    Q_OBJECT

private slots:
    void settingsLiveInXdgConfigHomeLockscope();
    void anOlderFileIsMovedOnce();
    void aNewerFileIsNeverOverwritten();
};

namespace {

bool writeFile(const QString& path, const QByteArray& content)
{
    QDir().mkpath(QFileInfo(path).path());
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(content) == content.size();
}

QByteArray readFile(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

void TestUiSettingsLocation::settingsLiveInXdgConfigHomeLockscope()
{
    // A configuration home of this run's own: nothing left over from an earlier run counts.
    QTemporaryDir configHome;
    QVERIFY(configHome.isValid());
    const QByteArray home = QFile::encodeName(configHome.path());
    qputenv("XDG_CONFIG_HOME", home);
    // An older file, as a release before this one left it.
    const QString oldPath = QFile::decodeName(home) + QStringLiteral("/LockScope/lockscope.conf");
    QVERIFY(writeFile(oldPath, "[profiles]\nsize=0\n"));
    SettingsLocation::apply();
    const QString expected = QFile::decodeName(home) + QStringLiteral("/lockscope/lockscope.conf");
    QCOMPARE(SettingsLocation::filePath(), expected);
    QCOMPARE(QSettings().fileName(), expected);
    QVERIFY2(!QFile::exists(oldPath), "the older file was not moved");
    QCOMPARE(readFile(expected), QByteArray("[profiles]\nsize=0\n"));
    QCOMPARE(QFileInfo(QFileInfo(expected).path()).permissions() & (QFile::ReadOther | QFile::ReadGroup),
             QFile::Permissions());
    QSettings().setValue(QStringLiteral("window/probe"), 1);
    QSettings().sync();
    QVERIFY(readFile(expected).contains("probe"));
}

void TestUiSettingsLocation::anOlderFileIsMovedOnce()
{
    QTemporaryDir home;
    QVERIFY(writeFile(home.filePath(QStringLiteral("LockScope/lockscope.conf")), "old"));
    QVERIFY(writeFile(home.filePath(QStringLiteral("LockScope/other.txt")), "keep"));
    QVERIFY(SettingsLocation::migrate(home.path()));
    QCOMPARE(readFile(home.filePath(QStringLiteral("lockscope/lockscope.conf"))), QByteArray("old"));
    QVERIFY(!QFile::exists(home.filePath(QStringLiteral("LockScope/lockscope.conf"))));
    // Whatever else was in the old directory stays with it.
    QCOMPARE(readFile(home.filePath(QStringLiteral("LockScope/other.txt"))), QByteArray("keep"));
    QVERIFY(SettingsLocation::migrate(home.path())); // nothing left to do
}

void TestUiSettingsLocation::aNewerFileIsNeverOverwritten()
{
    QTemporaryDir home;
    QVERIFY(writeFile(home.filePath(QStringLiteral("LockScope/lockscope.conf")), "old"));
    QVERIFY(writeFile(home.filePath(QStringLiteral("lockscope/lockscope.conf")), "new"));
    QVERIFY(SettingsLocation::migrate(home.path()));
    QCOMPARE(readFile(home.filePath(QStringLiteral("lockscope/lockscope.conf"))), QByteArray("new"));
    QCOMPARE(readFile(home.filePath(QStringLiteral("LockScope/lockscope.conf"))), QByteArray("old"));
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestUiSettingsLocation)

} // namespace tst_uisettingslocation

#include "tst_uisettingslocation.moc"
