// SPDX-License-Identifier: Apache-2.0
#include "writes/acquiredialog.h"

#include "base/bytesdisplay.h"
#include "locking/redlock.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>

namespace lockscope {

AcquireDialog::AcquireDialog(QWidget* parent)
    : QDialog(parent), m_resource(new QLineEdit(this)), m_ttl(new QSpinBox(this)),
      m_retries(new QSpinBox(this)),
      m_keepAlive(new QCheckBox(tr("Keep it alive (extend automatically until released)"), this)),
      m_problem(new QLabel(this)),
      m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this))
{
    setWindowTitle(tr("Acquire a lock"));
    m_resource->setPlaceholderText(QStringLiteral("lock:my-resource"));
    m_ttl->setRange(1, Redlock::maxTtlMs);
    m_ttl->setValue(30000);
    m_ttl->setSuffix(tr(" ms"));
    m_retries->setRange(0, 1000);
    m_retries->setValue(3);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("Acquire"));
    auto* form = new QFormLayout(this);
    form->addRow(tr("&Resource:"), m_resource);
    form->addRow(tr("&TTL:"), m_ttl);
    form->addRow(tr("Re&tries:"), m_retries);
    form->addRow(QString(), m_keepAlive);
    form->addRow(m_problem);
    form->addRow(m_buttons);
    connect(m_resource, &QLineEdit::textChanged, this, &AcquireDialog::validate);
    connect(m_ttl, &QSpinBox::valueChanged, this, &AcquireDialog::validate);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    validate();
}

QByteArray AcquireDialog::resource() const
{
    const Result<QByteArray> bytes = unescapeBytes(m_resource->text());
    return bytes ? *bytes : QByteArray();
}

qint64 AcquireDialog::ttlMs() const
{
    return m_ttl->value();
}

int AcquireDialog::retries() const
{
    return m_retries->value();
}

bool AcquireDialog::keepAlive() const
{
    return m_keepAlive->isChecked();
}

QString AcquireDialog::problem() const
{
    if (m_connectionChanged)
        return tr("The connection changed while this dialog was open: nothing will be acquired. Open it "
                  "again to acquire on the masters watched now.");
    if (m_resource->text().isEmpty())
        return tr("Name the resource to lock.");
    const Result<QByteArray> bytes = unescapeBytes(m_resource->text());
    if (!bytes)
        return bytes.error().message;
    return Redlock::ttlProblem(ttlMs());
}

void AcquireDialog::validate()
{
    const QString why = problem();
    m_problem->setText(why);
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(why.isEmpty());
}

void AcquireDialog::connectionChanged()
{
    m_connectionChanged = true;
    validate();
}

} // namespace lockscope
