// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"
#include "config/launchconfig.h"
#include "config/lockscopeconfig.h"

#include <QStringList>

namespace lockscope {

// The window's command line, the same global options as lockctl: -m URL (repeatable), --config
// FILE, --timeout-ms, --tls-*, --password-env, --read-only, --audit-log, --pattern, --discover; plus --demo,
// --db and --no-record.
struct LaunchOptions
{
    LockScopeConfig config;
    // The same, with what the command line says about every master: a profile chosen later
    // combines with it (the rules of docs/manual/configuration.md; read-only wins).
    LaunchConfig launch;
    QString auditLogPath;
    // Where this run records (empty: the user's recording). The demo keeps a recording and an audit
    // log of its own: its throw-away masters' stories must not show in the user's History.
    QString recordingPath;
    bool demo = false;
    QByteArray select;     // a resource to select once it is seen (an alert's link, say)
    QString reviewPath;    // --db FILE|URL without masters: review this recording
    bool noRecord = false; // --no-record: the window does not record in this run
    QStringList warnings;

    bool hasMasters() const { return !config.masters.isEmpty(); }

    // Errors are typed and worded for the person who typed the command.
    static Result<LaunchOptions> parse(const QStringList& arguments);
    // Where lockctl writes too: one audit trail per user, whichever tool acted.
    static QString defaultAuditLogPath();
};

} // namespace lockscope
