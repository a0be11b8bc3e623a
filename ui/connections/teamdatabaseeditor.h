// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "connections/teamdatabaseentry.h"

#include <QDialog>

class QDialogButtonBox;
class QLabel;
class QLineEdit;

namespace lockscope {

// A profile's team database: its URL, its password (for the keychain, never the settings) and
// the environment variable to read the password from instead. An empty URL takes the team
// database away. OK stays disabled while the input is wrong, with the reason shown.
class TeamDatabaseEditor final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TeamDatabaseEditor)

public:
    explicit TeamDatabaseEditor(const TeamDatabaseEntry& entry, QWidget* parent = nullptr);

    TeamDatabaseEntry entry() const;
    QString password() const;
    // Why this entry cannot be used, or empty (a password in the URL is refused: the URL is saved
    // and shown).
    static QString problem(const TeamDatabaseEntry& entry);

    QLineEdit* urlEdit() const { return m_url; }
    QLineEdit* passwordEdit() const { return m_password; }
    QLineEdit* passwordEnvEdit() const { return m_passwordEnv; }
    QLabel* problemLabel() const { return m_problem; }
    bool canAccept() const;

private:
    void validate();

    TeamDatabaseEntry m_entry;
    QLineEdit* m_url;
    QLineEdit* m_password;
    QLineEdit* m_passwordEnv;
    QLabel* m_problem;
    QDialogButtonBox* m_buttons;
};

} // namespace lockscope
