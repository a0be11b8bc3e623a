// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "audit/auditlog.h"
#include "audit/teamauditlog.h"
#include "config/lockscopeconfig.h"
#include "lockctl/exitcode.h"
#include "topology/masterset.h"

#include <QCommandLineParser>
#include <QTextStream>

#include <functional>
#include <memory>

namespace lockctl {

// What every command shares: the parsed global options, the configuration they produced,
// the masters, and the output streams.
class CliContext
{
public:
    static QList<QCommandLineOption> globalOptions();

    // Builds the configuration from --config and/or -m and the TLS/timeout options.
    // Returns UsageError (with the message already printed) when they are wrong, or when no master
    // is named and `requireMasters`.
    int configure(const QCommandLineParser& parser, bool requireMasters = true);

    lockscope::LockScopeConfig& config() { return m_config; }
    bool json() const { return m_json; }
    bool readOnly() const { return m_config.readOnly; }
    QString auditLogPath() const { return m_config.auditLogPath; }
    // The audit log the writes go to: the file, and the team database's trail when one is configured
    // (--team-db), which this context keeps open for its life.
    lockscope::AuditLog auditLog();
    // The team database's audit trail; null without --team-db.
    lockscope::TeamAuditLog* teamAudit();

    // Opens every master and runs the event loop until each has come up or failed once.
    lockscope::MasterSet& openMasters();
    lockscope::MasterSet* masters() { return m_masters.get(); }

    // Runs the event loop until `done` returns true or `timeoutMs` passes; false on timeout.
    bool waitUntil(const std::function<bool()>& done, int timeoutMs);

    QTextStream& out() { return m_out; }
    QTextStream& err() { return m_err; }
    // Prints "lockctl: message" on stderr and returns `code`.
    int fail(int code, const QString& message);
    // A write went through but is not in the audit log: said at once on stderr, and lockctl then
    // exits with AuditLost whatever the command's own result (main() sees to it).
    void noteAuditLost(const QString& message);
    bool auditLost() const { return m_auditLost; }

private:
    lockscope::LockScopeConfig m_config;
    std::unique_ptr<lockscope::MasterSet> m_masters;
    std::unique_ptr<lockscope::TeamAuditLog> m_teamAudit;
    bool m_json = false;
    bool m_auditLost = false;
    QTextStream m_out{stdout};
    QTextStream m_err{stderr};
};

} // namespace lockctl
