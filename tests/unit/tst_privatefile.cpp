// SPDX-License-Identifier: Apache-2.0
#include "base/privatefile.h"
#include "support/testregistry.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

namespace tst_privatefile {

using namespace lockscope;

namespace {

uint modeOf(const QString& path)
{
    struct stat info = {};
    return ::stat(QFile::encodeName(path).constData(), &info) == 0 ? uint(info.st_mode & 07777) : 0xffffu;
}

} // namespace

class TestPrivateFile : public QObject
{
    Q_OBJECT

private slots:
    void anExportIsTheOwnersOnly();
    void aFileOthersCouldReadIsReplacedByAPrivateOne();
    void aDirectoryThatIsNotThereFailsWithAReason();
};

void TestPrivateFile::anExportIsTheOwnersOnly()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("locks.csv"));
    QString error;
    QVERIFY2(PrivateFile::saveOwnerOnly(path, "resource,token\nlock:a,tok-a\n", &error), qPrintable(error));
    QCOMPARE(modeOf(path), 0600u);
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll(), QByteArray("resource,token\nlock:a,tok-a\n"));
}

void TestPrivateFile::aFileOthersCouldReadIsReplacedByAPrivateOne()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("locks.json"));
    {
        QFile old(path);
        QVERIFY(old.open(QIODevice::WriteOnly));
        old.write("old");
    }
    QVERIFY(::chmod(QFile::encodeName(path).constData(), 0644) == 0);
    QString error;
    QVERIFY2(PrivateFile::saveOwnerOnly(path, "{}", &error), qPrintable(error));
    QCOMPARE(modeOf(path), 0600u);
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll(), QByteArray("{}"));
}

void TestPrivateFile::aDirectoryThatIsNotThereFailsWithAReason()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QString error;
    QVERIFY(!PrivateFile::saveOwnerOnly(dir.filePath(QStringLiteral("missing/locks.csv")), "x", &error));
    QVERIFY(!error.isEmpty());
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestPrivateFile)

} // namespace tst_privatefile

#include "tst_privatefile.moc"
