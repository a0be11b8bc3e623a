// SPDX-License-Identifier: Apache-2.0
#include "support/processrun.h"

#include "support/timebound.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>

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
    timeoutMs = int(upperBoundMs(timeoutMs)); // an upper bound (timebound.h)
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

QString shellQuoted(const QString& arg)
{
    QString quoted = arg;
    quoted.replace(QLatin1Char('\''), QStringLiteral("'\\''"));
    return QLatin1Char('\'') + quoted + QLatin1Char('\'');
}

ProcessRun runOnTerminal(const QString& program, const QStringList& args,
                         const QProcessEnvironment& environment, const QByteArray& input, int timeoutMs)
{
    timeoutMs = int(upperBoundMs(timeoutMs)); // an upper bound (timebound.h)
    ProcessRun run;
    const QString script = QStandardPaths::findExecutable(QStringLiteral("script"));
    if (script.isEmpty()) {
        run.err = "script(1) is not installed (util-linux)";
        return run;
    }
    QStringList quoted{shellQuoted(program)};
    for (const QString& arg : args)
        quoted << shellQuoted(arg);
    QProcess p;
    p.setProcessEnvironment(environment);
    QElapsedTimer clock;
    clock.start();
    p.start(script, {QStringLiteral("-qec"), quoted.join(QLatin1Char(' ')), QStringLiteral("/dev/null")});
    p.write(input);
    p.closeWriteChannel();
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
    }
    run.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    // The terminal turns each line feed into CR LF; any other CR came from the program.
    run.out = p.readAllStandardOutput().replace("\r\n", "\n");
    run.err = p.readAllStandardError();
    run.ms = clock.elapsed();
    return run;
}

} // namespace lockscope::test
