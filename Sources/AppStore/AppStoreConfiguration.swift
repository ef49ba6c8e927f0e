import Foundation
import VendorHTTP
import X509

/// App Store settings from the environment:
///
/// | variable | meaning |
/// |---|---|
/// | `APP_STORE_BUNDLE_ID` | the app's bundle id; purchases are verified only when set |
/// | `APP_STORE_ENVIRONMENTS` | environments accepted, comma-separated (default `Production,Sandbox`) |
/// | `APP_STORE_APP_APPLE_ID` | the app's Apple id, checked on production notifications when set |
/// | `APP_STORE_ISSUER_ID`, `APP_STORE_KEY_ID` | the App Store Connect API key's issuer and id |
/// | `APP_STORE_PRIVATE_KEY` or `APP_STORE_PRIVATE_KEY_FILE` | the `.p8` key's PEM, or its path |
/// | `APP_STORE_API_ENVIRONMENT` | `Production` (default) or `Sandbox`: which server API to ask |
/// | `APP_STORE_API_BASE_URL` | overrides the server API's URL (tests) |
///
/// The server API is optional: without its key the server still verifies signed
/// transactions offline.
public struct AppStoreConfiguration: Sendable {
    public var bundleID: String?
    public var environments: Set<AppStoreEnvironment>
    public var appAppleID: Int64?
    public var api: AppStoreAPICredentials?
    public var apiEnvironment: AppStoreEnvironment
    public var apiBaseURL: String?
    /// The trust anchors; nil (always, outside tests) pins Apple Root CA - G3.
    public var rootCertificates: [Certificate]?

    public init(
        bundleID: String?, environments: Set<AppStoreEnvironment> = [.production, .sandbox], appAppleID: Int64? = nil,
        api: AppStoreAPICredentials? = nil, apiEnvironment: AppStoreEnvironment = .production, apiBaseURL: String? = nil,
        rootCertificates: [Certificate]? = nil
    ) {
        self.bundleID = bundleID
        self.environments = environments
        self.appAppleID = appAppleID
        self.api = api
        self.apiEnvironment = apiEnvironment
        self.apiBaseURL = apiBaseURL
        self.rootCertificates = rootCertificates
    }

    /// - Throws: ``AppStoreError/notConfigured(_:)`` for a setting that is present but unusable
    ///   (a key that is not PEM, a half-given API key); absent settings are not errors.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws(AppStoreError) -> AppStoreConfiguration {
        func value(_ name: String) -> String? {
            environment[name].map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.flatMap { $0.isEmpty ? nil : $0 }
        }
        let bundleID = value("APP_STORE_BUNDLE_ID")
        var configuration = AppStoreConfiguration(bundleID: bundleID, apiBaseURL: value("APP_STORE_API_BASE_URL"))
        if let list = value("APP_STORE_ENVIRONMENTS") {
            configuration.environments = Set(list.split(separator: ",").map { AppStoreEnvironment(rawValue: $0.trimmingCharacters(in: .whitespaces)) })
        }
        if let id = value("APP_STORE_APP_APPLE_ID") {
            guard let number = Int64(id) else { throw .notConfigured("APP_STORE_APP_APPLE_ID must be the app's numeric Apple id") }
            configuration.appAppleID = number
        }
        if let api = value("APP_STORE_API_ENVIRONMENT") { configuration.apiEnvironment = AppStoreEnvironment(rawValue: api) }
        var key = value("APP_STORE_PRIVATE_KEY")
        if key == nil, let path = value("APP_STORE_PRIVATE_KEY_FILE") {
            guard let contents = try? String(contentsOfFile: path, encoding: .utf8) else {
                throw .notConfigured("APP_STORE_PRIVATE_KEY_FILE names a file that cannot be read (\(path))")
            }
            key = contents
        }
        let issuer = value("APP_STORE_ISSUER_ID"), keyID = value("APP_STORE_KEY_ID")
        if issuer != nil || keyID != nil || key != nil {
            guard let issuer, let keyID, let key, let bundleID else {
                throw .notConfigured("the App Store Server API needs APP_STORE_ISSUER_ID, APP_STORE_KEY_ID, APP_STORE_PRIVATE_KEY (or _FILE) and APP_STORE_BUNDLE_ID together")
            }
            configuration.api = try AppStoreAPICredentials(issuerID: issuer, keyID: keyID, bundleID: bundleID, privateKey: Secret(key))
        }
        return configuration
    }

    /// The verifier for these settings, trusting the pinned Apple root (or `rootCertificates`).
    public func verifier(now: @escaping @Sendable () -> Date = { Date() }) throws(AppStoreError) -> AppStoreVerifier {
        guard let bundleID else { throw .notConfigured("no app bundle id is set (APP_STORE_BUNDLE_ID)") }
        return try AppStoreVerifier(rootCertificates: rootCertificates, bundleID: bundleID, environments: environments, appAppleID: appAppleID, now: now)
    }

    /// The server API client, or nil when no API key is configured.
    public func serverClient(transport: VendorTransport) throws(AppStoreError) -> AppStoreServerClient? {
        guard let api else { return nil }
        return try AppStoreServerClient(credentials: api, environment: apiEnvironment, baseURL: apiBaseURL, transport: transport)
    }
}
