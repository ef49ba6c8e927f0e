import Calls
import Foundation
import Testing

private let day = CallPlan.day
private let start = Date(timeIntervalSince1970: 1_700_000_000)

private func at(_ days: Double) -> Date { start.addingTimeInterval(days * day) }

@Suite struct CallLedgerTests {
    @Test func aNewCallerHasThreeTrialCallsOfAMinute() {
        let ledger = CallLedger(trialStartedAt: start, purchases: [], calls: [])
        let permission = ledger.allowance(at: at(1)).permission(trialEndsAt: ledger.trialEndsAt)
        #expect(permission.canMakeCall)
        #expect(permission.status == .trialCallAvailable)
        #expect(permission.details.durationLimit == 60)
        #expect(ledger.usageStats(at: at(1)).trialCallsRemaining == 3)
    }

    @Test func theTrialEndsAfterThreeCallsOrSevenDays() {
        let used = CallLedger(trialStartedAt: start, purchases: [], calls: (0..<3).map { LedgerCall(placedAt: at(Double($0))) })
        #expect(used.allowance(at: at(3)).status == .trialExhausted)
        let expired = CallLedger(trialStartedAt: start, purchases: [], calls: [LedgerCall(placedAt: at(1))])
        #expect(expired.allowance(at: at(7) - 1).status == .trialCallAvailable)
        #expect(expired.allowance(at: at(7)).status == .upgradeRequired)
    }

    @Test func aCallThatNeverConnectedIsGivenBack() {
        let ledger = CallLedger(trialStartedAt: start, purchases: [], calls: [LedgerCall(placedAt: at(1), counts: false)])
        #expect(ledger.usageStats(at: at(2)).trialCallsRemaining == 3)
    }

    @Test func basicCyclesRollExactlyAtTheirStartPlusAWeek() {
        let bought = at(2.5)
        let basic = Purchase(transactionID: "t1", product: .basicWeekly, purchasedAt: bought, expiresAt: bought + 70 * day)
        let calls = (0..<5).map { LedgerCall(placedAt: bought + Double($0) * 3600) }
        let ledger = CallLedger(trialStartedAt: start, purchases: [basic], calls: calls)
        #expect(ledger.allowance(at: bought + 7 * day - 1).status == .weeklyLimitReached)
        #expect(ledger.allowance(at: bought + 7 * day).status == .basicCallAvailable)
        #expect(ledger.allowance(at: bought + 7 * day).subscriptionCallsLeft == 5)
        #expect(ledger.usageStats(at: bought + 7 * day).weekStartDate == CallDates.string(bought + 7 * day))
    }

    @Test func premiumAllowsThirtyCallsOfTwoMinutesEachThirtyDays() {
        let premium = Purchase(transactionID: "p", product: .premiumMonthly, purchasedAt: start, expiresAt: at(60))
        let calls = (0..<30).map { LedgerCall(placedAt: at(Double($0) * 0.5)) }
        let ledger = CallLedger(trialStartedAt: start, purchases: [premium], calls: calls)
        let full = ledger.allowance(at: at(29))
        #expect(full.status == .monthlyLimitReached)
        #expect(full.permission(trialEndsAt: ledger.trialEndsAt).details.upgradeOptions == [.addon])
        #expect(ledger.allowance(at: at(30)).status == .premiumCallAvailable)
        #expect(ledger.allowance(at: at(30)).durationLimit == 120)
    }

    @Test func addonCallsKeepThePlansDurationAndExpireAfterThirtyDays() {
        let premium = Purchase(transactionID: "p", product: .premiumMonthly, purchasedAt: start, expiresAt: at(30))
        let addon = Purchase(transactionID: "a", product: .addonCalls, purchasedAt: at(1))
        let calls = (0..<30).map { LedgerCall(placedAt: at(1 + Double($0) * 0.1)) }
        let ledger = CallLedger(trialStartedAt: start, purchases: [premium, addon], calls: calls)
        let afterPlan = ledger.allowance(at: at(5))
        #expect(afterPlan.status == .addonCallAvailable)
        #expect(afterPlan.durationLimit == 120)
        #expect(ledger.allowance(at: at(31) - 1).addonCallsLeft == 5)
        #expect(ledger.allowance(at: at(31)).addonCallsLeft == 0)
        #expect(ledger.allowance(at: at(31)).durationLimit == 60)
    }

    @Test func aRefundRemovesAccessFromItsDate() {
        var basic = Purchase(transactionID: "b", product: .basicWeekly, purchasedAt: at(8), expiresAt: at(15))
        basic.revokedAt = at(9)
        let ledger = CallLedger(trialStartedAt: start, purchases: [basic], calls: [])
        #expect(ledger.allowance(at: at(8.5)).status == .basicCallAvailable)
        #expect(ledger.allowance(at: at(9)).canCall == false)
        #expect(ledger.usageStats(at: at(9)).isSubscribed == false)
    }

    @Test func renewalsKeepTheFirstPurchaseAsTheCycleAnchor() {
        let first = Purchase(transactionID: "1", product: .basicWeekly, purchasedAt: at(0.5), expiresAt: at(7.5))
        let renewal = Purchase(transactionID: "2", originalTransactionID: "1", product: .basicWeekly, purchasedAt: at(7.4), expiresAt: at(14.5))
        let ledger = CallLedger(trialStartedAt: start, purchases: [first, renewal], calls: [])
        #expect(ledger.allowance(at: at(10)).subscription?.cycleStart(at: at(10)) == at(7.5))
    }

    @Test func usageStatsCountsAndDurations() {
        let calls = [LedgerCall(placedAt: at(0.1), durationSeconds: 45), LedgerCall(placedAt: at(0.2), durationSeconds: 20, counts: false)]
        let stats = CallLedger(trialStartedAt: start, purchases: [], calls: calls).usageStats(at: at(0.3))
        #expect(stats.callsMadeTotal == 2)
        #expect(stats.trialCallsUsed == 1 && stats.callsMadeThisWeek == 1)
        #expect(stats.totalCallDurationThisWeek == 45)
        #expect(stats.subscriptionTier == nil)
        #expect(stats.isTrialActive)
    }

    /// Whatever the history, no cycle, trial or pack is ever charged beyond what it allows, and
    /// nothing is charged outside the time it was in force.
    @Test(arguments: 0..<200) func noHistoryAllowsACallBeyondItsPlan(seed: UInt64) {
        var random = SplitMix(seed: seed)
        let purchases = (0..<Int.random(in: 0...4, using: &random)).map { index -> Purchase in
            let product = CallProduct.allCases.randomElement(using: &random)!
            let bought = at(Double.random(in: 0...60, using: &random))
            let length = product.plan?.cycle ?? 0
            var purchase = Purchase(transactionID: "t\(index)", product: product, purchasedAt: bought,
                                    expiresAt: bought + length * Double(Int.random(in: 1...3, using: &random)))
            if Bool.random(using: &random) { purchase.revokedAt = bought + Double.random(in: 0...40, using: &random) * day }
            return purchase
        }
        let calls = (0..<Int.random(in: 0...80, using: &random)).map { _ in
            LedgerCall(placedAt: at(Double.random(in: 0...90, using: &random)), counts: Int.random(in: 0..<10, using: &random) > 0)
        }
        let ledger = CallLedger(trialStartedAt: start, purchases: purchases, calls: calls)
        var perCycle: [CallCharge: Int] = [:]
        for (call, charge) in ledger.charges() {
            // A history replayed is only ever charged to what the allowance at that time offered.
            let before = CallLedger(trialStartedAt: start, purchases: purchases, calls: calls.filter { $0.placedAt < call.placedAt })
            if charge != .unpaid { perCycle[charge, default: 0] += 1 }
            switch charge {
            case .trial:
                #expect(call.placedAt < ledger.trialEndsAt)
            case .subscription(let plan, let cycleStart):
                #expect(call.placedAt >= cycleStart && call.placedAt < cycleStart + plan.cycle)
                #expect(purchases.contains { $0.product.plan == plan && $0.isActive(at: call.placedAt) })
            case .addon(let id):
                #expect(purchases.first { $0.transactionID == id }!.isActive(at: call.placedAt))
            case .unpaid:
                #expect(before.allowance(at: call.placedAt).next == nil)
            }
        }
        for (charge, count) in perCycle {
            switch charge {
            case .trial: #expect(count <= 3)
            case .subscription(let plan, _): #expect(count <= plan.callsPerCycle)
            case .addon: #expect(count <= 5)
            case .unpaid: break
            }
        }
    }
}

extension CallLedgerTests {
    /// The three properties over random histories, each at its exact boundary: a
    /// subscription's cycle rolls at its first purchase + k·period (k random, renewals or not),
    /// an addon pack lasts 30 days to the second, and a revocation takes access away from its
    /// date on.
    @Test(arguments: 0..<200) func cyclesAddonsAndRevocationsHoldAtTheirBoundaries(seed: UInt64) {
        var random = SplitMix(seed: seed)
        let plan: CallProduct = Bool.random(using: &random) ? .basicWeekly : .premiumMonthly
        let period = plan.plan!.cycle
        let bought = at(Double.random(in: 0...20, using: &random))
        let cycles = Int.random(in: 1...6, using: &random)
        // The chain: a first purchase and its renewals, one per cycle, each bought a little early.
        let chain = (0..<cycles).map { index in
            Purchase(transactionID: "s\(index)", originalTransactionID: "s0", product: plan,
                     purchasedAt: index == 0 ? bought : bought + Double(index) * period - Double.random(in: 0...3600, using: &random),
                     expiresAt: bought + Double(index + 1) * period)
        }
        let ledger = CallLedger(trialStartedAt: start, purchases: chain, calls: [])
        let k = Int.random(in: 1..<cycles + 1, using: &random)
        let roll = bought + Double(k) * period
        if k < cycles {
            #expect(ledger.allowance(at: roll - 1).subscription?.cycleStart(at: roll - 1) == bought + Double(k - 1) * period)
            #expect(ledger.allowance(at: roll).subscription?.cycleStart(at: roll) == roll)
            #expect(ledger.allowance(at: roll).subscriptionCallsLeft == plan.plan!.callsPerCycle)
        } else {
            #expect(ledger.allowance(at: roll - 1).subscription != nil)
            #expect(ledger.allowance(at: roll).subscription == nil)
        }

        let packBought = at(Double.random(in: 8...60, using: &random))
        let pack = Purchase(transactionID: "a", product: .addonCalls, purchasedAt: packBought)
        let withPack = CallLedger(trialStartedAt: start, purchases: [pack], calls: [])
        #expect(withPack.allowance(at: packBought + 30 * day - 1).addonCallsLeft == 5)
        #expect(withPack.allowance(at: packBought + 30 * day).addonCallsLeft == 0)

        var revoked = chain
        let revokedIndex = Int.random(in: 0..<cycles, using: &random)
        let revocation = revoked[revokedIndex].purchasedAt + Double.random(in: 60...(period - 7200), using: &random)
        revoked[revokedIndex].revokedAt = revocation
        let refunded = CallLedger(trialStartedAt: start, purchases: revoked, calls: [])
        #expect(refunded.allowance(at: revocation - 1).subscription != nil)
        #expect(refunded.allowance(at: revocation).subscription?.purchase.transactionID != "s\(revokedIndex)")
        // A later call is never charged to the revoked period.
        let late = LedgerCall(placedAt: revocation + Double.random(in: 0...(period / 2), using: &random))
        let charges = CallLedger(trialStartedAt: start, purchases: revoked, calls: [late]).charges()
        if case .subscription(_, let cycleStart) = charges.first?.charge {
            #expect(revoked.contains { $0.transactionID != "s\(revokedIndex)" && $0.isActive(at: late.placedAt) }, "cycle \(cycleStart)")
        }
    }
}

extension Allowance {
    var canCall: Bool { next != nil }
}

struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
