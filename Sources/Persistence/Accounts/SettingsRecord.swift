import FluentKit
import Foundation

/// A user's narration defaults. One row per user, created on first write.
final class SettingsRecord: Model, @unchecked Sendable {
    static let schema = "user_settings"

    @ID(key: .id) var id: UUID?
    @Parent(key: "user_id") var user: UserRecord
    @Field(key: "narration_rate") var narrationRate: Double
    @Field(key: "narration_pitch") var narrationPitch: Double
    @Field(key: "narration_volume") var narrationVolume: Double
    /// `CastingPreference`'s raw value; null (rows from before it existed) is the fastest.
    @OptionalField(key: "narration_voices") var narrationVoices: String?
    @Timestamp(key: "updated_at", on: .update) var updatedAt: Date?

    init() {}

    init(id: UUID? = nil, userID: UUID, defaults: NarrationDefaults) {
        self.id = id
        self.$user.id = userID
        self.narrationRate = defaults.rate
        self.narrationPitch = defaults.pitch
        self.narrationVolume = defaults.volume
        self.narrationVoices = defaults.voices.rawValue
    }
}
