#include "audit/auditlog.h"
#include "base/bytesdisplay.h"
#include "bytesargument.h"
#include "clicontext.h"
#include "command.h"
#include "locking/forcerelease.h"
#include "outcomeexitcode.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <cstdio>
#include <optional>
#include <unistd.h>

using namespace lockscope;

namespace lockctl {

namespace {

QString describe(const ForceReleaseTarget& t)
{
    if (t.observation.error.isError())
        return QStringLiteral("unreadable: ") + t.observation.error.message;
    if (!t.observation.present)
        return QStringLiteral("absent");
    QString text =
        QStringLiteral("%1 %2").arg(escapeBytes(t.observation.type), lockFormatName(t.lock.format));
    if (!t.lock.token.isEmpty())
        text += QStringLiteral(" token=") + escapeBytes(t.lock.token);
    if (!t.lock.owner.isEmpty())
        text += QStringLiteral(" owner=\"%1\"").arg(t.lock.owner);
    text += t.observation.pttlMs >= 0 ? QStringLiteral(" ttl=%1ms").arg(t.observation.pttlMs)
                                      : QStringLiteral(" no-expiry");
    if (!t.notALock.isEmpty())
        text += QStringLiteral(" (") + t.notALock + QLatin1Char(')');
    return text;
}

QJsonArray commandsJson(const QList<QByteArrayList>& commands)
{
    QJsonArray out;
    for (const QByteArrayList& argv : commands) {
        QJsonArray words;
        for (const QByteArray& arg : argv)
            words.append(escapeBytes(arg));
        out.append(words);
    }
    return out;
}

QString describe(const ForceReleaseMasterResult& r)
{
    using Action = ForceReleaseMasterResult::Action;
    QString text = forceReleaseActionName(r.action);
    switch (r.action) {
    case Action::Deleted:
    case Action::HolderRemoved:
        if (!r.tokenBefore.isEmpty())
            text += QStringLiteral(" (token was %1)").arg(escapeBytes(r.tokenBefore));
        break;
    case Action::Spared:
        text += QStringLiteral(": the lock changed hands, it now has %1").arg(escapeBytes(r.tokenBefore));
        break;
    case Action::Failed:
        text += QStringLiteral(": ") + r.error.message;
        break;
    default:
        break;
    }
    if (!r.detail.isEmpty() && r.action != Action::Failed)
        text += QStringLiteral("; ") + r.detail;
    return text;
}

// Deletes somebody's lock on purpose: guarded by the expected token unless --any-token, refused
// for keys that are no locks unless --force-unknown, confirmed on a terminal unless --yes.
class ForceReleaseCommand final : public Command
{
public:
    QString name() const override { return QStringLiteral("force-release"); }
    QString synopsis() const override
    {
        return QStringLiteral("force-release RESOURCE (--expect-token T | --any-token) [--on URL]... [--yes] "
                              "[--force-unknown] [--json]");
    }
    QString summary() const override
    {
        return QStringLiteral("Delete a lock as an administrator, only where it still has token T (or any "
                              "token); Redisson, python-redis-lock and redis-semaphore aware.");
    }
    QList<QCommandLineOption> options() const override
    {
        return {
            {QStringLiteral("expect-token"),
             QStringLiteral("Delete only where the lock still has this token (the one you saw). For a "
                            "Redisson lock: one holder id (uuid:threadId) or the holder set as 'list' "
                            "prints it; only those holders are removed."),
             QStringLiteral("T")},
            {QStringLiteral("any-token"),
             QStringLiteral("Delete the key whatever token (or holders) it has.")},
            {QStringLiteral("on"), QStringLiteral("Only on this master (repeatable); default all."),
             QStringLiteral("URL")},
            {QStringLiteral("yes"), QStringLiteral("Do not ask for confirmation.")},
            {QStringLiteral("force-unknown"), QStringLiteral("Also delete keys not recognised as locks.")},
        };
    }

    int run(CliContext& context, const QCommandLineParser& parser, const QStringList& positional) override
    {
        const bool expect = parser.isSet(QStringLiteral("expect-token"));
        const bool any = parser.isSet(QStringLiteral("any-token"));
        if (positional.size() != 1 || expect == any)
            return context.fail(UsageError,
                                QStringLiteral("usage: lockctl ") + synopsis() +
                                    QStringLiteral(" (exactly one of --expect-token and --any-token)"));
        QString problem;
        const std::optional<QByteArray> resource =
            BytesArgument::parse(positional.first(), QStringLiteral("RESOURCE"), &problem);
        if (!resource)
            return context.fail(UsageError, problem);
        ForceReleaseRequest request;
        request.resource = *resource;
        request.mode = any ? ForceReleaseMode::AnyToken : ForceReleaseMode::ExpectToken;
        request.forceUnknown = parser.isSet(QStringLiteral("force-unknown"));
        if (expect) {
            const std::optional<QByteArray> token = BytesArgument::parse(
                parser.value(QStringLiteral("expect-token")), QStringLiteral("--expect-token"), &problem);
            if (!token)
                return context.fail(UsageError, problem);
            request.expectedToken = *token;
        }

        const AuditLog audit(context.auditLogPath(), context.config().allowSharedAuditLog);
        if (const RedisError error = audit.check(); error.isError())
            return context.fail(UsageError, error.message);

        MasterSet& masters = context.openMasters();
        for (const QString& text : parser.values(QStringLiteral("on"))) {
            const Result<RedisUrl> url = RedisUrl::parse(text);
            if (!url)
                return context.fail(UsageError, url.error().message);
            int found = -1;
            for (int i = 0; i < masters.size(); ++i)
                if (masters.at(i)->name() == url->toString())
                    found = i;
            if (found < 0)
                return context.fail(UsageError,
                                    QStringLiteral("--on %1 is not one of the masters").arg(url->toString()));
            if (!request.masters.contains(found))
                request.masters << found;
        }
        std::sort(request.masters.begin(), request.masters.end());

        std::optional<ForceReleasePlan> plan;
        ForceRelease::inspect(masters, context.config(), request,
                              [&plan](const ForceReleasePlan& p) { plan = p; });
        context.waitUntil([&plan] { return plan.has_value(); }, 24 * 3600 * 1000);
        if (!plan)
            return context.fail(Unavailable, QStringLiteral("could not read the key"));
        if (!context.json()) {
            for (const ForceReleaseTarget& t : plan->targets)
                context.out() << "before: " << t.master << ": " << describe(t) << Qt::endl;
            // The core's plan, step by step: exactly what the masters' scripts will send (or nothing).
            for (const ForceReleaseTarget& t : plan->targets) {
                context.out() << "will: " << t.master << ": " << t.step.summary() << Qt::endl;
                for (const QByteArrayList& command : t.step.commands)
                    context.out() << "  " << escapeCommand(command) << Qt::endl;
            }
        }

        const bool willBeRefused = context.readOnly() || (!plan->refusal.isEmpty() && !request.forceUnknown);
        if (!willBeRefused && !parser.isSet(QStringLiteral("yes"))) {
            if (!confirmed(context, *plan)) {
                ForceRelease::recordCancelled(audit, masters, *plan, QStringLiteral("not confirmed"));
                if (!isatty(STDIN_FILENO))
                    return context.fail(UsageError, QStringLiteral("not confirmed: standard input is not a "
                                                                   "terminal; pass --yes to force-release "
                                                                   "without asking"));
                return context.fail(NotDone, QStringLiteral("not confirmed: nothing deleted"));
            }
        }

        std::optional<ForceReleaseOutcome> outcome;
        ForceRelease::execute(masters, context.config(), &audit, *plan,
                              [&outcome](const ForceReleaseOutcome& o) { outcome = o; });
        context.waitUntil([&outcome] { return outcome.has_value(); }, 24 * 3600 * 1000);
        if (!outcome)
            return context.fail(Unavailable, QStringLiteral("no answer"));
        if (outcome->auditLost())
            context.noteAuditLost(QStringLiteral("force-release: ") + outcome->auditError.message);
        print(context, *plan, *outcome);
        const int code = OutcomeExitCode::of(outcome->verdict);
        if (!outcome->ok())
            return context.fail(code, QStringLiteral("force-release: ") + outcome->error.message);
        return code;
    }

private:
    static bool confirmed(CliContext& context, const ForceReleasePlan& plan)
    {
        if (!isatty(STDIN_FILENO))
            return false;
        int chosen = 0;
        for (const ForceReleaseTarget& t : plan.targets)
            chosen += t.observation.present ? 1 : 0;
        context.err() << QStringLiteral("Force-release %1 (%2) on %3 master(s)? [y/N] ")
                             .arg(escapeBytes(plan.request.resource),
                                  plan.request.mode == ForceReleaseMode::AnyToken
                                      ? QStringLiteral("any token")
                                      : QStringLiteral("only token ") +
                                            escapeBytes(plan.request.expectedToken))
                             .arg(chosen)
                      << Qt::flush;
        char line[64] = {};
        if (!std::fgets(line, sizeof line, stdin))
            return false;
        const QString answer = QString::fromLocal8Bit(line).trimmed().toLower();
        return answer == QLatin1String("y") || answer == QLatin1String("yes");
    }

    static void print(CliContext& context, const ForceReleasePlan& plan, const ForceReleaseOutcome& outcome)
    {
        if (context.json()) {
            QJsonArray results;
            for (const ForceReleaseMasterResult& r : outcome.results) {
                QJsonObject o{{QStringLiteral("master"), r.master},
                              {QStringLiteral("action"), forceReleaseActionName(r.action)}};
                if (!r.tokenBefore.isEmpty())
                    o.insert(QStringLiteral("tokenBefore"), escapeBytes(r.tokenBefore));
                if (!r.detail.isEmpty())
                    o.insert(QStringLiteral("detail"), r.detail);
                if (r.error.isError())
                    o.insert(QStringLiteral("error"), r.error.message);
                o.insert(QStringLiteral("commands"), commandsJson(r.commands));
                for (const ForceReleaseTarget& t : plan.targets) {
                    if (t.index != r.index)
                        continue;
                    o.insert(QStringLiteral("planned"), t.step.summary());
                    o.insert(QStringLiteral("plannedCommands"), commandsJson(t.step.commands));
                }
                results.append(o);
            }
            QJsonObject o{{QStringLiteral("resource"), escapeBytes(plan.request.resource)},
                          {QStringLiteral("outcome"), forceReleaseVerdictName(outcome.verdict)},
                          {QStringLiteral("results"), results}};
            if (outcome.error.isError() || !outcome.error.message.isEmpty())
                o.insert(QStringLiteral("error"), outcome.error.message);
            context.out() << QJsonDocument(o).toJson(QJsonDocument::Compact) << Qt::endl;
            return;
        }
        for (const ForceReleaseMasterResult& r : outcome.results) {
            context.out() << r.master << ": " << describe(r) << Qt::endl;
            for (const QByteArrayList& command : r.commands)
                context.out() << "  sent: " << escapeCommand(command) << Qt::endl;
        }
    }
};

const CommandRegistry registration(60, [] { return std::unique_ptr<Command>(new ForceReleaseCommand); });

} // namespace

} // namespace lockctl
