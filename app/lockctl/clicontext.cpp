// SPDX-License-Identifier: Apache-2.0
#include "lockctl/clicontext.h"

#include "base/eventwait.h"
#include "config/commandlineconfig.h"

using namespace lockscope;

namespace lockctl {

QList<QCommandLineOption> CliContext::globalOptions()
{
    QList<QCommandLineOption> options = CommandLineConfig::options();
    options << QCommandLineOption(QStringLiteral("json"), QStringLiteral("Machine-readable output."));
    return options;
}

int CliContext::fail(int code, const QString& message)
{
    m_err << "lockctl: " << message << Qt::endl;
    return code;
}

void CliContext::noteAuditLost(const QString& message)
{
    m_auditLost = true;
    m_err << "lockctl: AUDIT LOG NOT WRITTEN: " << message
          << " (the write went through on the masters but is not recorded)" << Qt::endl;
}

int CliContext::configure(const QCommandLineParser& parser, bool requireMasters)
{
    m_json = parser.isSet(QStringLiteral("json"));
    QStringList warnings;
    Result<LockScopeConfig> built = CommandLineConfig::build(parser, &warnings);
    for (const QString& w : warnings)
        m_err << "lockctl: warning: " << w << Qt::endl;
    if (!built)
        return fail(UsageError, built.error().message);
    m_config = *built;
    if (m_config.masters.isEmpty() && requireMasters)
        return fail(UsageError, QStringLiteral("no masters: give -m URL (repeatable) or --config FILE"));
    for (ConnectionOptions& m : m_config.masters) {
        m.healthIntervalMs = 0; // a one-shot tool has no use for background pings
        m.autoReconnect = false;
    }
    return Done;
}

MasterSet& CliContext::openMasters()
{
    if (!m_masters) {
        m_masters = std::make_unique<MasterSet>(m_config.masters);
        m_masters->open();
        // Each master settles within its own connect timeout; a little slack for the event loop.
        int longest = 0;
        for (const ConnectionOptions& m : m_config.masters) {
            // A Sentinel entry asks its sentinels in turn, checks the primary, then connects to it.
            const int steps = m.topology ? int(m.topology->seeds().size()) + 2 : 1;
            longest = qMax(longest, m.connectTimeoutMs * steps);
        }
        waitUntil([this] { return m_masters->isSettled(); }, longest + 500);
    }
    return *m_masters;
}

bool CliContext::waitUntil(const std::function<bool()>& done, int timeoutMs)
{
    return runEventsUntil(done, timeoutMs);
}

lockscope::TeamAuditLog* CliContext::teamAudit()
{
    if (!m_teamAudit && m_config.teamDatabase)
        m_teamAudit =
            std::make_unique<lockscope::TeamAuditLog>(*m_config.teamDatabase, m_config.teamDatabasePassword);
    return m_teamAudit.get();
}

lockscope::AuditLog CliContext::auditLog()
{
    lockscope::AuditLog log(m_config.auditLogPath, m_config.allowSharedAuditLog);
    log.setTeam(teamAudit());
    return log;
}

} // namespace lockctl
