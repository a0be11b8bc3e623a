#pragma once

#include <QProcess>
#include <QStringList>
#include <QUrl>

namespace lockscope::test {

// `lockctl serve --listen 127.0.0.1:0 <args>` (the fixture password in its environment), running
// until stop() or destruction (SIGKILL then). start() waits for the line that names the port the
// system picked, so that no test guesses a free port.
class ServeProcess
{
public:
    ServeProcess() = default;
    ~ServeProcess();
    ServeProcess(const ServeProcess&) = delete;
    ServeProcess& operator=(const ServeProcess&) = delete;

    bool start(const QStringList& args, int timeoutMs = 20000);
    // The /metrics URL lockctl printed ("http://127.0.0.1:PORT/metrics"); path() swapped for `path`.
    QUrl url(const QString& path = QStringLiteral("/metrics")) const;
    quint16 port() const { return quint16(m_url.port()); }
    qint64 pid() const { return m_process.processId(); }
    bool isRunning() const { return m_process.state() == QProcess::Running; }
    // SIGTERM, then the exit code (-1 when it did not exit within `timeoutMs` or crashed).
    int stop(int timeoutMs = 10000);
    QString errorString() const { return m_error; }
    // What it printed on stderr so far.
    QByteArray log();

private:
    QProcess m_process;
    QUrl m_url;
    QByteArray m_err;
    QString m_error;
};

} // namespace lockscope::test
