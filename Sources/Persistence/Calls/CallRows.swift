import Foundation

// The calls product's rows as values: what `CallRepository` reads and writes. Its Fluent
// models (CallRecords.swift) stay inside Persistence.

/// A user of the calls product: when their trial began. Made on a mobile registration, or on
/// their first calls request ("initialized if not found", as the app expects).
public struct CallAccountRow: Sendable, Equatable {
    public var userID: UUID
    public var trialStartedAt: Date
    /// `mobile_consumer`, or `web` for an account first used from the web app.
    public var appType: String
}

/// One call placed: to a phone through Twilio, or from the web app's in-browser call page.
/// Integer ids, as the mobile app's call history decodes them.
public struct PhoneCallRow: Sendable, Equatable {
    public var id: Int
    public var userID: UUID
    public var phoneNumber: String
    public var scenarioID: String
    /// Twilio's call statuses (`initiated`, `queued`, `ringing`, `in-progress`, `completed`,
    /// `busy`, `no-answer`, `failed`, `canceled`), `initiated` before Twilio answered.
    public var status: String
    public var callSID: String?
    /// `twilio`, `browser`.
    public var channel: String
    /// False once the call is known never to have connected: it is given back.
    public var counts: Bool
    public var durationSeconds: Int?
    public var durationLimit: Int
    /// SHA-256 of the one-time token the media stream presents; the token itself is never kept.
    public var streamTokenHash: String?
    public var errorMessage: String?
    public var createdAt: Date
    public var endedAt: Date?
}

/// A call about to be recorded (its id is the database's).
public struct NewPhoneCall: Sendable {
    public var userID: UUID
    public var phoneNumber: String
    public var scenarioID: String
    public var channel: String
    public var durationLimit: Int
    public var streamTokenHash: String?
    public var counts: Bool
    public var createdAt: Date

    public init(
        userID: UUID, phoneNumber: String, scenarioID: String, channel: String, durationLimit: Int, streamTokenHash: String?,
        counts: Bool, createdAt: Date
    ) {
        self.userID = userID
        self.phoneNumber = phoneNumber
        self.scenarioID = scenarioID
        self.channel = channel
        self.durationLimit = durationLimit
        self.streamTokenHash = streamTokenHash
        self.counts = counts
        self.createdAt = createdAt
    }
}

/// A call to place later; a job places it at `scheduledTime`.
public struct ScheduledCallRow: Sendable, Equatable {
    public var id: Int
    public var userID: UUID
    public var phoneNumber: String
    public var scenarioID: String
    public var scheduledTime: Date
    /// `scheduled`, `placed`, `cancelled`, `failed`.
    public var status: String
    public var jobID: UUID?
    public var callID: Int?
    public var message: String?
    public var createdAt: Date
}

/// An App Store transaction, kept once: a subscription period (first purchase or renewal) or an
/// addon pack. Plans and usage are computed from these rows and the calls.
public struct StoreTransactionRow: Sendable, Equatable {
    public var userID: UUID
    public var transactionID: String
    public var originalTransactionID: String
    public var productID: String
    public var purchasedAt: Date
    public var expiresAt: Date?
    public var revokedAt: Date?
    /// `Production`, `Sandbox`, `Xcode`.
    public var environment: String
    public var createdAt: Date

    public init(
        userID: UUID, transactionID: String, originalTransactionID: String, productID: String,
        purchasedAt: Date, expiresAt: Date?, revokedAt: Date?, environment: String, now: Date
    ) {
        self.userID = userID
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
public struct StoreNotificationRow: Sendable, Equatable {
    public var id: UUID
    public var notificationUUID: String
    public var notificationType: String
    public var subtype: String?
    /// The verified `signedPayload`, processed by a job.
    public var signedPayload: String
    /// `received`, `processed`, `ignored`, `failed`.
    public var status: String
    public var message: String?
    public var receivedAt: Date
    public var processedAt: Date?

    public init(id: UUID, notificationUUID: String, notificationType: String, subtype: String?, signedPayload: String, now: Date) {
        self.id = id
        self.notificationUUID = notificationUUID
        self.notificationType = notificationType
        self.subtype = subtype
        self.signedPayload = signedPayload
        self.status = "received"
        self.receivedAt = now
    }
}

/// A user's own scenario.
public struct CustomScenarioRow: Sendable, Equatable {
    public var id: UUID
    public var userID: UUID
    public var name: String
    public var description: String
    public var icon: String
    public var prompt: String
    public var voice: String
    public var temperature: Double
    public var createdAt: Date
    public var updatedAt: Date

    public init(id: UUID, userID: UUID, name: String, description: String, icon: String, prompt: String, voice: String, temperature: Double, now: Date) {
        self.id = id
        self.userID = userID
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
