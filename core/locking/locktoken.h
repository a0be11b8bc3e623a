#pragma once

#include <QByteArray>
#include <QString>

namespace lockscope {

// The random value that makes a lock ours. 128 bits from the system CSPRNG as 32 lower-case hex
// digits, optionally after a readable owner: "<owner>/<32 hex>" (LockFormat::LockScope).
class LockToken
{
public:
    static constexpr int randomHexLength = 32;
    static constexpr int maxOwnerLength = 200;

    // An empty owner gives the bare 32 hex digits.
    static QByteArray generate(const QString& owner = QString());
    static QByteArray randomHex();
    // The owner as it goes into a token: no '/' at its end, no whitespace, control or format
    // characters (bidi overrides, zero-width ones), at most maxOwnerLength bytes, so that the
    // random part is always the text after the last '/'.
    static QByteArray sanitizeOwner(const QString& owner);
};

} // namespace lockscope
