// SPDX-License-Identifier: Apache-2.0
#include "widgets/scanscopetext.h"

#include <QCoreApplication>
#include <QLocale>

namespace lockscope {

// The words keep the translation context the class gave them.
namespace ScanScopeText {
static QString tr(const char* text)
{
    return QCoreApplication::translate("ScanScopeText", text);
}
} // namespace ScanScopeText

QStringList ScanScopeText::hints(const QList<ScanPattern>& patterns, const QList<MasterSnapshot>& masters)
{
    QStringList out;
    const QString scanned = ScanPattern::listText(patterns);
    for (const MasterSnapshot& m : masters)
        if (m.state == RedisConnection::State::Up && m.keyCount > 0 && m.lockKeys == 0)
            out << tr("M%1 %2: %3 keys, none matched %4 — add a pattern in Connections (Ctrl+K)")
                       .arg(m.index + 1)
                       .arg(m.name, QLocale().toString(m.keyCount), scanned);
    return out;
}

QString ScanScopeText::text(const QList<ScanPattern>& patterns, const QList<MasterSnapshot>& masters)
{
    const QStringList missed = hints(patterns, masters);
    if (!missed.isEmpty())
        return missed.join(QStringLiteral(" · "));
    return tr("Scanning %1").arg(ScanPattern::listText(patterns));
}

} // namespace lockscope
