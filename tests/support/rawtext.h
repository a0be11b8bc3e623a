#pragma once

#include <QByteArray>
#include <QString>

namespace lockscope::test {

// What a front end printed or showed, checked for server bytes that reached it raw: ESC, CR, BEL,
// NUL, other controls but the line feed, a bidi override or isolate, or any other character
// escapeBytes() would have escaped (invalid UTF-8 included). Empty when there is none; otherwise
// which one and where, escaped, for the failure message.
QString rawTextIn(const QByteArray& output);
QString rawTextIn(const QString& shown);

} // namespace lockscope::test
