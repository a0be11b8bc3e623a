// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"
#include "config/lockscopeconfig.h"
#include "config/masteroverrides.h"

#include <QCommandLineOption>
#include <QList>
#include <QStringList>

class QCommandLineParser;

namespace lockscope {

// The options lockctl and the window share (-m, --config, --timeout-ms, --tls-*, --password-env,
// --read-only, --audit-log, --allow-shared-audit-log) and the configuration they produce, so both
// read a command line alike.
namespace CommandLineConfig {

QList<QCommandLineOption> options();
// Config file first, then the command line on top. Warnings (unknown config fields) are added
// to `warnings`; errors are worded for the person who typed the command. auditLogPath is
// always set (the default when neither the file nor --audit-log names one). `overrides` gets
// what the command line says about every master, for masters named later (a profile).
Result<LockScopeConfig> build(const QCommandLineParser& parser, QStringList* warnings,
                              MasterOverrides* overrides = nullptr);
// --pattern GLOB (every matching key is a lock), --discover GLOB (find the locks among the
// matching keys) and --fence GLOB (fencing counters), all repeatable; `what` ends the help text
// ("to scan for", "to watch").
QList<QCommandLineOption> patternOptions(const QString& what);
// Given --pattern or --discover, the command line's patterns replace the configured ones
// (--pattern's first, then --discover's); --fence's are added to whichever are in use. True when
// any was given.
bool applyPatternOptions(const QCommandLineParser& parser, MonitorSettings& monitor);
// One audit trail per user, whichever tool acted: AuditLog::defaultPath().
QString defaultAuditLogPath();

} // namespace CommandLineConfig

} // namespace lockscope
