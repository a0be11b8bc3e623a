// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "record/postgresrecordingwriter.h"
#include "record/recordingwriter.h"

namespace lockscope::test {

// Writes every batch into two stores, as one sink: the same events, decided once, in both.
class TeeRecordingSink final : public RecordingSink
{
public:
    TeeRecordingSink(const RecorderOptions& file, const RecorderOptions& team,
                     std::shared_ptr<Counters> counters)
        : RecordingSink(file, std::move(counters)),
          m_file(new RecordingWriter(file, std::make_shared<Counters>())),
          m_team(new PostgresRecordingWriter(team, std::make_shared<Counters>()))
    {
        for (RecordingSink* sink : {m_file, m_team}) {
            sink->setParent(this); // moves to the writer thread with it
            connect(sink, &RecordingSink::opened, this, [this](const RedisError& e) {
                if (e.isError() || ++m_opened == 2)
                    emit opened(e);
            });
            connect(sink, &RecordingSink::failed, this, &RecordingSink::failed);
        }
    }
    void start(const QStringList& masterNames) override
    {
        m_file->start(masterNames);
        m_team->start(masterNames);
    }
    void write(const RecordEventList& events) override
    {
        m_file->write(events);
        m_team->write(events);
        m_counters->backlog -= events.size();
        m_counters->written += events.size();
    }
    void finish() override
    {
        m_file->finish();
        m_team->finish();
    }
    void pruneNow() override {}

protected:
    bool isOpen() const override { return true; }

private:
    RecordingSink* m_file;
    RecordingSink* m_team;
    int m_opened = 0;
};

} // namespace lockscope::test
