// SPDX-License-Identifier: Apache-2.0
#include "base/bytesdisplay.h"
#include "lockctl/arguments.h"
#include "lockctl/writecommand.h"
#include "lockctl/writesession.h"

#include <QJsonObject>

using namespace lockscope;

namespace lockctl {

namespace {

// Gives a held lock a new TTL on every master that still has our token.
class ExtendCommand final : public WriteCommand
{
public:
    ExtendCommand()
        : WriteCommand({.name = QStringLiteral("extend"),
                        .synopsis = QStringLiteral("extend RESOURCE --token T --ttl MS [--json]"),
                        .summary = QStringLiteral(
                            "Set a held lock's TTL again where it still has TOKEN; needs a quorum.")})
    {}
    QList<QCommandLineOption> options() const override { return {TtlArgument::option(), tokenOption()}; }

protected:
    Opening opening() const override { return {.ttl = true, .token = TokenOption::Lease}; }

    WriteResult write(CliContext&, WriteSession& session, const QCommandLineParser&,
                      const WriteRequest& request) override
    {
        const RedlockOutcome outcome = session.extend(request.lease, request.ttlMs);
        WriteResult result = WriteResult::of(outcome, QStringLiteral("not extended"));
        result.json = {{QStringLiteral("extended"), outcome.ok()},
                       {QStringLiteral("resource"), escapeBytes(request.resource)},
                       {QStringLiteral("validityMs"), outcome.ok() ? outcome.lease.validityMs : 0},
                       {QStringLiteral("extendedOn"), outcome.succeeded},
                       {QStringLiteral("total"), outcome.total},
                       {QStringLiteral("elapsedMs"), double(outcome.elapsedUs) / 1000.0}};
        if (!outcome.ok())
            result.json.insert(QStringLiteral("error"), outcome.error.message);
        result.summary = {QStringLiteral("extended %1 on %2 of %3 masters; valid for %4 ms")
                              .arg(escapeBytes(request.resource))
                              .arg(outcome.succeeded)
                              .arg(outcome.total)
                              .arg(outcome.lease.validityMs)};
        return result;
    }
};

const CommandRegistry extendRegistration(40, [] { return std::unique_ptr<Command>(new ExtendCommand); });

} // namespace

} // namespace lockctl
