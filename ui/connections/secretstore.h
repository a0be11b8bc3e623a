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

// A password the keychain could not take, held in this process's memory until it exits (never on
// disk): a master whose password passed the Test button still connects in this session.
void keepForSession(const QString& key, const QString& secret);
QString sessionSecret(const QString& key);
void forgetSessionSecret(const QString& key);

} // namespace SecretStore

} // namespace lockscope
