import Foundation
import Jobs
import Logging
import Persistence

/// The calls product's jobs: `call-scheduled` places a scheduled call when it is due;
/// `app-store-notification` applies an App Store notification.
public enum CallJobs {
    public static let scheduled = "call-scheduled"
    public static let storeNotification = "app-store-notification"

    struct SchedulePayload: Codable, Sendable {
        var schedule_id: Int
    }

    struct NotificationPayload: Codable, Sendable {
        var notification_id: UUID
    }

    /// Adds the calls' handlers to `registry`.
    public static func register(in registry: inout JobHandlerRegistry, services: CallServices) {
        registry.register(scheduled, lane: .quick, timeLimit: .seconds(300)) { job, context in
            let payload: SchedulePayload = try job.decodePayload()
            try await ScheduledCalls(database: context.queue.database, services: services).place(scheduleID: payload.schedule_id)
            return nil
        }
        registry.register(storeNotification, lane: .quick, timeLimit: .seconds(300)) { job, context in
            let payload: NotificationPayload = try job.decodePayload()
            try await StoreNotifications(database: context.queue.database, services: services)
                .process(notificationID: payload.notification_id, ownerID: job.ownerID)
            return nil
        }
    }
}
