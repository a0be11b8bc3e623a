#pragma once

#include "connection/redisconnection.h"
#include "monitor/lockstatus.h"

#include <QCoreApplication>
#include <QIcon>
#include <QPalette>

namespace lockscope {

// How statuses look: colours derived from the palette (so light and dark themes both read well),
// and a distinct shape per status, so that colour is never the only signal.
class StatusStyle
{
    Q_DECLARE_TR_FUNCTIONS(StatusStyle)

public:
    static bool isDark(const QPalette& palette);
    static QColor statusColor(LockStatus status, const QPalette& palette);
    static QIcon statusIcon(LockStatus status, const QPalette& palette);
    static QString statusText(LockStatus status);
    static QString statusExplanation(LockStatus status);
    // What a person should do about it (Help > What each status means, and docs/manual/statuses.md).
    static QString statusAdvice(LockStatus status);
    // The "at risk" mark, which comes on top of a status.
    static QString atRiskExplanation();
    static QString atRiskAdvice();
    // A stable colour per token, so one holder has one colour on every node and in every row.
    // Its hue is never near a status colour's (reservedColors).
    static QColor tokenColor(const QByteArray& token, const QPalette& palette);
    // The colours that mean a status or a warning: token colours keep away from them.
    static QList<QColor> reservedColors(const QPalette& palette);
    static QColor masterStateColor(RedisConnection::State state, const QPalette& palette);
    static QString masterStateText(RedisConnection::State state);
    static QColor warningColor(const QPalette& palette);

    // Severity order used for sorting by status: the ones that need a person first.
    static int severity(LockStatus status);
};

} // namespace lockscope
