#include "base/bytesdisplay.h"
#include "command.h"
#include "leaseargument.h"
#include "writesession.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

using namespace lockscope;

namespace lockctl {

namespace {

QString answerName(const MasterVote& vote)
{
    switch (vote.answer) {
    case MasterVote::Answer::Yes:
        return QStringLiteral("released");
    case MasterVote::Answer::No:
        return vote.reply.isInteger() && vote.reply.integer == 0 ? QStringLiteral("absent")
                                                                 : QStringLiteral("other-token");
    case MasterVote::Answer::Failed:
        return errorKindName(vote.error.kind);
    case MasterVote::Answer::Pending:
        break;
    }
    return QStringLiteral("not-sent");
}

// Deletes our lock where it still has our token: someone else's lock is never touched.
class ReleaseCommand final : public Command
{
public:
    QString name() const override { return QStringLiteral("release"); }
    QString synopsis() const override { return QStringLiteral("release RESOURCE --token T [--json]"); }
    QString summary() const override
    {
        return QStringLiteral("Delete a lock on every master where it still has TOKEN (token-checked Lua).");
    }
    QList<QCommandLineOption> options() const override
    {
        return {{QStringLiteral("token"), QStringLiteral("The token acquire printed."), QStringLiteral("T")}};
    }

    int run(CliContext& context, const QCommandLineParser& parser, const QStringList& positional) override
    {
        if (positional.size() != 1 || !parser.isSet(QStringLiteral("token")))
            return context.fail(UsageError, QStringLiteral("usage: lockctl ") + synopsis());
        QString problem;
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
            session.wait([&](Redlock::Done done) { redlock.release(lease, std::move(done)); });
        if (context.json()) {
            QJsonArray masters;
            for (int i = 0; i < outcome.votes.size(); ++i)
                masters.append(QJsonObject{{QStringLiteral("master"), outcome.masters.value(i)},
                                           {QStringLiteral("result"), answerName(outcome.votes.at(i))}});
            QJsonObject o{{QStringLiteral("released"), outcome.ok()},
                          {QStringLiteral("resource"), escapeBytes(lease.resource)},
                          {QStringLiteral("releasedOn"), outcome.succeeded},
                          {QStringLiteral("total"), outcome.total},
                          {QStringLiteral("masters"), masters}};
            if (!outcome.ok())
                o.insert(QStringLiteral("error"), outcome.error.message);
            context.out() << QJsonDocument(o).toJson(QJsonDocument::Compact) << Qt::endl;
        } else {
            for (int i = 0; i < outcome.votes.size(); ++i)
                context.out() << outcome.masters.value(i) << ": " << answerName(outcome.votes.at(i))
                              << Qt::endl;
        }
        if (!outcome.ok())
            return session.failWith(QStringLiteral("not released"), outcome);
        session.warnAboutFailedMasters(outcome);
        if (!context.json())
            context.out() << QStringLiteral("released %1 on %2 of %3 masters")
                                 .arg(escapeBytes(lease.resource))
                                 .arg(outcome.succeeded)
                                 .arg(outcome.total)
                          << Qt::endl;
        return Done;
    }
};

const CommandRegistry registration(50, [] { return std::unique_ptr<Command>(new ReleaseCommand); });

} // namespace

} // namespace lockctl
