// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QRegularExpression>
#include <QString>

namespace lockscope {

// A user's rule for reading the owner out of a token, e.g. "^(?<owner>[a-z0-9-]+):".
// The named group "owner" is used when present, else the first capture, else the whole match.
struct OwnerRule
{
    QString keyGlob = QStringLiteral("*"); // which keys the rule applies to
    QRegularExpression pattern;

    // The owner named by this rule for `token`, or an empty string when it does not apply.
    QString ownerOf(const QByteArray& key, const QByteArray& token) const;
};

} // namespace lockscope
