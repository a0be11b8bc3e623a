#include "processrun.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QSignalSpy>

namespace lockscope::test {

QString ProcessRun::describe() const
{
    return QStringLiteral("exit %1 after %2 ms\nstdout: %3\nstderr: %4")
        .arg(code)
        .arg(ms)
        .arg(QString::fromUtf8(out.left(2000)), QString::fromUtf8(err.left(2000)));
}

ProcessRun runProcess(const QString& program, const QStringList& args, const QProcessEnvironment& environment,
                      const QString& workingDirectory, int timeoutMs)
{
    QProcess p;
    QSignalSpy finished(&p, &QProcess::finished);
    QElapsedTimer clock;
    clock.start();
    if (!environment.isEmpty())
        p.setProcessEnvironment(environment);
    if (!workingDirectory.isEmpty())
        p.setWorkingDirectory(workingDirectory);
    p.start(program, args);
    ProcessRun r;
    if (!p.waitForStarted(timeoutMs)) {
        r.err = p.errorString().toUtf8();
        return r;
    }
    p.closeWriteChannel();
    if (!finished.wait(timeoutMs)) {
        p.kill();
        p.waitForFinished();
    }
    r.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    r.ms = clock.elapsed();
    return r;
}

} // namespace lockscope::test
