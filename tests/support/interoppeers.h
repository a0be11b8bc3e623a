// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QJsonObject>
#include <QProcess>
#include <QString>
#include <QStringList>

namespace lockscope::test {

// The real lock libraries of tests/interop (node-redlock, redis-semaphore, redis-lock through
// write-locks.js; redis-py through write_redispy_lock.py), run with the fixture password in their
// environment (URLs without one get it there, never in the arguments).
class InteropPeers
{
public:
    // Why they cannot run here ("node or tests/interop/node_modules missing ..."), or empty.
    static QString missing();
    // write-locks.js <args>: its first JSON line, empty (with a warning) when it failed.
    static QJsonObject node(const QStringList& args);
    // write_redispy_lock.py <name> <timeoutSeconds|none> <url>: its JSON line.
    static QJsonObject redisPy(const QString& name, const QString& timeout, const QString& url);
    // flash_sale.py <key> <url>: two redis-py holders at once and a plain DEL of the second's
    // lock (issue #42's flash sale); its JSON line.
    static QJsonObject flashSale(const QString& key, const QString& url);
    // A Python peer of tests/interop (`script` there) started, not waited for.
    static void startPython(QProcess& process, const QString& script, const QStringList& args);
    // write-locks.js <args> started, not waited for (hold-redlock runs for its hold time).
    static void startNode(QProcess& process, const QStringList& args);
    // Each JSON object line a peer printed so far.
    static QList<QJsonObject> jsonLines(const QByteArray& output);
};

} // namespace lockscope::test

// Skips the calling test when the peers cannot run here (a macro: QSKIP returns from the test
// function itself).
#define LOCKSCOPE_SKIP_WITHOUT_PEERS()                                                                       \
    do {                                                                                                     \
        if (const QString missing = lockscope::test::InteropPeers::missing(); !missing.isEmpty())            \
            QSKIP(qPrintable(missing));                                                                      \
    } while (false)
