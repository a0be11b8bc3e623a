// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace lockscope::test {

// Debian's prometheus package (scripts/install-deps.sh --tests): its promtool and server.
QString promtoolPath();
QString prometheusPath();

// One finished promtool run (stdin `input`); `code` -1 when it could not run or timed out.
struct PromtoolRun
{
    int code = -1;
    QByteArray output; // stdout and stderr
};
PromtoolRun runPromtool(const QStringList& args, const QByteArray& input = {}, int timeoutMs = 60000);

} // namespace lockscope::test
