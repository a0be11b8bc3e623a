// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QObject>
#include <QProcess>
#include <QStringList>

#include <functional>
#include <memory>

namespace lockscope {

// One redis-server (or redis-sentinel) process that this program starts on loopback: the one
// launcher of the demo cluster, the demo Sentinel group and the test fixtures. Its configuration file
// is written first, readable by the owner only (LocalServerFiles::writePrivate), so that a password
// never goes on the command line (any local user can read a process's arguments); the process runs
// with umask 077, so that what it writes itself (a sentinel's or a cluster node's rewritten
// configuration, with the passwords in it) is ours alone too, and it is SIGKILLed when this process
// dies, whatever kills it (PR_SET_PDEATHSIG). It is stopped by its own pid when this object goes,
// also when a test fails half-way: no orphaned servers.
class LocalServerProcess final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LocalServerProcess)

public:
    struct Launch
    {
        QString program = QStringLiteral("redis-server");
        QString configPath;    // written before the start, 0600; the first argument
        QByteArray config;     // its text: paths quoted with LocalServerFiles::quoted
        QStringList arguments; // after the configuration file; never a secret
        // The server's standard error to ours (tests, where it says why a server would not start)
        // instead of nowhere (the demo, whose servers log to their logfile).
        bool forwardErrors = false;
    };
    enum class Readiness
    {
        Answering,
        Exited, // by itself, before it answered (a port taken meanwhile, a bad configuration)
        TimedOut,
    };

    explicit LocalServerProcess(QObject* parent = nullptr);
    ~LocalServerProcess() override;

    // A free loopback TCP port (bound and released, so another process may still take it first: a
    // server that then exits at once is launched again on another port), 0 when none is.
    static quint16 freeLoopbackPort();
    // A port from `source` that is not in `handedOut`, 0 when none came in a few tries. A port is only
    // bound once its server starts, so a launcher that picks several before any binds can be given one
    // twice (the kernel's pick for port 0 may repeat): two of its servers would race for it, and a
    // probe of the loser's port would reach the winner.
    static quint16 distinctPort(const std::function<quint16()>& source, const QList<quint16>& handedOut);

    // Writes the configuration and starts the program: true once it runs (fork+exec), without waiting
    // for it to answer. `error` says why not: the file could not be written, or the program not run.
    bool start(const Launch& launch, QString* error);
    // Blocks, polling every 20 ms, until `answers()` holds, the process exits, or `timeoutMs` pass.
    // For tests and windowless hosts only: the GUI thread never waits on a socket (the demo probes
    // asynchronously instead).
    Readiness waitUntilAnswering(int timeoutMs, const std::function<bool()>& answers);

    // SIGKILL by its own pid (it also ends a stopped process), then reaped: a SIGKILLed child goes in
    // microseconds, so this wait is not a network wait. exited() is not emitted for it.
    void stop();
    void pause();  // SIGSTOP: the socket stays open, nothing answers
    void resume(); // SIGCONT
    bool isRunning() const;
    // Stopped by pause() and not resumed since: asking it anything would only wait.
    bool isPaused() const { return m_paused && isRunning(); }
    qint64 pid() const;
    // The arguments the process was started with (what `ps` shows until it sets its title).
    QStringList arguments() const;

signals:
    // The process ended by itself (a crash, a kill from outside, a failed start), not by stop().
    void exited();

private:
    std::unique_ptr<QProcess> m_process;
    bool m_paused = false;
};

} // namespace lockscope
