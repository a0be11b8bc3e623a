#pragma once

#include "result.h"

#include <QByteArray>
#include <QString>

namespace lockscope {

// Keys and tokens are bytes. People and JSON need text: valid, printable UTF-8 stays as it is;
// anything else (invalid UTF-8, control characters) becomes \xNN, and a backslash becomes \\,
// so the printed form can be typed back (e.g. into `lockctl force-release`) and means the same key.
QString escapeBytes(const QByteArray& bytes);
Result<QByteArray> unescapeBytes(const QString& text);

} // namespace lockscope
