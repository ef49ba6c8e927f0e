/// `GET /mobile/pricing`, as the mobile app shows it.
public struct Pricing: Codable, Equatable, Sendable {
    public struct Plan: Codable, Equatable, Sendable {
        public var id, name, price, billing, calls: String
        public var durationLimit: String
        public var features: [String]

        enum CodingKeys: String, CodingKey { case id, name, price, billing, calls, durationLimit = "duration_limit", features }
    }

    public struct Addon: Codable, Equatable, Sendable {
        public var id, name, price, calls, expires, description: String
    }

    public var plans: [Plan]
    public var addon: Addon

    public static let current = Pricing(
        plans: [
            Plan(id: "basic", name: "Basic Plan", price: "$4.99", billing: "weekly", calls: "5 calls per week",
                 durationLimit: "1 minute per call", features: ["Unlimited scenarios", "Call history", "Basic support"]),
            Plan(id: "premium", name: "Premium Plan", price: "$25.00", billing: "monthly", calls: "30 calls per month",
                 durationLimit: "2 minutes per call", features: ["All Basic features", "Priority support", "Advanced analytics"]),
        ],
        addon: Addon(id: "addon", name: "Additional Calls", price: "$4.99", calls: "5 additional calls",
                     expires: "30 days", description: "Perfect when you need a few more calls")
    )
}
