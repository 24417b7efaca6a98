/// Every admin resource, each in a file of its own; a new one (faults) is one more entry.
enum AdminResources {
    static let all: [AdminResource] = [
        AdminUsers.resource, AdminDevices.resource, AdminSessions.resource, AdminState.resource, AdminFaults.resource,
        AdminClock.resource, AdminPush.resource, AdminJourneys.resource,
    ]
}
