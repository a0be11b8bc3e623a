// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "config/lockscopeconfig.h"
#include "connections/connectionprofile.h"

#include <QDialog>

#include <functional>
#include <optional>

class QCheckBox;
class QComboBox;
class QLabel;
class QPushButton;
class QTableWidget;

namespace lockscope {

class PatternListEdit;

// Saved connection profiles: add, edit, test and remove masters, mark a profile read-only, and
// open it. Passwords go to the system keychain; when none is reachable the dialog says so and
// points to the environment-variable field instead of storing the password anywhere.
class ConnectionsDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ConnectionsDialog)

public:
    explicit ConnectionsDialog(QWidget* parent = nullptr);
    // A pattern still being typed is committed while QDialog's destructor hides it: by then the
    // profiles are gone, so it must not reach them.
    ~ConnectionsDialog() override;

    const std::optional<LockScopeConfig>& chosenConfig() const { return m_chosen; }
    // The chosen profile is locked read-only: the process that opens it stays read-only (LaunchConfig).
    bool chosenLockedReadOnly() const { return m_chosenLocked; }
    // The chosen profile's own patterns (empty: the launch's), for LaunchConfig::combine.
    const QList<ScanPattern>& chosenPatterns() const { return m_chosenPatterns; }
    // ... and its own scan rate (none: the launch's).
    const std::optional<ScanRate>& chosenScanRate() const { return m_chosenScanRate; }
    QComboBox* scanRateEdit() const { return m_scanRate; }
    PatternListEdit* patternEdit() const { return m_patterns; }
    // "5 masters: Redlock needs 3 of 5." — the exact quorum, not "a majority".
    static QString quorumText(int masters);
    QString chosenProfileName() const { return m_chosenName; }

private:
    ConnectionProfile* current();
    void showProfile();
    void addProfile();
    void removeProfile();
    void addMaster();
    void addSeveralMasters();
    void editMaster();
    void removeMaster();
    void editTeamDatabase();
    void storePassword(const QString& profile, int master, const QString& password);
    // Into the keychain under `key` (for this session only when it cannot take it); `kept` marks
    // the profile's entry as kept there or not.
    void storeSecret(const QString& profile, const QString& key, const QString& password,
                     const std::function<void(ConnectionProfile&, bool)>& kept);
    void forgetPassword(const ConnectionProfile& profile, const MasterEntry& master); // keychain and session
    static void forgetSecret(const QString& key, bool inKeychain);                    // likewise, by its key
    void connectProfile();
    void save();

    QList<ConnectionProfile> m_profiles;
    std::optional<LockScopeConfig> m_chosen;
    bool m_chosenLocked = false;
    QList<ScanPattern> m_chosenPatterns;
    std::optional<ScanRate> m_chosenScanRate;
    QString m_chosenName;
    QComboBox* m_profile;
    QTableWidget* m_table;
    QCheckBox* m_readOnly;
    QCheckBox* m_lockReadOnly;
    QCheckBox* m_production;
    QPushButton* m_deleteProfile;
    QLabel* m_message;
    QPushButton* m_connect;
    QPushButton* m_team; // its text says whether the profile has a team database
    PatternListEdit* m_patterns;
    QComboBox* m_scanRate; // editable: empty (the launch's), auto, max or keys a second
};

} // namespace lockscope
