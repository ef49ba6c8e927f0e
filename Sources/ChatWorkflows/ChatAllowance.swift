import ChatStories
import Foundation
import Jobs
import Persistence

/// A user's chat plan and what they used of it today: the shape of `GET /api/chat/entitlement`.
public struct ChatAllowance: Sendable, Codable, Equatable {
    public var premium: Bool
    /// When premium ends; nil when it does not (or the account is free).
    public var premiumUntil: Date?
    public var exportsToday: Int
    /// Nil: unlimited.
    public var exportsLeftToday: Int?
    public var dailyExportLimit: Int?
    public var maxCharacters: Int
    public var themes: [ChatTheme]
    public var watermarkForced: Bool
    public var generator: Bool

    enum CodingKeys: String, CodingKey {
        case premium, themes, generator
        case premiumUntil = "premium_until"
        case exportsToday = "exports_today"
        case exportsLeftToday = "exports_left_today"
        case dailyExportLimit = "daily_export_limit"
        case maxCharacters = "max_characters"
        case watermarkForced = "watermark_forced"
    }

    /// Writes every key, nulls included, so clients see the same shape for both plans.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(premium, forKey: .premium)
        try container.encode(premiumUntil, forKey: .premiumUntil)
        try container.encode(exportsToday, forKey: .exportsToday)
        try container.encode(exportsLeftToday, forKey: .exportsLeftToday)
        try container.encode(dailyExportLimit, forKey: .dailyExportLimit)
        try container.encode(maxCharacters, forKey: .maxCharacters)
        try container.encode(themes, forKey: .themes)
        try container.encode(watermarkForced, forKey: .watermarkForced)
        try container.encode(generator, forKey: .generator)
    }
}

/// Reads a user's chat plan from their entitlements, and counts their exports of the day.
struct ChatEntitlements: Sendable {
    let database: AppDatabase
    let ownerID: UUID

    /// The plan in force at `now`, and when premium ends (nil: it does not, or no premium).
    func plan(now: Date) async throws -> (plan: ChatPlan, until: Date?) {
        let grants = try await EntitlementRepository(database: database).active(Entitlement.premium, userID: ownerID, now: now)
        guard let longest = grants.first else { return (ChatPlan(isPremium: false), nil) }
        return (ChatPlan(isPremium: true), longest.expiresAt)
    }

    /// Exports started since midnight UTC that have not failed or been cancelled, judged by
    /// their jobs where the export row has not caught up (a job failed by a dead worker).
    func exportsToday(now: Date) async throws -> Int {
        let records = try await ChatExportRepository(database: database).started(ownerID: ownerID, since: ChatPlan.startOfDay(now))
        let jobs = try await ChatExportView.jobs(of: records, queue: JobQueue(database: database))
        return records.filter { record in
            guard let job = record.jobID.flatMap({ jobs[$0] }) else { return true }
            return job.status != .failed && job.status != .cancelled
        }.count
    }

    func allowance(now: Date) async throws -> ChatAllowance {
        let (plan, until) = try await plan(now: now)
        let used = try await exportsToday(now: now)
        return ChatAllowance(
            premium: plan.isPremium, premiumUntil: until, exportsToday: used,
            exportsLeftToday: plan.dailyExportLimit.map { max(0, $0 - used) }, dailyExportLimit: plan.dailyExportLimit,
            maxCharacters: plan.maxCharacters, themes: plan.themes, watermarkForced: plan.watermarkForced, generator: plan.generator)
    }
}
