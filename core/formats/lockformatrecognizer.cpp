// SPDX-License-Identifier: Apache-2.0
#include "formats/lockformatrecognizer.h"

#include "base/bytesdisplay.h"
#include "formats/auxiliaryformats.h"
#include "formats/redissonformats.h"
#include "formats/semaphoreformats.h"
#include "formats/stringformats.h"

#include <optional>

// The entry point: which family of formats a key's type leads to (strings, Redisson hashes,
// semaphores' sorted sets; auxiliary keys by name first), then the user's owner rules.
namespace lockscope {

namespace {

QString ruleOwner(const QByteArray& key, const QByteArray& token, const QList<OwnerRule>& rules)
{
    for (const OwnerRule& rule : rules) {
        const QString owner = rule.ownerOf(key, token);
        if (!owner.isEmpty())
            return owner;
    }
    return {};
}

} // namespace

RecognizedLock LockFormatRecognizer::recognize(const QByteArray& key, const KeyObservation& observation,
                                               const QList<OwnerRule>& ownerRules, qint64 nowWallMs)
{
    if (std::optional<RecognizedLock> helper = recognition::recognizeAuxiliary(key)) {
        if (observation.present && observation.type == "string")
            helper->token = observation.value;
        return *helper;
    }
    if (!observation.present || observation.error.isError())
        return {};

    RecognizedLock lock;
    const QByteArray& type = observation.type;
    if (type == "string" ||
        (type.isEmpty() && observation.fields.isEmpty() && observation.members.isEmpty())) {
        lock = recognition::recognizeString(key, observation);
        recognition::judgeLegacyTimestamp(lock, nowWallMs);
    } else if (type == "hash") {
        lock = recognition::recognizeRedissonHash(observation);
    } else if (type == "zset") {
        lock = recognition::recognizeSortedSet(key, observation);
    } else {
        lock.setDetail(QStringLiteral("a %1, not a lock shape").arg(escapeBytes(type.left(32))));
    }

    // The user's rules know their own token conventions better than any shape does.
    if (!ownerRules.isEmpty()) {
        const QString owner = ruleOwner(key, lock.token, ownerRules);
        if (!owner.isEmpty())
            lock.owner = owner;
        // A string lock's implied holder is its token: its owner is the one just ruled.
        if (!lock.listedHolders().isEmpty()) {
            QList<LockHolder> holders = lock.listedHolders();
            for (LockHolder& holder : holders) {
                const QString holderOwner = ruleOwner(key, holder.id, ownerRules);
                if (!holderOwner.isEmpty())
                    holder.owner = holderOwner;
            }
            lock.setListedHolders(std::move(holders));
        }
    }
    return lock;
}

} // namespace lockscope
