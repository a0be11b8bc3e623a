// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QObject>

#include <functional>

namespace lockscope {

// Passwords in the system keychain (QtKeychain), never in settings. Every call is asynchronous;
// `noBackend` tells the caller that no keychain service is reachable at all, so it can offer the
// environment-variable fallback instead of failing silently.
namespace SecretStore {

extern const QString service;

using Written = std::function<void(const QString& error, bool noBackend)>;
using Read = std::function<void(const QString& secret, const QString& error, bool noBackend)>;

void write(const QString& key, const QString& secret, QObject* context, Written done);
void read(const QString& key, QObject* context, Read done);
void remove(const QString& key);

} // namespace SecretStore

} // namespace lockscope
