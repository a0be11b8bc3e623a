// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QJsonObject>
#include <QList>
#include <QString>

namespace lockscope {

// Reads the tail of an audit log (JSON Lines) for a viewer. A line that is not a JSON object (an
// append cut short by a full disk: a torn line) is skipped and counted, never a reason to give up
// on the file; AuditLog makes sure it never hides the record after it.
namespace AuditReader {

struct Tail
{
    bool exists = false;
    QString error;              // could not be read at all
    QList<QJsonObject> records; // oldest first
    QList<qint64> tornLines;    // 1-based line numbers, counted from where reading began
    bool cut = false;           // only the last `tailBytes` were read
};

// At most `maxRecords` (the newest), from at most the last `tailBytes` of the file.
Tail read(const QString& path, int maxRecords, qint64 tailBytes = 4 * 1024 * 1024);

} // namespace AuditReader

} // namespace lockscope
