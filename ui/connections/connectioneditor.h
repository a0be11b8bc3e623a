// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "connection/connectionoptions.h"
#include "connections/masterentry.h"

#include <QDialog>

class QCheckBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace lockscope {

class ConnectionTester;

// Adds or edits one master: URL, user, password, TLS files, and the environment variable to read
// the password from when no keychain is reachable. OK stays disabled while the input is wrong,
// with the reason shown; "Test" connects and PINGs without blocking the window.
class ConnectionEditor final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ConnectionEditor)

public:
    explicit ConnectionEditor(const MasterEntry& entry = {}, QWidget* parent = nullptr);

    MasterEntry entry() const;
    QString password() const;
    // Why this entry cannot be used, or empty. A password typed into the URL is refused: it would
    // end up in the settings file.
    static QString problem(const MasterEntry& entry, const QString& passwordEnv = QString());
    QString currentProblem() const;
    // Why `name` cannot name an environment variable, or empty (also a team database's).
    static QString passwordEnvProblem(const QString& name);
    // What "Test" connects with: the entry (a plain URL or a group's) and its credentials.
    static ConnectionOptions testOptions(const MasterEntry& entry, const QString& password);
    bool canAccept() const;

    QLineEdit* urlEdit() const { return m_url; }
    QLineEdit* userEdit() const { return m_user; }
    QLineEdit* passwordEdit() const { return m_password; }
    QLineEdit* caEdit() const { return m_ca; }
    QLineEdit* certEdit() const { return m_cert; }
    QLineEdit* keyEdit() const { return m_key; }
    QLineEdit* passwordEnvEdit() const { return m_passwordEnv; }
    QLabel* problemLabel() const { return m_problem; }
    QLabel* testResultLabel() const { return m_testResult; }
    QPushButton* testButton() const { return m_testButton; }

signals:
    void tested(bool ok, const QString& detail);

private:
    void validate();
    void test();

    static constexpr int testTimeoutMs = 3000;
    QLineEdit* fileRow(QLineEdit* edit, const QString& title);

    QLineEdit* m_url;
    QLineEdit* m_user;
    QLineEdit* m_password;
    QLineEdit* m_ca;
    QLineEdit* m_cert;
    QLineEdit* m_key;
    QCheckBox* m_insecure;
    QLineEdit* m_passwordEnv;
    QLabel* m_problem;
    QLabel* m_testResult;
    QDialogButtonBox* m_buttons;
    QPushButton* m_testButton;
    ConnectionTester* m_tester;
    bool m_passwordInKeychain;
};

} // namespace lockscope
