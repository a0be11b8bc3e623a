// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QDialog>

class QCheckBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace lockscope {

// Asks for what a Redlock acquire needs: the resource, the TTL, how many retries, and whether the
// window should keep the lock alive until it is released.
class AcquireDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AcquireDialog)

public:
    explicit AcquireDialog(QWidget* parent = nullptr);

    QByteArray resource() const;
    qint64 ttlMs() const;
    int retries() const;
    bool keepAlive() const;
    // Why the input cannot be used, or empty.
    QString problem() const;
    // The window replaced its core (a reconnect, another profile) while this was open: the masters
    // the user had in mind are not the ones watched now, so the dialog can only be closed.
    void connectionChanged();

private:
    void validate();

    QLineEdit* m_resource;
    QSpinBox* m_ttl;
    QSpinBox* m_retries;
    QCheckBox* m_keepAlive;
    QLabel* m_problem;
    QDialogButtonBox* m_buttons;
    bool m_connectionChanged = false;
};

} // namespace lockscope
