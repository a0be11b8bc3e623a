// SPDX-License-Identifier: Apache-2.0
// The example configurations the package installs (/usr/share/doc/lockscope/examples, from
// resources/examples): each one loads without an error or a warning, keeps passwords out of the
// file, and is described in the examples' README.
#include "config/configloader.h"
#include "support/testpaths.h"
#include "support/testregistry.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QTest>

namespace tst_configexamples {

using namespace lockscope;

namespace {

const QString examples = test::sourcePath(QStringLiteral("resources/examples"));

} // namespace

class TestConfigExamples : public QObject
{
    Q_OBJECT

private slots:
    void eachExampleLoadsCleanly_data();
    void eachExampleLoadsCleanly();
};

void TestConfigExamples::eachExampleLoadsCleanly_data()
{
    QTest::addColumn<QString>("file");
    const QStringList files = QDir(examples).entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
    QVERIFY2(files.size() >= 4, qPrintable(files.join(' ')));
    for (const QString& f : files)
        QTest::newRow(qPrintable(f)) << f;
}

void TestConfigExamples::eachExampleLoadsCleanly()
{
    QFETCH(QString, file);
    QFile raw(examples + QLatin1Char('/') + file);
    QVERIFY(raw.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(raw.readAll());
    // The user sets the variables each master names before starting lockctl; so does the test.
    const QRegularExpression passwordEnv(
        QStringLiteral("\"passwordEnv\"\\s*:\\s*\"([A-Za-z_][A-Za-z0-9_]*)\""));
    QStringList variables;
    for (auto it = passwordEnv.globalMatch(text); it.hasNext();)
        variables << it.next().captured(1);
    QVERIFY2(!variables.isEmpty(), qPrintable(file + QLatin1String(": no passwordEnv")));
    const QByteArray secret = "example-secret-from-the-environment";
    for (const QString& v : variables)
        qputenv(v.toLatin1().constData(), secret);

    QStringList warnings;
    const Result<LockScopeConfig> config =
        ConfigLoader::fromFile(examples + QLatin1Char('/') + file, &warnings);
    for (const QString& v : variables)
        qunsetenv(v.toLatin1().constData());
    QVERIFY2(config, config ? "" : qPrintable(config.error().message));
    QVERIFY2(warnings.isEmpty(), qPrintable(warnings.join('\n')));
    QVERIFY(!config->masters.isEmpty());
    // Every master's password comes from the environment, none from the file.
    for (const ConnectionOptions& master : config->masters)
        QCOMPARE(master.url.password(), QString::fromLatin1(secret));

    QFile readme(examples + QStringLiteral("/README"));
    QVERIFY(readme.open(QIODevice::ReadOnly));
    QVERIFY2(readme.readAll().contains(file.toUtf8()),
             qPrintable(file + QLatin1String(" is not in the README")));
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestConfigExamples)

} // namespace tst_configexamples

#include "tst_configexamples.moc"
