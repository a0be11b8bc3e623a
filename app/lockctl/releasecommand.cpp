// SPDX-License-Identifier: Apache-2.0
#include "base/bytesdisplay.h"
#include "lockctl/writecommand.h"
#include "lockctl/writesession.h"

#include <QJsonArray>
#include <QJsonObject>

using namespace lockscope;

namespace lockctl {

namespace {

// Deletes our lock where it still has our token: someone else's lock is never touched.
class ReleaseCommand final : public WriteCommand
{
public:
    ReleaseCommand()
        : WriteCommand({.name = QStringLiteral("release"),
                        .synopsis = QStringLiteral("release RESOURCE --token T [--json]"),
                        .summary = QStringLiteral(
                            "Delete a lock on every master where it still has TOKEN (token-checked Lua).")})
    {}
    QList<QCommandLineOption> options() const override { return {tokenOption()}; }

protected:
    Opening opening() const override { return {.token = TokenOption::Lease}; }

    WriteResult write(CliContext&, WriteSession& session, const QCommandLineParser&,
                      const WriteRequest& request) override
    {
        const RedlockOutcome outcome = session.release(request.lease);
        WriteResult result = WriteResult::of(outcome, QStringLiteral("not released"));
        QJsonArray masters;
        for (int i = 0; i < outcome.votes.size(); ++i) {
            // What the masters' audit lines say too: released, absent, other-token, an error kind.
            const QString answer = redlockVoteResult(QStringLiteral("release"), outcome.votes.at(i));
            masters.append(QJsonObject{{QStringLiteral("master"), outcome.masters.value(i)},
                                       {QStringLiteral("result"), answer}});
            result.lines << outcome.masters.value(i) + QStringLiteral(": ") + answer;
        }
        result.json = {{QStringLiteral("released"), outcome.ok()},
                       {QStringLiteral("resource"), escapeBytes(request.resource)},
                       {QStringLiteral("releasedOn"), outcome.succeeded},
                       {QStringLiteral("total"), outcome.total},
                       {QStringLiteral("masters"), masters}};
        if (!outcome.ok())
            result.json.insert(QStringLiteral("error"), outcome.error.message);
        result.summary = {QStringLiteral("released %1 on %2 of %3 masters")
                              .arg(escapeBytes(request.resource))
                              .arg(outcome.succeeded)
                              .arg(outcome.total)};
        return result;
    }
};

const CommandRegistry releaseRegistration(50, [] { return std::unique_ptr<Command>(new ReleaseCommand); });

} // namespace

} // namespace lockctl
