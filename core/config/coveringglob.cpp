// SPDX-License-Identifier: Apache-2.0
#include "config/coveringglob.h"

#include <algorithm>
#include <limits>

namespace lockscope {

namespace {

// How common a byte is in key names, most common first: digits and separators, then lower-case
// letters by their frequency in English. A byte not listed (upper case, other punctuation, binary)
// is taken for a rare one.
constexpr QByteArrayView commonFirst = "0123456789:_-./etaoinsrhldcumfpgwybvkxjqz";

int rarity(char c)
{
    const qsizetype at = commonFirst.indexOf(c);
    return at < 0 ? int(commonFirst.size()) : int(at);
}

// The `count` bytes of `required` (in its order) that are the rarest together.
QByteArray rarest(const QByteArray& required, int count)
{
    if (count == 1)
        return QByteArray(1, *std::max_element(required.cbegin(), required.cend(),
                                               [](char a, char b) { return rarity(a) < rarity(b); }));
    // In one walk (a configured pattern may be long): the rarest byte so far, paired with each next.
    qsizetype rarestSoFar = 0, first = 0, second = 1;
    for (qsizetype j = 1; j < required.size(); ++j) {
        if (rarity(required.at(rarestSoFar)) + rarity(required.at(j)) >
            rarity(required.at(first)) + rarity(required.at(second)))
            first = rarestSoFar, second = j;
        if (rarity(required.at(j)) > rarity(required.at(rarestSoFar)))
            rarestSoFar = j;
    }
    return QByteArray(1, required.at(first)) + required.at(second);
}

// "[...]" of these bytes, each once and escaped: in a class, Redis's matcher takes "\x" for x
// whatever x is.
QByteArray classOf(QByteArray bytes)
{
    std::sort(bytes.begin(), bytes.end());
    bytes.erase(std::unique(bytes.begin(), bytes.end()), bytes.end());
    QByteArray out("[");
    for (const char c : std::as_const(bytes)) {
        out += '\\';
        out += c;
    }
    return out + ']';
}

} // namespace

QByteArray coveringGlob(const std::vector<CompiledGlob>& globs)
{
    if (globs.empty())
        return {};
    std::vector<QByteArray> required;
    qsizetype fewest = std::numeric_limits<qsizetype>::max();
    for (const CompiledGlob& glob : globs) {
        required.push_back(glob.requiredBytes());
        fewest = std::min(fewest, required.back().size());
    }
    if (fewest == 0)
        return {};
    // Two bytes in order where every glob has them: a key must hold one of the first ones with one of
    // the second ones after it. Two turn most other keys away already; each one more is one more
    // '*' for the server's matcher to try at every place of a key.
    const int count = fewest >= 2 ? 2 : 1;
    QByteArray firsts, seconds;
    for (const QByteArray& bytes : required) {
        const QByteArray chosen = rarest(bytes, count);
        firsts += chosen.at(0);
        if (count == 2)
            seconds += chosen.at(1);
    }
    QByteArray glob = "*" + classOf(firsts) + "*";
    if (count == 2)
        glob += classOf(seconds) + "*";
    return glob;
}

} // namespace lockscope
