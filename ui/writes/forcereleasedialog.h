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
class QTimer;

namespace lockscope {

class CoreThread;

// The administrator's force-release, in the window: reads the key on every master first and shows
// exactly what would be deleted where, guarded by the token that was on screen (a master whose
// token changed in between is spared), reads the key again every second while open (a change is
// shown in bold and needs a new confirmation), asks for a plain confirmation (typing the resource
// name when the lock is held with a quorum, is of no lock format LockScope knows, or is on a
// production profile's masters), then reports what each master did. Read-only mode disables the
// button; cancelling is recorded in the audit log.
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

    // How the window that opens the dialog runs.
    struct Session
    {
        bool readOnly = false;
        bool production = false; // a production profile: the resource's name is always typed
    };

    ForceReleaseDialog(CoreThread* core, const LockView& view, const QStringList& masterNames,
                       Session session, QWidget* parent = nullptr);

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
    QLabel* resultLabel() const { return m_result; }
    QLabel* unrecognisedWarning() const { return m_unrecognised; }
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
    // A later read of the key while the admin looks: shown, and the confirmation asked again, when
    // it would change what happens on some master.
    void refreshPlan(const ForceReleasePlan& plan);
    ForceReleaseRequest requestFor(const QByteArray& token) const;
    void showOutcome(const ForceReleaseReport& report);
    void updateButton();
    // The window replaced its core (a reconnect, another profile): nothing more goes through it.
    void onCoreGone();

    QPointer<CoreThread> m_core; // null once the window replaced its core
    LockView m_view;
    QStringList m_names;
    bool m_readOnly;
    bool m_production;
    QByteArray m_expected;
    Stage m_stage = Stage::Inspecting;
    quint64 m_inspectRequest = 0;
    quint64 m_executeRequest = 0;
    quint64 m_refreshRequest = 0; // a read of the key again, under way (0: none)
    std::optional<ForceReleasePlan> m_plan;
    std::optional<ForceReleasePlan> m_firstPlan; // as first shown: rows that differ from it are bold
    std::optional<ForceReleaseOutcome> m_outcome;

    QLabel* m_heading;
    QLabel* m_guard;
    QComboBox* m_holder;
    QTableWidget* m_table;
    QLabel* m_unrecognised; // the key is of no lock format LockScope knows
    QLabel* m_prompt;
    QLineEdit* m_typed;
    QCheckBox* m_plainConfirm;
    QLabel* m_result;
    QDialogButtonBox* m_buttons;
    QPushButton* m_release;
    QTimer* m_refresh;
};

} // namespace lockscope
