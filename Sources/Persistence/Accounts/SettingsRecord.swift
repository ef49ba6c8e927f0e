import FluentKit
import Foundation

/// A user's narration defaults. One row per user, created on first write.
public final class SettingsRecord: Model, @unchecked Sendable {
    public static let schema = "user_settings"

    @ID(key: .id) public var id: UUID?
    @Parent(key: "user_id") public var user: UserRecord
    @Field(key: "narration_rate") public var narrationRate: Double
    @Field(key: "narration_pitch") public var narrationPitch: Double
    @Field(key: "narration_volume") public var narrationVolume: Double
    /// `CastingPreference`'s raw value; null (rows from before it existed) is the fastest.
    @OptionalField(key: "narration_voices") public var narrationVoices: String?
    @Timestamp(key: "updated_at", on: .update) public var updatedAt: Date?

    public init() {}

    public init(id: UUID? = nil, userID: UUID, defaults: NarrationDefaults) {
        self.id = id
        self.$user.id = userID
        self.narrationRate = defaults.rate
        self.narrationPitch = defaults.pitch
        self.narrationVolume = defaults.volume
        self.narrationVoices = defaults.voices.rawValue
    }
}
