import Foundation

/// The mobile app's own Codable structs, copied field for field from its integration guide
/// (../shared/seeds/002…, "Authentication Flow" to "Additional Features"): every reply of the
/// calls API must decode with them, as the app decodes it.
enum MobileClient {
    struct AuthResponse: Codable {
        let access_token: String
        let refresh_token: String
        let token_type: String
    }

    struct UsageStats: Codable {
        let app_type: String
        let is_trial_active: Bool
        let trial_calls_remaining: Int
        let trial_calls_used: Int
        let calls_made_today: Int
        let calls_made_this_week: Int
        let calls_made_this_month: Int
        let calls_made_total: Int
        let is_subscribed: Bool
        let subscription_tier: String?
        let upgrade_recommended: Bool
        let total_call_duration_this_week: Int?
        let total_call_duration_this_month: Int?
        let addon_calls_remaining: Int?
        let addon_calls_expiry: String?
        let week_start_date: String?
        let month_start_date: String?
    }

    struct PricingInfo: Codable {
        let plans: [PricingPlan]
        let addon: AddonPlan
    }

    struct PricingPlan: Codable {
        let id: String
        let name: String
        let price: String
        let billing: String
        let calls: String
        let duration_limit: String
        let features: [String]
    }

    struct AddonPlan: Codable {
        let id: String
        let name: String
        let price: String
        let calls: String
        let expires: String
        let description: String
    }

    struct CallPermission: Codable {
        let can_make_call: Bool
        let status: String
        let details: CallPermissionDetails
    }

    struct CallPermissionDetails: Codable {
        let calls_remaining_this_week: Int?
        let calls_remaining_this_month: Int?
        let duration_limit: Int?
        let addon_calls_remaining: Int?
        let trial_ends: String?
        let app_type: String?
        let message: String?
        let upgrade_options: [UpgradeOption]?
    }

    struct UpgradeOption: Codable {
        let plan: String
        let price: String
        let calls: String
        let product_id: String
    }

    struct Scenario: Codable, Identifiable {
        let id: String
        let name: String
        let description: String
        let icon: String
        let category: String
        let is_family_friendly: Bool
    }

    struct ScenariosResponse: Codable {
        let scenarios: [Scenario]
    }

    struct CallResponse: Codable {
        let call_sid: String
        let status: String
        let duration_limit: Int
        let usage_stats: UsageStatsUpdate
    }

    struct UsageStatsUpdate: Codable {
        let calls_remaining_this_week: Int?
        let calls_remaining_this_month: Int?
        let addon_calls_remaining: Int?
        let upgrade_recommended: Bool
    }

    /// The app's errors of a call ("Error Handling"): `trialExhausted` is the one its screen
    /// answers with the upgrade alert.
    enum CallError: Error {
        case trialExhausted
        case permissionDenied(String)
        case paymentRequired(PaymentRequiredError)
    }

    struct PaymentRequiredError: Codable {
        let detail: PaymentDetail
    }

    struct PaymentDetail: Codable {
        let error: String
        let message: String
        let upgrade_options: [UpgradeOption]?
        let timestamp: String?
    }

    /// What the app's `purchaseSubscription(productID:transaction:)` sends: the base64 app
    /// receipt (`AppStore.receiptData()`), not the transaction's JWS.
    struct PurchaseRequest: Codable {
        let receipt_data: String
        let is_sandbox: Bool
        let product_id: String
    }

    struct PurchaseResponse: Codable {
        let success: Bool
        let message: String
        let usage_stats: UsageStats
    }

    struct UpgradeResponse: Codable {
        let success: Bool
        let message: String
        let subscription_tier: String
        let usage_stats: UsageStats
    }

    struct PurchaseError: Codable {
        let detail: String
    }

    struct CallHistoryResponse: Codable {
        let call_history: [CallHistoryItem]
        let total_calls: Int
    }

    struct CallHistoryItem: Codable, Identifiable {
        let id: Int
        let phone_number: String
        let scenario: String
        let status: String
        let created_at: String
        let call_sid: String
    }

    /// The guide shows this reply's JSON but not its struct; these are its fields.
    struct ScheduledCallResponse: Codable {
        let schedule_id: Int
        let phone_number: String
        let scenario: String
        let scheduled_time: String
        let status: String
    }

    struct SubscriptionStatus: Codable {
        let subscription_tier: String?
        let subscription_status: String
        let is_subscribed: Bool
        let subscription_start_date: String?
        let subscription_end_date: String?
        let next_payment_date: String?
        let billing_cycle: String?
        let app_store_transaction_id: String?
        let app_store_product_id: String?
    }

    struct WebhookResponse: Codable {
        let status: String
        let message: String
    }
}
