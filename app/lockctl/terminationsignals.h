// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QObject>
#include <QSocketNotifier>

#include <csignal>
#include <initializer_list>
#include <memory>
#include <vector>

namespace lockctl {

// SIGINT, SIGTERM and SIGHUP as a Qt signal on the event loop (self-pipe), so that `hold` can pass
// them on to its command and still release the lock, instead of dying with the lock held.
class TerminationSignals final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TerminationSignals)

public:
    // `numbers`: the signals taken over (their default action is back when this is destroyed).
    explicit TerminationSignals(std::initializer_list<int> numbers = {SIGINT, SIGTERM, SIGHUP},
                                QObject* parent = nullptr);
    ~TerminationSignals() override;

signals:
    void received(int signalNumber);

private:
    std::unique_ptr<QSocketNotifier> m_notifier;
    std::vector<int> m_handled;
};

} // namespace lockctl
