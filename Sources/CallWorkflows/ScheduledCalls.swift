import Calls
import Foundation
import Jobs
import Logging
import Persistence
import Platform

/// Calls placed later: permission is checked when scheduled and again when the job runs.
public struct ScheduledCalls: Sendable {
    public let database: AppDatabase
    public let services: CallServices
    let logger: Logger

    public init(database: AppDatabase, services: CallServices, logger: Logger = Logger(label: "storyvoice.calls")) {
        self.database = database
        self.services = services
        self.logger = logger
    }

    /// A schedule may be this far ahead at most.
    static let horizon: TimeInterval = 30 * CallPlan.day

    /// Schedules a call for `time` (default one minute from now).
    public func schedule(userID: UUID, phoneNumber: String, scenarioID: String, time: String?) async throws -> ScheduledCallView {
        let now = services.now()
        let number: PhoneNumber
        do { number = try PhoneNumber(phoneNumber) } catch { throw ServiceError.invalidCall(error) }
        guard try await CallScenarios(database: database, now: services.now).scenario(id: scenarioID, for: userID) != nil else {
            throw ServiceError.unknownScenario(scenarioID)
        }
        let when: Date
        if let time, !time.isEmpty {
            guard let parsed = CallDates.date(time) else {
                throw ServiceError(.badRequest, code: "invalid_time", "scheduled_time must be an ISO 8601 time such as 2024-01-15T14:30:00Z.")
            }
            guard parsed > now.addingTimeInterval(-60), parsed < now.addingTimeInterval(Self.horizon) else {
                throw ServiceError(.badRequest, code: "invalid_time", "scheduled_time must be between now and 30 days from now.")
            }
            when = max(parsed, now)
        } else {
            when = now.addingTimeInterval(60)
        }
        try await PhoneCalls(database: database, services: services).requirePermission(userID)
        guard services.twilio != nil else { throw ServiceError.twilioNotConfigured }
        let record = try await database.transaction { database in
            let repository = CallRepository(database: database)
            let record = try await repository.insertSchedule(userID: userID, phoneNumber: number.e164, scenarioID: scenarioID, scheduledTime: when, now: now)
            let job = try await JobQueue(database: database).enqueue(
                kind: CallJobs.scheduled, payload: String(decoding: try JSONEncoder().encode(CallJobs.SchedulePayload(schedule_id: record.id)), as: UTF8.self),
                ownerID: userID, maxAttempts: 1, runAt: when)
            return try await repository.updateSchedule(id: record.id) { $0.jobID = job.id } ?? record
        }
        return ScheduledCallView(record)
    }

    public func list(userID: UUID) async throws -> [ScheduledCallView] {
        try await CallRepository(database: database).schedules(of: userID).map(ScheduledCallView.init)
    }

    /// Cancels a call not yet placed.
    public func cancel(scheduleID: Int, userID: UUID) async throws -> ScheduledCallView {
        let repository = CallRepository(database: database)
        guard let found = try await repository.schedule(id: scheduleID, of: userID) else {
            throw ServiceError(.notFound, code: "schedule_not_found", "You have no scheduled call \(scheduleID).")
        }
        guard found.status == "scheduled" else {
            throw ServiceError(.conflict, code: "schedule_not_pending", "This call is \(found.status) and can no longer be cancelled.")
        }
        let record = try await repository.updateSchedule(id: scheduleID) { $0.status = "cancelled" } ?? found
        if let job = record.jobID { _ = try await JobQueue(database: database).cancel(id: job, ownerID: userID) }
        return ScheduledCallView(record)
    }

    /// The job: places the call if it is still scheduled and the plan still allows it; says why
    /// not otherwise.
    func place(scheduleID: Int) async throws {
        let repository = CallRepository(database: database)
        guard let record = try await repository.schedule(id: scheduleID), record.status == "scheduled" else { return }
        let outcome: (status: String, callID: Int?, message: String?)
        do {
            let calls = PhoneCalls(database: database, services: services, logger: logger)
            let placed = try await calls.makeCall(userID: record.userID, phoneNumber: record.phoneNumber, scenarioID: record.scenarioID)
            outcome = ("placed", try await repository.call(sid: placed.callSid)?.id, nil)
        } catch let error as ServiceError {
            outcome = ("failed", nil, error.message)
        }
        try await repository.updateSchedule(id: scheduleID) { schedule in
            schedule.status = outcome.status
            schedule.callID = outcome.callID
            schedule.message = outcome.message
        }
    }
}
