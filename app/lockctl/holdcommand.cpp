// SPDX-License-Identifier: Apache-2.0
#include "base/bytesdisplay.h"
#include "lockctl/arguments.h"
#include "lockctl/clicontext.h"
#include "lockctl/terminationsignals.h"
#include "lockctl/writecommand.h"
#include "lockctl/writesession.h"
#include "locking/lockkeeper.h"

#include <QCommandLineParser>
#include <QProcess>
#include <QTimer>

#include <csignal>
#include <limits>
#include <memory>
#include <optional>

using namespace lockscope;

namespace lockctl {

namespace {

constexpr int defaultGraceMs = 5000;
constexpr int commandNotStarted = 127; // as a shell reports a command it cannot run

// Runs a command while holding the lock: acquire, start the command with the token in
// LOCKSCOPE_TOKEN, extend the lock automatically, stop the command if the lock is lost (SIGTERM,
// then SIGKILL after a grace period), release when it ends. Exit code: the command's own.
class HoldCommand final : public WriteCommand
{
public:
    HoldCommand()
        : WriteCommand({.name = QStringLiteral("hold"),
                        .synopsis = QStringLiteral("hold RESOURCE --ttl MS [--grace-ms MS] [--retries N] "
                                                   "[--retry-delay MS] [--owner TEXT] -- "
                                                   "COMMAND [ARGS]"),
                        .summary = QStringLiteral(
                            "Run COMMAND while holding the lock (token in LOCKSCOPE_TOKEN), extending it; "
                            "stop COMMAND if the lock is lost; exit with COMMAND's code.")})
    {}
    QList<QCommandLineOption> options() const override
    {
        return QList<QCommandLineOption>{
                   TtlArgument::option(),
                   {QStringLiteral("grace-ms"),
                    QStringLiteral(
                        "After a lost lock, SIGKILL the command this long after SIGTERM (default 5000)."),
                    QStringLiteral("MS")}}
               << retryOptions() << ownerOption();
    }

protected:
    Opening opening() const override { return {.ttl = true, .retries = true, .owner = true}; }
    bool usable(const QCommandLineParser&, const QStringList& positional) const override
    {
        return positional.size() >= 2;
    }

    bool readOptions(const QCommandLineParser& parser, QString* problem) override
    {
        if (!parser.isSet(QStringLiteral("grace-ms")))
            return true;
        const auto grace = NumberArgument::parse(
            QStringLiteral("grace-ms"), parser.value(QStringLiteral("grace-ms")), 0, 3600000, problem);
        if (!grace)
            return false;
        m_graceMs = *grace;
        return true;
    }

    WriteResult write(CliContext&, WriteSession& session, const QCommandLineParser&,
                      const WriteRequest& request) override
    {
        // From here on a Ctrl-C or a kill must not leave the lock held until it expires.
        m_terminations = std::make_unique<TerminationSignals>();
        QObject::connect(m_terminations.get(), &TerminationSignals::received,
                         [this](int number) { m_signalledBeforeStart = number; });
        WriteResult result = WriteResult::of(session.acquire(request.resource, request.ttlMs, request.owner),
                                             QStringLiteral("not acquired"));
        if (result.verdict != WriteVerdict::Done)
            m_terminations.reset(); // nothing is held: a signal ends lockctl again
        return result;
    }

    int then(CliContext& context, WriteSession& session, const WriteRequest& request,
             const WriteResult& acquired) override
    {
        const RedlockLease& lease = acquired.quorum->lease;
        LockKeeper keeper(&session.redlock(), lease);
        QProcess process;
        process.setProgram(request.rest.at(0));
        process.setArguments(request.rest.mid(1));
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        // The command gets the lock, not the masters' password.
        for (const QString& var : std::as_const(context.config().passwordEnvVars))
            environment.remove(var);
        // In the form `lockctl extend/release --token` takes, as LOCKSCOPE_RESOURCE is.
        environment.insert(QStringLiteral("LOCKSCOPE_TOKEN"), escapeBytes(lease.token));
        environment.insert(QStringLiteral("LOCKSCOPE_RESOURCE"), escapeBytes(request.resource));
        process.setProcessEnvironment(environment);
        process.setProcessChannelMode(QProcess::ForwardedChannels);
        process.setInputChannelMode(QProcess::ForwardedInputChannel);

        bool finished = false;
        bool lost = false;
        QTimer killTimer;
        killTimer.setSingleShot(true);
        QObject::connect(&killTimer, &QTimer::timeout, &process, &QProcess::kill);
        QObject::connect(&process, &QProcess::finished, [&finished] { finished = true; });
        QObject::connect(&keeper, &LockKeeper::lost, [&](const QString& reason) {
            lost = true;
            context.err() << "lockctl: lock on " << escapeBytes(request.resource) << " lost (" << reason
                          << "); stopping the command" << Qt::endl;
            if (process.state() != QProcess::NotRunning) {
                process.terminate();
                killTimer.start(int(m_graceMs));
            }
        });
        QObject::disconnect(m_terminations.get(), nullptr, nullptr, nullptr);
        QObject::connect(m_terminations.get(), &TerminationSignals::received, [&process](int number) {
            // Passed on; the command decides how to end, and the lock is released after it.
            if (process.processId() > 0)
                ::kill(pid_t(process.processId()), number);
        });

        int code = 0;
        if (m_signalledBeforeStart) {
            code = 128 + *m_signalledBeforeStart;
            context.err() << "lockctl: interrupted before the command started" << Qt::endl;
        } else {
            process.start();
            if (!process.waitForStarted(-1)) {
                context.err() << "lockctl: cannot run " << request.rest.at(0) << ": " << process.errorString()
                              << Qt::endl;
                code = commandNotStarted;
            } else {
                keeper.start();
                context.waitUntil([&finished] { return finished; }, std::numeric_limits<int>::max());
                // A command killed by a signal reports like a shell: 128 + the signal number.
                code = process.exitStatus() == QProcess::CrashExit ? 128 + process.exitCode()
                                                                   : process.exitCode();
            }
        }
        killTimer.stop();
        const RedlockOutcome released =
            session.wait([&](Redlock::Done done) { keeper.release(std::move(done)); });
        if (!released.ok() && !lost)
            context.err() << "lockctl: warning: release: " << released.error.message << Qt::endl;
        m_terminations.reset();
        return code;
    }

private:
    qint64 m_graceMs = defaultGraceMs;
    // Set up before the acquisition (write()) and used until the release (then()).
    std::unique_ptr<TerminationSignals> m_terminations;
    std::optional<int> m_signalledBeforeStart; // a termination signal that came before the command started
};

const CommandRegistry holdRegistration(70, [] { return std::unique_ptr<Command>(new HoldCommand); });

} // namespace

} // namespace lockctl
