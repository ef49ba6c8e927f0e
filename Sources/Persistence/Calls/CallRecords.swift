import FluentKit
import Foundation

// The Fluent models of the calls product's tables (their rows as values: CallRows.swift). A
// changed row is applied only where it differs (ChangedFields), so an update writes only what
// the change touched.

final class CallAccountRecord: Model, @unchecked Sendable {
    static let schema = "call_accounts"

    @ID(key: .id) var id: UUID?
    @Parent(key: "user_id") var user: UserRecord
    @Field(key: "trial_started_at") var trialStartedAt: Date
    @Field(key: "app_type") var appType: String

    init() {}

    init(userID: UUID, trialStartedAt: Date, appType: String) {
        self.$user.id = userID
        self.trialStartedAt = trialStartedAt
        self.appType = appType
    }

    var row: CallAccountRow { CallAccountRow(userID: $user.id, trialStartedAt: trialStartedAt, appType: appType) }
}

final class PhoneCallRecord: Model, @unchecked Sendable {
    static let schema = "phone_calls"

    @ID(custom: "id", generatedBy: .database) var id: Int?
    @Parent(key: "user_id") var user: UserRecord
    @Field(key: "phone_number") var phoneNumber: String
    @Field(key: "scenario_id") var scenarioID: String
    @Field(key: "status") var status: String
    @OptionalField(key: "call_sid") var callSID: String?
    @Field(key: "channel") var channel: String
    @Field(key: "counts") var counts: Bool
    @OptionalField(key: "duration_seconds") var durationSeconds: Int?
    @Field(key: "duration_limit") var durationLimit: Int
    @OptionalField(key: "stream_token_hash") var streamTokenHash: String?
    @OptionalField(key: "error_message") var errorMessage: String?
    @Field(key: "created_at") var createdAt: Date
    @OptionalField(key: "ended_at") var endedAt: Date?

    init() {}

    init(_ new: NewPhoneCall) {
        $user.id = new.userID
        phoneNumber = new.phoneNumber
        scenarioID = new.scenarioID
        status = "initiated"
        channel = new.channel
        counts = new.counts
        durationLimit = new.durationLimit
        streamTokenHash = new.streamTokenHash
        createdAt = new.createdAt
    }

    func row() throws -> PhoneCallRow {
        PhoneCallRow(
            id: try requireID(), userID: $user.id, phoneNumber: phoneNumber, scenarioID: scenarioID, status: status, callSID: callSID,
            channel: channel, counts: counts, durationSeconds: durationSeconds, durationLimit: durationLimit,
            streamTokenHash: streamTokenHash, errorMessage: errorMessage, createdAt: createdAt, endedAt: endedAt)
    }

    /// What a call's life changes (its number, scenario, owner and limit are set once).
    func apply(_ row: PhoneCallRow) {
        $status.assign(row.status)
        $callSID.assign(row.callSID)
        $counts.assign(row.counts)
        $durationSeconds.assign(row.durationSeconds)
        $streamTokenHash.assign(row.streamTokenHash)
        $errorMessage.assign(row.errorMessage)
        $endedAt.assign(row.endedAt)
    }
}

final class ScheduledCallRecord: Model, @unchecked Sendable {
    static let schema = "scheduled_calls"

    @ID(custom: "id", generatedBy: .database) var id: Int?
    @Parent(key: "user_id") var user: UserRecord
    @Field(key: "phone_number") var phoneNumber: String
    @Field(key: "scenario_id") var scenarioID: String
    @Field(key: "scheduled_time") var scheduledTime: Date
    @Field(key: "status") var status: String
    @OptionalField(key: "job_id") var jobID: UUID?
    @OptionalField(key: "call_id") var callID: Int?
    @OptionalField(key: "message") var message: String?
    @Field(key: "created_at") var createdAt: Date

    init() {}

    init(userID: UUID, phoneNumber: String, scenarioID: String, scheduledTime: Date, now: Date) {
        self.$user.id = userID
        self.phoneNumber = phoneNumber
        self.scenarioID = scenarioID
        self.scheduledTime = scheduledTime
        self.status = "scheduled"
        self.createdAt = now
    }

    func row() throws -> ScheduledCallRow {
        ScheduledCallRow(
            id: try requireID(), userID: $user.id, phoneNumber: phoneNumber, scenarioID: scenarioID, scheduledTime: scheduledTime,
            status: status, jobID: jobID, callID: callID, message: message, createdAt: createdAt)
    }

    func apply(_ row: ScheduledCallRow) {
        $status.assign(row.status)
        $jobID.assign(row.jobID)
        $callID.assign(row.callID)
        $message.assign(row.message)
    }
}

final class StoreTransactionRecord: Model, @unchecked Sendable {
    static let schema = "store_transactions"

    @ID(key: .id) var id: UUID?
    @Parent(key: "user_id") var user: UserRecord
    @Field(key: "transaction_id") var transactionID: String
    @Field(key: "original_transaction_id") var originalTransactionID: String
    @Field(key: "product_id") var productID: String
    @Field(key: "purchased_at") var purchasedAt: Date
    @OptionalField(key: "expires_at") var expiresAt: Date?
    @OptionalField(key: "revoked_at") var revokedAt: Date?
    @Field(key: "environment") var environment: String
    @Field(key: "created_at") var createdAt: Date

    init() {}

    init(_ row: StoreTransactionRow) {
        $user.id = row.userID
        transactionID = row.transactionID
        originalTransactionID = row.originalTransactionID
        productID = row.productID
        purchasedAt = row.purchasedAt
        expiresAt = row.expiresAt
        revokedAt = row.revokedAt
        environment = row.environment
        createdAt = row.createdAt
    }

    var row: StoreTransactionRow {
        StoreTransactionRow(
            userID: $user.id, transactionID: transactionID, originalTransactionID: originalTransactionID, productID: productID,
            purchasedAt: purchasedAt, expiresAt: expiresAt, revokedAt: revokedAt, environment: environment, now: createdAt)
    }

    /// What Apple's notifications change: when the period ends, and a refund.
    func apply(_ row: StoreTransactionRow) {
        $expiresAt.assign(row.expiresAt)
        $revokedAt.assign(row.revokedAt)
    }
}

final class StoreNotificationRecord: Model, @unchecked Sendable {
    static let schema = "store_notifications"

    @ID(key: .id) var id: UUID?
    @Field(key: "notification_uuid") var notificationUUID: String
    @Field(key: "notification_type") var notificationType: String
    @OptionalField(key: "subtype") var subtype: String?
    @Field(key: "signed_payload") var signedPayload: String
    @Field(key: "status") var status: String
    @OptionalField(key: "message") var message: String?
    @Field(key: "received_at") var receivedAt: Date
    @OptionalField(key: "processed_at") var processedAt: Date?

    init() {}

    init(_ row: StoreNotificationRow) {
        id = row.id
        notificationUUID = row.notificationUUID
        notificationType = row.notificationType
        subtype = row.subtype
        signedPayload = row.signedPayload
        status = row.status
        message = row.message
        receivedAt = row.receivedAt
        processedAt = row.processedAt
    }

    func row() throws -> StoreNotificationRow {
        var row = StoreNotificationRow(
            id: try requireID(), notificationUUID: notificationUUID, notificationType: notificationType, subtype: subtype,
            signedPayload: signedPayload, now: receivedAt)
        row.status = status
        row.message = message
        row.processedAt = processedAt
        return row
    }

    func apply(_ row: StoreNotificationRow) {
        $status.assign(row.status)
        $message.assign(row.message)
        $processedAt.assign(row.processedAt)
    }
}

final class CustomScenarioRecord: Model, @unchecked Sendable {
    static let schema = "custom_scenarios"

    @ID(key: .id) var id: UUID?
    @Parent(key: "user_id") var user: UserRecord
    @Field(key: "name") var name: String
    @Field(key: "description") var description: String
    @Field(key: "icon") var icon: String
    @Field(key: "prompt") var prompt: String
    @Field(key: "voice") var voice: String
    @Field(key: "temperature") var temperature: Double
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "updated_at") var updatedAt: Date

    init() {}

    init(_ row: CustomScenarioRow) {
        id = row.id
        $user.id = row.userID
        createdAt = row.createdAt
        apply(row)
    }

    func row() throws -> CustomScenarioRow {
        var row = CustomScenarioRow(
            id: try requireID(), userID: $user.id, name: name, description: description, icon: icon, prompt: prompt, voice: voice,
            temperature: temperature, now: createdAt)
        row.updatedAt = updatedAt
        return row
    }

    func apply(_ row: CustomScenarioRow) {
        $name.assign(row.name)
        $description.assign(row.description)
        $icon.assign(row.icon)
        $prompt.assign(row.prompt)
        $voice.assign(row.voice)
        $temperature.assign(row.temperature)
        $updatedAt.assign(row.updatedAt)
    }
}
