// SPDX-License-Identifier: Apache-2.0
#include "connection/comparedelete.h"

#include "connection/redisconnection.h"

namespace lockscope {

namespace {

// The element for `name` names that command (COMMAND INFO's first field, lower case).
bool names(const RedisReply& entry, const QByteArray& name)
{
    return entry.isArray() && !entry.elements.isEmpty() && entry.elements.first().isString() &&
           entry.elements.first().string.toLower() == name;
}

} // namespace

QByteArrayList CompareDeleteProbe::command()
{
    return {"COMMAND", "INFO", "DELIFEQ", "DELEX"};
}

CompareDelete CompareDeleteProbe::read(const RedisReply& reply)
{
    if (!reply.isArray() || reply.elements.size() != 2)
        return CompareDelete::Script;
    // One command, one round trip, either way: the older DELIFEQ is as good as DELEX.
    if (names(reply.elements.at(0), "delifeq"))
        return CompareDelete::DelIfEq;
    if (names(reply.elements.at(1), "delex"))
        return CompareDelete::DelEx;
    return CompareDelete::Script;
}

CompareDelete compareDeleteOn(const RedisConnection& connection)
{
    return connection.isRouted() ? CompareDelete::Script : connection.health().compareDelete;
}

QByteArrayList compareDeleteCommand(CompareDelete how, const QByteArray& key, const QByteArray& value)
{
    switch (how) {
    case CompareDelete::DelIfEq:
        return {"DELIFEQ", key, value};
    case CompareDelete::DelEx:
        return {"DELEX", key, "IFEQ", value};
    case CompareDelete::Script:
        break;
    }
    return {};
}

QString compareDeleteName(CompareDelete how)
{
    switch (how) {
    case CompareDelete::DelIfEq:
        return QStringLiteral("DELIFEQ");
    case CompareDelete::DelEx:
        return QStringLiteral("DELEX IFEQ");
    case CompareDelete::Script:
        break;
    }
    return QStringLiteral("script");
}

} // namespace lockscope
