// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "connection/redisconnection.h"
#include "monitor/lockstatus.h"

#include <QIcon>
#include <QPalette>

namespace lockscope {

// How statuses look: colours derived from the palette (so light and dark themes both read well),
// and a distinct shape per status, so that colour is never the only signal.
namespace StatusStyle {

bool isDark(const QPalette& palette);
QColor statusColor(LockStatus status, const QPalette& palette);
QIcon statusIcon(LockStatus status, const QPalette& palette);
QString statusText(LockStatus status);
QString statusExplanation(LockStatus status);
// What a person should do about it (Help > What each status means, and docs/manual/statuses.md).
QString statusAdvice(LockStatus status);
// The "at risk" mark, which comes on top of a status.
QString atRiskExplanation();
QString atRiskAdvice();
// A stable colour per token, so one holder has one colour on every node and in every row.
// Its hue is never near a status colour's (reservedColors).
QColor tokenColor(const QByteArray& token, const QPalette& palette);
// The colours that mean a status or a warning: token colours keep away from them.
QList<QColor> reservedColors(const QPalette& palette);
QColor masterStateColor(RedisConnection::State state, const QPalette& palette);
QString masterStateText(RedisConnection::State state);
QColor warningColor(const QPalette& palette);
// Two holders at once: the stretch two holders' bars overlap, in the demo's and the History's
// timelines alike.
QColor overlapColor();

// Severity order used for sorting by status: the ones that need a person first.
int severity(LockStatus status);

} // namespace StatusStyle

} // namespace lockscope
