#include "serveprocess.h"

#include "lockctlrun.h"
#include "redisserver.h"

#include <QDeadlineTimer>
#include <QRegularExpression>

#include <csignal>
#include <sys/prctl.h>

namespace lockscope::test {

ServeProcess::~ServeProcess()
{
    if (m_process.state() != QProcess::NotRunning) {
        m_process.kill();
        m_process.waitForFinished();
    }
}

bool ServeProcess::start(const QStringList& args, int timeoutMs)
{
    m_process.setProcessEnvironment(testPasswordEnvironment());
    // A service runs until told to stop: if the test process dies first, it goes too.
    m_process.setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGKILL); });
    m_process.start(lockctlPath(),
                    args + QStringList{QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0")});
    m_process.closeWriteChannel();
    static const QRegularExpression serving(QStringLiteral("serving (https?://\\S+/metrics)"));
    const QDeadlineTimer deadline(timeoutMs);
    while (!deadline.hasExpired() && m_process.state() != QProcess::NotRunning) {
        m_process.waitForReadyRead(100);
        m_err += m_process.readAllStandardError();
        if (const QRegularExpressionMatch m = serving.match(QString::fromUtf8(m_err)); m.hasMatch()) {
            m_url = QUrl(m.captured(1));
            return true;
        }
    }
    m_err += m_process.readAllStandardError();
    m_error = QStringLiteral("lockctl serve did not say where it serves: %1").arg(QString::fromUtf8(m_err));
    return false;
}

QUrl ServeProcess::url(const QString& path) const
{
    QUrl u = m_url;
    u.setPath(path);
    return u;
}

int ServeProcess::stop(int timeoutMs)
{
    if (m_process.state() == QProcess::NotRunning)
        return -1;
    ::kill(pid_t(m_process.processId()), SIGTERM);
    if (!m_process.waitForFinished(timeoutMs))
        return -1;
    m_err += m_process.readAllStandardError();
    return m_process.exitStatus() == QProcess::NormalExit ? m_process.exitCode() : -1;
}

QByteArray ServeProcess::log()
{
    m_err += m_process.readAllStandardError();
    return m_err;
}

} // namespace lockscope::test
