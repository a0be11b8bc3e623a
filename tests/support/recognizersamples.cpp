// SPDX-License-Identifier: Apache-2.0
#include "support/recognizersamples.h"

#include "base/bytesdisplay.h"

#include <QRegularExpression>

namespace lockscope::test {

const QByteArray kInstanceA = "8f3c2a1e-5b7d-4c9e-a1f2-3b4c5d6e7f80";
const QByteArray kInstanceB = "1b2c3d4e-0000-4abc-9def-0123456789ab";

KeyObservation stringObservation(const QByteArray& value, bool truncated, qint64 valueSize)
{
    KeyObservation o;
    o.present = true;
    o.type = "string";
    o.value = value;
    o.truncated = truncated;
    o.valueSize = valueSize < 0 ? value.size() : valueSize;
    o.pttlMs = -1;
    return o;
}

KeyObservation hashObservation(const QByteArrayList& flat, bool truncated, qint64 elementCount)
{
    KeyObservation o;
    o.present = true;
    o.type = "hash";
    for (qsizetype i = 0; i + 1 < flat.size(); i += 2)
        o.fields.append({flat[i], flat[i + 1]});
    o.truncated = truncated;
    o.elementCount = elementCount < 0 ? o.fields.size() : elementCount;
    o.pttlMs = 30000;
    return o;
}

KeyObservation zsetObservation(const QByteArrayList& members, const QList<double>& scores, bool truncated,
                               qint64 elementCount)
{
    KeyObservation o;
    o.present = true;
    o.type = "zset";
    for (qsizetype i = 0; i < members.size() && i < scores.size(); ++i)
        o.members.append({members[i], scores[i]});
    o.truncated = truncated;
    o.elementCount = elementCount < 0 ? o.members.size() : elementCount;
    o.pttlMs = 10000;
    return o;
}

QStringList describeHolders(const QList<LockHolder>& holders)
{
    QStringList out;
    for (const LockHolder& h : holders)
        out << holderText(h.id, h.owner, h.count, h.sinceMs);
    return out;
}

QString holderText(const QByteArray& id, const QString& owner, qint64 count, qint64 sinceMs)
{
    return QStringLiteral("%1 | %2 | x%3 | %4").arg(QString::fromUtf8(id), owner).arg(count).arg(sinceMs);
}

QStringList describeLock(const RecognizedLock& lock)
{
    return expectedLock(lock.format, lock.token, lock.owner, lock.detail(),
                        describeHolders(lock.holderList()), lock.auxiliary);
}

QStringList expectedLock(LockFormat format, const QByteArray& token, const QString& owner,
                         const QString& detail, const QStringList& holders, bool auxiliary)
{
    return QStringList{QStringLiteral("format: ") + lockFormatName(format),
                       QStringLiteral("token: ") + escapeBytes(token), QStringLiteral("owner: ") + owner,
                       QStringLiteral("detail: ") + detail,
                       QStringLiteral("auxiliary: ") +
                           (auxiliary ? QStringLiteral("yes") : QStringLiteral("no"))} +
           holders;
}

QList<OwnerRule> rulesFrom(const QStringList& specs)
{
    QList<OwnerRule> rules;
    for (const QString& spec : specs) {
        OwnerRule rule;
        rule.keyGlob = spec.section(QLatin1Char('\t'), 0, 0);
        rule.pattern = QRegularExpression(spec.section(QLatin1Char('\t'), 1));
        rules.append(rule);
    }
    return rules;
}

} // namespace lockscope::test
