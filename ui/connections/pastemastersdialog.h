// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "connections/masterentry.h"

#include <QDialog>
#include <QList>
#include <QStringList>

class QDialogButtonBox;
class QLabel;
class QPlainTextEdit;

namespace lockscope {

// Adds several masters at once: URLs pasted one per line (or separated by spaces). Each is checked
// as the single-master editor checks it; a bad one is reported with its line number, never with
// its user-info (a pasted URL may carry a password). OK stays disabled until every URL is good.
class PasteMastersDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(PasteMastersDialog)

public:
    explicit PasteMastersDialog(QWidget* parent = nullptr);

    struct Parsed
    {
        QList<MasterEntry> masters;
        QStringList problems; // "line 3: …", in line order
    };
    static Parsed parse(const QString& text);

    QList<MasterEntry> masters() const { return parse(text()).masters; }
    QString text() const;
    QPlainTextEdit* edit() const { return m_edit; }
    QLabel* problemLabel() const { return m_problems; }
    bool canAccept() const;

private:
    void validate();

    QPlainTextEdit* m_edit;
    QLabel* m_problems;
    QDialogButtonBox* m_buttons;
};

} // namespace lockscope
