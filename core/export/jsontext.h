// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
#include <QStringView>

#include <string>

namespace lockscope {

// JSON text written straight into a buffer, byte for byte as QJsonDocument::toJson(Compact) writes
// the same values: the streaming `lockctl list --json` must print what the whole-document one
// printed, without a QJsonObject per lock. A std::string, whose appends are inline: a million
// locks make some 50 million of them.
namespace JsonText {

// "text" with QJsonDocument's escapes (\" \\ \b \f \n \r \t, \u00XX for other control
// characters; anything else as UTF-8).
void appendString(std::string& out, QStringView text);
// "escapeBytes(bytes)", without making that QString when the bytes are plain printable ASCII
// (which escapeBytes leaves as they are): keys and tokens, nearly always.
void appendBytes(std::string& out, const QByteArray& bytes);
// "key": (a key LockScope names: plain ASCII, no escapes).
template <size_t N> void appendKey(std::string& out, const char (&key)[N])
{
    out += '"';
    out.append(key, N - 1);
    out += "\":";
}
void appendNumber(std::string& out, qint64 value);
inline void appendBool(std::string& out, bool value)
{
    out += value ? "true" : "false";
}

} // namespace JsonText

} // namespace lockscope
