// SPDX-License-Identifier: Apache-2.0
#include "lockctl/writecommand.h"

#include "base/localidentity.h"
#include "lockctl/arguments.h"
#include "lockctl/clicontext.h"
#include "lockctl/writesession.h"

#include <QCommandLineParser>
#include <QJsonDocument>

using namespace lockscope;

namespace lockctl {

WriteResult WriteResult::of(const RedlockOutcome& outcome, const QString& failure)
{
    WriteResult result;
    result.verdict = outcome.verdict;
    result.error = outcome.error.message;
    result.failure = failure;
    result.quorum = outcome;
    return result;
}

WriteResult WriteResult::stopped(int code)
{
    WriteResult result;
    result.stoppedWith = code;
    return result;
}

int WriteCommand::run(CliContext& context, const QCommandLineParser& parser, const QStringList& positional)
{
    const Opening takes = opening();
    if (!usable(parser, positional) ||
        (takes.token == TokenOption::Lease && !parser.isSet(QStringLiteral("token"))))
        return context.fail(UsageError, QStringLiteral("usage: lockctl ") + synopsis() + usageNote());
    WriteRequest request;
    QString problem;
    if (takes.ttl) {
        const std::optional<qint64> ttl = TtlArgument::parse(parser.value(QStringLiteral("ttl")), &problem);
        if (!ttl)
            return context.fail(UsageError, problem);
        request.ttlMs = *ttl;
    }
    if (!readOptions(parser, &problem))
        return context.fail(UsageError, problem);
    if (takes.token == TokenOption::Lease) {
        const std::optional<RedlockLease> lease =
            LeaseArgument::parse(positional.first(), parser.value(QStringLiteral("token")), &problem);
        if (!lease)
            return context.fail(UsageError, problem);
        request.lease = *lease;
        request.resource = lease->resource;
        request.token = lease->token;
    } else {
        const std::optional<QByteArray> resource =
            BytesArgument::parse(positional.first(), QStringLiteral("RESOURCE"), &problem);
        if (!resource)
            return context.fail(UsageError, problem);
        request.resource = *resource;
    }
    if (takes.token == TokenOption::Expected && parser.isSet(QStringLiteral("expect-token"))) {
        const std::optional<QByteArray> token = BytesArgument::parse(
            parser.value(QStringLiteral("expect-token")), QStringLiteral("--expect-token"), &problem);
        if (!token)
            return context.fail(UsageError, problem);
        request.token = *token;
    }
    request.rest = positional.mid(1);

    WriteSession session(context);
    if (takes.retries && !session.applyRetryOptions(parser, &problem))
        return context.fail(UsageError, problem);
    if (const int rc = prepare(context, session); rc != Done)
        return rc;
    if (takes.owner)
        request.owner = parser.isSet(QStringLiteral("owner")) ? parser.value(QStringLiteral("owner"))
                                                              : LocalIdentity::ownerTag();

    const WriteResult result = write(context, session, parser, request);
    if (result.stoppedWith)
        return *result.stoppedWith;
    if (const int code = report(context, session, result); code != Done)
        return code;
    return then(context, session, request, result);
}

bool WriteCommand::usable(const QCommandLineParser&, const QStringList& positional) const
{
    return positional.size() == 1;
}

bool WriteCommand::readOptions(const QCommandLineParser&, QString*)
{
    return true;
}

int WriteCommand::prepare(CliContext&, WriteSession& session)
{
    return session.prepare();
}

int WriteCommand::then(CliContext&, WriteSession&, const WriteRequest&, const WriteResult&)
{
    return Done;
}

int WriteCommand::report(CliContext& context, WriteSession& session, const WriteResult& result)
{
    if (context.json() && !result.json.isEmpty())
        context.out() << QJsonDocument(result.json).toJson(QJsonDocument::Compact) << Qt::endl;
    if (!context.json())
        for (const QString& line : result.lines)
            context.out() << line << Qt::endl;
    if (result.verdict != WriteVerdict::Done) {
        const int code = exitCodeOf(result.verdict);
        context.fail(code, result.failure + QStringLiteral(": ") + result.error);
        if (result.quorum && result.verdict == WriteVerdict::Unavailable)
            session.printFailures(*result.quorum);
        return code;
    }
    if (result.quorum)
        session.warnAboutFailedMasters(*result.quorum);
    if (!context.json())
        for (const QString& line : result.summary)
            context.out() << line << Qt::endl;
    return Done;
}

QList<QCommandLineOption> WriteCommand::retryOptions()
{
    return {{QStringLiteral("retries"), QStringLiteral("Further attempts after a failed one (default 3)."),
             QStringLiteral("N")},
            {QStringLiteral("retry-delay"),
             QStringLiteral("Milliseconds between attempts, +- the configured jitter (default 200)."),
             QStringLiteral("MS")}};
}

QCommandLineOption WriteCommand::ownerOption()
{
    return {
        QStringLiteral("owner"),
        QStringLiteral("Readable owner put before the random token (default user@host:pid; '' for none)."),
        QStringLiteral("TEXT")};
}

QCommandLineOption WriteCommand::tokenOption()
{
    return {QStringLiteral("token"), QStringLiteral("The token acquire printed."), QStringLiteral("T")};
}

} // namespace lockctl
