import FluentKit
import Foundation

/// A user of the calls product: when their trial began. Made on a mobile registration, or on
/// their first calls request ("initialized if not found", as the app expects).
public final class CallAccountRecord: Model, @unchecked Sendable {
    public static let schema = "call_accounts"

    @ID(key: .id) public var id: UUID?
    @Parent(key: "user_id") public var user: UserRecord
    @Field(key: "trial_started_at") public var trialStartedAt: Date
    /// `mobile_consumer`, or `web` for an account first used from the web app.
    @Field(key: "app_type") public var appType: String

    public init() {}

    public init(userID: UUID, trialStartedAt: Date, appType: String) {
        self.$user.id = userID
        self.trialStartedAt = trialStartedAt
        self.appType = appType
    }
}

/// One call placed: to a phone through Twilio, or from the web app's in-browser call page.
/// Integer ids, as the mobile app's call history decodes them.
public final class PhoneCallRecord: Model, @unchecked Sendable {
    public static let schema = "phone_calls"

    @ID(custom: "id", generatedBy: .database) public var id: Int?
    @Parent(key: "user_id") public var user: UserRecord
    @Field(key: "phone_number") public var phoneNumber: String
    @Field(key: "scenario_id") public var scenarioID: String
    /// Twilio's call statuses (`initiated`, `queued`, `ringing`, `in-progress`, `completed`,
    /// `busy`, `no-answer`, `failed`, `canceled`), `initiated` before Twilio answered.
    @Field(key: "status") public var status: String
    @OptionalField(key: "call_sid") public var callSID: String?
    /// `twilio`, `browser`.
    @Field(key: "channel") public var channel: String
    /// False once the call is known never to have connected: it is given back.
    @Field(key: "counts") public var counts: Bool
    @OptionalField(key: "duration_seconds") public var durationSeconds: Int?
    @Field(key: "duration_limit") public var durationLimit: Int
    /// SHA-256 of the one-time token the media stream presents; the token itself is never kept.
    @OptionalField(key: "stream_token_hash") public var streamTokenHash: String?
    @OptionalField(key: "error_message") public var errorMessage: String?
    @Field(key: "created_at") public var createdAt: Date
    @OptionalField(key: "ended_at") public var endedAt: Date?

    public init() {}

    public init(userID: UUID, phoneNumber: String, scenarioID: String, channel: String, durationLimit: Int, streamTokenHash: String?, now: Date) {
        self.$user.id = userID
        self.phoneNumber = phoneNumber
        self.scenarioID = scenarioID
        self.status = "initiated"
        self.channel = channel
        self.counts = true
        self.durationLimit = durationLimit
        self.streamTokenHash = streamTokenHash
        self.createdAt = now
    }
}

/// A call to place later; a job places it at `scheduledTime`.
public final class ScheduledCallRecord: Model, @unchecked Sendable {
    public static let schema = "scheduled_calls"

    @ID(custom: "id", generatedBy: .database) public var id: Int?
    @Parent(key: "user_id") public var user: UserRecord
    @Field(key: "phone_number") public var phoneNumber: String
    @Field(key: "scenario_id") public var scenarioID: String
    @Field(key: "scheduled_time") public var scheduledTime: Date
    /// `scheduled`, `placed`, `cancelled`, `failed`.
    @Field(key: "status") public var status: String
    @OptionalField(key: "job_id") public var jobID: UUID?
    @OptionalField(key: "call_id") public var callID: Int?
    @OptionalField(key: "message") public var message: String?
    @Field(key: "created_at") public var createdAt: Date

    public init() {}

    public init(userID: UUID, phoneNumber: String, scenarioID: String, scheduledTime: Date, now: Date) {
        self.$user.id = userID
        self.phoneNumber = phoneNumber
        self.scenarioID = scenarioID
        self.scheduledTime = scheduledTime
        self.status = "scheduled"
        self.createdAt = now
    }
}

/// An App Store transaction, kept once: a subscription period (first purchase or renewal) or an
/// addon pack. Plans and usage are computed from these rows and the calls.
public final class StoreTransactionRecord: Model, @unchecked Sendable {
    public static let schema = "store_transactions"

    @ID(key: .id) public var id: UUID?
    @Parent(key: "user_id") public var user: UserRecord
    @Field(key: "transaction_id") public var transactionID: String
    @Field(key: "original_transaction_id") public var originalTransactionID: String
    @Field(key: "product_id") public var productID: String
    @Field(key: "purchased_at") public var purchasedAt: Date
    @OptionalField(key: "expires_at") public var expiresAt: Date?
    @OptionalField(key: "revoked_at") public var revokedAt: Date?
    /// `Production`, `Sandbox`, `Xcode`.
    @Field(key: "environment") public var environment: String
    @Field(key: "created_at") public var createdAt: Date

    public init() {}

    public init(
        userID: UUID, transactionID: String, originalTransactionID: String, productID: String,
        purchasedAt: Date, expiresAt: Date?, revokedAt: Date?, environment: String, now: Date
    ) {
        self.$user.id = userID
        self.transactionID = transactionID
        self.originalTransactionID = originalTransactionID
        self.productID = productID
        self.purchasedAt = purchasedAt
        self.expiresAt = expiresAt
        self.revokedAt = revokedAt
        self.environment = environment
        self.createdAt = now
    }
}

/// An App Store Server Notification, kept by its `notificationUUID` so a retry is answered but
/// processed once.
public final class StoreNotificationRecord: Model, @unchecked Sendable {
    public static let schema = "store_notifications"

    @ID(key: .id) public var id: UUID?
    @Field(key: "notification_uuid") public var notificationUUID: String
    @Field(key: "notification_type") public var notificationType: String
    @OptionalField(key: "subtype") public var subtype: String?
    /// The verified `signedPayload`, processed by a job.
    @Field(key: "signed_payload") public var signedPayload: String
    /// `received`, `processed`, `ignored`, `failed`.
    @Field(key: "status") public var status: String
    @OptionalField(key: "message") public var message: String?
    @Field(key: "received_at") public var receivedAt: Date
    @OptionalField(key: "processed_at") public var processedAt: Date?

    public init() {}

    public init(notificationUUID: String, notificationType: String, subtype: String?, signedPayload: String, now: Date) {
        self.notificationUUID = notificationUUID
        self.notificationType = notificationType
        self.subtype = subtype
        self.signedPayload = signedPayload
        self.status = "received"
        self.receivedAt = now
    }
}

/// A user's own scenario.
public final class CustomScenarioRecord: Model, @unchecked Sendable {
    public static let schema = "custom_scenarios"

    @ID(key: .id) public var id: UUID?
    @Parent(key: "user_id") public var user: UserRecord
    @Field(key: "name") public var name: String
    @Field(key: "description") public var description: String
    @Field(key: "icon") public var icon: String
    @Field(key: "prompt") public var prompt: String
    @Field(key: "voice") public var voice: String
    @Field(key: "temperature") public var temperature: Double
    @Field(key: "created_at") public var createdAt: Date
    @Field(key: "updated_at") public var updatedAt: Date

    public init() {}

    public init(userID: UUID, name: String, description: String, icon: String, prompt: String, voice: String, temperature: Double, now: Date) {
        self.$user.id = userID
        self.name = name
        self.description = description
        self.icon = icon
        self.prompt = prompt
        self.voice = voice
        self.temperature = temperature
        self.createdAt = now
        self.updatedAt = now
    }
}
