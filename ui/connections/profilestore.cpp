// SPDX-License-Identifier: Apache-2.0
#include "connections/profilestore.h"

#include "config/configloader.h"
#include "connections/notificationsettings.h"

#include <QSet>
#include <QSettings>

namespace lockscope {

QList<ConnectionProfile> ProfileStore::load()
{
    QSettings settings;
    QList<ConnectionProfile> profiles;
    const int count = settings.beginReadArray(QStringLiteral("profiles"));
    for (int i = 0; i < count; ++i) {
        settings.setArrayIndex(i);
        ConnectionProfile p;
        p.name = settings.value(QStringLiteral("name")).toString();
        p.readOnlyLocked = settings.value(QStringLiteral("readOnlyLocked")).toBool();
        p.readOnly = settings.value(QStringLiteral("readOnly")).toBool() || p.readOnlyLocked;
        p.production = settings.value(QStringLiteral("production")).toBool();
        const int masters = settings.beginReadArray(QStringLiteral("masters"));
        for (int m = 0; m < masters; ++m) {
            settings.setArrayIndex(m);
            MasterEntry e;
            e.url = settings.value(QStringLiteral("url")).toString();
            e.user = settings.value(QStringLiteral("user")).toString();
            e.caFile = settings.value(QStringLiteral("tlsCa")).toString();
            e.certFile = settings.value(QStringLiteral("tlsCert")).toString();
            e.keyFile = settings.value(QStringLiteral("tlsKey")).toString();
            e.insecure = settings.value(QStringLiteral("tlsInsecure")).toBool();
            e.passwordEnv = settings.value(QStringLiteral("passwordEnv")).toString();
            e.passwordInKeychain = settings.value(QStringLiteral("passwordInKeychain")).toBool();
            p.masters << e;
        }
        settings.endArray();
        // Profiles saved before patterns existed have none: the launch's patterns apply.
        const int patterns = settings.beginReadArray(QStringLiteral("patterns"));
        for (int k = 0; k < patterns; ++k) {
            settings.setArrayIndex(k);
            const QByteArray match = settings.value(QStringLiteral("match")).toByteArray();
            const std::optional<PatternMode> mode =
                patternModeFromName(settings.value(QStringLiteral("mode")).toString());
            if (!match.isEmpty())
                p.patterns << ScanPattern(match, mode.value_or(PatternMode::Locks));
        }
        settings.endArray();
        if (const Result<ScanRate> rate =
                ScanRate::parse(settings.value(QStringLiteral("scanRate")).toString()))
            p.scanRate = *rate; // absent or unreadable: the launch's
        p.notifications = NotificationSettings::read(settings);
        p.team.url = settings.value(QStringLiteral("teamDatabase")).toString();
        p.team.passwordEnv = settings.value(QStringLiteral("teamDatabasePasswordEnv")).toString();
        p.team.passwordInKeychain = settings.value(QStringLiteral("teamDatabasePasswordInKeychain")).toBool();
        profiles << p;
    }
    settings.endArray();
    return profiles;
}

void ProfileStore::save(const QList<ConnectionProfile>& profiles)
{
    QSet<QString> locked;
    for (const ConnectionProfile& stored : load())
        if (stored.readOnlyLocked)
            locked.insert(stored.name);
    QSettings settings;
    settings.remove(QStringLiteral("profiles"));
    settings.beginWriteArray(QStringLiteral("profiles"), int(profiles.size()));
    for (int i = 0; i < profiles.size(); ++i) {
        settings.setArrayIndex(i);
        const ConnectionProfile& p = profiles.at(i);
        const bool lockedNow = p.readOnlyLocked || locked.contains(p.name);
        settings.setValue(QStringLiteral("name"), p.name);
        settings.setValue(QStringLiteral("readOnly"), p.readOnly || lockedNow);
        settings.setValue(QStringLiteral("readOnlyLocked"), lockedNow);
        settings.setValue(QStringLiteral("production"), p.production);
        settings.beginWriteArray(QStringLiteral("masters"), int(p.masters.size()));
        for (int m = 0; m < p.masters.size(); ++m) {
            settings.setArrayIndex(m);
            const MasterEntry& e = p.masters.at(m);
            settings.setValue(QStringLiteral("url"), e.url);
            settings.setValue(QStringLiteral("user"), e.user);
            settings.setValue(QStringLiteral("tlsCa"), e.caFile);
            settings.setValue(QStringLiteral("tlsCert"), e.certFile);
            settings.setValue(QStringLiteral("tlsKey"), e.keyFile);
            settings.setValue(QStringLiteral("tlsInsecure"), e.insecure);
            settings.setValue(QStringLiteral("passwordEnv"), e.passwordEnv);
            settings.setValue(QStringLiteral("passwordInKeychain"), e.passwordInKeychain);
        }
        settings.endArray();
        settings.beginWriteArray(QStringLiteral("patterns"), int(p.patterns.size()));
        for (int k = 0; k < p.patterns.size(); ++k) {
            settings.setArrayIndex(k);
            settings.setValue(QStringLiteral("match"), p.patterns.at(k).match);
            settings.setValue(QStringLiteral("mode"), patternModeName(p.patterns.at(k).mode));
        }
        settings.endArray();
        if (p.scanRate)
            settings.setValue(QStringLiteral("scanRate"), p.scanRate->toString());
        NotificationSettings::write(settings, p.notifications);
        if (!p.team.isEmpty()) { // never its password: that is the keychain's
            settings.setValue(QStringLiteral("teamDatabase"), p.team.url);
            settings.setValue(QStringLiteral("teamDatabasePasswordEnv"), p.team.passwordEnv);
            settings.setValue(QStringLiteral("teamDatabasePasswordInKeychain"), p.team.passwordInKeychain);
        }
    }
    settings.endArray();
}

Result<LockScopeConfig> ProfileStore::toConfig(const ConnectionProfile& profile,
                                               const QHash<QString, QString>& passwords)
{
    LockScopeConfig config;
    config.readOnly = profile.isReadOnly();
    config.production = profile.production;
    if (!profile.patterns.isEmpty())
        config.monitor.patterns = profile.patterns;
    for (const MasterEntry& e : profile.masters) {
        TlsOptions tls;
        tls.caFile = e.caFile;
        tls.certFile = e.certFile;
        tls.keyFile = e.keyFile;
        tls.insecure = e.insecure;
        Result<ConnectionOptions> master = ConfigLoader::masterFromUrl(e.url, tls, config.timeoutMs);
        if (!master)
            return master.error();
        // A group's credentials are its data nodes': they go to the topology, not to `url`.
        if (!e.user.isEmpty())
            ConfigLoader::setMasterUser(*master, e.user);
        QString password = passwords.value(e.url);
        if (password.isEmpty() && !e.passwordEnv.isEmpty())
            password = QString::fromLocal8Bit(qgetenv(e.passwordEnv.toLocal8Bit().constData()));
        if (!password.isEmpty())
            ConfigLoader::setMasterPassword(*master, password);
        config.masters << *master;
    }
    if (config.masters.isEmpty())
        return RedisError(ErrorKind::InvalidConfig, QString(), QStringLiteral("the profile has no masters"));
    if (!profile.team.isEmpty()) {
        // The keychain's password, else the variable's, else libpq's own (PGPASSWORD, ~/.pgpass).
        const QString kept = passwords.value(profile.team.url);
        if (const RedisError e = ConfigLoader::setTeamDatabase(
                config, profile.team.url, kept.isEmpty() ? profile.team.passwordEnv : QString());
            e.isError())
            return RedisError(e.kind, QString(), QStringLiteral("team database: ") + e.message);
        if (!kept.isEmpty())
            config.teamDatabasePassword = kept;
    }
    return config;
}

} // namespace lockscope
