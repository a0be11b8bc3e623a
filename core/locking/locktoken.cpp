// SPDX-License-Identifier: Apache-2.0
#include "locking/locktoken.h"

#include <QRandomGenerator>

namespace lockscope {

QByteArray LockToken::randomHex()
{
    // QRandomGenerator::system() reads the operating system's CSPRNG (getrandom(2)); the global
    // generator would be a seeded PRNG and predictable tokens defeat the point of a token.
    quint32 words[4];
    QRandomGenerator::system()->fillRange(words);
    return QByteArray(reinterpret_cast<const char*>(words), sizeof(words)).toHex();
}

QByteArray LockToken::sanitizeOwner(const QString& owner)
{
    QString text = owner;
    for (QChar& c : text)
        // Format characters too (bidi overrides, zero-width ones): a token is shown in other
        // people's monitors, and an owner must not reorder or hide what is printed around it.
        if (c.isSpace() || c.category() == QChar::Other_Control || c.category() == QChar::Other_Format)
            c = QLatin1Char('_');
    QByteArray out = text.toUtf8();
    // Cut whole characters only: a token is text that people copy into commands.
    while (out.size() > maxOwnerLength) {
        text.chop(1);
        out = text.toUtf8();
    }
    while (out.endsWith('/'))
        out.chop(1);
    return out;
}

QByteArray LockToken::generate(const QString& owner)
{
    const QByteArray prefix = sanitizeOwner(owner);
    if (prefix.isEmpty())
        return randomHex();
    return prefix + '/' + randomHex();
}

} // namespace lockscope
