#pragma once

#include <QByteArray>
#include <QString>

#include <optional>

namespace lockctl {

// A RESOURCE or token argument, typed the way list and watch print it (escapeBytes: \xNN for a
// byte that is not printable UTF-8, \\ for a backslash), so any key that was shown can be named.
class BytesArgument
{
public:
    // The bytes, or nothing with `problem` set; `what` names the argument in the message.
    static std::optional<QByteArray> parse(const QString& text, const QString& what, QString* problem);
};

} // namespace lockctl
