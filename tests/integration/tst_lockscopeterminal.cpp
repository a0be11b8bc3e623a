// SPDX-License-Identifier: Apache-2.0
#include "support/testregistry.h"

#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QTest>

namespace tst_lockscopeterminal {

namespace {

struct Outcome
{
    QProcess::ExitStatus status = QProcess::CrashExit;
    int code = -1;
    QString output; // standard output and error together
};

// The window's program as a terminal runs it over ssh: no display of any kind.
Outcome runWithoutDisplay(const QStringList& arguments)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const char* name : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"})
        env.remove(QString::fromLatin1(name));
    QProcess process;
    process.setProcessEnvironment(env);
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.start(QString::fromLocal8Bit(qgetenv("LOCKSCOPE_BINARY_DIR")) + QStringLiteral("/app/lockscope"),
                  arguments);
    if (!process.waitForFinished(int(lockscope::test::upperBoundMs(20000))))
        process.kill();
    process.waitForFinished();
    return {process.exitStatus(), process.exitCode(), QString::fromLocal8Bit(process.readAll())};
}

} // namespace

class TestLockscopeTerminal : public QObject
{
    Q_OBJECT

private slots:
    void versionAndHelpNeedNoDisplay_data();
    void versionAndHelpNeedNoDisplay();
    void aMistakeWithHelpSaysSoWithoutADisplay();
};

void TestLockscopeTerminal::versionAndHelpNeedNoDisplay_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("expected");
    const QString version = QStringLiteral("(?m)^lockscope [0-9]+\\.[0-9]+");
    QTest::newRow("--version") << QStringList{QStringLiteral("--version")} << version;
    QTest::newRow("-v") << QStringList{QStringLiteral("-v")} << version;
    QTest::newRow("--help") << QStringList{QStringLiteral("--help")} << QStringLiteral("(?m)^Usage: ");
    QTest::newRow("--demo --help") << QStringList{QStringLiteral("--demo"), QStringLiteral("--help")}
                                   << QStringLiteral("--read-only");
}

void TestLockscopeTerminal::versionAndHelpNeedNoDisplay()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, expected);
    const Outcome outcome = runWithoutDisplay(arguments);
    QCOMPARE(outcome.status, QProcess::NormalExit);
    QVERIFY2(outcome.code == 0, qPrintable(outcome.output));
    QVERIFY2(outcome.output.contains(QRegularExpression(expected)), qPrintable(outcome.output));
}

void TestLockscopeTerminal::aMistakeWithHelpSaysSoWithoutADisplay()
{
    const Outcome outcome = runWithoutDisplay({QStringLiteral("--no-such-option"), QStringLiteral("--help")});
    QCOMPARE(outcome.status, QProcess::NormalExit);
    QVERIFY2(outcome.code == 2, qPrintable(outcome.output));
    QVERIFY2(outcome.output.contains(QStringLiteral("no-such-option")), qPrintable(outcome.output));
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestLockscopeTerminal)

} // namespace tst_lockscopeterminal

#include "tst_lockscopeterminal.moc"
