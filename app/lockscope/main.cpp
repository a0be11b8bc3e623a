#include "connectionsdialog.h"
#include "demomenu.h"
#include "demopanel.h"
#include "demosession.h"
#include "launchoptions.h"
#include "mainwindow.h"

#include <QApplication>
#include <QDockWidget>
#include <QMessageBox>
#include <QProcess>

#include <csignal>
#include <cstdio>

using namespace lockscope;

int main(int argc, char** argv)
{
    // A file size limit (ulimit -f) must make an audit append fail with EFBIG, which the window
    // reports, rather than kill the process in the middle of a write.
    std::signal(SIGXFSZ, SIG_IGN);
    QApplication app(argc, argv);
    // The same application name as lockctl: one audit log, one data directory.
    QCoreApplication::setApplicationName(QStringLiteral("lockscope"));
    QCoreApplication::setOrganizationName(QStringLiteral("LockScope"));
    QCoreApplication::setApplicationVersion(QStringLiteral(PROJECT_VERSION));
    QGuiApplication::setApplicationDisplayName(QStringLiteral("LockScope"));
    QGuiApplication::setDesktopFileName(QStringLiteral("lockscope"));
    QGuiApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/lockscope.svg")));

    Result<LaunchOptions> options = LaunchOptions::parse(QCoreApplication::arguments());
    if (!options) {
        const QString message = options.error().message;
        std::fprintf(stderr, "%s\n", qPrintable(message));
        const bool asked =
            message.startsWith(QLatin1String("Usage")) || message.startsWith(QLatin1String("lockscope "));
        return asked ? 0 : 2;
    }
    for (const QString& w : options->warnings)
        std::fprintf(stderr, "lockscope: warning: %s\n", qPrintable(w));

    DemoSession demo;
    QString profileName;
    if (!options->demo && !options->hasMasters()) {
        // Nothing on the command line: pick a saved profile (or make one).
        ConnectionsDialog connections;
        // The profile brings the masters; the launch options stay, and read-only only tightens.
        if (connections.exec() == QDialog::Accepted && connections.chosenConfig()) {
            options->config =
                options->launch.combine(*connections.chosenConfig(), connections.chosenLockedReadOnly(),
                                        connections.chosenPatterns());
            profileName = connections.chosenProfileName();
        }
    }

    MainWindow window(options->config, options->auditLogPath);
    window.setLaunchConfig(options->launch);
    window.setProfileName(options->demo ? QObject::tr("demo") : profileName);
    // "Start the demo" from the empty window (the first-launch dialog was cancelled): the demo is
    // its own session (its own masters, its own window layout), so it starts as one.
    QObject::connect(&window, &MainWindow::demoRequested, &window, [&window] {
        if (QProcess::startDetached(QCoreApplication::applicationFilePath(), {QStringLiteral("--demo")}))
            window.close();
        else
            QMessageBox::critical(&window, QObject::tr("LockScope demo"),
                                  QObject::tr("The demo could not be started."));
    });
    if (!options->select.isEmpty())
        window.selectWhenSeen(options->select);
    window.setDemoLayout(options->demo);
    if (options->demo) {
        // The window opens at once; it starts watching when the demo masters are up.
        auto* dock = new QDockWidget(QObject::tr("Redlock demo"), &window);
        dock->setObjectName(QStringLiteral("demoDock"));
        auto* panel = new DemoPanel(&demo, dock);
        dock->setWidget(panel);
        new DemoMenu(&window, panel); // the scenarios in a menu, with shortcuts
        QObject::connect(dock, &QDockWidget::dockLocationChanged, panel, [panel](Qt::DockWidgetArea area) {
            panel->setStacked(area == Qt::LeftDockWidgetArea || area == Qt::RightDockWidgetArea);
        });
        // On a projector the demo sits beside the locks, so the masters, the locks table and the
        // quorum diagram keep the full height; the event log and history become tabs behind it.
        window.setCorner(Qt::TopRightCorner, Qt::RightDockWidgetArea);
        window.setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
        window.addDockWidget(Qt::RightDockWidgetArea, dock);
        for (const char* name : {"eventsDock", "historyDock"})
            if (auto* other = window.findChild<QDockWidget*>(QLatin1String(name)))
                window.tabifyDockWidget(dock, other);
        dock->raise();
        window.resizeDocks({dock}, {640}, Qt::Horizontal);
        if (options->select.isEmpty())
            window.selectWhenSeen(QByteArrayLiteral("lock:demo:orders"));
        const bool readOnly = options->config.readOnly;
        const QString auditPath = options->auditLogPath;
        QObject::connect(&demo, &DemoSession::ready, &window,
                         [&window, readOnly, auditPath](LockScopeConfig c) {
                             c.readOnly = readOnly;
                             window.monitor(c, auditPath);
                         });
        QObject::connect(&demo, &DemoSession::failed, &window, [&window](const RedisError& error) {
            QMessageBox::critical(&window, QObject::tr("LockScope demo"),
                                  QObject::tr("The demo masters could not start: %1").arg(error.message));
        });
    }
    window.show();
    if (options->demo)
        demo.start();
    return app.exec();
}
