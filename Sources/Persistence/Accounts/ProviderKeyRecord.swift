import FluentKit
import Foundation

/// A user's API key for one provider, sealed with AES-GCM under the server's secret key.
/// `hint` keeps only what the masked form shows (prefix and last four characters).
public final class ProviderKeyRecord: Model, @unchecked Sendable {
    public static let schema = "provider_keys"

    @ID(key: .id) public var id: UUID?
    @Parent(key: "user_id") public var user: UserRecord
    @Field(key: "provider") public var provider: String
    @Field(key: "sealed_key") public var sealedKey: Data
    @Field(key: "masked") public var masked: String
    @Timestamp(key: "updated_at", on: .update) public var updatedAt: Date?

    public init() {}

    public init(id: UUID? = nil, userID: UUID, provider: String, sealedKey: Data, masked: String) {
        self.id = id
        self.$user.id = userID
        self.provider = provider
        self.sealedKey = sealedKey
        self.masked = masked
    }
}
