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

QString ScanScopeText::patternsText(const QList<ScanPattern>& patterns)
{
    // Nine globs fill a status bar: the defaults are named as such (the tooltip lists them).
    const QList<ScanPattern> defaults = ScanPattern::defaults();
    if (patterns.size() < defaults.size() || patterns.mid(0, defaults.size()) != defaults)
        return ScanPattern::listText(patterns);
    const QList<ScanPattern> own = patterns.mid(defaults.size());
    return own.isEmpty() ? tr("the default patterns")
                         : tr("the default patterns, %1").arg(ScanPattern::listText(own));
}

QStringList ScanScopeText::hints(const QList<ScanPattern>& patterns, const QList<MasterSnapshot>& masters)
{
    QStringList out;
    const QString scanned = patternsText(patterns);
    for (const MasterSnapshot& m : masters) {
        if (m.state != RedisConnection::State::Up || m.keyCount <= 0 || m.lockKeys != 0)
            continue;
        const QString keys = QLocale().toString(m.keyCount);
        if (m.matchedKeys > 0)
            // Matched, and judged no locks (a "find locks among keys" pattern): "none matched"
            // would send the user looking for a pattern that is already there.
            out << tr("M%1 %2: %3 keys, %4 matched %5, none of them a lock")
                       .arg(m.index + 1)
                       .arg(m.name, keys, QLocale().toString(m.matchedKeys), scanned);
        else
            out << tr("M%1 %2: %3 keys, none matched %4 — add a pattern in Connections (Ctrl+K)")
                       .arg(m.index + 1)
                       .arg(m.name, keys, scanned);
    }
    return out;
}

QString ScanScopeText::text(const QList<ScanPattern>& patterns, const QList<MasterSnapshot>& masters)
{
    const QStringList missed = hints(patterns, masters);
    if (!missed.isEmpty())
        return missed.join(QStringLiteral(" · "));
    return tr("Scanning %1").arg(patternsText(patterns));
}

QString ScanScopeText::toolTip(const QList<ScanPattern>& patterns)
{
    return tr("Scanned key patterns: %1").arg(ScanPattern::listText(patterns));
}

} // namespace lockscope
