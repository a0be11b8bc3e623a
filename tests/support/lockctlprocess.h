// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
#include <QProcess>
#include <QStringList>

#include <functional>

namespace lockscope::test {

// A long-running lockctl (record, watch) in the background, with the fixture password in its
// environment as runLockctl gives it. Stopped (SIGKILL) when it goes, if still running, and when the
// test process dies first.
class LockctlProcess
{
public:
    LockctlProcess() = default;
    ~LockctlProcess();
    LockctlProcess(const LockctlProcess&) = delete;
    LockctlProcess& operator=(const LockctlProcess&) = delete;

    bool start(const QStringList& args);
    // Until its standard output contains `text` (false on timeout or when it ended first).
    bool waitForOutput(const QByteArray& text, int timeoutMs = 20000);
    // Until it ends by itself, reading its output as it comes and calling `step` after each read
    // (or each 50 ms); its exit code (-1: crashed, or still running after timeoutMs).
    int waitForExit(int timeoutMs, const std::function<void()>& step = {});
    // Its peak resident memory so far in KiB (VmHWM), 0 once it has ended.
    qint64 peakRssKiB() const;
    // Its resident memory now in KiB (VmRSS), 0 once it has ended.
    qint64 rssKiB() const;
    // SIGTERM, then its exit code once it ended (-1: killed, crashed, ended before the SIGTERM or
    // still running after timeoutMs; each said with its output as a warning).
    int terminate(int timeoutMs = 15000);
    // SIGKILL, as a crash or the OOM killer would, and reaped.
    void kill();
    qint64 pid() const { return m_process.processId(); }
    bool isRunning() const { return m_process.state() == QProcess::Running; }
    // Everything it printed so far.
    QByteArray out();
    QByteArray err();
    // How it ended (or that it runs), and what it printed: the beginning and end of each stream.
    QString describe();

private:
    QProcess m_process;
    QByteArray m_out;
    QByteArray m_err;
    qint64 m_pid = 0; // QProcess forgets it once the process ended
};

} // namespace lockscope::test
