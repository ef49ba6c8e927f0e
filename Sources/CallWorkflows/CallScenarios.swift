import Calls
import Foundation
import Persistence
import Platform
import StoryModel

/// The scenarios a user can call with: the 23 built in, and their own.
public struct CallScenarios: Sendable {
    public let database: AppDatabase
    public let now: @Sendable () -> Date

    public init(database: AppDatabase, now: @escaping @Sendable () -> Date = { Date() }) {
        self.database = database
        self.now = now
    }

    static let customPrefix = "custom_"

    /// Built-in first, in the app's order, then `userID`'s own, oldest first (none without a user).
    public func all(for userID: UUID?) async throws -> [CallScenario] {
        guard let userID else { return ScenarioCatalog.all }
        let custom = try await CallRepository(database: database).customScenarios(of: userID)
        return ScenarioCatalog.all + custom.map(Self.scenario)
    }

    /// A built-in scenario, or one of the user's own; nil for anything else (another user's
    /// custom scenario looks absent).
    public func scenario(id: String, for userID: UUID) async throws -> CallScenario? {
        if let builtIn = ScenarioCatalog.scenario(id: id) { return builtIn }
        guard id.hasPrefix(Self.customPrefix), let uuid = UUID(uuidString: String(id.dropFirst(Self.customPrefix.count))),
              let record = try await CallRepository(database: database).customScenario(id: uuid, of: userID)
        else { return nil }
        return Self.scenario(record)
    }

    public func create(_ draft: CustomScenarioDraft, for userID: UUID) async throws -> CallScenario {
        let checked: CallScenario
        do { checked = try draft.scenario(id: "pending") } catch { throw ServiceError.invalidCall(error) }
        let record = CustomScenarioRow(
            id: UUID.random(), userID: userID, name: checked.name, description: checked.description, icon: checked.icon,
            prompt: draft.prompt.trimmingCharacters(in: .whitespacesAndNewlines), voice: checked.voice.rawValue,
            temperature: checked.temperature, now: now())
        // Counted and inserted under the user's lock, so creations at once cannot all pass the
        // count before any of them is kept.
        try await UserLock(database: database).serialized(userID, scope: "custom_scenarios") { database in
            guard try await CallRepository(database: database).customScenarioCount(of: userID) < Self.customLimit else {
                throw ServiceError(.conflict, code: "too_many_scenarios", "You have \(Self.customLimit) scenarios of your own; delete one to make another.")
            }
            try await CallRepository(database: database).createScenario(record)
        }
        return Self.scenario(record)
    }

    public func update(id: String, with draft: CustomScenarioDraft, for userID: UUID) async throws -> CallScenario {
        let uuid = try ownID(id)
        let checked: CallScenario
        do { checked = try draft.scenario(id: id) } catch { throw ServiceError.invalidCall(error) }
        let at = now()
        guard let record = try await CallRepository(database: database).updateScenario(id: uuid, of: userID, { record in
            record.name = checked.name
            record.description = checked.description
            record.icon = checked.icon
            record.prompt = draft.prompt.trimmingCharacters(in: .whitespacesAndNewlines)
            record.voice = checked.voice.rawValue
            record.temperature = checked.temperature
            record.updatedAt = at
        }) else { throw Self.notFound(id) }
        return Self.scenario(record)
    }

    public func delete(id: String, for userID: UUID) async throws {
        guard try await CallRepository(database: database).deleteScenario(id: try ownID(id), of: userID) else { throw Self.notFound(id) }
    }

    static let customLimit = 50

    /// The row id of a custom scenario's id; not found for any other.
    private func ownID(_ id: String) throws -> UUID {
        guard id.hasPrefix(Self.customPrefix), let uuid = UUID(uuidString: String(id.dropFirst(Self.customPrefix.count))) else {
            throw Self.notFound(id)
        }
        return uuid
    }

    static func notFound(_ id: String) -> ServiceError {
        ServiceError(.notFound, code: "scenario_not_found", "You have no scenario of your own with the id \"\(id)\".")
    }

    /// A kept scenario as it was checked when saved (not checked again: a stricter check later
    /// must not hide what users already have).
    static func scenario(_ record: CustomScenarioRow) -> CallScenario {
        CallScenario(
            id: customPrefix + record.id.uuidString.lowercased(), name: record.name,
            description: record.description, icon: record.icon, category: .custom, isFamilyFriendly: false,
            voice: RealtimeVoice(rawValue: record.voice) ?? .alloy, temperature: record.temperature,
            instructions: record.prompt + "\n\n" + ScenarioCatalog.houseRules)
    }
}
