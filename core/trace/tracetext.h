// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "trace/tracedcommand.h"
#include "trace/tracesummary.h"

#include <QJsonObject>
#include <QStringList>

namespace lockscope {

// A traced command and a trace's summary as people and scripts read them (lockctl trace, the
// window's trace panel). Every byte from a server goes through escapeBytes; a script's source is
// shown as its SHA1 and size, not its text.
namespace TraceText {

// "SET lock:x tok NX PX 30000"; "EVAL <script 1a2b3c4d, 212 bytes> 1 lock:x tok".
QString command(const QByteArrayList& args);
// The master's time of day, "12:00:01.234" (UTC).
QString time(qint64 us);
// One line: time, master, connection, meaning, command, and why.
QString line(const TracedCommand& command, const QString& masterName);
QJsonObject toJson(const TracedCommand& command, const QString& masterName);
// A table of the contenders, then the holds, releases and warnings.
QStringList summaryLines(const TraceSummary& summary, const QStringList& masterNames);
QJsonObject summaryJson(const TraceSummary& summary, const QStringList& masterNames);

} // namespace TraceText

} // namespace lockscope
