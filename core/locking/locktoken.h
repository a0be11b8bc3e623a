// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
#include <QString>

namespace lockscope {

// The random value that makes a lock ours. 128 bits from the system CSPRNG as 32 lower-case hex
// digits, optionally after a readable owner: "<owner>/<32 hex>" (LockFormat::LockScope).
namespace LockToken {

inline constexpr int randomHexLength = 32;
inline constexpr int maxOwnerLength = 200;

// An empty owner gives the bare 32 hex digits.
QByteArray generate(const QString& owner = QString());
QByteArray randomHex();
// The owner as it goes into a token: no '/' at its end, no whitespace, control or format
// characters (bidi overrides, zero-width ones), at most maxOwnerLength bytes, so that the
// random part is always the text after the last '/'.
QByteArray sanitizeOwner(const QString& owner);

} // namespace LockToken

} // namespace lockscope
