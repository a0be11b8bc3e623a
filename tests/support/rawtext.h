// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
#include <QString>

namespace lockscope::test {

// The bytes a hostile writer puts into a key, token or owner: ESC [2K (erase the line), CR (back to
// its start), BEL, NUL (ends a C string) and U+202E (shows the rest of the line right to left).
inline const QByteArray hostileBytes("\x1b[2K\r\x07\x00\xe2\x80\xae", 10);
// A lock that carries them in its name, in its owner and in its token.
inline const QByteArray hostileKey = "lock:" + hostileBytes + "evil";
inline const QByteArray hostileOwner = "own" + hostileBytes + "er";
inline const QByteArray hostileToken = hostileOwner + "/0123456789abcdef0123456789abcdef";

// What a front end printed or showed, checked for server bytes that reached it raw: ESC, CR, BEL,
// NUL, other controls but the line feed, a bidi override or isolate, or any other character
// escapeBytes() would have escaped (invalid UTF-8 included). Empty when there is none; otherwise
// which one and where, escaped, for the failure message.
QString rawTextIn(const QByteArray& output);
QString rawTextIn(const QString& shown);

} // namespace lockscope::test
