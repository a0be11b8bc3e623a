// SPDX-License-Identifier: Apache-2.0
#include "record/historyjson.h"
#include "record/recordingreader.h"
#include "record/recordingwriter.h"
#include "support/testregistry.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

namespace tst_recordnotified {

using namespace lockscope;

// The window's notifications in the flight recording (issue #15): a `notified` event, a lock's or
// a master's, is stored and read back with its text, and does not change the lock's episodes.
class TestRecordNotified : public QObject
{
    Q_OBJECT

private slots:
    void notificationIsRecordedAndReadBack();
};

void TestRecordNotified::notificationIsRecordedAndReadBack()
{
    QTemporaryDir dir;
    RecorderOptions options;
    options.path = dir.filePath(QStringLiteral("notified.sqlite"));
    auto counters = std::make_shared<RecordingWriter::Counters>();
    RecordingWriter writer(options, counters);
    writer.start({QStringLiteral("redis://127.0.0.1:6379")});
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    RecordEvent taken;
    taken.kind = RecordEvent::Kind::Acquired;
    taken.resource = "lock:n";
    taken.timeMs = now - 2000;
    taken.token = "tok";
    taken.holding = 1;
    taken.holders = 1;
    RecordEvent stuck;
    stuck.kind = RecordEvent::Kind::Notified;
    stuck.resource = "lock:n";
    stuck.timeMs = now - 1000;
    stuck.detail = QStringLiteral("Lock stuck: lock:n: it has no expiry");
    RecordEvent down;
    down.kind = RecordEvent::Kind::Notified;
    down.master = 0;
    down.timeMs = now - 500;
    down.detail = QStringLiteral("Master down");
    writer.write({taken, stuck, down});
    writer.finish();

    QCOMPARE(recordEventKindName(RecordEvent::Kind::Notified), QStringLiteral("notified"));
    RecordEvent::Kind kind{};
    QVERIFY(recordEventKindFromNumber(30, &kind));
    QCOMPARE(kind, RecordEvent::Kind::Notified);

    RecordingReader reader;
    QVERIFY(!reader.open(options.path));
    const Result<ResourceHistory> history = reader.history("lock:n");
    QVERIFY(history);
    QCOMPARE(history->episodes.size(), 1);
    QCOMPARE(history->episodes.first().ended, Episode::End::Open);
    QStringList seen;
    for (const HistoryEvent& h : history->events)
        seen << HistoryJson::event(h).value(QStringLiteral("event")).toString() + QLatin1Char(' ') +
                    h.event.detail;
    QCOMPARE(seen, (QStringList{QStringLiteral("acquired "),
                                QStringLiteral("notified Lock stuck: lock:n: it has no expiry"),
                                QStringLiteral("notified Master down")}));
}

LOCKSCOPE_TEST_MAIN(TestRecordNotified)

} // namespace tst_recordnotified

#include "tst_recordnotified.moc"
