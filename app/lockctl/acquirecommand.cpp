#include "base/bytesdisplay.h"
#include "base/localidentity.h"
#include "bytesargument.h"
#include "command.h"
#include "ttlargument.h"
#include "writesession.h"

#include <QCommandLineParser>
#include <QJsonDocument>
#include <QJsonObject>

using namespace lockscope;

namespace lockctl {

namespace {

// Takes a Redlock on the masters and leaves it held: scripts pass the printed token to
// `extend` and `release` later.
class AcquireCommand final : public Command
{
public:
    QString name() const override { return QStringLiteral("acquire"); }
    QString synopsis() const override
    {
        return QStringLiteral(
            "acquire RESOURCE --ttl MS [--retries N] [--retry-delay MS] [--owner TEXT] [--json]");
    }
    QString summary() const override
    {
        return QStringLiteral("Take a Redlock (SET NX PX on every master, quorum N/2+1); prints the token "
                              "(first line) and the validity.");
    }
    QList<QCommandLineOption> options() const override
    {
        return {
            TtlArgument::option(),
            {QStringLiteral("retries"), QStringLiteral("Further attempts after a failed one (default 3)."),
             QStringLiteral("N")},
            {QStringLiteral("retry-delay"),
             QStringLiteral("Milliseconds between attempts, +- the configured jitter (default 200)."),
             QStringLiteral("MS")},
            {QStringLiteral("owner"),
             QStringLiteral(
                 "Readable owner put before the random token (default user@host:pid; '' for none)."),
             QStringLiteral("TEXT")},
        };
    }

    int run(CliContext& context, const QCommandLineParser& parser, const QStringList& positional) override
    {
        if (positional.size() != 1)
            return context.fail(UsageError, QStringLiteral("usage: lockctl ") + synopsis());
        QString problem;
        const std::optional<qint64> ttl = TtlArgument::parse(parser.value(QStringLiteral("ttl")), &problem);
        if (!ttl)
            return context.fail(UsageError, problem);
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

        Redlock& redlock = session.redlock();
        const RedlockOutcome outcome = session.wait(
            [&](Redlock::Done done) { redlock.acquire(resource, *ttl, owner, std::move(done)); });

        const double elapsedMs = double(outcome.elapsedUs) / 1000.0;
        if (context.json()) {
            QJsonObject o{
                {QStringLiteral("acquired"), outcome.ok()},
                {QStringLiteral("resource"), escapeBytes(resource)},
                {QStringLiteral("token"),
                 outcome.ok() ? QJsonValue(escapeBytes(outcome.lease.token)) : QJsonValue()},
                {QStringLiteral("validityMs"), outcome.ok() ? outcome.lease.validityMs : 0},
                {QStringLiteral("locked"), outcome.succeeded},
                {QStringLiteral("total"), outcome.total},
                {QStringLiteral("elapsedMs"), elapsedMs},
            };
            if (!outcome.ok())
                o.insert(QStringLiteral("error"), outcome.error.message);
            context.out() << QJsonDocument(o).toJson(QJsonDocument::Compact) << Qt::endl;
        }
        if (!outcome.ok())
            return session.failWith(QStringLiteral("not acquired"), outcome);
        session.warnAboutFailedMasters(outcome);
        if (!context.json()) {
            // Escaped like every token shown: `extend` and `release` take it back as typed.
            context.out() << escapeBytes(outcome.lease.token) << Qt::endl;
            context.out() << QStringLiteral("acquired %1 on %2 of %3 masters in %4 ms; valid for %5 ms")
                                 .arg(escapeBytes(resource))
                                 .arg(outcome.succeeded)
                                 .arg(outcome.total)
                                 .arg(elapsedMs, 0, 'f', 2)
                                 .arg(outcome.lease.validityMs)
                          << Qt::endl;
        }
        return Done;
    }
};

const CommandRegistry registration(30, [] { return std::unique_ptr<Command>(new AcquireCommand); });

} // namespace

} // namespace lockctl
