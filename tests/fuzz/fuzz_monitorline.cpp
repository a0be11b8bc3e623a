// SPDX-License-Identifier: Apache-2.0
// MonitorLineParser::parse on arbitrary bytes (issue #43: the tracer reads MONITOR's stream, which
// carries every other client's bytes). Beyond not crashing: a line that parses, written again as
// the server would write it, parses to the same time, database, client and arguments; and a refusal
// always says why.
#include "support/monitorrepr.h"
#include "trace/monitorline.h"

#include <cstdlib>

using namespace lockscope;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const QByteArrayView line(reinterpret_cast<const char*>(data), qsizetype(size));
    const Result<MonitorLine> parsed = MonitorLineParser::parse(line);
    if (!parsed) {
        if (parsed.error().message.isEmpty())
            std::abort();
        return 0;
    }
    const QByteArray again = test::monitorLine(parsed->timeUs / 1000000, int(parsed->timeUs % 1000000),
                                               parsed->db, parsed->client, parsed->args);
    const Result<MonitorLine> reparsed = MonitorLineParser::parse(again);
    if (!reparsed || reparsed->timeUs != parsed->timeUs || reparsed->db != parsed->db ||
        reparsed->client != parsed->client || reparsed->args != parsed->args)
        std::abort();
    return 0;
}
