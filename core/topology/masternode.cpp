// SPDX-License-Identifier: Apache-2.0
#include "topology/masternode.h"

namespace lockscope {

QString masterNodeRoleName(MasterNode::Role role)
{
    switch (role) {
    case MasterNode::Role::Primary:
        return QStringLiteral("primary");
    case MasterNode::Role::Replica:
        return QStringLiteral("replica");
    case MasterNode::Role::Sentinel:
        return QStringLiteral("sentinel");
    }
    return {};
}

} // namespace lockscope
