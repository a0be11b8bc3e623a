// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"

#include <QByteArray>
#include <QByteArrayList>
#include <QByteArrayView>

namespace lockscope {

// One line of MONITOR's stream, as the server wrote it:
//
//     1701516000.123456 [0 127.0.0.1:54321] "SET" "lock:x" "tok" "NX" "PX" "30000"
//     1701516000.123470 [0 lua] "del" "lock:x"
//
// (with or without the leading '+' of a RESP simple string). The arguments come quoted the way the
// server's sdscatrepr quotes them: \" \\ \n \r \t \a \b and \xHH for any other byte outside printable
// ASCII; parsing gives the bytes back, exactly. Bytes from a server are data: every field is
// checked, and a line that is not of this shape is an error, never a guess.
struct MonitorLine
{
    qint64 timeUs = 0; // the server's time of the command, µs since the epoch
    int db = 0;
    QByteArray client;   // "127.0.0.1:54321", "[::1]:6379", "unix:/run/redis.sock", or "lua"
    QByteArrayList args; // the command and its arguments

    // Run by a script (EVAL, EVALSHA, FCALL) rather than sent by a client.
    bool fromScript() const { return client == "lua"; }
    // The command's name, upper-cased (a script's calls come in the case it wrote them).
    QByteArray command() const { return args.isEmpty() ? QByteArray() : args.first().toUpper(); }
    // EVAL, EVALSHA, FCALL and their read-only forms: the line of a script, its calls follow it.
    static bool isScript(const QByteArray& command)
    {
        return command == "EVAL" || command == "EVALSHA" || command == "EVAL_RO" || command == "EVALSHA_RO" ||
               command == "FCALL" || command == "FCALL_RO";
    }
};

namespace MonitorLineParser {

// Longest line accepted: a command with a 1 MiB value, quoted at its worst (4 bytes per byte).
inline constexpr qsizetype maxLineBytes = 4 * 1024 * 1024 + 4096;

Result<MonitorLine> parse(QByteArrayView line);

} // namespace MonitorLineParser

} // namespace lockscope
