// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace lockscope::test {

// One finished child process, as a test sees it.
struct ProcessRun
{
    int code = -1; // -1: killed, crashed, timed out or not started
    QByteArray out;
    QByteArray err;
    qint64 ms = 0;

    // For failure messages; each stream is cut at 2000 bytes (a test may print 1 MB names).
    QString describe() const;
};

// Runs `program` with standard input closed (a pipe, never a terminal), in `workingDirectory` when
// given, with `environment` (this process's when empty). This thread's event loop keeps running
// while it waits, so peers living on it (a test's fake server) still answer.
ProcessRun runProcess(const QString& program, const QStringList& args,
                      const QProcessEnvironment& environment = {}, const QString& workingDirectory = {},
                      int timeoutMs = 30000);

// `arg` in single quotes for sh -c, a quote inside it closed, escaped and reopened.
QString shellQuoted(const QString& arg);

// Runs `program` on a pseudo-terminal (util-linux script(1)): its stdout is a terminal, `input` is
// what is typed. The terminal's CR LF line ends come back as LF; stderr goes to the terminal too.
// code -1 with an explanation in err when script(1) is missing.
ProcessRun runOnTerminal(const QString& program, const QStringList& args,
                         const QProcessEnvironment& environment, const QByteArray& input = {},
                         int timeoutMs = 30000);

} // namespace lockscope::test
