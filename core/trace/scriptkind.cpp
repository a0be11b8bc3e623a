// SPDX-License-Identifier: Apache-2.0
#include "trace/scriptkind.h"

#include "trace/monitorline.h"

#include <QCryptographicHash>

namespace lockscope {

namespace {

bool callsCommand(const QByteArray& lowerSource, const char* command)
{
    const QByteArray name(command);
    return lowerSource.contains(QByteArray('\'' + name + '\'')) ||
           lowerSource.contains(QByteArray('"' + name + '"'));
}

} // namespace

ScriptKinds::Kind ScriptKinds::ofSource(const QByteArray& source)
{
    const QByteArray s = source.toLower();
    if (callsCommand(s, "del") || callsCommand(s, "unlink"))
        return Kind::Release;
    if (callsCommand(s, "exists") || callsCommand(s, "nx") || callsCommand(s, "setnx"))
        return Kind::Acquire;
    if (callsCommand(s, "pexpire") || callsCommand(s, "expire") || callsCommand(s, "set"))
        return Kind::Extend;
    return Kind::Unknown;
}

QByteArray ScriptKinds::shaOf(const MonitorLine& script)
{
    const QByteArray command = script.command();
    if (script.args.size() < 2)
        return {};
    if (command == "EVAL" || command == "EVAL_RO")
        return QCryptographicHash::hash(script.args.at(1), QCryptographicHash::Sha1).toHex();
    if (command == "EVALSHA" || command == "EVALSHA_RO")
        return script.args.at(1).toLower();
    return "fcall:" + script.args.at(1); // a function, by name
}

ScriptKinds::Kind ScriptKinds::of(const MonitorLine& script) const
{
    const QByteArray sha = shaOf(script);
    if (sha.isEmpty())
        return Kind::Unknown;
    const auto learnt = m_learnt.constFind(sha);
    if (learnt != m_learnt.cend())
        return *learnt;
    const QByteArray command = script.command();
    if (command == "EVAL" || command == "EVAL_RO")
        return ofSource(script.args.at(1));
    if (command == "FCALL" || command == "FCALL_RO") {
        const QByteArray name = script.args.at(1).toLower();
        if (name.contains("unlock") || name.contains("release"))
            return Kind::Release;
        if (name.contains("extend") || name.contains("renew") || name.contains("refresh"))
            return Kind::Extend;
        if (name.contains("lock") || name.contains("acquire"))
            return Kind::Acquire;
    }
    return Kind::Unknown;
}

void ScriptKinds::noteSource(const MonitorLine& script)
{
    const QByteArray command = script.command();
    if ((command == "EVAL" || command == "EVAL_RO") && script.args.size() >= 2)
        learn(script, ofSource(script.args.at(1)));
}

void ScriptKinds::learn(const MonitorLine& script, Kind kind)
{
    const QByteArray sha = shaOf(script);
    // What a script did most decides: one that ever deleted the lock is a release script (Redisson's
    // unlock only renews the lease while re-entries are left), one that ever took a free lock an
    // acquire script (Redisson's lock script also re-enters, which renews).
    const auto rank = [](Kind k) {
        return k == Kind::Release ? 3 : k == Kind::Acquire ? 2 : k == Kind::Extend ? 1 : 0;
    };
    if (sha.isEmpty() || rank(kind) <= rank(m_learnt.value(sha, Kind::Unknown)) ||
        (m_learnt.size() >= 1024 && !m_learnt.contains(sha)))
        return;
    m_learnt.insert(sha, kind);
}

} // namespace lockscope
