// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "config/scanpattern.h"
#include "session/mastersnapshot.h"

#include <QList>
#include <QString>

namespace lockscope {

// The status bar's word on what is scanned: the patterns, always, and for each master that is up
// with keys of which none matched, a hint that the patterns miss them ("M2 redis://…: 1,204 keys,
// none matched lock:* — add a pattern in Connections"), or whose matching keys were none of them
// locks. From the masters' last passes (DBSIZE), so it costs no command of its own.
namespace ScanScopeText {

QString text(const QList<ScanPattern>& patterns, const QList<MasterSnapshot>& masters);
// Every pattern, for the tooltip: text() names the defaults in three words.
QString toolTip(const QList<ScanPattern>& patterns);
// "the default patterns", "the default patterns, job:*", or the patterns themselves.
QString patternsText(const QList<ScanPattern>& patterns);
// The masters whose keys none of the patterns matched, one line each (empty: none).
QStringList hints(const QList<ScanPattern>& patterns, const QList<MasterSnapshot>& masters);

} // namespace ScanScopeText

} // namespace lockscope
