#include "lockctlrun.h"

#include "redisserver.h"

#include <QElapsedTimer>
#include <QJsonDocument>
#include <QProcess>
#include <QSignalSpy>

namespace lockscope::test {

QString lockctlPath()
{
    QByteArray dir = qgetenv("LOCKSCOPE_BINARY_DIR");
    if (dir.isEmpty())
        dir = LOCKSCOPE_BINARY_DIR;
    return QString::fromLocal8Bit(dir) + QStringLiteral("/app/lockctl");
}

QStringList testPasswordArgs()
{
    return {QStringLiteral("--password-env"), QString::fromLatin1(testPasswordVar)};
}

QString LockctlRun::describe() const
{
    return QStringLiteral("exit %1 after %2 ms\nstdout: %3\nstderr: %4")
        .arg(code)
        .arg(ms)
        .arg(QString::fromUtf8(out.left(2000)), QString::fromUtf8(err.left(2000)));
}

LockctlRun runLockctl(const QStringList& args, int timeoutMs)
{
    QProcess p;
    QSignalSpy finished(&p, &QProcess::finished);
    QElapsedTimer clock;
    clock.start();
    // The fixture password for `--password-env LOCKSCOPE_TEST_PASSWORD`: a URL with the password in
    // the arguments would show it to every local user.
    p.setProcessEnvironment(testPasswordEnvironment());
    p.start(lockctlPath(), args);
    p.closeWriteChannel();
    if (!finished.wait(timeoutMs)) {
        p.kill();
        p.waitForFinished();
    }
    LockctlRun r;
    r.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    r.ms = clock.elapsed();
    return r;
}

QJsonObject runLockctlJson(const QStringList& args, int* code, int timeoutMs)
{
    const LockctlRun run = runLockctl(
        QStringList{QStringLiteral("--json"), QStringLiteral("--timeout-ms"), QStringLiteral("1000")} + args,
        timeoutMs);
    *code = run.code;
    const QJsonDocument doc = QJsonDocument::fromJson(run.out);
    if (!doc.isObject())
        qWarning("lockctl printed no JSON: %s", qPrintable(run.describe()));
    return doc.object();
}

} // namespace lockscope::test
