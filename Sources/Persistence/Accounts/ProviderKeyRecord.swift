import FluentKit
import Foundation

/// A user's API key for one provider, sealed with AES-GCM under the server's secret key.
/// `hint` keeps only what the masked form shows (prefix and last four characters).
final class ProviderKeyRecord: Model, @unchecked Sendable {
    static let schema = "provider_keys"

    @ID(key: .id) var id: UUID?
    @Parent(key: "user_id") var user: UserRecord
    @Field(key: "provider") var provider: String
    @Field(key: "sealed_key") var sealedKey: Data
    @Field(key: "masked") var masked: String
    @Timestamp(key: "updated_at", on: .update) var updatedAt: Date?

    init() {}

    init(id: UUID? = nil, userID: UUID, provider: String, sealedKey: Data, masked: String) {
        self.id = id
        self.$user.id = userID
        self.provider = provider
        self.sealedKey = sealedKey
        self.masked = masked
    }
}
