// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "lockctl/command.h"
#include "locking/redlocklease.h"
#include "locking/redlockoutcome.h"
#include "locking/writeverdict.h"

#include <QByteArray>
#include <QJsonObject>
#include <QStringList>

#include <optional>

namespace lockctl {

class WriteSession;

// What the opening of a write command read from its arguments.
struct WriteRequest
{
    QByteArray resource;           // RESOURCE, unescaped
    QByteArray token;              // --token or --expect-token, unescaped; empty when not given
    qint64 ttlMs = 0;              // --ttl, where the command takes it
    lockscope::RedlockLease lease; // RESOURCE and --token, where the command names a held lease
    QString owner;                 // --owner (default user@host:pid), where the command takes it
    QStringList rest;              // the positional arguments after RESOURCE (hold's COMMAND [ARGS])
};

// What the middle of a write command hands to the closing.
struct WriteResult
{
    lockscope::WriteVerdict verdict = lockscope::WriteVerdict::Invalid;
    QString error;       // why it was not done
    QString failure;     // starts the line "lockctl: <failure>: <error>" on standard error
    QJsonObject json;    // with --json, printed before that line; nothing when empty
    QStringList lines;   // without --json, printed before that line
    QStringList summary; // without --json, printed after a success
    // A Redlock write: the masters that failed are listed (all, when too few answered) or warned about.
    std::optional<lockscope::RedlockOutcome> quorum;
    // The middle stopped before anything was written, and has said why: lockctl exits with this.
    std::optional<int> stoppedWith;

    static WriteResult of(const lockscope::RedlockOutcome& outcome, const QString& failure);
    static WriteResult stopped(int code);
};

// A command that writes to the masters. Its run() is one pipeline, in the order in which problems
// are reported; the command plugs its own middle in (write(), and then() after a success):
//   1. the usage line, unless the positional arguments fit (usable()) and a needed --token is there;
//   2. --ttl MS, where the command takes it;
//   3. the command's own options (readOptions(): hold's --grace-ms);
//   4. RESOURCE, and the token option the command takes (--token, --expect-token);
//   5. the write session: --retries and --retry-delay where taken, the audit log checked (prepare());
//   6. --owner, where taken;
//   7. write(): the command's own write and what it prints;
//   8. the report: the JSON or the text, and the verdict as the exit code (exitcode.h);
//   9. then(), after a success (hold runs its command while holding the lock).
class WriteCommand : public Command
{
public:
    using Command::Command;

    int run(CliContext& context, const QCommandLineParser& parser, const QStringList& positional) final;

protected:
    enum class TokenOption
    {
        None,
        Lease,    // --token T, needed: with RESOURCE, the lease that `acquire` printed
        Expected, // --expect-token T, optional
    };
    struct Opening
    {
        bool ttl = false;
        TokenOption token = TokenOption::None;
        bool retries = false;
        bool owner = false;
    };
    virtual Opening opening() const = 0;
    // Whether the positional arguments (and options that exclude each other) fit; default RESOURCE alone.
    virtual bool usable(const QCommandLineParser& parser, const QStringList& positional) const;
    // Said after the usage line.
    virtual QString usageNote() const { return {}; }
    // The command's own options; false with `problem` set.
    virtual bool readOptions(const QCommandLineParser& parser, QString* problem);
    // Checks the audit log before anything is sent; an exit code other than Done stops the command.
    virtual int prepare(CliContext& context, WriteSession& session);
    virtual WriteResult write(CliContext& context, WriteSession& session, const QCommandLineParser& parser,
                              const WriteRequest& request) = 0;
    // After a successful write: lockctl's exit code.
    virtual int then(CliContext& context, WriteSession& session, const WriteRequest& request,
                     const WriteResult& result);

    // Options more than one command takes, described alike everywhere.
    static QList<QCommandLineOption> retryOptions();
    static QCommandLineOption ownerOption();
    static QCommandLineOption tokenOption();

private:
    static int report(CliContext& context, WriteSession& session, const WriteResult& result);
};

} // namespace lockctl
