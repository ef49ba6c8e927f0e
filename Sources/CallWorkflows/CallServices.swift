import AppStore
import Calls
import VendorHTTP
import Foundation
import Telephony

/// The calls product's effects, configured at the edge (the server's environment) and injected:
/// Twilio, the App Store, the clock. A part that is nil is not configured, and the use cases
/// that need it answer 503 saying what to set.
public struct CallServices: Sendable {
    public var twilio: TwilioClient?
    /// Verifies StoreKit 2 transactions and App Store notifications offline.
    public var appStore: AppStoreVerifier?
    /// Looks a transaction up by id when the app sends one instead of its JWS.
    public var appStoreServer: AppStoreServerClient?
    /// The OpenAI Realtime API with the server's key; nil plays calls with this machine's voice loop.
    public var realtime: RealtimeAgent.Configuration?
    public var now: @Sendable () -> Date

    public init(
        twilio: TwilioClient? = nil, appStore: AppStoreVerifier? = nil, appStoreServer: AppStoreServerClient? = nil,
        realtime: RealtimeAgent.Configuration? = nil, now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.twilio = twilio
        self.appStore = appStore
        self.appStoreServer = appStoreServer
        self.realtime = realtime
        self.now = now
    }
}

/// A calls setting that is present but unusable: the server does not start with it.
public struct CallConfigurationError: Error, CustomStringConvertible, Sendable {
    public var description: String
}

extension CallServices {
    /// Reads Twilio (`TWILIO_ACCOUNT_SID`, `TWILIO_AUTH_TOKEN`, `TWILIO_PHONE_NUMBER`,
    /// `STORYVOICE_PUBLIC_URL`, and `TWILIO_API_BASE_URL` for tests) and the App Store
    /// (`AppStoreConfiguration.fromEnvironment`), and the Realtime API for the voice agent
    /// (`OPENAI_API_KEY`, `OPENAI_REALTIME_URL`, `OPENAI_REALTIME_MODEL`; `STORYVOICE_CALL_AGENT=local`
    /// keeps calls on this machine). A part given halfway throws, naming what is missing; a
    /// part not given at all stays nil.
    public static func fromEnvironment(_ environment: [String: String]) throws -> CallServices {
        func value(_ name: String) -> String? {
            environment[name].map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.flatMap { $0.isEmpty ? nil : $0 }
        }
        var services = CallServices()
        let twilioNames = ["TWILIO_ACCOUNT_SID", "TWILIO_AUTH_TOKEN", "TWILIO_PHONE_NUMBER", "STORYVOICE_PUBLIC_URL"]
        let given = twilioNames.filter { value($0) != nil }
        if given.count == twilioNames.count, let sid = value("TWILIO_ACCOUNT_SID"), let token = value("TWILIO_AUTH_TOKEN"),
           let number = value("TWILIO_PHONE_NUMBER"), let publicURL = value("STORYVOICE_PUBLIC_URL") {
            guard let from = try? PhoneNumber(number) else {
                throw CallConfigurationError(description: "TWILIO_PHONE_NUMBER must be the system number in E.164 (+14155550100).")
            }
            guard publicURL.hasPrefix("https://") || publicURL.hasPrefix("http://") else {
                throw CallConfigurationError(description: "STORYVOICE_PUBLIC_URL must be the server's public http(s) address, which Twilio calls back.")
            }
            services.twilio = TwilioClient(configuration: TwilioConfiguration(
                accountSID: sid, authToken: Secret(token), fromNumber: from, publicBaseURL: publicURL,
                apiBaseURL: value("TWILIO_API_BASE_URL") ?? "https://api.twilio.com"))
        } else if !given.isEmpty {
            let missing = twilioNames.filter { value($0) == nil }.joined(separator: ", ")
            throw CallConfigurationError(description: "Phone calls need \(missing) as well as \(given.joined(separator: ", ")).")
        }
        if let key = value("OPENAI_API_KEY"), value("STORYVOICE_CALL_AGENT") != "local" {
            services.realtime = RealtimeAgent.Configuration(
                apiKey: Secret(key), baseURL: value("OPENAI_REALTIME_URL") ?? RealtimeAgent.Configuration.defaultBaseURL,
                model: value("OPENAI_REALTIME_MODEL") ?? RealtimeAgent.Configuration.defaultModel)
        }
        do {
            let appStore = try AppStoreConfiguration.fromEnvironment(environment)
            if appStore.bundleID != nil {
                services.appStore = try appStore.verifier()
                services.appStoreServer = try appStore.serverClient(
                    transport: VendorTransport(key: nil, timeout: 30, limiter: ConcurrencyLimiter(limit: 4)))
            }
        } catch {
            throw CallConfigurationError(description: "App Store settings: \(error.message)")
        }
        return services
    }
}
