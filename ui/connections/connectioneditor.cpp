// SPDX-License-Identifier: Apache-2.0
#include "connections/connectioneditor.h"

#include "config/configloader.h"
#include "connection/topologyurl.h"
#include "connections/connectiontester.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QToolButton>

namespace lockscope {

ConnectionEditor::ConnectionEditor(const MasterEntry& entry, QWidget* parent)
    : QDialog(parent), m_url(new QLineEdit(entry.url, this)), m_user(new QLineEdit(entry.user, this)),
      m_password(new QLineEdit(this)), m_ca(new QLineEdit(entry.caFile, this)),
      m_cert(new QLineEdit(entry.certFile, this)), m_key(new QLineEdit(entry.keyFile, this)),
      m_insecure(new QCheckBox(tr("Do not verify the server's certificate (testing only)"), this)),
      m_passwordEnv(new QLineEdit(entry.passwordEnv, this)), m_problem(new QLabel(this)),
      m_testResult(new QLabel(this)),
      m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this)),
      m_testButton(m_buttons->addButton(tr("&Test"), QDialogButtonBox::ActionRole)),
      m_tester(new ConnectionTester(this)), m_passwordInKeychain(entry.passwordInKeychain)
{
    setWindowTitle(entry.url.isEmpty() ? tr("Add a master") : tr("Edit master"));
    m_url->setPlaceholderText(
        QStringLiteral("redis://host:6379/0, rediss://host:6380, unix:///path, "
                       "redis-sentinel://s1,s2,s3/mymaster, redis-cluster://n1:7000,n2:7000"));
    m_url->setToolTip(tr("A Redis Cluster or a Sentinel group is one master for Redlock: give its nodes or "
                         "sentinels, comma-separated, as redis-cluster://host:port,… or "
                         "redis-sentinel://host:port,…/master-name (rediss-… for TLS)."));
    m_password->setEchoMode(QLineEdit::Password);
    m_password->setPlaceholderText(entry.passwordInKeychain ? tr("(kept in the keychain; type to replace)")
                                                            : tr("stored in the system keychain"));
    m_passwordEnv->setPlaceholderText(tr("e.g. REDIS_PASSWORD (used when no keychain is reachable)"));
    m_insecure->setChecked(entry.insecure);
    m_problem->setWordWrap(true);
    m_problem->setTextFormat(Qt::PlainText); // it quotes the URL typed
    // Wrapped labels take the height their text needs: a long error was cut to its first line.
    for (QLabel* label : {m_problem, m_testResult})
        label->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::MinimumExpanding);
    // It quotes what the server answered (its version, or its error text): never rich text.
    m_testResult->setTextFormat(Qt::PlainText);
    m_testResult->setWordWrap(true);

    auto* form = new QFormLayout(this);
    form->addRow(tr("&URL:"), m_url);
    form->addRow(tr("U&ser:"), m_user);
    form->addRow(tr("&Password:"), m_password);
    form->addRow(tr("Password from &environment:"), m_passwordEnv);
    form->addRow(tr("TLS &CA bundle:"), fileRow(m_ca, tr("CA bundle"))->parentWidget());
    form->addRow(tr("TLS client &certificate:"), fileRow(m_cert, tr("Client certificate"))->parentWidget());
    form->addRow(tr("TLS client &key:"), fileRow(m_key, tr("Client key"))->parentWidget());
    form->addRow(QString(), m_insecure);
    form->addRow(m_problem);
    form->addRow(m_testResult);
    form->addRow(m_buttons);

    for (QLineEdit* e : {m_url, m_user, m_ca, m_cert, m_key, m_passwordEnv})
        connect(e, &QLineEdit::textChanged, this, &ConnectionEditor::validate);
    connect(m_testButton, &QPushButton::clicked, this, &ConnectionEditor::test);
    connect(m_tester, &ConnectionTester::finished, this, [this](bool ok, const QString& detail) {
        m_testResult->setText(ok ? tr("Connected: %1").arg(detail) : tr("Failed: %1").arg(detail));
        m_testButton->setEnabled(true);
        emit tested(ok, detail);
    });
    connect(m_buttons, &QDialogButtonBox::accepted, this, [this] {
        if (canAccept())
            accept();
    });
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    resize(620, sizeHint().height());
    validate();
}

QLineEdit* ConnectionEditor::fileRow(QLineEdit* edit, const QString& title)
{
    auto* row = new QWidget(this);
    auto* layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    edit->setParent(row);
    layout->addWidget(edit, 1);
    row->setFocusProxy(edit); // the row's label mnemonic (Alt+C, …) lands in the field
    auto* browse = new QToolButton(row);
    browse->setText(tr("…"));
    connect(browse, &QToolButton::clicked, this, [this, edit, title] {
        const QString file = QFileDialog::getOpenFileName(this, title, edit->text(),
                                                          tr("PEM files (*.pem *.crt *.key);;All files (*)"));
        if (!file.isEmpty())
            edit->setText(file);
    });
    layout->addWidget(browse);
    return edit;
}

MasterEntry ConnectionEditor::entry() const
{
    MasterEntry e;
    e.url = m_url->text().trimmed();
    e.user = m_user->text().trimmed();
    e.caFile = m_ca->text().trimmed();
    e.certFile = m_cert->text().trimmed();
    e.keyFile = m_key->text().trimmed();
    e.insecure = m_insecure->isChecked();
    e.passwordEnv = m_passwordEnv->text().trimmed();
    e.passwordInKeychain = m_passwordInKeychain;
    return e;
}

QString ConnectionEditor::password() const
{
    return m_password->text();
}

QString ConnectionEditor::problem(const MasterEntry& e, const QString&)
{
    if (e.url.isEmpty())
        return tr("Enter the master's URL.");
    bool tls = false;
    bool passwordInUrl = false;
    if (TopologyUrl::hasTopologyScheme(e.url)) {
        // The parser's messages never quote the credentials: safe to show as they are.
        const Result<TopologyUrl> group = TopologyUrl::parse(e.url);
        if (!group)
            return group.error().message;
        tls = group->isTls();
        passwordInUrl = !group->password().isEmpty();
    } else {
        const Result<RedisUrl> url = RedisUrl::parse(e.url);
        if (!url)
            return url.error().message;
        if (url->scheme() != RedisUrl::Scheme::Unix && url->port() == 0)
            return tr("Port 0 is not a port a server listens on.");
        tls = url->isTls();
        passwordInUrl = !url->password().isEmpty();
    }
    if (passwordInUrl)
        return tr("Put the password in the password field, not the URL: URLs are saved in clear text.");
    for (const auto& [path, what] :
         {std::pair{e.caFile, tr("CA bundle")}, std::pair{e.certFile, tr("client certificate")},
          std::pair{e.keyFile, tr("client key")}}) {
        if (path.isEmpty())
            continue;
        const QFileInfo info(path);
        if (!info.exists())
            return tr("The %1 %2 does not exist.").arg(what, path);
        if (!info.isFile() || !info.isReadable())
            return tr("The %1 %2 is not a readable file.").arg(what, path);
    }
    const bool tlsFiles = !e.caFile.isEmpty() || !e.certFile.isEmpty() || !e.keyFile.isEmpty() || e.insecure;
    if (tlsFiles && !tls)
        return tr("TLS settings need a rediss://, rediss-sentinel:// or rediss-cluster:// URL.");
    if (e.certFile.isEmpty() != e.keyFile.isEmpty())
        return tr("A client certificate needs its key, and a key its certificate.");
    return passwordEnvProblem(e.passwordEnv);
}

QString ConnectionEditor::passwordEnvProblem(const QString& name)
{
    static const QRegularExpression envName(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*$"));
    if (!name.isEmpty() && !envName.match(name).hasMatch())
        return tr("%1 is not an environment variable name.").arg(name);
    return QString();
}

QString ConnectionEditor::currentProblem() const
{
    return problem(entry());
}

bool ConnectionEditor::canAccept() const
{
    return currentProblem().isEmpty();
}

void ConnectionEditor::validate()
{
    const QString why = currentProblem();
    m_problem->setText(why);
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(why.isEmpty());
}

ConnectionOptions ConnectionEditor::testOptions(const MasterEntry& e, const QString& password)
{
    ConnectionOptions options;
    if (TopologyUrl::hasTopologyScheme(e.url))
        options.topology = *TopologyUrl::parse(e.url); // problem() has accepted it
    else
        options.url = *RedisUrl::parse(e.url);
    options.tls.caFile = e.caFile;
    options.tls.certFile = e.certFile;
    options.tls.keyFile = e.keyFile;
    options.tls.insecure = e.insecure;
    options.commandTimeoutMs = testTimeoutMs;
    options.connectTimeoutMs = testTimeoutMs;
    if (!e.user.isEmpty())
        ConfigLoader::setMasterUser(options, e.user);
    QString secret = password;
    if (secret.isEmpty() && !e.passwordEnv.isEmpty())
        secret = QString::fromLocal8Bit(qgetenv(e.passwordEnv.toLocal8Bit().constData()));
    if (!secret.isEmpty())
        ConfigLoader::setMasterPassword(options, secret);
    return options;
}

void ConnectionEditor::test()
{
    const MasterEntry e = entry();
    if (const QString why = problem(e); !why.isEmpty()) {
        // The problem is said once, above, where it stays until it is fixed.
        m_testResult->setText(tr("Not tested: the entry has a problem (above)."));
        return;
    }
    const ConnectionOptions options = testOptions(e, m_password->text());
    if (!options.topology)
        m_testResult->setText(tr("Connecting to %1…").arg(options.url.toString()));
    else if (options.topology->isSentinel())
        m_testResult->setText(
            tr("Asking the sentinels of %1 for the primary…").arg(options.topology->toString()));
    else
        m_testResult->setText(tr("Reading the slot map of %1…").arg(options.topology->toString()));
    m_testButton->setEnabled(false); // one answer at a time: a second test would race the first
    m_tester->test(options);
}

} // namespace lockscope
