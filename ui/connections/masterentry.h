// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QMetaType>
#include <QString>

namespace lockscope {

// One master of a saved connection profile, as kept in QSettings. There is no password here on
// purpose: it lives in the system keychain (keyed by keychainKey()), or in the environment
// variable named by passwordEnv when no keychain is reachable.
struct MasterEntry
{
    QString url; // without password
    QString user;
    QString caFile;
    QString certFile;
    QString keyFile;
    bool insecure = false;
    QString passwordEnv;
    bool passwordInKeychain = false;

    QString keychainKey(const QString& profile) const { return profile + QLatin1Char('/') + url; }
    bool operator==(const MasterEntry&) const = default;
};

} // namespace lockscope

Q_DECLARE_METATYPE(lockscope::MasterEntry)
