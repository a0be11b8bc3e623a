// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"

#include <QByteArray>
#include <QByteArrayList>
#include <QString>

namespace lockscope {

// Keys, tokens and every other text a server sends are bytes. People and JSON need text: valid
// UTF-8 that shows as what it is stays as it is; anything else becomes \xNN, one per byte, and a
// backslash becomes \\. "Anything else" is invalid UTF-8, controls (C0, DEL, C1: ESC, CR, BEL,
// NUL...), format characters (bidi overrides and isolates U+202A..U+202E, U+2066..U+2069, marks,
// zero-width characters, BOM, tags), line/paragraph separators, spaces other than U+0020,
// unassigned code points and the other default-ignorable ones. The result therefore cannot move a
// terminal's cursor, reorder a label or hide a difference, and it types back: unescapeBytes (and
// so `lockctl force-release RESOURCE`) gives exactly the same bytes.
// This is the one function that turns server bytes into display text: use it for error replies,
// owners and details decoded from values, host names and anything else a server chose.
QString escapeBytes(const QByteArray& bytes);
Result<QByteArray> unescapeBytes(const QString& text);
// Text made from server bytes earlier and kept (a recording's owners, details and master names):
// it should already be escaped, but a file can be written by anyone, and an older LockScope stored
// a TYPE reply and a run_id as they came. What escapeBytes would escape is escaped the same way
// (\xNN for each of its UTF-8 bytes, C1 included); a backslash is left alone, since the text is
// already in escaped form and escaping it again would show every \xNN twice.
QString escapeText(QStringView text);
// A command as an admin reads it before or after it is sent: each argument escaped, space-separated.
QString escapeCommand(const QByteArrayList& argv);

} // namespace lockscope
