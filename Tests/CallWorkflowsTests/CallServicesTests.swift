import CallWorkflows
import Foundation
import Testing

/// The calls product's settings from the environment: what is not given stays off, what is
/// given halfway stops the server with what is missing, secrets never show.
@Suite struct CallServicesTests {
    @Test func nothingGivenLeavesEveryPartOff() throws {
        let services = try CallServices.fromEnvironment([:])
        #expect(services.twilio == nil && services.appStore == nil && services.realtime == nil)
    }

    @Test func twilioGivenWholeIsConfigured() throws {
        let services = try CallServices.fromEnvironment([
            "TWILIO_ACCOUNT_SID": "AC123", "TWILIO_AUTH_TOKEN": "secret-token", "TWILIO_PHONE_NUMBER": "+1 415 555 0100",
            "STORYVOICE_PUBLIC_URL": "https://calls.example.com",
        ])
        let twilio = try #require(services.twilio)
        #expect(twilio.configuration.fromNumber.e164 == "+14155550100")
        #expect(twilio.configuration.mediaStreamURL == "wss://calls.example.com/media-stream")
        #expect(!"\(twilio.configuration)".contains("secret-token"))
    }

    @Test func twilioGivenHalfwayNamesWhatIsMissing() {
        do {
            _ = try CallServices.fromEnvironment(["TWILIO_ACCOUNT_SID": "AC123", "TWILIO_AUTH_TOKEN": "secret-token"])
            Issue.record("a half-configured Twilio was accepted")
        } catch {
            let message = "\(error)"
            #expect(message.contains("TWILIO_PHONE_NUMBER") && message.contains("STORYVOICE_PUBLIC_URL"))
            #expect(!message.contains("secret-token"))
        }
        #expect(throws: CallConfigurationError.self) {
            try CallServices.fromEnvironment([
                "TWILIO_ACCOUNT_SID": "AC123", "TWILIO_AUTH_TOKEN": "t", "TWILIO_PHONE_NUMBER": "4155550100", "STORYVOICE_PUBLIC_URL": "https://x",
            ])
        }
    }

    @Test func theRealtimeAgentFollowsTheServersOpenAIKeyUnlessKeptLocal() throws {
        #expect(try CallServices.fromEnvironment(["OPENAI_API_KEY": "sk-1"]).realtime?.url == "wss://api.openai.com/v1/realtime?model=gpt-realtime")
        #expect(try CallServices.fromEnvironment(["OPENAI_API_KEY": "sk-1", "STORYVOICE_CALL_AGENT": "local"]).realtime == nil)
    }

    @Test func theAppStoreIsVerifiedOnceItsBundleIsSet() throws {
        let services = try CallServices.fromEnvironment(["APP_STORE_BUNDLE_ID": "com.storyvoice.calls"])
        #expect(services.appStore?.bundleID == "com.storyvoice.calls")
        #expect(services.appStoreServer == nil)
    }
}
