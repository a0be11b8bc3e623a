// SPDX-License-Identifier: Apache-2.0
#include "audit/auditlog.h"
#include "base/bytesdisplay.h"
#include "lockctl/clicontext.h"
#include "lockctl/writecommand.h"
#include "lockctl/writesession.h"
#include "locking/forcerelease.h"

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
class ForceReleaseCommand final : public WriteCommand
{
public:
    ForceReleaseCommand()
        : WriteCommand({.name = QStringLiteral("force-release"),
                        .synopsis = QStringLiteral(
                            "force-release RESOURCE (--expect-token T | --any-token) [--on URL]... [--yes] "
                            "[--force-unknown] [--json]"),
                        .summary = QStringLiteral(
                            "Delete a lock as an administrator, only where it still has token T (or any "
                            "token); Redisson, python-redis-lock and redis-semaphore aware.")})
    {}
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

protected:
    Opening opening() const override { return {.token = TokenOption::Expected}; }
    bool usable(const QCommandLineParser& parser, const QStringList& positional) const override
    {
        const bool expect = parser.isSet(QStringLiteral("expect-token"));
        const bool any = parser.isSet(QStringLiteral("any-token"));
        return positional.size() == 1 && expect != any;
    }
    QString usageNote() const override
    {
        return QStringLiteral(" (exactly one of --expect-token and --any-token)");
    }

    int prepare(CliContext& context, WriteSession& session) override
    {
        // The audit log's problem alone: force-release has never added the other writes' hint
        // ("--audit-log FILE chooses another") nor their warning about a shared log.
        if (const RedisError error = session.audit().check(); error.isError())
            return context.fail(UsageError, error.message);
        return Done;
    }

    WriteResult write(CliContext& context, WriteSession& session, const QCommandLineParser& parser,
                      const WriteRequest& written) override
    {
        ForceReleaseRequest request;
        request.resource = written.resource;
        request.mode = parser.isSet(QStringLiteral("any-token")) ? ForceReleaseMode::AnyToken
                                                                 : ForceReleaseMode::ExpectToken;
        request.forceUnknown = parser.isSet(QStringLiteral("force-unknown"));
        request.expectedToken = written.token;

        MasterSet& masters = context.openMasters();
        for (const QString& text : parser.values(QStringLiteral("on"))) {
            const Result<RedisUrl> url = RedisUrl::parse(text);
            if (!url)
                return WriteResult::stopped(context.fail(UsageError, url.error().message));
            int found = -1;
            for (int i = 0; i < masters.size(); ++i)
                if (masters.at(i)->name() == url->toString())
                    found = i;
            if (found < 0)
                return WriteResult::stopped(context.fail(
                    UsageError, QStringLiteral("--on %1 is not one of the masters").arg(url->toString())));
            if (!request.masters.contains(found))
                request.masters << found;
        }
        std::sort(request.masters.begin(), request.masters.end());

        std::optional<ForceReleasePlan> plan;
        ForceRelease::inspect(masters, context.config(), request,
                              [&plan](const ForceReleasePlan& p) { plan = p; });
        context.waitUntil([&plan] { return plan.has_value(); }, 24 * 3600 * 1000);
        if (!plan)
            return WriteResult::stopped(context.fail(Unavailable, QStringLiteral("could not read the key")));
        if (!context.json()) {
            for (const ForceReleaseTarget& t : plan->targets)
                context.out() << "before: " << t.master << ": " << describe(t) << Qt::endl;
            // The core's plan, step by step: exactly what the masters' scripts will send (or nothing).
            for (const ForceReleaseTarget& t : plan->targets) {
                context.out() << "will: " << t.master << ": " << t.step.summary() << Qt::endl;
                if (!t.step.sentAs.isEmpty())
                    context.out() << "  " << escapeCommand(t.step.sentAs) << "  (the server's own check)"
                                  << Qt::endl;
                else
                    for (const QByteArrayList& command : t.step.commands)
                        context.out() << "  " << escapeCommand(command) << Qt::endl;
            }
        }

        const AuditLog& audit = session.audit();
        const bool willBeRefused = context.readOnly() || (!plan->refusal.isEmpty() && !request.forceUnknown);
        if (!willBeRefused && !parser.isSet(QStringLiteral("yes"))) {
            if (!confirmed(context, *plan)) {
                ForceRelease::recordCancelled(audit, masters, *plan, QStringLiteral("not confirmed"));
                if (!isatty(STDIN_FILENO))
                    return WriteResult::stopped(
                        context.fail(UsageError, QStringLiteral("not confirmed: standard input is not a "
                                                                "terminal; pass --yes to force-release "
                                                                "without asking")));
                return WriteResult::stopped(
                    context.fail(NotDone, QStringLiteral("not confirmed: nothing deleted")));
            }
        }

        std::optional<ForceReleaseOutcome> outcome;
        ForceRelease::execute(masters, context.config(), &audit, *plan,
                              [&outcome](const ForceReleaseOutcome& o) { outcome = o; });
        context.waitUntil([&outcome] { return outcome.has_value(); }, 24 * 3600 * 1000);
        if (!outcome)
            return WriteResult::stopped(context.fail(Unavailable, QStringLiteral("no answer")));
        if (outcome->auditLost())
            context.noteAuditLost(QStringLiteral("force-release: ") + outcome->auditError.message);
        WriteResult result;
        result.verdict = outcome->verdict;
        result.error = outcome->error.message;
        result.failure = QStringLiteral("force-release");
        result.json = json(*plan, *outcome);
        for (const ForceReleaseMasterResult& r : outcome->results) {
            result.lines << r.master + QStringLiteral(": ") + describe(r);
            for (const QByteArrayList& command : r.commands)
                result.lines << QStringLiteral("  sent: ") + escapeCommand(command);
        }
        if (outcome->ok() && outcome->spared() > 0)
            result.summary << QStringLiteral("outcome: %1").arg(outcome->outcomeText());
        return result;
    }

private:
    static bool confirmed(CliContext& context, const ForceReleasePlan& plan)
    {
        if (!isatty(STDIN_FILENO))
            return false;
        int chosen = 0;
        for (const ForceReleaseTarget& t : plan.targets)
            chosen += t.observation.present ? 1 : 0;
        if (plan.unrecognisedFormat())
            context.err() << "Not a lock format LockScope knows: it may be an ordinary key." << Qt::endl;
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

    static QJsonObject json(const ForceReleasePlan& plan, const ForceReleaseOutcome& outcome)
    {
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
                      {QStringLiteral("outcome"), outcome.outcomeName()},
                      {QStringLiteral("results"), results}};
        if (outcome.error.isError() || !outcome.error.message.isEmpty())
            o.insert(QStringLiteral("error"), outcome.error.message);
        return o;
    }
};

const CommandRegistry forceReleaseRegistration(60, [] {
    return std::unique_ptr<Command>(new ForceReleaseCommand);
});

} // namespace

} // namespace lockctl
