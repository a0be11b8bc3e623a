// SPDX-License-Identifier: Apache-2.0
#include "base/bytesdisplay.h"
#include "lockctl/arguments.h"
#include "lockctl/writecommand.h"
#include "lockctl/writesession.h"

#include <QJsonObject>

using namespace lockscope;

namespace lockctl {

namespace {

// Takes a Redlock on the masters and leaves it held: scripts pass the printed token to
// `extend` and `release` later.
class AcquireCommand final : public WriteCommand
{
public:
    AcquireCommand()
        : WriteCommand(
              {.name = QStringLiteral("acquire"),
               .synopsis = QStringLiteral(
                   "acquire RESOURCE --ttl MS [--retries N] [--retry-delay MS] [--owner TEXT] [--json]"),
               .summary = QStringLiteral(
                   "Take a Redlock (SET NX PX on every master, quorum N/2+1); prints the token "
                   "(first line) and the validity.")})
    {}
    QList<QCommandLineOption> options() const override
    {
        return QList<QCommandLineOption>{TtlArgument::option()} << retryOptions() << ownerOption();
    }

protected:
    Opening opening() const override { return {.ttl = true, .retries = true, .owner = true}; }

    WriteResult write(CliContext&, WriteSession& session, const QCommandLineParser&,
                      const WriteRequest& request) override
    {
        const RedlockOutcome outcome = session.acquire(request.resource, request.ttlMs, request.owner);
        const double elapsedMs = double(outcome.elapsedUs) / 1000.0;
        WriteResult result = WriteResult::of(outcome, QStringLiteral("not acquired"));
        result.json = {
            {QStringLiteral("acquired"), outcome.ok()},
            {QStringLiteral("resource"), escapeBytes(request.resource)},
            {QStringLiteral("token"),
             outcome.ok() ? QJsonValue(escapeBytes(outcome.lease.token)) : QJsonValue()},
            {QStringLiteral("validityMs"), outcome.ok() ? outcome.lease.validityMs : 0},
            {QStringLiteral("locked"), outcome.succeeded},
            {QStringLiteral("total"), outcome.total},
            {QStringLiteral("elapsedMs"), elapsedMs},
        };
        if (!outcome.ok())
            result.json.insert(QStringLiteral("error"), outcome.error.message);
        // Escaped like every token shown: `extend` and `release` take it back as typed.
        result.summary = {escapeBytes(outcome.lease.token),
                          QStringLiteral("acquired %1 on %2 of %3 masters in %4 ms; valid for %5 ms")
                              .arg(escapeBytes(request.resource))
                              .arg(outcome.succeeded)
                              .arg(outcome.total)
                              .arg(elapsedMs, 0, 'f', 2)
                              .arg(outcome.lease.validityMs)};
        return result;
    }
};

const CommandRegistry acquireRegistration(30, [] { return std::unique_ptr<Command>(new AcquireCommand); });

} // namespace

} // namespace lockctl
