// SPDX-License-Identifier: Apache-2.0
// `lockscope --demo` leaves no redis-server behind when the app is killed outright (SIGKILL, SIGTERM):
// no destructor runs, the servers' parent-death signal does the work. The app runs offscreen; its
// servers are found as its children in /proc.
#include "support/blockingcommand.h"
#include "support/testregistry.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

namespace tst_demoappkill {

namespace {

struct ProcStat
{
    qint64 ppid = 0;
    QByteArray comm;
    char state = '?';
};

bool readStat(qint64 pid, ProcStat* out)
{
    QFile f(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!f.open(QIODevice::ReadOnly))
        return false;
    const QByteArray line = f.readAll();
    const qsizetype open = line.indexOf('(');
    const qsizetype close = line.lastIndexOf(')');
    if (open < 0 || close < open)
        return false;
    out->comm = line.mid(open + 1, close - open - 1);
    const QList<QByteArray> rest = line.mid(close + 2).split(' ');
    if (rest.size() < 2)
        return false;
    out->state = rest.at(0).isEmpty() ? '?' : rest.at(0).at(0);
    out->ppid = rest.at(1).toLongLong();
    return true;
}

QList<qint64> redisChildrenOf(qint64 parent)
{
    QList<qint64> out;
    const QStringList entries = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString& e : entries) {
        bool numeric = false;
        const qint64 pid = e.toLongLong(&numeric);
        ProcStat s;
        if (numeric && readStat(pid, &s) && s.ppid == parent && s.comm.startsWith("redis-server") &&
            s.state != 'Z')
            out << pid;
    }
    return out;
}

bool alive(qint64 pid)
{
    ProcStat s;
    return readStat(pid, &s) && s.state != 'Z' && s.comm.startsWith("redis-server");
}

// A demo server's port, from the title redis-server gives its process ("redis-server 127.0.0.1:PORT"),
// 0 when unknown.
quint16 portOf(qint64 pid)
{
    QFile f(QStringLiteral("/proc/%1/cmdline").arg(pid));
    if (!f.open(QIODevice::ReadOnly))
        return 0;
    const QByteArray title = f.readAll().split('\0').value(0).split(' ').value(1);
    const qsizetype colon = title.lastIndexOf(':');
    return colon > 0 ? quint16(title.mid(colon + 1).toUInt()) : 0;
}

// A demo server's password, from the redis.conf in the directory it runs in (its 0700 directory,
// which this test, as the same user, may read).
QString passwordOf(qint64 pid)
{
    QFile f(QStringLiteral("/proc/%1/cwd/redis.conf").arg(pid));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    for (const QByteArray& line : f.readAll().split('\n'))
        if (line.startsWith("requirepass "))
            return QString::fromUtf8(line.mid(12).trimmed()).remove(QLatin1Char('"'));
    return {};
}

// Every demo server holds keys: the simulation's clients are writing to all of them.
bool simulationWritesToAll(const QList<qint64>& pids)
{
    for (qint64 pid : pids) {
        const quint16 port = portOf(pid);
        if (port == 0 || lockscope::test::blockingCommand(port, {"DBSIZE"}, passwordOf(pid)).integer <= 0)
            return false;
    }
    return true;
}

QString lockscopeBinary()
{
    return QString::fromLocal8Bit(qgetenv("LOCKSCOPE_BINARY_DIR")) + QStringLiteral("/app/lockscope");
}

} // namespace

class TestDemoAppKill : public QObject
{
    Q_OBJECT

private slots:
    void killedAppLeavesNoServers();
    void terminatedAppLeavesNoServers();

private:
    QList<qint64> startDemo(QProcess& app);
};

QList<qint64> TestDemoAppKill::startDemo(QProcess& app)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    // Its settings and audit log go to a throw-away home, not the user's.
    static QTemporaryDir home;
    env.insert(QStringLiteral("HOME"), home.path());
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), home.filePath(QStringLiteral("config")));
    env.insert(QStringLiteral("XDG_DATA_HOME"), home.filePath(QStringLiteral("data")));
    app.setProcessEnvironment(env);
    app.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    app.start(lockscopeBinary(), {QStringLiteral("--demo")});
    if (!app.waitForStarted(int(lockscope::test::upperBoundMs(10000))))
        return {};
    // The app starts its servers after its window is up: wait for all five.
    QList<qint64> pids;
    const QDeadlineTimer deadline(30000);
    while ((pids = redisChildrenOf(app.processId())).size() < 5 && !deadline.hasExpired())
        QTest::qWait(50);
    return pids;
}

void TestDemoAppKill::killedAppLeavesNoServers()
{
    if (!QFileInfo::exists(lockscopeBinary()))
        QSKIP("lockscope was not built (LOCKSCOPE_GUI=OFF)");
    QProcess app;
    const QList<qint64> pids = startDemo(app);
    QCOMPARE(pids.size(), 5);
    for (qint64 pid : pids)
        QVERIFY(alive(pid));
    // Let the simulation get going, so the servers are busy when the app dies.
    QTRY_VERIFY_WITH_TIMEOUT(simulationWritesToAll(pids), 30000);
    QVERIFY(app.state() == QProcess::Running);
    ::kill(pid_t(app.processId()), SIGKILL); // only the process this test started, by its pid
    QVERIFY(app.waitForFinished(int(lockscope::test::upperBoundMs(10000))));
    QCOMPARE(app.exitStatus(), QProcess::CrashExit);
    for (qint64 pid : pids)
        QTRY_VERIFY_WITH_TIMEOUT(!alive(pid), 10000);
}

void TestDemoAppKill::terminatedAppLeavesNoServers()
{
    if (!QFileInfo::exists(lockscopeBinary()))
        QSKIP("lockscope was not built (LOCKSCOPE_GUI=OFF)");
    QProcess app;
    const QList<qint64> pids = startDemo(app);
    QCOMPARE(pids.size(), 5);
    QTRY_VERIFY_WITH_TIMEOUT(simulationWritesToAll(pids), 30000);
    // SIGTERM: Qt leaves it to the default action, which ends the process without running the
    // destructors: the death signal again. A clean close (DemoSession destroyed) is in tst_uidemopanel.
    app.terminate();
    QVERIFY(app.waitForFinished(int(lockscope::test::upperBoundMs(10000))));
    for (qint64 pid : pids)
        QTRY_VERIFY_WITH_TIMEOUT(!alive(pid), 10000);
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestDemoAppKill)

} // namespace tst_demoappkill

#include "tst_demoappkill.moc"
