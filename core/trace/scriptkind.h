// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
#include <QHash>

namespace lockscope {

struct MonitorLine;

// What a lock library's script is for. A trace needs it when a script changed nothing: a release
// that changed nothing because its token no longer holds the lock is a stale holder's; an acquire
// that changed nothing was refused. Told by what the script did when it did change the lock
// (learnt per SHA), else by its source (EVAL), else by a function's name (FCALL).
class ScriptKinds
{
public:
    enum class Kind
    {
        Unknown,
        Acquire,
        Extend,
        Release,
    };

    Kind of(const MonitorLine& script) const;
    // An EVAL's source says what its SHA is for: an EVALSHA of it later (the script cache is the
    // server's, shared by every client) is known from then on.
    void noteSource(const MonitorLine& script);
    // `script` changed the lock as a `kind` does: later runs of it (EVALSHA) are that kind.
    void learn(const MonitorLine& script, Kind kind);

    // From a script's source: a DEL or UNLINK releases; EXISTS or NX acquires; an expiry or a SET
    // extends.
    static Kind ofSource(const QByteArray& source);

private:
    static QByteArray shaOf(const MonitorLine& script);
    QHash<QByteArray, Kind> m_learnt; // by lower-case SHA1 hex
};

} // namespace lockscope
