import FluentKit
import VendorHTTP
import Foundation
import StoryModel

/// Per-user narration defaults and provider API keys (sealed at rest).
public struct SettingsRepository: Sendable {
    let database: any Database
    public let box: SecretBox

    public init(database: AppDatabase, box: SecretBox) {
        self.database = database.fluent
        self.box = box
    }

    public func narrationDefaults(userID: UUID) async throws -> NarrationDefaults {
        guard let row = try await settingsRow(userID: userID) else { return .standard }
        return NarrationDefaults(
            rate: row.narrationRate, pitch: row.narrationPitch, volume: row.narrationVolume,
            voices: row.narrationVoices.flatMap(CastingPreference.init(rawValue:)) ?? .fastest)
    }

    public func setNarrationDefaults(_ defaults: NarrationDefaults, userID: UUID) async throws {
        if let row = try await settingsRow(userID: userID) {
            row.narrationRate = defaults.rate
            row.narrationPitch = defaults.pitch
            row.narrationVolume = defaults.volume
            row.narrationVoices = defaults.voices.rawValue
            try await row.update(on: database)
        } else {
            try await SettingsRecord(userID: userID, defaults: defaults).create(on: database)
        }
    }

    /// Masked keys by provider; the plaintext never leaves this type except through `key(_:userID:)`.
    public func maskedKeys(userID: UUID) async throws -> [Vendor: String] {
        let rows = try await ProviderKeyRecord.query(on: database).filter(\.$user.$id == userID).all()
        var result: [Vendor: String] = [:]
        for row in rows {
            if let provider = Vendor(rawValue: row.provider) { result[provider] = row.masked }
        }
        return result
    }

    /// Stores (or replaces) a key, sealed with the server key.
    public func setKey(_ key: String, for provider: Vendor, userID: UUID) async throws {
        let plaintext = key.trimmingCharacters(in: .whitespacesAndNewlines)
        let sealed = try box.seal(plaintext, boundTo: Self.context(provider, userID))
        let masked = APIKeyMask.mask(plaintext)
        if let row = try await keyRow(provider, userID: userID) {
            row.sealedKey = sealed
            row.masked = masked
            try await row.update(on: database)
        } else {
            try await ProviderKeyRecord(userID: userID, provider: provider.rawValue, sealedKey: sealed, masked: masked)
                .create(on: database)
        }
    }

    public func removeKey(for provider: Vendor, userID: UUID) async throws {
        try await ProviderKeyRecord.query(on: database)
            .filter(\.$user.$id == userID)
            .filter(\.$provider == provider.rawValue)
            .delete()
    }

    /// The plaintext key, for the jobs that call the provider on the user's behalf.
    public func key(for provider: Vendor, userID: UUID) async throws -> String? {
        guard let row = try await keyRow(provider, userID: userID) else { return nil }
        return try await open(row, provider, userID)
    }

    /// The plaintext keys the user stored for `providers`, read in one query.
    public func keys(for providers: Set<Vendor>, userID: UUID) async throws -> [Vendor: String] {
        let rows = try await ProviderKeyRecord.query(on: database)
            .filter(\.$user.$id == userID)
            .filter(\.$provider ~~ providers.map(\.rawValue))
            .all()
        var result: [Vendor: String] = [:]
        for row in rows {
            if let provider = Vendor(rawValue: row.provider) { result[provider] = try await open(row, provider, userID) }
        }
        return result
    }

    /// What a stored key is bound to: its owner and its vendor.
    static func context(_ provider: Vendor, _ userID: UUID) -> String {
        "storyvoice-provider-key|\(userID.uuidString.lowercased())|\(provider.rawValue)"
    }

    /// Opens a row's key bound to its owner and vendor. A key stored before keys were bound
    /// opens unbound once and is sealed again, bound, on the spot.
    private func open(_ row: ProviderKeyRecord, _ provider: Vendor, _ userID: UUID) async throws -> String {
        let context = Self.context(provider, userID)
        if let key = try? box.open(row.sealedKey, boundTo: context) { return key }
        let key = try box.open(row.sealedKey)
        row.sealedKey = try box.seal(key, boundTo: context)
        try await row.update(on: database)
        return key
    }

    private func settingsRow(userID: UUID) async throws -> SettingsRecord? {
        try await SettingsRecord.query(on: database).filter(\.$user.$id == userID).first()
    }

    private func keyRow(_ provider: Vendor, userID: UUID) async throws -> ProviderKeyRecord? {
        try await ProviderKeyRecord.query(on: database)
            .filter(\.$user.$id == userID)
            .filter(\.$provider == provider.rawValue)
            .first()
    }
}
