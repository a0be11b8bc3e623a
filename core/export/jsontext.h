#pragma once

#include <QByteArray>
#include <QStringView>

namespace lockscope {

// JSON text written straight into a buffer, byte for byte as QJsonDocument::toJson(Compact) writes
// the same values: the streaming `lockctl list --json` must print what the whole-document one
// printed, without a QJsonObject per lock.
class JsonText
{
public:
    // "text" with QJsonDocument's escapes (\" \\ \b \f \n \r \t, \u00XX for other control
    // characters; anything else as UTF-8).
    static void appendString(QByteArray& out, QStringView text);
    static void appendString(QByteArray& out, QLatin1StringView text);
    // "key": (a key LockScope names: plain ASCII, no escapes).
    static void appendKey(QByteArray& out, const char* key);
    static void appendNumber(QByteArray& out, qint64 value);
    static void appendBool(QByteArray& out, bool value) { out += value ? "true" : "false"; }
};

} // namespace lockscope
