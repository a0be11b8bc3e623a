// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "monitor/lockview.h"
#include "session/forcereleasereport.h"

#include <QDialog>
#include <QPointer>

#include <optional>

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableWidget;

namespace lockscope {

class CoreThread;

// The administrator's force-release, in the window: reads the key on every master first and shows
// exactly what would be deleted where, guarded by the token that was on screen (a master whose
// token changed in between is spared), asks for a plain confirmation (typing the resource name
// when the lock is held with a quorum), then reports what each master did. Read-only mode
// disables the button; cancelling is recorded in the audit log.
class ForceReleaseDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ForceReleaseDialog)

public:
    enum class Stage
    {
        Inspecting,
        Ready,
        Executing,
        Finished,
    };

    ForceReleaseDialog(CoreThread* core, const LockView& view, const QStringList& masterNames, bool readOnly,
                       QWidget* parent = nullptr);

    Stage stage() const { return m_stage; }
    bool needsTypedConfirmation() const;
    bool canConfirm() const;
    const std::optional<ForceReleasePlan>& plan() const { return m_plan; }
    const std::optional<ForceReleaseOutcome>& outcome() const { return m_outcome; }
    QTableWidget* table() const { return m_table; }
    QLineEdit* confirmationEdit() const { return m_typed; }
    QCheckBox* confirmationBox() const { return m_plainConfirm; }
    QPushButton* releaseButton() const { return m_release; }
    QComboBox* holderChoice() const { return m_holder; }
    const QByteArray& expectedToken() const { return m_expected; }

    QLabel* summaryLabel() const { return m_guard; }
    // What happened, per master, in the past tense: "Deleted on M1, M2; not present on M3."
    static QString pastTense(const ForceReleaseOutcome& outcome);

    // The same as pressing the button: does nothing unless canConfirm().
    void confirm();
    void reject() override;

signals:
    void inspected();
    void released(const lockscope::ForceReleaseReport& report);

private:
    void inspect();
    void showPlan(const ForceReleasePlan& plan);
    void showOutcome(const ForceReleaseReport& report);
    void updateButton();
    // The window replaced its core (a reconnect, another profile): nothing more goes through it.
    void onCoreGone();

    QPointer<CoreThread> m_core; // null once the window replaced its core
    LockView m_view;
    QStringList m_names;
    bool m_readOnly;
    QByteArray m_expected;
    Stage m_stage = Stage::Inspecting;
    quint64 m_inspectRequest = 0;
    quint64 m_executeRequest = 0;
    std::optional<ForceReleasePlan> m_plan;
    std::optional<ForceReleaseOutcome> m_outcome;

    QLabel* m_heading;
    QLabel* m_guard;
    QComboBox* m_holder;
    QTableWidget* m_table;
    QLabel* m_prompt;
    QLineEdit* m_typed;
    QCheckBox* m_plainConfirm;
    QLabel* m_result;
    QDialogButtonBox* m_buttons;
    QPushButton* m_release;
};

} // namespace lockscope
