import CallWorkflows
import Calls
import Foundation
import Platform
import Vapor

/// The AI phone calls' mobile API: the iPhone app's integration guide is the contract (paths,
/// fields, statuses); docs/calls.md lists it with what this server adds (custom scenarios,
/// voices, scheduled-call list and cancel, the browser call).
struct MobileController: Sendable {
    let config: ServerConfig

    func register(signedIn: any RoutesBuilder, open: any RoutesBuilder) {
        // The guide's app asks for the scenarios before any sign-in (its getAvailableScenarios
        // sends no token): the built-in ones are public; a token adds the caller's own.
        open.grouped(UserAuthenticator()).grouped("mobile").get("scenarios", use: scenarios)
        let mobile = signedIn.grouped("mobile")
        mobile.get("usage-stats", use: usageStats)
        mobile.post("check-call-permission", use: checkPermission)
        mobile.get("pricing", use: pricing)
        mobile.post("scenarios", use: createScenario)
        mobile.put("scenarios", ":id", use: updateScenario)
        mobile.delete("scenarios", ":id", use: deleteScenario)
        mobile.get("voices", use: voices)
        mobile.get("voices", ":id", "preview", use: previewVoice)
        mobile.post("make-call", use: makeCall)
        mobile.post("schedule-call", use: scheduleCall)
        mobile.get("scheduled-calls", use: scheduledCalls)
        mobile.delete("scheduled-calls", ":id", use: cancelScheduledCall)
        mobile.get("call-history", use: callHistory)
        mobile.post("purchase-subscription", use: purchase)
        mobile.post("upgrade-subscription", use: upgrade)
        mobile.get("subscription-status", use: subscriptionStatus)
        signedIn.grouped("api", "calls").post("browser", use: browserCall)
        // Apple and Twilio sign what they send; neither has a user's token.
        open.grouped("mobile", "app-store").post("webhook", use: appStoreWebhook)
        open.post("call-end-webhook", use: callEndWebhook)
    }

    @Sendable func usageStats(_ request: Request) async throws -> Response {
        try Response.json(try await request.callAccounts(config).usageStats(of: try request.requireUser().id))
    }

    @Sendable func checkPermission(_ request: Request) async throws -> Response {
        try Response.json(try await request.callAccounts(config).permission(of: try request.requireUser().id))
    }

    @Sendable func pricing(_ request: Request) async throws -> Response {
        try Response.json(Pricing.current)
    }

    struct ScenarioList: Encodable { var scenarios: [ScenarioView] }

    @Sendable func scenarios(_ request: Request) async throws -> Response {
        let all = try await request.callScenarios(config).all(for: request.auth.get(AuthenticatedUser.self)?.id)
        return try Response.json(ScenarioList(scenarios: all.map(ScenarioView.init)))
    }

    @Sendable func createScenario(_ request: Request) async throws -> Response {
        let body = try request.decodeJSON(CustomScenarioBody.self)
        let userID = try request.requireUser().id
        let scenario = try await request.callScenarios(config).create(body.draft, for: userID)
        config.callAgents(request.application).prepareOpening(of: scenario, for: userID)
        return try Response.json(ScenarioView(scenario), status: .created)
    }

    @Sendable func updateScenario(_ request: Request) async throws -> Response {
        let body = try request.decodeJSON(CustomScenarioBody.self)
        let id = request.parameters.get("id") ?? "", userID = try request.requireUser().id
        let scenario = try await request.callScenarios(config).update(id: id, with: body.draft, for: userID)
        config.callAgents(request.application).prepareOpening(of: scenario, for: userID)
        return try Response.json(ScenarioView(scenario))
    }

    @Sendable func deleteScenario(_ request: Request) async throws -> Response {
        try await request.callScenarios(config).delete(id: request.parameters.get("id") ?? "", for: try request.requireUser().id)
        return Response(status: .noContent)
    }

    struct VoiceView: Encodable {
        var id, name, gender, accent, personality, description: String
    }

    struct VoiceList: Encodable { var voices: [VoiceView] }

    /// The voices, filtered by `gender`, `accent` and `personality` as the app's voice table gives them.
    @Sendable func voices(_ request: Request) async throws -> Response {
        func filter<T: RawRepresentable>(_ name: String, _ type: T.Type) throws -> T? where T.RawValue == String {
            guard let value = request.query[String.self, at: name], !value.isEmpty else { return nil }
            guard let parsed = T(rawValue: value.lowercased()) else {
                throw APIError.badRequest("\"\(value)\" is not a \(name) a voice can have.", code: "invalid_filter")
            }
            return parsed
        }
        let voices = RealtimeVoice.matching(
            gender: try filter("gender", RealtimeVoice.Gender.self), accent: try filter("accent", RealtimeVoice.Accent.self),
            personality: try filter("personality", RealtimeVoice.Personality.self))
        return try Response.json(VoiceList(voices: voices.map {
            VoiceView(id: $0.rawValue, name: $0.displayName, gender: $0.gender.rawValue, accent: $0.accent.rawValue,
                      personality: $0.personality.rawValue, description: $0.description)
        }))
    }

    /// A sample of how a voice sounds on calls played on this machine: the installed live voice
    /// of its gender, saying `text` (default: the voice's own introduction). WAV.
    @Sendable func previewVoice(_ request: Request) async throws -> Response {
        guard let voice = RealtimeVoice(rawValue: request.parameters.get("id") ?? "") else { throw APIError.notFound("voice") }
        guard let narration = config.narration else {
            throw APIError(status: .serviceUnavailable, code: "no_voices", message: "No voice is installed on this server: run scripts/setup.")
        }
        let asked = request.query[String.self, at: "text"].map { String($0.prefix(200)) }.flatMap { $0.isEmpty ? nil : $0 }
        let text = asked ?? "Hi, this is \(voice.displayName). \(voice.description), ready for your call."
        guard text.unicodeScalars.contains(where: { $0.properties.isAlphabetic || $0.properties.numericType != nil }) else {
            throw APIError(status: .unprocessableEntity, code: "nothing_to_say", message: "The text has no words to speak.")
        }
        let local = try await CallAgents.localVoice(like: voice, narration: narration)
        let wav: Data
        do {
            wav = try await narration.preview(local, text: text)
        } catch {
            throw APIError(status: .serviceUnavailable, code: "speech_failed", message: "The voice \(local.voice) could not speak this text: \(error)")
        }
        return Response(status: .ok, headers: ["Content-Type": "audio/wav", "Cache-Control": "private, max-age=3600"], body: .init(data: wav))
    }

    @Sendable func makeCall(_ request: Request) async throws -> Response {
        let body = try request.decodeJSON(MakeCallBody.self)
        let userID = try request.requireUser().id, scenario = body.scenario ?? "default"
        let answer = try await request.phoneCalls(config).makeCall(userID: userID, phoneNumber: body.phone_number, scenarioID: scenario)
        await prepareOpening(of: scenario, for: userID, request)
        return try Response.json(answer)
    }

    /// The call's opening voiced while the phone rings (or the browser's socket opens).
    private func prepareOpening(of scenarioID: String, for userID: UUID, _ request: Request) async {
        guard let scenario = try? await request.callScenarios(config).scenario(id: scenarioID, for: userID) else { return }
        config.callAgents(request.application).prepareOpening(of: scenario, for: userID)
    }

    @Sendable func scheduleCall(_ request: Request) async throws -> Response {
        let body = try request.decodeJSON(ScheduleCallBody.self)
        let scheduled = try await request.scheduledCalls(config).schedule(
            userID: try request.requireUser().id, phoneNumber: body.phone_number, scenarioID: body.scenario ?? "default", time: body.scheduled_time)
        return try Response.json(scheduled)
    }

    struct ScheduleList: Encodable { var scheduled_calls: [ScheduledCallView] }

    @Sendable func scheduledCalls(_ request: Request) async throws -> Response {
        try Response.json(ScheduleList(scheduled_calls: try await request.scheduledCalls(config).list(userID: try request.requireUser().id)))
    }

    @Sendable func cancelScheduledCall(_ request: Request) async throws -> Response {
        guard let id = request.parameters.get("id", as: Int.self) else { throw APIError.notFound("scheduled call") }
        return try Response.json(try await request.scheduledCalls(config).cancel(scheduleID: id, userID: try request.requireUser().id))
    }

    @Sendable func callHistory(_ request: Request) async throws -> Response {
        let limitText = request.query[String.self, at: "limit"]
        guard let limit = limitText.map(Int.init) ?? 10, (1...100).contains(limit) else {
            throw APIError.badRequest("limit must be a whole number from 1 to 100.", code: "invalid_limit")
        }
        return try Response.json(try await request.phoneCalls(config).history(userID: try request.requireUser().id, limit: limit))
    }

    struct PurchaseReply: Encodable {
        var success: Bool
        var message: String
        var usage_stats: PurchaseUsage
    }

    /// The purchase answer's `usage_stats`: the spec's fields plus every field of `UsageStats`,
    /// so both of the app's structs for it decode.
    struct PurchaseUsage: Encodable {
        var stats: UsageStats
        var callsRemainingThisWeek: Int
        var callsRemainingThisMonth: Int

        enum Keys: String, CodingKey { case calls_remaining_this_week, calls_remaining_this_month }

        func encode(to encoder: any Encoder) throws {
            try stats.encode(to: encoder)
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(callsRemainingThisWeek, forKey: .calls_remaining_this_week)
            try container.encode(callsRemainingThisMonth, forKey: .calls_remaining_this_month)
        }

        init(_ outcome: Purchases.Outcome) {
            stats = outcome.usage
            let allowance = outcome.allowance
            // The guide shows both as numbers here: what the plan's own cycle leaves stands in for the other.
            callsRemainingThisWeek = allowance.callsRemainingThisWeek ?? allowance.subscriptionCallsLeft
            callsRemainingThisMonth = allowance.callsRemainingThisMonth ?? callsRemainingThisWeek
        }
    }

    @Sendable func purchase(_ request: Request) async throws -> Response {
        let body = try request.decodeJSON(PurchaseBody.self)
        guard let product = body.product_id ?? body.subscription_tier else {
            throw ServiceError(.badRequest, code: "unknown_product", "Send product_id: speech_assistant_basic_weekly, speech_assistant_premium_monthly or speech_assistant_addon_calls.")
        }
        let outcome = try await request.purchases(config).purchase(
            .init(receiptData: body.receipt_data, isSandbox: body.is_sandbox ?? false, product: product), userID: try request.requireUser().id)
        return try Response.json(PurchaseReply(success: true, message: outcome.message, usage_stats: PurchaseUsage(outcome)))
    }

    struct UpgradeReply: Encodable {
        var success: Bool
        var message: String
        var subscription_tier: String
        var usage_stats: UsageStats
    }

    /// The legacy upgrade: the same verification, answered in its own shape.
    @Sendable func upgrade(_ request: Request) async throws -> Response {
        let body = try request.decodeJSON(PurchaseBody.self)
        guard let tier = body.subscription_tier ?? body.product_id else {
            throw ServiceError(.badRequest, code: "unknown_product", "Send subscription_tier (mobile_weekly or mobile_monthly).")
        }
        let outcome = try await request.purchases(config).purchase(
            .init(receiptData: body.receipt_data, isSandbox: body.is_sandbox ?? false, product: tier), userID: try request.requireUser().id)
        let cycle = outcome.product == .premiumMonthly ? "monthly" : "weekly"
        let message = outcome.isNew ? "Successfully upgraded to \(cycle) subscription!" : outcome.message
        return try Response.json(UpgradeReply(success: true, message: message, subscription_tier: tier, usage_stats: outcome.usage))
    }

    @Sendable func subscriptionStatus(_ request: Request) async throws -> Response {
        try Response.json(try await request.purchases(config).subscriptionStatus(userID: try request.requireUser().id))
    }

    @Sendable func browserCall(_ request: Request) async throws -> Response {
        let body = try request.decodeJSON(BrowserCallBody.self)
        let userID = try request.requireUser().id, scenario = body.scenario ?? "default"
        let ticket = try await request.phoneCalls(config).startBrowserCall(userID: userID, scenarioID: scenario)
        await prepareOpening(of: scenario, for: userID, request)
        return try Response.json(ticket, status: .created)
    }

    struct WebhookReply: Encodable {
        var status = "success"
        var message = "Notification processed successfully"
    }

    /// Apple's notification: verified and kept now, applied by a job; a retry is answered the same.
    @Sendable func appStoreWebhook(_ request: Request) async throws -> Response {
        let body = try request.decodeJSON(AppStoreNotificationBody.self)
        guard let payload = body.signedPayload, !payload.isEmpty else {
            throw ServiceError(.badRequest, code: "missing_signed_payload", "Send App Store Server Notifications V2: {\"signedPayload\": \"…\"}. Unsigned notifications are not trusted.")
        }
        try await StoreNotifications(database: request.appDatabase, services: config.calls, logger: request.logger).receive(signedPayload: payload)
        return try Response.json(WebhookReply())
    }

    /// Twilio's status callback (form-encoded, signed).
    @Sendable func callEndWebhook(_ request: Request) async throws -> Response {
        let body = request.body.string ?? ""
        let fields = FormFields(body: body).all
        try await request.phoneCalls(config).statusCallback(parameters: fields, signature: request.headers.first(name: "X-Twilio-Signature"))
        // Twilio wants a 2xx; an empty TwiML response is what it expects from a callback.
        return Response(status: .ok, headers: ["Content-Type": "text/xml"], body: .init(string: "<Response/>"))
    }
}
