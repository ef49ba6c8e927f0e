import Foundation

/// A call as the ledger counts it.
public struct LedgerCall: Hashable, Sendable, Codable {
    /// The call's record, to find what paid for it.
    public var id: Int?
    public var placedAt: Date
    /// Seconds connected, once the call ended (Twilio's CallDuration).
    public var durationSeconds: Int?
    /// False for a call that never connected (busy, no answer, failed, cancelled): it is given
    /// back rather than charged.
    public var counts: Bool

    public init(id: Int? = nil, placedAt: Date, durationSeconds: Int? = nil, counts: Bool = true) {
        self.id = id
        self.placedAt = placedAt
        self.durationSeconds = durationSeconds
        self.counts = counts
    }
}

/// What paid for one call.
public enum CallCharge: Hashable, Sendable {
    case trial
    /// A subscription's cycle allowance; `cycleStart` identifies the cycle.
    case subscription(CallPlan, cycleStart: Date)
    /// An addon pack, by its transaction.
    case addon(transactionID: String)
    /// Nothing was left (a development call that bypassed the check): counted, never allowed.
    case unpaid
}

/// Plans and usage as a pure function of (trial start, purchases, calls, now).
///
/// The ledger replays the calls in order and charges each to what was available when it was
/// placed (the subscription's cycle, then the trial, then the addon pack that expires first),
/// so what is left at any time follows from the history alone: nothing is reset by a cron job,
/// and no history can allow a call beyond its plan.
public struct CallLedger: Sendable {
    public var trialStartedAt: Date
    public var purchases: [Purchase]
    public var calls: [LedgerCall]

    public init(trialStartedAt: Date, purchases: [Purchase], calls: [LedgerCall]) {
        self.trialStartedAt = trialStartedAt
        self.purchases = purchases
        // Calls placed in the same instant keep the order given (the database's insertion order).
        self.calls = calls.enumerated().sorted { ($0.element.placedAt, $0.offset) < ($1.element.placedAt, $1.offset) }.map(\.element)
    }

    public var trialEndsAt: Date { trialStartedAt.addingTimeInterval(CallPlan.trial.cycle) }

    /// (time − anchor) div period, as a date: the start of the cycle holding `time`.
    public static func cycleStart(anchor: Date, period: TimeInterval, at time: Date) -> Date {
        let elapsed = time.timeIntervalSince(anchor)
        let index = (elapsed / period).rounded(.down)
        return anchor.addingTimeInterval(index * period)
    }

    /// Each counted call with what paid for it, in order.
    public func charges() -> [(call: LedgerCall, charge: CallCharge)] {
        var charged: [(call: LedgerCall, charge: CallCharge)] = []
        for call in calls where call.counts {
            let allowance = Allowance(ledger: self, charged: charged.map(\.charge), at: call.placedAt)
            charged.append((call, allowance.next ?? .unpaid))
        }
        return charged
    }

    /// What is left at `time`.
    public func allowance(at time: Date) -> Allowance {
        Allowance(ledger: self, charged: charges().filter { $0.call.placedAt <= time }.map(\.charge), at: time)
    }
}

/// What a caller may still use at one time.
public struct Allowance: Sendable {
    public var time: Date
    public var subscription: ActiveSubscription?
    /// Calls left in the subscription's current cycle.
    public var subscriptionCallsLeft: Int
    public var trialCallsUsed: Int
    /// Calls left in the trial; 0 once it ended or a subscription is in force.
    public var trialCallsLeft: Int
    /// Per usable addon pack, calls left, the first to expire first.
    public var addons: [(purchase: Purchase, left: Int)]

    init(ledger: CallLedger, charged: [CallCharge], at time: Date) {
        self.time = time
        let subscription = ledger.purchases.activeSubscription(at: time)
        self.subscription = subscription
        if let subscription {
            let cycle = subscription.cycleStart(at: time)
            let used = charged.filter { $0 == .subscription(subscription.plan, cycleStart: cycle) }.count
            subscriptionCallsLeft = max(0, subscription.plan.callsPerCycle - used)
        } else {
            subscriptionCallsLeft = 0
        }
        trialCallsUsed = charged.filter { $0 == .trial }.count
        let trialOpen = subscription == nil && time >= ledger.trialStartedAt && time < ledger.trialEndsAt
        trialCallsLeft = trialOpen ? max(0, CallPlan.trial.callsPerCycle - trialCallsUsed) : 0
        addons = ledger.purchases.activeAddons(at: time).map { pack in
            let used = charged.filter { $0 == .addon(transactionID: pack.transactionID) }.count
            return (pack, max(0, CallProduct.addonCallCount - used))
        }.filter { $0.left > 0 }
    }

    public var addonCallsLeft: Int { addons.reduce(0) { $0 + $1.left } }

    /// What the next call would be charged to; nil when nothing is left.
    public var next: CallCharge? {
        if let subscription, subscriptionCallsLeft > 0 {
            return .subscription(subscription.plan, cycleStart: subscription.cycleStart(at: time))
        }
        if trialCallsLeft > 0 { return .trial }
        if let pack = addons.first { return .addon(transactionID: pack.purchase.transactionID) }
        return nil
    }

    /// Seconds the next call may last: the plan's limit (addon calls keep the current plan's).
    public var durationLimit: Int { (subscription?.plan ?? .trial).durationLimit }
}
