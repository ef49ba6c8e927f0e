import Foundation
import Persistence
import StoryModel
import Vapor
import VendorHTTP

/// `/api/me` and `/api/settings`.
struct AccountController: Sendable {
    let box: SecretBox

    func register(routes: any RoutesBuilder) {
        routes.get("me", use: me)
        routes.get("settings", use: settings)
        routes.put("settings", use: updateSettings)
    }

    struct MeResponse: Content {
        var id: UUID
        var email: String
    }

    struct SettingsResponse: Content {
        var narration: NarrationDefaults
        /// Every provider, with the masked key or null. Keys themselves are never returned.
        var api_keys: [String: String?]

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(narration, forKey: .narration)
            // Encode nulls explicitly so clients see every provider.
            var keys = container.nestedContainer(keyedBy: DynamicKey.self, forKey: .api_keys)
            for (provider, masked) in api_keys.sorted(by: { $0.key < $1.key }) {
                try keys.encode(masked, forKey: DynamicKey(stringValue: provider))
            }
        }

        enum CodingKeys: String, CodingKey { case narration, api_keys }
    }

    struct SettingsUpdate: Decodable {
        struct Narration: Decodable {
            var rate: Double?
            var pitch: Double?
            var volume: Double?
            /// "fastest" or "best".
            var voices: String?
        }
        var narration: Narration?
        /// provider → new key; null or "" removes the stored key.
        var api_keys: [String: String?]?
    }

    @Sendable
    func me(_ request: Request) async throws -> MeResponse {
        let user = try request.requireUser()
        return MeResponse(id: user.id, email: user.email)
    }

    @Sendable
    func settings(_ request: Request) async throws -> SettingsResponse {
        try await currentSettings(userID: try request.requireUser().id, on: request)
    }

    @Sendable
    func updateSettings(_ request: Request) async throws -> SettingsResponse {
        let user = try request.requireUser()
        let update = try request.decodeJSON(SettingsUpdate.self)
        let repository = SettingsRepository(database: request.appDatabase, box: box)

        var keyChanges: [(Vendor, String?)] = []
        for (name, value) in update.api_keys ?? [:] {
            guard let provider = Vendor(rawValue: name), Vendor.keyed.contains(provider) else {
                let known = Vendor.keyed.map(\.rawValue).joined(separator: ", ")
                throw APIError(status: .unprocessableEntity, code: "unknown_provider",
                               message: "Unknown provider '\(name)'; known providers: \(known).")
            }
            let trimmed = value?.trimmingCharacters(in: .whitespacesAndNewlines)
            if let trimmed, !trimmed.isEmpty, trimmed.count < 12 || trimmed.count > 512 || trimmed.contains(where: \.isWhitespace) {
                throw APIError(status: .unprocessableEntity, code: "invalid_api_key",
                               message: "The \(name) key does not look like an API key; paste the whole key.")
            }
            keyChanges.append((provider, trimmed?.isEmpty == false ? trimmed : nil))
        }

        var narration: NarrationDefaults?
        if let change = update.narration {
            var defaults = try await repository.narrationDefaults(userID: user.id)
            defaults.rate = change.rate ?? defaults.rate
            defaults.pitch = change.pitch ?? defaults.pitch
            defaults.volume = change.volume ?? defaults.volume
            if let voices = change.voices {
                guard let preference = CastingPreference(rawValue: voices) else {
                    throw APIError(status: .unprocessableEntity, code: "invalid_narration",
                                   message: "Narration voices must be 'fastest', 'best' or 'hours:N' (ready in about N hours, N from 0.25 to 72).")
                }
                defaults.voices = preference
            }
            if let problem = defaults.invalidField {
                throw APIError(status: .unprocessableEntity, code: "invalid_narration", message: "Narration \(problem).")
            }
            narration = defaults
        }

        // Validate everything before writing anything.
        if let narration { try await repository.setNarrationDefaults(narration, userID: user.id) }
        for (provider, key) in keyChanges {
            if let key {
                try await repository.setKey(key, for: provider, userID: user.id)
            } else {
                try await repository.removeKey(for: provider, userID: user.id)
            }
        }
        return try await currentSettings(userID: user.id, on: request)
    }

    private func currentSettings(userID: UUID, on request: Request) async throws -> SettingsResponse {
        let repository = SettingsRepository(database: request.appDatabase, box: box)
        let masked = try await repository.maskedKeys(userID: userID)
        var keys: [String: String?] = [:]
        for provider in Vendor.keyed { keys[provider.rawValue] = .some(masked[provider]) }
        return SettingsResponse(narration: try await repository.narrationDefaults(userID: userID), api_keys: keys)
    }
}

struct DynamicKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
