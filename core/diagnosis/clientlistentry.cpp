// SPDX-License-Identifier: Apache-2.0
#include "diagnosis/clientlistentry.h"

namespace lockscope {

QList<ClientListEntry> ClientListEntry::parse(const QByteArray& reply)
{
    QList<ClientListEntry> out;
    for (const QByteArray& line : reply.split('\n')) {
        const QByteArray trimmed = line.trimmed();
        if (trimmed.isEmpty())
            continue;
        ClientListEntry e;
        // Fields are key=value separated by single spaces; a name cannot hold a space (SETNAME
        // refuses one), so splitting on spaces is exact.
        for (const QByteArray& field : trimmed.split(' ')) {
            const qsizetype eq = field.indexOf('=');
            if (eq <= 0)
                continue;
            const QByteArray key = field.left(eq);
            const QByteArray value = field.mid(eq + 1);
            if (key == "id")
                e.id = value.toLongLong();
            else if (key == "addr")
                e.address = value;
            else if (key == "name")
                e.name = value;
            else if (key == "lib-name")
                e.libraryName = value;
            else if (key == "lib-ver")
                e.libraryVersion = value;
            else if (key == "age")
                e.ageS = value.toLongLong();
            else if (key == "idle")
                e.idleS = value.toLongLong();
        }
        if (e.id >= 0)
            out << e;
    }
    return out;
}

} // namespace lockscope
