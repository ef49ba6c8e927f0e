import AppStore
import Calls
import Foundation
import Jobs
import Logging
import Persistence
import Platform
import StoryModel

/// App Store Server Notifications V2: verified and kept at once (Apple wants a quick 200),
/// processed once by a job. A notification Apple sends again (same `notificationUUID`) is
/// answered and not processed twice.
public struct StoreNotifications: Sendable {
    public let database: AppDatabase
    public let services: CallServices
    let logger: Logger

    public init(database: AppDatabase, services: CallServices, logger: Logger = Logger(label: "storyvoice.app-store")) {
        self.database = database
        self.services = services
        self.logger = logger
    }

    /// Verifies `signedPayload`, keeps it, and queues its processing for the subscriber. A
    /// payload that does not verify changes nothing.
    public func receive(signedPayload: String) async throws {
        guard let verifier = services.appStore else {
            throw ServiceError(.unavailable, code: "app_store_not_configured", "App Store notifications cannot be verified: APP_STORE_BUNDLE_ID is not set.")
        }
        let notification: AppStoreNotification
        do { notification = try await verifier.verifyNotification(signedPayload) } catch { throw Purchases.refusal(error) }
        guard let uuid = notification.payload.notificationUUID, let type = notification.notificationType?.rawValue else {
            throw ServiceError(.badRequest, code: "purchase_not_verified", "The notification has no notificationUUID or type.")
        }
        let record = StoreNotificationRow(
            id: UUID.random(), notificationUUID: uuid, notificationType: type, subtype: notification.subtype?.rawValue, signedPayload: signedPayload, now: services.now())
        let repository = CallRepository(database: database)
        guard try await repository.insertIfNew(record) else { return }
        guard let owner = try await subscriber(of: notification) else {
            try await repository.updateNotification(id: record.id) { record in
                record.status = "ignored"
                record.message = "No account has this purchase yet; it is applied when the app sends it."
            }
            return
        }
        try await JobQueue(database: database).enqueue(
            kind: CallJobs.storeNotification, payload: CallJobs.NotificationPayload(notification_id: record.id),
            ownerID: owner, maxAttempts: 5)
    }

    /// The account a notification is about: the app's account token on the transaction, or
    /// whoever first sent the subscription's original transaction.
    func subscriber(of notification: AppStoreNotification) async throws -> UUID? {
        if let token = notification.transaction?.appAccountToken, try await UserRepository(database: database).find(id: token) != nil {
            return token
        }
        guard let original = notification.transaction?.originalTransactionId ?? notification.renewalInfo?.originalTransactionId else { return nil }
        return try await CallRepository(database: database).owner(ofOriginalTransaction: original)
    }

    /// Applies a kept notification to the subscriber's purchases.
    func process(notificationID: UUID, ownerID: UUID) async throws {
        let repository = CallRepository(database: database)
        guard let record = try await repository.notification(id: notificationID), record.status == "received",
              let verifier = services.appStore else { return }
        // Verified when received; verified again here because only the payload was kept.
        let notification = try await verifier.verifyNotification(record.signedPayload)
        let purchases = Purchases(database: database, services: services, logger: logger)
        let type = notification.notificationType
        var message = "applied"
        if let transaction = notification.transaction, let product = transaction.productId.flatMap(CallProduct.init(productID:)) {
            switch type {
            case .refund, .revoke:
                try await revoke(transaction, product: product, ownerID: ownerID, purchases: purchases)
            case .refundReversed:
                try await reinstate(transaction)
            default:
                _ = try? await purchases.keep(transaction, product: product, for: ownerID)
                try await update(transaction, renewal: notification.renewalInfo, type: type)
            }
            try await purchases.grantChatPremium(userID: ownerID)
        } else {
            message = "nothing to apply: no transaction of this app's products"
        }
        let now = services.now()
        try await repository.updateNotification(id: notificationID) { record in
            record.status = "processed"
            record.message = message
            record.processedAt = now
        }
    }

    private func revoke(_ transaction: SignedTransaction, product: CallProduct, ownerID: UUID, purchases: Purchases) async throws {
        guard let id = transaction.transactionId else { return }
        let when = transaction.revocationDate ?? services.now()
        if try await CallRepository(database: database).updateTransaction(id: id, { $0.revokedAt = when }) == nil {
            var revoked = transaction
            revoked.revocationDate = when
            _ = try await purchases.keep(revoked, product: product, for: ownerID)
        }
    }

    private func reinstate(_ transaction: SignedTransaction) async throws {
        guard let id = transaction.transactionId else { return }
        try await CallRepository(database: database).updateTransaction(id: id) { $0.revokedAt = nil }
    }

    /// A renewal's new expiry, or a billing grace period that keeps the plan until it ends.
    private func update(_ transaction: SignedTransaction, renewal: SignedRenewalInfo?, type: NotificationType?) async throws {
        guard let id = transaction.transactionId else { return }
        try await CallRepository(database: database).updateTransaction(id: id) { existing in
            if let expires = transaction.expiresDate { existing.expiresAt = expires }
            if type == .didFailToRenew, let grace = renewal?.gracePeriodExpiresDate, grace > (existing.expiresAt ?? .distantPast) {
                existing.expiresAt = grace
            }
        }
    }
}
