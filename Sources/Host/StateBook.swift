import AuthBridgeCore
import StateStore

/// The owners of saved state, each under its own key: what the Host asks for a snapshot, for
/// each commit's edits, to restore from what the disk holds, and to settle (forget what changed)
/// once the world and the disk agree. Edits are journaled in the owners' order.
struct StateBook {
    let owners: [any StateOwner]

    init(_ owners: [any StateOwner]) {
        precondition(Set(owners.map(\.stateKey)).count == owners.count, "two state owners share a key")
        self.owners = owners
    }

    /// Everything every owner holds: a snapshot's entries.
    var entries: StateEntries {
        var entries = StateEntries()
        for owner in owners {
            for entry in owner.stateEntries { entries[[owner.stateKey] + entry.path] = entry.value }
        }
        return entries
    }

    /// What changed since the last call: what one commit appends to the journal.
    func takeChange() -> StateChange {
        var change = StateChange()
        for owner in owners {
            for edit in owner.takeStateEdits() {
                switch edit.under(owner.stateKey) {
                case .put(let entry): change.put(entry.path, entry.value)
                case .delete(let path): change.delete(path)
                }
            }
        }
        return change
    }

    /// Hands each owner the entries under its key. Entries no owner claims are not kept.
    func restore(_ entries: StateEntries, rollingBack: Bool) throws(StateError) {
        for owner in owners {
            let mine = entries.entries(under: [owner.stateKey]).map { StateEntry($0.0, $0.1) }
            try owner.restoreState(mine, rollingBack: rollingBack)
        }
    }

    /// What counts as changed starts from here.
    func settle() {
        for owner in owners { _ = owner.takeStateEdits() }
    }
}
