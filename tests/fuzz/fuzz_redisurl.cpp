// SPDX-License-Identifier: Apache-2.0
// RedisUrl::parse on arbitrary text. Beyond not crashing: a URL that parses must print (toString)
// as a URL that parses back to the same master, without its password; and no error, of RedisUrl or
// of TopologyUrl, may depend on (so quote) the input's user-info (tests/support/userinfoleak.h).
#include "connection/redisurl.h"
#include "connection/topologyurl.h"
#include "support/userinfoleak.h"

#include <cstdlib>

using namespace lockscope;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const QString text = QString::fromUtf8(reinterpret_cast<const char*>(data), qsizetype(size));
    if (!test::userInfoLeak(text, [](const QString& t) { return RedisUrl::parse(t); }).isEmpty())
        std::abort();
    if (!test::userInfoLeak(text, [](const QString& t) { return TopologyUrl::parse(t); }).isEmpty())
        std::abort();
    Result<RedisUrl> url = RedisUrl::parse(text);
    if (!url) {
        if (url.error().message.isEmpty())
            std::abort(); // every refusal explains itself
        return 0;
    }
    const QString printed = url->toString();
    Result<RedisUrl> again = RedisUrl::parse(printed);
    if (!again)
        std::abort();
    RedisUrl expected = *url;
    expected.setPassword(QString());
    if (!(*again == expected))
        std::abort();
    if (!url->password().isEmpty() && again->password() != QString())
        std::abort();
    return 0;
}
