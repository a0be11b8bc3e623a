// SPDX-License-Identifier: Apache-2.0
// lockctl's colour (#17): list and watch colour their status words when stdout is a terminal, not
// when NO_COLOR is set, TERM is dumb or stdout is a pipe; --color=always|never|auto decides over
// that. The colour never lets a server's bytes through: they stay escaped, and without the colour
// codes the output is the uncoloured one.
#include "support/lockctlrun.h"
#include "support/rawtext.h"
#include "support/redisserver.h"
#include "support/testregistry.h"

#include <QProcess>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTest>

namespace tst_lockctlcolor {

using namespace lockscope;
using namespace lockscope::test;

namespace {

const QByteArray held = "\x1b[32mheld\x1b[0m";
const QByteArray stuck = "\x1b[31mstuck\x1b[0m";

// The output without lockctl's own SGR sequences (ESC [ digits and ; m).
QByteArray withoutColour(QByteArray out)
{
    static const QRegularExpression sgr(QStringLiteral("\x1b\\[[0-9;]*m"));
    return QString::fromUtf8(out).remove(sgr).toUtf8();
}

} // namespace

class TestLockctlColor : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void pipeHasNoColour();
    void alwaysColoursStatusWordsOnly();
    void terminalColoursUnlessNoColorOrDumb();
    void badWhenIsAUsageError();
    void watchColoursItsLines();

private:
    QStringList listArgs(const QStringList& extra) const;
    QProcessEnvironment environment(const char* name = nullptr, const QByteArray& value = {}) const;

    RedisServer m_server;
};

void TestLockctlColor::initTestCase()
{
    QVERIFY2(m_server.start(), qPrintable(m_server.errorString()));
    // Ten days and half an hour: its validity reads "10 d 0 h" for half an hour, so that two listings
    // a few seconds apart (slower under a sanitizer) print the same table.
    QCOMPARE(
        m_server.command({"SET", "lock:held", "0123456789abcdef0123456789abcdef", "PX", "865800000"}).string,
        QByteArray("OK"));
    QCOMPARE(m_server.command({"SET", hostileKey, hostileToken}).string, QByteArray("OK")); // stuck
}

QStringList TestLockctlColor::listArgs(const QStringList& extra) const
{
    return testPasswordArgs() << QStringLiteral("-m") << m_server.url(false) << QStringLiteral("list")
                              << extra;
}

QProcessEnvironment TestLockctlColor::environment(const char* name, const QByteArray& value) const
{
    QProcessEnvironment env = testPasswordEnvironment();
    env.remove(QStringLiteral("NO_COLOR"));
    env.insert(QStringLiteral("TERM"), QStringLiteral("xterm-256color"));
    if (name)
        env.insert(QLatin1String(name), QString::fromUtf8(value));
    return env;
}

void TestLockctlColor::pipeHasNoColour()
{
    for (const QStringList& extra : {QStringList{}, QStringList{QStringLiteral("--color=auto")},
                                     QStringList{QStringLiteral("--color"), QStringLiteral("never")}}) {
        const LockctlRun run = runLockctl(listArgs(extra), 30000, environment());
        QVERIFY2(run.code == 0, qPrintable(run.describe()));
        QVERIFY2(run.out.contains("held") && !run.out.contains('\x1b'), qPrintable(run.describe()));
    }
    // JSON is for programs: never coloured.
    const LockctlRun json =
        runLockctl(QStringList{QStringLiteral("--json")} + listArgs({QStringLiteral("--color=always")}),
                   30000, environment());
    QVERIFY2(json.code == 0 && !json.out.contains("\x1b["), qPrintable(json.describe()));
}

void TestLockctlColor::alwaysColoursStatusWordsOnly()
{
    const LockctlRun plain = runLockctl(listArgs({QStringLiteral("--color=never")}), 30000, environment());
    QVERIFY2(plain.code == 0, qPrintable(plain.describe()));
    // --color=always wins over NO_COLOR (no-color.org: an explicit option overrides it).
    const LockctlRun coloured =
        runLockctl(listArgs({QStringLiteral("--color=always")}), 30000, environment("NO_COLOR", "1"));
    QVERIFY2(coloured.code == 0, qPrintable(coloured.describe()));
    QVERIFY2(coloured.out.contains(held) && coloured.out.contains(stuck), qPrintable(coloured.describe()));
    // The same table once the colour codes are gone: the columns stay aligned, and the hostile
    // key's ESC, CR, BEL and NUL are still printed escaped.
    QCOMPARE(withoutColour(coloured.out), plain.out);
    QVERIFY2(rawTextIn(withoutColour(coloured.out)).isEmpty(),
             qPrintable(rawTextIn(withoutColour(coloured.out))));
}

void TestLockctlColor::terminalColoursUnlessNoColorOrDumb()
{
    const LockctlRun tty = runOnTerminal(lockctlPath(), listArgs({}), environment());
    QVERIFY2(tty.code == 0, qPrintable(tty.describe()));
    QVERIFY2(tty.out.contains(held) && tty.out.contains(stuck), qPrintable(tty.describe()));

    for (const auto& [name, value] :
         {std::pair<const char*, QByteArray>{"NO_COLOR", "1"}, {"TERM", "dumb"}}) {
        const LockctlRun run = runOnTerminal(lockctlPath(), listArgs({}), environment(name, value));
        QVERIFY2(run.code == 0 && run.out.contains("held"), qPrintable(run.describe()));
        QVERIFY2(!run.out.contains("\x1b["),
                 qPrintable(QLatin1String(name) + QLatin1Char(' ') + run.describe()));
    }
    // An empty NO_COLOR does not count (no-color.org).
    const LockctlRun empty = runOnTerminal(lockctlPath(), listArgs({}), environment("NO_COLOR", ""));
    QVERIFY2(empty.out.contains(held), qPrintable(empty.describe()));
    const LockctlRun never =
        runOnTerminal(lockctlPath(), listArgs({QStringLiteral("--color=never")}), environment());
    QVERIFY2(never.code == 0 && !never.out.contains("\x1b["), qPrintable(never.describe()));
}

void TestLockctlColor::badWhenIsAUsageError()
{
    const LockctlRun run = runLockctl(listArgs({QStringLiteral("--color=sometimes")}), 30000, environment());
    QVERIFY2(run.code == 2, qPrintable(run.describe()));
    QVERIFY2(run.err.contains("--color takes auto, always or never"), qPrintable(run.describe()));
    // Only the commands that colour take it.
    const LockctlRun acquire = runLockctl(
        testPasswordArgs() << QStringLiteral("-m") << m_server.url(false) << QStringLiteral("acquire")
                           << QStringLiteral("lock:x") << QStringLiteral("--ttl") << QStringLiteral("1000")
                           << QStringLiteral("--color=always"),
        30000, environment());
    QVERIFY2(acquire.code == 2 && acquire.err.contains("does not apply"), qPrintable(acquire.describe()));
}

void TestLockctlColor::watchColoursItsLines()
{
    QProcess watch;
    watch.setProcessEnvironment(environment());
    watch.start(lockctlPath(), testPasswordArgs()
                                   << QStringLiteral("-m") << m_server.url(false) << QStringLiteral("watch")
                                   << QStringLiteral("--color=always"));
    QByteArray out;
    QTRY_VERIFY2_WITH_TIMEOUT((out += watch.readAllStandardOutput()).contains(held) && out.contains(stuck),
                              out.constData(), 20000);
    QVERIFY2(out.contains("  master ") && out.contains("\x1b[32mup\x1b[0m"), out.constData());
    QVERIFY2(rawTextIn(withoutColour(out)).isEmpty(), qPrintable(rawTextIn(withoutColour(out))));
    watch.terminate(); // SIGTERM: watch ends cleanly
    QVERIFY(watch.waitForFinished(int(lockscope::test::upperBoundMs(10000))));
    QCOMPARE(watch.exitCode(), 0);
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestLockctlColor)

} // namespace tst_lockctlcolor

#include "tst_lockctlcolor.moc"
