#include "base/bytesdisplay.h"
#include "command.h"
#include "leaseargument.h"
#include "ttlargument.h"
#include "writesession.h"

#include <QCommandLineParser>
#include <QJsonDocument>
#include <QJsonObject>

using namespace lockscope;

namespace lockctl {

namespace {

// Gives a held lock a new TTL on every master that still has our token.
class ExtendCommand final : public Command
{
public:
    QString name() const override { return QStringLiteral("extend"); }
    QString synopsis() const override
    {
        return QStringLiteral("extend RESOURCE --token T --ttl MS [--json]");
    }
    QString summary() const override
    {
        return QStringLiteral("Set a held lock's TTL again where it still has TOKEN; needs a quorum.");
    }
    QList<QCommandLineOption> options() const override
    {
        return {TtlArgument::option(),
                {QStringLiteral("token"), QStringLiteral("The token acquire printed."), QStringLiteral("T")}};
    }

    int run(CliContext& context, const QCommandLineParser& parser, const QStringList& positional) override
    {
        if (positional.size() != 1 || !parser.isSet(QStringLiteral("token")))
            return context.fail(UsageError, QStringLiteral("usage: lockctl ") + synopsis());
        QString problem;
        const std::optional<qint64> ttl = TtlArgument::parse(parser.value(QStringLiteral("ttl")), &problem);
        if (!ttl)
            return context.fail(UsageError, problem);
        const std::optional<RedlockLease> parsed =
            LeaseArgument::parse(positional.first(), parser.value(QStringLiteral("token")), &problem);
        if (!parsed)
            return context.fail(UsageError, problem);
        const RedlockLease lease = *parsed;
        WriteSession session(context);
        if (const int rc = session.prepare(); rc != Done)
            return rc;
        Redlock& redlock = session.redlock();
        const RedlockOutcome outcome =
            session.wait([&](Redlock::Done done) { redlock.extend(lease, *ttl, std::move(done)); });
        if (context.json()) {
            QJsonObject o{{QStringLiteral("extended"), outcome.ok()},
                          {QStringLiteral("resource"), escapeBytes(lease.resource)},
                          {QStringLiteral("validityMs"), outcome.ok() ? outcome.lease.validityMs : 0},
                          {QStringLiteral("extendedOn"), outcome.succeeded},
                          {QStringLiteral("total"), outcome.total},
                          {QStringLiteral("elapsedMs"), double(outcome.elapsedUs) / 1000.0}};
            if (!outcome.ok())
                o.insert(QStringLiteral("error"), outcome.error.message);
            context.out() << QJsonDocument(o).toJson(QJsonDocument::Compact) << Qt::endl;
        }
        if (!outcome.ok())
            return session.failWith(QStringLiteral("not extended"), outcome);
        session.warnAboutFailedMasters(outcome);
        if (!context.json())
            context.out() << QStringLiteral("extended %1 on %2 of %3 masters; valid for %4 ms")
                                 .arg(escapeBytes(lease.resource))
                                 .arg(outcome.succeeded)
                                 .arg(outcome.total)
                                 .arg(outcome.lease.validityMs)
                          << Qt::endl;
        return Done;
    }
};

const CommandRegistry registration(40, [] { return std::unique_ptr<Command>(new ExtendCommand); });

} // namespace

} // namespace lockctl
