#include "base/bytesdisplay.h"
#include "base/localidentity.h"
#include "bytesargument.h"
#include "command.h"
#include "locking/lockkeeper.h"
#include "terminationsignals.h"
#include "ttlargument.h"
#include "writesession.h"

#include <QCommandLineParser>
#include <QProcess>
#include <QTimer>

#include <csignal>
#include <limits>
#include <optional>

using namespace lockscope;

namespace lockctl {

namespace {

constexpr int defaultGraceMs = 5000;
constexpr int commandNotStarted = 127; // as a shell reports a command it cannot run

// Runs a command while holding the lock: acquire, start the command with the token in
// LOCKSCOPE_TOKEN, extend the lock automatically, stop the command if the lock is lost (SIGTERM,
// then SIGKILL after a grace period), release when it ends. Exit code: the command's own.
class HoldCommand final : public Command
{
public:
    QString name() const override { return QStringLiteral("hold"); }
    QString synopsis() const override
    {
        return QStringLiteral(
            "hold RESOURCE --ttl MS [--grace-ms MS] [--retries N] [--retry-delay MS] [--owner TEXT] -- "
            "COMMAND [ARGS]");
    }
    QString summary() const override
    {
        return QStringLiteral("Run COMMAND while holding the lock (token in LOCKSCOPE_TOKEN), extending it; "
                              "stop COMMAND if the lock is lost; exit with COMMAND's code.");
    }
    QList<QCommandLineOption> options() const override
    {
        return {
            TtlArgument::option(),
            {QStringLiteral("grace-ms"),
             QStringLiteral("After a lost lock, SIGKILL the command this long after SIGTERM (default 5000)."),
             QStringLiteral("MS")},
            {QStringLiteral("retries"), QStringLiteral("Further attempts after a failed one (default 3)."),
             QStringLiteral("N")},
            {QStringLiteral("retry-delay"),
             QStringLiteral("Milliseconds between attempts, +- the configured jitter (default 200)."),
             QStringLiteral("MS")},
            {QStringLiteral("owner"),
             QStringLiteral(
                 "Readable owner put before the random token (default user@host:pid; '' for none)."),
             QStringLiteral("TEXT")}};
    }

    int run(CliContext& context, const QCommandLineParser& parser, const QStringList& positional) override
    {
        if (positional.size() < 2)
            return context.fail(UsageError, QStringLiteral("usage: lockctl ") + synopsis());
        QString problem;
        const std::optional<qint64> ttl = TtlArgument::parse(parser.value(QStringLiteral("ttl")), &problem);
        if (!ttl)
            return context.fail(UsageError, problem);
        qint64 graceMs = defaultGraceMs;
        if (parser.isSet(QStringLiteral("grace-ms"))) {
            const auto grace = TtlArgument::parseWhole(
                QStringLiteral("grace-ms"), parser.value(QStringLiteral("grace-ms")), 0, 3600000, &problem);
            if (!grace)
                return context.fail(UsageError, problem);
            graceMs = *grace;
        }
        const std::optional<QByteArray> resourceArgument =
            BytesArgument::parse(positional.first(), QStringLiteral("RESOURCE"), &problem);
        if (!resourceArgument)
            return context.fail(UsageError, problem);
        const QByteArray resource = *resourceArgument;
        WriteSession session(context);
        if (!session.applyRetryOptions(parser, &problem))
            return context.fail(UsageError, problem);
        if (const int rc = session.prepare(); rc != Done)
            return rc;
        const QString owner = parser.isSet(QStringLiteral("owner")) ? parser.value(QStringLiteral("owner"))
                                                                    : LocalIdentity::ownerTag();

        // From here on a Ctrl-C or a kill must not leave the lock held until it expires.
        TerminationSignals terminations;
        std::optional<int> signalledBeforeStart;
        QObject::connect(&terminations, &TerminationSignals::received,
                         [&signalledBeforeStart](int number) { signalledBeforeStart = number; });

        Redlock& redlock = session.redlock();
        const RedlockOutcome acquired = session.wait(
            [&](Redlock::Done done) { redlock.acquire(resource, *ttl, owner, std::move(done)); });
        if (!acquired.ok())
            return session.failWith(QStringLiteral("not acquired"), acquired);
        session.warnAboutFailedMasters(acquired);

        LockKeeper keeper(&redlock, acquired.lease);
        QProcess process;
        process.setProgram(positional.at(1));
        process.setArguments(positional.mid(2));
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        // The command gets the lock, not the masters' password.
        for (const QString& var : std::as_const(context.config().passwordEnvVars))
            environment.remove(var);
        // In the form `lockctl extend/release --token` takes, as LOCKSCOPE_RESOURCE is.
        environment.insert(QStringLiteral("LOCKSCOPE_TOKEN"), escapeBytes(acquired.lease.token));
        environment.insert(QStringLiteral("LOCKSCOPE_RESOURCE"), escapeBytes(resource));
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
            context.err() << "lockctl: lock on " << escapeBytes(resource) << " lost (" << reason
                          << "); stopping the command" << Qt::endl;
            if (process.state() != QProcess::NotRunning) {
                process.terminate();
                killTimer.start(int(graceMs));
            }
        });
        QObject::disconnect(&terminations, nullptr, nullptr, nullptr);
        QObject::connect(&terminations, &TerminationSignals::received, [&process](int number) {
            // Passed on; the command decides how to end, and the lock is released after it.
            if (process.processId() > 0)
                ::kill(pid_t(process.processId()), number);
        });

        int code = 0;
        if (signalledBeforeStart) {
            code = 128 + *signalledBeforeStart;
            context.err() << "lockctl: interrupted before the command started" << Qt::endl;
        } else {
            process.start();
            if (!process.waitForStarted(-1)) {
                context.err() << "lockctl: cannot run " << positional.at(1) << ": " << process.errorString()
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
        return code;
    }
};

const CommandRegistry registration(70, [] { return std::unique_ptr<Command>(new HoldCommand); });

} // namespace

} // namespace lockctl
